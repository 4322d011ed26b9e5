// writer-saxdispatch SHAPE RECORDS FILE [writer|encoder]: SAXDispatch writing the records
// (WrittenRecords) to FILE as a stream: `writer` (the default) calls XMLWriter per element
// as a hand-written serializer would; `encoder` encodes each record with XMLRecordEncoder
// into the open writer.
import BenchmarkDocuments
import SAXDispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

guard let arguments = WriterArguments.parse() else { exit(2) }

func writeByHand(_ writer: XMLWriter) throws {
    switch arguments.shape {
    case .zoo, .zooNamespaced:
        try writer.startElement("zoo")
        try writer.startElement("animals")
        for index in 0..<arguments.records {
            let animal = WrittenRecords.animal(index)
            try writer.startElement("animal")
            try writer.element("kind", text: animal.kind)
            try writer.startElement("nested_nonsense")
            try writer.element("name", text: animal.nested_nonsense.name)
            try writer.endElement()
            try writer.element("url", text: animal.url)
            try writer.endElement()
        }
        try writer.endElement()
        try writer.endElement()
    case .osm:
        try writer.startElement("osm", attributes: ["version": "0.6"])
        for index in 0..<arguments.records {
            let node = WrittenRecords.node(index)
            try writer.startElement(
                "node", attributes: ["id": node.id, "lat": node.lat, "lon": node.lon, "version": node.version, "user": node.user])
            for tag in node.tag {
                try writer.startElement("tag", attributes: ["k": tag.k, "v": tag.v])
                try writer.endElement()
            }
            try writer.endElement()
        }
        try writer.endElement()
    case .wiki:
        try writer.startElement("mediawiki")
        for index in 0..<arguments.records {
            let page = WrittenRecords.page(index)
            try writer.startElement("page")
            try writer.element("title", text: page.title)
            try writer.element("ns", text: page.ns)
            try writer.element("id", text: page.id)
            try writer.startElement("revision")
            try writer.element("id", text: page.revision.id)
            try writer.element("timestamp", text: page.revision.timestamp)
            try writer.element("text", text: page.revision.text)
            try writer.endElement()
            try writer.endElement()
        }
        try writer.endElement()
    }
}

/// The osm node as the encoder's conventions spell attributes.
struct EncodedNode: Encodable {
    struct Tag: Encodable {
        let k: String
        let v: String
        enum CodingKeys: String, CodingKey {
            case k = "@k", v = "@v"
        }
    }
    let node: WrittenRecords.Node
    enum CodingKeys: String, CodingKey {
        case id = "@id", lat = "@lat", lon = "@lon", version = "@version", user = "@user", tag
    }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(node.id, forKey: .id)
        try container.encode(node.lat, forKey: .lat)
        try container.encode(node.lon, forKey: .lon)
        try container.encode(node.version, forKey: .version)
        try container.encode(node.user, forKey: .user)
        try container.encode(node.tag.map { Tag(k: $0.k, v: $0.v) }, forKey: .tag)
    }
}

func writeByEncoder(_ writer: XMLWriter) throws {
    let encoder = XMLRecordEncoder()
    switch arguments.shape {
    case .zoo, .zooNamespaced:
        try writer.startElement("zoo")
        try writer.startElement("animals")
        for index in 0..<arguments.records { try encoder.encode(WrittenRecords.animal(index), as: "animal", to: writer) }
        try writer.endElement()
        try writer.endElement()
    case .osm:
        try writer.startElement("osm", attributes: ["version": "0.6"])
        for index in 0..<arguments.records { try encoder.encode(EncodedNode(node: WrittenRecords.node(index)), as: "node", to: writer) }
        try writer.endElement()
    case .wiki:
        try writer.startElement("mediawiki")
        for index in 0..<arguments.records { try encoder.encode(WrittenRecords.page(index), as: "page", to: writer) }
        try writer.endElement()
    }
}

do {
    let writer = try XMLWriter(to: .file(arguments.path))
    if arguments.variant == "encoder" {
        try writeByEncoder(writer)
    } else {
        try writeByHand(writer)
    }
    try writer.finish()
    print(arguments.resultLine())
} catch {
    printError("\(error)")
    exit(1)
}
