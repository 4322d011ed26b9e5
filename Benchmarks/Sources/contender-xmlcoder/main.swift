// contender-xmlcoder TASK SHAPE FILE: XMLCoder 0.18.2 decoding Decodable models of the
// whole document (extract only: a decoder has no notion of counting character data).
import BenchmarkDocuments
import Foundation
import XMLCoder

struct ZooDocument: Decodable {
    struct Animals: Decodable { let animal: [Animal] }
    struct Nested: Decodable { let name: String }
    struct Animal: Decodable {
        let kind: String
        let nested_nonsense: Nested
        let url: String
    }
    let animals: Animals
}

struct OSMDocument: Decodable {
    struct Tag: Decodable { let k: String }
    struct Node: Decodable {
        let lat: Double
        let tag: [Tag]?
    }
    struct Way: Decodable { let tag: [Tag]? }
    let node: [Node]
    let way: [Way]?
}

struct WikiDocument: Decodable {
    struct Revision: Decodable { let text: String }
    struct Page: Decodable { let revision: Revision }
    let page: [Page]
}

guard let arguments = ContenderArguments.parse() else { exit(2) }
guard arguments.task == .extract else {
    FileHandle.standardError.write(Data("xmlcoder: the count task does not apply to a Decodable decoder\n".utf8))
    exit(3)
}
// The whole-document contenders are compared on the namespace-free shapes only.
guard arguments.shape != .zooNamespaced else {
    FileHandle.standardError.write(Data("xmlcoder: zoo-ns is not among its shapes\n".utf8))
    exit(3)
}
guard let data = FileManager.default.contents(atPath: arguments.path) else {
    FileHandle.standardError.write(Data("\(arguments.path): cannot read\n".utf8))
    exit(1)
}
let decoder = XMLDecoder()
decoder.shouldProcessNamespaces = false
decoder.trimValueWhitespaces = false
do {
    let result: String
    switch arguments.shape {
    case .zoo:
        let zoo = try decoder.decode(ZooDocument.self, from: data)
        let bytes = zoo.animals.animal.reduce(0) { $0 + $1.kind.utf8.count + $1.nested_nonsense.name.utf8.count + $1.url.utf8.count }
        result = ResultLine.zoo(records: zoo.animals.animal.count, fieldBytes: bytes)
    case .zooNamespaced:
        preconditionFailure("zoo-ns was refused above")
    case .osm:
        let osm = try decoder.decode(OSMDocument.self, from: data)
        let tags = osm.node.flatMap { $0.tag ?? [] } + (osm.way ?? []).flatMap { $0.tag ?? [] }
        result = ResultLine.osm(
            nodes: osm.node.count, latitudeSum: osm.node.reduce(0) { $0 + $1.lat },
            highwayTags: tags.filter { $0.k == "highway" }.count)
    case .wiki:
        let wiki = try decoder.decode(WikiDocument.self, from: data)
        result = ResultLine.wiki(pages: wiki.page.count, textBytes: wiki.page.reduce(0) { $0 + $1.revision.text.utf8.count })
    }
    print(result)
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
