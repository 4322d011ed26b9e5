// The extract task through path patterns, the way the *Routing and patterns* article teaches
// it, in the variants that `run --routing` compares:
//
// - `paths`: one pattern per field (`animal/kind`, `nested_nonsense/name`, …);
// - `skip`: the same, and (zoo) each animal's `<junk>` skipped from a start handler;
// - `paths50`: the same patterns plus 46 that never match, most of them ending in names
//   the document is full of, so that every such element is matched against its ancestors;
// - `object`: `paths`, declared by handler objects (struct methods) instead of closures.
import BenchmarkDocuments
import SAXDispatch

enum RoutedVariant: String {
    case paths
    case skip
    case paths50
    /// `paths` declared by a handler object (a struct; ZooRecords.swift).
    case object
    /// Typed records (RecordExtract.swift).
    case records
    /// The same typed records at floating patterns (`animal`, not `/zoo/animals/animal`): no
    /// subtree filter can skip for them, so what no field reads is pruned where it begins.
    case recordsFloating = "records-floating"
    /// The typed records read on worker threads, one document in ranges
    /// (RecordExtract.swift; the workers from `SAXDISPATCH_WORKERS`, 2 unless set).
    case recordsParallel = "records-parallel"
    /// `Decodable` models through XMLRecordDecoder (DecodableExtract.swift).
    case decodable
    /// The same models from an async stream (AsyncExtract.swift).
    case async
}

/// Patterns that match nothing in the benchmark documents: 30 end in names that occur
/// (their elements go through ancestor matching), 16 in names that do not.
func decoyPatterns() -> [ElementPattern] {
    var patterns: [ElementPattern] = []
    for name in ["name", "kind", "url", "note", "tag", "nd", "node", "way", "text", "title"] {
        for context in ["/nowhere/\(name)", "decoy//\(name)", "missing/*/\(name)"] {
            patterns.append(ElementPattern(stringLiteral: context))
        }
    }
    for index in 0..<16 {
        patterns.append(ElementPattern(stringLiteral: "absent\(index)[@k='v']"))
    }
    return patterns
}

func routedExtract(_ arguments: ContenderArguments, _ variant: RoutedVariant) throws -> String {
    if variant == .object { return try objectExtract(arguments) }
    if variant == .records { return try recordExtract(arguments, anchored: true) }
    if variant == .recordsFloating { return try recordExtract(arguments, anchored: false) }
    if variant == .recordsParallel { return try recordExtract(arguments, anchored: true, workers: parallelWorkers()) }
    if variant == .decodable { return try decodableExtract(arguments) }
    if variant == .async { throw UsageError(message: "the async variant runs through asyncExtract") }
    var dispatcher = Dispatcher()
    if variant == .paths50 {
        for pattern in decoyPatterns() { dispatcher.onStart(pattern) { _ in } }
    }
    switch arguments.shape {
    case .zoo:
        var records = 0
        var fieldBytes = 0
        var kind = ""
        var name = ""
        var url = ""
        dispatcher.onEnd("animal/kind") { _, text in kind = text }
        dispatcher.onEnd("animal/nested_nonsense/name") { _, text in name = text }
        dispatcher.onEnd("animal/url") { _, text in url = text }
        dispatcher.onEnd("animal") { _ in
            let animal = Animal(kind: kind, name: name, url: url)
            records += 1
            fieldBytes += animal.fieldBytes
        }
        if variant == .skip { dispatcher.onStart("animal/junk") { $0.skipSubtree() } }
        try dispatcher.parse(.file(arguments.path))
        return ResultLine.zoo(records: records, fieldBytes: fieldBytes)

    case .zooNamespaced:
        // The zoo's patterns with the zoo's prefix bound; `junk` is unprefixed, and matches
        // the unprefixed `<junk>` whatever default namespace the document puts it in.
        var records = 0
        var fieldBytes = 0
        var kind = ""
        var name = ""
        var url = ""
        dispatcher.namespaces = ["z": "urn:example:zoo"]
        dispatcher.onEnd("z:animal/z:kind") { _, text in kind = text }
        dispatcher.onEnd("z:animal/z:nested_nonsense/z:name") { _, text in name = text }
        dispatcher.onEnd("z:animal/z:url") { _, text in url = text }
        dispatcher.onEnd("z:animal") { _ in
            let animal = Animal(kind: kind, name: name, url: url)
            records += 1
            fieldBytes += animal.fieldBytes
        }
        if variant == .skip { dispatcher.onStart("z:animal/junk") { $0.skipSubtree() } }
        try dispatcher.parse(.file(arguments.path))
        return ResultLine.zoo(.zooNamespaced, records: records, fieldBytes: fieldBytes)

    case .osm:
        var nodes = 0
        var latitudeSum = 0.0
        var highwayTags = 0
        dispatcher.onStart("/osm/node") { element in
            nodes += 1
            if let lat = element.attributes["lat"].flatMap(Double.init) { latitudeSum += lat }
        }
        dispatcher.onStart("tag[@k='highway']") { _ in highwayTags += 1 }
        try dispatcher.parse(.file(arguments.path))
        return ResultLine.osm(nodes: nodes, latitudeSum: latitudeSum, highwayTags: highwayTags)

    case .wiki:
        var pages = 0
        var textBytes = 0
        dispatcher.onEnd("/mediawiki/page") { _ in pages += 1 }
        dispatcher.onEnd("revision/text", whitespace: .preserve) { _, text in textBytes += text.utf8.count }
        try dispatcher.parse(.file(arguments.path))
        return ResultLine.wiki(pages: pages, textBytes: textBytes)
    }
}
