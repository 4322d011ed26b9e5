import Foundation
import Testing

import SAXDispatch

@Suite("Decodable: keys name namespaced elements and attributes by namespace, not by prefix")
struct NamespacedKeyTests {
    static let atom = "http://www.w3.org/2005/Atom"
    static let xlink = "http://www.w3.org/1999/xlink"

    /// An Atom feed written with `prefix` for Atom (`nil`: Atom is the default namespace),
    /// with decoys: `title` elements in another namespace before each real one, and an
    /// `xl:href` next to each `href`.
    static func feed(prefix: String?) -> String {
        let p = prefix.map { "\($0):" } ?? ""
        let declaration = prefix.map { "xmlns:\($0)=\"\(atom)\"" } ?? "xmlns=\"\(atom)\""
        return """
            <\(p)feed \(declaration) xmlns:x="urn:decoy" xmlns:xl="\(xlink)">
              <x:title>decoy feed title</x:title>
              <\(p)title>Example feed</\(p)title>
              <\(p)entry xml:lang="en">
                <x:title>decoy entry title</x:title>
                <\(p)title>Atom-powered robots</\(p)title>
                <\(p)link href="https://example.org/robots" xl:href="https://example.org/robots/xlink"/>
                <\(p)updated>2003-12-13T18:30:02Z</\(p)updated>
                <\(p)author><x:name>decoy</x:name><\(p)name>John Doe</\(p)name></\(p)author>
                <\(p)category term="robots"/><\(p)category term="atom"/>
              </\(p)entry>
              <\(p)entry xml:lang="fr">
                <\(p)title>Robots en Atom</\(p)title>
                <\(p)link href="https://example.org/robots-fr" xl:href="https://example.org/robots-fr/xlink"/>
                <\(p)updated>2003-12-14T10:00:00Z</\(p)updated>
                <\(p)author><\(p)name>Jeanne Doe</\(p)name></\(p)author>
              </\(p)entry>
            </\(p)feed>
            """
    }

    static let spellings: [String?] = [nil, "atom", "a9"]

    /// What both key styles decode to.
    struct Entry: Equatable {
        var title: String
        var link: String
        var updated: Date
        var author: String
        var categories: [String]
        var language: String
    }

    static let expected = [
        Entry(
            title: "Atom-powered robots", link: "https://example.org/robots",
            updated: Date(timeIntervalSince1970: 1_071_340_202), author: "John Doe", categories: ["robots", "atom"],
            language: "en"),
        Entry(
            title: "Robots en Atom", link: "https://example.org/robots-fr",
            updated: Date(timeIntervalSince1970: 1_071_396_000), author: "Jeanne Doe", categories: [],
            language: "fr"),
    ]

    /// An entry read through prefixes bound on the decoder.
    struct BoundEntry: Decodable {
        struct Person: Decodable {
            let name: String
            enum CodingKeys: String, CodingKey { case name = "atom:name" }
        }
        let title: String
        let link: String
        let updated: Date
        let author: Person
        let categories: [String]
        let language: String
        enum CodingKeys: String, CodingKey {
            case title = "atom:title"
            case link = "atom:link/@href"
            case updated = "atom:updated"
            case author = "atom:author"
            case categories = "atom:category/@term"
            case language = "@xml:lang"
        }
        var entry: Entry {
            Entry(
                title: title, link: link, updated: updated, author: author.name, categories: categories,
                language: language)
        }
    }

    /// The same entry read through Clark names, with no binding.
    struct ClarkEntry: Decodable {
        struct Person: Decodable {
            let name: String
            enum CodingKeys: String, CodingKey { case name = "{http://www.w3.org/2005/Atom}name" }
        }
        let title: String
        let link: String
        let updated: Date
        let author: Person
        let categories: [String]
        let language: String
        enum CodingKeys: String, CodingKey {
            case title = "{http://www.w3.org/2005/Atom}title"
            case link = "{http://www.w3.org/2005/Atom}link/@href"
            case updated = "{http://www.w3.org/2005/Atom}updated"
            case author = "{http://www.w3.org/2005/Atom}author"
            case categories = "{http://www.w3.org/2005/Atom}category/@term"
            case language = "@{http://www.w3.org/XML/1998/namespace}lang"
        }
        var entry: Entry {
            Entry(
                title: title, link: link, updated: updated, author: author.name, categories: categories,
                language: language)
        }
    }

