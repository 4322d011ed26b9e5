private import CExpat

/// The token limit, the same however the input is split.
///
/// Expat reports most tokens' sizes only in some callbacks, and not at all for declarations
/// in the DTD, so the limit is held where it can be held for every token alike: in how much
/// input each parse call gets. No call gets more than the limit minus the unfinished
/// token's bytes, so no token longer than the limit can complete inside one call: it is
/// left unfinished, with exactly the limit's bytes, at the end of some call. Such a token
/// is over the limit unless it is complete and only waits for one byte that shows where it
/// ends (a name, a literal in the DTD); one more byte settles that. Which tokens break the
/// limit then depends on the document alone, never on where the caller split it.
extension ExpatDriver {
    /// How many bytes the next parse call may take: the room the token limit leaves after
    /// the unfinished token's `unparsed` bytes; when the unfinished token is exactly as long
    /// as the limit and may still be within it, the rest of the character that shows where
    /// it ends; or `nil` when it is over the limit (the parse is then ended with the violation).
    func tokenBudget(unparsed: Int) -> Int? {
        guard maximumTokenBytes != Int.max else { return Int.max }
        let room = maximumTokenBytes - unparsed
        if room > 0 { return room }
        guard !unfinishedTokenBreaksLimit(unparsed: unparsed) else {
            violateTokenLimit()
            return nil
        }
        // The token's whole characters fill the limit: the next character tells.
        return characterWidth - unparsed % characterWidth
    }

    /// Whether expat's unfinished token of `unparsed` bytes is surely longer than the limit.
    /// Tokens are whole characters, so only the whole characters among the unparsed bytes
    /// count: more of them than the limit allows, or as many as it allows in a token that
    /// still lacks its closing delimiter.
    func unfinishedTokenBreaksLimit(unparsed: Int) -> Bool {
        guard unparsed > 0, maximumTokenBytes != Int.max else { return false }
        let width = characterWidth
        let whole = unparsed - unparsed % width
        let limit = maximumTokenBytes - maximumTokenBytes % width
        if whole != limit { return whole > limit }
        return !unfinishedTokenMayEndAtLimit(unparsed: whole)
    }

    /// The bytes of the input's smallest character as expat reads it: 2 in UTF-16, else 1
    /// (UTF-8 and the single-byte encodings share ASCII's delimiters, one byte each).
    private var characterWidth: Int { inputEncoding.surrogateCheck.isUTF16 ? 2 : 1 }

    /// Whether expat's unfinished token, `unparsed` bytes long, may be complete and only wait
    /// for the byte after it: a name or keyword (which ends where a character that cannot
    /// continue it comes), a literal whose last byte closes it, whitespace or text. A tag,
    /// comment, processing instruction or reference still lacks its closing delimiter.
    private func unfinishedTokenMayEndAtLimit(unparsed: Int) -> Bool {
        guard unparsed > 0 else { return true }
        var offset: Int32 = 0
        var size: Int32 = 0
        guard let buffer = XML_GetInputContext(parser, &offset, &size), Int(size) - Int(offset) >= unparsed else {
            return true
        }
        let token = UnsafeRawBufferPointer(start: buffer + Int(offset), count: unparsed)
        let width = characterWidth
        func unit(_ index: Int) -> UInt32? {
            let start = index * width
            guard start + width <= token.count else { return nil }
            if width == 1 { return UInt32(token[start]) }
            let (first, second) = (UInt32(token[start]), UInt32(token[start + 1]))
            return inputEncoding.surrogateCheck.isBigEndian ? first << 8 | second : second << 8 | first
        }
        guard let first = unit(0) else { return true }
        switch first {
        case 0x22, 0x27:  // a literal: complete when its last character is the quote it opened with
            return unparsed >= 2 * width && unit(unparsed / width - 1) == first && unparsed % width == 0
        case 0x3C:  // `<`: only a declaration's opening (`<!DOCTYPE`, `<!ENTITY`) ends with a name
            guard let second = unit(1), let third = unit(2) else { return true }
            return second == 0x21 && (0x41...0x5A).contains(third)
        case 0x26:  // `&`: a reference ends with `;`
            return false
        default:
            return true
        }
    }
}
