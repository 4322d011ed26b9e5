import CExpat
import Foundation
import SAXDispatch
import Testing

/// Holds ``XMLParseError/Code`` to every error code of the expat header the package is
/// built against, as swift-system holds `Errno` to `errno.h`: each named code has the
/// value of its C constant, no enumerator of `enum XML_Error` lacks a named code, and
/// every code reads as something.
@Suite("XMLParseError.Code matches expat's enum XML_Error")
struct ExpatErrorCodeParityTests {
    typealias Code = XMLParseError.Code

    /// A named code and the expat enumerator it stands for.
    struct Pair: Sendable, CustomTestStringConvertible {
        var code: Code
        /// The enumerator's name in `expat.h`, such as `XML_ERROR_TAG_MISMATCH`.
        var cName: String
        /// The C constant's value, where the header this test compiles against defines it.
        var cValue: Int?
        /// The expat release that added the enumerator, for those newer than the header
        /// the table names constants from (2.5.0).
        var since: (major: Int, minor: Int, micro: Int)?

        init(_ code: Code, _ cName: String, _ constant: XML_Error) {
            self.code = code
            self.cName = cName
            self.cValue = Int(constant.rawValue)
        }

        /// An enumerator newer than 2.5.0's header: Swift's `#if` cannot test a C macro,
        /// so its constant cannot be named where the header lacks it; it is checked against
        /// the header's text instead, when the header defines it.
        init(_ code: Code, _ cName: String, since: (Int, Int, Int)) {
            self.code = code
            self.cName = cName
            self.since = since
        }

        var testDescription: String { "\(code) = \(cName)" }
    }

