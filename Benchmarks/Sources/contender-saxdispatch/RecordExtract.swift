// The `records` variant: the extract task through typed records, the way the
// *Typed records* article teaches it; `records-floating` the same records at patterns
// anchored nowhere, which the subtree filter cannot use.
import BenchmarkDocuments
import SAXDispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The workers of the `records-parallel` variant: `SAXDISPATCH_WORKERS`, or 2.
func parallelWorkers() -> Int {
    getenv("SAXDISPATCH_WORKERS").flatMap { Int(String(cString: $0)) } ?? 2
}

/// The range size of the `records-parallel` variant: `SAXDISPATCH_RANGE_BYTES`, or the library's default.
func parallelRangeBytes() -> Int {
    getenv("SAXDISPATCH_RANGE_BYTES").flatMap { Int(String(cString: $0)) } ?? 1 << 20
}

/// - Parameter workers: Reads the document on this many worker threads: the records verb's
///   for one record, a handler set per range for the osm shape's two.
func recordExtract(_ arguments: ContenderArguments, anchored: Bool, workers: Int = 1) throws -> String {
    switch arguments.shape {
    case .zoo:
        let animal = XMLRecord(anchored ? "/zoo/animals/animal" : "animal", .text("kind"), .text("nested_nonsense/name"), .text("url")) {
            Animal(kind: $0, name: $1, url: $2)
        }
        var records = 0
        var fieldBytes = 0
        try animal.forEach(in: .file(arguments.path), workers: workers, rangeBytes: parallelRangeBytes()) { animal in
            records += 1
            fieldBytes += animal.fieldBytes
        }
        return ResultLine.zoo(records: records, fieldBytes: fieldBytes)

    case .zooNamespaced:
        let animal = XMLRecord(
            anchored ? "/z:zoo/z:animals/z:animal" : "z:animal", .text("z:kind"), .text("z:nested_nonsense/z:name"), .text("z:url")
        ) {
            Animal(kind: $0, name: $1, url: $2)
        }
        .namespaces(["z": "urn:example:zoo"])
        var records = 0
        var fieldBytes = 0
        try animal.forEach(in: .file(arguments.path), workers: workers, rangeBytes: parallelRangeBytes()) { animal in
            records += 1
            fieldBytes += animal.fieldBytes
        }
        return ResultLine.zoo(.zooNamespaced, records: records, fieldBytes: fieldBytes)

    case .osm:
        // Nodes with their latitude and highway tags; ways with their highway tags.
        let node = XMLRecord(anchored ? "/osm/node" : "node", .value("@lat", as: Double.self), .many("tag[@k='highway']/@k", as: String.self)) {
            Node(latitude: $0, highwayTags: $1.count)
        }
        let way = XMLRecord(anchored ? "/osm/way" : "way", .many("tag[@k='highway']/@k", as: String.self)) { $0.count }
        var nodes = 0
        var latitudeSum = 0.0
        var highwayTags = 0
        if workers > 1 {
            // Two records in one handler set per range; the latitudes are added in
            // document order, as one parse adds them.
            final class RangeCounts {
                var latitudes: [Double] = []
                var highwayTags = 0
            }
            try Dispatcher.parse(.file(arguments.path), workers: workers, rangeBytes: parallelRangeBytes()) { _, handlers in
                let counts = RangeCounts()
                handlers.onRecord(node) { node in
                    counts.latitudes.append(node.latitude)
                    counts.highwayTags += node.highwayTags
                }
                handlers.onRecord(way) { counts.highwayTags += $0 }
                return { (counts.latitudes, counts.highwayTags) }
            } merge: { latitudes, tags in
                nodes += latitudes.count
                for latitude in latitudes { latitudeSum += latitude }
                highwayTags += tags
            }
            return ResultLine.osm(nodes: nodes, latitudeSum: latitudeSum, highwayTags: highwayTags)
        }
        var dispatcher = Dispatcher()
        dispatcher.onRecord(node) { node in
            nodes += 1
            latitudeSum += node.latitude
            highwayTags += node.highwayTags
        }
        dispatcher.onRecord(way) { highwayTags += $0 }
        try dispatcher.parse(.file(arguments.path))
        return ResultLine.osm(nodes: nodes, latitudeSum: latitudeSum, highwayTags: highwayTags)

    case .wiki:
        let page = XMLRecord(anchored ? "/mediawiki/page" : "page", .text("revision/text", whitespace: .preserve)) { $0.utf8.count }
        var pages = 0
        var textBytes = 0
        try page.forEach(in: .file(arguments.path), workers: workers, rangeBytes: parallelRangeBytes()) { length in
            pages += 1
            textBytes += length
        }
        return ResultLine.wiki(pages: pages, textBytes: textBytes)
    }
}

/// An osm node as the records variant builds it.
private struct Node {
    let latitude: Double
    let highwayTags: Int
}
