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
