// contender-saxdispatch TASK SHAPE FILE [VARIANT]: SAXDispatch through its public API,
// the way the README's quick start teaches it: handlers per element name, text at the element's end.
// The variants route by path pattern instead (RoutedExtract.swift).
import BenchmarkDocuments
import SAXDispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Animal {
    let kind: String
    let name: String
    let url: String

    /// The UTF-8 length of the three fields, which the extract task sums.
    var fieldBytes: Int { kind.utf8.count + name.utf8.count + url.utf8.count }
}

func run(_ arguments: ContenderArguments) throws -> String {
    if let name = arguments.variant {
        if arguments.task == .count && name == "object" { return try objectCount(arguments) }
        guard arguments.task == .extract, let variant = RoutedVariant(rawValue: name) else {
            throw UsageError(message: "unknown variant \(name) (count: object; extract: paths, skip, paths50, object, records, records-floating, decodable, async)")
        }
        return try routedExtract(arguments, variant)
    }
    var dispatcher = Dispatcher()
    switch (arguments.task, arguments.shape) {
    case (.count, let shape):
        var elements = 0
        var textBytes = 0
        dispatcher.onAnyStart { _ in elements += 1 }
        dispatcher.onAnyText { _, chunk in textBytes += chunk.count }
        try dispatcher.parse(.file(arguments.path))
        return ResultLine.count(shape, elements: elements, textBytes: textBytes)

    case (.extract, .zoo):
        var records = 0
        var fieldBytes = 0
        var kind = ""
        var name = ""
        var url = ""
        dispatcher.onEnd("kind") { _, text in kind = text }
        dispatcher.onEnd("name") { element, text in
            if element.ancestor(at: 1) == "nested_nonsense" { name = text }
        }
        dispatcher.onEnd("url") { _, text in url = text }
        dispatcher.onEnd("animal") { _ in
            let animal = Animal(kind: kind, name: name, url: url)
            records += 1
            fieldBytes += animal.fieldBytes
        }
        try dispatcher.parse(.file(arguments.path))
        return ResultLine.zoo(records: records, fieldBytes: fieldBytes)

    case (.extract, .zooNamespaced):
        // The zoo's handlers, by namespace: `z` bound to the zoo's URI matches its elements
        // whatever prefix the document gives them, and never the decoys, which the
        // document writes with the same prefix `z` bound to another URI.
        var records = 0
        var fieldBytes = 0
        var kind = ""
        var name = ""
        var url = ""
        dispatcher.namespaces = ["z": "urn:example:zoo"]
        dispatcher.onEnd("z:kind") { _, text in kind = text }
        // The zoo checks the parent by `ancestor(at: 1)`, a name as written: here that
        // would compare a prefix, which the decoys share, so the pattern names the parent.
        dispatcher.onEnd("z:nested_nonsense/z:name") { _, text in name = text }
        dispatcher.onEnd("z:url") { _, text in url = text }
        dispatcher.onEnd("z:animal") { _ in
            let animal = Animal(kind: kind, name: name, url: url)
            records += 1
            fieldBytes += animal.fieldBytes
        }
        try dispatcher.parse(.file(arguments.path))
        return ResultLine.zoo(.zooNamespaced, records: records, fieldBytes: fieldBytes)

    case (.extract, .osm):
        var nodes = 0
        var latitudeSum = 0.0
        var highwayTags = 0
        dispatcher.onStart("node") { element in
            nodes += 1
            if let lat = element.attributes["lat"].flatMap(Double.init) { latitudeSum += lat }
        }
        dispatcher.onStart("tag") { element in
            if element.attributes["k"] == "highway" { highwayTags += 1 }
        }
        try dispatcher.parse(.file(arguments.path))
        return ResultLine.osm(nodes: nodes, latitudeSum: latitudeSum, highwayTags: highwayTags)

    case (.extract, .wiki):
        var pages = 0
        var textBytes = 0
        dispatcher.onEnd("page") { _ in pages += 1 }
        dispatcher.onEnd("text", whitespace: .preserve) { element, text in
            if element.ancestor(at: 1) == "revision" { textBytes += text.utf8.count }
        }
        try dispatcher.parse(.file(arguments.path))
        return ResultLine.wiki(pages: pages, textBytes: textBytes)
    }
}

struct UsageError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

guard let arguments = ContenderArguments.parse() else { exit(2) }
do {
    if arguments.task == .extract && arguments.variant == RoutedVariant.async.rawValue {
        print(try await asyncExtract(arguments))
    } else {
        print(try run(arguments))
    }
} catch {
    printError("\(error)")
    exit(1)
}
