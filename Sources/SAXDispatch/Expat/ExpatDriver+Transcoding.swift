private import CExpat

/// The input before expat reads it: the first bytes, held until they show whether the
/// document needs the ``EncodingTranscoder`` (a UTF-32 start, or an XML declaration of an
/// encoding expat's map cannot express), and the transcoder's UTF-8 on its way to expat.
///
/// A document that expat reads itself passes through here for its first bytes only;
/// afterwards ``readsInputDirectly`` is true and each feed pays one test.
extension ExpatDriver {
    /// Feeds bytes before the encoding is decided, or through the transcoder.
    func feedUndecided(_ bytes: UnsafeRawBufferPointer) -> FeedResult {
        if let transcoder = inputEncoding.transcoder { return feedTranscoding(bytes, through: transcoder) }
        let detection: EncodingTranscoder.Detection
        if inputEncoding.sniffedBytes.isEmpty {
            detection = EncodingTranscoder.detect(bytes, isComplete: false)
            if case .undecided = detection {
                inputEncoding.sniffedBytes = Array(bytes)
                return .held
            }
            return start(detection, with: bytes)
        }
        inputEncoding.sniffedBytes += bytes
        detection = inputEncoding.sniffedBytes.withUnsafeBytes { EncodingTranscoder.detect($0, isComplete: false) }
        if case .undecided = detection { return .held }
        return startWithSniffedBytes(detection)
    }

    /// Decides the encoding from the bytes held so far, when no more will come (or none
    /// for a while), and feeds them.
    func decideEncoding(isComplete: Bool) -> FeedResult {
        let detection = inputEncoding.sniffedBytes.withUnsafeBytes { EncodingTranscoder.detect($0, isComplete: isComplete) }
        return startWithSniffedBytes(detection)
    }

    /// The end of the input while it is undecided or transcoded.
    /// - Returns: How the parse ended, or nil when expat's own end of input follows.
    func finishUndecided() -> FeedResult? {
        if inputEncoding.transcoder == nil {
            let result = decideEncoding(isComplete: true)
            if result == .ended || result == .suspended { return result }
        }
        guard let transcoder = inputEncoding.transcoder, transcoder.endsInsideSequence else { return nil }
        return reportTranscodingFailure(
            code: .truncated, "the input ends inside a character (a partial \(transcoder.name) sequence)")
    }

    private func startWithSniffedBytes(_ detection: EncodingTranscoder.Detection) -> FeedResult {
        let bytes = inputEncoding.sniffedBytes
        inputEncoding.sniffedBytes = []
        return bytes.withUnsafeBytes { start(detection, with: $0) }
    }

    private func start(_ detection: EncodingTranscoder.Detection, with bytes: UnsafeRawBufferPointer) -> FeedResult {
        switch detection {
        case .undecided, .direct:
            inputEncoding.readsInputDirectly = true
            return feedDirectly(bytes)
        case .transcode(let transcoder):
            // Expat reads UTF-8 from here on, whatever the declaration says.
            guard let parser, charging({ XML_SetEncoding(parser, "UTF-8") }) == XML_STATUS_OK else {
                inputEncoding.readsInputDirectly = true
                return feedDirectly(bytes)
            }
            inputEncoding.encodingOverride = "UTF-8"
            inputEncoding.transcoder = transcoder
            return feedTranscoding(bytes, through: transcoder)
        }
    }

    /// Converts bytes and feeds their UTF-8. When expat pauses, the rest of the converted
    /// input waits in `holdback.held` with the input expat did not reach.
    private func feedTranscoding(_ bytes: UnsafeRawBufferPointer, through transcoder: EncodingTranscoder) -> FeedResult {
        if inputEncoding.invalidSequenceAwaitsReport { return reportInvalidSequence(transcoder) }
        var result = FeedResult.held
        let outcome = transcoder.convert(bytes) { utf8 in
            if result == .suspended {
                if let base = utf8.baseAddress { holdback.held.append(base, count: utf8.count) }
                pause.addOwed(unsentBytes: utf8.count)
                return true
            }
            let fed = feedDirectly(utf8)
            if fed == .ended || fed == .suspended || result == .held { result = fed }
            return fed != .ended
        }
        switch outcome {
        case .converted, .stopped:
            return result
        case .invalid:
            if result == .ended { return .ended }
            if result == .suspended {
                inputEncoding.invalidSequenceAwaitsReport = true
                return .suspended
            }
            return reportInvalidSequence(transcoder)
        }
    }

    private func reportInvalidSequence(_ transcoder: EncodingTranscoder) -> FeedResult {
        reportTranscodingFailure(
            code: .invalidToken, "not well-formed (invalid token): a byte sequence that is not valid \(transcoder.name)")
    }

    /// Gives expat all converted input, so that every event before the failure is
    /// delivered and its position known, then ends the parse with an error there.
    private func reportTranscodingFailure(code: XMLParseError.Code, _ message: String) -> FeedResult {
        if holdback.held.count > 0 {
            let result = parseHeld(isFinal: false, keepingTail: false)
            if result == .suspended { inputEncoding.invalidSequenceAwaitsReport = true }
            if result != .accepted { return result }
        }
        inputEncoding.invalidSequenceAwaitsReport = false
        violate(code, message, at: positionAfterInput())
        return .ended
    }

    /// The line, column and byte offset just after all input given to expat: expat's
    /// position (the start of the token it has not finished) moved over the UTF-8 it holds
    /// unparsed, a column per character.
    private func positionAfterInput() -> (line: Int, column: Int, byteOffset: Int) {
        var position = currentPosition()
        var offset: Int32 = 0
        var size: Int32 = 0
        guard let buffer = XML_GetInputContext(parser, &offset, &size), offset >= 0, offset <= size else {
            return position
        }
        var previous: UInt8 = 0
        for index in Int(offset)..<Int(size) {
            let byte = UInt8(bitPattern: buffer[index])
            switch byte {
            case 0x0D:
                position.line += 1
                position.column = 1
            case 0x0A where previous == 0x0D:
                break
            case 0x0A:
                position.line += 1
                position.column = 1
            case 0x80...0xBF:
                break  // a continuation byte: part of the character counted at its start
            default:
                position.column += 1
            }
            previous = byte
        }
        position.byteOffset += Int(size - offset)
        return position
    }
}
