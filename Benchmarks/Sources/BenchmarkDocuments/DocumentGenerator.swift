/// Generates benchmark documents of any size, deterministically from a seed, in
/// chunks: generating 1 GiB needs the memory of one chunk.
///
/// ```swift
/// try DocumentGenerator(shape: .zoo).generate(targetSize: 100 << 20) { chunk in write(chunk) }
/// ```
public struct DocumentGenerator: Sendable {
    public var shape: Shape
    public var seed: UInt64
    /// The zoo's names, kinds and prose in Japanese: each drawn from Japanese words with
    /// this chance in percent, otherwise from ASCII words. Nil for the zoo's own mix of
    /// ASCII and Latin (which Shift_JIS and EUC-JP cannot all write). Zoo shapes only.
    public var japanesePercent: Int?
    /// The encoding of the bytes handed to the sink: the document is generated in UTF-8,
    /// up to `targetSize` UTF-8 bytes, and each chunk converted, so the twins in every
    /// encoding are the same characters. Other than UTF-8 needs `japanesePercent`.
    public var encoding: DocumentEncoding
    /// Text per element, extra elements and attributes, depth and text pieces; the
    /// default is the shape's own.
    public var proportions: Proportions

    public init(
        shape: Shape, seed: UInt64 = 0x5A5D_15BA_7C40_0003, japanesePercent: Int? = nil,
        encoding: DocumentEncoding = .utf8, proportions: Proportions = .standard
    ) {
        self.shape = shape
        self.seed = seed
        self.japanesePercent = japanesePercent
        self.encoding = encoding
        self.proportions = proportions
    }

    public struct UnsupportedOptions: Error, CustomStringConvertible {
        public let description: String
    }

    /// Calls `sink` with successive chunks of about `chunkSize` bytes until about
    /// `targetSize` bytes (the document closes after the record that crosses it).
    public func generate(targetSize: Int, chunkSize: Int = 1 << 16, _ sink: @escaping ([UInt8]) throws -> Void) throws {
        if japanesePercent != nil && shape != .zoo && shape != .zooNamespaced {
            throw UnsupportedOptions(description: "Japanese text is written for the zoo shapes only")
        }
        if encoding != .utf8 && japanesePercent == nil {
            throw UnsupportedOptions(
                description: "\(encoding.rawValue) cannot write the zoo's Latin names: give a Japanese percentage")
        }
        var output = sink
        if encoding != .utf8 {
            guard let converter = ChunkConverter(to: encoding) else {
                throw UnsupportedOptions(description: "iconv cannot convert UTF-8 to \(encoding.iconvName)")
            }
            output = { chunk in try sink(converter.convert(chunk)) }
        }
        let writerSink = output
        if proportions.recordNamespaces > 0 && proportions.namespaceURIs > 0 {
            throw UnsupportedOptions(description: "--record-namespaces and --namespace-uris cannot be combined")
        }
        var writer = DocumentWriter(chunkSize: chunkSize, sink: writerSink)
        writer.dropsIndentation = proportions.noIndentation
        var random = SplitMix64(seed: seed)
        let text = japanesePercent.map { ZooText.japanese(percent: $0) } ?? ZooText.standard
        switch shape {
        case .zoo: try Zoo.write(&writer, &random, targetSize, Zoo.Markup.plain, text, encoding, proportions)
        case .zooNamespaced:
            try Zoo.write(&writer, &random, targetSize, Zoo.Markup.namespaced, text, encoding, proportions)
        case .osm: try OSM.write(&writer, &random, targetSize, proportions)
        case .wiki: try Wiki.write(&writer, &random, targetSize, proportions)
        }
        try writer.flush()
    }
}

/// Words for generated prose, already UTF-8. Some are non-ASCII, some are entity references.
enum Vocabulary {
    static let words: [[UInt8]] = [
        "the", "zoo", "keeper", "feeds", "animals", "at", "dawn", "and", "dusk", "visitors", "love", "shade",
        "near", "café", "Zürich", "naïve", "東京", "river", "&amp;", "&lt;b&gt;", "&quot;quoted&quot;", "map",
        "north", "south", "bridge", "2019", "record", "entry", "history", "of", "a", "small", "town", "with",
        "many", "old", "houses", "Ærøskøbing", "station", "line", "green", "valley", "hills", "über",
    ].map { Array($0.utf8) }

