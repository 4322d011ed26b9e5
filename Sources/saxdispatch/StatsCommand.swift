import ArgumentParser
import SAXDispatch
import SAXDispatchTools

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Stream a document and report its counts, throughput and peak memory.",
        discussion: """
            Prints the number of elements, distinct element names, maximum depth, \
            attributes, text bytes and bytes read, then the elapsed time, throughput \
            and the process's peak resident memory.

            With no FILE, parses a built-in sample: a zoo document of about 200 MB, \
            generated on the fly and never stored, to show throughput and flat memory.

            Examples:
              saxdispatch stats
              saxdispatch stats map.osm
              saxdispatch stats dump.xml.bz2
            """
    )

    @Argument(help: "The document to read; '-' reads standard input. Omit it for the built-in sample.")
    var file: String?

    @Option(name: .customLong("sample-size"), help: "Size of the built-in sample in megabytes (10^6 bytes).")
    var sampleMegabytes: Int = 200

    @OptionGroup var options: DocumentOptions

    @OptionGroup var namespaceProcessing: NamespaceProcessingOption

    func validate() throws {
        guard sampleMegabytes > 0 && sampleMegabytes <= 1_000_000 else {
            throw ValidationError("--sample-size must be at least 1 and at most 1000000 (a terabyte)")
        }
    }

    func run() throws {
        let clock = ContinuousClock()
        let started = clock.now
        let source: String
        let statistics: DocumentStatistics
        let safety = try options.profile()
        do {
            if let file {
                source = file == "-" ? "standard input" : file
                let meter = options.progressMeter(reading: file, streamsOutput: false)
                statistics = try DocumentStatistics.collect(
                    safety: safety, processesNamespaces: namespaceProcessing.processesNamespaces
                ) { parser, elements in
                    let progress = ReadProgress(meter: meter, count: elements)
                    defer { progress.finish() }
                    try parser.parse(progress.reading(options.input(file)))
                }
            } else {
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
            }
        } catch {
            throw DocumentFailure(error, path: file ?? "sample")
        }
        let elapsed = started.duration(to: clock.now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
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
            ("peak memory", PeakMemory.residentBytes().map { Output.decimal(Double($0) / 1_048_576, 1) + " MiB" } ?? "unknown"),
        ]
        // Through Output, not print: a failed write must end the run with status 1.
        Output.standardOutput(
            rows.map { label, value in label + String(repeating: " ", count: max(1, 16 - label.count)) + value + "\n" }
                .joined())
    }
}
