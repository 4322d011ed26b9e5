/// The declarations of the internal subset that make the amplification limits count over
/// the whole document, so that its ranges cannot be parsed apart with the same outcome.
///
/// ``SafetyProfile/maximumAmplification`` compares the bytes that entity references and
/// attribute defaults add with the bytes read so far, from the document's first byte: a
/// range of the document, parsed as a document of its own, would count from its own start
/// and reach another verdict (or the same at another place). Only internal entities (a
/// literal replacement text, general or parameter) and attribute defaults add bytes; an
/// external entity is never read, and the built-in entities of known DTDs are a character
/// each. A document that declares none of these amplifies nothing, in a range or whole.
/// The framer still proposes boundaries in a document that declares them (a range of it
/// read on its own counts from its own start, as ``XMLDocumentRange`` says); a parse on
/// workers reads it whole instead.
extension DocumentFramer {
    /// Whether a declaration of the internal subset kept in ``prolog`` adds bytes to the
    /// document where it is referenced or applies.
    var anyDeclarationAmplifies: Bool {
        declarations.contains { range in
            guard range.upperBound <= prolog.count else { return true }
            return Self.amplifies(prolog[range])
        }
    }

    /// Whether `declaration` (from `<!` through `>`) declares an internal entity or an
    /// attribute list with a default value. A declaration the framer cannot tell counts as
    /// one: the parse of the whole document decides about it.
    static func amplifies(_ declaration: ArraySlice<UInt8>) -> Bool {
        let body = declaration.dropFirst(2)
        if body.starts(with: "ATTLIST".utf8) {
            // Literals in an attribute list declaration are its default values.
            return body.contains(UInt8(ascii: "\"")) || body.contains(UInt8(ascii: "'"))
        }
        guard body.starts(with: "ENTITY".utf8) else { return false }
        var words = Self.words(body.dropFirst(6))
        if words.first.map({ $0.elementsEqual("%".utf8) }) == true { words.removeFirst() }
        // A name, then a literal (internal) or SYSTEM / PUBLIC (external).
        guard words.count >= 2 else { return true }
        let definition = words[1]
        return !(definition.elementsEqual("SYSTEM".utf8) || definition.elementsEqual("PUBLIC".utf8))
    }

    /// The white-space separated words of `bytes`, a literal's quote starting one.
    private static func words(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        bytes.split(whereSeparator: { [0x20, 0x09, 0x0A, 0x0D].contains($0) })
    }
}
