private import CExpat

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Undeclared entities, which expat cannot expand, and the entities of well-known DTDs,
/// which the package knows without reading them.
///
/// Expat 2.5 treats a reference to an undeclared general entity in one of two ways. In a
/// document without an external subset or parameter entity reference, or a standalone one,
/// it is expat's own ``XMLParseError/Code/undefinedEntity`` error. Otherwise expat calls
/// the skipped-entity callback in content, and in an attribute value (written in a start
/// tag, a default in an ATTLIST declaration, or the replacement text of an entity used in
/// either) it drops the reference without telling anyone. Expat calls the not-standalone
/// callback exactly when a document enters that second state (at the DOCTYPE's system
/// identifier, and at each parameter entity reference), so that is where the driver arms
/// its check of attribute values; documents that never enter it never pay for it. The
/// check reads the input bytes of the start tag (or the ATTLIST default's literal),
/// finds their references and asks ``DeclaredEntities`` whether each expands in full;
/// ``SafetyProfile/undeclaredEntities`` decides what an undeclared one does, the same in
/// content and in attribute values.
///
/// A DOCTYPE naming a well-known public identifier (``KnownDTDEntities``) gets the
/// character entities of its DTD at the DOCTYPE's end, after the internal subset: the
/// driver has expat parse ``KnownDTDEntities/declarations`` as an external subset, with a
/// parser sharing the document's DTD (`XML_ExternalEntityParserCreate` with no context).
/// Expat itself then expands them, in content and attribute values alike, in any split and
/// any encoding. Parameter entity parsing stays off: expat only allows changing it before
/// the first byte, and turning it on for every document would expand the parameter
/// entities of every internal subset.
extension ExpatDriver {
    func installEntityHandlers(_ parser: OpaquePointer) {
        XML_SetNotStandaloneHandler(parser) { userData in
            withDriver(userData) { $0.dtd.checksAttributeEntityReferences = true }
            return 1
        }
        XML_SetSkippedEntityHandler(parser) { userData, name, isParameterEntity in
            withDriver(userData) { driver in
                driver.entitySkipped(name: string(name) ?? "", isParameterEntity: isParameterEntity != 0)
            }
        }
        if profile.readsKnownDTDEntities {
            XML_SetEndDoctypeDeclHandler(parser) { userData in
                withDriver(userData) { $0.declareKnownDTDEntities() }
            }
        }
    }

    /// Records a general entity's declaration (expat reports only the ones it processed).
    /// - Returns: `false` when holding its names broke the memory limit, and the parse ended.
    func recordDeclaration(name: String, value: UnsafePointer<CChar>?, length: Int32) -> Bool {
        let text = value.map { UnsafeRawBufferPointer(start: $0, count: Int(max(0, length))) }
        let bytes = dtd.declaredEntities.declare(name, replacementText: text)
        guard charge(bytes: bytes, holding: "the names of declared entities") else { return false }
        dtd.declaredEntityBytes += bytes
        return true
    }

    /// A reference in content that expat skipped: an error, or left out with a warning.
    private func entitySkipped(name: String, isParameterEntity: Bool) {
        let position = currentPosition()
        if profile.undeclaredEntities == .skipWithWarning && !isParameterEntity {
            dtd.skippedEntities.record(name, at: position)
            return
        }
        let reference = isParameterEntity ? "%\(MessageText.name(name));" : "&\(MessageText.name(name));"
        violate(
            .undefinedEntity,
            "entity \(reference) is not declared in the document; a declaration in an external DTD "
                + "or parameter entity would not be read")
    }

    // MARK: Attribute values

    /// Checks the entity references in the attribute values of the start tag being reported
    /// (only once the check is armed). A tag without an `&` costs one search for it.
    /// - Returns: `false` when one was undeclared and the parse ended.
    func admitsEntityReferences(inStartTag name: UnsafePointer<CChar>) -> Bool {
        var offset: Int32 = 0
        var size: Int32 = 0
        let count = currentEventByteCount
        guard let buffer = XML_GetInputContext(parser, &offset, &size), offset >= 0, count > 0,
            Int(offset) + count <= Int(size)
        else { return true }
        let raw = UnsafeRawBufferPointer(start: buffer + Int(offset), count: count)
        let element = { "<\(MessageText.name(QualifiedName.qualifiedName(of: UnsafeRawBufferPointer(start: name, count: strlen(name)))))>" }
        // Inside an internal entity, expat reports the position (and the bytes) of the
        // reference in the document; the tag is in the replacement text, in UTF-8, which
        // expat gives to a default handler without changing its positions.
        guard raw[0] == 0x26 || (raw.count > 1 && raw[0] == 0 && raw[1] == 0x26) else {
            let scan = referenceScan(of: raw, form: EntityReferenceScan.form(of: raw))
            guard scan.mayHoldReferences else { return true }
            return admitsReferences(scan, walking: true) { "an attribute value of \(element())" }
        }
        currentMarkup.removeAll(keepingCapacity: true)
        XML_SetDefaultHandlerExpand(parser) { userData, data, length in
            guard let data, length > 0 else { return }
            withDriver(userData) { driver in
                driver.currentMarkup.append(
                    contentsOf: UnsafeRawBufferPointer(start: data, count: Int(length)).prefix(driver.maximumTokenBytes))
            }
        }
        XML_DefaultCurrent(parser)
        XML_SetDefaultHandlerExpand(parser, nil)
        return currentMarkup.withUnsafeBytes { markup in
            admitsReferences(EntityReferenceScan(bytes: markup, form: .asciiCompatible), walking: false) {
                "an attribute value of \(element()) in an entity's replacement text"
            }
        }
    }

