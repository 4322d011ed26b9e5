#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A reusable, growable byte buffer: the text of every element being collected,
/// gathered text chunks, and input held back from expat each use one.
///
/// For element text:
///
/// Open elements that collect text own consecutive regions of it: a child's text is
/// appended after its parent's, delivered at the child's end, and cut off again, so
/// the parent's later segments continue where its earlier ones stopped. The buffer
/// keeps its capacity between elements; appending never re-copies collected bytes
/// except when the capacity doubles.
struct TextBuffer: ~Copyable {
    private var storage: UnsafeMutableRawPointer
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 4096) {
        self.capacity = capacity
        storage = .allocate(byteCount: capacity, alignment: 1)
    }

    deinit {
        storage.deallocate()
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeRawPointer, count length: Int) {
        if count + length > capacity { grow(toHold: count + length) }
        if length <= 16 {
            // Expat hands over many tiny pieces (line ends, indentation, entity replacements):
            // copied without a call to memcpy or a loop per byte.
            Self.copySmall(from: bytes, to: storage + count, count: length)
        } else {
            (storage + count).copyMemory(from: bytes, byteCount: length)
        }
        count += length
    }

    /// Appends a piece of at most 16 bytes when the capacity holds it, without a call
    /// (no growth, no `memcpy`); `false`, appending nothing, otherwise.
    @inline(__always)
    mutating func appendShort(_ bytes: UnsafeRawPointer, count length: Int) -> Bool {
        // `length` is at most 16 and `count` at most `capacity`: neither sum can overflow.
        guard length <= 16 && count &+ length <= capacity else { return false }
        Self.copySmall(from: bytes, to: storage + count, count: length)
        count &+= length
        return true
    }

    /// Copies at most 16 bytes as two loads and two stores of the widest size that fits,
    /// overlapping in the middle: every byte read and written lies within the `count`
    /// bytes at each end.
    @inline(__always)
    static func copySmall(from source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer, count: Int) {
        if count >= 8 {
            let head = source.loadUnaligned(as: UInt64.self)
            let tail = source.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            destination.storeBytes(of: head, as: UInt64.self)
            destination.storeBytes(of: tail, toByteOffset: count - 8, as: UInt64.self)
        } else if count >= 4 {
            let head = source.loadUnaligned(as: UInt32.self)
            let tail = source.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            destination.storeBytes(of: head, as: UInt32.self)
            destination.storeBytes(of: tail, toByteOffset: count - 4, as: UInt32.self)
        } else if count > 0 {
            // 1 to 3 bytes: the first, the middle and the last (some of them the same byte).
            let first = source.load(as: UInt8.self)
            let middle = source.load(fromByteOffset: count >> 1, as: UInt8.self)
            let last = source.load(fromByteOffset: count - 1, as: UInt8.self)
            destination.storeBytes(of: first, as: UInt8.self)
            destination.storeBytes(of: middle, toByteOffset: count >> 1, as: UInt8.self)
            destination.storeBytes(of: last, toByteOffset: count - 1, as: UInt8.self)
        }
    }

    /// Appends one byte.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(toHold: count + 1) }
        storage.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    /// Appends a string's UTF-8 bytes.
    @inline(__always)
    mutating func append(utf8 string: String) {
        var string = string
        string.withUTF8 { if let base = $0.baseAddress { append(base, count: $0.count) } }
    }

    /// The last byte, if any.
    var last: UInt8? { count == 0 ? nil : storage.load(fromByteOffset: count - 1, as: UInt8.self) }

    var isEmpty: Bool { count == 0 }

    /// Drops everything from `offset` on.
    @inline(__always)
    mutating func truncate(to offset: Int) {
        count = offset
    }

    /// Empties the buffer and gives back its storage if it grew beyond `limit` bytes,
    /// so that one huge token does not pin its memory for the rest of the parse.
    mutating func removeAll(keepingAtMost limit: Int) {
        count = 0
        guard capacity > limit else { return }
        storage.deallocate()
        capacity = 4096
        storage = .allocate(byteCount: capacity, alignment: 1)
    }

    /// Empties the buffer except its last `kept` bytes, which move to the front; when
    /// at most 16 bytes are kept, gives back storage grown beyond `limit` bytes as
    /// ``removeAll(keepingAtMost:)`` does.
    mutating func removeAll(keepingLast kept: Int, capacityAtMost limit: Int) {
        guard kept > 0 else {
            removeAll(keepingAtMost: limit)
            return
        }
        let kept = min(kept, count)
        guard kept <= 16 else {
            // Input a paused parse call did not reach: moved, not copied aside.
            storage.copyMemory(from: storage + count - kept, byteCount: kept)  // memmove
            count = kept
            return
        }
        var tail: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &tail) { $0.baseAddress?.copyMemory(from: storage + count - kept, byteCount: kept) }
        removeAll(keepingAtMost: limit)
        withUnsafeBytes(of: &tail) { if let base = $0.baseAddress { append(base, count: kept) } }
    }

    /// The bytes from `offset` to the end, valid until the next mutation.
    @inline(__always)
    func bytes(from offset: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: storage + offset, count: count - offset)
    }

    private mutating func grow(toHold needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let bigger = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 1)
        bigger.copyMemory(from: storage, byteCount: count)
        storage.deallocate()
        storage = bigger
        capacity = newCapacity
    }
}

extension TextBuffer: ByteAppending {
    @inline(__always)
    mutating func appendBytes(_ bytes: UnsafeRawBufferPointer) {
        if let base = bytes.baseAddress { append(base, count: bytes.count) }
    }
}
