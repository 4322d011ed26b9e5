// contender-swxmlhash TASK SHAPE FILE: SWXMLHash 8.1.1, which builds a tree of the
// whole document through XMLParser(data:) first (on Linux that fails above
// 10,000,000 bytes, so the runner gives it a 9 MiB file).
import BenchmarkDocuments
import Foundation
import SWXMLHash

func count(_ element: SWXMLHash.XMLElement, _ elements: inout Int, _ textBytes: inout Int) {
    elements += 1
    for child in element.children {
        if let text = child as? TextElement {
            textBytes += text.text.utf8.count
        } else if let child = child as? SWXMLHash.XMLElement {
            count(child, &elements, &textBytes)
        }
    }
}

guard let arguments = ContenderArguments.parse() else { exit(2) }
// The whole-document contenders are compared on the namespace-free shapes only.
guard arguments.shape != .zooNamespaced else {
    FileHandle.standardError.write(Data("swxmlhash: zoo-ns is not among its shapes\n".utf8))
    exit(3)
}
guard let data = FileManager.default.contents(atPath: arguments.path) else {
    FileHandle.standardError.write(Data("\(arguments.path): cannot read\n".utf8))
    exit(1)
}
let document = XMLHash.config { $0.shouldProcessLazily = false }.parse(data)
let result: String
switch (arguments.task, arguments.shape) {
case (.count, let shape):
    var elements = 0
    var textBytes = 0
    for root in document.children { if let element = root.element { count(element, &elements, &textBytes) } }
    result = ResultLine.count(shape, elements: elements, textBytes: textBytes)
case (.extract, .zoo):
    var records = 0
    var fieldBytes = 0
    for animal in document["zoo"]["animals"]["animal"].all {
        let kind = animal["kind"].element?.text ?? ""
        let name = animal["nested_nonsense"]["name"].element?.text ?? ""
        let url = animal["url"].element?.text ?? ""
        records += 1
        fieldBytes += kind.utf8.count + name.utf8.count + url.utf8.count
    }
    result = ResultLine.zoo(records: records, fieldBytes: fieldBytes)
case (.extract, .zooNamespaced):
    preconditionFailure("zoo-ns was refused above")
case (.extract, .osm):
    var nodes = 0
    var latitudeSum = 0.0
    var highwayTags = 0
    for child in document["osm"].children {
        guard let element = child.element else { continue }
        if element.name == "node" {
            nodes += 1
            if let lat = element.attribute(by: "lat").flatMap({ Double($0.text) }) { latitudeSum += lat }
        }
        for tag in child["tag"].all where tag.element?.attribute(by: "k")?.text == "highway" { highwayTags += 1 }
    }
    result = ResultLine.osm(nodes: nodes, latitudeSum: latitudeSum, highwayTags: highwayTags)
case (.extract, .wiki):
    var pages = 0
    var textBytes = 0
    for page in document["mediawiki"]["page"].all {
        pages += 1
        textBytes += (page["revision"]["text"].element?.text ?? "").utf8.count
    }
    result = ResultLine.wiki(pages: pages, textBytes: textBytes)
}
print(result)
