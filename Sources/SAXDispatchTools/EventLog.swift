import SAXDispatch

/// What `saxdispatch events` does: writes the dispatcher's event stream as JSON Lines,
/// one object per event, as the document streams past — to see what a handler will be
/// given.
///
/// The objects, by their `event` key:
///
/// ```
/// {"event":"doctype","name":"html","publicID":null,"systemID":null,"internalSubset":false}
/// {"event":"start","name":"a","depth":1,"line":1,"column":1,"attributes":{"href":"x"}}
/// {"event":"text","name":"a","depth":1,"text":"piece"}        (with pieces on)
/// {"event":"end","name":"a","depth":1,"text":"coalesced text"}
/// {"event":"processingInstruction","target":"xml-stylesheet","data":"href=\"a.css\""}
/// {"event":"comment","text":" a comment "}
/// ```
///
/// `end` carries the element's own text, coalesced and shaped by the whitespace policy,
/// exactly as ``Dispatcher/onEnd(_:text:whitespace:_:)`` gives it; it does not depend on how
/// the input is cut into pieces. `text` events are the ``TextChunk`` pieces an
/// ``Dispatcher/onText(_:_:)`` handler sees, which do.
public struct EventLog {
    /// The limits the document must keep.
    public var safety: SafetyProfile
    /// How the text of `end` events is shaped.
    public var whitespace: WhitespacePolicy
    /// Whether the text pieces are written too, as `text` events.
    public var includesTextPieces: Bool
    /// Whether names are read by namespace (the default) or as written
    /// (``Dispatcher/processesNamespaces``). Either way events show names as written; with
    /// namespace processing, `xmlns` declarations are not attributes.
    public var processesNamespaces: Bool

    /// A log under `safety`, shaping end text with `whitespace`.
    public init(
        safety: SafetyProfile = .default, whitespace: WhitespacePolicy = .trim, includesTextPieces: Bool = false,
        processesNamespaces: Bool = true
    ) {
        self.safety = safety
        self.whitespace = whitespace
        self.includesTextPieces = includesTextPieces
        self.processesNamespaces = processesNamespaces
    }

    /// Writes the events of `input` to `sink`, in pieces of about 64 KiB; `progress`, if
    /// given, counts elements; `onWarning`, if given, receives the parse's warnings as they
    /// come. Every event before an error is written before the error is thrown.
    ///
    /// - Throws: ``XMLParseError`` for a malformed document, ``XMLInputError`` when the
    ///   input cannot be read, ``DecompressionError`` when it is compressed and cannot be
    ///   decompressed.
    public func write(
        _ input: XMLInput, progress meter: ProgressMeter? = nil, onWarning: ((ParseWarning) -> Void)? = nil,
        to sink: @escaping (UnsafeRawBufferPointer) -> Void
    ) throws {
        let writer = Writer(sink: sink)
        defer { writer.flush() }
        var elements = 0
        var dispatcher = Dispatcher()
        dispatcher.safety = safety
        dispatcher.processesNamespaces = processesNamespaces
        dispatcher.onDoctype { doctype in
            writer.line { bytes in
                bytes += Array("{\"event\":\"doctype\",\"name\":".utf8)
                JSONText.appendString(doctype.name, to: &bytes)
                bytes += Array(",\"publicID\":".utf8)
                JSONText.appendString(orNull: doctype.publicID, to: &bytes)
                bytes += Array(",\"systemID\":".utf8)
                JSONText.appendString(orNull: doctype.systemID, to: &bytes)
                bytes += Array(",\"internalSubset\":\(doctype.hasInternalSubset)}".utf8)
            }
        }
        dispatcher.onAnyStart { element in
            elements += 1
            writer.line { bytes in
                bytes += Array("{\"event\":\"start\",\"name\":".utf8)
                JSONText.appendString(element.name, to: &bytes)
                bytes += Array(",\"depth\":\(element.depth),\"line\":\(element.line),\"column\":\(element.column)".utf8)
                bytes += Array(",\"attributes\":{".utf8)
                for (index, attribute) in element.attributes.enumerated() {
                    if index > 0 { bytes.append(UInt8(ascii: ",")) }
                    JSONText.appendString(attribute.name, to: &bytes)
                    bytes.append(UInt8(ascii: ":"))
                    JSONText.appendString(attribute.value, to: &bytes)
                }
                bytes += Array("}}".utf8)
            }
        }
        if includesTextPieces {
            dispatcher.onAnyText { element, piece in
                writer.line { bytes in Self.appendElementEvent("text", element, text: piece.string, to: &bytes) }
            }
        }
        dispatcher.onAnyEnd(whitespace: whitespace) { element, text in
            writer.line { bytes in Self.appendElementEvent("end", element, text: text, to: &bytes) }
        }
        dispatcher.onProcessingInstruction { target, data in
            writer.line { bytes in
                bytes += Array("{\"event\":\"processingInstruction\",\"target\":".utf8)
                JSONText.appendString(target, to: &bytes)
                bytes += Array(",\"data\":".utf8)
                JSONText.appendString(data, to: &bytes)
                bytes += Array("}".utf8)
            }
        }
        dispatcher.onComment { text in
            writer.line { bytes in
                bytes += Array("{\"event\":\"comment\",\"text\":".utf8)
                JSONText.appendString(text, to: &bytes)
                bytes += Array("}".utf8)
            }
        }
        if let onWarning { dispatcher.onWarning(onWarning) }
        let progress = ReadProgress(meter: meter) { elements }
        defer { progress.finish() }
        try dispatcher.parse(progress.reading(input))
    }

    private static func appendElementEvent(_ event: String, _ element: ElementContext, text: String, to bytes: inout [UInt8]) {
        bytes += Array("{\"event\":\"\(event)\",\"name\":".utf8)
        JSONText.appendString(element.name, to: &bytes)
        bytes += Array(",\"depth\":\(element.depth),\"text\":".utf8)
        JSONText.appendString(text, to: &bytes)
        bytes += Array("}".utf8)
    }

    /// One line per event, into an ``OutputBuffer`` the dispatcher's handlers share.
    private final class Writer {
        var output: OutputBuffer

        init(sink: @escaping (UnsafeRawBufferPointer) -> Void) {
            output = OutputBuffer(sink: sink)
        }

        func line(_ body: (inout [UInt8]) -> Void) {
            body(&output.bytes)
            output.bytes.append(UInt8(ascii: "\n"))
            output.flushIfFull()
        }

        func flush() {
            output.flush()
        }
    }
}
