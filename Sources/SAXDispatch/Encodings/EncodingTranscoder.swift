/// Converts a document in an encoding expat cannot read through its unknown-encoding map
/// (GB18030, ISO-2022 with its escape sequences, UTF-32, EUC-TW, …) to UTF-8 ahead of
/// expat, incrementally: a character or escape sequence split between two pieces of input
/// is carried over to the next. Expat then reads UTF-8, and its lines and columns still
/// count the document's characters; its byte offsets count the UTF-8.
///
/// Invalid sequences are not replaced: ``convert(_:deliver:)`` reports where the first one
/// starts, and the driver ends the parse there with an error.
final class EncodingTranscoder {
    /// What a call of ``convert(_:deliver:)`` ended with.
    enum Outcome: Equatable {
        /// All input was converted (or is carried over, an incomplete sequence at its end).
        case converted
        /// `deliver` asked to stop.
        case stopped
        /// The input holds a sequence that is invalid in the encoding.
        case invalid
    }

    /// The encoding's name for messages, as the document or the override wrote it.
    let name: String
    /// Nil for UTF-32 until its first four bytes say the byte order.
    private var converter: IconvConverter?
    /// For UTF-32 of unknown byte order: whether big-endian is the default without a mark.
    private let utf32ByteOrder: Bool?
    private let isUTF32: Bool
    /// Bytes of an incomplete sequence (or of a UTF-32 start) carried over to the next input.
    private var pending: [UInt8] = []
    /// Where UTF-8 goes before it is delivered; reused for the whole document.
    private let output: UnsafeMutableRawBufferPointer
    /// For the encodings in ``cachedEncodings``: their two-byte sequences, looked up
    /// instead of converted by iconv each time, and ASCII copied as it is.
    private let twoByteCache: TwoByteSequenceCache?

    /// The encodings (iconv names) that are stateless, read every byte below 0x80 as ASCII
    /// and nowhere else, and whose sequences are at most four bytes long, so that the
    /// transcoder may copy ASCII and look two-byte sequences up, and give iconv the rest a
    /// sequence at a time.
    private static let cachedEncodings: Set<String> = ["GB18030"]
    private static let longestSequence = 4
    /// For GB18030: the sequences read by the published table rather than by iconv
    /// (``EncodingTableOverrides``).
    private let overrides: GB18030Overrides?

    private static let outputSize = 64 * 1024

    private init(
        name: String, converter: IconvConverter?, utf32ByteOrder: Bool?, isUTF32: Bool, cachesSequences: Bool = false,
        overrides: GB18030Overrides? = nil
    ) {
        self.name = name
        self.converter = converter
        self.overrides = overrides
        self.utf32ByteOrder = utf32ByteOrder
        self.isUTF32 = isUTF32
        output = .allocate(byteCount: Self.outputSize, alignment: 8)
        twoByteCache = cachesSequences ? TwoByteSequenceCache(overrides: overrides?.table ?? [:]) : nil
    }

    deinit { output.deallocate() }

    /// A transcoder for `name` (as written), when the catalog's `path` needs one and iconv
    /// can convert it.
    convenience init?(name: String, path: EncodingCatalog.Path) {
        switch path {
        case .transcoder(let iconvName):
            guard let converter = IconvConverter(from: iconvName) else { return nil }
            let overrides = EncodingCatalog.normalized(iconvName) == "GB18030"
                ? EncodingTableOverrides.table(for: iconvName).map(GB18030Overrides.init(table:)) : nil
            self.init(
                name: name, converter: converter, utf32ByteOrder: nil, isUTF32: false,
                cachesSequences: Self.cachedEncodings.contains(iconvName), overrides: overrides)
        case .utf32(let bigEndian):
            self.init(name: name, converter: nil, utf32ByteOrder: bigEndian, isUTF32: true)
        case .map:
            return nil
        }
    }

