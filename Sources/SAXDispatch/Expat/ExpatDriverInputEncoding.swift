/// How the driver reads the input's encoding: an application's override, the bytes sniffed
/// before the encoding is known, the transcoder for encodings expat's map cannot express,
/// and what the document declared, for the checks and messages of `+Encoding` and `+Transcoding`.
struct ExpatDriverInputEncoding {
    /// The encoding expat reads the input in whatever the document declares (a string's
    /// UTF-8), or `nil` when the document's byte order mark and declaration decide.
    var encodingOverride: String?
    /// Whether the application named the input's encoding (``ExpatDriver/overrideEncoding(_:)``,
    /// an input's encoding): then every document is read in it, whatever it declares.
    var encodingIsOverridden = false
    /// False while the driver has not yet seen whether the input needs the transcoder (its
    /// first bytes, up to the end of an XML declaration, wait in `sniffedBytes`), and while
    /// a transcoder converts it; true when bytes go to expat as they come, which is all a
    /// UTF-8 document ever pays for after its first bytes: one test per feed.
    var readsInputDirectly: Bool
    /// The document's first bytes, while they do not yet show how it is encoded.
    var sniffedBytes: [UInt8] = []
    /// Converts the input to UTF-8 ahead of expat, for encodings its map cannot express.
    var transcoder: EncodingTranscoder?
    /// The encoding expat asked about and no one could read, for the error's message.
    var unknownEncodingName: String?
    /// The encoding the document's XML declaration names, once read (per document).
    var declaredEncodingName: String?
    /// The lead bytes of the multi-byte encoding expat reads through its map, if it does.
    var mapLeadBytes: EncodingCatalog.LeadBytes?
    /// The first bytes given to expat, while fewer than three (a UTF-8 byte order mark's length).
    var leadingBytes: [UInt8] = []
    /// Set when the transcoder met an invalid sequence while expat was paused: reported at
    /// the next feed, once the input before it is parsed.
    var invalidSequenceAwaitsReport = false
    /// The last encoding name ``ExpatDriver/readsUTF8`` looked at, and whether it names UTF-8.
    var namesUTF8: (name: String, isUTF8: Bool)?
    /// Catches unpaired surrogates in UTF-16 input, which some expat 2.5.0 builds accept.
    var surrogateCheck = UTF16SurrogateCheck()

    /// The encoding as the application named it (`nil` to let the document say): a name
    /// expat knows, or one the transcoder converts from (expat then reads its UTF-8).
    init(named encoding: String?) {
        var expatEncoding = encoding
        if let encoding, !EncodingCatalog.isExpatBuiltIn(encoding), SingleByteEncoding(named: encoding) == nil,
            let path = EncodingCatalog.path(for: encoding), let transcoder = EncodingTranscoder(name: encoding, path: path)
        {
            // Expat reads what the transcoder makes of the input, whatever the document declares.
            self.transcoder = transcoder
            expatEncoding = "UTF-8"
        }
        encodingOverride = expatEncoding
        encodingIsOverridden = encoding != nil
        readsInputDirectly = encoding != nil && transcoder == nil
    }

    /// Forgets what the document that ended declared, for the next document of the input.
    mutating func resetForNextDocument() {
        mapLeadBytes = nil
        unknownEncodingName = nil
        declaredEncodingName = nil
    }
}
