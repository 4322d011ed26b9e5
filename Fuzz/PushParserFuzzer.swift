// libFuzzer entry point: the push API must deliver the same events and end the same
// way however the input is split. Built and run by `Scripts/fuzz`, not by SwiftPM.
//
// Input layout: byte 0 picks the profile (bits 0-1) and the file-descriptor chunk size
// (bits 2-7); byte 1 the number of split points (bits 0-3), whether the document is
// re-encoded as UTF-16 without a byte order mark (bits 4-5: no, little-endian,
// big-endian) and the token limit (bits 6-7: the profile's, or a small one); then two
// bytes (little-endian) per split point, then the document. Seeds made by `Scripts/fuzz`
// start with two zero bytes; the regression inputs in `Fuzz/Regressions` carry their own.
// With an odd number of split points, the document is also written twice in a row and
// read as concatenated documents, whole, split and through the readers, as a second check.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One parse's events, one line each; text is merged until the next event.
final class EventLog {
    var lines: [String] = []
    var pendingText = ""
    var unfinishedText = ""
    var error: XMLParseError?

    func dispatcher(_ profile: SafetyProfile) -> Dispatcher {
        var dispatcher = Dispatcher()
        dispatcher.safety = profile
        for name in ["a", "b", "name"] {
            dispatcher.onStart(ElementPattern(name: name)) { [unowned self] in record("start[named] \($0.path) \($0.line):\($0.column)") }
            dispatcher.onEnd(ElementPattern(name: name), whitespace: .collapse) { [unowned self] in record("end[named] \($0.name) \($1.debugDescription)") }
        }
        // Path patterns, attribute tests and skipping take part too.
        dispatcher.onEnd("a//b[@k]/*") { [unowned self] in record("end[pattern] \($0.path) \($1.debugDescription)") }
        // Namespaces: a bound prefix, a Clark name, an unbound prefix; whole text and markup.
        dispatcher.namespaces = ["p": "urn:p"]
        dispatcher.onStart("p:a[@p:k]") { [unowned self] in record("start[ns] \($0.expandedName) \($0.prefix ?? "-")") }
        dispatcher.onEnd("{urn:q}b", text: .whole) { [unowned self] in record("end[whole] \($0.path) \($1.debugDescription)") }
        dispatcher.onEnd("q:c", text: .whole, whitespace: .collapse) { [unowned self] in record("end[q:c] \($1.debugDescription)") }
        dispatcher.onRecord(XMLRecord("m", .markup("."), .outerMarkup("n")) { "\($0)|\($1)" }.onFailure(.skip)) { [unowned self] in
            record("record \($0.debugDescription)")
        }
        dispatcher.onStart("s") { [unowned self] in
            record("skip \($0.path)")
            $0.skipSubtree()
        }
        // A mounted set with its own catch-all, and retained ancestor attributes.
        var set = Dispatcher()
        set.onStart(.mountPoint) { [unowned self] in record("mounted \($0.path)") }
        set.onEnd("/c") { [unowned self] in record("mounted /c \($0.path) \($1.debugDescription)") }
        set.onAnyEnd { [unowned self] in record("mounted any \($0.path) \($0.ancestorAttribute("k") ?? "-")") }
        dispatcher.mount(set, at: "b[@k]")
        dispatcher.retainAttributes("k", of: "*")
        dispatcher.onAnyStart { [unowned self] element in
            let attributes = element.attributes.map { "\($0.name)=\($0.value.debugDescription)\($0.isDefaulted ? "*" : "")" }
            record("start \(element.path) \(element.line):\(element.column)+\(element.byteOffset) \(attributes)")
        }
        dispatcher.onAnyText { [unowned self] _, chunk in pendingText += chunk.string }
        dispatcher.onAnyEnd(whitespace: .preserve) { [unowned self] in record("end \($0.name) \($1.debugDescription)") }
        dispatcher.onComment { [unowned self] in record("comment \($0.debugDescription)") }
        dispatcher.onProcessingInstruction { [unowned self] in record("pi \($0) \($1.debugDescription)") }
        dispatcher.onDoctype { [unowned self] in record("doctype \($0.name) \($0.hasInternalSubset)") }
        return dispatcher
    }

