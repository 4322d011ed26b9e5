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
/// encodings expat does not know itself.
extension ExpatDriver {
    func installSafetyHandlers(_ parser: OpaquePointer, profile: SafetyProfile, events: Events) {
        // Parameter entities are never parsed: nothing outside the input is read, and an
        // internal parameter entity cannot declare anything.
        XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_NEVER)
        _ = saxdispatch_set_amplification_limits(
            parser, profile.maximumAmplification, profile.amplificationActivationBytes)

        XML_SetEntityDeclHandler(parser) {
            userData, name, isParameterEntity, _, _, _, systemID, publicID, notationName in
            withEngine(userData) { engine in
                engine.driver.entityDeclared(
                    engine, name: name, isParameterEntity: isParameterEntity != 0, systemID: systemID,
                    publicID: publicID, notationName: notationName)
            }
        }
        XML_SetAttlistDeclHandler(parser) { userData, elementName, attributeName, type, _, _ in
            withEngine(userData) { engine in
                engine.driver.attributeDeclared(
                    engine, elementName: elementName, attributeName: attributeName, type: type)
            }
        }
        XML_SetExternalEntityRefHandlerArg(parser, userData)
        XML_SetExternalEntityRefHandler(parser) { handlerArgument, _, _, systemID, publicID in
            withEngine(UnsafeMutableRawPointer(handlerArgument)) { engine in
                engine.driver.externalEntityReferenced(engine, systemID: systemID, publicID: publicID)
            }
            return 0
        }
        XML_SetSkippedEntityHandler(parser) { userData, name, isParameterEntity in
            let name = MessageText.name(string(name) ?? "")
            let reference = isParameterEntity != 0 ? "%\(name);" : "&\(name);"
            withEngine(userData) { engine in
                engine.violate(
                    .undefinedEntity,
                    "entity \(reference) is not declared in the document; a declaration in an external DTD "
                        + "or parameter entity would not be read")
            }
        }
        XML_SetUnknownEncodingHandler(parser, { _, name, info in
            guard let name, let info, let table = SingleByteEncoding(named: UTF8Text.string(cString: name)) else {
                return 0
            }
            withUnsafeMutablePointer(to: &info.pointee.map) { tuple in
                tuple.withMemoryRebound(to: Int32.self, capacity: 256) { map in
                    for byte in 0..<256 { map[byte] = table.scalar(byte) }
                }
            }
            info.pointee.data = nil
            info.pointee.convert = nil
            info.pointee.release = nil
            return 1
        }, nil)

