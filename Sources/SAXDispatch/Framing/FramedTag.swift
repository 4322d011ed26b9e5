/// A start tag as the framer found it: where it begins in the document and its bytes as
/// written, from `<` to `>`.
///
/// An ancestor's tag, copied into the start of a range's document, gives the range the
/// same namespace declarations, `xml:*` attributes and attributes that the element has in
/// the whole document.
package struct FramedTag: Sendable, Equatable {
    /// The offset of the tag's `<` from the start of the document.
    package let offset: Int
    /// The tag as written, `<` to `>`.
    package let bytes: [UInt8]
    /// The length of the element's name as written (prefix included), after the `<`.
    package let nameLength: Int

    package init(offset: Int, bytes: [UInt8]) {
        self.offset = offset
        self.bytes = bytes
        var end = 1
        while end < bytes.count, !Self.endsName(bytes[end]) { end += 1 }
        nameLength = end - 1
    }

    /// The element's name as written: `atom:entry`, `page`.
    package var name: ArraySlice<UInt8> { bytes[1..<(1 + nameLength)] }

    /// The name without its prefix: `entry` for `atom:entry`.
    package var localName: ArraySlice<UInt8> {
        let name = self.name
        guard let colon = name.lastIndex(of: UInt8(ascii: ":")) else { return name }
        return name[(colon + 1)...]
    }

    /// The end tag that closes the element: `</atom:entry>`.
    package var endTag: [UInt8] { [UInt8(ascii: "<"), UInt8(ascii: "/")] + name + [UInt8(ascii: ">")] }

    /// Whether `byte` ends a name inside a tag: white space, `/` or `>`.
    @inline(__always)
    static func endsName(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: "/")
            || byte == UInt8(ascii: ">")
    }
}
