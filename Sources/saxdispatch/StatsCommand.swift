import ArgumentParser
import SAXDispatch
import SAXDispatchTools

struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Stream a document and report its counts, throughput and peak memory.",
        discussion: """
            Prints the number of elements, distinct element names, maximum depth, \
            attributes, text bytes and bytes read, then the elapsed time, throughput \
            and the process's peak resident memory.

            With no FILE, parses a built-in sample: a zoo document of about 200 MB, \
            generated on the fly and never stored, to show throughput and flat memory.

            With more than one FILE, parsed --jobs N at a time (default: the number of \
            processors), prints a table with one row per file, in the order given, and \
            a total row (elements, attributes, text and bytes added up, names counted \
            once, the deepest depth), then the elapsed time, the throughput of them all \
            and the peak memory; a file that fails has no row, its error goes to \
            standard error, and a summary line ends the run (saxdispatch stats: 8 files \
            read, 1 failed, 10,480,792 elements). --on-error stop starts no file after \
            one fails. One FILE is read on --jobs N threads: a fast framing pass cuts \
            it into ranges at the root's children, each parsed on a thread of its own, \
            with the same counts as --jobs 1, its first error too.

            Examples:
              saxdispatch stats
              saxdispatch stats map.osm
              saxdispatch stats dump.xml.bz2
              saxdispatch stats --jobs 2 parts/*.xml.gz
            """
    )

    @Argument(help: "The documents to read; '-' reads standard input. Omit them for the built-in sample.")
    var files: [String] = []

    @Option(name: .customLong("sample-size"), help: "Size of the built-in sample in megabytes (10^6 bytes).")
    var sampleMegabytes: Int = 200

    @OptionGroup var options: DocumentOptions

    @OptionGroup var namespaceProcessing: NamespaceProcessingOption

    @OptionGroup var manyFiles: ManyFilesOptions

    @OptionGroup var onError: FileFailureOption

    func validate() throws {
        guard sampleMegabytes > 0 && sampleMegabytes <= 1_000_000 else {
            throw ValidationError("--sample-size must be at least 1 and at most 1000000 (a terabyte)")
        }
        try ManyFilesOptions.validate(files: files)
    }

    func run() async throws {
        guard !files.isEmpty else { return try runSample() }
        let clock = ContinuousClock()
        let started = clock.now
        let safety = try options.profile()
        let processesNamespaces = namespaceProcessing.processesNamespaces
        let run = FileRun(
            files: files, options: options, jobs: manyFiles.jobCount, failurePolicy: onError.policy, unit: .elements,
            streamsOutput: false)
        var total = DocumentStatistics()
        var single: DocumentStatistics?
        var wroteHeader = false
        // One file is read on the cores, in ranges; many files a file per job. Standard
        // input is read once: what only the whole document decides cannot be read again.
        let workers = files.count == 1 && files[0] != "-" ? manyFiles.jobCount : 1
        let summary = try await run.run { file in
            try DocumentStatistics.collect(
                file.input, workers: workers, safety: safety, processesNamespaces: processesNamespaces, progress: file.meter())
        } delivered: { statistics, index, channel in
            guard files.count > 1 else { return single = statistics }
            if !wroteHeader {
                channel.write(StatisticsTable.header, to: .output)
                wroteHeader = true
            }
            channel.write(StatisticsTable.row(statistics, file: files[index]), to: .output)
            StatisticsTable.add(statistics, to: &total)
        }
        let seconds = Self.seconds(started.duration(to: clock.now))
        if let single {
            let file = files[0]
            return Self.write(single, source: file == "-" ? "standard input" : file, seconds: seconds)
        }
        if wroteHeader {
            // The files with a row: a failed file adds nothing to the total.
            let rows = summary.read - summary.failed
            let filesText = "total (\(rows) file\(rows == 1 ? "" : "s"))"
            Output.standardOutput(
                StatisticsTable.row(total, file: filesText)
                    + Self.rows([
                        ("elapsed", Output.decimal(seconds, 3) + " s"),
                        ("throughput", Output.decimal(Double(total.bytesRead) / 1e6 / max(seconds, 1e-9), 1) + " MB/s"),
                        ("peak memory", Self.peakMemory),
                    ]))
        }
        if files.count > 1 {
            Output.standardError(FileRun.summaryLine(command: "stats", summary, count: (total.elements, .elements)))
        }
        if summary.failed > 0 { throw ExitCode.failure }
    }

    /// Parses the built-in sample.
    private func runSample() throws {
        let clock = ContinuousClock()
        let started = clock.now
        let source: String
        let statistics: DocumentStatistics
        let safety = try options.profile()
        do {
            let sample = ZooSample(targetSize: sampleMegabytes * 1_000_000)
            source = "built-in zoo sample (\(sampleMegabytes) MB, generated on the fly)"
            let meter = options.progressMeter(reading: "sample", streamsOutput: false)
            meter?.totalBytes = sample.targetSize
            statistics = try DocumentStatistics.collect(
                safety: safety, source: "sample", processesNamespaces: namespaceProcessing.processesNamespaces
            ) { parser, elements in
                // A generated document is pushed to the parser as it is made.
                let progress = ReadProgress(meter: meter, count: elements)
                defer { progress.finish() }
                try sample.generate(chunkSize: options.chunkSize ?? XMLInput.defaultChunkSize) { piece in
                    try parser.feed(piece)
                    progress.advance(by: piece.count)
                }
                try parser.finish()
            }
        } catch {
            throw DocumentFailure(error, path: "sample")
        }
        Self.write(statistics, source: source, seconds: Self.seconds(started.duration(to: clock.now)))
    }

    private static func seconds(_ elapsed: Duration) -> Double {
        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    private static var peakMemory: String {
        PeakMemory.residentBytes().map { Output.decimal(Double($0) / 1_048_576, 1) + " MiB" } ?? "unknown"
    }

    /// Labelled rows, the values lined up.
    private static func rows(_ rows: [(String, String)]) -> String {
        rows.map { label, value in label + String(repeating: " ", count: max(1, 16 - label.count)) + value + "\n" }.joined()
    }

    /// The table of one document's statistics.
    private static func write(_ statistics: DocumentStatistics, source: String, seconds: Double) {
        let rows: [(String, String)] = [
            ("source", source),
            ("elements", ProgressMeter.grouped(statistics.elements)),
            ("distinct names", ProgressMeter.grouped(statistics.distinctNames)),
            ("maximum depth", ProgressMeter.grouped(statistics.maximumDepth)),
            ("attributes", ProgressMeter.grouped(statistics.attributes)),
            ("text bytes", ProgressMeter.grouped(statistics.textBytes)),
            ("bytes read", ProgressMeter.grouped(statistics.bytesRead)),
            ("elapsed", Output.decimal(seconds, 3) + " s"),
            ("throughput", Output.decimal(Double(statistics.bytesRead) / 1e6 / max(seconds, 1e-9), 1) + " MB/s"),
            ("peak memory", peakMemory),
        ]
        // Through Output, not print: a failed write must end the run with status 1.
        Output.standardOutput(Self.rows(rows))
    }
}
