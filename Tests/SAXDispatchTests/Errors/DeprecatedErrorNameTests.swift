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

    @Test("ElementPatternError, RecordFieldPathError and NamespaceBindingError are XMLPatternError, with the old members")
    func patternErrorNames() throws {
        let checks = DeprecatedNames() as any DeprecatedNameChecks
        let pattern = #expect(throws: XMLPatternError.self) { try checks.throwAsElementPatternError() }
        #expect(pattern?.kind == .elementPattern && pattern?.text == "a//" && pattern?.column == 4)
        #expect(pattern?.description == "invalid pattern \"a//\" at column 4: what")
        let path = #expect(throws: XMLPatternError.self) { try checks.throwAsRecordFieldPathError() }
        #expect(path?.description == "invalid field path \"/zoo\": what")
        #expect(checks.oldMembers() == ["a//", "/zoo", "a", "urn:1", ""])
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
    func throwAsElementPatternError() throws
    func throwAsRecordFieldPathError() throws
    func oldMembers() -> [String]
}

private struct DeprecatedNames: DeprecatedNameChecks {
    @available(*, deprecated)
    func recordSizeLimitDescription() -> String {
        RecordSizeLimitError(elementName: "page", line: 2, column: 1, limit: 1_000, source: "dump.xml").description
    }

    @available(*, deprecated)
    func throwAsElementPatternError() throws {
        throw ElementPatternError(pattern: "a//", column: 4, message: "what")
    }

    @available(*, deprecated)
    func throwAsRecordFieldPathError() throws {
        throw RecordFieldPathError(path: "/zoo", message: "what")
    }

    /// The members of the old types, read through the aliases: a binding's prefix and URI,
    /// and empty ones for another kind.
    @available(*, deprecated)
    func oldMembers() -> [String] {
        let binding: NamespaceBindingError = XMLPatternError(binding: "a", to: "urn:1", message: "what")
        let pattern: ElementPatternError = XMLPatternError(.elementPattern, text: "a//", column: 4, message: "what")
        let path: RecordFieldPathError = XMLPatternError(.fieldPath, text: "/zoo", message: "what")
        return [pattern.pattern, path.path, binding.prefix, binding.uri, pattern.prefix]
    }

    @available(*, deprecated)
    func recordNotFoundDescription() -> String {
        RecordNotFoundError(recordName: "Zoo", pattern: "/zoo", source: "zoo.xml", skipped: 2).description
    }
}
