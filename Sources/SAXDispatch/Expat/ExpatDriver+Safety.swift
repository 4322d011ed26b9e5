private import CExpat

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The callbacks that enforce a ``SafetyProfile`` on what expat reads in the prolog and
/// DTD: entity and attribute declarations, external and undeclared entities, internal
/// subsets, token sizes of comments and processing instructions, the names of processing
/// instruction targets, the DOCTYPE, notations and element type declarations, and the
/// encodings expat does not know itself; and the token, name and defaulted-attribute
/// checks of start tags, which the engine asks for.
///
/// The driver decides these rules itself and reports a broken one to the engine
/// (``violate(_:_:limit:at:)``); the events that handlers receive (DOCTYPE, notations,
/// comments, processing instructions) go on to the engine once the rules hold.
extension ExpatDriver {
    func installSafetyHandlers(_ parser: OpaquePointer, profile: SafetyProfile, events: Events) {
        // Parameter entities are never parsed: nothing outside the input is read, and an
        // internal parameter entity cannot declare anything.
        XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_NEVER)
        _ = saxdispatch_set_amplification_limits(
            parser, profile.maximumAmplification, profile.amplificationActivationBytes)

        XML_SetEntityDeclHandler(parser) {
            userData, name, isParameterEntity, value, length, _, systemID, publicID, notationName in
            withDriver(userData) { driver in
                driver.entityDeclared(
                    name: name, isParameterEntity: isParameterEntity != 0, value: value, length: length,
                    systemID: systemID, publicID: publicID, notationName: notationName)
            }
        }
        XML_SetAttlistDeclHandler(parser) { userData, elementName, attributeName, type, defaultValue, _ in
            withDriver(userData) {
                $0.attributeDeclared(
                    elementName: elementName, attributeName: attributeName, type: type, hasDefault: defaultValue != nil)
            }
        }
        XML_SetExternalEntityRefHandlerArg(parser, userData)
        XML_SetExternalEntityRefHandler(parser) { handlerArgument, _, _, systemID, publicID in
            withDriver(UnsafeMutableRawPointer(handlerArgument)) {
                $0.externalEntityReferenced(systemID: systemID, publicID: publicID)
            }
            return 0
        }
        installEntityHandlers(parser)
        installUnknownEncodingHandler(parser)
        if processesNamespaces {
            // Only start tags with declarations call it: the others pay nothing.
            XML_SetStartNamespaceDeclHandler(parser) { userData, prefix, uri in
                withDriver(userData) { driver in
                    driver.pendingNamespaceDeclarations += 1
                    driver.nameLog?.logPrefix(prefix)
                    if driver.events.namespaceDeclarations {
                        driver.startTagDeclarations.record(prefix: prefix, uri: uri, at: driver.eventByteIndex)
                    }
                }
            }
        }

