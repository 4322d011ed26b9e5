import Testing

@testable import SAXDispatch

@Suite("The attribute names a decode captures, found by expat's C strings")
struct AttributeNameSetTests {
    func index(_ set: AttributeNameSet, _ name: String) -> Int? {
        name.withCString { set.index(of: $0) }
    }

    @Test("names sharing first bytes, prefixes of each other, non-ASCII and with colons are told apart")
    func findsExactNames() {
        let set = AttributeNameSet(["nil", "xsi:nil"])
        for name in ["lat", "latitude", "lo", "k", "é", "ée", "xsi:type"] { set.insert(KeyName(stringLiteral: name)) }
        set.insert("lat")  // already there: no second entry
        set.insert("")  // cannot be an attribute's name
        #expect(set.names.map(\.key) == ["nil", "xsi:nil", "lat", "latitude", "lo", "k", "é", "ée", "xsi:type"])
        for (offset, name) in set.names.enumerated() {
            #expect(index(set, name.key) == offset, "\(name)")
        }
        for absent in ["", "la", "lats", "latitudes", "lon", "l", "kk", "e", "é̃", "xsi", "xsi:", "ni", "nill", "v", "id"] {
            #expect(index(set, absent) == nil, "\(absent)")
        }
        #expect(set.contains("latitude") && !set.contains("lon"))
    }

    @Test("names in a namespace match expat's spelling with any prefix; an unbound prefix matches any URI")
    func findsNamespacedNames() {
        let xlink = "http://www.w3.org/1999/xlink"
        let set = AttributeNameSet(["href"], processesNamespaces: true)
        set.insert(KeyName(namespace: xlink, local: "href"))
        set.insert("p:type")
        let separator = "\u{1}"
        #expect(index(set, "href") == 0)
        #expect(index(set, xlink + separator + "href" + separator + "xl") == 1)
        #expect(index(set, xlink + separator + "href" + separator + "xlink") == 1)
        #expect(index(set, "urn:any" + separator + "type" + separator + "p") == 2)
        #expect(index(set, xlink + separator + "type" + separator + "p") == 2)
        let absent = [
            "href" + separator + "x" + separator + "p",  // in the namespace "href"
            xlink + separator + "hrefs" + separator + "x", xlink + "/" + separator + "href" + separator + "x",
            xlink + separator + "hre" + separator + "x", "urn:any" + separator + "type" + separator + "q",
            "urn:any" + separator + "type" + separator + "pp", "p:type", "xlink:href", "type",
        ]
        for name in absent { #expect(index(set, name) == nil, "\(name.debugDescription)") }
    }

    @Test("a decode reads only the attributes it asks for, whatever their order")
    func capturesAskedAttributes() throws {
        struct Node: Decodable { let lat: Double; let lon: Double? }
        let xml = #"<osm><node lon="-1.5" id="1" lat="53.8" lat2="0" l="x"/><node la="1" lat="2"/></osm>"#
        let nodes = try XMLRecordDecoder().all(Node.self, at: "/osm/node", in: .string(xml))
        #expect(nodes.map(\.lat) == [53.8, 2])
        #expect(nodes.map(\.lon) == [-1.5, nil])
    }
}
