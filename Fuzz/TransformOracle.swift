#if canImport(Glibc)
import Glibc
#endif

/// The transform's oracle: a document that a namespace-aware parse reads, copied through an
/// `XMLTransform` with no rule, must read back (with namespaces) as the same events —
/// names by URI, attributes, text, comments, processing instructions — and copied with a
/// `drop` rule, as the same events without the dropped subtrees, and with a rule renaming
/// those elements and one removing an attribute in no namespace from every element, as the
/// same events with the new local name and without the attribute. A document that does not
/// parse must end the transform with an error too.
func checkTransform(_ document: [UInt8], profile: SafetyProfile, dropped: String, stripped: String) {
    final class Collected: XMLOutputWriter, @unchecked Sendable {
        var bytes: [UInt8] = []
        func write(_ buffer: UnsafeRawBufferPointer) throws { bytes += buffer }
    }
    /// The events of a parse with namespaces, text coalesced; those inside an element named
    /// `skipping` (as written, unprefixed) left out, or with `edits`, such elements given the
    /// local name `renamed` and the attribute `edits` named left out; nil when the parse fails.
    func events(_ bytes: [UInt8], skipping: String?, limits: SafetyProfile, edits: (renaming: String, stripping: String)? = nil)
        -> [String]?
    {
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
            let attributes = element.attributes.filter { $0.namespaceURI != nil || $0.localName != edits?.stripping }
                .map { "{\($0.namespaceURI ?? "")}\($0.localName)=\($0.value.debugDescription)" }
            let localName = edits != nil && element.name == edits?.renaming ? "renamed" : element.localName
            lines.append("start {\(element.namespaceURI ?? "")}\(localName) \(attributes.sorted())")
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
    // No rule, a drop, and (`edits`) a rename with an attribute removed.
    for (rule, edits) in [(nil, false), (dropped, false), (dropped, true)] {
        let label = edits ? "rename \(dropped), strip \(stripped)" : "drop \(rule ?? "-")"
        let expected =
            rule == nil
            ? original
            : events(document, skipping: edits ? nil : rule, limits: profile, edits: edits ? (dropped, stripped) : nil)
        // A dropped root leaves no document: the run ends with the writer's error.
        let leavesRoot = expected?.contains { $0.hasPrefix("start") } ?? false
        let collected = Collected()
        var output = XMLOutput.writer(name: "fuzz") { collected }
        output.chunkSize = 64
        var transform = XMLTransform()
        transform.safety = profile
        if let rule, edits {
            transform.rename(ElementPattern(stringLiteral: rule), to: "renamed")
            transform.removeAttribute(stripped)
        } else if let rule {
            transform.drop(ElementPattern(stringLiteral: rule))
        }
        do {
            try transform.run(.bytes(document), to: output)
        } catch {
            if original != nil && leavesRoot {
                fail("a document that parses failed to copy (\(label)): \(error)", collected.bytes)
            }
            continue
        }
        // A drop skips its subtrees, where limits the whole parse broke may lie: no verdict.
        guard original != nil else {
            if rule == nil || edits { fail("a document that does not parse was copied (\(label))", collected.bytes) }
            continue
        }
        // The copy is read without the input's limits: it may be longer (escapes, declarations).
        guard let copied = events(collected.bytes, skipping: nil, limits: .default) else {
            fail("the copy does not parse", collected.bytes)
        }
        if copied != expected {
            let common = zip(copied, expected ?? []).prefix { $0 == $1 }.count
            fail("\(label): copy \(copied.dropFirst(common).prefix(3)) original \((expected ?? []).dropFirst(common).prefix(3))", collected.bytes)
        }
    }
}
