/// Everything the ``ExpatDriver`` may call on the ``DispatchEngine``, and nothing else: the
/// element, text and document events of expat's callbacks, the boundaries of a
/// concatenated input's documents, a rule the document broke, a warning, and a pause that
/// waits for the document's next event. The driver holds this, not the engine.
///
/// The engine is held unretained: the ``PushParser`` that owns the driver owns the engine
/// too, and keeps both alive while expat runs. A concrete struct of inlined methods, so
/// that an event costs what a direct call would: no existential, retain or release.
struct ExpatEngineEvents {
    private let engine: Unmanaged<DispatchEngine>

    init(_ engine: DispatchEngine) {
        self.engine = Unmanaged.passUnretained(engine)
    }

    // MARK: Element and text events (per event: inlined)

    @inline(__always)
    func startElement(_ name: UnsafePointer<CChar>, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>) {
        engine._withUnsafeGuaranteedRef { $0.startElement(name, attributes) }
    }

    @inline(__always)
    func endElement() {
        engine._withUnsafeGuaranteedRef { $0.endElement() }
    }

    @inline(__always)
    func characters(_ bytes: UnsafePointer<CChar>, _ length: Int) {
        engine._withUnsafeGuaranteedRef { $0.characters(bytes, length) }
    }

    @inline(__always)
    func charactersRarely(_ bytes: UnsafePointer<CChar>, _ length: Int) {
        engine._withUnsafeGuaranteedRef { $0.charactersRarely(bytes, length) }
    }

    /// A start tag inside a subtree being skipped.
    @inline(__always)
    func skippedStart(_ name: UnsafePointer<CChar>, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>) {
        engine._withUnsafeGuaranteedRef { $0.skippedStart(name, attributes) }
    }

    /// An end tag inside a subtree being skipped.
    @inline(__always)
    func skippedEnd() {
        engine._withUnsafeGuaranteedRef { $0.skippedEnd() }
    }

    // MARK: Document events

    func processingInstruction(target: UnsafePointer<CChar>?, data: UnsafePointer<CChar>?) {
        engine._withUnsafeGuaranteedRef { $0.processingInstruction(target: target, data: data) }
    }

    func comment(_ text: UnsafePointer<CChar>?) {
        engine._withUnsafeGuaranteedRef { $0.comment(text) }
    }

    func doctype(_ declaration: DoctypeDeclaration) {
        engine._withUnsafeGuaranteedRef { $0.doctype(declaration) }
    }

    func notation(_ declaration: NotationDeclaration) {
        engine._withUnsafeGuaranteedRef { $0.notation(declaration) }
    }

    // MARK: Documents one after another

    /// Whether the document's root element ended and the parse goes on: expat's failure
    /// after it may be where the next document starts.
    var documentEndedAndParseGoesOn: Bool {
        engine._withUnsafeGuaranteedRef { !$0.isHalted && $0.documentRootEnded }
    }

    /// The document ended and another follows (``DispatchEngine/endDocument()``).
    func endDocument() {
        engine._withUnsafeGuaranteedRef { $0.endDocument() }
    }

    /// The next document begins (``DispatchEngine/beginDocument()``).
    func beginDocument() {
        engine._withUnsafeGuaranteedRef { $0.beginDocument() }
    }

    // MARK: Rules, warnings and pauses

    /// Ends the parse because the document broke a rule the driver enforces; the engine
    /// records it with the element path and halts.
    func violate(
        _ code: XMLParseError.Code, _ message: String, limit: Int? = nil,
        at position: (line: Int, column: Int, byteOffset: Int)? = nil
    ) {
        engine._withUnsafeGuaranteedRef { $0.violate(code, message, limit: limit, at: position) }
    }

    func warn(_ warning: ParseWarning) {
        engine._withUnsafeGuaranteedRef { $0.warn(warning) }
    }

    /// A pause was asked inside an internal entity: the document's next event makes it.
    func awaitEventForPause() {
        engine._withUnsafeGuaranteedRef { $0.awaitEventForPause() }
    }
}
