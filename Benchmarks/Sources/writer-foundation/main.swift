// writer-foundation SHAPE RECORDS FILE: Foundation's XMLDocument (FoundationXML on Linux)
// building the records' tree and serialising it with xmlData, the way Foundation writes XML:
// the whole document is in memory before a byte is written.
import BenchmarkDocuments
import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

guard let arguments = WriterArguments.parse() else { exit(2) }

func element(_ name: String, _ text: String) -> XMLElement {
    XMLElement(name: name, stringValue: text)
}

func attributed(_ name: String, _ attributes: KeyValuePairs<String, String>) -> XMLElement {
    let element = XMLElement(name: name)
    for (key, value) in attributes {
        if let attribute = XMLNode.attribute(withName: key, stringValue: value) as? XMLNode { element.addAttribute(attribute) }
    }
    return element
}

let root: XMLElement
switch arguments.shape {
case .zoo, .zooNamespaced:
    root = XMLElement(name: "zoo")
    let animals = XMLElement(name: "animals")
    root.addChild(animals)
    for index in 0..<arguments.records {
        let record = WrittenRecords.animal(index)
        let animal = XMLElement(name: "animal")
        animal.addChild(element("kind", record.kind))
        let nested = XMLElement(name: "nested_nonsense")
        nested.addChild(element("name", record.nested_nonsense.name))
        animal.addChild(nested)
        animal.addChild(element("url", record.url))
        animals.addChild(animal)
    }
case .osm:
    root = attributed("osm", ["version": "0.6"])
    for index in 0..<arguments.records {
        let record = WrittenRecords.node(index)
        let node = attributed(
            "node", ["id": record.id, "lat": record.lat, "lon": record.lon, "version": record.version, "user": record.user])
        for tag in record.tag { node.addChild(attributed("tag", ["k": tag.k, "v": tag.v])) }
        root.addChild(node)
    }
case .wiki:
    root = XMLElement(name: "mediawiki")
    for index in 0..<arguments.records {
        let record = WrittenRecords.page(index)
        let page = XMLElement(name: "page")
        page.addChild(element("title", record.title))
        page.addChild(element("ns", record.ns))
        page.addChild(element("id", record.id))
        let revision = XMLElement(name: "revision")
        revision.addChild(element("id", record.revision.id))
        revision.addChild(element("timestamp", record.revision.timestamp))
        revision.addChild(element("text", record.revision.text))
        page.addChild(revision)
        root.addChild(page)
    }
}
let document = XMLDocument(rootElement: root)
document.version = "1.0"
document.characterEncoding = "UTF-8"
guard FileManager.default.createFile(atPath: arguments.path, contents: document.xmlData(options: [.nodeCompactEmptyElement])) else {
    printError("\(arguments.path): cannot write")
    exit(1)
}
print(arguments.resultLine())