    /// About `length` bytes of words separated by spaces, never starting or ending with whitespace.
    /// With `breaks`, that percentage of the gaps between words is a line end, an entity
    /// reference or a CDATA section instead of a space (no draws at all when it is 0, so
    /// the shapes' own documents stay what they are). With `references`, that percentage of
    /// the gaps is a character reference or a short CDATA section (drawn first, and likewise
    /// no draws when it is 0).
    static func prose(
        _ writer: inout DocumentWriter, _ random: inout SplitMix64, length: Int, newlines: Bool = false,
        words choice: WordChoice = WordChoice(words), breaks: Int = 0, references: Int = 0
    ) {
        let start = writer.count
        var first = true
        while writer.count - start < length {
            if !first {
                if references > 0 && random.percent(references) {
                    switch random.below(4) {
                    case 0: writer.appendText(" &#233;")
                    case 1: writer.appendText("&#x4E2D; ")
                    case 2: writer.appendText(" <![CDATA[x]]>")
                    default: writer.appendText("<![CDATA[<&]]> ")
                    }
                } else if breaks > 0 && random.percent(breaks) {
                    switch random.below(3) {
                    case 0: writer.appendText("\n")
                    case 1: writer.appendText(" &amp; ")
                    default: writer.appendText(" <![CDATA[a < b]]> ")
                    }
                } else if newlines && random.percent(4) {
                    writer.appendText(random.percent(50) ? "\n\n" : "\n")
                } else {
                    writer.appendText(" ")
                }
            }
            writer.append(choice.pick(&random))
            first = false
        }
    }
}

enum Zoo {
    static let kinds: [[UInt8]] = ["cat", "dog", "elephant", "giraffe", "lion", "okapi", "penguin", "zebra", "yak"]
        .map { Array($0.utf8) }
    static let plainNames: [[UInt8]] = ["grumpy", "Max", "Bella", "i have no idea what i'm doing", "Kōji", "Ëlsa", "Gräfin", "Luna", "Ōkami"]
        .map { Array($0.utf8) }
    static let escapedNames: [[UInt8]] = ["Tom &amp; Jerry", "Mr &lt;Whiskers&gt;", "A &gt; B", "Salt &amp; Pepper"]
        .map { Array($0.utf8) }
    static let cdataNames: [[UInt8]] = ["<![CDATA[Bits & <Bobs>]]>", "<![CDATA[Fish & Chips]]>"].map { Array($0.utf8) }

    /// The markup between the generated values, one spelling per zoo shape. Both shapes
    /// write the same elements, text and random draws in the same order, so they differ
    /// only in their names and namespace declarations.
    struct Markup {
        /// What follows the XML declaration, which names the document's encoding.
        let prologue: StaticString
        /// The record's start tag up to its attributes, which ``kind`` closes.
        let animal: StaticString
        let kind: StaticString
        let name: StaticString
        let url: StaticString
        let decoyName: StaticString
        let note: StaticString
        let blobName: StaticString
        let data: StaticString
        let secondNote: StaticString
        let animalEnd: StaticString
        /// `animalEnd` in two, for extra elements after the second note.
        let noteEnd: StaticString = "</note>"
        let junkEnd: StaticString
        let epilogue: StaticString

        /// The README's zoo: no namespaces.
        static let plain = Markup(
            prologue: "<zoo>\n  <animals>\n",
            animal: "    <animal",
            kind: ">\n      <kind>",
            name: "</kind>\n      <nested_nonsense><name>",
            url: "</name></nested_nonsense>\n      <url>http://example.org/animals/",
            decoyName: "</url>\n      <junk>\n        <name>decoy ",
            note: "</name>\n        <note id=\"n",
            blobName: "</note>\n        <blob><deeper><name>",
            data: "</name><data>",
            secondNote: "</data></deeper></blob>\n        <note>",
            animalEnd: "</note>\n      </junk>\n    </animal>\n",
            junkEnd: "\n      </junk>\n    </animal>\n",
            epilogue:
                "  </animals>\n  <facilities>\n    <toilet>42</toilet>\n    <disabled_parking>true</disabled_parking>\n  </facilities>\n</zoo>\n")