    /// Converts the next piece of the document, handing each run of UTF-8 to `deliver`,
    /// which returns `false` to stop.
    func convert(_ input: UnsafeRawBufferPointer, deliver: (UnsafeRawBufferPointer) -> Bool) -> Outcome {
        var input = input
        if converter == nil {
            // UTF-32: the first four bytes say the byte order, and a byte order mark is left out.
            let needed = 4 - pending.count
            pending += input.prefix(needed)
            input = UnsafeRawBufferPointer(rebasing: input[min(needed, input.count)...])
            guard pending.count == 4 else { return .converted }
            let start = pending
            pending = []
            guard startUTF32(with: start) else { return .invalid }
            if start == [0, 0, 0xFE, 0xFF] || start == [0xFF, 0xFE, 0, 0] {
                // The mark is not part of the document's text.
            } else {
                let outcome = start.withUnsafeBytes { run($0, deliver: deliver) }
                if outcome != .converted { return outcome }
            }
        }
        if !pending.isEmpty {
            let take = min(input.count, 16)
            let carried = pending.count
            let combined = pending + input.prefix(take)
            pending = []
            let (outcome, consumed) = combined.withUnsafeBytes { runReportingConsumed($0, deliver: deliver) }
            guard outcome == .converted else { return outcome }
            if consumed < carried {
                // The carried sequence is still incomplete: with all the input in, it waits
                // for more; past 16 more bytes, it is no character.
                guard take == input.count else { return .invalid }
                pending = Array(combined[consumed...])
                return .converted
            }
            // The carried sequence is complete; what follows it, a sequence the taken bytes
            // cut short included, is converted from the input itself.
            input = UnsafeRawBufferPointer(rebasing: input[(consumed - carried)...])
        }
        let (outcome, consumed) = runReportingConsumed(input, deliver: deliver)
        guard outcome == .converted else { return outcome }
        if consumed < input.count {
            guard input.count - consumed <= 16 else { return .invalid }
            pending = Array(input[consumed...])
        }
        return .converted
    }

    /// Whether the input ended inside a sequence: the document is then truncated.
    var endsInsideSequence: Bool { !pending.isEmpty }

    private func startUTF32(with start: [UInt8]) -> Bool {
        let bigEndian: Bool
        switch start {
        case [0, 0, 0xFE, 0xFF]: bigEndian = true
        case [0xFF, 0xFE, 0, 0]: bigEndian = false
        default: bigEndian = utf32ByteOrder ?? (start[0] == 0)
        }
        converter = IconvConverter(from: bigEndian ? "UTF-32BE" : "UTF-32LE")
        return converter != nil
    }

    private func run(_ input: UnsafeRawBufferPointer, deliver: (UnsafeRawBufferPointer) -> Bool) -> Outcome {
        let (outcome, consumed) = runReportingConsumed(input, deliver: deliver)
        if outcome == .converted && consumed < input.count { pending = Array(input[consumed...]) }
        return outcome
    }

    /// Converts until the input is used up or ends inside a sequence. A sequence the
    /// published table reads otherwise than iconv (``overrides``) is written as the table
    /// says, and iconv converts the runs between such sequences.
    private func runReportingConsumed(_ input: UnsafeRawBufferPointer, deliver: (UnsafeRawBufferPointer) -> Bool)
        -> (Outcome, Int)
    {
        guard let converter else { return (.invalid, 0) }
        if let twoByteCache { return runCaching(input, twoByteCache, converter, deliver: deliver) }
        return runIconv(input, converter, deliver: deliver)
    }

