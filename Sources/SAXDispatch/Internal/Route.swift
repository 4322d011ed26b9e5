/// The handlers registered for one element name (or for the catch-all), in
/// registration order, and the flags the hot path checks before touching them.
///
/// Closures are wrapped in non-generic structs: a closure stored directly in an
/// `Array` is kept at its most general representation and every call would go
/// through a reabstraction thunk.
struct Route {
    struct StartHandler {
        let call: (ElementContext) throws -> Void
    }

    enum EndHandler {
        case plain((ElementContext) throws -> Void)
        case text(WhitespacePolicy?, (ElementContext, String) throws -> Void)
    }

    struct TextHandler {
        let call: (ElementContext, TextChunk) throws -> Void
    }

    var start: [StartHandler] = []
    var end: [EndHandler] = []
    var text: [TextHandler] = []

    var flags: RouteFlags {
        var flags: RouteFlags = []
        if !start.isEmpty { flags.insert(.start) }
        if !end.isEmpty { flags.insert(.end) }
        if !text.isEmpty { flags.insert(.textChunks) }
        if end.contains(where: { if case .text = $0 { true } else { false } }) {
            flags.insert(.collectsText)
        }
        return flags
    }

    /// Fills in the dispatcher's default whitespace policy where a handler named none.
    func resolvingWhitespace(_ policy: WhitespacePolicy) -> Route {
        var copy = self
        copy.end = end.map {
            if case .text(nil, let handler) = $0 { return .text(policy, handler) }
            return $0
        }
        return copy
    }
}

/// What a route needs from the dispatcher, checked once per event.
struct RouteFlags: OptionSet {
    var rawValue: UInt8

    static let start = RouteFlags(rawValue: 1 << 0)
    static let end = RouteFlags(rawValue: 1 << 1)
    static let textChunks = RouteFlags(rawValue: 1 << 2)
    static let collectsText = RouteFlags(rawValue: 1 << 3)

    /// Character data must reach the dispatcher while this element is innermost.
    var wantsCharacters: Bool { !isDisjoint(with: [.textChunks, .collectsText]) }
    /// Somebody listens to this element at all.
    var isListened: Bool { rawValue != 0 }
}

/// Routes indexed by interned name id. Names registered by the application are
/// interned first, so their ids are `0..<routeCount`; every other id takes the
/// catch-all route.
///
/// The handlers of all routes are flattened into three buffers, one per kind, with
/// a range per id: an event reads its handlers without retaining any array.
final class RouteTable {
    /// Flags per route, the catch-all's last (like the handler buffers).
    private let flagTable: [RouteFlags]
    private let starts: Flattened<Route.StartHandler>
    private let ends: Flattened<Route.EndHandler>
    private let texts: Flattened<Route.TextHandler>

    init(routes: [Route], fallback: Route) {
        let all = routes + [fallback]
        flagTable = all.map(\.flags)
        starts = Flattened(all.map(\.start))
        ends = Flattened(all.map(\.end))
        texts = Flattened(all.map(\.text))
    }

    /// The index of an id's route: its own for registered names, else the catch-all (last).
    @inline(__always)
    private func route(_ id: Int32) -> Int {
        min(Int(id), flagTable.count - 1)
    }

    @inline(__always)
    func flags(_ id: Int32) -> RouteFlags { flagTable[route(id)] }

    @inline(__always)
    func startHandlers(_ id: Int32) -> UnsafeBufferPointer<Route.StartHandler> { starts[route(id)] }

    @inline(__always)
    func endHandlers(_ id: Int32) -> UnsafeBufferPointer<Route.EndHandler> { ends[route(id)] }

    @inline(__always)
    func textHandlers(_ id: Int32) -> UnsafeBufferPointer<Route.TextHandler> { texts[route(id)] }
}

/// Lists of values stored back to back in one buffer, with a range per list.
struct Flattened<Element>: ~Copyable {
    private let storage: UnsafeMutableBufferPointer<Element>
    private let offsets: [Int]

    init(_ lists: [[Element]]) {
        var offsets = [0]
        for list in lists { offsets.append(offsets[offsets.count - 1] + list.count) }
        storage = .allocate(capacity: max(1, offsets[offsets.count - 1]))
        var index = 0
        for list in lists {
            for element in list {
                storage.initializeElement(at: index, to: element)
                index += 1
            }
        }
        self.offsets = offsets
    }

    deinit {
        storage.baseAddress?.deinitialize(count: offsets[offsets.count - 1])
        storage.deallocate()
    }

    @inline(__always)
    subscript(list: Int) -> UnsafeBufferPointer<Element> {
        UnsafeBufferPointer(rebasing: storage[offsets[list]..<offsets[list + 1]])
    }
}
