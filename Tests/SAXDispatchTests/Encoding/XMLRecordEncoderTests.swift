import Foundation
import Testing

@testable import SAXDispatch

/// `Encodable` values written with the decoder's conventions: what ``XMLRecordEncoder``
/// writes, ``XMLRecordDecoder`` reads back as an equal value.
@Suite("Encoding: Encodable values as elements, read back by the decoder")
struct XMLRecordEncoderTests {
    struct Price: Codable, Equatable {
        var currency: String
        var amount: Double
        enum CodingKeys: String, CodingKey {
            case currency = "@currency"
            case amount = "#text"
        }
    }

    enum Kind: String, Codable, Equatable { case mammal, bird, reptile }

    struct Animal: Codable, Equatable {
        var id: Int
        var kind: Kind
        var name: String
        var nickname: String?
        var legs: Int
        var price: Price
        var tags: [String]
        var friends: [String]
        var born: Date
        var homepage: URL
        var photo: Data
        var endangered: Bool
        var weight: Float?
        var ratio: Double
        enum CodingKeys: String, CodingKey {
            case id = "@id", kind = "@kind", name, nickname, legs, price, tags = "tag", friends = "friends/friend", born, homepage
            case photo, endangered, weight, ratio
        }
    }

    static let lion = Animal(
        id: 7, kind: .mammal, name: "Lion <king> & \"co\"", nickname: nil, legs: 4,
        price: Price(currency: "EUR", amount: 3.5), tags: ["big", "cat"], friends: ["Zebra", "Gnu"],
        born: Date(timeIntervalSince1970: 1_700_000_000.25), homepage: URL(string: "https://example.org/lion?a=1&b=2")!,
        photo: Data([0, 1, 2, 250, 255]), endangered: true, weight: 190.5, ratio: .infinity)

    static func written(_ value: some Encodable, as name: String, _ encoder: XMLRecordEncoder = XMLRecordEncoder()) throws -> String {
        String(decoding: try encoder.encode(value, as: name, options: XMLWriter.Options(writesDeclaration: false)), as: UTF8.self)
    }

    @Test("a record byte for byte: attributes, the text key, a nested value, repeated and wrapped arrays, nil left out")
    func exactOutput() throws {
        let text = try Self.written(Self.lion, as: "animal")
        #expect(
            text == #"<animal id="7" kind="mammal"><name>Lion &lt;king&gt; &amp; "co"</name><legs>4</legs>"#
                + #"<price currency="EUR">3.5</price><tag>big</tag><tag>cat</tag><friends><friend>Zebra</friend>"#
                + #"<friend>Gnu</friend></friends><born>2023-11-14T22:13:20.25Z</born>"#
                + #"<homepage>https://example.org/lion?a=1&amp;b=2</homepage><photo>AAEC+v8=</photo>"#
                + #"<endangered>true</endangered><weight>190.5</weight><ratio>INF</ratio></animal>"#)
    }

    @Test("a copy of an encoder whose key settings change works its keys out again; the original keeps its own")
    func keyPlacesFollowSettings() throws {
        struct Item: Encodable {
            var itemName = "a"
            var body = "b"
            enum CodingKeys: String, CodingKey {
                case itemName
                case body = "#text"
            }
        }
        let original = XMLRecordEncoder()
        #expect(try Self.written(Item(), as: "i", original) == "<i><itemName>a</itemName>b</i>")
        var snake = original
        snake.keyEncodingStrategy = .convertToSnakeCase
        #expect(try Self.written(Item(), as: "i", snake) == "<i><item_name>a</item_name>b</i>")
        var otherText = original
        otherText.textKey = "$"
        // `#text` is then an element name, which XML does not take.
        #expect(throws: EncodingError.self) { try Self.written(Item(), as: "i", otherText) }
        var prefixed = original
        prefixed.namespaces = ["p": "urn:p"]
        struct Prefixed: Encodable {
            var value = "v"
            enum CodingKeys: String, CodingKey { case value = "p:value" }
        }
        #expect(throws: (any Error).self) { try Self.written(Prefixed(), as: "r", original) }
        #expect(try Self.written(Prefixed(), as: "r", prefixed) == #"<r><p:value xmlns:p="urn:p">v</p:value></r>"#)
        #expect(try Self.written(Item(), as: "i", original) == "<i><itemName>a</itemName>b</i>")
    }

    @Test("the decoder reads back an equal value")
    func roundTrip() throws {
        let bytes = try XMLRecordEncoder().encode(Self.lion, as: "animal")
        let decoded = try XMLRecordDecoder().all(Animal.self, at: "animal", in: .bytes(bytes))
        #expect(decoded == [Self.lion])
    }

