#if canImport(Glibc)
import Glibc
#endif

/// The writer's oracle: the input's bytes drive ``XMLWriter`` with calls of every kind,
/// valid or not (names from a small set with some that are not XML names, text made of
/// the input's bytes, namespaces, comments, processing instructions, CDATA sections, end
/// tags in and out of turn). Each call is written or refused; what was written must parse
/// (by expat, with namespaces) to exactly the events the accepted calls wrote, and a
/// refused call must leave the output as it was.
func checkWriter(_ input: UnsafeBufferPointer<UInt8>) {
    final class Collected: XMLOutputWriter, @unchecked Sendable {
        var bytes: [UInt8] = []
        func write(_ buffer: UnsafeRawBufferPointer) throws { bytes += buffer }
    }
    let collected = Collected()
    var output = XMLOutput.writer(name: "fuzz") { collected }
    output.chunkSize = 64
    let indentation: Int? = (input.first.map { $0 % 3 == 0 } ?? false) ? 1 : nil
    guard let writer = try? XMLWriter(to: output, options: XMLWriter.Options(indentation: indentation)) else { return }
    let names = ["a", "b", "p:c", "q:d", "ns1:e", "1x", "a b", "x:y:z", "é", "xml:lang", "xmlns", "xmlns:p", ""]
    let uris = [nil, "", "urn:p", "urn:q", "http://www.w3.org/XML/1998/namespace", "http://www.w3.org/2000/xmlns/"]
    /// The events the accepted calls wrote, as a namespace-aware parse reports them.
    var expected: [String] = []
    var open: [String] = []
    var pendingText = ""
    func flushText() {
        if !pendingText.isEmpty { expected.append("text \(pendingText)") }
        pendingText = ""
    }
    var index = 1
    func next() -> Int {
        defer { index += 1 }
        return index < input.count ? Int(input[index]) : 0
    }
    func text(_ length: Int) -> String {
        var bytes: [UInt8] = []
        for _ in 0..<length { bytes.append(UInt8(truncatingIfNeeded: next())) }
        return String(decoding: bytes, as: UTF8.self)
    }
    /// Runs `call`; `true` when it wrote, after checking a refusal wrote nothing.
    func attempt(_ call: () throws -> Void) -> Bool {
        let before = collected.bytes.count
        let gathered = (try? writer.flush()) != nil
        let flushed = collected.bytes.count
        do {
            try call()
            return true
        } catch is XMLWriterError {
            if gathered { _ = try? writer.flush() }
            if collected.bytes.count != flushed || flushed < before { fail("a refused call wrote \(collected.bytes.count - flushed) bytes") }
            return false
        } catch {
            fail("not an XMLWriterError: \(error)")
        }
    }
    func fail(_ message: String) -> Never {
        let report = "=== writer oracle: \(message)\noutput: \(String(decoding: collected.bytes, as: UTF8.self).debugDescription)\n"
        _ = report.utf8CString.withUnsafeBytes { write(2, $0.baseAddress, $0.count - 1) }
        abort()
    }
    while index < input.count && index < 400 {
        switch next() % 8 {
        case 0, 1:
            let name = names[next() % names.count]
            let uri = uris[next() % uris.count]
            let attributeName = names[next() % names.count]
            let value = text(next() % 4)
            let attributes: KeyValuePairs<String, String> = next() % 2 == 0 ? [:] : [attributeName: value]
            var written = false
            if attributes.isEmpty {
                written = attempt { try writer.startElement(name, namespace: uri) }
            } else {
                written = attempt { try writer.startElement(name, namespace: uri, attributes: attributes) }
            }
            if written {
                flushText()
                expected.append("start")
                open.append(name)
            }
        case 2:
            let name = names[next() % names.count]
            let uri = uris[next() % uris.count]
            let value = text(next() % 4)
            _ = attempt { try writer.attribute(name, namespace: uri, value: value) }
        case 3:
            let piece = text(next() % 6)
            if attempt({ try writer.text(piece) }) && !open.isEmpty { pendingText += piece }
        case 4:
            let piece = text(next() % 6)
            if attempt({ try writer.cdata(piece) }) { pendingText += piece }
        case 5:
            let piece = text(next() % 4)
            _ = attempt { try writer.comment(piece) }
        case 6:
            let target = ["pi", "xml", "p:q", "x"][next() % 4]
            let data = text(next() % 4)
            _ = attempt { try writer.processingInstruction(target, data) }
        default:
            let checksName = next() % 2 == 0
            let name = checksName ? names[next() % names.count] : nil
            if attempt({ try writer.endElement(name) }) {
                flushText()
                expected.append("end \(open.removeLast())")
            }
        }
    }
    while !open.isEmpty {
        guard attempt({ try writer.endElement() }) else { fail("an open element could not be ended") }
        flushText()
        expected.append("end \(open.removeLast())")
    }
    guard attempt({ try writer.finish() }) else { return }

    // The output parses, to the events written.
    var parsed: [String] = []
    var parsedText = ""
    var dispatcher = Dispatcher()
    func flushParsed() {
        if !parsedText.isEmpty { parsed.append("text \(parsedText)") }
        parsedText = ""
    }
    var names_: [String] = []
    dispatcher.onAnyStart { element in
        flushParsed()
        parsed.append("start")
        names_.append(element.name)
    }
    dispatcher.onAnyText { _, chunk in parsedText += chunk.string }
    dispatcher.onAnyEnd { element in
        flushParsed()
        parsed.append("end \(names_.removeLast())")
    }
    do {
        try dispatcher.parse(.bytes(collected.bytes))
    } catch {
        fail("the output does not parse: \(error)")
    }
    // End events name the elements as the writer was given them; a parse names them as
    // written, which may carry a prefix the writer chose: compare local names.
    // Prefixes are compared as bytes: text may begin with a combining mark, which makes one
    // character of the space before it.
    func local(_ event: String) -> String {
        guard event.utf8.starts(with: "end ".utf8) else { return event }
        return "end " + (event.utf8.dropFirst(4).split(separator: UInt8(ascii: ":")).last.map { String(decoding: $0, as: UTF8.self) } ?? "")
    }
    // Indentation adds white space before markup while an element has no text yet, which
    // text written after it joins: indented, the elements are compared, not the text.
    func kept(_ event: String) -> Bool { indentation == nil || !event.utf8.starts(with: "text ".utf8) }
    let normalizedExpected = expected.filter(kept).map(local)
    let normalizedParsed = parsed.filter(kept).map(local)
    if normalizedExpected != normalizedParsed {
        fail("written \(normalizedExpected) but parsed \(normalizedParsed)")
    }
}
