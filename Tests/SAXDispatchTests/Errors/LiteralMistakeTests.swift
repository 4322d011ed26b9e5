import Foundation
import SAXDispatch
import Testing

/// A mistake in a literal written in code stops the program, saying which literal and
/// why: through `fatalError`, whose message every build configuration keeps (an optimized
/// build drops a `precondition`'s). Each case runs in a process of its own.
@Suite("Errors: an invalid literal stops the program with its message")
struct LiteralMistakeTests {
    /// The text the child process wrote on standard error.
    static func standardError(_ result: ExitTest.Result?) -> String {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    @Test("a pattern literal: the literal, the column, the reason, and the throwing way in")
    func patternLiteral() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var dispatcher = Dispatcher()
            dispatcher.onStart("a//") { _ in }
        }
        let message = Self.standardError(result)
        #expect(message.contains(#"invalid pattern "a//" at column 4: a step name or '*' was expected, not the end"#), "\(message)")
        #expect(message.contains("the string literal \"a//\" is not an ElementPattern"), "\(message)")
        #expect(message.contains("try ElementPattern(_:)"), "\(message)")
    }

    @Test("a field path literal, also through a field constructor")
    func fieldPathLiteral() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = RecordField<String>.text("/zoo/name")
        }
        let message = Self.standardError(result)
        #expect(message.contains(#"invalid field path "/zoo/name": paths are relative to the record; drop the leading '/'"#), "\(message)")
        #expect(message.contains("the string literal \"/zoo/name\" is not a RecordFieldPath"), "\(message)")
        #expect(message.contains("try RecordFieldPath(_:)"), "\(message)")
    }

    @Test("namespace bindings written as a dictionary literal")
    func bindingsLiteral() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let bindings: NamespaceBindings = ["a": ""]
            _ = bindings
        }
        let message = Self.standardError(result)
        #expect(message.contains("invalid namespace binding a=: the prefix 'a' cannot be bound to the empty URI"), "\(message)")
        #expect(message.contains("the dictionary literal is not valid NamespaceBindings"), "\(message)")
        #expect(message.contains("try NamespaceBindings(_:)"), "\(message)")
    }

    @Test("a nested record at a path that names no element")
    func nestedRecordAtAttribute() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let inner = XMLRecord("b", .text("c")) { $0 }
            _ = try? XMLRecord("a", .record("@x", inner)) { $0 }.named("Outer").all(in: .string("<a x='1'/>"))
        }
        let message = Self.standardError(result)
        #expect(message.contains(#"a nested record needs an element path, not "@x" (field @x of record Outer)"#), "\(message)")
    }
}
