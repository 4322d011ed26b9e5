// The `decodable` variant: the extract task through `Decodable` models and
// XMLRecordDecoder, the way the *Codable* article teaches it.
import BenchmarkDocuments
import SAXDispatch

struct DecodedAnimal: Decodable {
    let kind: String
    let name: String
    let url: String

    enum CodingKeys: String, CodingKey {
        case kind, url
        case name = "nested_nonsense/name"
    }
}

struct DecodedTag: Decodable {
    let k: String
}

struct DecodedNode: Decodable {
    let lat: Double
    let tag: [DecodedTag]
}

struct DecodedWay: Decodable {
    let tag: [DecodedTag]
}

struct DecodedPage: Decodable {
    let text: String

    enum CodingKeys: String, CodingKey {
        case text = "revision/text"
    }
}

func decodableExtract(_ arguments: ContenderArguments) throws -> String {
    switch arguments.shape {
    case .zoo:
        var records = 0
        var fieldBytes = 0
        try XMLRecordDecoder().forEach(DecodedAnimal.self, at: "/zoo/animals/animal", in: .file(arguments.path)) {
            records += 1
            fieldBytes += $0.kind.utf8.count + $0.name.utf8.count + $0.url.utf8.count
        }
        return ResultLine.zoo(records: records, fieldBytes: fieldBytes)

    case .zooNamespaced:
        // No zoo-ns models here (the runner skips zoo-ns for this variant and for `async`);
        // they would bind `z` in the decoder's `namespaces`, as RecordExtract binds it.
        throw UsageError(message: "the decodable variant does not run zoo-ns")

    case .osm:
        var nodes = 0
        var latitudeSum = 0.0
        var highwayTags = 0
        var dispatcher = Dispatcher()
        dispatcher.onDecoded(DecodedNode.self, at: "/osm/node") { node in
            nodes += 1
            latitudeSum += node.lat
            highwayTags += node.tag.count { $0.k == "highway" }
        }
        dispatcher.onDecoded(DecodedWay.self, at: "/osm/way") { way in
            highwayTags += way.tag.count { $0.k == "highway" }
        }
        try dispatcher.parse(.file(arguments.path))
        return ResultLine.osm(nodes: nodes, latitudeSum: latitudeSum, highwayTags: highwayTags)

    case .wiki:
        var decoder = XMLRecordDecoder()
        decoder.whitespace = .preserve
        var pages = 0
        var textBytes = 0
        try decoder.forEach(DecodedPage.self, at: "/mediawiki/page", in: .file(arguments.path)) {
            pages += 1
            textBytes += $0.text.utf8.count
        }
        return ResultLine.wiki(pages: pages, textBytes: textBytes)
    }
}