    /// Every expat code ``XMLParseError/Code`` names, with its C enumerator.
    static let table: [Pair] = [
        Pair(.noMemory, "XML_ERROR_NO_MEMORY", XML_ERROR_NO_MEMORY),
        Pair(.syntax, "XML_ERROR_SYNTAX", XML_ERROR_SYNTAX),
        Pair(.noElements, "XML_ERROR_NO_ELEMENTS", XML_ERROR_NO_ELEMENTS),
        Pair(.invalidToken, "XML_ERROR_INVALID_TOKEN", XML_ERROR_INVALID_TOKEN),
        Pair(.unclosedToken, "XML_ERROR_UNCLOSED_TOKEN", XML_ERROR_UNCLOSED_TOKEN),
        Pair(.partialCharacter, "XML_ERROR_PARTIAL_CHAR", XML_ERROR_PARTIAL_CHAR),
        Pair(.tagMismatch, "XML_ERROR_TAG_MISMATCH", XML_ERROR_TAG_MISMATCH),
        Pair(.duplicateAttribute, "XML_ERROR_DUPLICATE_ATTRIBUTE", XML_ERROR_DUPLICATE_ATTRIBUTE),
        Pair(.junkAfterDocumentElement, "XML_ERROR_JUNK_AFTER_DOC_ELEMENT", XML_ERROR_JUNK_AFTER_DOC_ELEMENT),
        Pair(.parameterEntityReference, "XML_ERROR_PARAM_ENTITY_REF", XML_ERROR_PARAM_ENTITY_REF),
        Pair(.undefinedEntity, "XML_ERROR_UNDEFINED_ENTITY", XML_ERROR_UNDEFINED_ENTITY),
        Pair(.recursiveEntityReference, "XML_ERROR_RECURSIVE_ENTITY_REF", XML_ERROR_RECURSIVE_ENTITY_REF),
        Pair(.asynchronousEntity, "XML_ERROR_ASYNC_ENTITY", XML_ERROR_ASYNC_ENTITY),
        Pair(.badCharacterReference, "XML_ERROR_BAD_CHAR_REF", XML_ERROR_BAD_CHAR_REF),
        Pair(.binaryEntityReference, "XML_ERROR_BINARY_ENTITY_REF", XML_ERROR_BINARY_ENTITY_REF),
        Pair(
            .attributeExternalEntityReference, "XML_ERROR_ATTRIBUTE_EXTERNAL_ENTITY_REF",
            XML_ERROR_ATTRIBUTE_EXTERNAL_ENTITY_REF),
        Pair(.misplacedXMLDeclaration, "XML_ERROR_MISPLACED_XML_PI", XML_ERROR_MISPLACED_XML_PI),
        Pair(.unknownEncoding, "XML_ERROR_UNKNOWN_ENCODING", XML_ERROR_UNKNOWN_ENCODING),
        Pair(.incorrectEncoding, "XML_ERROR_INCORRECT_ENCODING", XML_ERROR_INCORRECT_ENCODING),
        Pair(.unclosedCDATASection, "XML_ERROR_UNCLOSED_CDATA_SECTION", XML_ERROR_UNCLOSED_CDATA_SECTION),
        Pair(.externalEntityHandling, "XML_ERROR_EXTERNAL_ENTITY_HANDLING", XML_ERROR_EXTERNAL_ENTITY_HANDLING),
        Pair(.notStandalone, "XML_ERROR_NOT_STANDALONE", XML_ERROR_NOT_STANDALONE),
        Pair(.unexpectedState, "XML_ERROR_UNEXPECTED_STATE", XML_ERROR_UNEXPECTED_STATE),
        Pair(.entityDeclaredInParameterEntity, "XML_ERROR_ENTITY_DECLARED_IN_PE", XML_ERROR_ENTITY_DECLARED_IN_PE),
        Pair(.featureRequiresDTD, "XML_ERROR_FEATURE_REQUIRES_XML_DTD", XML_ERROR_FEATURE_REQUIRES_XML_DTD),
        Pair(
            .cannotChangeFeatureOnceParsing, "XML_ERROR_CANT_CHANGE_FEATURE_ONCE_PARSING",
            XML_ERROR_CANT_CHANGE_FEATURE_ONCE_PARSING),
        Pair(.unboundPrefix, "XML_ERROR_UNBOUND_PREFIX", XML_ERROR_UNBOUND_PREFIX),
        Pair(.undeclaringPrefix, "XML_ERROR_UNDECLARING_PREFIX", XML_ERROR_UNDECLARING_PREFIX),
        Pair(.incompleteParameterEntity, "XML_ERROR_INCOMPLETE_PE", XML_ERROR_INCOMPLETE_PE),
        Pair(.xmlDeclaration, "XML_ERROR_XML_DECL", XML_ERROR_XML_DECL),
        Pair(.textDeclaration, "XML_ERROR_TEXT_DECL", XML_ERROR_TEXT_DECL),
        Pair(.publicID, "XML_ERROR_PUBLICID", XML_ERROR_PUBLICID),
        Pair(.suspended, "XML_ERROR_SUSPENDED", XML_ERROR_SUSPENDED),
        Pair(.notSuspended, "XML_ERROR_NOT_SUSPENDED", XML_ERROR_NOT_SUSPENDED),
        Pair(.aborted, "XML_ERROR_ABORTED", XML_ERROR_ABORTED),
        Pair(.finished, "XML_ERROR_FINISHED", XML_ERROR_FINISHED),
        Pair(.suspendParameterEntity, "XML_ERROR_SUSPEND_PE", XML_ERROR_SUSPEND_PE),
        Pair(.reservedPrefixXML, "XML_ERROR_RESERVED_PREFIX_XML", XML_ERROR_RESERVED_PREFIX_XML),
        Pair(.reservedPrefixXMLNS, "XML_ERROR_RESERVED_PREFIX_XMLNS", XML_ERROR_RESERVED_PREFIX_XMLNS),
        Pair(.reservedNamespaceURI, "XML_ERROR_RESERVED_NAMESPACE_URI", XML_ERROR_RESERVED_NAMESPACE_URI),
        Pair(.invalidArgument, "XML_ERROR_INVALID_ARGUMENT", XML_ERROR_INVALID_ARGUMENT),            // 2.2.1
        Pair(.noBuffer, "XML_ERROR_NO_BUFFER", XML_ERROR_NO_BUFFER),                                 // 2.3.0
        Pair(
            .amplificationLimitBreach, "XML_ERROR_AMPLIFICATION_LIMIT_BREACH",
            XML_ERROR_AMPLIFICATION_LIMIT_BREACH),                                                  // 2.4.0
        Pair(.notStarted, "XML_ERROR_NOT_STARTED", since: (2, 6, 4)),
    ]

