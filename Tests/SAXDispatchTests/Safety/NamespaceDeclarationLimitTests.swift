import SAXDispatch
import Testing

/// ``SafetyProfile/maximumAttributes`` counts every attribute written on an element,
/// namespace declarations included, whether namespaces are processed (expat then hands
/// the declarations over apart from the attributes) or not, fed whole or in any pieces.
@Suite("Attribute limit: namespace declarations count")
struct NamespaceDeclarationLimitTests {
    static func profile(maximumAttributes: Int) -> SafetyProfile {
        var profile = SafetyProfile.default
        profile.maximumAttributes = .atMost(maximumAttributes)
        return profile
    }

    /// `declarations` namespace declarations (the first a default one) and `attributes`
    /// attributes on the root's child, after a line of its own.
    static func document(declarations: Int, attributes: Int) -> String {
        let declared = (0..<declarations).map { $0 == 0 ? " xmlns='urn:d'" : " xmlns:p\($0)='urn:\($0)'" }
        let written = (0..<attributes).map { " a\($0)='\($0)'" }
        return "<r>\n  <e" + declared.joined() + written.joined() + "/><after/></r>"
    }

    /// The outcome, `ok` or the error's code and position, fed whole and in pieces of 1, 7 and 4096 bytes.
    static func outcomes(_ document: String, maximumAttributes: Int, processesNamespaces: Bool) -> Set<String> {
        var outcomes: Set<String> = []
        for size in [Int.max, 1, 7, 4096] {
            var dispatcher = Dispatcher()
            dispatcher.safety = profile(maximumAttributes: maximumAttributes)
            dispatcher.processesNamespaces = processesNamespaces
            var seen: [String] = []
            dispatcher.onAnyStart { seen.append($0.localName) }
            let parser = PushParser(dispatcher)
            do {
                try parser.feed(Array(document.utf8), inPiecesOf: size)
                try parser.finish()
                outcomes.insert("ok " + seen.joined(separator: " "))
            } catch let error as XMLParseError {
                outcomes.insert("\(error.code) \(error.line):\(error.column) limit \(error.limit ?? -1)")
            } catch {
                outcomes.insert("\(error)")
            }
        }
        return outcomes
    }

    @Test("declarations alone, and declarations with attributes, over the limit", arguments: [true, false])
    func overTheLimit(processesNamespaces: Bool) {
        for (declarations, attributes) in [(5, 0), (3, 3), (1, 4), (4, 1)] {
            #expect(
                Self.outcomes(
                    Self.document(declarations: declarations, attributes: attributes), maximumAttributes: 4,
                    processesNamespaces: processesNamespaces) == ["attributeLimitExceeded 2:3 limit 4"],
                "\(declarations) declarations, \(attributes) attributes")
        }
    }

    @Test("at the limit, and the next element's count starts afresh", arguments: [true, false])
    func atTheLimit(processesNamespaces: Bool) {
        for (declarations, attributes) in [(4, 0), (2, 2), (0, 4), (1, 3)] {
            #expect(
                Self.outcomes(
                    Self.document(declarations: declarations, attributes: attributes), maximumAttributes: 4,
                    processesNamespaces: processesNamespaces) == ["ok r e after"],
                "\(declarations) declarations, \(attributes) attributes")
        }
    }

    @Test("the default limit: 512 declarations and 513 attributes on one element")
    func defaultLimit() {
        var dispatcher = Dispatcher()
        dispatcher.onAnyStart { _ in }
        let document = Self.document(declarations: 512, attributes: 513)
        #expect {
            try dispatcher.parse(.string(document))
        } throws: { error in
            let error = error as? XMLParseError
            return error?.code == .attributeLimitExceeded && error?.line == 2 && error?.column == 3
        }
    }

    @Test("declarations on an element in a skipped subtree count too")
    func skippedSubtree() throws {
        var dispatcher = Dispatcher()
        dispatcher.safety = Self.profile(maximumAttributes: 2)
        dispatcher.onStart("r") { $0.skipSubtree() }
        #expect {
            try dispatcher.parse(.string("<r><s><e xmlns='urn:d' xmlns:a='urn:a' xmlns:b='urn:b'/></s></r>"))
        } throws: { error in
            let error = error as? XMLParseError
            return error?.code == .attributeLimitExceeded && error?.line == 1 && error?.column == 7
        }
    }
}
