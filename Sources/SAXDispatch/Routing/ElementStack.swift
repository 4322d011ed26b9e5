/// The open elements, innermost last, as interned name ids plus what the dispatcher
/// needs to finish each one: where its text starts in the shared text buffer and,
/// for elements somebody listens to, the position of its start tag.
///
/// Kept in a ``GrowableBuffer``: push and pop are a bounds check and a store, with no
/// uniqueness or retain traffic on the hot path.
struct ElementFrame {
    // The fields are laid out so that a push writes few stores: the ones every push sets
    // first, then the ones a push fills with zeros (or -1), side by side, which the
    // compiler writes as a few wide stores.

    /// The interned name, as the document spelled it (``NameTable``).
    var name: Int32
    /// What the name means to the patterns (``NameKeys``): what matching compares.
    var key: Int32
    /// What the handlers of this element's route need (text, positions, …).
    var flags: RouteFlags
    /// The number of this element's path of names in the ``PathMatchCache``, or
    /// ``PathMatchCache/untracked``.
    var path: Int32
    /// Offset in the text buffer where this element's text begins.
    var textStart: Int
    /// Unique per element in one parse; lets a context detect that its element has ended.
    var serial: UInt64
    /// One bit per pattern name key modulo 64 for this element and each of its ancestors: a
    /// pattern that names an element missing here cannot match (see ``CompiledPattern/requiredNames``).
    var openNames: UInt64
    /// The subtree filter's state below this element (see ``SubtreeFilter``).
    var filterState: UInt64
    /// 1-based line and column of the start tag, or 0 for elements nobody listens to.
    /// Full-width: a document may have more than 2^32 lines or bytes.
    var line: Int = 0
    var column: Int = 0
    var byteOffset: Int = 0
    /// Bytes of this element's own text counted but not kept (``Dispatcher/limitsAllText``).
    var measuredText = 0
    /// Where this element's matched patterns start in the match stack, or -1 when its
    /// name alone fixes them (the route table then has them).
    var matchStart: Int32 = -1
    var matchCount: Int32 = 0

    /// A frame for an element just opened: no position yet, no text measured, no match on
    /// the match stack.
    @inline(__always)
    init(
        name: Int32, key: Int32, flags: RouteFlags, textStart: Int, serial: UInt64, filterState: UInt64,
        openNames: UInt64, path: Int32
    ) {
        self.name = name
        self.key = key
        self.flags = flags
        self.path = path
        self.textStart = textStart
        self.serial = serial
        self.openNames = openNames
        self.filterState = filterState
    }

    /// The bit of a key in ``openNames``.
    @inline(__always)
    static func nameBit(_ id: Int32) -> UInt64 { 1 &<< UInt64(truncatingIfNeeded: id & 63) }
}

struct ElementStack: ~Copyable {
    private var frames = GrowableBuffer<ElementFrame>(capacity: 64)

    var count: Int { frames.count }
    var isEmpty: Bool { frames.isEmpty }

    @inline(__always)
    mutating func push(_ frame: ElementFrame) {
        frames.append(frame)
    }

    /// Removes the innermost open element without reading its frame. The stack must not be
    /// empty.
    @inline(__always)
    mutating func dropTop() {
        frames.dropLast()
    }

    /// The innermost open element, read and written in place (an addressor, not a
    /// coroutine, which the optimizer left as a call per access). The stack must not be empty.
    var top: ElementFrame {
        @inline(__always)
        unsafeAddress { UnsafePointer(frames.lastAddress) }
        @inline(__always)
        unsafeMutableAddress { frames.lastAddress }
    }

    /// Records the start-tag position of the innermost open element, addressing its frame
    /// once rather than once per field. The stack must not be empty.
    @inline(__always)
    mutating func setTopPosition(_ position: (line: Int, column: Int, byteOffset: Int)) {
        let frame = frames.lastAddress
        frame.pointee.line = position.line
        frame.pointee.column = position.column
        frame.pointee.byteOffset = position.byteOffset
    }

    /// The route flags of the innermost open element, read without copying its frame.
    @inline(__always)
    var topFlags: RouteFlags { frames.last.flags }

    /// The route flags of the parent of the innermost open element, read without copying its
    /// frame. The stack must hold two elements at least.
    @inline(__always)
    var flagsBelowTop: RouteFlags { frames.lastAddress.advanced(by: -1).pointee.flags }

    /// Whether the innermost open element has nothing to finish at its end: none of the
    /// ``RouteFlags/finishedAtEnd`` flags (no end handler, text, kept attribute, counted
    /// text, capture or watching to end) and no match on the match stack. Read without
    /// copying its frame.
    @inline(__always)
    var topEndsPlainly: Bool {
        let frame = frames.lastAddress
        return frame.pointee.flags.isDisjoint(with: .finishedAtEnd) && frame.pointee.matchCount == 0
    }

    /// Where the innermost open element's text starts in the text buffer, read without
    /// copying its frame.
    @inline(__always)
    var topTextStart: Int { frames.last.textStart }

    /// The frame at a 0-based index from the root.
    @inline(__always)
    subscript(index: Int) -> ElementFrame {
        frames[index]
    }

    /// Sets the path number (``ElementFrame/path``) of the frame at a 0-based index from the root.
    @inline(__always)
    mutating func setPath(_ path: Int32, at index: Int) {
        frames.address(index).pointee.path = path
    }

    mutating func removeAll() {
        frames.removeAll()
    }
}
