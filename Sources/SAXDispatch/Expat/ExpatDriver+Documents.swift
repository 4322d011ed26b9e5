private import CExpat

/// Documents one after another in one input (``XMLInput/readsConcatenatedDocuments``):
/// a log of XML records, a stream of messages, each a whole document with its own
/// XML declaration.
///
/// Expat reads the space, comments and processing instructions after a document's root
/// element as that document's end, and fails at the first markup that cannot be there:
/// the next root element, XML declaration or byte order mark. That failure is where the
/// next document starts. The driver takes what expat holds from there (expat keeps its
/// unparsed input in its own buffer), resets the parser for a new document in place, so
/// every caller's loop goes on with the same parser, and gives it those bytes first.
///
/// What must stay true: positions count from the start of the input, not of each
/// document (``currentPosition()`` adds where the document started); a document's limits
/// (entity amplification, declarations, expat's heap) start afresh, and nothing of an
/// earlier document is kept (the engine drops the element names it brought,
/// ``DispatchEngine/endDocument()``), so memory does not grow with their number.
extension ExpatDriver {
    /// After a parse call failed: when the failure is where the next document starts,
    /// resets the parser for it and parses what expat held from there, as the call that
    /// failed would have (`isFinal` when it was the input's last), for as many documents
    /// as those bytes hold.
    ///
    /// - Returns: expat's status for the call, as a raw value: still an error unless it
    ///   was a document's end.
    func statusContinuingAfterDocumentEnd(isFinal: Bool) -> UInt32 {
        var status = XML_STATUS_ERROR
        while status == XML_STATUS_ERROR, let rest = bytesOfNextDocument() {
            status = startNextDocument(with: rest, isFinal: isFinal)
        }
        return status.rawValue
    }

    /// The input expat holds from where the next document starts, when expat failed
    /// there; `nil` for any other failure.
    private func bytesOfNextDocument() -> [UInt8]? {
        guard documents.readsConcatenatedDocuments, !pause.isStopped, let parser else { return nil }
        guard sink.unsafelyUnwrapped.documentEndedAndParseGoesOn else { return nil }
        let code = XML_GetErrorCode(parser)
        guard code == XML_ERROR_JUNK_AFTER_DOC_ELEMENT || code == XML_ERROR_MISPLACED_XML_PI
            || code == XML_ERROR_INVALID_TOKEN
        else { return nil }
        var offset: Int32 = 0
        var size: Int32 = 0
        guard let buffer = XML_GetInputContext(parser, &offset, &size), offset >= 0, offset < size else { return nil }
        let rest = [UInt8](UnsafeRawBufferPointer(start: buffer + Int(offset), count: Int(size - offset)))
        // Expat calls a byte order mark after the root an invalid token; it also calls text
        // after the root one, at the markup after the text, when it sees both in one call.
        let startsDocument = code == XML_ERROR_INVALID_TOKEN ? Self.startsWithByteOrderMark(rest) : Self.startsDocument(rest)
        return startsDocument ? rest : nil
    }

    /// Whether bytes that expat found after a root element begin a document: markup (`<`
    /// in UTF-8, a single-byte encoding or either UTF-16) or a byte order mark. Text there
    /// stays the error it is.
    static func startsDocument(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first else { return false }
        if first == 0x3C { return true }
        if bytes.count >= 2 && bytes[0] == 0 && bytes[1] == 0x3C { return true }
        return startsWithByteOrderMark(bytes)
    }

    static func startsWithByteOrderMark(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) || bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
    }

    /// Resets the parser for the next document, which starts where expat stopped, and
    /// gives it `bytes`.
    private func startNextDocument(with bytes: [UInt8], isFinal: Bool) -> XML_Status {
        guard let parser else { return XML_STATUS_ERROR }
        // What the engine kept for the document that ended goes (its names among it); a
        // delivery it put off that fails ends the parse here.
        withSink { $0.endDocument() }
        guard !pause.isStopped else { return XML_STATUS_ERROR }
        let start = currentPosition()
        // The transcoder goes on converting the input for the next document as it did for
        // this one, so expat keeps reading its UTF-8; an override applies to every document.
        guard charging({ XML_ParserReset(parser, inputEncoding.encodingOverride) }) == XML_TRUE else { return XML_STATUS_ERROR }
        // Everything given to expat from the next document's start on is what it held.
        assert(holdback.bytesGiven == start.byteOffset + bytes.count, "the next document's bytes are what expat held")
        documents.beginNext(at: start, leadingBytes: bytes)
        release(bytes: dtd.declaredEntityBytes)
        dtd.reset()
        pendingNamespaceDeclarations = 0
        startTagDeclarations.reset()
        inputEncoding.resetForNextDocument()
        pause.beginDocument()
        // Expat dropped every handler: install them again, as for the first document.
        characterData = .ignored
        XML_SetUserData(parser, userData)
        saxdispatch_set_reparse_deferral(parser, 0)
        installSafetyHandlers(parser, profile: profile, events: events)
        setSkipping(false)
        withSink { $0.beginDocument() }
        holdback.parseCallCount += 1
        // A byte order mark gets a call of its own, as at the input's start
        // (``byteOrderMarkEnd(in:)``): expat then counts it as one column, however the
        // input was split.
        let markLength = bytes.count > 3 && bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        return bytes.withUnsafeBytes { rest in
            guard let start = rest.baseAddress?.assumingMemoryBound(to: CChar.self) else {
                return charging { XML_Parse(parser, nil, 0, isFinal ? 1 : 0) }
            }
            if markLength > 0 {
                let status = charging { XML_Parse(parser, start, Int32(markLength), 0) }
                guard status == XML_STATUS_OK else { return status }
                holdback.parseCallCount += 1
            }
            return charging { XML_Parse(parser, start + markLength, Int32(rest.count - markLength), isFinal ? 1 : 0) }
        }
    }
}