    @Test("records one at a time into an open writer, between a header and a footer, in bounded chunks")
    func streamingIntoAWriter() throws {
        final class Sink: XMLOutputWriter, @unchecked Sendable {
            var bytes: [UInt8] = []
            var largestWrite = 0
            func write(_ buffer: UnsafeRawBufferPointer) throws {
                bytes += buffer
                largestWrite = max(largestWrite, buffer.count)
            }
        }
        let sink = Sink()
        var output = XMLOutput.writer(name: "sink") { sink }
        output.chunkSize = 4096
        let writer = try XMLWriter(to: output)
        try writer.startElement("zoo")
        let encoder = XMLRecordEncoder()
        var animals: [Animal] = []
        for index in 0..<2000 {
            var animal = Self.lion
            animal.id = index
            animal.nickname = index % 3 == 0 ? "n\(index)" : nil
            animal.ratio = Double(index) / 7
            animals.append(animal)
            try encoder.encode(animal, as: "animal", to: writer)
        }
        try writer.endElement()
        try writer.finish()
        #expect(sink.largestWrite <= 8192)
        #expect(try XMLRecordDecoder().all(Animal.self, at: "zoo/animal", in: .bytes(sink.bytes)) == animals)
    }

    @Test("namespaces: keys with bound prefixes and Clark names, the xml prefix, read back by namespace")
    func namespaces() throws {
        struct Entry: Codable, Equatable {
            var title: String
            var language: String
            var link: String
            var rights: String?
            enum CodingKeys: String, CodingKey {
                case title = "atom:title", language = "@xml:lang", link = "atom:link/@href"
                case rights = "{http://purl.org/dc/elements/1.1/}rights"
            }
        }
        var encoder = XMLRecordEncoder()
        encoder.namespaces = ["atom": "http://www.w3.org/2005/Atom"]
        var decoder = XMLRecordDecoder()
        decoder.namespaces = ["atom": "http://www.w3.org/2005/Atom"]
        let entry = Entry(title: "Hello", language: "en", link: "https://example.org/1", rights: "CC")
        let text = try Self.written(entry, as: "atom:entry", encoder)
        #expect(text.contains(#"xmlns:atom="http://www.w3.org/2005/Atom""#))
        #expect(text.contains(#"xml:lang="en""#))
        #expect(try decoder.all(Entry.self, at: "atom:entry", in: .string(text)) == [entry])
    }

    @Test("nil as xsi:nil when asked, read back as nil")
    func xsiNil() throws {
        struct Item: Codable, Equatable {
            var name: String?
            var count: Int?
        }
        var encoder = XMLRecordEncoder()
        encoder.nilEncodingStrategy = .xsiNil
        let text = try Self.written(Item(name: nil, count: nil), as: "item", encoder)
        #expect(text.contains(#"<name xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:nil="true"/>"#))
        #expect(try XMLRecordDecoder().all(Item.self, at: "item", in: .string(text)) == [Item(name: nil, count: nil)])
    }

    @Test("key strategies: snake case and kebab case, keys with XML syntax left as they are")
    func keyStrategies() throws {
        struct Person: Codable, Equatable {
            var firstName: String
            var homeURLValue: String
            var id: Int
            enum CodingKeys: String, CodingKey { case firstName, homeURLValue, id = "@id" }
        }
        var encoder = XMLRecordEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        #expect(try Self.written(Person(firstName: "A", homeURLValue: "u", id: 1), as: "p", encoder)
            == #"<p id="1"><first_name>A</first_name><home_url_value>u</home_url_value></p>"#)
        encoder.keyEncodingStrategy = .convertToKebabCase
        #expect(try Self.written(Person(firstName: "A", homeURLValue: "u", id: 1), as: "p", encoder)
            == #"<p id="1"><first-name>A</first-name><home-url-value>u</home-url-value></p>"#)
    }

    @Test("URLs in an href attribute, as a billing API writes its links, read back by the decoder's matching strategy")
    func urlsInAttributes() throws {
        struct Account: Codable, Equatable {
            var href: URL
            var code: String
            var invoices: URL?
            enum CodingKeys: String, CodingKey { case href = "@href", code = "account_code", invoices }
        }
        var encoder = XMLRecordEncoder()
        encoder.urlEncodingStrategy = .attribute("href")
        var decoder = XMLRecordDecoder()
        decoder.urlDecodingStrategy = .attribute("href")
        let account = Account(
            href: URL(string: "https://api.example.com/accounts/1")!, code: "1",
            invoices: URL(string: "https://api.example.com/accounts/1/invoices")!)
        let text = try Self.written(account, as: "account", encoder)
        #expect(
            text == #"<account href="https://api.example.com/accounts/1"><account_code>1</account_code>"#
                + #"<invoices href="https://api.example.com/accounts/1/invoices"/></account>"#)
        #expect(try decoder.all(Account.self, at: "account", in: .string(text)) == [account])
    }

