// The `async` variant: the `decodable` variant's models, taken from an `XMLStream` (the
// *Async streams* article) reading the file a chunk at a time (`.file(path)`), so the
// parser pauses after every value and resumes when the loop asks for the next one.
// Compared with `decodable`, it measures what back-pressure and `for try await` cost.
import BenchmarkDocuments
import SAXDispatch

private enum OSMItem {
    case node(DecodedNode)
    case way(DecodedWay)
}

func asyncExtract(_ arguments: ContenderArguments) async throws -> String {
    switch arguments.shape {
    case .zoo:
        var records = 0
        var fieldBytes = 0
        for try await animal in XMLRecordDecoder().stream(DecodedAnimal.self, at: "/zoo/animals/animal", from: .file(arguments.path)) {
            records += 1
            fieldBytes += animal.kind.utf8.count + animal.name.utf8.count + animal.url.utf8.count
        }
        return ResultLine.zoo(records: records, fieldBytes: fieldBytes)

    case .zooNamespaced:
        // The decodable variant's models, which do not run zoo-ns (DecodableExtract.swift).
        throw UsageError(message: "the async variant does not run zoo-ns")

    case .osm:
        var nodes = 0
        var latitudeSum = 0.0
        var highwayTags = 0
        // Two types from one document: handlers yield both into one stream.
        let items = XMLStream<OSMItem>(from: .file(arguments.path)) { dispatcher, output in
            dispatcher.onDecoded(DecodedNode.self, at: "/osm/node") { output.yield(.node($0)) }
            dispatcher.onDecoded(DecodedWay.self, at: "/osm/way") { output.yield(.way($0)) }
        }
        for try await item in items {
            switch item {
            case .node(let node):
                nodes += 1
                latitudeSum += node.lat
                highwayTags += node.tag.count { $0.k == "highway" }
            case .way(let way):
                highwayTags += way.tag.count { $0.k == "highway" }
            }
        }
        return ResultLine.osm(nodes: nodes, latitudeSum: latitudeSum, highwayTags: highwayTags)

    case .wiki:
        var decoder = XMLRecordDecoder()
        decoder.whitespace = .preserve
        var pages = 0
        var textBytes = 0
        for try await page in decoder.stream(DecodedPage.self, at: "/mediawiki/page", from: .file(arguments.path)) {
            pages += 1
            textBytes += page.text.utf8.count
        }
        return ResultLine.wiki(pages: pages, textBytes: textBytes)
    }
}
