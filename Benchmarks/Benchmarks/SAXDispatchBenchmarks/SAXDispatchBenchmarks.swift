// In-process measurements with ordo-one/benchmark: CPU and wall time, throughput,
// peak resident memory and mallocs, for SAXDispatch and the C+expat
// baseline on the same 8 MiB documents.
//
//     cd Benchmarks && swift package --allow-writing-to-package-directory benchmark
//
// The cross-library table (Foundation, SWXMLHash, XMLCoder, process-level peak RSS)
// comes from `Benchmarks/run`.
import Benchmark
import BenchmarkDocuments
import CExpatTasks
import SAXDispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes each shape once to a temporary file, so every iteration reads the same bytes.
func documentPath(_ shape: Shape) -> String {
    let path = "/tmp/saxdispatch-benchmark-\(shape.rawValue)-8MiB.xml"
    if access(path, R_OK) != 0, let file = fopen(path, "wb") {
        try? DocumentGenerator(shape: shape).generate(targetSize: 8 << 20) { chunk in
            _ = chunk.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        }
        fclose(file)
    }
    return path
}

func countWithSAXDispatch(_ path: String) throws -> Int {
    var elements = 0
    var textBytes = 0
    var dispatcher = Dispatcher()
    dispatcher.onAnyStart { _ in elements += 1 }
    dispatcher.onAnyText { _, chunk in textBytes += chunk.count }
    try dispatcher.parse(.file(path))
    return elements + textBytes
}

func extractZooWithSAXDispatch(_ path: String) throws -> Int {
    var bytes = 0
    var dispatcher = Dispatcher()
    dispatcher.onEnd("kind") { _, text in bytes += text.utf8.count }
    dispatcher.onEnd("name") { element, text in
        if element.ancestor(at: 1) == "nested_nonsense" { bytes += text.utf8.count }
    }
    dispatcher.onEnd("url") { _, text in bytes += text.utf8.count }
    try dispatcher.parse(.file(path))
    return bytes
}

func extractNamespacedZooWithSAXDispatch(_ path: String) throws -> Int {
    var bytes = 0
    var dispatcher = Dispatcher()
    dispatcher.namespaces = ["z": "urn:example:zoo"]
    dispatcher.onEnd("z:kind") { _, text in bytes += text.utf8.count }
    dispatcher.onEnd("z:nested_nonsense/z:name") { _, text in bytes += text.utf8.count }
    dispatcher.onEnd("z:url") { _, text in bytes += text.utf8.count }
    try dispatcher.parse(.file(path))
    return bytes
}

func extractOSMWithSAXDispatch(_ path: String) throws -> Double {
    var latitudeSum = 0.0
    var highwayTags = 0
    var dispatcher = Dispatcher()
    dispatcher.onStart("node") { element in
        if let lat = element.attributes["lat"].flatMap(Double.init) { latitudeSum += lat }
    }
    dispatcher.onStart("tag") { element in
        if element.attributes["k"] == "highway" { highwayTags += 1 }
    }
    try dispatcher.parse(.file(path))
    return latitudeSum + Double(highwayTags)
}

func extractWikiWithSAXDispatch(_ path: String) throws -> Int {
    var textBytes = 0
    var dispatcher = Dispatcher()
    dispatcher.onEnd("text", whitespace: .preserve) { element, text in
        if element.ancestor(at: 1) == "revision" { textBytes += text.utf8.count }
    }
    try dispatcher.parse(.file(path))
    return textBytes
}

func withCExpat(_ task: String, _ shape: Shape, _ path: String) -> Int {
    let descriptor = open(path, O_RDONLY)
    defer { close(descriptor) }
    var result = [CChar](repeating: 0, count: 256)
    // Without namespaces, as the C contender's default; zoo-ns always has them.
    return Int(cexpat_run(task, shape.rawValue, descriptor, 0, &result, result.count))
}

let benchmarks: @Sendable () -> Void = {
    // No retain/release metrics: on Swift 6.3 for Linux, ordo-one's runtime retain hook is
    // handed small strings' inline bits as if they were objects and crashes (Swift 6.4
    // fixes the hooks; the RuntimeInterposer workaround needs a package not available here).
    Benchmark.defaultConfiguration = .init(
        metrics: [.cpuTotal, .wallClock, .throughput, .peakMemoryResident, .mallocCountTotal],
        scalingFactor: .one, maxDuration: .seconds(3), maxIterations: 15)

    for shape in Shape.allCases {
        let path = documentPath(shape)
        Benchmark("count \(shape.rawValue): C+expat") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(withCExpat("count", shape, path)) }
        }
        Benchmark("count \(shape.rawValue): SAXDispatch") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try countWithSAXDispatch(path)) }
        }
    }
    for shape in Shape.allCases {
        let path = documentPath(shape)
        Benchmark("extract \(shape.rawValue): C+expat") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(withCExpat("extract", shape, path)) }
        }
    }
    let zoo = documentPath(.zoo)
    Benchmark("extract zoo: SAXDispatch") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try extractZooWithSAXDispatch(zoo)) }
    }
    let zooNamespaced = documentPath(.zooNamespaced)
    Benchmark("extract zoo-ns: SAXDispatch") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try extractNamespacedZooWithSAXDispatch(zooNamespaced)) }
    }
    let osm = documentPath(.osm)
    Benchmark("extract osm: SAXDispatch") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try extractOSMWithSAXDispatch(osm)) }
    }
    let wiki = documentPath(.wiki)
    Benchmark("extract wiki: SAXDispatch") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try extractWikiWithSAXDispatch(wiki)) }
    }
}
