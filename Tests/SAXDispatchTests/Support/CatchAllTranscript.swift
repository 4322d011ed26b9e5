@testable import SAXDispatch

/// Everything catch-all handlers can see, one line per event, including each text chunk as
/// delivered (not merged), every position and ancestor a context answers, and the outcome
/// or error; handlers can throw, stop, skip or keep the root's context at the k-th event.
/// Two parses of the same bytes in the same pieces must give the same lines whichever path
/// the engine takes (`DispatchEngine+CatchAll`).
final class CatchAllTranscript {
    /// Registration sets that the catch-all path takes.
    enum Registrations: String, CaseIterable {
        case startAndText, startOnly, textOnly, startTextAndEnd, handlerObject, withDocumentHandlers
    }

    /// What the handlers do at the k-th event.
    enum Action: String, CaseIterable {
        case none, throwing, stopping, skipping, keepingRoot
    }

    struct Failure: Error, CustomStringConvertible {
        let event: Int
        var description: String { "failure at event \(event)" }
    }

    private(set) var lines: [String] = []
    private var events = 0
    private let action: Action
    private let actionAt: Int
    private var skipPending = false
    private var root: ElementContext?

    init(action: Action, at event: Int) {
        self.action = action
        actionAt = event
    }

    func dispatcher(_ registrations: Registrations) -> Dispatcher {
        if registrations == .handlerObject { return Dispatcher(handling: ObjectRecorder(self)) }
        var dispatcher = Dispatcher()
        if registrations != .textOnly { dispatcher.onAnyStart { [unowned self] in try start($0) } }
        if registrations != .startOnly { dispatcher.onAnyText { [unowned self] in try text($0, $1) } }
        if registrations == .startTextAndEnd { dispatcher.onAnyEnd { [unowned self] in try end($0) } }
        if registrations == .withDocumentHandlers {
            dispatcher.onComment { [unowned self] in lines.append("comment \($0.debugDescription)") }
            dispatcher.onProcessingInstruction { [unowned self] in lines.append("pi \($0) \($1.debugDescription)") }
            dispatcher.onDoctype { [unowned self] in lines.append("doctype \($0.name)") }
            dispatcher.onWarning { [unowned self] in lines.append("warning \($0)") }
        }
        return dispatcher
    }

    func start(_ element: ElementContext) throws {
        if element.depth == 1 && action == .keepingRoot { root = element }
        let attributes = element.attributes.map { "\($0.name)=\($0.value.debugDescription)" }.joined(separator: " ")
        lines.append("start \(describe(element)) [\(attributes)]")
        try act(element, isStart: true)
    }

    func text(_ element: ElementContext, _ chunk: TextChunk) throws {
        lines.append("text \(chunk.string.debugDescription) in \(describe(element))")
        try act(element, isStart: false)
    }

    func end(_ element: ElementContext) throws {
        lines.append("end \(describe(element))")
        try act(element, isStart: false)
    }

    private func describe(_ element: ElementContext) -> String {
        var line = "\(element.name) {\(element.namespaceURI ?? "-")}\(element.localName) prefix=\(element.prefix ?? "-")"
        line += " depth=\(element.depth) at \(element.line):\(element.column)+\(element.byteOffset)"
        line += " document=\(element.documentNumber) path=\(element.path) ancestors=\(element.ancestors)"
        line += " parent=\(element.ancestor(at: 1) ?? "-") inside-item=\(element.isInside("item"))"
        if let root { line += " root at \(root.line):\(root.column)+\(root.byteOffset) \(root.expandedName)" }
        return line
    }

    private func act(_ element: ElementContext, isStart: Bool) throws {
        events += 1
        if events == actionAt {
            switch action {
            case .none, .keepingRoot: break
            case .throwing: throw Failure(event: events)
            case .stopping: element.stopParsing()
            case .skipping: skipPending = true
            }
        }
        if skipPending && isStart {
            skipPending = false
            element.skipSubtree()
        }
    }

    /// Parses `bytes` fed in pieces of `pieceSize` bytes, on the catch-all path or (with
    /// `general`) forced onto the general one: the lines, the outcome or error last, and
    /// whether the engine took the catch-all path.
    static func record(
        _ bytes: [UInt8], pieceSize: Int, registrations: Registrations, action: Action, at event: Int,
        profile: SafetyProfile = .default, concatenated: Bool = false, general: Bool
    ) -> (lines: [String], tookCatchAllPath: Bool) {
        let transcript = CatchAllTranscript(action: action, at: event)
        var dispatcher = transcript.dispatcher(registrations)
        dispatcher.safety = profile
        dispatcher.allowsCatchAllPath = !general
        let parser = PushParser(dispatcher)
        parser.readsConcatenatedDocuments = concatenated
        do {
            try parser.feed(bytes, inPiecesOf: pieceSize)
            let outcome = try parser.finish()
            transcript.lines.append("outcome \(outcome)")
        } catch let error as XMLParseError {
            transcript.lines.append(
                "error \(error.code) \(error.line):\(error.column)+\(error.byteOffset) \(error.elementPath) \(error.message) "
                    + "limit=\(error.limit.map(String.init) ?? "-") document=\(error.documentNumber.map(String.init) ?? "-")")
        } catch let error as HandlerError {
            transcript.lines.append(
                "handler error \(error.event) \(error.line):\(error.column)+\(error.byteOffset) \(error.elementPath) \(error.underlying)")
        } catch {
            transcript.lines.append("error \(error)")
        }
        return (transcript.lines, parser.engine.takesCatchAllPath)
    }
}

/// The transcript's handlers as a handler object, whose handlers the engine calls with the
/// object (``Route/StartHandler/object(_:_:)``).
final class ObjectRecorder: ElementHandlers {
    // Unowned, as the closures' captures are: the transcript may keep the root's context,
    // which keeps the parse, which keeps this object.
    unowned let transcript: CatchAllTranscript

    init(_ transcript: CatchAllTranscript) {
        self.transcript = transcript
    }

    static func registerHandlers(_ handlers: inout HandlerRegistry<ObjectRecorder>) {
        handlers.onAnyStart { try $0.transcript.start($1) }
        handlers.onAnyText { try $0.transcript.text($1, $2) }
    }
}
