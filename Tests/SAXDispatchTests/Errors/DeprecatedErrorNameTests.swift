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
}

private protocol DeprecatedNameChecks {
    func recordSizeLimitDescription() -> String
}

private struct DeprecatedNames: DeprecatedNameChecks {
    @available(*, deprecated)
    func recordSizeLimitDescription() -> String {
        RecordSizeLimitError(elementName: "page", line: 2, column: 1, limit: 1_000, source: "dump.xml").description
    }
}
