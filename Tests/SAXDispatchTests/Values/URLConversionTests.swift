import Foundation
import SAXDispatchTestSupport
import Testing

@testable import SAXDispatch

/// `URL` reads strictly; ``URL/init(xmlText:encodingInvalidCharacters:)`` and the decoder's
/// `encodesInvalidCharactersInURLs` percent-encode what a URL cannot hold.
@Suite("URL conversion: strict, with a lenient choice")
struct URLConversionTests {
    static let invalid = ["not a url with spaces", "https://example.org/a b", "https://example.org/ü", "a%zz"]

    @Test("text with spaces, non-ASCII or a stray % is no URL", arguments: invalid)
    func strictRejects(text: String) throws {
        #expect(throws: ValueConversionError("expected a URL, with spaces and characters outside ASCII percent-encoded")) {
            try URL(xmlText: text)
        }
    }

    @Test("valid URLs read as written, relative and opaque ones included")
    func strictAccepts() throws {
        for text in ["https://example.org/a?q=1#f", "relative/path", "mailto:x@y.z", "https://ex.org/%E2%82%AC"] {
            #expect(try URL(xmlText: text).absoluteString == text)
        }
        #expect(throws: ValueConversionError("expected a URL, found empty text")) { try URL(xmlText: "") }
    }

    @Test("the lenient reading percent-encodes what a URL cannot hold")
    func lenient() throws {
        #expect(try URL(xmlText: "not a url with spaces", encodingInvalidCharacters: true).absoluteString == "not%20a%20url%20with%20spaces")
        #expect(try URL(xmlText: "https://example.org/ü", encodingInvalidCharacters: true).absoluteString == "https://example.org/%C3%BC")
        #expect(throws: ValueConversionError.self) { try URL(xmlText: "http://[::1", encodingInvalidCharacters: true) }
    }

    @Test("records: a URL field fails on such text, naming it; a field of your own reads it leniently")
    func records() throws {
        let xml = "<item>\n  <link>not a url with spaces</link>\n</item>"
        let strict = XMLRecord("item", .value("link", as: URL.self)) { $0 }
        do {
            _ = try strict.first(in: .string(xml))
            Issue.record("a URL with spaces was read")
        } catch let error as XMLRecordError {
            #expect(error.failures.first?.description.hasPrefix(#"2:3: cannot convert "not a url with spaces" to URL at item/link"#) == true)
        }
        let lenient = XMLRecord("item", .value("link") { @Sendable in try URL(xmlText: $0, encodingInvalidCharacters: true) }) { $0 }
        #expect(try lenient.first(in: .string(xml)).absoluteString == "not%20a%20url%20with%20spaces")
        // An optional URL is nil only when absent, nil-marked or empty: bad text still fails.
        let optional = XMLRecord("item", .value("link", as: URL?.self)) { $0 }
        #expect(throws: XMLRecordError.self) { try optional.first(in: .string(xml)) }
    }

    @Test("Decodable: strict unless encodesInvalidCharactersInURLs; the href attribute strategy too")
    func decodable() throws {
        struct Item: Decodable { let link: URL }
        let xml = "<item><link>https://example.org/a b</link></item>"
        #expect(throws: XMLDecodingError.self) { try XMLRecordDecoder().decode(Item.self, from: .string(xml)) }
        var decoder = XMLRecordDecoder()
        decoder.encodesInvalidCharactersInURLs = true
        #expect(try decoder.decode(Item.self, from: .string(xml)).link.absoluteString == "https://example.org/a%20b")

        let href = #"<item><link href="https://example.org/a b"/></item>"#
        var attribute = XMLRecordDecoder()
        attribute.urlDecodingStrategy = .attribute("href")
        #expect(throws: XMLDecodingError.self) { try attribute.decode(Item.self, from: .string(href)) }
        attribute.encodesInvalidCharactersInURLs = true
        #expect(try attribute.decode(Item.self, from: .string(href)).link.absoluteString == "https://example.org/a%20b")
    }
}
