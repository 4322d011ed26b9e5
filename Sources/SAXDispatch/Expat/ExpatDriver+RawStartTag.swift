#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
private import CExpat

/// The bytes of the start tag being reported, for a copy that writes it as the document did.
extension ExpatDriver {
    /// The start tag being reported, as the document wrote it from its `<` to its `>`, when
    /// those bytes read back as the same tag anywhere: expat reads the document as UTF-8, the
    /// tag is in the document (not an entity's replacement text), the DTD declares no
    /// attribute (whose default or type, which normalises a value further, the bytes would
    /// lose), and it refers to no entity but the five predefined ones and characters. `nil`
    /// otherwise. Valid until the handler returns.
    func currentStartTagBytes() -> UnsafeRawBufferPointer? {
        guard readsUTF8, !dtd.hasAttributeDeclarations, let parser else { return nil }
        let count = currentEventByteCount
        var offset: Int32 = 0
        var size: Int32 = 0
        guard count >= 3, let buffer = XML_GetInputContext(parser, &offset, &size), offset >= 0,
            Int(offset) + count <= Int(size)
        else { return nil }
        let tag = UnsafeRawBufferPointer(start: buffer + Int(offset), count: count)
        guard tag[0] == UInt8(ascii: "<"), tag[count - 1] == UInt8(ascii: ">") else { return nil }
        // Without a declared entity, and where expat leaves out no undeclared reference, an
        // attribute value refers only to the predefined entities and characters (or expat
        // stopped at it): the tag needs no search.
        guard !dtd.mayHaveEntityReferencesInTags || Self.refersOnlyToPredefinedEntities(tag) else { return nil }
        return tag
    }

    /// Whether expat reads the current document as UTF-8 (or ASCII): what the application
    /// or the transcoder named, else what the document declared, UTF-8 when neither.
    var readsUTF8: Bool {
        if inputEncoding.surrogateCheck.isUTF16 { return false }
        guard let name = inputEncoding.encodingOverride ?? inputEncoding.declaredEncodingName else { return true }
        if let known = inputEncoding.namesUTF8, known.name == name { return known.isUTF8 }
        let isUTF8 = Self.equalsIgnoringASCIICase(name, "utf-8") || Self.equalsIgnoringASCIICase(name, "us-ascii")
        inputEncoding.namesUTF8 = (name, isUTF8)
        return isUTF8
    }

    private static func equalsIgnoringASCIICase(_ name: String, _ lowercase: StaticString) -> Bool {
        guard name.utf8.count == lowercase.utf8CodeUnitCount else { return false }
        var index = 0
        for byte in name.utf8 {
            let folded = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
            guard folded == lowercase.utf8Start[index] else { return false }
            index += 1
        }
        return true
    }

    /// Whether every `&` in `bytes` begins `&lt;`, `&gt;`, `&amp;`, `&quot;`, `&apos;` or a
    /// character reference.
    static func refersOnlyToPredefinedEntities(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var offset = 0
        while offset < bytes.count, let found = memchr(base + offset, 0x26, bytes.count - offset) {
            let start = UnsafeRawPointer(found) - base
            guard let semicolon = memchr(base + start, 0x3B, min(bytes.count - start, 12)) else { return false }
            let name = UnsafeRawBufferPointer(rebasing: bytes[(start + 1)..<(UnsafeRawPointer(semicolon) - base)])
            guard name.first == UInt8(ascii: "#") || Self.predefinedEntityNames.contains(where: { name.elementsEqual($0.utf8) })
            else { return false }
            offset = start + 1
        }
        return true
    }

    private static let predefinedEntityNames = ["lt", "gt", "amp", "quot", "apos"]
}