        let checksTokens = profile.maximumTokenBytes.value != nil
        // Names in the prolog reach no start tag check: a name limit needs their callbacks.
        let checksNames = profile.maximumNameBytes.value != nil
        if events.doctype || !profile.allowsInternalSubset || checksNames {
            XML_SetStartDoctypeDeclHandler(parser) { userData, name, systemID, publicID, hasInternalSubset in
                withEngine(userData) { engine in
                    guard engine.driver.checkName(engine, name) else { return }
                    if hasInternalSubset != 0 && !engine.driver.profile.allowsInternalSubset {
                        engine.violate(
                            .internalSubsetForbidden,
                            "the DOCTYPE has an internal subset, which this profile forbids (allowsInternalSubset)")
                        return
                    }
                    engine.doctype(
                        DoctypeDeclaration(
                            name: string(name) ?? "", systemID: string(systemID), publicID: string(publicID),
                            hasInternalSubset: hasInternalSubset != 0))
                }
            }
        }
        if events.notations || checksNames {
            XML_SetNotationDeclHandler(parser) { userData, name, _, systemID, publicID in
                withEngine(userData) { engine in
                    guard engine.driver.checkName(engine, name) else { return }
                    engine.notation(
                        NotationDeclaration(
                            name: string(name) ?? "", systemID: string(systemID), publicID: string(publicID)))
                }
            }
        }
        if checksNames {
            XML_SetElementDeclHandler(parser) { userData, name, model in
                withEngine(userData) { engine in
                    _ = engine.driver.checkName(engine, name) && engine.driver.checkNames(engine, in: model)
                    if let model { XML_FreeContentModel(engine.driver.parser, model) }
                }
            }
        }
        if events.comments || checksTokens {
            XML_SetCommentHandler(parser) { userData, data in
                withEngine(userData) { engine in
                    guard engine.driver.checkTokenSize(engine) else { return }
                    engine.comment(data)
                }
            }
        }
        if events.processingInstructions || checksTokens || checksNames {
            XML_SetProcessingInstructionHandler(parser) { userData, target, data in
                withEngine(userData) { engine in
                    guard engine.driver.checkTokenSize(engine), engine.driver.checkName(engine, target) else { return }
                    engine.processingInstruction(target: target, data: data)
                }
            }
        }
    }

    /// Ends the parse when the token being reported is larger than the token limit.
    /// - Returns: `false` when it was.
    func checkTokenSize(_ engine: DispatchEngine) -> Bool {
        guard currentEventByteCount > maximumTokenBytes else { return true }
        engine.violateTokenLimit()
        return false
    }

    private func checkName(_ engine: DispatchEngine, _ name: UnsafePointer<CChar>?) -> Bool {
        guard let name, strlen(name) > maximumNameBytes else { return true }
        engine.violateNameLimit()
        return false
    }

    fileprivate func entityDeclared(
        _ engine: DispatchEngine, name: UnsafePointer<CChar>?, isParameterEntity: Bool,
        systemID: UnsafePointer<CChar>?, publicID: UnsafePointer<CChar>?, notationName: UnsafePointer<CChar>?
    ) {
        entityDeclarationCount += 1
        let limit = profile.maximumEntityDeclarations
        if limit.isExceeded(by: entityDeclarationCount) {
            engine.violate(
                .entityLimitExceeded,
                "more than maximumEntityDeclarations (\(limit)) entity declarations", limit: limit.value)
            return
        }
        guard checkTokenSize(engine), checkName(engine, name), checkName(engine, notationName) else { return }
        if let systemID, !isParameterEntity {
            externalEntityNames[UTF8Text.string(cString: systemID)] = string(name)
        }
        _ = publicID
    }

    fileprivate func attributeDeclared(
        _ engine: DispatchEngine, elementName: UnsafePointer<CChar>?, attributeName: UnsafePointer<CChar>?,
        type: UnsafePointer<CChar>?
    ) {
        hasAttributeDeclarations = true
        guard checkTokenSize(engine), checkName(engine, elementName), checkName(engine, attributeName),
            checkEnumeratedNames(engine, type)
        else { return }
        let element = string(elementName) ?? ""
        let count = attributeDeclarationCounts[element, default: 0] + 1
        attributeDeclarationCounts[element] = count
        let limit = profile.maximumAttributes
        if limit.isExceeded(by: count) {
            engine.violate(
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
        _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>, from specified: Int, to count: Int,
        _ engine: DispatchEngine
    ) -> Bool {
        for index in specified..<count {
            if let value = attributes[2 * index + 1] { defaultedAttributeBytes += strlen(value) }
        }
        let input = max(1, Int(XML_GetCurrentByteIndex(parser)) + currentEventByteCount)
        let output = input + defaultedAttributeBytes
        guard UInt64(output) >= profile.amplificationActivationBytes,
            Double(output) / Double(input) > Double(profile.maximumAmplification)
        else { return true }
        engine.violate(
            .amplificationLimitBreach,
            "limit on input amplification factor breached by attribute values defaulted from the DTD"
                + " (\(defaultedAttributeBytes) bytes of them after \(input) bytes of input; maximumAmplification"
                + " \(profile.maximumAmplification))")
        return false
    }

    fileprivate func externalEntityReferenced(
        _ engine: DispatchEngine, systemID: UnsafePointer<CChar>?, publicID: UnsafePointer<CChar>?
    ) {
        let system = string(systemID) ?? ""
        var described = externalEntityNames[system].map { "&\(MessageText.name($0));" } ?? "an external entity"
        if let publicID = string(publicID) {
            described += " (PUBLIC \"\(MessageText.name(publicID))\" \"\(MessageText.name(system))\")"
        } else {
            described += " (SYSTEM \"\(MessageText.name(system))\")"
        }
        engine.violate(
            .externalEntityForbidden, "reference to external entity \(described): external entities are never read")
    }

    /// Checks the names an enumerated or NOTATION attribute type lists, which expat reports
    /// as the type: `(yes|no)`, `NOTATION(gif|png)`.
    /// - Returns: `false` when one was too long, and the parse ended.
    private func checkEnumeratedNames(_ engine: DispatchEngine, _ type: UnsafePointer<CChar>?) -> Bool {
        guard let type, maximumNameBytes != Int.max else { return true }
        var length = 0
        var index = 0
        var inList = false
        while true {
            let byte = UInt8(bitPattern: type[index])
            switch byte {
            case 0x28, 0x7C, 0x29, 0:  // ( | ) and the end
                if inList && length > maximumNameBytes {
                    engine.violateNameLimit()
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
    private func checkNames(_ engine: DispatchEngine, in model: UnsafeMutablePointer<XML_Content>?) -> Bool {
        guard let model else { return true }
        var pending = [model]
        while let node = pending.popLast() {
            guard checkName(engine, node.pointee.name) else { return false }
            if let children = node.pointee.children {
                for index in 0..<Int(node.pointee.numchildren) { pending.append(children + index) }
            }
        }
        return true
    }
}

/// A single-byte encoding from ``SingleByteEncodingTables``, for expat's unknown-encoding callback.
struct SingleByteEncoding {
    private let offset: Int

    /// Looks an encoding up by any of its names, ignoring case.
    init?(named name: String) {
        guard let index = SingleByteEncodingTables.indexByName[name.lowercased()] else { return nil }
        offset = index * 128
    }

    /// The Unicode scalar value of `byte`, or -1 when the encoding does not define it.
    func scalar(_ byte: Int) -> Int32 {
        guard byte >= 0x80 else { return Int32(byte) }
        let value = SingleByteEncodingTables.upperHalves[offset + byte - 0x80]
        return value == 0xFFFF ? -1 : Int32(value)
    }
}
