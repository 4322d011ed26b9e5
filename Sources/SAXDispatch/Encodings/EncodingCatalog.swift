/// How the encodings expat does not read itself are read: which go through expat's
/// unknown-encoding map (single bytes, or multi-byte sequences whose lead byte decides
/// their length) and which through the ``EncodingTranscoder`` ahead of expat.
///
/// Expat reads UTF-8, UTF-16, ISO-8859-1 and US-ASCII itself, and the single-byte
/// encodings of ``SingleByteEncodingTables`` through its map; this catalog covers the rest
/// with the platform's iconv.
enum EncodingCatalog {
    /// How an encoding's lead bytes decide the length of a sequence.
    enum LeadBytes: Equatable {
        /// Shift_JIS and CP932: 0x81–0x9F and 0xE0–0xFC lead two-byte sequences.
        case shiftJIS
        /// EUC-JP: 0x8E and 0xA1–0xFE lead two bytes, 0x8F (SS3, JIS X 0212) three.
        case eucJP
        /// EUC-KR and GB2312 (EUC-CN): 0xA1–0xFE lead two-byte sequences.
        case euc
        /// CP949, Big5 and GBK: 0x81–0xFE lead two-byte sequences.
        case wide
        /// Johab: 0x84–0xD3, 0xD8–0xDE and 0xE0–0xF9 lead two-byte sequences.
        case johab

        /// The length of the sequence `byte` leads, or 1.
        func length(_ byte: Int) -> Int {
            switch self {
            case .shiftJIS: return (0x81...0x9F).contains(byte) || (0xE0...0xFC).contains(byte) ? 2 : 1
            case .eucJP: return byte == 0x8F ? 3 : byte == 0x8E || (0xA1...0xFE).contains(byte) ? 2 : 1
            case .euc: return (0xA1...0xFE).contains(byte) ? 2 : 1
            case .wide: return (0x81...0xFE).contains(byte) ? 2 : 1
            case .johab:
                return (0x84...0xD3).contains(byte) || (0xD8...0xDE).contains(byte) || (0xE0...0xF9).contains(byte)
                    ? 2 : 1
            }
        }
    }

    /// The way an encoding is read.
    enum Path: Equatable {
        /// Through expat's map, its sequences converted by iconv (`iconvName`); bytes below
        /// 0x80 are ASCII.
        case map(iconvName: String, leads: LeadBytes?)
        /// Converted to UTF-8 ahead of expat by iconv (`iconvName`).
        case transcoder(iconvName: String)
        /// UTF-32, converted ahead of expat: big-endian, little-endian, or (nil) as the
        /// byte order mark or the first character says.
        case utf32(bigEndian: Bool?)
    }

