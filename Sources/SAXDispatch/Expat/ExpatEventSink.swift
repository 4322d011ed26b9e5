/// What the ``ExpatDriver`` reports to the layer above besides element and text events:
/// the prolog's events, the boundaries of a concatenated input's documents, a rule the
/// document broke, a warning, and a pause that waits for the document's next event. The
/// driver calls nothing else above it; element and text events reach the layer above
/// through ``ExpatElementCallbacks``, which expat calls directly.
///
/// The ``DispatchEngine`` is the one sink; the driver holds it unretained, as the
/// ``PushParser`` that owns both keeps it alive while expat runs. These events are rare
/// (once per declaration, comment, processing instruction or document), so a call through
/// the protocol costs nothing that matters.
protocol ExpatEventSink: AnyObject {
    /// A processing instruction, with its target and data as expat reports them.
    func processingInstruction(target: UnsafePointer<CChar>?, data: UnsafePointer<CChar>?)
    /// A comment's text.
    func comment(_ text: UnsafePointer<CChar>?)
    /// The document type declaration, once its internal subset was read.
    func doctype(_ declaration: DoctypeDeclaration)
    /// A notation declared in the DTD.
    func notation(_ declaration: NotationDeclaration)

    /// Whether the document's root element ended and the parse goes on: expat's failure
    /// after it may be where the next document of a concatenated input starts.
    var documentEndedAndParseGoesOn: Bool { get }
    /// The document ended and another follows.
    func endDocument()
    /// The next document begins.
    func beginDocument()

    /// The document broke a rule the driver enforces: the parse ends with this error, at
    /// `position` or at the current event, with the element path the sink knows.
    func ruleBroken(
        _ code: XMLParseError.Code, _ message: String, limit: Int?,
        at position: (line: Int, column: Int, byteOffset: Int)?)
    /// Something about the document worth a warning (an XML version other than 1.0).
    func warn(_ warning: ParseWarning)
    /// A pause was asked inside an internal entity's replacement text: the document's next
    /// event makes it (``ExpatDriver/suspendIfDeferred()``).
    func awaitEventForPause()
}
