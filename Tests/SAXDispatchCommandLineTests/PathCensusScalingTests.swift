import SAXDispatch
import Testing

@testable import SAXDispatchTools

/// The path census does a bounded amount of work per element whatever the namespaces
/// before it: a URI is found among the known ones by a lookup, not a search, so that
/// `saxdispatch paths` stays linear in its input. Counted in lookups, not timed.
@Suite("Path census: linear in distinct namespace bindings")
struct PathCensusScalingTests {
    static let count = 20_000

    /// Documents of `count` elements, each with a (prefix, URI) pair no other has.
    static let documents: [(String, String)] = [
        ("one default namespace per element", "<r>" + (0..<count).map { "<a xmlns='urn:\($0)'/>" }.joined() + "</r>"),
        ("one prefix, a URI per element", "<r>" + (0..<count).map { "<p:a xmlns:p='urn:\($0)'/>" }.joined() + "</r>"),
        ("a prefix and URI per element", "<r>" + (0..<count).map { "<p\($0):a xmlns:p\($0)='urn:\($0)'/>" }.joined() + "</r>"),
        (
            "a URI per attribute",
            "<r>" + (0..<count).map { "<a xmlns:p='urn:\($0)' p:x='1'/>" }.joined() + "</r>"
        ),
    ]

    @Test("each element's namespace costs a bounded number of lookups", arguments: documents.indices)
    func lookupsPerElement(_ index: Int) {
        let (name, document) = Self.documents[index]
        let census = PathCensus()
        let tally = PathCensus.Tally(maximumEntries: census.maximumEntries, maximumBytes: census.maximumBytes)
        let outcome = census.run(.string(document), progress: nil, order: .document, tally: tally)
        #expect(outcome.failure == nil, "\(name)")
        #expect(outcome.namespaces.count == Self.count, "\(name)")
        #expect(outcome.namespaces.last?.uri == "urn:\(Self.count - 1)", "\(name)")
        #expect(tally.namespaceLookups <= 4 * Self.count, "\(name): \(tally.namespaceLookups) lookups")
    }
}
