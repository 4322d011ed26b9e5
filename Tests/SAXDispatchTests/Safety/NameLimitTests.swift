import Foundation
import SAXDispatch
import SAXDispatchTestSupport
import Testing

/// `maximumNameBytes` (UTF-8 bytes) holds for every name a document carries: in the
/// prolog, and in start tags of every input encoding.
@Suite("Name limits")
struct NameLimitTests {
    /// What a parse gave: the events its handlers saw, or the error's code, position and path.
    enum Outcome: Equatable, CustomStringConvertible {
        case events([String])
        case error(XMLParseError.Code, line: Int, column: Int, byteOffset: Int, path: ElementPath)

        var description: String {
            switch self {
            case .events(let events): "events \(events)"
            case .error(let code, let line, let column, let offset, let path): "\(code) at \(line):\(column)+\(offset) in \(path)"
            }
        }

        static func error(_ code: XMLParseError.Code, _ line: Int, _ column: Int, _ byteOffset: Int, _ path: ElementPath = [])
            -> Outcome
        {
            .error(code, line: line, column: column, byteOffset: byteOffset, path: path)
        }
    }

    /// The outcome of `bytes` under a name limit of `limit` bytes, fed whole and one byte at
    /// a time (both must agree), with handlers for every prolog event and every element.
    static func outcome(_ bytes: [UInt8], limit: SafetyProfile.Limit) -> Outcome {
        var outcomes: [Outcome] = []
        for size in [max(1, bytes.count), 1] {
            var events: [String] = []
            var dispatcher = Dispatcher()
            dispatcher.safety.maximumNameBytes = limit
            dispatcher.onProcessingInstruction { target, _ in events.append("pi \(target)") }
            dispatcher.onDoctype { events.append("doctype \($0.name)") }
            dispatcher.onNotationDeclaration { events.append("notation \($0.name)") }
            dispatcher.onStart(.any) { events.append("start \($0.name)") }
            let parser = PushParser(dispatcher)
            do {
                try parser.feed(bytes, inPiecesOf: size)
                try parser.finish()
                outcomes.append(.events(events))
            } catch let error as XMLParseError {
                #expect(error.code != .nameLimitExceeded || error.limit == limit.value)
                outcomes.append(.error(error.code, error.line, error.column, error.byteOffset, error.elementPath))
            } catch {
                outcomes.append(.events(["unexpected \(error)"]))
            }
        }
        #expect(outcomes[0] == outcomes[1], "fed whole, then one byte at a time")
        return outcomes[0]
    }

    static func outcome(_ document: String, limit: SafetyProfile.Limit = 8) -> Outcome {
        outcome(Array(document.utf8), limit: limit)
    }

