#if canImport(Glibc)
import Glibc
#endif

/// The parallel reader's oracle: records read on two workers, in ranges as small as the
/// framer allows, in document order and as they complete (put in order by their numbers),
/// are the records one sequential parse delivers, with the same first error.
/// The input here is read once, in pieces: a run that ends in expat's memory budget is
/// compared by ``checkParallelMemoryBudget``, on bytes that can be read again, where the
/// budget holds to the byte. (A part of a document read on its own, ``checkByteRanges``,
/// counts the amplification ratios from its own start.)
func checkParallel(_ document: [UInt8], _ profile: SafetyProfile, rangeBytes: Int) {
    guard let name = recordName(document, profile) else { return }
    let record = XMLRecord(ElementPattern(name: name), .markup(".", whitespace: .preserve)) { $0 }.onFailure(.skip)
    func read(workers: Int?) -> (models: [String], error: (any Error)?) {
        var models: [String] = []
        do {
            if let workers {
                try record.forEach(in: piecewise(document), workers: workers, rangeBytes: rangeBytes, safety: profile) {
                    models.append($0)
                }
            } else {
                try record.forEach(in: .bytes(document), safety: profile) { models.append($0) }
            }
            return (models, nil)
        } catch {
            return (models, error)
        }
    }
    /// Records as they complete, put in order by their numbers; numbers that are not 0, 1,
    /// 2… each once are an error of their own.
    func readAsCompleted() -> (models: [String], error: (any Error)?) {
        let numbered = LockedValue<[(Int, String)]>([])
        var failure: (any Error)?
        do {
            try record.forEachAsCompleted(in: piecewise(document), workers: 2, rangeBytes: rangeBytes, safety: profile) {
                number, model in numbered.withLock { $0.append((number, model)) }
            }
        } catch {
            failure = error
        }
        let sorted = numbered.withLock { $0 }.sorted { $0.0 < $1.0 }
        if sorted.map(\.0) != Array(sorted.indices) { return (sorted.map(\.1), NumberingError(numbers: sorted.map(\.0))) }
        return (sorted.map(\.1), failure)
    }
    let sequential = read(workers: nil)
    let parallel = read(workers: 2)
    let completed = readAsCompleted()
    checkParallelMemoryBudget(document, record, profile, rangeBytes: rangeBytes)
    for error in [sequential.error, parallel.error, completed.error] {
        if let error = error as? XMLParseError, error.code == .memoryLimitExceeded { return }
    }
    let sameError = "\(sequential.error.map { "\($0)" } ?? "none")" == "\(parallel.error.map { "\($0)" } ?? "none")"
    if sequential.error == nil { checkByteRanges(document, record, profile, sequential.models, cut: rangeBytes * 7) }
    checkHandlerSets(document, profile, rangeBytes: rangeBytes)
    let sameErrorAsCompleted =
        "\(sequential.error.map { "\($0)" } ?? "none")" == "\(completed.error.map { "\($0)" } ?? "none")"
    guard sequential.models != parallel.models || !sameError || sequential.models != completed.models || !sameErrorAsCompleted
    else { return }
    var report = "=== records of `\(name)` on two workers (ranges of \(rangeBytes) bytes) differ from one parse of "
    report += "\(String(decoding: document, as: UTF8.self).debugDescription)\n"
    report += "sequential: \(sequential.models.count) records, error \(sequential.error.map { "\($0)" } ?? "none")\n"
    report += "parallel: \(parallel.models.count) records, error \(parallel.error.map { "\($0)" } ?? "none")\n"
    report += "as completed: \(completed.models.count) records, error \(completed.error.map { "\($0)" } ?? "none")\n"
    _ = report.utf8CString.withUnsafeBytes { write(2, $0.baseAddress, $0.count - 1) }
    abort()
}

/// With a memory limit small enough for the document's names and buffer to reach, the
/// records read on workers from bytes in memory are one parse's, with the same first error
/// (expat's memory budget holds over the whole document, read again when it may break).
func checkParallelMemoryBudget(
    _ document: [UInt8], _ record: XMLRecord<String>, _ profile: SafetyProfile, rangeBytes: Int
) {
    var limited = profile
    limited.maximumParserMemoryBytes = .atMost(12 << 10 + (document.count &* 37) % (96 << 10))
    func read(workers: Int?) -> String {
        var models: [String] = []
        do {
            if let workers {
                try record.forEach(in: .bytes(document), workers: workers, rangeBytes: rangeBytes, safety: limited) {
                    models.append($0)
                }
            } else {
                try record.forEach(in: .bytes(document), safety: limited) { models.append($0) }
            }
            return "\(models) none"
        } catch {
            return "\(models) \(error)"
        }
    }
    let sequential = read(workers: nil)
    let parallel = read(workers: 2)
    guard sequential != parallel else { return }
    var report = "=== records on two workers under a memory limit of \(limited.maximumParserMemoryBytes) differ from one parse of "
    report += "\(String(decoding: document, as: UTF8.self).debugDescription)\n"
    report += "sequential: \(sequential)\nparallel: \(parallel)\n"
    _ = report.utf8CString.withUnsafeBytes { write(2, $0.baseAddress, $0.count - 1) }
    abort()
}