    /// The multi-byte and stateful encodings by normalized name (upper case, without `-`,
    /// `_`, `.` and spaces): the iconv name and the path.
    private static let known: [String: Path] = {
        var table: [String: Path] = [:]
        func add(_ names: [String], _ path: Path) { for name in names { table[name] = path } }
        add(["SHIFTJIS", "SJIS", "MSKANJI", "CSSHIFTJIS", "XSJIS"], .map(iconvName: "SHIFT_JIS", leads: .shiftJIS))
        add(
            ["CP932", "WINDOWS31J", "MS932", "CSWINDOWS31J", "IBM943", "XMSCP932"],
            .map(iconvName: "CP932", leads: .shiftJIS))
        add(["EUCJP", "XEUCJP", "CSEUCPKDFMTJAPANESE", "UJIS"], .map(iconvName: "EUC-JP", leads: .eucJP))
        add(["EUCKR", "CSEUCKR", "XEUCKR"], .map(iconvName: "EUC-KR", leads: .euc))
        add(
            ["CP949", "UHC", "MS949", "WINDOWS949", "XWINDOWS949", "KSC56011987", "KSC5601", "ISOIR149", "CSKSC56011987"],
            .map(iconvName: "CP949", leads: .wide))
        add(["JOHAB", "CP1361", "MSJOHAB"], .map(iconvName: "JOHAB", leads: .johab))
        add(["BIG5", "CSBIG5", "XXBIG5", "CNBIG5", "BIG5TW"], .map(iconvName: "BIG5", leads: .wide))
        add(["CP950", "MS950", "WINDOWS950"], .map(iconvName: "CP950", leads: .wide))
        add(["GB2312", "EUCCN", "CSGB2312", "XEUCCN", "CHINESE", "CNGB"], .map(iconvName: "EUC-CN", leads: .euc))
        add(["GBK", "CP936", "MS936", "WINDOWS936", "XGBK"], .map(iconvName: "GBK", leads: .wide))
        add(["GB18030"], .transcoder(iconvName: "GB18030"))
        add(["EUCTW", "XEUCTW", "CSEUCTW"], .transcoder(iconvName: "EUC-TW"))
        add(["BIG5HKSCS"], .transcoder(iconvName: "BIG5-HKSCS"))
        add(["EUCJISX0213"], .transcoder(iconvName: "EUC-JISX0213"))
        add(["SHIFTJISX0213"], .transcoder(iconvName: "SHIFT_JISX0213"))
        add(["ISO2022JP", "CSISO2022JP"], .transcoder(iconvName: "ISO-2022-JP"))
        add(["ISO2022JP2", "CSISO2022JP2"], .transcoder(iconvName: "ISO-2022-JP-2"))
        add(["ISO2022JP3"], .transcoder(iconvName: "ISO-2022-JP-3"))
        add(["ISO2022KR", "CSISO2022KR"], .transcoder(iconvName: "ISO-2022-KR"))
        add(["ISO2022CN", "CSISO2022CN"], .transcoder(iconvName: "ISO-2022-CN"))
        add(["ISO2022CNEXT"], .transcoder(iconvName: "ISO-2022-CN-EXT"))
        add(["UTF32", "UCS4", "CSUCS4", "ISO10646UCS4"], .utf32(bigEndian: nil))
        add(["UTF32BE", "UCS4BE"], .utf32(bigEndian: true))
        add(["UTF32LE", "UCS4LE"], .utf32(bigEndian: false))
        // Names iconv spells otherwise; the encodings are single-byte, probed below.
        add(["XMACCYRILLIC", "MACCYRILLIC", "XMACUKRAINIAN"], .map(iconvName: "MACCYRILLIC", leads: nil))
        add(["MACINTOSH", "MACROMAN", "XMACROMAN", "CSMACINTOSH", "MAC"], .map(iconvName: "MACINTOSH", leads: nil))
        add(["WINDOWS874", "CP874", "XCP874"], .map(iconvName: "CP874", leads: nil))
        add(["TIS620", "TIS6200", "ISO885911"], .map(iconvName: "TIS-620", leads: nil))
        add(["IBM866", "CP866", "866", "CSIBM866"], .map(iconvName: "IBM866", leads: nil))
        add(["IBM855", "CP855", "855", "CSIBM855"], .map(iconvName: "IBM855", leads: nil))
        return table
    }()

    /// `name` in upper case without `-`, `_`, `.` and spaces.
    static func normalized(_ name: String) -> String {
        String(String.UnicodeScalarView(name.unicodeScalars.filter { !"-_. ".unicodeScalars.contains($0) }))
            .uppercased()
    }

    /// How to read `name`, or nil when neither expat nor the catalog nor iconv knows it, or
    /// when it is refused (``refusal(of:)``). Names expat reads itself, and the
    /// single-byte tables, are not asked about.
    ///
    /// An encoding the catalog does not list is probed through iconv: when every byte
    /// below 0x80 is ASCII and every byte on its own is a character or invalid, it goes
    /// through expat's map; otherwise through the transcoder.
    static func path(for name: String) -> Path? {
        let key = normalized(name)
        if refusedNames.contains(key) || key.hasPrefix("EBCDIC") { return nil }
        if let path = known[key] {
            switch path {
            case .map(let iconvName, nil) where !IconvConverter.knows(iconvName):
                return probe(name)
            case .transcoder(let iconvName):
                return keepsASCII(iconvName) ? path : nil
            default:
                // Expat's map reads every byte below 0x80 as ASCII whatever iconv says.
                return path
            }
        }
        return probe(name)
    }

