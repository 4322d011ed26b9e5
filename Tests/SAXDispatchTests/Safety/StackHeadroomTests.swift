import Foundation
import SAXDispatch
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The stack a parse needs, documented in the Safety profiles article and SECURITY.md:
/// under the default profile, the deepest recursion a document can cause in expat (an
/// entity chain as long as the entity-declaration cap allows, in text and in an attribute
/// value, inside elements nested to the depth limit) fits in a thread of 128 KiB.
@Suite("Stack headroom under the default profile")
struct StackHeadroomTests {
    /// The smallest thread stack the documentation promises a parse runs on.
    static let promisedStackBytes = 128 * 1024

    /// A chain of `links` entities, each referring to the next, used in text and in an
    /// attribute value, inside `depth` nested elements.
    static func chain(links: Int, depth: Int) -> String {
        var document = "<!DOCTYPE r ["
        for link in 1..<links { document += "<!ENTITY e\(link) \"&e\(link + 1);\">" }
        document += "<!ENTITY e\(links) \"end\">]>"
        document += String(repeating: "<r a=\"&e1;\">", count: depth) + "&e1;" + String(repeating: "</r>", count: depth)
        return document
    }

    final class Outcome: @unchecked Sendable {
        var text = ""
        var attribute = ""
        var error: (any Error)?
    }

    /// Runs `body` on a new thread with a stack of `bytes` and waits for it.
    static func onThread(stackBytes bytes: Int, _ body: @escaping @Sendable () -> Void) throws {
        final class Box: @unchecked Sendable {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        try #require(pthread_attr_setstacksize(&attributes, bytes) == 0)
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let created = pthread_create(
            &thread, &attributes,
            { context in
                #if canImport(Darwin)
                let box = Unmanaged<Box>.fromOpaque(context).takeRetainedValue()
                #else
                guard let context else { return nil }
                let box = Unmanaged<Box>.fromOpaque(context).takeRetainedValue()
                #endif
                box.body()
                return nil
            }, context)
        try #require(created == 0)
        #if canImport(Darwin)
        if let thread { pthread_join(thread, nil) }
        #else
        pthread_join(thread, nil)
        #endif
    }

    @Test("the longest entity chain the default profile allows, in text and attributes at the depth limit, on a 128 KiB stack")
    func longestChainOnSmallStack() throws {
        let links = SafetyProfile.default.maximumEntityDeclarations.value ?? 256
        let depth = (SafetyProfile.default.maximumDepth.value ?? 256) - 1
        let document = Self.chain(links: links, depth: depth)
        let outcome = Outcome()
        try Self.onThread(stackBytes: Self.promisedStackBytes) {
            var dispatcher = Dispatcher()
            dispatcher.onStart("r") { element in outcome.attribute = element.attributes["a"] ?? "" }
            dispatcher.onEnd("r") { _, text in if outcome.text.isEmpty { outcome.text = text } }
            do { try dispatcher.parse(.string(document)) } catch { outcome.error = error }
        }
        #expect(outcome.error == nil)
        #expect(outcome.text == "end")
        #expect(outcome.attribute == "end")
    }

    @Test("a chain one link longer than the cap is refused before expat expands it")
    func chainPastTheCap() throws {
        let links = (SafetyProfile.default.maximumEntityDeclarations.value ?? 256) + 1
        let error = #expect(throws: XMLParseError.self) { try Dispatcher().parse(.string(Self.chain(links: links, depth: 1))) }
        #expect(error?.code == .entityLimitExceeded)
    }
}