    func record(_ line: String) {
        if !pendingText.isEmpty {
            lines.append("text \(pendingText.debugDescription)")
            pendingText = ""
        }
        lines.append(line)
    }

    func end(_ result: Result<ParseOutcome, any Error>) {
        switch result {
        case .success(let outcome):
            record("outcome \(outcome)")
        case .failure(let error as XMLParseError):
            self.error = error
            unfinishedText = pendingText
            pendingText = ""
            let document = error.documentNumber.map { " document \($0)" } ?? ""
            lines.append("error \(error.code) \(error.line):\(error.column)+\(error.byteOffset) \(error.elementPath)\(document)")
        case .failure(let error):
            lines.append("unexpected error \(error)")
        }
    }
}

/// Small limits, so that every violation path is reachable from a few kilobytes. (The
/// heap limit stays at its default: how much expat holds at once depends on the split
/// points by design.)
let tightProfile: SafetyProfile = {
    var profile = SafetyProfile.default
    profile.maximumDepth = 6
    profile.maximumAttributes = 3
    profile.maximumNameBytes = 12
    profile.maximumTokenBytes = 100
    profile.maximumTextBytes = 40
    profile.maximumCollectedTextBytes = 60
    profile.maximumEntityDeclarations = 3
    profile.maximumAmplification = 20
    profile.amplificationActivationBytes = 1024
    return profile
}()

/// Token limits a run may use instead of its profile's: small ones, and one just past the
/// size at which the driver starts to hold input back.
let tokenLimits: [SafetyProfile.Limit?] = [nil, 17, 64, 1025]

/// The document as BOM-less UTF-16: each byte becomes a code unit, except that a byte
/// from D8 to DF takes the next byte with it, so that surrogates, paired or not, occur.
func utf16(_ document: [UInt8], bigEndian: Bool) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(document.count * 2)
    var index = 0
    while index < document.count {
        var unit = UInt16(document[index])
        if (0xD8...0xDF).contains(document[index]) && index + 1 < document.count {
            unit = unit << 8 | UInt16(document[index + 1])
            index += 1
        }
        index += 1
        result += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
    }
    return result
}

func whole(_ document: [UInt8], _ profile: SafetyProfile, concatenated: Bool = false) -> EventLog {
    let log = EventLog()
    log.end(Result { try log.dispatcher(profile).parse(.bytes(document).concatenatedDocuments(concatenated)) })
    return log
}

func split(_ document: [UInt8], at points: [Int], _ profile: SafetyProfile, concatenated: Bool = false) -> EventLog {
    let log = EventLog()
    let parser = PushParser(log.dispatcher(profile))
    parser.readsConcatenatedDocuments = concatenated
    log.end(
        Result {
            var start = 0
            for point in points + [document.count] where point >= start {
                try parser.feed(document[start..<point])
                start = point
            }
            return try parser.finish()
        })
    return log
}

/// The file-descriptor path (expat's own buffer), through a pipe.
func throughPipe(_ document: [UInt8], chunkSize: Int, _ profile: SafetyProfile, concatenated: Bool = false) -> EventLog? {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { return nil }
    defer { close(ends[0]) }
    let written = document.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
    close(ends[1])
    guard written == document.count else { return nil }
    let log = EventLog()
    var input = XMLInput.fileDescriptor(ends[0]).concatenatedDocuments(concatenated)
    input.chunkSize = chunkSize
    log.end(Result { try log.dispatcher(profile).parse(input) })
    return log
}

/// Hands a document over in irregular reads that end at the split points (or where the
/// parser's buffer ends first).
struct IrregularReader: XMLInputReader {
    let document: [UInt8]
    let stops: [Int]
    var offset = 0

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let stop = stops.first { $0 > offset } ?? document.count
        let count = min(buffer.count, stop - offset)
        document.withUnsafeBytes { bytes in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)]))
        }
        offset += count
        return count
    }
}

/// The custom-reader path (expat's own buffer, filled by reads of any size).
func throughReader(
    _ document: [UInt8], at points: [Int], chunkSize: Int, _ profile: SafetyProfile, concatenated: Bool = false
) -> EventLog {
    let log = EventLog()
    var input = XMLInput.reader(name: "fuzz") { IrregularReader(document: document, stops: points) }
        .concatenatedDocuments(concatenated)
    input.chunkSize = chunkSize
    log.end(Result { try log.dispatcher(profile).parse(input) })
    return log
}

