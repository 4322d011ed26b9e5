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
    @Flag(
        help: ArgumentHelp(
            "Reject a DOCTYPE with an internal subset (no entity declarations at all). An undeclared entity stays an "
                + "error in content and attribute values alike; the character entities of a known DTD are still read."))
    var strict = false

    @Flag(
        name: .customLong("no-known-dtd-entities"),
        help: ArgumentHelp(
            "Do not give a document whose DOCTYPE names XHTML 1.x, XHTML Basic or RSS 0.91 the character entities "
                + "of that DTD (&nbsp;, &copy;, ...) from the built-in table: they are then undeclared."))
    var withoutKnownDTDEntities = false

    @Option(
        name: .customLong("limit"),
        help: ArgumentHelp(
            "Change a safety limit: NAME is entities, depth, attributes, name-bytes, token-bytes, text-bytes, "
                + "collected-text-bytes or memory-bytes; VALUE a count, a size such as 16M, or unlimited (see 'saxdispatch check --help').",
            valueName: "name=value"))
    var limits: [String] = []

    @Option(
        name: .customLong("chunk-size"),
        help: ArgumentHelp("Feed the input N bytes at a time instead of 64 KiB.", valueName: "n"))
    var chunkSize: Int?

    @Option(
        help: ArgumentHelp(
            "Read the document in encoding NAME whatever its XML declaration says, as a transport's charset "
                + "wins over it (Shift_JIS, GB18030, windows-1251, UTF-32, ...).",
            valueName: "name"))
    var encoding: String?

    @Flag(
        help: ArgumentHelp(
            "Read documents one after another in the input (a log of XML records, files joined with cat), "
                + "each parsed in turn; positions count from the start of the input."))
    var concatenated = false

    @Option(
        help: ArgumentHelp(
            "Show progress on standard error: auto (a terminal, not over output to the same terminal, "
                + "inputs over 4 MB), always or never.",
            valueName: "when"))
    var progress: ProgressMeter.Mode = .auto

    func validate() throws {
        if let chunkSize, chunkSize < 1 || chunkSize > Self.maximumChunkSize {
            throw ValidationError("--chunk-size must be at least 1 and at most \(Self.maximumChunkSize) (1 GiB)")
        }
        _ = try profile()
    }

    /// The safety profile the options describe.
    func profile() throws -> SafetyProfile {
        var profile: SafetyProfile = strict ? .strict : .default
        profile.readsKnownDTDEntities = !withoutKnownDTDEntities
        for setting in limits {
            switch DocumentCheck.limit(from: setting) {
            case .success(let (name, limit)): profile[limitNamed: name] = limit
            case .failure(let error): throw ValidationError("--limit: \(error)")
            }
        }
        return profile
    }

    /// The largest `--chunk-size`: one piece is held in memory.
    static let maximumChunkSize = 1 << 30

    /// The document at `path` (`-`: standard input) as the options read it.
    func input(_ path: String) -> XMLInput {
        var input = XMLInput.commandLine(path)
        if let chunkSize { input.chunkSize = chunkSize }
        if let encoding { input.encoding = encoding }
        input.readsConcatenatedDocuments = concatenated
        return input
    }

    /// A progress meter for reading `path`, counting `unit`, when the options and standard
    /// error call for one; its total is the input's size when known.
    ///
    /// - Parameter streamsOutput: Whether the command writes to standard output while it
    ///   reads; `auto` then draws nothing when standard output is a terminal too, where the
    ///   output and the progress line would be interleaved.
    func progressMeter(
        reading path: String, counting unit: ProgressMeter.Unit = .elements, streamsOutput: Bool = true
    ) -> ProgressMeter? {
        let isTerminal = isatty(2) != 0 && !(streamsOutput && isatty(1) != 0)
        let meter = ProgressMeter(
            mode: progress, isTerminal: isTerminal, totalBytes: XMLInput.commandLineSize(path), unit: unit
        ) { Output.standardError($0) }
        if meter != nil { Output.erasesLineOnInterrupt() }
        return meter
    }
}

extension ProgressMeter.Mode: ExpressibleByArgument {}