    /// Converts with iconv alone.
    private func runIconv(
        _ input: UnsafeRawBufferPointer, _ converter: IconvConverter, deliver: (UnsafeRawBufferPointer) -> Bool
    ) -> (Outcome, Int) {
        var offset = 0
        while true {
            let override = overrides?.next(in: input, from: offset)
            let end = override?.offset ?? input.count
            converting: while true {
                let (status, consumed, written) = converter.convert(
                    UnsafeRawBufferPointer(rebasing: input[offset..<end]), into: output)
                offset += consumed
                if written > 0 && !deliver(UnsafeRawBufferPointer(rebasing: output[..<written])) {
                    return (.stopped, offset)
                }
                switch status {
                case .complete, .incomplete: break converting
                case .outputFull: continue
                case .invalid: return (.invalid, offset)
                }
            }
            guard let override else { return (.converted, offset) }
            // The override starts where a sequence does, so iconv converted everything
            // before it; were it to stop short, what it stopped at is no character.
            guard offset == override.offset else { return (.invalid, offset) }
            let utf8 = Array(Unicode.Scalar(override.scalar).flatMap { UTF8.encode($0) } ?? UTF8.EncodedScalar())
            guard utf8.withUnsafeBytes({ deliver($0) }) else { return (.stopped, offset) }
            offset += override.length
        }
    }

    /// Copies ASCII, looks two-byte sequences up, and gives iconv anything else one
    /// sequence at a time, in a window no longer than the longest sequence: the same
    /// UTF-8, the same stop at an invalid sequence, and the same carried-over end as
    /// ``runIconv(_:_:deliver:)`` gives.
    private func runCaching(
        _ input: UnsafeRawBufferPointer, _ cache: TwoByteSequenceCache, _ converter: IconvConverter,
        deliver: (UnsafeRawBufferPointer) -> Bool
    ) -> (Outcome, Int) {
        guard let source = input.baseAddress?.assumingMemoryBound(to: UInt8.self), let target = output.baseAddress
        else { return (.converted, 0) }
        let count = input.count
        // Room for the longest character's UTF-8 is kept free after every step.
        let limit = output.count - 4
        var offset = 0
        var written = 0
        func flush() -> Bool {
            defer { written = 0 }
            return written == 0 || deliver(UnsafeRawBufferPointer(start: target, count: written))
        }
        while offset < count {
            if written > limit {
                guard flush() else { return (.stopped, offset) }
            }
            let byte = source[offset]
            if byte < 0x80 {
                let end = min(count, offset + (limit + 4 - written))
                var next = offset + 1
                while next < end && source[next] < 0x80 { next += 1 }
                (target + written).copyMemory(from: source + offset, byteCount: next - offset)
                written += next - offset
                offset = next
                continue
            }
            if offset + 1 < count {
                let entry = cache.entry(byte, source[offset + 1], converter: converter)
                if entry != TwoByteSequenceCache.uncached {
                    (target + written).storeBytes(of: entry.littleEndian, as: UInt32.self)
                    written += Int(entry >> 24)
                    offset += 2
                    continue
                }
            }
            if let overrides, offset + 3 < count,
                let scalar = overrides.fourByteScalar(source[offset], source[offset + 1], source[offset + 2], source[offset + 3])
            {
                for byte in Unicode.Scalar(scalar).flatMap({ UTF8.encode($0) }) ?? UTF8.EncodedScalar() {
                    target.storeBytes(of: byte, toByteOffset: written, as: UInt8.self)
                    written += 1
                }
                offset += 4
                continue
            }
            let window = min(count, offset + Self.longestSequence)
            let (status, consumed, produced) = converter.convert(
                UnsafeRawBufferPointer(start: source + offset, count: window - offset),
                into: UnsafeMutableRawBufferPointer(start: target + written, count: output.count - written))
            offset += consumed
            written += produced
            switch status {
            case .complete, .outputFull:
                continue
            case .incomplete where window < count && consumed == 0:
                // No sequence is this long; iconv says what the rest is.
                guard flush() else { return (.stopped, offset) }
                let (outcome, rest) = runIconv(
                    UnsafeRawBufferPointer(rebasing: input[offset...]), converter, deliver: deliver)
                return (outcome, offset + rest)
            case .incomplete where window < count:
                continue
            case .incomplete:
                guard flush() else { return (.stopped, offset) }
                return (.converted, offset)
            case .invalid:
                guard flush() else { return (.stopped, offset) }
                return (.invalid, offset)
            }
        }
        guard flush() else { return (.stopped, offset) }
        return (.converted, offset)
    }
}