    /// Checks the references in an attribute default's literal, the token expat is at
    /// while it reports an ATTLIST declaration with a default.
    /// - Returns: `false` when one was undeclared and the parse ended.
    func admitsEntityReferences(inDefaultOf attribute: String) -> Bool {
        var offset: Int32 = 0
        var size: Int32 = 0
        guard let buffer = XML_GetInputContext(parser, &offset, &size), offset >= 0, offset < size else { return true }
        let rest = UnsafeRawBufferPointer(start: buffer + Int(offset), count: Int(size - offset))
        let form = EntityReferenceScan.form(of: rest)
        let unit = form == .asciiCompatible ? 1 : 2
        let quoteIndex = form == .utf16BigEndian ? 1 : 0
        guard rest.count >= 2 * unit, rest[quoteIndex] == 0x22 || rest[quoteIndex] == 0x27 else { return true }
        let quote = rest[quoteIndex]
        var end = unit
        while end + unit <= rest.count {
            let isQuote = rest[end + quoteIndex] == quote && rest[end + (unit - 1 - quoteIndex)] == (unit == 1 ? quote : 0)
            if isQuote { break }
            end += unit
        }
        let literal = UnsafeRawBufferPointer(rebasing: rest[..<end])
        return admitsReferences(referenceScan(of: literal, form: form), walking: true) {
            "the default value of attribute '\(MessageText.name(attribute))'"
        }
    }

    /// A scan of `bytes`, input of the document in its own encoding, for entity references:
    /// names and columns counted as that encoding says.
    func referenceScan(of bytes: UnsafeRawBufferPointer, form: EntityReferenceScan.Form) -> EntityReferenceScan {
        EntityReferenceScan(
            bytes: bytes, form: form, leads: inputEncoding.mapLeadBytes, bytesAreUTF8: documentBytesAreUTF8,
            decodeName: decodeInDocumentEncoding)
    }

    /// Checks each reference of `scan`; the error points at the reference when `walking`
    /// (the bytes are the document's, starting at the current event), else at the event.
    private func admitsReferences(_ scan: EntityReferenceScan, walking: Bool, place: () -> String) -> Bool {
        var admitted = true
        scan.forEachReference { name, index in
            guard let undeclared = dtd.declaredEntities.undeclaredName(reachedFrom: name) else { return true }
            let start = currentPosition()
            let at = walking ? scan.position(of: index, from: start) : start
            if profile.undeclaredEntities == .skipWithWarning {
                dtd.skippedEntities.record(undeclared, at: at)
                return true
            }
            let via = undeclared == name ? "" : " (in the replacement text of &\(MessageText.name(name));)"
            violate(
                .undefinedEntity,
                "entity &\(MessageText.name(undeclared));\(via) in \(place()) is not declared in the document; a"
                    + " declaration in an external DTD or parameter entity would not be read, and expat would leave"
                    + " the reference out of the value",
                at: at)
            admitted = false
            return false
        }
        return admitted
    }

    /// Notes how expat reads `encoding` through its map, once the unknown-encoding
    /// callback described it: the columns of a multi-byte encoding count its sequences.
    func encodingReadThroughMap(_ encoding: String) {
        if SingleByteEncoding(named: encoding) == nil, case .map(_, let leads)? = EncodingCatalog.path(for: encoding) {
            inputEncoding.mapLeadBytes = leads
        } else {
            inputEncoding.mapLeadBytes = nil
        }
    }

    // MARK: Entities of well-known DTDs

    /// Notes whether the DOCTYPE names a DTD whose entities are built in.
    func doctypeNamed(publicID: UnsafePointer<CChar>?) {
        guard profile.readsKnownDTDEntities, let publicID = string(publicID) else { return }
        dtd.namesKnownDTD = KnownDTDEntities.publicIdentifiers.contains(publicID)
    }

    /// At the DOCTYPE's end, after the internal subset: declares the built-in entities when
    /// the DOCTYPE named a known DTD, by having expat parse them as the external subset.
    private func declareKnownDTDEntities() {
        guard dtd.namesKnownDTD, let parser else { return }
        dtd.namesKnownDTD = false
        guard let subset = XML_ExternalEntityParserCreate(parser, nil, "UTF-8") else {
            violateBuiltInEntities()
            return
        }
        defer { XML_ParserFree(subset) }
        dtd.readsBuiltInEntities = true
        let status = KnownDTDEntities.declarations.withUnsafeBytes { text in
            XML_Parse(subset, text.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(text.count), 1)
        }
        dtd.readsBuiltInEntities = false
        if status != XML_STATUS_OK { violateBuiltInEntities() }
    }

    private func violateBuiltInEntities() {
        let limit = profile.maximumParserMemoryBytes
        violate(
            .memoryLimitExceeded,
            "the parser needs more memory than maximumParserMemoryBytes (\(limit)) for the entities of the DTD the"
                + " DOCTYPE names", limit: limit.value)
    }
}
