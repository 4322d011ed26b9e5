private import CExpat

/// Which element and character-data callbacks expat calls: the per-event path from expat
/// to the layer above, whose functions (``ExpatElementCallbacks``) expat calls directly.
///
/// Expat calls only the callbacks that are installed, so the driver installs the
/// character-data callback only while the innermost element's handlers want text, and
/// swaps the element callbacks for counting ones while a subtree is skipped.
extension ExpatDriver {
    /// Routes start and end tags to the layer above, or, while a subtree is skipped, to
    /// callbacks that only count its depth and check the limits.
    func setSkipping(_ skipping: Bool) {
        guard let parser, let callbacks = elementCallbacks else { return }
        if skipping {
            XML_SetElementHandler(parser, callbacks.skippedStart, callbacks.skippedEnd)
        } else {
            XML_SetElementHandler(parser, callbacks.start, callbacks.end)
        }
    }

    /// Routes start and end tags to the layer above's watching callbacks
    /// (``ExpatElementCallbacks/watchedStart``), until ``setSkipping(_:)`` routes them again.
    func setWatching() {
        guard let parser, let callbacks = elementCallbacks else { return }
        XML_SetElementHandler(parser, callbacks.watchedStart, callbacks.watchedEnd)
    }

    /// Routes start tags to the layer above's passing-through callback
    /// (``ExpatElementCallbacks/passThroughStart``) and end tags to the watching one, until
    /// ``setSkipping(_:)`` routes them again.
    func setPassingThrough() {
        guard let parser, let callbacks = elementCallbacks else { return }
        XML_SetElementHandler(parser, callbacks.passThroughStart, callbacks.watchedEnd)
    }

    /// Where character data goes while an element is innermost.
    enum CharacterData {
        /// Nowhere: expat skips text cheaply when no callback is installed.
        case ignored
        /// To ``ExpatElementCallbacks/characters``.
        case common
        /// To ``ExpatElementCallbacks/charactersRarely``, which first does what few elements
        /// need (whole text, inner markup, counting text), so the common callback tests none of it.
        case rare
    }

    /// Installs, swaps or removes the character-data callback.
    @inline(__always)
    func setCharacterData(_ route: CharacterData) {
        guard route != characterData else { return }
        characterData = route
        switch route {
        case .ignored:
            XML_SetCharacterDataHandler(parser, nil)
        case .common:
            XML_SetCharacterDataHandler(parser, elementCallbacks.unsafelyUnwrapped.characters)
        case .rare:
            XML_SetCharacterDataHandler(parser, elementCallbacks.unsafelyUnwrapped.charactersRarely)
        }
    }
}
