/// Everything the ``ExpatDriver`` reports to the ``DispatchEngine``, and nothing else: the
/// element and text events, as the C functions expat calls (``expatElementCallbacks``), and
/// the rest through ``ExpatEventSink``: the prolog's events, the boundaries of a
/// concatenated input's documents, a rule the document broke, a warning, and a pause that
/// waits for the document's next event.
///
/// The driver knows neither the engine nor this layer: it calls the sink protocol (rare
/// events) and installs the functions it was given (per event). Each of those functions
/// finds the engine through the driver its user data points to, unretained (the
/// ``PushParser`` that owns both keeps them alive while expat runs), and inlines the
/// engine's handling: an event costs what a direct call would, with no existential,
/// retain or release.
extension DispatchEngine: ExpatEventSink {
    static let expatElementCallbacks = ExpatElementCallbacks(
        start: { userData, name, attributes in
            guard let name, let attributes else { return }
            withDriver(userData) { driver in
                guard driver.admitsStartTag(name, attributes, skipped: false) else { return }
                engine(of: driver) { $0.startElement(name, attributes) }
            }
        },
        end: { userData, _ in
            withDriver(userData) { driver in engine(of: driver) { $0.endElement() } }
        },
        skippedStart: { userData, name, attributes in
            guard let name, let attributes else { return }
            withDriver(userData) { driver in
                guard driver.admitsStartTag(name, attributes, skipped: true) else { return }
                engine(of: driver) { $0.skippedStart(name, attributes) }
            }
        },
        skippedEnd: { userData, _ in
            withDriver(userData) { driver in engine(of: driver) { $0.skippedEnd() } }
        },
        watchedStart: { userData, name, attributes in
            guard let name, let attributes else { return }
            withDriver(userData) { driver in
                guard driver.admitsStartTag(name, attributes, skipped: false) else { return }
                engine(of: driver) { $0.watchedStart(name, attributes) }
            }
        },
        watchedEnd: { userData, _ in
            withDriver(userData) { driver in engine(of: driver) { $0.watchedEnd() } }
        },
        passThroughStart: { userData, name, attributes in
            guard let name, let attributes else { return }
            withDriver(userData) { driver in
                guard driver.admitsStartTag(name, attributes, skipped: false) else { return }
                engine(of: driver) { $0.passThroughStart(name, attributes) }
            }
        },
        characters: { userData, bytes, length in
            guard let bytes, length > 0 else { return }
            withDriver(userData) { driver in engine(of: driver) { $0.characters(bytes, Int(length)) } }
        },
        charactersRarely: { userData, bytes, length in
            guard let bytes, length > 0 else { return }
            withDriver(userData) { driver in engine(of: driver) { $0.charactersRarely(bytes, Int(length)) } }
        })

    /// The optional expat callbacks the handlers need the driver to install.
    var optionalExpatEvents: ExpatDriver.Events {
        ExpatDriver.Events(
            processingInstructions: !processingInstructionHandlers.isEmpty, comments: !commentHandlers.isEmpty,
            doctype: !doctypeHandlers.isEmpty, notations: !notationHandlers.isEmpty)
    }

    /// Whether the document's root element ended and the parse goes on.
    var documentEndedAndParseGoesOn: Bool { !isHalted && documentRootEnded }

    /// A rule the driver enforces was broken (``violate(_:_:limit:at:depth:)``).
    func ruleBroken(
        _ code: XMLParseError.Code, _ message: String, limit: Int?,
        at position: (line: Int, column: Int, byteOffset: Int)?
    ) {
        violate(code, message, limit: limit, at: position)
    }
}

/// Calls `body` with the engine `driver` reports its element and text events to: the one
/// step from a callback's driver to the engine, without retaining either.
@inline(__always)
func engine(of driver: ExpatDriver, _ body: (DispatchEngine) -> Void) {
    Unmanaged<DispatchEngine>.fromOpaque(driver.eventTarget.unsafelyUnwrapped)._withUnsafeGuaranteedRef(body)
}
