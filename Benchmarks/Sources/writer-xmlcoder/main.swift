// writer-xmlcoder SHAPE RECORDS FILE: XMLCoder 0.18.2's XMLEncoder encoding the records
// (WrittenRecords) as one Encodable document, the attributes of osm through
// DynamicNodeEncoding.
import BenchmarkDocuments
import Foundation
import XMLCoder

guard let arguments = WriterArguments.parse() else { exit(2) }

struct ZooDocument: Encodable {
    struct Animals: Encodable { let animal: [WrittenRecords.Animal] }
    let animals: Animals
}

struct OSMTag: Encodable, DynamicNodeEncoding {
    let k: String
    let v: String
    static func nodeEncoding(for key: any CodingKey) -> XMLEncoder.NodeEncoding { .attribute }
}

struct OSMNode: Encodable, DynamicNodeEncoding {
    let id: String
    let lat: String
    let lon: String
    let version: String
    let user: String
    let tag: [OSMTag]
    static func nodeEncoding(for key: any CodingKey) -> XMLEncoder.NodeEncoding {
        key.stringValue == "tag" ? .element : .attribute
    }
}

struct OSMDocument: Encodable, DynamicNodeEncoding {
    let version = "0.6"
    let node: [OSMNode]
    static func nodeEncoding(for key: any CodingKey) -> XMLEncoder.NodeEncoding {
        key.stringValue == "version" ? .attribute : .element
    }
}

struct WikiDocument: Encodable {
    let page: [WrittenRecords.Page]
}

let encoder = XMLEncoder()
let header = XMLHeader(version: 1.0, encoding: "UTF-8")
do {
    let data: Data
    switch arguments.shape {
    case .zoo, .zooNamespaced:
        let zoo = ZooDocument(animals: .init(animal: (0..<arguments.records).map(WrittenRecords.animal)))
        data = try encoder.encode(zoo, withRootKey: "zoo", header: header)
    case .osm:
        let nodes = (0..<arguments.records).map { index -> OSMNode in
            let node = WrittenRecords.node(index)
            return OSMNode(
                id: node.id, lat: node.lat, lon: node.lon, version: node.version, user: node.user,
                tag: node.tag.map { OSMTag(k: $0.k, v: $0.v) })
        }
        data = try encoder.encode(OSMDocument(node: nodes), withRootKey: "osm", header: header)
    case .wiki:
        data = try encoder.encode(WikiDocument(page: (0..<arguments.records).map(WrittenRecords.page)), withRootKey: "mediawiki", header: header)
    }
    guard FileManager.default.createFile(atPath: arguments.path, contents: data) else {
        printError("\(arguments.path): cannot write")
        exit(1)
    }
    print(arguments.resultLine())
} catch {
    printError("\(error)")
    exit(1)
}