    static func decoder(pruning: XMLRecordDecoder.KeyPruning, bound: Bool) -> XMLRecordDecoder {
        var decoder = XMLRecordDecoder()
        decoder.keyPruning = pruning
        if bound { decoder.namespaces = ["atom": atom, "xlink": xlink] }
        return decoder
    }

    @Test(
        "one Atom feed in three spellings decodes to the same values through bindings on the decoder",
        arguments: spellings, [XMLRecordDecoder.KeyPruning.probe, .off])
    func boundKeys(prefix: String?, pruning: XMLRecordDecoder.KeyPruning) throws {
        let decoder = Self.decoder(pruning: pruning, bound: true)
        let entries = try decoder.all(BoundEntry.self, at: "/atom:feed/atom:entry", in: .string(Self.feed(prefix: prefix)))
        #expect(entries.map(\.entry) == Self.expected)
    }

    @Test(
        "one Atom feed in three spellings decodes to the same values through Clark keys, with no binding",
        arguments: spellings, [XMLRecordDecoder.KeyPruning.probe, .off])
    func clarkKeys(prefix: String?, pruning: XMLRecordDecoder.KeyPruning) throws {
        let decoder = Self.decoder(pruning: pruning, bound: false)
        let entries = try decoder.all(
            ClarkEntry.self, at: "{http://www.w3.org/2005/Atom}entry", in: .string(Self.feed(prefix: prefix)))
        #expect(entries.map(\.entry) == Self.expected)
    }

    @Test("the root decodes by namespace too, and the records' pattern may use a bound prefix next to other handlers")
    func rootAndMountedPattern() throws {
        struct Feed: Decodable {
            let title: String
            let entry: [BoundEntry]
            enum CodingKeys: String, CodingKey {
                case title = "atom:title"
                case entry = "atom:entry"
            }
        }
        let decoder = Self.decoder(pruning: .probe, bound: true)
        let feed = try decoder.decode(Feed.self, from: .string(Self.feed(prefix: "a9")))
        #expect(feed.title == "Example feed")
        #expect(feed.entry.map(\.entry) == Self.expected)

        // The dispatcher binds nothing: the decoder's bindings resolve the pattern.
        var titles: [String] = []
        var ends = 0
        var dispatcher = Dispatcher()
        dispatcher.onDecoded(BoundEntry.self, at: "atom:feed/atom:entry", using: decoder) { titles.append($0.title) }
        dispatcher.onEnd("{http://www.w3.org/2005/Atom}entry") { _, _ in ends += 1 }
        try dispatcher.parse(.string(Self.feed(prefix: nil)))
        #expect(titles == ["Atom-powered robots", "Robots en Atom"])
        #expect(ends == 2)
    }

    @Test("a same-named element in another namespace never matches a bound or Clark key, even under the bound prefix")
    func decoys() throws {
        struct Bound: Decodable {
            let title: String?
            enum CodingKeys: String, CodingKey { case title = "atom:title" }
        }
        struct Clark: Decodable {
            let title: String?
            enum CodingKeys: String, CodingKey { case title = "{http://www.w3.org/2005/Atom}title" }
        }
        struct Plain: Decodable { let title: String? }
        var decoder = XMLRecordDecoder()
        decoder.namespaces = ["atom": Self.atom]
        let decoys = [
            #"<entry xmlns="http://www.w3.org/2005/Atom"><x:title xmlns:x="urn:decoy">decoy</x:title></entry>"#,
            // The document's `atom` is not the decoder's.
            #"<atom:entry xmlns:atom="urn:decoy"><atom:title>decoy</atom:title></atom:entry>"#,
            #"<entry><title>no namespace</title></entry>"#,
        ]
        for document in decoys {
            for pruning in [XMLRecordDecoder.KeyPruning.probe, .off] {
                decoder.keyPruning = pruning
                #expect(try decoder.decode(Bound.self, from: .string(document)).title == nil, "\(document)")
                #expect(try decoder.decode(Clark.self, from: .string(document)).title == nil, "\(document)")
            }
        }
        // An unprefixed key reads unprefixed children, whatever their default namespace.
        #expect(try decoder.decode(Plain.self, from: .string(decoys[0])).title == nil)
        #expect(try decoder.decode(Plain.self, from: .string(decoys[1])).title == nil)
        #expect(try decoder.decode(Plain.self, from: .string(decoys[2])).title == "no namespace")
        #expect(try decoder.decode(Plain.self, from: .string(Self.feed(prefix: nil))).title == "Example feed")

        // A required key that only a decoy could answer says which key it looked for.
        struct Required: Decodable {
            let title: String
            enum CodingKeys: String, CodingKey { case title = "atom:title" }
        }
        do {
            _ = try decoder.decode(Required.self, from: .string(decoys[1]))
            Issue.record("a decoy answered atom:title")
        } catch let error as XMLDecodingError {
            guard case .keyNotFound(let key, let context) = error.underlying else { Issue.record("\(error)"); return }
            #expect(key.stringValue == "atom:title")
            #expect(
                context.debugDescription.contains(
                    #"no element or attribute "{http://www.w3.org/2005/Atom}title" in <atom:entry>"#),
                "\(context.debugDescription)")
        }
    }

