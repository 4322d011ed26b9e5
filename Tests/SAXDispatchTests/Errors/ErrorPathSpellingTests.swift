import Foundation
import SAXDispatch
import Testing

/// Element paths in errors name each element as the document wrote it (`a:entry`, or
/// `entry` under a default namespace), whatever spelling the pattern, field or key that
/// reached it used (`atom:n` through a binding, `{uri}n` in Clark notation).
@Suite("Errors: element paths are spelled as the document wrote them")
struct ErrorPathSpellingTests {
    static let atom = "http://www.w3.org/2005/Atom"
    static let prefixed = "<a:feed xmlns:a=\"\(atom)\">\n<a:entry>\n<a:n>x</a:n></a:entry></a:feed>"
    static let defaulted = "<feed xmlns=\"\(atom)\">\n<entry>\n<n>x</n></entry></feed>"

    struct Bound: Decodable { let n: Int; enum CodingKeys: String, CodingKey { case n = "atom:n" } }
    struct Clark: Decodable { let n: Int; enum CodingKeys: String, CodingKey { case n = "{http://www.w3.org/2005/Atom}n" } }

    static func message(_ body: () throws -> Void) -> String {
        do {
            try body()
        } catch {
            return error.localizedDescription
        }
        Issue.record("expected an error")
        return ""
    }

    @Test("a decoding error: the document's prefix, or none, never the key's spelling; whole and in pieces",
        arguments: [1, 7, 4096])
    func decoding(size: Int) throws {
        var decoder = XMLRecordDecoder()
        decoder.namespaces = ["atom": Self.atom]
        for document in [Self.prefixed, Self.defaulted] {
            let path = document == Self.prefixed ? "a:feed/a:entry/a:n" : "feed/entry/n"
            let expected = #"<pieces>:3:1: error: cannot convert "x" to Int at \#(path)"#
            let bound = Self.message { _ = try decoder.all(Bound.self, at: "atom:entry", in: .pieces(document, of: size)) }
            #expect(bound.hasPrefix(expected), "\(bound)")
            let clark = Self.message { _ = try decoder.all(Clark.self, at: "atom:entry", in: .pieces(document, of: size)) }
            #expect(clark.hasPrefix(expected), "\(clark)")
        }
    }

    @Test("a record error: the field's element as the document wrote it", arguments: [1, 7, 4096])
    func record(size: Int) throws {
        let bound = XMLRecord("atom:entry", .value("atom:n", as: Int.self)) { $0 }
            .named("Entry").namespaces(["atom": Self.atom])
        let clark = XMLRecord("{http://www.w3.org/2005/Atom}entry", .value("{http://www.w3.org/2005/Atom}n", as: Int.self)) { $0 }
            .named("Entry")
        for document in [Self.prefixed, Self.defaulted] {
            let path = document == Self.prefixed ? "a:feed/a:entry/a:n" : "feed/entry/n"
            for record in [bound, clark] {
                let text = Self.message { _ = try record.all(in: .pieces(document, of: size)) }
                #expect(text.hasPrefix(#"<pieces>:3:1: error: cannot convert "x" to Int at \#(path) (in record Entry"#), "\(text)")
            }
        }
    }

    @Test("a record error: only the field's element takes the document's spelling; the steps above it are as the path wrote them")
    func recordNestedSteps() throws {
        let document = "<a:feed xmlns:a=\"\(Self.atom)\">\n<a:entry>\n<a:author><a:n>x</a:n></a:author></a:entry></a:feed>"
        let record = XMLRecord("atom:entry", .value("atom:author/atom:n", as: Int.self)) { $0 }
            .named("Entry").namespaces(["atom": Self.atom])
        for size in [document.utf8.count, 1, 7, 4096] {
            let text = Self.message { _ = try record.all(in: .pieces(document, of: size)) }
            #expect(text.hasPrefix(#"<pieces>:3:11: error: cannot convert "x" to Int at a:feed/a:entry/atom:author/a:n (in record Entry"#), "\(text)")
        }
    }

    /// The document's prefix on the field's element says nothing about the elements above
    /// it: `<x:a><y:b>` was reported `y:a/y:b`, an element the document does not have.
    @Test("a record error: a step above the field's element never takes the field element's prefix")
    func recordStepsAboveKeepTheirSpelling() throws {
        let wildcard = "<r><item><x:a xmlns:x=\"U\"><y:b xmlns:y=\"V\">nope</y:b></x:a></item></r>"
        let anyNamespace = XMLRecord("item", .value("*:a/*:b", as: Int.self)) { $0 }.named("Item")
        let bound = "<r><item><x:a xmlns:x=\"U\"><y:b xmlns:y=\"U\">nope</y:b></x:a></item></r>"
        let boundRecord = XMLRecord("item", .value("u:a/u:b", as: Int.self)) { $0 }
            .named("Item").namespaces(["u": "U"])
        for size in [wildcard.utf8.count, 1, 7] {
            let text = Self.message { _ = try anyNamespace.all(in: .pieces(wildcard, of: size)) }
            #expect(text.contains(" at r/item/*:a/y:b (in record Item"), "\(text)")
            #expect(!text.contains("y:a"), "\(text)")
            let boundText = Self.message { _ = try boundRecord.all(in: .pieces(bound, of: size)) }
            #expect(boundText.contains(" at r/item/u:a/y:b (in record Item"), "\(boundText)")
            #expect(!boundText.contains("y:a"), "\(boundText)")
        }
    }
}
