/// Everything the ``DispatchEngine`` asks of the ``ExpatDriver``, and nothing else: the
/// current event's position and start tag, what character data and skipped subtrees
/// cost in callbacks, the start tag's safety checks, the parse's memory budget, the
/// document sequence, stopping and pausing.
///
/// The driver is held unretained (``driverReference``): the ``PushParser`` that owns the
/// engine owns the driver too. Each call is inlined to a direct call on it.
extension DispatchEngine {
    @inline(__always)
    private func onDriver<Result>(_ body: (ExpatDriver) -> Result) -> Result {
        driverReference._withUnsafeGuaranteedRef(body)
    }

    // MARK: The current event

    /// The position of the current event, from the start of the input.
    @inline(__always)
    func currentPosition() -> (line: Int, column: Int, byteOffset: Int) {
        onDriver { $0.currentPosition() }
    }

    /// Which character-data callback expat calls for the innermost element.
    @inline(__always)
    func setCharacterData(_ kind: ExpatDriver.CharacterData) {
        onDriver { $0.setCharacterData(kind) }
    }

    /// Whether expat reports the elements of a skipped subtree to the skipping callbacks.
    @inline(__always)
    func setSkipping(_ skipping: Bool) {
        onDriver { $0.setSkipping(skipping) }
    }

    /// Has expat report start and end tags to the watching callbacks, until ``setSkipping(_:)``.
    @inline(__always)
    func setWatching() {
        onDriver { $0.setWatching() }
    }

    /// Has expat report start tags to the passing-through callback and end tags to the
    /// watching one, until ``setSkipping(_:)``.
    @inline(__always)
    func setPassingThrough() {
        onDriver { $0.setPassingThrough() }
    }

    // MARK: The start tag's checks (``admitsStartTag(_:_:openElements:)``)

    /// Whether start tags may carry attributes defaulted from the DTD.
    @inline(__always)
    var startTagsMayCarryDefaults: Bool { onDriver { $0.dtd.hasAttributeDeclarations } }

    /// Whether the start tag being reported declared namespaces that expat reported apart.
    @inline(__always)
    var startTagDeclaresNamespaces: Bool { onDriver { $0.pendingNamespaceDeclarations != 0 } }

    /// The namespace declarations written on the start tag being reported, as written;
    /// none unless the dispatcher keeps them (``Dispatcher/keepsNamespaceDeclarations``).
    func startTagNamespaceDeclarations() -> [(prefix: String?, uri: String)] {
        onDriver { driver in
            driver.startTagDeclarations.isEmpty ? [] : driver.startTagDeclarations.declarations(at: driver.eventByteIndex)
        }
    }

    /// Calls `body` with each namespace declaration written on the start tag being reported,
    /// as ``startTagNamespaceDeclarations()`` has them, as UTF-8 valid during the call: its
    /// prefix (`nil` for the default namespace) and URI.
    func forEachStartTagNamespaceDeclaration(_ body: (UnsafeRawBufferPointer?, UnsafeRawBufferPointer) -> Void) {
        onDriver { driver in driver.startTagDeclarations.forEach(at: driver.eventByteIndex, body) }
    }

    /// Whether the start tag being reported declared namespaces, as ``startTagNamespaceDeclarations()`` has them.
    var startTagHasNamespaceDeclarations: Bool {
        onDriver { driver in
            !driver.startTagDeclarations.isEmpty && driver.startTagDeclarations.byteIndex == driver.eventByteIndex
        }
    }

    /// The size in bytes of the token being reported.
    @inline(__always)
    var currentEventByteCount: Int { onDriver { $0.currentEventByteCount } }

    /// The namespace declarations of the start tag being reported, counted once.
    func takeNamespaceDeclarationCount() -> Int {
        onDriver { driver in
            defer { driver.pendingNamespaceDeclarations = 0 }
            return driver.pendingNamespaceDeclarations
        }
    }

    /// The driver's token and name limits on the start tag: its attribute count, or `nil`
    /// when it broke one and the parse ended.
    func checkStartTagTokens(
        _ name: UnsafePointer<CChar>, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>
    ) -> Int? {
        onDriver { $0.checkStartTag(name, attributes) }
    }

    /// The number of attributes written in the current start tag, before the defaulted ones.
    var specifiedAttributeCount: Int { onDriver { $0.specifiedAttributeCount } }

    /// The start tag being reported as the document wrote it, when those bytes read back as
    /// the same tag anywhere (``ExpatDriver/currentStartTagBytes()``); valid in its handlers.
    func currentStartTagBytes() -> UnsafeRawBufferPointer? { onDriver { $0.currentStartTagBytes() } }

    /// The driver's check of the attribute values defaulted from the DTD; `false` when it
    /// ended the parse.
    func admitsDefaultedAttributes(
        _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>, from specified: Int, to count: Int
    ) -> Bool {
        onDriver { $0.admitsDefaultedAttributes(attributes, from: specified, to: count) }
    }

    // MARK: Memory, documents, stopping and pausing

    /// Charges what the engine holds to the parse's memory budget; `false` when it broke
    /// the limit and the parse ended.
    func chargeParserMemory(bytes: Int, holding: @autoclosure () -> String) -> Bool {
        onDriver { $0.charge(bytes: bytes, holding: holding()) }
    }

    /// Gives back what ``chargeParserMemory(bytes:holding:)`` charged.
    func releaseParserMemory(bytes: Int) {
        onDriver { $0.release(bytes: bytes) }
    }

    /// Which document of the input is being parsed, from 1.
    var documentNumber: Int { onDriver { $0.documents.documentNumber } }

    /// Whether the input may hold documents one after another.
    var readsConcatenatedDocuments: Bool { onDriver { $0.documents.readsConcatenatedDocuments } }

    /// Tells expat to stop at the end of the current callback, for good.
    func stopExpat() {
        onDriver { $0.stop() }
    }

    /// Whether a handler asked expat to pause after the current callback.
    var isPauseRequested: Bool { onDriver { $0.isPauseRequested } }

    /// Makes a pause asked inside an internal entity, if the current event is the document's own.
    func suspendIfDeferred() {
        onDriver { $0.suspendIfDeferred() }
    }
}
