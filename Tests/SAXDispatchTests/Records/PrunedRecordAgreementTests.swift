import Testing

@testable import SAXDispatch

/// A record parse prunes what its fields cannot reach (at a floating pattern by watching the
/// pruned subtree for nested records, and later elements on a pruned path on arrival); a
/// dispatcher that mounts the same record beside nothing else reads every element. On
/// generated documents and field paths, the two must deliver the same models: pruning
/// changes what is read, never what is found.
@Suite("Records: pruned and unpruned parses agree on generated documents")
struct PrunedRecordAgreementTests {
    /// A small deterministic generator (SplitMix64), so that a failure names its case.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    static let names = ["item", "meta", "x", "deep"]

    /// An element with up to three children, some in a namespace (bound on the element or
    /// as the default one), with text where it has none.
    static func element(_ generator: inout Generator, depth: Int) -> String {
        let name = names[generator.next(names.count)]
        var open = name
        var close = name
        switch generator.next(6) {
        case 0:
            open = "p:\(name) xmlns:p=\"urn:p\""
            close = "p:\(name)"
        case 1: open = "\(name) xmlns=\"urn:d\""
        default: break
        }
        let childCount = depth >= 5 ? 0 : generator.next(4)
        guard childCount > 0 else { return "<\(open)>t\(generator.next(100))</\(close)>" }
        let children = (0..<childCount).map { _ in element(&generator, depth: depth + 1) }.joined()
        return "<\(open)>\(children)</\(close)>"
    }

    /// A field path of one to three steps: a name, `*` or `*:name`, sometimes below `//`.
    static func path(_ generator: inout Generator) -> String {
        let steps = (0...generator.next(3)).map { _ -> String in
            let name = names[generator.next(names.count)]
            switch generator.next(5) {
            case 0: return "*"
            case 1, 2: return "*:\(name)"
            default: return name
            }
        }
        let separator = generator.next(5) == 0 ? "//" : "/"
        return steps.joined(separator: separator)
    }

    @Test("a record at a floating or an anchored pattern gives the same models pruned as read whole")
    func prunedAgreesWithUnpruned() throws {
        var generator = Generator(state: 46)
        var compared = 0
        var prunings = 0
        for _ in 0..<1500 {
            let document = "<r>" + (0..<3).map { _ in Self.element(&generator, depth: 1) }.joined() + "</r>"
            let paths = [Self.path(&generator), Self.path(&generator)]
            let pattern = generator.next(3) == 0 ? "/r/item" : "item"
            let record = XMLRecord(try ElementPattern(pattern), .many(paths[0], as: String.self), .many(paths[1], as: String.self)) {
                [$0, $1]
            }
            let pruned = try record.all(in: .string(document))
            var whole: [[[String]]] = []
            var dispatcher = Dispatcher()
            dispatcher.onRecord(record) { whole.append($0) }
            try dispatcher.parse(.string(document))
            #expect(pruned == whole, "record \(pattern) with \(paths) in \(document)")
            compared += whole.count
            let counts = WatchedPruningTests.parse(record, document)
            prunings += counts.pruned + counts.watched
        }
        // The documents hold records: the comparison is not between empty lists.
        #expect(compared > 100)
        // And the record parses pruned: the comparison is not between two whole reads.
        #expect(prunings > 100, "\(prunings) subtrees pruned or watched")
    }
}