    @Test("a key prefix no binding declares reads the prefix as the document wrote it, in any namespace")
    func unboundPrefixes() throws {
        struct Item: Decodable, Equatable {
            let creator: String?
            let href: String?
            enum CodingKeys: String, CodingKey {
                case creator = "dc:creator"
                case href = "enc/@p:href"
            }
        }
        let document = """
            <item xmlns:dc="urn:whatever-dc-is" xmlns:p="urn:p" xmlns:q="urn:q">
              <dc:creator>Ann</dc:creator><enc p:href="yes" q:href="no"/>
            </item>
            """
        let renamed = #"<item xmlns:creators="urn:whatever-dc-is"><creators:creator>Ann</creators:creator></item>"#
        for pruning in [XMLRecordDecoder.KeyPruning.probe, .off] {
            var decoder = XMLRecordDecoder()
            decoder.keyPruning = pruning
            #expect(try decoder.decode(Item.self, from: .string(document)) == Item(creator: "Ann", href: "yes"))
            #expect(try decoder.decode(Item.self, from: .string(renamed)) == Item(creator: nil, href: nil))
        }
    }

    @Test("attribute keys: @xml:lang, a bound @xlink:href, @{uri}href, and @href for the unprefixed attribute only")
    func attributeKeys() throws {
        struct Link: Decodable, Equatable {
            let language: String
            let plain: String
            let bound: String
            let clark: String
            let target: URL
            enum CodingKeys: String, CodingKey {
                case language = "@xml:lang"
                case plain = "@href"
                case bound = "@xlink:href"
                case clark = "@{http://www.w3.org/1999/xlink}href"
                case target
            }
        }
        let document = """
            <links xmlns:l="http://www.w3.org/1999/xlink">
              <link xml:lang="en" href="plain" l:href="linked">
                <target href="no" l:href="https://example.org/">text</target></link>
            </links>
            """
        for pruning in [XMLRecordDecoder.KeyPruning.probe, .off] {
            var decoder = XMLRecordDecoder()
            decoder.keyPruning = pruning
            decoder.namespaces = ["xlink": Self.xlink]
            decoder.urlDecodingStrategy = .attribute("xlink:href")
            let links = try decoder.all(Link.self, at: "link", in: .string(document))
            let target = try #require(URL(string: "https://example.org/"))
            #expect(links == [Link(language: "en", plain: "plain", bound: "linked", clark: "linked", target: target)])
        }
        // An unprefixed attribute is in no namespace, whatever the default namespace.
        struct Href: Decodable { let href: String? }
        let defaulted = #"<link xmlns="http://www.w3.org/1999/xlink" xmlns:l="http://www.w3.org/1999/xlink" l:href="x"/>"#
        #expect(try XMLRecordDecoder().decode(Href.self, from: .string(defaulted)).href == nil)
    }

    @Test("xsi:nil marks an element nil by its namespace, whatever the prefix; another namespace's nil does not")
    func schemaInstanceNil() throws {
        struct Entry: Decodable, Equatable {
            let title: String
            let summary: String?
            let rights: String?
        }
        struct Required: Decodable { let summary: String }
        let document = """
            <entry xmlns:i="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsi="urn:not-the-schema-instance">
              <title>t</title><summary i:nil="true"/><rights xsi:nil="true">kept</rights>
            </entry>
            """
        for pruning in [XMLRecordDecoder.KeyPruning.probe, .off] {
            var decoder = XMLRecordDecoder()
            decoder.keyPruning = pruning
            #expect(try decoder.decode(Entry.self, from: .string(document)) == Entry(title: "t", summary: nil, rights: "kept"))
            #expect(throws: XMLDecodingError.self) { try decoder.decode(Required.self, from: .string(document)) }
        }
    }

