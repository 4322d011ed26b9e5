/// Why the framer proposes no more boundaries: the rest of the document is read as one
/// range, from the last boundary it proposed, exactly as a whole parse reads it.
package enum FramingStop: Sendable, Equatable {
    /// The document is not in UTF-8, US-ASCII or ISO-8859-1, whose bytes below 0x80 are
    /// always the ASCII characters the framer looks for.
    case unsupportedEncoding
    /// The bytes before the root element, which every range repeats, exceed the limit.
    case prologTooLarge
    /// A start tag of an open element, which a range may repeat, exceeds the limit.
    case tagTooLarge
    /// The elements open around a record are more than the limit.
    case tooDeep
    /// The bytes at this offset are not what a well-formed document has there; the parse
    /// says what is wrong.
    case unexpectedMarkup(offset: Int)
}
