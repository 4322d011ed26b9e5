// The `object` variants: the count task, and the routed extract with the same patterns
// as `paths`, declared by handler objects whose methods mutate the object.
import BenchmarkDocuments
import SAXDispatch

struct ZooRecords: ElementHandlers {
    var records = 0
    var fieldBytes = 0
    private var kind = ""
    private var name = ""
    private var url = ""

    static func registerHandlers(_ handlers: inout HandlerRegistry<Self>) {
        handlers.onEnd("animal/kind") { $0.kind = $2 }
        handlers.onEnd("animal/nested_nonsense/name") { $0.name = $2 }
        handlers.onEnd("animal/url") { $0.url = $2 }
        handlers.onEnd("animal") { $0.finishAnimal($1) }
    }

    mutating func finishAnimal(_ element: ElementContext) {
        let animal = Animal(kind: kind, name: name, url: url)
        records += 1
        fieldBytes += animal.fieldBytes
    }
}

/// ZooRecords for zoo-ns: the same patterns, with the zoo's prefix bound to its namespace.
struct NamespacedZooRecords: ElementHandlers {
    var records = 0
    var fieldBytes = 0
    private var kind = ""
    private var name = ""
    private var url = ""

    static func registerHandlers(_ handlers: inout HandlerRegistry<Self>) {
        handlers.namespaces = ["z": "urn:example:zoo"]
        handlers.onEnd("z:animal/z:kind") { $0.kind = $2 }
        handlers.onEnd("z:animal/z:nested_nonsense/z:name") { $0.name = $2 }
        handlers.onEnd("z:animal/z:url") { $0.url = $2 }
        handlers.onEnd("z:animal") { $0.finishAnimal($1) }
    }

    mutating func finishAnimal(_ element: ElementContext) {
        let animal = Animal(kind: kind, name: name, url: url)
        records += 1
        fieldBytes += animal.fieldBytes
    }
}

struct OSMRecords: ElementHandlers {
    var nodes = 0
    var latitudeSum = 0.0
    var highwayTags = 0

    static func registerHandlers(_ handlers: inout HandlerRegistry<Self>) {
        handlers.onStart("/osm/node") { $0.node($1) }
        handlers.onStart("tag[@k='highway']") { records, _ in records.highwayTags += 1 }
    }

    mutating func node(_ element: ElementContext) {
        nodes += 1
        if let lat = element.attributes["lat"].flatMap(Double.init) { latitudeSum += lat }
    }
}

struct WikiRecords: ElementHandlers {
    var pages = 0
    var textBytes = 0

    static func registerHandlers(_ handlers: inout HandlerRegistry<Self>) {
        handlers.onEnd("/mediawiki/page") { records, _ in records.pages += 1 }
        handlers.onEnd("revision/text", whitespace: .preserve) { $0.textBytes += $2.utf8.count }
    }
}

func objectExtract(_ arguments: ContenderArguments) throws -> String {
    switch arguments.shape {
    case .zoo:
        var records = ZooRecords()
        try records.parse(.file(arguments.path))
        return ResultLine.zoo(records: records.records, fieldBytes: records.fieldBytes)
    case .zooNamespaced:
        var records = NamespacedZooRecords()
        try records.parse(.file(arguments.path))
        return ResultLine.zoo(.zooNamespaced, records: records.records, fieldBytes: records.fieldBytes)
    case .osm:
        var records = OSMRecords()
        try records.parse(.file(arguments.path))
        return ResultLine.osm(nodes: records.nodes, latitudeSum: records.latitudeSum, highwayTags: records.highwayTags)
    case .wiki:
        var records = WikiRecords()
        try records.parse(.file(arguments.path))
        return ResultLine.wiki(pages: records.pages, textBytes: records.textBytes)
    }
}

struct ElementCounter: ElementHandlers {
    var elements = 0
    var textBytes = 0

    static func registerHandlers(_ handlers: inout HandlerRegistry<Self>) {
        handlers.onAnyStart { counter, _ in counter.elements += 1 }
        handlers.onAnyText { counter, _, chunk in counter.textBytes += chunk.count }
    }
}

func objectCount(_ arguments: ContenderArguments) throws -> String {
    var counter = ElementCounter()
    try counter.parse(.file(arguments.path))
    return ResultLine.count(arguments.shape, elements: counter.elements, textBytes: counter.textBytes)
}
