#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reading a start tag as the document wrote it (`<name attr="value" …>`), for a copy that
/// writes its bytes: where its name ends and where each attribute lies.
///
/// The tags read here were read by expat first, so they are well-formed; what must stay
/// true is that a scan of anything else stops (`nil`) rather than reading past `end`.
enum StartTagBytes {
    /// Whether `byte` ends an element's name in a start tag.
    @inline(__always)
    static func endsName(_ byte: UInt8) -> Bool {
        Whitespace.isSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/")
    }

    /// Where the attribute after `start` in `tag` lies — its name's first byte, the offset
    /// just past its closing quote — or `nil` when only white space is left before `end`. A
    /// span from `start` to that offset holds the white space before the attribute and the
    /// attribute; ``name(in:from:)`` reads its name.
    @inline(__always)
    static func nextAttribute(in tag: UnsafeRawBufferPointer, from start: Int, end: Int) -> (nameStart: Int, end: Int)? {
        var index = start
        while index < end && Whitespace.isSpace(tag[index]) { index += 1 }
        guard index < end, let base = tag.baseAddress else { return nil }
        let nameStart = index
        // A name holds no quote: the first one after it opens the value.
        while index < end && tag[index] != UInt8(ascii: "\"") && tag[index] != UInt8(ascii: "'") { index += 1 }
        guard index < end else { return nil }
        // Values are most of a tag's bytes: their ends are found a word at a time.
        let valueStart = index + 1
        guard let closing = memchr(base + valueStart, Int32(tag[index]), end - valueStart) else { return nil }
        return (nameStart, UnsafeRawPointer(closing) - base + 1)
    }

    /// The name of the attribute whose first byte is at `nameStart` in `tag`.
    static func name(in tag: UnsafeRawBufferPointer, from nameStart: Int) -> UnsafeRawBufferPointer {
        var index = nameStart
        while index < tag.count && tag[index] != UInt8(ascii: "=") && !Whitespace.isSpace(tag[index]) { index += 1 }
        return UnsafeRawBufferPointer(rebasing: tag[nameStart..<index])
    }

    /// Whether the attribute whose first byte is at `nameStart` in `tag` is a namespace
    /// declaration (`xmlns` or `xmlns:prefix`).
    @inline(__always)
    static func isNamespaceDeclaration(in tag: UnsafeRawBufferPointer, at nameStart: Int) -> Bool {
        tag[nameStart] == UInt8(ascii: "x") && isNamespaceDeclaration(name(in: tag, from: nameStart))
    }

    /// Whether an attribute named `name` as written is a namespace declaration
    /// (`xmlns` or `xmlns:prefix`).
    static func isNamespaceDeclaration(_ name: UnsafeRawBufferPointer) -> Bool {
        guard name.count >= 5, name[0] == UInt8(ascii: "x"), let base = name.baseAddress, memcmp(base, "xmlns", 5) == 0
        else { return false }
        return name.count == 5 || name[5] == UInt8(ascii: ":")
    }
}