    @Test("with namespace processing off, a legacy document with unbound prefixes reads by names as written")
    func legacyDocument() throws {
        struct Entry: Decodable, Equatable {
            let title: String
            let href: String
            let summary: String?
            let clark: String?
            enum CodingKeys: String, CodingKey {
                case title = "atom:title"
                case href = "atom:link/@xlink:href"
                case summary = "atom:summary"
                case clark = "{http://www.w3.org/2005/Atom}title"
            }
        }
        // Well-formed XML 1.0, but no prefix is declared.
        let legacy = """
            <atom:feed><atom:entry><atom:title>Legacy</atom:title><atom:link xlink:href="u"/>
            <atom:summary xsi:nil="true"/></atom:entry></atom:feed>
            """
        #expect(throws: XMLParseError.self) { try XMLRecordDecoder().all(Entry.self, at: "atom:entry", in: .string(legacy)) }
        for pruning in [XMLRecordDecoder.KeyPruning.probe, .off] {
            var decoder = XMLRecordDecoder()
            decoder.keyPruning = pruning
            decoder.processesNamespaces = false
            // Bindings do not change names compared as written.
            decoder.namespaces = ["atom": Self.atom]
            let entries = try decoder.all(Entry.self, at: "atom:feed/atom:entry", in: .string(legacy))
            #expect(entries == [Entry(title: "Legacy", href: "u", summary: nil, clark: nil)])
        }
    }

    @Test("in an element with many children, keys find them by namespace, in document order, past decoys")
    func manyChildren() throws {
        struct Feed: Decodable, Equatable {
            let entry: [String]
            let id: String
            enum CodingKeys: String, CodingKey {
                case entry = "atom:entry"
                case id = "{http://www.w3.org/2005/Atom}id"
            }
        }
        var children = ""
        for index in 0..<60 {
            let prefix = ["a9", "atom", "x"][index % 3]
            children += "<\(prefix):entry>\(index)</\(prefix):entry>"
        }
        let document = """
            <a9:feed xmlns:a9="http://www.w3.org/2005/Atom" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:x="urn:decoy">\
            <x:id>decoy</x:id>\(children)<atom:id>feed-1</atom:id></a9:feed>
            """
        for pruning in [XMLRecordDecoder.KeyPruning.probe, .off] {
            var decoder = XMLRecordDecoder()
            decoder.keyPruning = pruning
            decoder.namespaces = ["atom": Self.atom]
            let feed = try decoder.decode(Feed.self, from: .string(document))
            #expect(feed == Feed(entry: (0..<60).filter { $0 % 3 != 2 }.map(String.init), id: "feed-1"))
        }
    }

    @Test("allKeys lists names as written, and each reads its value back")
    func allKeysAsWritten() throws {
        let document = """
            <a9:entry xmlns:a9="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/" xml:lang="en">
              <a9:title>T</a9:title><dc:creator>Ann</dc:creator><plain>p</plain>
            </a9:entry>
            """
        let values = try XMLRecordDecoder().decode([String: String].self, from: .string(document))
        #expect(values == ["a9:title": "T", "dc:creator": "Ann", "plain": "p", "xml:lang": "en"])
    }

    @Test("key strategies convert the local name only: prefixes and URIs stay as written")
    func strategies() throws {
        struct Entry: Decodable, Equatable {
            let publishedAt: String
            let updatedAt: String
            enum CodingKeys: String, CodingKey {
                case publishedAt = "atom:publishedAt"
                case updatedAt = "{http://www.w3.org/2005/Atom}updatedAt"
            }
        }
        let document = """
            <entry xmlns="http://www.w3.org/2005/Atom"><published_at>p</published_at><updated_at>u</updated_at></entry>
            """
        var decoder = XMLRecordDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.namespaces = ["atom": Self.atom]
        #expect(try decoder.decode(Entry.self, from: .string(document)) == Entry(publishedAt: "p", updatedAt: "u"))

        struct Plain: Decodable, Equatable { let title: String }
        decoder.keyDecodingStrategy = .custom { "atom:" + $0 }
        #expect(try decoder.decode(Plain.self, from: .string(Self.feed(prefix: "a9"))).title == "Example feed")
    }
}
