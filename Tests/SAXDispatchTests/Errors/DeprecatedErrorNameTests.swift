@testable import SAXDispatch
import Testing

/// The error names that issue 45 replaced still compile and describe themselves as before,
/// for one release. Their uses are in deprecated members reached through a protocol, so
/// that the test build stays free of deprecation warnings.
@Suite("Errors: deprecated names")
struct DeprecatedErrorNameTests {
    @Test("RecordSizeLimitError, no longer thrown, still describes itself")
    func recordSizeLimit() {
        #expect((DeprecatedNames() as any DeprecatedNameChecks).recordSizeLimitDescription() == "dump.xml:2:1: <page> holds more than maximumRecordBytes (1000 bytes) of names, attributes and text")
    }

    @Test("RecordNotFoundError, no longer thrown, still describes itself as XMLRecordError's notFound does")
    func recordNotFound() {
        let expected = "zoo.xml: error: no element matching /zoo could be built: the failure policy skipped all 2 (record Zoo)"
        #expect((DeprecatedNames() as any DeprecatedNameChecks).recordNotFoundDescription() == expected)
        #expect(XMLRecordError(recordName: "Zoo", notFound: "/zoo", skipped: 2, source: "zoo.xml").description == expected)
    }
}

private protocol DeprecatedNameChecks {
    func recordSizeLimitDescription() -> String
    func recordNotFoundDescription() -> String
}

private struct DeprecatedNames: DeprecatedNameChecks {
    @available(*, deprecated)
    func recordSizeLimitDescription() -> String {
        RecordSizeLimitError(elementName: "page", line: 2, column: 1, limit: 1_000, source: "dump.xml").description
    }

    @available(*, deprecated)
    func recordNotFoundDescription() -> String {
        RecordNotFoundError(recordName: "Zoo", pattern: "/zoo", source: "zoo.xml", skipped: 2).description
    }
}
