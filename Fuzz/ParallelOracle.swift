#if canImport(Glibc)
import Glibc
#endif

/// The parallel reader's oracle: records read on two workers, in ranges as small as the
/// framer allows, are the records one sequential parse delivers, with the same first error.
/// Limits that count over the whole document (expat's memory budget, the amplification
/// ratios) are counted per range on workers, as the article says: a run that ends in one
/// of those is not compared.
func checkParallel(_ document: [UInt8], _ profile: SafetyProfile, rangeBytes: Int) {
    guard let name = recordName(document, profile) else { return }
    let record = XMLRecord(ElementPattern(name: name), .markup(".", whitespace: .preserve)) { $0 }.onFailure(.skip)
    func read(workers: Int?) -> (models: [String], error: (any Error)?) {
        var models: [String] = []
        do {
            if let workers {
                try record.forEach(in: .bytes(document), workers: workers, rangeBytes: rangeBytes, safety: profile) {
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
    let sequential = read(workers: nil)
    let parallel = read(workers: 2)
    let counted: Set<XMLParseError.Code> = [.memoryLimitExceeded, .amplificationLimitBreach]
    for error in [sequential.error, parallel.error] {
        if let error = error as? XMLParseError, counted.contains(error.code) { return }
    }
    let sameError = "\(sequential.error.map { "\($0)" } ?? "none")" == "\(parallel.error.map { "\($0)" } ?? "none")"
    guard sequential.models != parallel.models || !sameError else { return }
    var report = "=== records of `\(name)` on two workers (ranges of \(rangeBytes) bytes) differ from one parse of "
    report += "\(String(decoding: document, as: UTF8.self).debugDescription)\n"
    report += "sequential: \(sequential.models.count) records, error \(sequential.error.map { "\($0)" } ?? "none")\n"
    report += "parallel: \(parallel.models.count) records, error \(parallel.error.map { "\($0)" } ?? "none")\n"
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