    /// Names in the prolog reach no start tag: their own declarations are checked, at the
    /// position expat reports for them (a processing instruction's start, a DOCTYPE's `[`
    /// or `>`, a notation's last literal, the end of an element type declaration's content
    /// specification).
    @Test("processing instruction targets, DOCTYPE, notation and element type declaration names", arguments: [
        ("<?abcdefgh data?><r/>", Outcome.events(["pi abcdefgh", "start r"])),
        ("<?abcdefghi data?><r/>", .error(.nameLimitExceeded, 1, 1, 0)),
        ("<?éééé?><r/>", .events(["pi éééé", "start r"])),
        ("<?ééééé?><r/>", .error(.nameLimitExceeded, 1, 1, 0)),
        ("<r>\n <?abcdefghi?></r>", .error(.nameLimitExceeded, 2, 2, 5, ["r"])),
        ("<r/><?abcdefghi?>", .error(.nameLimitExceeded, 1, 5, 4)),
        ("<!DOCTYPE abcdefgh><abcdefgh/>", .events(["doctype abcdefgh", "start abcdefgh"])),
        ("<!DOCTYPE abcdefghi><abcdefghi/>", .error(.nameLimitExceeded, 1, 20, 19)),
        ("<!DOCTYPE abcdefghi [<!ELEMENT r ANY>]><r/>", .error(.nameLimitExceeded, 1, 21, 20)),
        ("<!DOCTYPE r [<!NOTATION abcdefgh SYSTEM 'x.exe'>]><r/>", .events(["doctype r", "notation abcdefgh", "start r"])),
        ("<!DOCTYPE r [<!NOTATION abcdefghi SYSTEM 'x.exe'>]><r/>", .error(.nameLimitExceeded, 1, 42, 41)),
        ("<!DOCTYPE r [<!ELEMENT abcdefgh ANY>]><r/>", .events(["doctype r", "start r"])),
        ("<!DOCTYPE r [<!ELEMENT abcdefghi ANY>]><r/>", .error(.nameLimitExceeded, 1, 34, 33)),
        ("<!DOCTYPE r [<!ELEMENT r (a, (b | abcdefgh)*)>]><r/>", .events(["doctype r", "start r"])),
        ("<!DOCTYPE r [<!ELEMENT r (a, (b | abcdefghi)*)>]><r/>", .error(.nameLimitExceeded, 1, 46, 45)),
        ("<!DOCTYPE r [<?abcdefghi?>]><r/>", .error(.nameLimitExceeded, 1, 14, 13)),
    ])
    func prologNames(document: String, expected: Outcome) {
        #expect(Self.outcome(document) == expected)
    }

    /// A document in an encoding whose characters take fewer input bytes than UTF-8 bytes:
    /// a name of `limit` UTF-8 bytes passes, and one of `limit + 1` is caught however small
    /// its tag is in input bytes, as an element name or an attribute name.
    struct Encoded: CustomStringConvertible, Sendable {
        var encoding: String
        var limit: Int
        /// A name of exactly `limit` UTF-8 bytes.
        var name: String
        var encode: @Sendable (String) -> [UInt8]

        var description: String { "\(encoding), limit \(limit)" }
    }

