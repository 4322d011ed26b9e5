/// The sequences the platform's iconv reads otherwise than the encoding's published
/// mapping table, with the table's reading, which the converters use instead.
///
/// `Scripts/compare-iconv-tables.py` compares iconv with the tables sequence by sequence;
/// the TextAndWhitespace article's Encodings section says which table each encoding
/// follows and why. An encoding that is not listed reads as iconv reads it. The overrides
/// hold on every platform, so these sequences read the same with glibc and with libiconv.
enum EncodingTableOverrides {
    /// The overrides of the encoding iconv calls `iconvName`, by the sequence's bytes read
    /// as a big-endian number (`0xFE51`, `0x8FA2B7`, `0x84318236`); the value is the
    /// Unicode scalar the table gives.
    static func table(for iconvName: String) -> [UInt32: UInt32]? {
        switch EncodingCatalog.normalized(iconvName) {
        case "GB18030": gb18030
        case "EUCJP": eucJP
        default: nil
        }
    }

    /// GB18030 as GB 18030-2022 is read by the Unicode Technical Committee's recommendation
    /// (L2/23-003) and the WHATWG Encoding Standard. glibc 2.36 already reads the eighteen
    /// two-byte sequences that 2022 moved out of the Private Use Area (0xA6D9 → U+FE10, …)
    /// and the 2005 swap of 0xA8BC (U+1E3F) and 0x81 35 F4 37 (U+E7C7); it differs on:
    ///
    /// - six two-byte sequences the table keeps in the Private Use Area, which glibc reads
    ///   as ideographs outside the Basic Multilingual Plane (0xFE51 as U+20087 for U+E816);
    /// - the eighteen four-byte sequences of the characters 2022 moved (0x82 35 90 37 for
    ///   U+9FB4, 0x84 31 82 36 for U+FE10), which glibc rejects and the recommendation
    ///   reads as those characters, as GB 18030-2005 encoded them.
    static let gb18030: [UInt32: UInt32] = {
        var table: [UInt32: UInt32] = [
            0xFE51: 0xE816, 0xFE52: 0xE817, 0xFE53: 0xE818, 0xFE6C: 0xE831, 0xFE76: 0xE83B, 0xFE91: 0xE855,
        ]
        let radicals: [UInt32] = [0x8235_9037, 0x8235_9038, 0x8235_9039, 0x8235_9130, 0x8235_9131, 0x8235_9132, 0x8235_9133, 0x8235_9134]
        for (index, sequence) in radicals.enumerated() { table[sequence] = 0x9FB4 + UInt32(index) }
        let verticalForms: [UInt32] = [
            0x8431_8236, 0x8431_8237, 0x8431_8238, 0x8431_8239, 0x8431_8330,
            0x8431_8331, 0x8431_8332, 0x8431_8333, 0x8431_8334, 0x8431_8335,
        ]
        for (index, sequence) in verticalForms.enumerated() { table[sequence] = 0xFE10 + UInt32(index) }
        return table
    }()

    /// EUC-JP: JIS X 0212's 0x2237 (0x8F A2 B7) is TILDE, U+007E, in the published JIS X 0212
    /// table (and Python's codec); glibc reads it as FULLWIDTH TILDE, U+FF5E.
    static let eucJP: [UInt32: UInt32] = [0x8FA2B7: 0x7E]
}

/// Finds, in GB18030 text, the sequences ``EncodingTableOverrides/gb18030`` reads, for the
/// ``EncodingTranscoder``: it steps over whole sequences (one byte below 0x80, four when
/// the second byte is a digit, two otherwise), so a sequence is only ever matched where
/// one starts.
struct GB18030Overrides {
    let table: [UInt32: UInt32]

    /// The scalar the table reads for the four-byte sequence `a b c d`, if it reads one.
    @inline(__always)
    func fourByteScalar(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> UInt32? {
        guard (a == 0x82 || a == 0x84), (0x30...0x39).contains(b) else { return nil }
        return table[UInt32(a) << 24 | UInt32(b) << 16 | UInt32(c) << 8 | UInt32(d)]
    }

    /// The first sequence from `start` that the table reads: where it starts, its length
    /// and its scalar; nil when there is none before the end of `input`, or before bytes
    /// iconv is left to judge (0x80, 0xFF, a sequence cut short by the end).
    func next(in input: UnsafeRawBufferPointer, from start: Int) -> (offset: Int, length: Int, scalar: UInt32)? {
        var index = start
        let count = input.count
        while index < count {
            let lead = input[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            guard lead != 0x80, lead != 0xFF, index + 1 < count else { return nil }
            let second = input[index + 1]
            if (0x30...0x39).contains(second) {
                guard index + 3 < count else { return nil }
                if lead == 0x82 || lead == 0x84 {
                    let key = UInt32(lead) << 24 | UInt32(second) << 16 | UInt32(input[index + 2]) << 8 | UInt32(input[index + 3])
                    if let scalar = table[key] { return (index, 4, scalar) }
                }
                index += 4
            } else {
                if lead == 0xFE, let scalar = table[UInt32(lead) << 8 | UInt32(second)] { return (index, 2, scalar) }
                index += 2
            }
        }
        return nil
    }
}
