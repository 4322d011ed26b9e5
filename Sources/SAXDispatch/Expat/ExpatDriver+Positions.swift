private import CExpat

/// Where expat is, and the error it stopped with, as Swift values.
extension ExpatDriver {
    /// The 1-based line and column and the 0-based byte offset of the current event, from
    /// the start of the input.
    @inline(__always)
    func currentPosition() -> (line: Int, column: Int, byteOffset: Int) {
        let position = (
            line: Int(XML_GetCurrentLineNumber(parser)), column: Int(XML_GetCurrentColumnNumber(parser)) + 1,
            byteOffset: Int(XML_GetCurrentByteIndex(parser))
        )
        if _slowPath(documents.movesPositions) { return documents.moved(position) }
        return position
    }

    /// A position within a document that starts at `start`, counted from the input's start.
    static func position(
        _ position: (line: Int, column: Int, byteOffset: Int), inDocumentStartingAt start: (line: Int, column: Int, byteOffset: Int)
    ) -> (line: Int, column: Int, byteOffset: Int) {
        (
            start.line + position.line - 1, position.line == 1 ? start.column + position.column - 1 : position.column,
            position.byteOffset < 0 ? position.byteOffset : start.byteOffset + position.byteOffset
        )
    }

    /// The byte index of the current event as expat counts it, from the start of the
    /// current document: what start tags' namespace declarations are recorded by.
    @inline(__always)
    var eventByteIndex: Int { Int(XML_GetCurrentByteIndex(parser)) }

    /// The size in bytes of the token being reported (0 inside an internal entity).
    @inline(__always)
    var currentEventByteCount: Int { Int(XML_GetCurrentByteCount(parser)) }

    /// The number of attributes written in the current start tag, as opposed to
    /// defaulted from the DTD, which follow them.
    var specifiedAttributeCount: Int { Int(XML_GetSpecifiedAttributeCount(parser)) / 2 }

    /// The error expat stopped with, as the parse throws it: code, message, position,
    /// element path, source and, in a concatenated input, the document's number. The one
    /// place an ``XMLParseError`` is made from expat's state; nothing amends it afterwards.
    ///
    /// - Parameters:
    ///   - elementPath: The open elements where expat stopped (the engine's).
    ///   - rootStarted: Whether the root element started; the end of input is
    ///     then ``XMLParseError/Code/truncated`` rather than a missing root.
    ///   - source: The input's name.
    func parseError(elementPath: ElementPath, rootStarted: Bool, source: String?) -> XMLParseError {
        guard let parser else {
            return XMLParseError(
                code: .noMemory, message: "could not create an expat parser", line: 1, column: 1, byteOffset: 0,
                source: source)
        }
        let expatCode = XML_GetErrorCode(parser)
        var position = currentPosition()
        var code = XMLParseError.Code(rawValue: Int(expatCode.rawValue))
        var message = XML_ErrorString(expatCode).map { String(cString: $0) } ?? "expat error \(expatCode.rawValue)"
        var limit: Int?
        switch code {
        case .noMemory where exceededMemoryBudget:
            code = .memoryLimitExceeded
            limit = profile.maximumParserMemoryBytes.value
            message = "the parser needs more memory than maximumParserMemoryBytes (\(profile.maximumParserMemoryBytes))"
        case .unclosedToken, .partialCharacter, .unclosedCDATASection:
            code = .truncated
            message = "the input ends inside a token (\(message))"
        case .noElements where rootStarted:
            code = .truncated
            message = "the input ends before the root element is closed"
        case .noElements:
            message = "no root element"
        case .unknownEncoding:
            if let name = inputEncoding.unknownEncodingName {
                message = "unknown encoding \"\(MessageText.name(name))\""
                if let refusal = EncodingCatalog.refusal(of: name) { message += ": \(refusal)" }
            }
        case .undefinedEntity:
            if let detail = errorDetail(for: code) {
                message += detail
            } else if let reference = undeclaredReferenceInStartTag(at: position) {
                // Expat puts an undefined entity in an attribute value at the start tag,
                // unnamed: name it, at the reference, as in content.
                message += " &\(MessageText.name(reference.name)); in an attribute value"
                position = reference.position
            }
        default:
            if let detail = errorDetail(for: code) { message += detail }
        }
        if let version = documents.declaredXMLVersion {
            // A rule of XML 1.1 that 1.0 lacks may be why: say which rules applied.
            message += " (the document declares XML version \"\(MessageText.name(version))\"; it is read by XML 1.0's rules)"
        }
        var error = XMLParseError(
            code: code, message: message, line: max(1, position.line), column: max(1, position.column),
            byteOffset: max(0, position.byteOffset), elementPath: elementPath, limit: limit, source: source)
        if documents.readsConcatenatedDocuments { error.documentNumber = documents.documentNumber }
        return error
    }
}