extension EncodingTranscoder {
    /// What the first bytes of a document say about how to read it.
    enum Detection {
        /// Not enough bytes yet.
        case undecided
        /// Expat reads the document itself (UTF-8, UTF-16, its map).
        case direct
        /// The document goes through a transcoder.
        case transcode(EncodingTranscoder)
    }

    /// How far the driver looks for the end of an XML declaration.
    static let declarationLimit = 1024

    /// Reads the first bytes of a document: a UTF-32 byte order mark or first character,
    /// or an XML declaration whose encoding needs a transcoder. Anything else is for expat.
    ///
    /// - Parameter isComplete: Whether no more bytes will come.
    static func detect(_ prefix: UnsafeRawBufferPointer, isComplete: Bool) -> Detection {
        let utf32Starts: [[UInt8]] = [[0, 0, 0xFE, 0xFF], [0xFF, 0xFE, 0, 0], [0, 0, 0, 0x3C], [0x3C, 0, 0, 0]]
        let declarationStart = Array("<?xml".utf8)
        if prefix.count < 5 && !isComplete {
            let mayBecome = (utf32Starts + [declarationStart]).contains { $0.starts(with: prefix) }
            if mayBecome { return .undecided }
        }
        let first = Array(prefix.prefix(4))
        if utf32Starts.contains(first) {
            return transcoder(named: "UTF-32", path: .utf32(bigEndian: nil)).map { .transcode($0) } ?? .direct
        }
        guard prefix.starts(with: declarationStart) else { return .direct }
        // Only the first `declarationLimit` bytes are looked at, so that the decision is
        // the same however the input arrives: whole, or a byte at a time.
        let end = findDeclarationEnd(UnsafeRawBufferPointer(rebasing: prefix.prefix(declarationLimit)))
        guard let end else {
            return isComplete || prefix.count >= declarationLimit ? .direct : .undecided
        }
        // A declaration that ends otherwise than with `?>` is malformed: expat reports it.
        guard case .closed(let end) = end else { return .direct }
        let declaration = UnsafeRawBufferPointer(rebasing: prefix[..<end])
        guard let valueStart = XMLDeclarationScan.encodingValueOffset(in: declaration), valueStart > 0 else { return .direct }
        let quote = declaration[valueStart - 1]
        guard let valueEnd = declaration[valueStart...].firstIndex(of: quote) else { return .direct }
        let name = String(decoding: declaration[valueStart..<valueEnd], as: UTF8.self)
        guard !EncodingCatalog.isExpatBuiltIn(name), SingleByteEncoding(named: name) == nil,
            let path = EncodingCatalog.path(for: name)
        else { return .direct }
        return transcoder(named: name, path: path).map { .transcode($0) } ?? .direct
    }

    private static func transcoder(named name: String, path: EncodingCatalog.Path) -> EncodingTranscoder? {
        EncodingTranscoder(name: name, path: path)
    }

    /// How an XML declaration ends.
    private enum DeclarationEnd {
        /// With `?>`, just before this offset.
        case closed(Int)
        /// With a `>` that follows no `?`: malformed.
        case malformed
    }

    /// Where an XML declaration ends in `bytes`: at its first `>`, the only place a `>`
    /// can be in one (its values are names and digits); `nil` while `bytes` holds no `>`.
    private static func findDeclarationEnd(_ bytes: UnsafeRawBufferPointer) -> DeclarationEnd? {
        guard bytes.count > 5, let close = bytes[5...].firstIndex(of: 0x3E) else { return nil }
        return bytes[close - 1] == 0x3F ? .closed(close + 1) : .malformed
    }
}
