import SAXDispatchTestSupport
import Testing

@testable import SAXDispatch

/// The parser owns the driver and the engine; what a handler kept may outlive it.
@Suite("Parse ownership: the driver and the engine")
struct ParseOwnershipTests {
    @Test("a context a handler kept keeps the driver it reads through alive after its parser is gone")
    func keptContextOutlivesParser() throws {
        var kept: ElementContext?
        var dispatcher = Dispatcher()
        dispatcher.onStart("b") { kept = $0 }
        weak var driver: ExpatDriver?
        do {
            let parser = PushParser(dispatcher)
            driver = parser.driver
            // The document is not finished: <a> and <b> stay open, so the context is valid.
            try parser.feed("<a>\n  <b>")
        }
        #expect(driver != nil)
        #expect(kept?.documentNumber == 1)
        #expect(kept?.name == "b")
        #expect(kept?.line == 2)
    }
}

/// A handler object that keeps its root element's context past the parse.
private final class KeepsRoot: ElementHandlers {
    var root: ElementContext?
    static func registerHandlers(_ handlers: inout HandlerRegistry<KeepsRoot>) {
        handlers.onAnyStart { object, element in if element.depth == 1 { object.root = element } }
    }
}

/// A handler object that keeps its root element's context through a pattern's handler.
private final class KeepsRootByPattern: ElementHandlers {
    var root: ElementContext?
    var ends = 0
    static func registerHandlers(_ handlers: inout HandlerRegistry<KeepsRootByPattern>) {
        handlers.onStart("r") { object, element in object.root = element }
        handlers.onEnd("a") { object, _ in object.ends += 1 }
    }
}

extension ParseOwnershipTests {
    /// A handler's state that keeps an `ElementContext` makes a cycle through the engine,
    /// which keeps the handlers: the parser breaks it when it goes, so that the engine
    /// (its expat parser, buffers and name table) lives only as long as the kept context.
    @Test(
        "a parse is freed once its parser and the kept context are gone",
        arguments: [false, true], [false, true])
    func keptContextDoesNotKeepTheParseForever(general: Bool, finished: Bool) throws {
        weak var engine: DispatchEngine?
        weak var object: KeepsRoot?
        do {
            let keeper = KeepsRoot()
            object = keeper
            var dispatcher = Dispatcher(handling: keeper)
            dispatcher.allowsCatchAllPath = !general
            let parser = PushParser(dispatcher)
            try parser.feed("<r><a/>")
            if finished {
                try parser.feed("</r>")
                #expect(try parser.finish() == .completed)
            }
            engine = parser.engine
            #expect(keeper.root?.name == "r")
        }
        #expect(object == nil, "the handler object outlives its parser and dispatcher")
        #expect(engine == nil, "the engine outlives its parser and every context kept")
    }

    @Test("a closure's captured context, a comment handler and a pattern's handler object do not keep the parse")
    func capturedContextsDoNotKeepTheParse() throws {
        weak var closureEngine: DispatchEngine?
        do {
            var kept: ElementContext?
            var dispatcher = Dispatcher()
            dispatcher.onStart("b") { kept = $0 }
            dispatcher.onComment { _ in _ = kept?.name }
            let parser = PushParser(dispatcher)
            try parser.feed("<a><b/><!-- c --></a>")
            _ = try parser.finish()
            closureEngine = parser.engine
            #expect(kept?.name == "b")
        }
        #expect(closureEngine == nil)

        weak var objectEngine: DispatchEngine?
        do {
            let keeper = KeepsRootByPattern()
            let parser = PushParser(Dispatcher(handling: keeper))
            try parser.feed("<r><!-- c --><a/></r>")
            _ = try parser.finish()
            objectEngine = parser.engine
            #expect(keeper.ends == 1)
        }
        #expect(objectEngine == nil)
    }

    @Test("a context kept past its parser still answers, and the handlers it no longer reaches are let go")
    func keptContextAnswersAfterHandlersAreLetGo() throws {
        let keeper = KeepsRoot()
        do {
            let parser = PushParser(Dispatcher(handling: keeper))
            try parser.feed("<r>\n<a/>")
        }
        let root = try #require(keeper.root)
        #expect(root.name == "r")
        #expect(root.line == 1)
        #expect(root.path == ElementPath(["r"]))
    }
}