        /// The zoo as namespaced documents are written: its vocabulary under the prefix `z`
        /// (`urn:example:zoo`), each `<junk>` in a default namespace of its own, and the
        /// decoy names in a third namespace under the same prefix `z`, rebound locally. The
        /// decoy under `<blob>` sits in a `z:nested_nonsense` of that third namespace, so a
        /// reader that checks the parent by prefix or by local name takes the decoy for the
        /// animal's name; only matching by namespace URI gives the right answer.
        static let namespaced = Markup(
            prologue: "<z:zoo xmlns:z=\"urn:example:zoo\">\n  <z:animals>\n",
            animal: "    <z:animal",
            kind: ">\n      <z:kind>",
            name: "</z:kind>\n      <z:nested_nonsense><z:name>",
            url: "</z:name></z:nested_nonsense>\n      <z:url>http://example.org/animals/",
            decoyName:
                "</z:url>\n      <junk xmlns=\"urn:example:junk\">\n        <z:name xmlns:z=\"urn:example:decoy\">decoy ",
            note: "</z:name>\n        <note id=\"n",
            blobName: "</note>\n        <blob><z:nested_nonsense xmlns:z=\"urn:example:decoy\"><z:name>",
            data: "</z:name><data>",
            secondNote: "</data></z:nested_nonsense></blob>\n        <note>",
            animalEnd: "</note>\n      </junk>\n    </z:animal>\n",
            junkEnd: "\n      </junk>\n    </z:animal>\n",
            epilogue:
                "  </z:animals>\n  <z:facilities>\n    <z:toilet>42</z:toilet>\n    <z:disabled_parking>true</z:disabled_parking>\n  </z:facilities>\n</z:zoo>\n")
    }

    static func write(
        _ writer: inout DocumentWriter, _ random: inout SplitMix64, _ target: Int, _ markup: Markup, _ text: ZooText,
        _ encoding: DocumentEncoding, _ proportions: Proportions
    ) throws {
        let breaks = proportions.breakPercent
        let references = proportions.referencePercent
        writer.append("<?xml version=\"1.0\" encoding=\"")
        writer.append(Array(encoding.declaredName.utf8))
        writer.append("\"?>\n")
        writer.append(markup.prologue)
        var id = 0
        while writer.count < target {
            id += 1
            writer.append(markup.animal)
            proportions.writeRecordNamespace(&writer, record: id)
            writer.append(markup.kind)
            writer.append(text.kinds.pick(&random))
            writer.append(markup.name)
            let roll = random.below(100)
            if roll < 15 {
                writer.append(text.escapedNames.pick(&random))
            } else if roll < 20 {
                writer.append(text.cdataNames.pick(&random))
            } else {
                writer.append(text.plainNames.pick(&random))
            }
            writer.append(markup.url)
            writer.append(id)
            writer.append(markup.decoyName)
            writer.append(id)
            writer.append(markup.note)
            writer.append(id)
            writer.append("\" flag=\"")
            writer.append(random.below(1000))
            writer.append("\"")
            proportions.writeAttributes(&writer)
            writer.append(">")
            Vocabulary.prose(&writer, &random, length: proportions.text(150), words: text.prose, breaks: breaks,
                references: references)
            writer.append(markup.blobName)
            writer.append(text.plainNames.pick(&random))
            writer.append(markup.data)
            Vocabulary.prose(&writer, &random, length: proportions.text(140), words: text.prose, breaks: breaks,
                references: references)
            writer.append(markup.secondNote)
            Vocabulary.prose(&writer, &random, length: proportions.text(150), words: text.prose, breaks: breaks,
                references: references)
            if proportions.extraElements > 0 {
                writer.append(markup.noteEnd)
                proportions.writeExtraElements(&writer, &random, indent: "\n        ")
                writer.append(markup.junkEnd)
            } else {
                writer.append(markup.animalEnd)
            }
            try writer.flushIfFull()
        }
        writer.append(markup.epilogue)
    }
}

enum OSM {
    static let tags: [([UInt8], [[UInt8]])] = [
        ("highway", ["bus_stop", "crossing", "traffic_signals", "residential", "service"]),
        ("name", ["Briggate", "Park Row", "Straße am Wehr", "Rue de l&apos;Église", "Kirkgate &amp; Market"]),
        ("amenity", ["cafe", "bench", "post_box", "pharmacy"]),
        ("shop", ["bakery", "books", "convenience"]),
        ("source", ["survey", "bing"]),
    ].map { (Array($0.0.utf8), $0.1.map { Array($0.utf8) }) }

