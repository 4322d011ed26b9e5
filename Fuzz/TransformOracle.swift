#if canImport(Glibc)
import Glibc
#endif

/// The transform's oracle: a document that a namespace-aware parse reads, copied through an
/// `XMLTransform` with no rule, must read back (with namespaces) as the same events —
/// names by URI, attributes, text, comments, processing instructions — and copied with a
/// `drop` rule, as the same events without the dropped subtrees. A document that does not
/// parse must end the transform with an error too.
func checkTransform(_ document: [UInt8], profile: SafetyProfile, dropped: String) {
    final class Collected: XMLOutputWriter, @unchecked Sendable {
        var bytes: [UInt8] = []
        func write(_ buffer: UnsafeRawBufferPointer) throws { bytes += buffer }
    }
    /// The events of a parse with namespaces, text coalesced; those inside an element named
    /// `skipping` (as written, unprefixed) left out; nil when the parse fails.
    func events(_ bytes: [UInt8], skipping: String?, limits: SafetyProfile) -> [String]? {
        var lines: [String] = []
        var text = ""
        var skipDepth = 0
        func flush() {
            if !text.isEmpty { lines.append("text \(text.debugDescription)") }
            text = ""
        }
        var dispatcher = Dispatcher()
        dispatcher.safety = limits
        // Text on either side of a skipped subtree is one piece in the copy.
        dispatcher.onAnyStart { element in
            if skipDepth > 0 || element.name == skipping {
                skipDepth += 1
                return
            }
            flush()
            let attributes = element.attributes.map { "{\($0.namespaceURI ?? "")}\($0.localName)=\($0.value.debugDescription)" }
            lines.append("start {\(element.namespaceURI ?? "")}\(element.localName) \(attributes.sorted())")
        }
        dispatcher.onAnyText { _, chunk in if skipDepth == 0 { text += chunk.string } }
        dispatcher.onAnyEnd { _ in
            if skipDepth > 0 {
                skipDepth -= 1
            } else {
                flush()
                lines.append("end")
            }
        }
        dispatcher.onComment { comment in
            guard skipDepth == 0 else { return }
            flush()
            lines.append("comment \(comment.debugDescription)")
        }
        dispatcher.onProcessingInstruction { target, data in
            guard skipDepth == 0 else { return }
            flush()
            lines.append("pi \(target) \(data.debugDescription)")
        }
        guard (try? dispatcher.parse(.bytes(bytes))) != nil else { return nil }
        return lines
    }
    func fail(_ message: String, _ output: [UInt8]) -> Never {
        let report = "=== transform oracle: \(message)\noutput: \(String(decoding: output, as: UTF8.self).debugDescription)\n"
        _ = report.utf8CString.withUnsafeBytes { write(2, $0.baseAddress, $0.count - 1) }
        abort()
    }
    let original = events(document, skipping: nil, limits: profile)
    for rule in [nil, dropped] {
        let expected = rule == nil ? original : events(document, skipping: rule, limits: profile)
        // A dropped root leaves no document: the run ends with the writer's error.
        let leavesRoot = expected?.contains { $0.hasPrefix("start") } ?? false
        let collected = Collected()
        var output = XMLOutput.writer(name: "fuzz") { collected }
        output.chunkSize = 64
        var transform = XMLTransform()
        transform.safety = profile
        if let rule { transform.drop(ElementPattern(stringLiteral: rule)) }
        do {
            try transform.run(.bytes(document), to: output)
        } catch {
            if original != nil && leavesRoot {
                fail("a document that parses failed to copy (drop \(rule ?? "-")): \(error)", collected.bytes)
            }
            continue
        }
        // A drop skips its subtrees, where limits the whole parse broke may lie: no verdict.
        guard original != nil else {
            if rule == nil { fail("a document that does not parse was copied", collected.bytes) }
            continue
        }
        // The copy is read without the input's limits: it may be longer (escapes, declarations).
        guard let copied = events(collected.bytes, skipping: nil, limits: .default) else {
            fail("the copy does not parse", collected.bytes)
        }
        if copied != expected {
            let common = zip(copied, expected ?? []).prefix { $0 == $1 }.count
            fail("drop \(rule ?? "-"): copy \(copied.dropFirst(common).prefix(3)) original \((expected ?? []).dropFirst(common).prefix(3))", collected.bytes)
        }
    }
}
