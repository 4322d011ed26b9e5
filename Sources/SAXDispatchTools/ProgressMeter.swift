/// A one-line progress display for long runs, redrawn in place on standard error: bytes
/// read (of the total, when known, with a bar and the estimated time left), throughput,
/// a count of what the command produces (records, elements…) and elapsed time.
///
/// It draws nothing until a few megabytes are read (unless told to always draw), and at
/// most ten times a second. Call ``clear()`` before printing anything else to the same
/// stream and ``finish()`` at the end, which erases the line.
public final class ProgressMeter {
    /// When a command shows progress.
    public enum Mode: String, Sendable, CaseIterable {
        /// When standard error is a terminal and the input is larger than a few megabytes.
        case auto
        /// Always, from the first piece of input (for tests and logs).
        case always
        /// Never.
        case never
    }

    /// The input size in bytes, when known (a regular file).
    public var totalBytes: Int?
    private let threshold: Int
    private let write: (String) -> Void
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private var lastDraw: ContinuousClock.Instant?
    private var isShowing = false
    private let unit: Unit
    private var bytes = 0
    private var documentBytes = 0
    private var count = 0

    /// What the meter counts, in the singular and the plural: `records`, `elements`.
    public struct Unit: Sendable, Hashable {
        public var singular: String
        public var plural: String

        public init(_ singular: String, _ plural: String) {
            self.singular = singular
            self.plural = plural
        }

        /// Records written (`extract`).
        public static let records = Unit("record", "records")
        /// Elements read (every other command).
        public static let elements = Unit("element", "elements")
    }

    /// Bytes read before `auto` draws anything: small inputs finish before a bar would help.
    public static let autoThreshold = 4_000_000

    /// A meter for `mode`, or `nil` when it would never draw.
    ///
    /// - Parameters:
    ///   - isTerminal: Whether the stream `write` goes to is a terminal (`auto` draws only then).
    ///   - unit: What the count in ``update(bytes:count:)`` counts.
    ///   - write: Writes text to that stream.
    public init?(
        mode: Mode, isTerminal: Bool, totalBytes: Int? = nil, unit: Unit = .records, write: @escaping (String) -> Void
    ) {
        guard let threshold = Self.threshold(mode: mode, isTerminal: isTerminal) else { return nil }
        self.threshold = threshold
        self.totalBytes = totalBytes
        self.unit = unit
        self.write = write
        started = clock.now
    }

    /// The bytes read before a line in `mode` draws anything, or `nil` when it never draws.
    static func threshold(mode: Mode, isTerminal: Bool) -> Int? {
        switch mode {
        case .never: nil
        case .auto: isTerminal ? autoThreshold : nil
        case .always: 0
        }
    }

    /// Records progress; redraws when enough time has passed since the last drawing.
    public func update(bytes: Int, count: Int) {
        update(bytes: bytes, documentBytes: bytes, count: count, always: false)
    }

    /// Records progress, with `documentBytes`: what the bytes read decompressed to (the
    /// line shows that throughput too when it is more).
    func update(bytes: Int, documentBytes: Int, count: Int, always: Bool) {
        self.bytes = bytes
        self.documentBytes = documentBytes
        self.count = count
        guard bytes >= threshold else { return }
        let now = clock.now
        if !always, let lastDraw, lastDraw.duration(to: now) < .milliseconds(100) { return }
        lastDraw = now
        write(
            "\r\u{1B}[K"
                + Self.line(
                    bytes: bytes, total: totalBytes, documentBytes: documentBytes, count: count, unit: unit,
                    elapsed: started.duration(to: now)))
        isShowing = true
    }

    /// Erases the line, so other text can be printed; the next update draws it again.
    public func clear() {
        guard isShowing else { return }
        write("\r\u{1B}[K")
        isShowing = false
        lastDraw = nil
    }

    /// Erases the line at the end of the run.
    public func finish() {
        clear()
    }

    /// Draws the final figures (when the meter draws at all), then erases the line at the
    /// end of the run: the count is read after the last of the input is parsed, which a
    /// drawing made while reading comes before.
    public func finish(bytes: Int, count: Int) {
        finish(bytes: bytes, documentBytes: bytes, count: count)
    }

    /// The text of the progress line; for compressed input (`documentBytes` more than
    /// `bytes`), the throughput of the decompressed document after the file's.
    ///
    /// ```
    /// [=====>      ]  45%  483.2 / 1073.7 MB  212.4 MB/s  2,301,442 records  0:02 elapsed, 0:03 left
    /// [=>          ]  12%  1.6 / 13.2 MB  4.1 MB/s  (31.0 MB/s decompressed)  9,210 elements  0:00 elapsed, 0:03 left
    /// ```
    public static func line(
        bytes: Int, total: Int?, documentBytes: Int? = nil, count: Int, unit: Unit = .records, elapsed: Duration
    ) -> String {
        lineParts(bytes: bytes, total: total, documentBytes: documentBytes, count: count, unit: unit, elapsed: elapsed)
            .joined(separator: "  ")
    }

    /// The parts of the progress line, in order: the bar and percentage (with a total),
    /// the bytes, the throughput (and the decompressed throughput), the count and the timing.
    static func lineParts(
        bytes: Int, total: Int?, documentBytes: Int? = nil, count: Int, unit: Unit, elapsed: Duration
    ) -> [String] {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let rate = seconds > 0 ? Double(bytes) / seconds : 0
        var parts: [String] = []
        var timing = clockText(seconds) + " elapsed"
        if let total, total > 0 {
            let fraction = min(1, Double(bytes) / Double(total))
            let width = 12
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "=", count: filled) + (filled < width ? ">" : "")
                + String(repeating: " ", count: max(0, width - filled - 1))
            parts.append("[" + bar + "]")
            parts.append(leftPadded(String(Int(fraction * 100)) + "%", 4))
            parts.append(megabytes(bytes) + " / " + megabytes(total) + " MB")
            if rate > 0 { timing += ", " + clockText(Double(max(0, total - bytes)) / rate) + " left" }
        } else {
            parts.append(megabytes(bytes) + " MB")
        }
        parts.append(megabytes(Int(rate)) + " MB/s")
        if let documentBytes, documentBytes > bytes, seconds > 0 {
            parts.append("(" + megabytes(Int(Double(documentBytes) / seconds)) + " MB/s decompressed)")
        }
        parts.append(grouped(count) + " " + (count == 1 ? unit.singular : unit.plural))
        parts.append(timing)
        return parts
    }

    /// Bytes as megabytes (10^6) with one decimal.
    static func megabytes(_ bytes: Int) -> String {
        let tenths = (bytes + 50_000) / 100_000
        return String(tenths / 10) + "." + String(tenths % 10)
    }

    /// `m:ss`, or `h:mm:ss` from an hour on.
    static func clockText(_ seconds: Double) -> String {
        let total = seconds.isFinite ? Int(seconds.rounded()) : 0
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        let ss = (rest < 10 ? "0" : "") + String(rest)
        if hours > 0 { return String(hours) + ":" + (minutes < 10 ? "0" : "") + String(minutes) + ":" + ss }
        return String(minutes) + ":" + ss
    }

    /// A count with thousands separators: `1,234,567`.
    public static func grouped(_ value: Int) -> String {
        var digits = Array(String(value))
        var index = digits.count - 3
        while index > (value < 0 ? 1 : 0) {
            digits.insert(",", at: index)
            index -= 3
        }
        return String(digits)
    }

    private static func leftPadded(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