    static func write(
        _ writer: inout DocumentWriter, _ random: inout SplitMix64, _ target: Int, _ proportions: Proportions
    ) throws {
        writer.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<osm version=\"0.6\" generator=\"saxdispatch-bench\">\n")
        writer.append(" <bounds minlat=\"53.7000000\" minlon=\"-1.6500000\" maxlat=\"53.9000000\" maxlon=\"-1.4500000\"/>\n")
        var nodes = 0
        while writer.count < target * 7 / 10 {
            nodes += 1
            writer.append(" <node id=\"")
            writer.append(1_000_000 + nodes)
            writer.append("\" lat=\"")
            writer.append(537_000_000 + random.below(2_000_000), places: 7)
            writer.append("\" lon=\"")
            writer.append(-16_500_000 + random.below(2_000_000), places: 7)
            writer.append("\" version=\"")
            writer.append(1 + random.below(9))
            writer.append("\" timestamp=\"2019-0")
            writer.append(1 + random.below(9))
            writer.append("-1")
            writer.append(random.below(10))
            writer.append("T12:34:56Z\"")
            proportions.writeRecordNamespace(&writer, record: nodes)
            proportions.writeAttributes(&writer)
            if random.percent(80) {
                if proportions.extraElements > 0 {
                    writer.append(">")
                    proportions.writeExtraElements(&writer, &random, indent: "\n  ")
                    writer.append("\n </node>\n")
                } else {
                    writer.append("/>\n")
                }
            } else {
                writer.append(">\n")
                for _ in 0..<(1 + random.below(4)) { tag(&writer, &random) }
                proportions.writeExtraElements(&writer, &random, indent: "  ")
                writer.append(proportions.extraElements > 0 ? "\n </node>\n" : " </node>\n")
            }
            try writer.flushIfFull()
        }
        var ways = 0
        while writer.count < target {
            ways += 1
            writer.append(" <way id=\"")
            writer.append(5_000_000 + ways)
            writer.append("\" version=\"")
            writer.append(1 + random.below(5))
            writer.append("\" timestamp=\"2020-02-02T02:02:02Z\"")
            proportions.writeRecordNamespace(&writer, record: ways)
            proportions.writeAttributes(&writer)
            writer.append(">\n")
            for _ in 0..<(5 + random.below(11)) {
                writer.append("  <nd ref=\"")
                writer.append(1_000_001 + random.below(max(1, nodes)))
                writer.append("\"/>\n")
            }
            for _ in 0..<(1 + random.below(3)) { tag(&writer, &random) }
            proportions.writeExtraElements(&writer, &random, indent: "  ")
            writer.append(proportions.extraElements > 0 ? "\n </way>\n" : " </way>\n")
            try writer.flushIfFull()
        }
        writer.append("</osm>\n")
    }

    static func tag(_ writer: inout DocumentWriter, _ random: inout SplitMix64) {
        let (key, values) = tags[random.below(tags.count)]
        writer.append("  <tag k=\"")
        writer.append(key)
        writer.append("\" v=\"")
        writer.append(values[random.below(values.count)])
        writer.append("\"/>\n")
    }
}

enum Wiki {
    static func write(
        _ writer: inout DocumentWriter, _ random: inout SplitMix64, _ target: Int, _ proportions: Proportions
    ) throws {
        writer.append("<mediawiki xmlns=\"http://www.mediawiki.org/xml/export-0.10/\" version=\"0.10\" xml:lang=\"en\">\n")
        writer.append("  <siteinfo>\n    <sitename>Wikipedia</sitename>\n    <dbname>enwiki</dbname>\n  </siteinfo>\n")
        var page = 0
        while writer.count < target {
            page += 1
            writer.append("  <page")
            proportions.writeRecordNamespace(&writer, record: page)
            proportions.writeAttributes(&writer)
            writer.append(">\n    <title>")
            Vocabulary.prose(&writer, &random, length: 12)
            writer.append("</title>\n    <ns>0</ns>\n    <id>")
            writer.append(page)
            writer.append("</id>\n    <revision>\n      <id>")
            writer.append(90_000_000 + page)
            writer.append("</id>\n      <timestamp>2020-0")
            writer.append(1 + random.below(9))
            writer.append("-0")
            writer.append(1 + random.below(9))
            writer.append("T10:00:00Z</timestamp>\n      <contributor>\n        <username>")
            Vocabulary.prose(&writer, &random, length: 6)
            writer.append("</username>\n        <id>")
            writer.append(random.below(1_000_000))
            writer.append("</id>\n      </contributor>")
            proportions.writeExtraElements(&writer, &random, indent: "\n      ")
            writer.append("\n      <text xml:space=\"preserve\">")
            Vocabulary.prose(
                &writer, &random, length: proportions.text(2000 + random.below(6000)), newlines: true,
                breaks: proportions.breakPercent, references: proportions.referencePercent)
            writer.append("</text>\n    </revision>\n  </page>\n")
            try writer.flushIfFull()
        }
        writer.append("</mediawiki>\n")
    }
}
