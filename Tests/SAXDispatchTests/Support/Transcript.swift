import SAXDispatch

/// Records every event a dispatcher delivers as one line of text, so that two
/// parses can be compared. Text pieces are merged until the next non-text event,
/// since their boundaries legitimately depend on chunking; everything else must match.
final class Transcript {
    private(set) var lines: [String] = []
    /// How many lines were recorded, kept or not.
    private(set) var lineCount = 0
    /// Text delivered to streaming handlers and not closed by any later event when the
    /// parse failed: how much of it arrives before the error depends on expat's tokens.
    private(set) var unfinishedText = ""
    private var pendingText = ""
    /// Whether lines are kept; for multi-megabyte documents only their number is.
    private let keepsLines: Bool

    init(keepsLines: Bool = true) {
        self.keepsLines = keepsLines
    }

    /// Names that get their own named handlers, so both named and catch-all routes are exercised.
    static let namedElements = ["name", "kind", "p", "b", "url", "animal"]

    func dispatcher(profile: SafetyProfile = .default, routed: Bool = false) -> Dispatcher {
        var dispatcher = Dispatcher()
        dispatcher.safety = profile
        for name in Self.namedElements {
            dispatcher.onStart(ElementPattern(name: name)) { [unowned self] in start($0, route: "named") }
            dispatcher.onText(ElementPattern(name: name)) { [unowned self] _, chunk in pendingText += chunk.string }
            dispatcher.onEnd(ElementPattern(name: name), whitespace: .preserve) { [unowned self] in end($0, $1, route: "named") }
            dispatcher.onEnd(ElementPattern(name: name), whitespace: .collapse) { [unowned self] _, text in record("collapsed \(text.debugDescription)") }
        }
        if routed { addRoutes(to: &dispatcher) }
        dispatcher.onAnyStart { [unowned self] in start($0, route: "any") }
        dispatcher.onAnyText { [unowned self] _, chunk in pendingText += chunk.string }
        dispatcher.onAnyEnd(whitespace: .preserve) { [unowned self] in end($0, $1, route: "any") }
        dispatcher.onProcessingInstruction { [unowned self] in record("pi \($0) \($1.debugDescription)") }
        dispatcher.onComment { [unowned self] in record("comment \($0.debugDescription)") }
        dispatcher.onDoctype { [unowned self] in record("doctype \($0.name) internal=\($0.hasInternalSubset)") }
        return dispatcher
    }

    /// Path patterns of every form, a mounted set with its own catch-all, retained
    /// attributes, a chain stop and skipped subtrees, on top of the named handlers.
    private func addRoutes(to dispatcher: inout Dispatcher) {
        dispatcher.onStart("*/*/*/*") { [unowned self] element in
            start(element, route: "*/*/*/*")
            if element.depth > 5 { element.stopHandlerChain() }
        }
        dispatcher.onStart("*[@id]") { [unowned self] in start($0, route: "*[@id]") }
        dispatcher.onEnd("/*//name", whitespace: .preserve) { [unowned self] in end($0, $1, route: "/*//name") }
        dispatcher.onStart("p/b") { [unowned self] element in
            start(element, route: "p/b skipped")
            element.skipSubtree()
        }
        dispatcher.onStart("facilities") { $0.skipSubtree() }
        dispatcher.retainAttributes("id", "type", "a", of: "*")
        dispatcher.onEnd("*/*", whitespace: .collapse) { [unowned self] element, text in
            let inherited = ["id", "type", "a"].map { element.ancestorAttribute($0) ?? "-" }.joined(separator: ",")
            record("end[*/*] \(element.name) inherits \(inherited) text=\(text.debugDescription)")
        }
        var set = Dispatcher()
        set.onStart(.mountPoint) { [unowned self] in start($0, route: "mounted .") }
        set.onEnd("/kind") { [unowned self] in end($0, $1, route: "mounted /kind") }
        set.onAnyEnd { [unowned self] element in record("end[mounted any] \(element.path)") }
        dispatcher.mount(set, at: "animals/animal")
    }

    /// How much has been recorded: lines, and text not yet closed by another event.
    var recordedAmount: [Int] { [lineCount, pendingText.utf8.count] }

    func record(_ line: String) {
        if !pendingText.isEmpty {
            append("text \(pendingText.debugDescription)")
            pendingText = ""
        }
        append(line)
    }

    /// Records the error that ended the parse; text still pending becomes `unfinishedText`.
    func recordError(_ line: String) {
        unfinishedText = pendingText
        pendingText = ""
        append(line)
    }

    private func append(_ line: String) {
        lineCount += 1
        if keepsLines { lines.append(line) }
    }

    private func start(_ element: ElementContext, route: String) {
        let attributes = element.attributes.map { "\($0.name)=\($0.value.debugDescription)" }.joined(separator: " ")
        record(
            "start[\(route)] \(element.path) depth=\(element.depth) at \(element.line):\(element.column)+\(element.byteOffset) [\(attributes)]"
        )
    }

    private func end(_ element: ElementContext, _ text: String, route: String) {
        record("end[\(route)] \(element.name) text=\(text.debugDescription) parent=\(element.ancestor(at: 1) ?? "-")")
    }

    /// Parses `bytes` fed in the given pieces and returns the transcript, with the
    /// outcome or the error as the last line.
    static func record(
        _ bytes: [UInt8], splits: some Sequence<Int>, profile: SafetyProfile = .default, routed: Bool = false
    ) -> [String] {
        let transcript = Transcript()
        let parser = PushParser(transcript.dispatcher(profile: profile, routed: routed))
        var offset = 0
        do {
            for size in splits where offset < bytes.count {
                let end = min(bytes.count, offset + max(1, size))
                try parser.feed(bytes[offset..<end])
                offset = end
            }
            if offset < bytes.count { try parser.feed(bytes[offset...]) }
            let outcome = try parser.finish()
            transcript.record("outcome \(outcome)")
        } catch let error as XMLParseError {
            transcript.record("error \(error.code) \(error.line):\(error.column)+\(error.byteOffset) \(error.elementPath)")
        } catch let error as HandlerError {
            transcript.record("handler error \(error.event) \(error.line):\(error.column)+\(error.byteOffset) \(error.elementPath)")
        } catch {
            transcript.record("error \(error)")
        }
        return transcript.lines
    }
}
