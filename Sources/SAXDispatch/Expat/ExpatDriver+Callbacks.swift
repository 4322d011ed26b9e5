private import CExpat

/// The element and character-data callbacks: the per-event path from expat to the engine.
///
/// Expat calls only the callbacks that are installed, so the driver installs the
/// character-data callback only while the innermost element's handlers want text, and
/// swaps the element callbacks for counting ones while a subtree is skipped.
extension ExpatDriver {
    /// Routes start and end tags to the dispatcher, or, while a subtree is skipped, to
    /// callbacks that only count its depth and check the limits.
    func setSkipping(_ skipping: Bool) {
        guard let parser else { return }
        if skipping {
            XML_SetElementHandler(
                parser,
                { userData, name, attributes in
                    guard let name, let attributes else { return }
                    withDriver(userData) { driver in
                        if _slowPath(driver.dtd.checksAttributeEntityReferences) {
                            guard driver.admitsEntityReferences(inStartTag: name) else { return }
                        }
                        driver.withEngine { $0.skippedStart(name, attributes) }
                    }
                },
                { userData, _ in
                    forwardToEngine(userData) { $0.skippedEnd() }
                })
        } else {
            XML_SetElementHandler(
                parser,
                { userData, name, attributes in
                    guard let name, let attributes else { return }
                    withDriver(userData) { driver in
                        // Expat drops undeclared references from attribute values once the
                        // document has an external subset or a parameter entity reference;
                        // namespace declarations, which expat does not pass on, are checked too.
                        if _slowPath(driver.dtd.checksAttributeEntityReferences) {
                            guard driver.admitsEntityReferences(inStartTag: name) else { return }
                        }
                        driver.withEngine { $0.startElement(name, attributes) }
                    }
                },
                { userData, _ in
                    forwardToEngine(userData) { $0.endElement() }
                })
        }
    }

    /// Where character data goes while an element is innermost.
    enum CharacterData {
        /// Nowhere: expat skips text cheaply when no callback is installed.
        case ignored
        /// To ``DispatchEngine/characters(_:_:)``.
        case common
        /// To ``DispatchEngine/charactersRarely(_:_:)``, which first does what few elements
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
            XML_SetCharacterDataHandler(parser) { userData, bytes, length in
                guard let bytes, length > 0 else { return }
                forwardToEngine(userData) { $0.characters(bytes, Int(length)) }
            }
        case .rare:
            XML_SetCharacterDataHandler(parser) { userData, bytes, length in
                guard let bytes, length > 0 else { return }
                forwardToEngine(userData) { $0.charactersRarely(bytes, Int(length)) }
            }
        }
    }
}