        let checksTokens = profile.maximumTokenBytes.value != nil
        // Names in the prolog reach no start tag check: a name limit needs their callbacks.
        let checksNames = profile.maximumNameBytes.value != nil
        if events.doctype || !profile.allowsInternalSubset || checksNames || profile.readsKnownDTDEntities {
            XML_SetStartDoctypeDeclHandler(parser) { userData, name, systemID, publicID, hasInternalSubset in
                withDriver(userData) { driver in
                    guard driver.checkName(name) else { return }
                    driver.doctypeNamed(publicID: publicID)
                    if hasInternalSubset != 0 && !driver.profile.allowsInternalSubset {
                        driver.violate(
                            .internalSubsetForbidden,
                            "the DOCTYPE has an internal subset, which this profile forbids (allowsInternalSubset)")
                        return
                    }
                    let declaration = DoctypeDeclaration(
                        name: string(name) ?? "", systemID: string(systemID), publicID: string(publicID),
                        hasInternalSubset: hasInternalSubset != 0)
                    driver.withSink { $0.doctype(declaration) }
                }
            }
        }
        if events.notations || checksNames {
            XML_SetNotationDeclHandler(parser) { userData, name, _, systemID, publicID in
                withDriver(userData) { driver in
                    guard driver.checkName(name) else { return }
                    let declaration = NotationDeclaration(
                        name: string(name) ?? "", systemID: string(systemID), publicID: string(publicID))
                    driver.withSink { $0.notation(declaration) }
                }
            }
        }
        if checksNames {
            XML_SetElementDeclHandler(parser) { userData, name, model in
                withDriver(userData) { driver in
                    _ = driver.checkName(name) && driver.checkNames(in: model)
                    if let model { XML_FreeContentModel(driver.parser, model) }
                }
            }
        }
        if events.comments || checksTokens {
            XML_SetCommentHandler(parser) { userData, data in
                withDriver(userData) { driver in
                    guard driver.admitsTokenSize() else { return }
                    driver.withSink { $0.comment(data) }
                }
            }
        }
        if events.processingInstructions || checksTokens || checksNames {
            XML_SetProcessingInstructionHandler(parser) { userData, target, data in
                withDriver(userData) { driver in
                    guard driver.admitsTokenSize(), driver.checkName(target) else { return }
                    driver.withSink { $0.processingInstruction(target: target, data: data) }
                }
            }
        }
    }

    /// Ends the parse when the token being reported is larger than the token limit.
    /// - Returns: `false` when it was.
    func admitsTokenSize() -> Bool {
        guard currentEventByteCount > maximumTokenBytes else { return true }
        violateTokenLimit()
        return false
    }

    func violateTokenLimit() {
        let limit = profile.maximumTokenBytes
        violate(.tokenLimitExceeded, "a single token is larger than maximumTokenBytes (\(limit))", limit: limit.value)
    }

    func violateNameLimit() {
        let limit = profile.maximumNameBytes
        violate(.nameLimitExceeded, "a name is longer than maximumNameBytes (\(limit))", limit: limit.value)
    }

    private func checkName(_ name: UnsafePointer<CChar>?) -> Bool {
        guard let name, strlen(name) > maximumNameBytes else { return true }
        violateNameLimit()
        return false
    }

    /// Checks a start tag that may break the token or name limit (a large one, or one from
    /// an internal entity or with attributes defaulted from the DTD: see
    /// ``LimitGuard/examinesStartTag(byteCount:)``).
    /// - Returns: The number of its attributes, or `nil` when it broke a limit and the parse ended.
    func checkStartTag(
        _ name: UnsafePointer<CChar>, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>
    ) -> Int? {
        guard admitsTokenSize() else { return nil }
        var count = 0
        var longestName = Self.writtenLength(name)
        while let attributeName = attributes[2 * count] {
            longestName = max(longestName, Self.writtenLength(attributeName))
            count += 1
        }
        if longestName > maximumNameBytes {
            violateNameLimit()
            return nil
        }
        return count
    }

    /// The length of a name as the document wrote it, as the name limit counts it: with
    /// namespace processing, expat prefixes the namespace URI (`uri␁local␁prefix`), which
    /// is an attribute value of the declaration, not part of the name.
    private static func writtenLength(_ name: UnsafePointer<CChar>) -> Int {
        let length = strlen(name)
        guard let separator = memchr(name, Int32(QualifiedName.separator), length) else { return length }
        return length - (UnsafeRawPointer(separator) - UnsafeRawPointer(name)) - 1
    }

    /// Charges `bytes` that the dispatcher holds for the parse (what `holding` describes)
    /// to expat's heap budget, as expat's own allocations are charged; when they do not
    /// fit, charges nothing and ends the parse with the memory limit.
    /// - Returns: `false` when they did not fit.
    func charge(bytes: Int, holding: @autoclosure () -> String) -> Bool {
        guard !charge(bytes: bytes) else { return true }
        let limit = profile.maximumParserMemoryBytes
        violate(
            .memoryLimitExceeded,
            "the parser needs more memory than maximumParserMemoryBytes (\(limit)) for \(holding())",
            limit: limit.value)
        return false
    }

    fileprivate func entityDeclared(
        name: UnsafePointer<CChar>?, isParameterEntity: Bool, value: UnsafePointer<CChar>?, length: Int32,
        systemID: UnsafePointer<CChar>?, publicID: UnsafePointer<CChar>?, notationName: UnsafePointer<CChar>?
    ) {
        // The built-in entities of a known DTD count towards no limit: the package wrote them.
        if dtd.readsBuiltInEntities {
            if let name = string(name) { _ = recordDeclaration(name: name, value: value, length: length) }
            return
        }
        dtd.entityDeclarationCount += 1
        let limit = profile.maximumEntityDeclarations
        if limit.isExceeded(by: dtd.entityDeclarationCount) {
            violate(
                .entityLimitExceeded,
                "more than maximumEntityDeclarations (\(limit)) entity declarations", limit: limit.value)
            return
        }
        guard admitsTokenSize(), checkName(name), checkName(notationName) else { return }
        if let systemID, !isParameterEntity {
            dtd.externalEntityNames[UTF8Text.string(cString: systemID)] = string(name)
        }
        if !isParameterEntity, let name = string(name) {
            guard recordDeclaration(name: name, value: systemID == nil ? value : nil, length: length) else { return }
        }
        _ = publicID
    }

    fileprivate func attributeDeclared(
        elementName: UnsafePointer<CChar>?, attributeName: UnsafePointer<CChar>?, type: UnsafePointer<CChar>?,
        hasDefault: Bool
    ) {
        dtd.hasAttributeDeclarations = true
        guard admitsTokenSize(), checkName(elementName), checkName(attributeName), checkEnumeratedNames(type)
        else { return }
        if hasDefault && dtd.checksAttributeEntityReferences {
            guard admitsEntityReferences(inDefaultOf: string(attributeName) ?? "") else { return }
        }
        let element = string(elementName) ?? ""
        let count = dtd.attributeDeclarationCounts[element, default: 0] + 1
        dtd.attributeDeclarationCounts[element] = count
        let limit = profile.maximumAttributes
        if limit.isExceeded(by: count) {
            violate(
                .attributeLimitExceeded,
                "element <\(MessageText.name(element))> declares more than maximumAttributes (\(limit)) attributes",
                limit: limit.value)
        }
    }

    /// Counts the values of the attributes a start tag got from the DTD's defaults (pairs
    /// `specified..<count` of expat's array) and ends the parse when they amplify the input
    /// beyond ``SafetyProfile/maximumAmplification``, by expat's own rule: once the output
    /// (input so far plus defaulted values) passes ``SafetyProfile/amplificationActivationBytes``,
    /// it may be at most that many times the input read up to the end of this start tag.
    /// - Returns: `false` when they did.
    func admitsDefaultedAttributes(
        _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>, from specified: Int, to count: Int
    ) -> Bool {
        for index in specified..<count {
            if let value = attributes[2 * index + 1] { dtd.defaultedAttributeBytes += strlen(value) }
        }
        let input = max(1, Int(XML_GetCurrentByteIndex(parser)) + currentEventByteCount)
        let output = input + dtd.defaultedAttributeBytes
        guard UInt64(output) >= profile.amplificationActivationBytes,
            Double(output) / Double(input) > Double(profile.maximumAmplification)
        else { return true }
        violate(
            .amplificationLimitBreach,
            "limit on input amplification factor breached by attribute values defaulted from the DTD"
                + " (\(dtd.defaultedAttributeBytes) bytes of them after \(input) bytes of input; maximumAmplification"
                + " \(profile.maximumAmplification))")
        return false
    }

    fileprivate func externalEntityReferenced(systemID: UnsafePointer<CChar>?, publicID: UnsafePointer<CChar>?) {
        let system = string(systemID) ?? ""
        var described = dtd.externalEntityNames[system].map { "&\(MessageText.name($0));" } ?? "an external entity"
        if let publicID = string(publicID) {
            described += " (PUBLIC \"\(MessageText.name(publicID))\" \"\(MessageText.name(system))\")"
        } else {
            described += " (SYSTEM \"\(MessageText.name(system))\")"
        }
        violate(
            .externalEntityForbidden, "reference to external entity \(described): external entities are never read")
    }

    /// Checks the names an enumerated or NOTATION attribute type lists, which expat reports
    /// as the type: `(yes|no)`, `NOTATION(gif|png)`.
    /// - Returns: `false` when one was too long, and the parse ended.
    private func checkEnumeratedNames(_ type: UnsafePointer<CChar>?) -> Bool {
        guard let type, maximumNameBytes != Int.max else { return true }
        var length = 0
        var index = 0
        var inList = false
        while true {
            let byte = UInt8(bitPattern: type[index])
            switch byte {
            case 0x28, 0x7C, 0x29, 0:  // ( | ) and the end
                if inList && length > maximumNameBytes {
                    violateNameLimit()
                    return false
                }
                inList = inList || byte == 0x28
                length = 0
                if byte == 0 { return true }
            default:
                length += 1
            }
            index += 1
        }
    }

    /// Checks the element names of an element type declaration's content model
    /// (`<!ELEMENT list (item | entry)*>`), walking it without recursion: its nesting is
    /// bounded only by the token limit.
    /// - Returns: `false` when one was too long, and the parse ended.
    private func checkNames(in model: UnsafeMutablePointer<XML_Content>?) -> Bool {
        guard let model else { return true }
        var pending = [model]
        while let node = pending.popLast() {
            guard checkName(node.pointee.name) else { return false }
            if let children = node.pointee.children {
                for index in 0..<Int(node.pointee.numchildren) { pending.append(children + index) }
            }
        }
        return true
    }
}
