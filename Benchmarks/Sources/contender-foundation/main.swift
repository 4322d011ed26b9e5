// contender-foundation TASK SHAPE FILE: Foundation's XMLParser (FoundationXML on Linux),
// a delegate streamed from an InputStream: the parser that comes with Swift.
import BenchmarkDocuments
import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Counts start tags and character data.
final class CountDelegate: NSObject, XMLParserDelegate {
    var elements = 0
    var textBytes = 0

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        elements += 1
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { textBytes += string.utf8.count }
    func parser(_ parser: XMLParser, foundIgnorableWhitespace string: String) { textBytes += string.utf8.count }
    func parser(_ parser: XMLParser, foundCDATA block: Data) { textBytes += block.count }
}

/// The usual delegate state machine: a stack of names and a text buffer for the fields wanted.
final class ExtractDelegate: NSObject, XMLParserDelegate {
    let shape: Shape
    var stack: [String] = []
    var text = ""
    var capturing = false
    // zoo
    var records = 0, fieldBytes = 0
    var kind = "", name = "", url = ""
    // osm
    var nodes = 0, latitudeSum = 0.0, highwayTags = 0
    // wiki
    var pages = 0, wikiTextBytes = 0

    init(shape: Shape) {
        self.shape = shape
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        let parent = stack.last
        stack.append(elementName)
        switch (shape, elementName) {
        case (.zoo, "kind"), (.zoo, "url"):
            capturing = parent == "animal"
        case (.zoo, "name"):
            capturing = parent == "nested_nonsense"
        case (.osm, "node"):
            nodes += 1
            if let lat = attributes["lat"].flatMap(Double.init) { latitudeSum += lat }
        case (.osm, "tag"):
            if attributes["k"] == "highway" { highwayTags += 1 }
        case (.wiki, "text"):
            capturing = parent == "revision"
        default:
            return
        }
        text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if capturing { text += string }
    }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        if capturing { text += String(decoding: block, as: UTF8.self) }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        stack.removeLast()
        switch (shape, elementName) {
        case (.zoo, "kind") where capturing: kind = text
        case (.zoo, "name") where capturing: name = text
        case (.zoo, "url") where capturing: url = text
        case (.zoo, "animal"):
            records += 1
            fieldBytes += kind.utf8.count + name.utf8.count + url.utf8.count
        case (.wiki, "text") where capturing: wikiTextBytes += text.utf8.count
        case (.wiki, "page"): pages += 1
        default: break
        }
        capturing = false
    }
}

/// The zoo's state machine for zoo-ns, with namespace processing: an element is the zoo's
/// when its `namespaceURI` is the zoo's, and the decoys, in another namespace under the
/// same prefix, are nobody's.
final class NamespacedZooDelegate: NSObject, XMLParserDelegate {
    static let zoo = "urn:example:zoo"
    /// The local names of the open elements, "" for those outside the zoo's namespace.
    var stack: [String] = []
    var text = ""
    var capturing = false
    var records = 0, fieldBytes = 0
    var kind = "", name = "", url = ""

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        let parent = stack.last
        let local = namespaceURI == Self.zoo ? elementName : ""
        stack.append(local)
        switch local {
        case "kind", "url": capturing = parent == "animal"
        case "name": capturing = parent == "nested_nonsense"
        default: return
        }
        text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if capturing { text += string }
    }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        if capturing { text += String(decoding: block, as: UTF8.self) }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        let local = stack.removeLast()
        switch local {
        case "kind" where capturing: kind = text
        case "name" where capturing: name = text
        case "url" where capturing: url = text
        case "animal":
            records += 1
            fieldBytes += kind.utf8.count + name.utf8.count + url.utf8.count
        default: break
        }
        capturing = false
    }
}

guard let arguments = ContenderArguments.parse() else { exit(2) }
guard let stream = InputStream(fileAtPath: arguments.path) else {
    FileHandle.standardError.write(Data("\(arguments.path): cannot open\n".utf8))
    exit(1)
}
let parser = XMLParser(stream: stream)
// Namespaced input is read the way it must be: XMLParser then reports each element's
// local name and namespace URI.
parser.shouldProcessNamespaces = arguments.shape == .zooNamespaced
let result: String
switch arguments.task {
case .count:
    let delegate = CountDelegate()
    parser.delegate = delegate
    guard parser.parse() else { FileHandle.standardError.write(Data("\(String(describing: parser.parserError))\n".utf8)); exit(1) }
    result = ResultLine.count(arguments.shape, elements: delegate.elements, textBytes: delegate.textBytes)
case .extract where arguments.shape == .zooNamespaced:
    let delegate = NamespacedZooDelegate()
    parser.delegate = delegate
    guard parser.parse() else { FileHandle.standardError.write(Data("\(String(describing: parser.parserError))\n".utf8)); exit(1) }
    result = ResultLine.zoo(.zooNamespaced, records: delegate.records, fieldBytes: delegate.fieldBytes)
case .extract:
    let delegate = ExtractDelegate(shape: arguments.shape)
    parser.delegate = delegate
    guard parser.parse() else { FileHandle.standardError.write(Data("\(String(describing: parser.parserError))\n".utf8)); exit(1) }
    switch arguments.shape {
    case .zoo: result = ResultLine.zoo(records: delegate.records, fieldBytes: delegate.fieldBytes)
    case .zooNamespaced: preconditionFailure("zoo-ns has a delegate of its own, above")
    case .osm: result = ResultLine.osm(nodes: delegate.nodes, latitudeSum: delegate.latitudeSum, highwayTags: delegate.highwayTags)
    case .wiki: result = ResultLine.wiki(pages: delegate.pages, textBytes: delegate.wikiTextBytes)
    }
}
print(result)
