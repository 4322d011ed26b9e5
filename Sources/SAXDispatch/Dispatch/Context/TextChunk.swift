/// A piece of character data as expat reported it, borrowed from the parser and
/// valid only during the text handler that receives it.
///
/// ```swift
/// var textBytes = 0
/// dispatcher.onAnyText { _, chunk in textBytes += chunk.count }
/// ```
public struct TextChunk {
    @usableFromInline let engine: DispatchEngine
    @usableFromInline let serial: UInt64
    @usableFromInline let bytes: UnsafeRawBufferPointer

    init(engine: DispatchEngine, serial: UInt64, bytes: UnsafeRawBufferPointer) {
        self.engine = engine
        self.serial = serial
        self.bytes = bytes
    }

    /// The number of UTF-8 bytes in the piece.
    @inlinable
    public var count: Int {
        engine.checkChunk(serial: serial)
        return bytes.count
    }

    /// The piece as a `String` (a copy).
    public var string: String {
        engine.checkChunk(serial: serial)
        return UTF8Text.string(bytes)
    }

    /// Whether the piece is only XML whitespace (space, tab, line feed, carriage return).
    public var isWhitespace: Bool {
        engine.checkChunk(serial: serial)
        return bytes.allSatisfy(Whitespace.isSpace)
    }

    /// Calls `body` with the piece's UTF-8 bytes. The pointer must not escape `body`.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        engine.checkChunk(serial: serial)
        return try body(bytes)
    }
}

@available(*, unavailable)
extension TextChunk: Sendable {}
