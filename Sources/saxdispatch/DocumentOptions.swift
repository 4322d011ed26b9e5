#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif
import ArgumentParser
import SAXDispatch
import SAXDispatchTools

/// The options every command that reads a document shares: the safety profile, how the
/// input is fed, and the progress display.
struct DocumentOptions: ParsableArguments {
    @Flag(help: "Reject a DOCTYPE with an internal subset (no entity declarations at all).")
    var strict = false

    @Option(
        name: .customLong("limit"),
        help: ArgumentHelp("Change a safety limit (see 'saxdispatch check --help' for the names).", valueName: "name=value"))
    var limits: [String] = []

    @Option(
        name: .customLong("chunk-size"),
        help: ArgumentHelp("Feed the input N bytes at a time instead of 64 KiB.", valueName: "n"))
    var chunkSize: Int?

    @Option(
        help: ArgumentHelp(
            "Show progress on standard error: auto (a terminal, inputs over 4 MB), always or never.",
            valueName: "when"))
    var progress: ProgressMeter.Mode = .auto

    func validate() throws {
        if let chunkSize, chunkSize < 1 { throw ValidationError("--chunk-size must be at least 1") }
        _ = try profile()
    }

    /// The safety profile the options describe.
    func profile() throws -> SafetyProfile {
        var profile: SafetyProfile = strict ? .strict : .default
        for setting in limits {
            switch DocumentCheck.limit(from: setting) {
            case .success(let (name, limit)): profile[limitNamed: name] = limit
            case .failure(let error): throw ValidationError("--limit: \(error)")
            }
        }
        return profile
    }

    /// The input at `path` as the options feed it, with a progress meter counting `unit`
    /// when the options and standard error call for one.
    func input(_ path: String, counting unit: ProgressMeter.Unit = .elements) -> DocumentInput {
        let meter = ProgressMeter(mode: progress, isTerminal: isatty(2) != 0, unit: unit) { Output.standardError($0) }
        return DocumentInput(path: path, chunkSize: chunkSize, progress: meter)
    }
}

extension ProgressMeter.Mode: ExpressibleByArgument {}