    /// Why `name` is refused, for the unknown-encoding error's message; nil when it is not
    /// (it is read, or no one knows it).
    ///
    /// An encoding is refused when a byte below 0x80 does not mean its ASCII character in
    /// it, so that markup could be written without its ASCII bytes (UTF-7 writes `<` as
    /// `+ADw-`, which any tool that looks at bytes would pass), or ASCII's bytes read as
    /// other characters (EBCDIC, the national ISO 646 variants, UCS-2): the names in
    /// ``refusedNames``, every `EBCDIC-*` name, and any other encoding iconv converts in
    /// which a printable ASCII byte, tab, CR or LF does not read as itself from the initial
    /// state (``keepsASCII(_:)``). Stateful encodings (ISO-2022-JP) pass: markup is written
    /// in their initial ASCII mode.
    static func refusal(of name: String) -> String? {
        let key = normalized(name)
        let refused: Bool
        if refusedNames.contains(key) || key.hasPrefix("EBCDIC") {
            refused = true
        } else if case .transcoder(let iconvName)? = known[key] {
            refused = !keepsASCII(iconvName)
        } else if known[key] == nil {
            refused = IconvConverter.knows(name) && !keepsASCII(name)
        } else {
            refused = false
        }
        return refused ? "refused, because its bytes below 0x80 do not all mean their ASCII characters" : nil
    }

    /// Names refused whatever the platform's iconv says (normalized): the UTF-7 family, in
    /// which ASCII characters (`<`, `&`) can be written as other bytes, and UCS-2 under its
    /// names (a document in two-byte units is read as UTF-16, told by its first bytes).
    /// EBCDIC code pages are refused by their `EBCDIC` prefix and by ``keepsASCII(_:)``.
    static let refusedNames: Set<String> = [
        "UTF7", "UTF7IMAP", "UNICODE11UTF7", "CSUNICODE11UTF7", "XIMAP4MODIFIEDUTF7",
        "UCS2", "UCS2BE", "UCS2LE", "ISO10646UCS2", "CSUNICODE", "UNICODE", "UNICODEBIG", "UNICODELITTLE", "WCHART",
    ]

    /// The bytes that must read as themselves: tab, LF, CR and printable ASCII.
    private static let asciiBytes: [UInt8] = [0x09, 0x0A, 0x0D] + Array(0x20...0x7E)

    /// Whether iconv reads each printable ASCII byte, tab, CR and LF of `iconvName` as that
    /// character, each on its own from the initial state; false when iconv cannot open it.
    static func keepsASCII(_ iconvName: String) -> Bool {
        guard let converter = IconvConverter(from: iconvName) else { return false }
        return asciiBytes.allSatisfy { byte in
            var value = byte
            return withUnsafeBytes(of: &value) { converter.scalar(of: $0) } == UInt32(byte)
        }
    }

    /// Whether `name` (a name expat does not read itself) needs the transcoder.
    static func needsTranscoder(_ name: String) -> Bool {
        switch path(for: name) {
        case .transcoder, .utf32: return true
        case .map, nil: return false
        }
    }

    private static func probe(_ name: String) -> Path? {
        guard let converter = IconvConverter(from: name), keepsASCII(name) else { return nil }
        for byte in 0..<256 {
            var value = UInt8(byte)
            let scalar = withUnsafeBytes(of: &value) { converter.scalar(of: $0) }
            if byte < 0x80 {
                guard scalar == UInt32(byte) else { return .transcoder(iconvName: name) }
            } else if scalar == nil {
                var output: (UInt64, UInt64) = (0, 0)
                let status = withUnsafeBytes(of: &value) { input in
                    withUnsafeMutableBytes(of: &output) { converter.convert(input, into: $0).status }
                }
                converter.reset()
                if status == .incomplete { return .transcoder(iconvName: name) }
            }
        }
        return .map(iconvName: name, leads: nil)
    }

    /// Whether expat reads `name` itself.
    static func isExpatBuiltIn(_ name: String) -> Bool {
        switch normalized(name) {
        case "UTF8", "UTF16", "UTF16BE", "UTF16LE", "ISO88591", "USASCII": return true
        default: return false
        }
    }
}
