import Foundation
import SAXDispatch
import Testing

/// Names as long as the name limit allows, as deep as the depth limit allows: every error
/// still renders as one short line that names the start of each long name and says it was
/// cut, while the values the error stores stay whole.
@Suite("Error messages with very long names")
struct LongNameMessageTests {
    /// A name of 50,000 bytes, the default `maximumNameBytes`, with a recognizable start.
    static let long = "averyveryverylongelementname_abcdefghijkl" + String(repeating: "x", count: 50_000 - 41)
    /// What a message keeps of it.
    static let kept = String(long.prefix(40))
    /// The longest line an error may render.
    static let maximumLine = 1_000

    /// `depth` levels of the long name, opened.
    static func opened(_ depth: Int) -> String {
        String(repeating: "<\(long)>", count: depth)
    }

    /// A profile that allows 300 levels and changes `change`.
    static func profile(_ change: (inout SafetyProfile) -> Void = { _ in }) -> SafetyProfile {
        var profile = SafetyProfile.default
        profile.maximumDepth = 300
        change(&profile)
        return profile
    }

    /// Parses `document` with a dispatcher that builds `record`, if any, or else collects
    /// every element's text, and returns what it threw.
    static func error(_ document: String, safety: SafetyProfile = profile(), record: XMLRecord<Int>? = nil) -> (any Error)? {
        var dispatcher = Dispatcher()
        dispatcher.safety = safety
        if let record {
            dispatcher.onRecord(record) { _ in }
        } else {
            dispatcher.onAnyEnd { _, _ in }
        }
        do {
            _ = try dispatcher.parse(.string(document))
            return nil
        } catch {
            return error
        }
    }

    static func expectShort(_ error: (any Error)?, cutting name: String = long, _ what: String) {
        guard let error else {
            Issue.record("\(what): no error")
            return
        }
        let text = String(describing: error)
        for line in text.split(separator: "\n") {
            #expect(line.utf8.count <= maximumLine, "\(what): a line of \(line.utf8.count) bytes")
        }
        #expect(text.contains(String(name.prefix(40)) + "… (\(name.utf8.count) bytes)"), "\(what): \(text.prefix(300))")
    }

    @Test("the depth limit, and a mismatched tag 257 levels down")
    func deepPaths() throws {
        let tooDeep = Self.error(Self.opened(257), safety: .default)
        Self.expectShort(tooDeep, "depth limit")
        let parseError = try #require(tooDeep as? XMLParseError)
        #expect(parseError.code == .depthLimitExceeded)
        #expect(parseError.elementPath.components.count == 256)
        #expect(parseError.elementPath.components.allSatisfy { $0 == Self.long }, "the stored path stays whole")
        #expect(parseError.description.contains(" (256 levels))"))

        let mismatch = Self.error(Self.opened(257) + "</wrong>")
        Self.expectShort(mismatch, "mismatched tag")
        #expect((mismatch as? XMLParseError)?.code == .tagMismatch)
    }

    @Test("an undefined entity, an external entity and attribute declarations with long names")
    func declarations() {
        let undefined = Self.error("<!DOCTYPE r SYSTEM 'r.dtd'><r>&\(Self.long);</r>")
        Self.expectShort(undefined, "undefined entity")
        #expect((undefined as? XMLParseError)?.code == .undefinedEntity)

        let external = Self.error("<!DOCTYPE r [<!ENTITY \(Self.long) SYSTEM '\(Self.long)'>]><r>&\(Self.long);</r>")
        Self.expectShort(external, "external entity")
        #expect((external as? XMLParseError)?.code == .externalEntityForbidden)

        let attributes = Self.error(
            "<!DOCTYPE r [<!ATTLIST \(Self.long) a CDATA #IMPLIED b CDATA #IMPLIED>]><r/>",
            safety: Self.profile { $0.maximumAttributes = 1 })
        Self.expectShort(attributes, "attribute declarations")
        #expect((attributes as? XMLParseError)?.code == .attributeLimitExceeded)
    }

    @Test("the text limit on a long-named element")
    func textLimit() {
        let error = Self.error(
            "<r>" + Self.opened(1) + String(repeating: "t", count: 100) + "</\(Self.long)></r>",
            safety: Self.profile { $0.maximumTextBytes = 10 })
        Self.expectShort(error, "text limit")
        #expect((error as? XMLParseError)?.code == .textLimitExceeded)
    }

    @Test("a record that cannot be built, 257 levels down, on its own and on a dispatcher; long text")
    func records() throws {
        let number = XMLRecord("v", .value(".", as: Int.self)) { $0 }
        let document = Self.opened(257) + "<v>not a number</v>"
        let alone = #expect(throws: XMLRecordError.self) { _ = try number.all(in: .string(document), safety: Self.profile()) }
        Self.expectShort(alone, "record")
        #expect(alone?.failures.first?.elementPath.components.count == 258)

        let wrapped = Self.error(document, record: number)
        Self.expectShort(wrapped, "record on a dispatcher")
        #expect(wrapped is HandlerError)

        // One character of 100,000 combining marks is cut on a scalar boundary.
        let mark = "a" + String(repeating: "\u{301}", count: 100_000)
        let text = #expect(throws: XMLRecordError.self) { _ = try number.all(in: .string("<v>\(mark)</v>")) }
        let line = text?.description ?? ""
        #expect(line.utf8.count <= Self.maximumLine)
        #expect(line.hasPrefix("<string>:1:1: error: cannot convert \""))
        #expect(line.hasSuffix("…\" to Int at v (in record Int, field .): expected an integer"))
    }

    @Test("a decoded record too large or unconvertible, named by a long name")
    func decoding() throws {
        struct Value: Decodable { let v: Int }
        var decoder = XMLRecordDecoder()
        decoder.maximumRecordBytes = 1_000
        let large = #expect(throws: XMLParseError.self) {
            _ = try decoder.all(
                Value.self, at: ElementPattern(name: Self.long), in: .string("<r>" + Self.opened(1) + "<v>1</v></\(Self.long)></r>"),
                safety: Self.profile())
        }
        Self.expectShort(large, "record size")
        #expect(large?.code == .recordSizeLimitExceeded)
        #expect(large?.elementPath.components.last == Self.long)

        do {
            _ = try XMLRecordDecoder().all(Value.self, at: "r", in: .string(Self.opened(257) + "<r><v>x</v></r>"), safety: Self.profile())
            Issue.record("decoded 'x' as an Int")
        } catch let error as XMLDecodingError {
            guard case .dataCorrupted(let context) = error.underlying else { Issue.record("\(error)"); return }
            Self.expectShort(DescribedError(description: context.debugDescription), "decoding")
        }
    }

    /// A message to check as an error's description.
    struct DescribedError: Error, CustomStringConvertible {
        var description: String
    }
}