    static let encodings: [Encoded] = [
        // é: 1 byte in ISO-8859-1, 2 in UTF-8.
        Encoded(encoding: "ISO-8859-1", limit: 20, name: String(repeating: "é", count: 10)) { text in
            Array("<?xml version='1.0' encoding='ISO-8859-1'?>".utf8) + text.unicodeScalars.map { UInt8($0.value) }
        },
        // Œ: 1 byte (0x8C) in windows-1252, 2 in UTF-8. (Its 3-byte characters, such as
        // €, are not name characters.)
        Encoded(encoding: "windows-1252", limit: 20, name: String(repeating: "Œ", count: 10)) { text in
            Array("<?xml version='1.0' encoding='windows-1252'?>".utf8)
                + text.unicodeScalars.map { $0 == "Œ" ? 0x8C : UInt8($0.value) }
        },
        // ก: 1 byte (0xA1) in TIS-620, 3 in UTF-8: the largest expansion of a single-byte table.
        Encoded(encoding: "TIS-620", limit: 21, name: String(repeating: "ก", count: 7)) { text in
            Array("<?xml version='1.0' encoding='TIS-620'?>".utf8)
                + text.unicodeScalars.map { $0 == "ก" ? 0xA1 : UInt8($0.value) }
        },
        // 漢: 2 bytes in UTF-16, 3 in UTF-8.
        Encoded(encoding: "UTF-16LE", limit: 30, name: String(repeating: "漢", count: 10)) { text in
            [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        },
        Encoded(encoding: "UTF-16BE", limit: 30, name: String(repeating: "漢", count: 10)) { text in
            [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        },
    ]

    @Test("a name one UTF-8 byte over a small limit is caught in every encoding", arguments: encodings)
    func startTagNames(_ encoded: Encoded) {
        #expect(encoded.name.utf8.count == encoded.limit)
        let limit = SafetyProfile.Limit.atMost(encoded.limit)
        let fits = encoded.name
        let over = "a" + encoded.name
        #expect(Self.outcome(encoded.encode("<r><\(fits)/></r>"), limit: limit) == .events(["start r", "start \(fits)"]))
        #expect(Self.outcome(encoded.encode("<r \(fits)='1'/>"), limit: limit) == .events(["start r"]))
        for document in ["<r><\(over)/></r>", "<r>\n<\(over)/></r>", "<r \(over)='1'/>", "<r><x \(over)='1'/></r>"] {
            let outcome = Self.outcome(encoded.encode(document), limit: limit)
            guard case .error(let code, _, _, _, _) = outcome else {
                Issue.record("\(document.debugDescription) in \(encoded.encoding): \(outcome)")
                continue
            }
            #expect(code == .nameLimitExceeded, "\(document.debugDescription) in \(encoded.encoding)")
        }
    }

    @Test("positions of a name over the limit in a single-byte encoding")
    func startTagNamePosition() {
        let encoded = Self.encodings[0]
        let document = encoded.encode("<r>\n <a\(encoded.name)/></r>")
        #expect(Self.outcome(document, limit: 20) == .error(.nameLimitExceeded, 2, 2, 48, ["r"]))
    }

    /// An internal entity's replacement text is parsed without input bytes of its own.
    @Test("a name over the limit in an internal entity's replacement text is caught")
    func startTagNameInEntity() {
        let document = "<!DOCTYPE r [<!ENTITY e '<abcdefghi/>'>]><r>&e;</r>"
        guard case .error(let code, _, _, _, let path) = Self.outcome(document) else {
            Issue.record("accepted")
            return
        }
        #expect(code == .nameLimitExceeded)
        #expect(path == ["r"])
        #expect(Self.outcome("<!DOCTYPE r [<!ENTITY e '<abcdefgh/>'>]><r>&e;</r>") == .events(["doctype r", "start r", "start abcdefgh"]))
    }

    @Test(
        "names after NDATA and in enumerated and NOTATION attribute types: at the limit they pass, one byte over fails",
        arguments: [
            "<!DOCTYPE r [<!ENTITY e SYSTEM 'f' NDATA NAME>]><r/>",
            "<!DOCTYPE r [<!ATTLIST r a (yes|NAME|no) 'yes'>]><r/>",
            "<!DOCTYPE r [<!ATTLIST r a NOTATION (n|NAME) #IMPLIED>]><r/>",
        ])
    func declarationListNames(template: String) throws {
        let atLimit = Self.outcome(template.replacingOccurrences(of: "NAME", with: "nnnnnnnn"), limit: 8)
        guard case .events = atLimit else {
            Issue.record("at the limit: \(atLimit)")
            return
        }
        let overLimit = Self.outcome(template.replacingOccurrences(of: "NAME", with: "nnnnnnnnn"), limit: 8)
        guard case .error(.nameLimitExceeded, _, _, _, _) = overLimit else {
            Issue.record("one byte over the limit: \(overLimit)")
            return
        }
    }

    @Test("the default limit holds for a processing instruction's target")
    func defaultLimitOnTarget() {
        let target = String(repeating: "t", count: 50_001)
        #expect(Self.outcome("<?\(target)?><r/>", limit: SafetyProfile.default.maximumNameBytes) == .error(.nameLimitExceeded, 1, 1, 0))
        #expect(Self.outcome("<?\(target.dropLast())?><r/>", limit: 50_000) == .events(["pi \(target.dropLast())", "start r"]))
    }

    @Test("the command line applies --limit name-bytes to a processing instruction's target")
    func targetOnTheCommandLine() throws {
        let result = try CommandRunner.run(
            "saxdispatch", ["check", "-", "--limit", "name-bytes=8"], input: Data("<r>\n<?abcdefghi?></r>".utf8))
        #expect(result.status == 1)
        #expect(result.error == "-:2:1: error: a name is longer than maximumNameBytes (8) (in r)\n")
        let fits = try CommandRunner.run(
            "saxdispatch", ["check", "-", "--limit", "name-bytes=8"], input: Data("<r>\n<?abcdefgh?></r>".utf8))
        #expect(fits.status == 0)
    }
}