/// The local name of the document's second element, the record the oracle reads: it
/// repeats in most documents that have any.
func recordName(_ document: [UInt8], _ profile: SafetyProfile) -> String? {
    var names: [String] = []
    var dispatcher = Dispatcher()
    dispatcher.safety = profile
    dispatcher.onAnyStart { element in
        names.append(element.localName)
        if names.count == 2 { element.stopParsing() }
    }
    _ = try? dispatcher.parse(.bytes(document))
    return names.count == 2 ? names[1] : nil
}

/// Byte ranges cut anywhere read every record once: the records that begin before `cut`
/// and those from `cut` on are, together, one parse's records of a well-formed document.
func checkByteRanges(_ document: [UInt8], _ record: XMLRecord<String>, _ profile: SafetyProfile, _ expected: [String], cut: Int) {
    let cut = document.isEmpty ? 0 : cut % (document.count + 1)
    var joined: [String] = []
    var failure: (any Error)?
    do {
        try record.forEach(in: .bytes(document), startingIn: 0..<cut, safety: profile) { joined.append($0) }
        try record.forEach(in: .bytes(document), startingIn: cut..<Int.max, safety: profile) { joined.append($0) }
    } catch {
        failure = error
    }
    if let error = failure as? XMLParseError, [.memoryLimitExceeded, .amplificationLimitBreach].contains(error.code) { return }
    guard joined != expected || failure != nil else { return }
    var report = "=== the records before byte \(cut) and from it on differ from one parse of "
    report += "\(String(decoding: document, as: UTF8.self).debugDescription)\n"
    report += "one parse: \(expected.count) records; ranges: \(joined.count), error \(failure.map { "\($0)" } ?? "none")\n"
    _ = report.utf8CString.withUnsafeBytes { write(2, $0.baseAddress, $0.count - 1) }
    abort()
}

/// A handler set per range sees one parse's elements, each once, and the same first error.
func checkHandlerSets(_ document: [UInt8], _ profile: SafetyProfile, rangeBytes: Int) {
    final class Seen { var starts: [String] = [] }
    func read(workers: Int) -> (starts: [String], error: String?, counted: Bool) {
        var starts: [String] = []
        do {
            try Dispatcher.parse(piecewise(document), workers: workers, rangeBytes: rangeBytes) { range, handlers in
                let seen = Seen()
                handlers.safety = profile
                handlers.onAnyStart { element in
                    if range.owns(element) { seen.starts.append("\(element.path)@\(element.byteOffset) \(element.line):\(element.column)") }
                }
                return { seen.starts }
            } merge: { starts += $0 }
            return (starts, nil, false)
        } catch {
            let code = (error as? XMLParseError)?.code
            return (starts, "\(error)", code == .memoryLimitExceeded)
        }
    }
    let sequential = read(workers: 1)
    let parallel = read(workers: 2)
    // Read once, in pieces, a read in ranges that the memory budget ends may end earlier
    // than one parse (the rest's budget is charged for the names before it).
    if sequential.counted || parallel.counted { return }
    guard sequential.starts != parallel.starts || sequential.error != parallel.error else { return }
    var report = "=== handler sets on two workers (ranges of \(rangeBytes) bytes) differ from one parse of "
    report += "\(String(decoding: document, as: UTF8.self).debugDescription)\n"
    report += "sequential: \(sequential.starts.count) starts, error \(sequential.error ?? "none")\n"
    report += "parallel: \(parallel.starts.count) starts, error \(parallel.error ?? "none")\n"
    _ = report.utf8CString.withUnsafeBytes { write(2, $0.baseAddress, $0.count - 1) }
    abort()
}

/// `document` read 7 bytes at a time, so that the parallel reader sees many reads, after
/// the first of which it finds cuts by looking ahead rather than framing.
func piecewise(_ document: [UInt8]) -> XMLInput {
    struct Pieces: XMLInputReader {
        let bytes: [UInt8]
        var offset = 0
        mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            let count = min(buffer.count, 7, bytes.count - offset)
            bytes.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + count)])) }
            offset += count
            return count
        }
    }
    return .reader(name: "<bytes>") { Pieces(bytes: document) }
}

/// Numbers of records delivered as they complete that are not 0, 1, 2… each once.
struct NumberingError: Error, CustomStringConvertible {
    let numbers: [Int]
    var description: String { "numbers \(numbers)" }
}