func compare(_ expected: EventLog, _ actual: EventLog, _ what: String, _ document: [UInt8]) {
    let unfinishedAgrees =
        // Compared by UTF-8 bytes: a run cut short before a combining mark ends on a
        // character that the longer run's text extends, so it is no prefix by characters.
        expected.unfinishedText.utf8.starts(with: actual.unfinishedText.utf8)
        || actual.unfinishedText.utf8.starts(with: expected.unfinishedText.utf8)
    guard expected.lines != actual.lines || !unfinishedAgrees else { return }
    var report = "=== \(what) differs from the whole-buffer parse of "
    report += "\(String(decoding: document, as: UTF8.self).debugDescription)\n"
    let common = zip(expected.lines, actual.lines).prefix { $0 == $1 }.count
    report += "common prefix: \(common) lines\n"
    report += "whole: \(expected.lines.dropFirst(common).prefix(5)) unfinished \(expected.unfinishedText.debugDescription)\n"
    report += "\(what): \(actual.lines.dropFirst(common).prefix(5)) unfinished \(actual.unfinishedText.debugDescription)\n"
    _ = report.utf8CString.withUnsafeBytes { write(2, $0.baseAddress, $0.count - 1) }
    abort()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let input = UnsafeBufferPointer(start: data, count: size)
    var profile = [SafetyProfile.default, .strict, tightProfile, .default][Int(input[0] & 3)]
    if let tokenLimit = tokenLimits[Int(input[1] >> 6)] { profile.maximumTokenBytes = tokenLimit }
    let chunkSize = 1 + Int(input[0] >> 2) * 3
    let pointCount = Int(input[1] & 15)
    let headerSize = 2 + 2 * pointCount
    guard size >= headerSize else { return 0 }
    var document = Array(input[headerSize...])
    switch (input[1] >> 4) & 3 {
    case 1: document = utf16(document, bigEndian: false)
    case 2: document = utf16(document, bigEndian: true)
    default: break
    }
    let points = (0..<pointCount).map { index in
        let raw = Int(input[2 + 2 * index]) | Int(input[3 + 2 * index]) << 8
        return document.isEmpty ? 0 : raw % (document.count + 1)
    }.sorted()

    let expected = whole(document, profile)
    compare(expected, split(document, at: points, profile), "split at \(points)", document)
    compare(expected, split(document, at: Array(0...document.count), profile), "fed byte by byte", document)
    if let piped = throughPipe(document, chunkSize: chunkSize, profile) {
        compare(expected, piped, "read from a pipe by \(chunkSize)", document)
    }
    compare(
        expected, throughReader(document, at: points, chunkSize: chunkSize, profile),
        "read by \(chunkSize) in reads ending at \(points)", document)
    if document.count <= 8192 { checkParallel(document, profile, rangeBytes: 1 + chunkSize / 4) }
    checkWriter(input)
    if document.count <= 8192 {
        checkTransform(
            document, profile: profile, dropped: ["a", "b", "c", "x", "doc"][Int(input[0] >> 5) % 5],
            stripped: ["a", "id", "x", "b"][Int(input[0] >> 3) % 4])
    }
    if pointCount % 2 == 1 && document.count <= 4096 {
        let twice = document + document
        let expectedTwice = whole(twice, profile, concatenated: true)
        compare(expectedTwice, split(twice, at: points, profile, concatenated: true), "twice, split at \(points)", twice)
        compare(
            expectedTwice, split(twice, at: Array(0...twice.count), profile, concatenated: true), "twice, byte by byte",
            twice)
        if let piped = throughPipe(twice, chunkSize: chunkSize, profile, concatenated: true) {
            compare(expectedTwice, piped, "twice, from a pipe by \(chunkSize)", twice)
        }
        compare(
            expectedTwice, throughReader(twice, at: points, chunkSize: chunkSize, profile, concatenated: true),
            "twice, read by \(chunkSize) in reads ending at \(points)", twice)
    }
    return 0
}