    @Test("inner markup: written as the elements and text it holds, read back as the same markup")
    func innerMarkup() throws {
        struct Entry: Codable, Equatable {
            var title: String
            var content: XMLInnerMarkup
        }
        let entry = Entry(
            title: "T", content: XMLInnerMarkup(#"<div xmlns="http://www.w3.org/1999/xhtml">A <b class="x">bold</b> &amp; move</div>"#))
        let text = try Self.written(entry, as: "entry")
        #expect(text == #"<entry><title>T</title><content><div xmlns="http://www.w3.org/1999/xhtml">A <b class="x">bold</b> &amp; move</div></content></entry>"#)
        #expect(try XMLRecordDecoder().all(Entry.self, at: "entry", in: .string(text)) == [entry])
        #expect(throws: EncodingError.self) { try Self.written(Entry(title: "T", content: XMLInnerMarkup("<a>")), as: "entry") }
    }

    @Test("a list in an attribute is its items separated by spaces (xs:list), read back whole")
    func listInAttribute() throws {
        struct Shape: Codable, Equatable {
            var points: [Int]
            enum CodingKeys: String, CodingKey { case points = "@points" }
        }
        let text = try Self.written(Shape(points: [1, 2, 3]), as: "shape")
        #expect(text == #"<shape points="1 2 3"/>"#)
        #expect(try XMLRecordDecoder().all(Shape.self, at: "shape", in: .string(text)) == [Shape(points: [1, 2, 3])])
    }

    @Test("what cannot be written: a structure in an attribute, a name that is not an XML name; nothing of the value written")
    func refusals() throws {
        struct Inner: Codable { var a = 1 }
        struct Outer: Codable {
            var inner = Inner()
            enum CodingKeys: String, CodingKey { case inner = "@inner" }
        }
        #expect(throws: EncodingError.self) { try Self.written(Outer(), as: "outer") }
        struct BadName: Codable {
            var value = 1
            enum CodingKeys: String, CodingKey { case value = "1value" }
        }
        final class Sink: XMLOutputWriter, @unchecked Sendable {
            var bytes: [UInt8] = []
            func write(_ buffer: UnsafeRawBufferPointer) throws { bytes += buffer }
        }
        let sink = Sink()
        let writer = try XMLWriter(to: .writer(name: "sink") { sink }, options: XMLWriter.Options(writesDeclaration: false))
        try writer.startElement("r")
        let error = #expect(throws: EncodingError.self) { try XMLRecordEncoder().encode(BadName(), as: "bad", to: writer) }
        if case .invalidValue(_, let context) = error {
            #expect(context.underlyingError is XMLWriterError)
        }
        try writer.endElement()
        try writer.finish()
        #expect(String(decoding: sink.bytes, as: UTF8.self) == "<r/>")
    }

    /// Values made from a seeded generator: every kind of field, nil or not, text with
    /// markup characters and any character XML 1.0 can hold.
    @Test("generated values: the decoder reads back every one equal", arguments: 0..<8)
    func generatedValues(_ seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        func text() -> String {
            let alphabet = Array("abc <>&\"'\t]]>é中🙂\u{85}\u{2028}xyz")
            return String((0..<Int.random(in: 0...12, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
        }
        var animals: [Animal] = []
        for index in 0..<50 {
            let interval = Double.random(in: -2e9...4e9, using: &random)
            animals.append(
                Animal(
                    id: index, kind: [.mammal, .bird, .reptile].randomElement(using: &random)!,
                    name: "n" + text(), nickname: Bool.random(using: &random) ? nil : "k" + text(),
                    legs: Int.random(in: Int.min...Int.max, using: &random),
                    price: Price(currency: "c" + text(), amount: Double.random(in: -1e300...1e300, using: &random)),
                    tags: (0..<Int.random(in: 0...3, using: &random)).map { _ in "t" + text() },
                    friends: (0..<Int.random(in: 0...3, using: &random)).map { _ in "f" + text() },
                    born: Date(timeIntervalSince1970: interval),
                    homepage: URL(string: "https://example.org/\(index)?q=\(Int.random(in: 0...99, using: &random))")!,
                    photo: Data((0..<Int.random(in: 0...20, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }),
                    endangered: Bool.random(using: &random),
                    weight: Bool.random(using: &random) ? nil : Float.random(in: -1e30...1e30, using: &random),
                    ratio: [Double.nan, -.infinity, 0, -0.0, Double.leastNonzeroMagnitude, Double.random(in: -1...1, using: &random)]
                        .randomElement(using: &random)!))
        }
        let writerBytes = try XMLRecordEncoder().encode(animals, as: "zoo")
        // White space at the ends of a text reads back as written when the decoder keeps it.
        var decoder = XMLRecordDecoder()
        decoder.whitespace = .preserve
        let decoded = try decoder.all(Animal.self, at: "zoo/item", in: .bytes(writerBytes))
        #expect(decoded.count == animals.count)
        for (read, written) in zip(decoded, animals) {
            var (read, expected) = (read, written)
            // NaN is never equal to itself: read back as NaN, then left out of the comparison.
            if written.ratio.isNaN {
                #expect(read.ratio.isNaN)
                (read.ratio, expected.ratio) = (0, 0)
            }
            #expect(read == expected, "\(Self.differences(read, expected))")
        }
    }
}

extension XMLRecordEncoderTests {
    /// The fields of two values that differ, for a failure's message.
    static func differences<T>(_ a: T, _ b: T) -> [String] {
        zip(Mirror(reflecting: a).children, Mirror(reflecting: b).children).compactMap { left, right in
            "\(left.value)" == "\(right.value)" ? nil : "\(left.label ?? ""): \(left.value) ≠ \(right.value)"
        }
    }
}

/// A deterministic generator (SplitMix64), so that a failing case can be run again.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
