import SAXDispatch
import Testing

@Suite("Handler objects: handlers declared as methods")
struct HandlerObjectTests {
    static let zoo = """
        <zoo><animal kind="cat"><name>Tom</name><keeper><name>Ann</name></keeper></animal>
        <animal kind="dog"><name>Rex</name></animal><junk><animal kind="decoy"/></junk></zoo>
        """

    /// A struct: its mutating methods are reached through closures.
    struct AnimalList: ElementHandlers {
        var animals: [String] = []
        var keepers: [String] = []
        private var kind = ""

        static func registerHandlers(_ handlers: inout HandlerRegistry<Self>) {
            handlers.whitespace = .collapse
            handlers.onStart("/zoo/animal") { $0.begin($1) }
            handlers.onEnd("animal/name") { $0.name($1, $2) }
            handlers.onEnd("keeper/name") { list, _, text in list.keepers.append(text) }
            handlers.onStart("junk") { _, element in element.skipSubtree() }
        }

        mutating func begin(_ element: ElementContext) {
            kind = element.attributes["kind"] ?? "?"
        }

        mutating func name(_ element: ElementContext, _ text: String) {
            animals.append("\(kind) \(text)")
        }
    }

    /// A class: its methods are named directly, checked by the compiler.
    final class AnimalCounter: ElementHandlers {
        var starts = 0
        var names: [String] = []
        var limit = Int.max

        static func registerHandlers(_ handlers: inout HandlerRegistry<AnimalCounter>) {
            handlers.onStart("animal", AnimalCounter.animal)
            handlers.onEnd("animal/name", AnimalCounter.name)
        }

        struct TooMany: Error, Equatable {}

        func animal(_ element: ElementContext) throws {
            starts += 1
            if starts > limit { throw TooMany() }
        }

        func name(_ element: ElementContext, _ text: String) {
            names.append(text)
        }
    }

    @Test("a struct parses with its own handlers and keeps what they did")
    func structHandlers() throws {
        var list = AnimalList()
        try list.parse(.string(Self.zoo))
        #expect(list.animals == ["cat Tom", "dog Rex"])
        #expect(list.keepers == ["Ann"])
    }

    @Test("a class becomes a dispatcher, to parse with or to mount")
    func classHandlers() throws {
        let counter = AnimalCounter()
        try Dispatcher(handling: counter).parse(.string(Self.zoo))
        #expect(counter.starts == 3)
        #expect(counter.names == ["Tom", "Rex"])

        let mounted = AnimalCounter()
        var dispatcher = Dispatcher()
        dispatcher.mount(Dispatcher(handling: mounted), at: "junk")
        try dispatcher.parse(.string(Self.zoo))
        #expect(mounted.starts == 1)
        #expect(mounted.names == [])
    }

    @Test("a method's error is wrapped like a closure's; a struct keeps its state up to the error")
    func errors() throws {
        let counter = AnimalCounter()
        counter.limit = 1
        let error = #expect(throws: HandlerError.self) { try Dispatcher(handling: counter).parse(.string(Self.zoo)) }
        #expect(error?.underlying is AnimalCounter.TooMany)
        #expect(error?.elementPath == ["zoo", "animal"])
        #expect(error?.line == 2)
        #expect(counter.names == ["Tom"])

        var list = AnimalList()
        #expect(throws: XMLParseError.self) { try list.parse(.string("<zoo><animal kind='cat'><name>Tom</name></animal><oops></zoo>")) }
        #expect(list.animals == ["cat Tom"])
    }
}

@Suite("Handler objects: catch-alls")
struct HandlerObjectCatchAllTests {
    struct Counter: ElementHandlers {
        var elements = 0
        var textBytes = 0
        var others: [String] = []

        static func registerHandlers(_ handlers: inout HandlerRegistry<Self>) {
            handlers.onStart("b") { counter, _ in counter.elements += 1 }
            handlers.onAnyStart { counter, _ in counter.elements += 1 }
            handlers.onAnyText { counter, _, chunk in counter.textBytes += chunk.count }
            handlers.onAnyEnd { counter, element, text in counter.others.append("\(element.name) \(text)") }
        }
    }

    @Test("a handler object can register catch-all handlers")
    func catchAlls() throws {
        var counter = Counter()
        try counter.parse(.string("<a>xy<b>z</b><c>é</c></a>"))
        #expect(counter.elements == 3)
        #expect(counter.textBytes == 4)  // "xy" and "é": b's text goes to no catch-all
        #expect(counter.others == ["c é", "a xy"])
    }
}
