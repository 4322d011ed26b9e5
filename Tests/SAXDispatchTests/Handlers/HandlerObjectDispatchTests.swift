import SAXDispatch
import Testing

/// A handler object's handlers are registered with the object beside them
/// and get it back from the engine: these pin that every handler mutates its own object,
/// in the order closures keep, with the chain, skipping and errors as for closures.
@Suite("Handler objects: each handler gets its own object back")
struct HandlerObjectDispatchTests {
    struct Log: ElementHandlers {
        var entries: [String] = []

        static func registerHandlers(_ handlers: inout HandlerRegistry<Self>) {
            let mark = "!"  // captured: the handler is not a literal that captures nothing
            handlers.onStart("a") { log, element in log.entries.append("a1 \(element.name)") }
            handlers.onStart("a") { log, element in
                log.entries.append("a2\(mark)")
                if element.attributes["stop"] != nil { element.stopHandlerChain() }
            }
            handlers.onStart("a") { log, _ in log.entries.append("a3") }
            handlers.onStart("skip") { log, element in
                log.entries.append("skip")
                element.stopHandlerChain()
                element.skipSubtree()
            }
            handlers.onText("a") { log, _, chunk in log.entries.append("t1 \(chunk.string)") }
            handlers.onText("a") { log, element, chunk in
                log.entries.append("t2 \(chunk.string)")
                element.stopHandlerChain()
            }
            handlers.onText("a") { log, _, _ in log.entries.append("t3") }
            handlers.onAnyStart { log, element in log.entries.append("any \(element.name)") }
            handlers.onAnyText { log, element, chunk in log.entries.append("text \(element.name) \(chunk.string)") }
        }
    }

    @Test("handlers run in registration order; a single handler's stop does not reach the next chain")
    func orderAndChains() throws {
        var log = Log()
        try log.parse(.string("<r><skip><a>hidden</a></skip><a>x</a><a stop='1'/>y<b>z</b></r>"))
        #expect(
            log.entries == [
                "any r", "skip", "a1 a", "a2!", "a3", "t1 x", "t2 x", "a1 a", "a2!", "text r y", "any b", "text b z",
            ])
    }

    struct Ends: ElementHandlers {
        var entries: [String] = []

        static func registerHandlers(_ handlers: inout HandlerRegistry<Self>) {
            handlers.whitespace = .collapse
            handlers.onEnd("p") { ends, element in ends.entries.append("plain \(element.name)") }
            handlers.onEnd("p") { ends, _, text in ends.entries.append("own [\(text)]") }
            handlers.onEnd("p", whitespace: .preserve) { ends, element, text in
                ends.entries.append("kept [\(text)]")
                if text == "d" { element.stopHandlerChain() }
            }
            handlers.onEnd("p", text: .whole) { ends, _, text in ends.entries.append("whole [\(text)]") }
            handlers.onAnyEnd(text: .whole) { ends, element, text in ends.entries.append("any \(element.name) [\(text)]") }
        }
    }

    @Test("end handlers: each kind of text, the policy the registry set, the chain, and the catch-all, as closures get them")
    func endHandlers() throws {
        let document = "<r><p> a  <b>b</b> c </p><p>d</p></r>"
        var ends = Ends()
        try ends.parse(.string(document))
        #expect(
            ends.entries == [
                "any b [b]", "plain p", "own [a c]", "kept [ a   c ]", "whole [a b c]", "plain p", "own [d]", "kept [d]",
                "any r [a b c d]",
            ])

        var entries: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.whitespace = .collapse
        dispatcher.onEnd("p") { element in entries.append("plain \(element.name)") }
        dispatcher.onEnd("p") { _, text in entries.append("own [\(text)]") }
        dispatcher.onEnd("p", whitespace: .preserve) { element, text in
            entries.append("kept [\(text)]")
            if text == "d" { element.stopHandlerChain() }
        }
        dispatcher.onEnd("p", text: .whole) { _, text in entries.append("whole [\(text)]") }
        dispatcher.onAnyEnd(text: .whole) { element, text in entries.append("any \(element.name) [\(text)]") }
        try dispatcher.parse(.string(document))
        #expect(entries == ends.entries)
    }

    final class Tally: ElementHandlers {
        var starts = 0
        var textBytes = 0

        static func registerHandlers(_ handlers: inout HandlerRegistry<Tally>) {
            handlers.onAnyStart { tally, _ in tally.starts += 1 }
            handlers.onAnyText { tally, _, chunk in tally.textBytes += chunk.count }
        }
    }

    @Test("two objects of one type mounted side by side each count their own subtree")
    func mountedObjects() throws {
        let first = Tally()
        let second = Tally()
        var dispatcher = Dispatcher()
        dispatcher.mount(Dispatcher(handling: first), at: "/r/one")
        dispatcher.mount(Dispatcher(handling: second), at: "/r/two")
        var closureStarts = 0
        dispatcher.onAnyStart { _ in closureStarts += 1 }
        try dispatcher.parse(.string("<r><one><x>ab</x></one><two><y>cde</y><y/></two></r>"))
        #expect((first.starts, first.textBytes) == (1, 2))
        #expect((second.starts, second.textBytes) == (2, 3))
        #expect(closureStarts == 3)  // r, one and two: the mounted sets' catch-alls take the rest
    }

    struct Failing: ElementHandlers {
        struct Refused: Error, Equatable { var what: String }
        var seen = 0

        static func registerHandlers(_ handlers: inout HandlerRegistry<Self>) {
            handlers.onStart("bad") { failing, _ in throw Refused(what: "start \(failing.seen)") }
            handlers.onAnyStart { failing, _ in failing.seen += 1 }
            handlers.onText("worse") { failing, _, chunk in throw Refused(what: "text \(chunk.string)") }
            handlers.onEnd("worst") { failing, _, text in throw Refused(what: "end \(text)") }
        }
    }

    @Test("a start, text or end handler's error is wrapped as a closure's, and the value keeps its state")
    func errors() throws {
        var start = Failing()
        let startError = #expect(throws: HandlerError.self) { try start.parse(.string("<r><a/><bad/></r>")) }
        #expect(startError?.underlying as? Failing.Refused == Failing.Refused(what: "start 2"))
        #expect(startError?.elementPath == ["r", "bad"])
        #expect(start.seen == 2)

        var text = Failing()
        let textError = #expect(throws: HandlerError.self) { try text.parse(.string("<r>\n<worse>oh</worse></r>")) }
        #expect(textError?.underlying as? Failing.Refused == Failing.Refused(what: "text oh"))
        #expect(textError?.elementPath == ["r", "worse"])
        #expect(textError?.line == 2)
        #expect(text.seen == 1)  // r: a pattern matches `worse`, so the catch-all does not run there

        var end = Failing()
        let endError = #expect(throws: HandlerError.self) { try end.parse(.string("<r><a/><worst>ow</worst></r>")) }
        #expect(endError?.underlying as? Failing.Refused == Failing.Refused(what: "end ow"))
        #expect(endError?.elementPath == ["r", "worst"])
        #expect(end.seen == 2)
    }
}
