import Testing

@testable import SAXDispatch

@Suite("The attribute names a decode captures, found by expat's C strings")
struct AttributeNameSetTests {
    func index(_ set: AttributeNameSet, _ name: String) -> Int? {
        name.withCString { set.index(of: $0) }
    }

    @Test("names sharing first bytes, prefixes of each other, non-ASCII and with colons are told apart")
    func findsExactNames() {
        var set = AttributeNameSet(["nil", "xsi:nil"])
        for name in ["lat", "latitude", "lo", "k", "é", "ée", "xsi:type"] { set.insert(name) }
        set.insert("lat")  // already there: no second entry
        set.insert("")  // cannot be an attribute's name
        #expect(set.names == ["nil", "xsi:nil", "lat", "latitude", "lo", "k", "é", "ée", "xsi:type"])
        for (offset, name) in set.names.enumerated() {
            #expect(index(set, name) == offset, "\(name)")
        }
        for absent in ["", "la", "lats", "latitudes", "lon", "l", "kk", "e", "é̃", "xsi", "xsi:", "ni", "nill", "v", "id"] {
            #expect(index(set, absent) == nil, "\(absent)")
        }
        #expect(set.contains("latitude") && !set.contains("lon"))
    }

    @Test("a decode reads only the attributes it asks for, whatever their order")
    func capturesAskedAttributes() throws {
        struct Node: Decodable { let lat: Double; let lon: Double? }
        let xml = #"<osm><node lon="-1.5" id="1" lat="53.8" lat2="0" l="x"/><node la="1" lat="2"/></osm>"#
        let nodes = try XMLRecordDecoder().all(Node.self, at: "/osm/node", in: xml)
        #expect(nodes.map(\.lat) == [53.8, 2])
        #expect(nodes.map(\.lon) == [-1.5, nil])
    }
}