    /// The library's own codes, from 1000 up: no expat enumerator stands for them.
    static let ownCodes: [Code] = [
        .truncated, .depthLimitExceeded, .attributeLimitExceeded, .nameLimitExceeded, .tokenLimitExceeded,
        .textLimitExceeded, .entityLimitExceeded, .memoryLimitExceeded, .externalEntityForbidden,
        .internalSubsetForbidden, .streamBacklogExceeded,
    ]

    // MARK: Reading the header

    /// The `expat.h` the package builds against: in the directory
    /// `pkg-config --variable=includedir expat` names (as SwiftPM finds the `CExpat` module's
    /// flags), else `/usr/include/expat.h`; nil when neither exists.
    static let header: URL? = {
        var candidates: [String] = []
        if let directory = pkgConfigIncludeDirectory() { candidates.append(directory + "/expat.h") }
        candidates.append("/usr/include/expat.h")
        return candidates.first { FileManager.default.fileExists(atPath: $0) }.map { URL(fileURLWithPath: $0) }
    }()

    static let headerMissing: Comment =
        "skipped: no expat.h found (neither in `pkg-config --variable=includedir expat` nor at /usr/include/expat.h)"

    static func pkgConfigIncludeDirectory() -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pkg-config", "--variable=includedir", "expat"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        let directory = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return directory.isEmpty ? nil : directory
    }

    /// The enumerators of `enum XML_Error` in header text, with their values, in order:
    /// comments removed, values counted from 0 unless an enumerator says `= N`.
    static func errorEnumerators(inHeader text: String) -> [(name: String, value: Int)] {
        guard let start = text.range(of: "enum XML_Error {"),
            let end = text.range(of: "};", range: start.upperBound..<text.endIndex)
        else { return [] }
        var body = String(text[start.upperBound..<end.lowerBound])
        while let open = body.range(of: "/*"), let close = body.range(of: "*/", range: open.upperBound..<body.endIndex) {
            body.removeSubrange(open.lowerBound..<close.upperBound)
        }
        body = body.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line) }
            .joined(separator: "\n")
        var enumerators: [(name: String, value: Int)] = []
        var next = 0
        for item in body.split(separator: ",") {
            let parts = item.split(separator: "=").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            guard let name = parts.first, !name.isEmpty else { continue }
            if parts.count > 1, let value = Int(parts[1]) { next = value }
            enumerators.append((name, next))
            next += 1
        }
        return enumerators
    }

    /// The `XML_ERROR_*` enumerators of `header` that `table` lacks (`XML_ERROR_NONE` is no error).
    static func missing(from table: [Pair], header: String) -> [String] {
        let named = Set(table.map(\.cName))
        return errorEnumerators(inHeader: header).map(\.name)
            .filter { $0.hasPrefix("XML_ERROR_") && $0 != "XML_ERROR_NONE" && !named.contains($0) }
    }

    /// The version `XML_MAJOR_VERSION`, `XML_MINOR_VERSION` and `XML_MICRO_VERSION` say.
    static let headerVersion = (major: Int(XML_MAJOR_VERSION), minor: Int(XML_MINOR_VERSION), micro: Int(XML_MICRO_VERSION))

    static func isAtLeast(_ version: (major: Int, minor: Int, micro: Int), _ since: (major: Int, minor: Int, micro: Int))
        -> Bool
    {
        (version.major, version.minor, version.micro) >= (since.major, since.minor, since.micro)
    }

    // MARK: The tests

    @Test("each named code has its C constant's value", arguments: table)
    func valuesMatch(_ pair: Pair) throws {
        if let value = pair.cValue {
            #expect(pair.code.rawValue == value, "\(pair.code) is \(pair.code.rawValue), \(pair.cName) is \(value)")
            return
        }
        // Newer than the header the table names constants from: read the installed header
        // (without one, the completeness test below reports the skip).
        guard let header = Self.header else { return }
        let text = try String(contentsOf: header, encoding: .utf8)
        let value = Self.errorEnumerators(inHeader: text).first { $0.name == pair.cName }?.value
        if let since = pair.since, Self.isAtLeast(Self.headerVersion, since) {
            #expect(value != nil, "\(header.path) is expat \(Self.headerVersion) but does not define \(pair.cName)")
        }
        if let value {
            #expect(pair.code.rawValue == value, "\(pair.code) is \(pair.code.rawValue), \(pair.cName) is \(value)")
        }
    }

    @Test(
        "every XML_ERROR_* enumerator of the installed expat.h has a named code",
        .enabled(if: header != nil, headerMissing))
    func everyEnumeratorIsNamed() throws {
        let header = try #require(Self.header)
        let text = try String(contentsOf: header, encoding: .utf8)
        let enumerators = Self.errorEnumerators(inHeader: text)
        try #require(enumerators.count > 40, "found only \(enumerators.count) enumerators of enum XML_Error in \(header.path)")
        for name in Self.missing(from: Self.table, header: text) {
            Issue.record("\(header.path) defines \(name), which XMLParseError.Code does not name")
        }
        // The reading of the header agrees with the compiler's, constant by constant.
        let values = Dictionary(enumerators.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        for pair in Self.table {
            guard let cValue = pair.cValue else { continue }
            #expect(values[pair.cName] == cValue, "\(pair.cName): the header reads \(values[pair.cName] ?? -1)")
        }
    }

    @Test("the check names an enumerator the table lacks, and reads expat 2.6.4's enum whole")
    func checkNoticesAMissingEnumerator() {
        // The tail of `enum XML_Error` as expat 2.6.4 and later declare it.
        let newer = """
            enum XML_Error {
              XML_ERROR_NONE,
              XML_ERROR_NO_MEMORY, /* a comment, with a comma */
              // Added in 2.4.0.
              XML_ERROR_AMPLIFICATION_LIMIT_BREACH = 43,
              /* Added in 2.6.4. */
              XML_ERROR_NOT_STARTED,
              XML_ERROR_INVENTED_FOR_THIS_TEST
            };
            """
        let enumerators = Self.errorEnumerators(inHeader: newer)
        #expect(enumerators.map(\.name) == [
            "XML_ERROR_NONE", "XML_ERROR_NO_MEMORY", "XML_ERROR_AMPLIFICATION_LIMIT_BREACH", "XML_ERROR_NOT_STARTED",
            "XML_ERROR_INVENTED_FOR_THIS_TEST",
        ])
        #expect(enumerators.map(\.value) == [0, 1, 43, 44, 45])
        #expect(Self.missing(from: Self.table, header: newer) == ["XML_ERROR_INVENTED_FOR_THIS_TEST"])
    }

    @Test("named codes are distinct, and every code reads as something")
    func descriptions() {
        let codes = Self.table.map(\.code) + Self.ownCodes
        #expect(Set(codes).count == codes.count, "two named codes share a raw value")
        for code in codes {
            #expect(!code.description.isEmpty)
            #expect(code.description != "code \(code.rawValue)", "\(code.rawValue) has no name")
        }
        // Expat's codes carry expat's message (XML_ErrorString), for the codes the linked expat knows.
        let linked = XML_ExpatVersionInfo()
        let linkedVersion = (major: Int(linked.major), minor: Int(linked.minor), micro: Int(linked.micro))
        for pair in Self.table {
            if let since = pair.since, !Self.isAtLeast(linkedVersion, since) { continue }
            let message = XML_ErrorString(XML_Error(rawValue: UInt32(pair.code.rawValue))).map { String(cString: $0) }
            #expect(message?.isEmpty == false, "expat \(linkedVersion) has no message for \(pair.cName)")
        }
    }
}
