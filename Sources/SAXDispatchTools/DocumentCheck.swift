import SAXDispatch

/// Checks that a document is well-formed and within a ``SafetyProfile``: every element's
/// text counts against the text limits as an `onEnd` handler with the default policy
/// (`.trim`) would collect it (a container's indentation does not count), and nothing is
/// kept (``Dispatcher/limitsAllText``).
public struct DocumentCheck: Sendable {
    /// The rules and limits the document must keep.
    public var profile: SafetyProfile
    /// Whether the document must be namespace-well-formed (the default) or is read with
    /// names as written (``Dispatcher/processesNamespaces``).
    public var processesNamespaces: Bool

    /// What a successful check saw.
    public struct Summary: Sendable, Hashable {
        /// Elements in the document.
        public var elements = 0
        /// The deepest nesting, the root being 1.
        public var maximumDepth = 0
        /// What the parse warned about (``ParseWarning``): a document that declares XML 1.1,
        /// the references left out under ``UndeclaredEntityPolicy/skipWithWarning``.
        public var warnings: [ParseWarning] = []

        /// Counts `element`.
        mutating func add(_ element: ElementContext) {
            elements += 1
            maximumDepth = max(maximumDepth, element.depth)
        }

        /// Adds what a later part of the document saw (its warnings apart).
        mutating func add(_ part: Summary) {
            elements += part.elements
            maximumDepth = max(maximumDepth, part.maximumDepth)
        }
    }

    /// A check against `profile`, with or without namespace processing.
    public init(profile: SafetyProfile = .default, processesNamespaces: Bool = true) {
        self.profile = profile
        self.processesNamespaces = processesNamespaces
    }

    /// Parses `input` to its end; `progress`, if given, counts elements; `onWarning`, if
    /// given, receives each warning as the parse delivers it (one about the document, such
    /// as its XML version, while it is read, so also when a later error ends the parse).
    ///
    /// - Throws: ``XMLParseError`` (with the input's name as its source) when the document
    ///   is malformed or breaks the profile, ``XMLInputError`` when it cannot be read,
    ///   ``DecompressionError`` when it is compressed and cannot be decompressed.
    ///
    /// With `workers` above 1 the document is read in ranges on that many threads
    /// (``Dispatcher/parse(_:workers:rangeBytes:handlers:merge:)``), with the same summary and
    /// the same first error: a document that the ranges end with expat's memory budget,
    /// which may come earlier there, is checked again in one parse when the input can be
    /// read again. The warnings then come once the ranges before them are read.
    ///
    /// - Parameters:
    ///   - input: The document.
    ///   - workers: How many threads read it; 1 reads it in one parse.
    ///   - meter: A meter to update as the input is read, counting elements.
    ///   - onWarning: Receives each warning as it is delivered.
    public func run(
        _ input: XMLInput, workers: Int = 1, progress meter: (any ProgressDisplay)? = nil,
        onWarning: ((ParseWarning) -> Void)? = nil
    ) throws -> Summary {
        var summary = Summary()
        let progress = ReadProgress(meter: meter) { summary.elements }
        defer { progress.finish() }
        // Warnings under skip-with-warning are counted per name over the whole document.
        guard workers > 1, profile.undeclaredEntities != .skipWithWarning else {
            var dispatcher = Dispatcher()
            configure(&dispatcher, range: XMLParseRange(start: 0)) { summary.add($0) } warning: { warning in
                summary.warnings.append(warning)
                onWarning?(warning)
            }
            try dispatcher.parse(progress.reading(input))
            return summary
        }
        var rootText = 0
        do {
            try checkInRanges(progress.reading(input), workers: workers, summary: &summary, rootText: &rootText, onWarning: onWarning)
        } catch let error as XMLParseError where error.code == .memoryLimitExceeded && input.canBeReadAgain {
            // Read in ranges, the memory budget may end the read earlier than one parse
            // would: one parse says where, or that it does not.
            var whole = try run(input, workers: 1)
            whole.warnings = summary.warnings
            return whole
        }
        // The root's own text is read in parts, each within the limits: read whole, it may
        // not be. A document whose root has that much text is checked again in one parse.
        if profile.maximumTextBytes.isExceeded(by: rootText) || profile.maximumCollectedTextBytes.isExceeded(by: rootText) {
            var whole = try run(input, workers: 1)
            // Said already, as the ranges gave them.
            whole.warnings = summary.warnings
            return whole
        }
        return summary
    }

    /// Checks `input` in ranges on `workers` threads, adding what each range found to
    /// `summary` and the root's own text to `rootText`.
    private func checkInRanges(
        _ input: XMLInput, workers: Int, summary: inout Summary, rootText: inout Int, onWarning: ((ParseWarning) -> Void)?
    ) throws {
        let check = self
        try Dispatcher.parse(input, workers: workers) { range, dispatcher in
            let collector = RangeCollector()
            check.configure(&dispatcher, range: range) { collector.range.add($0) } warning: { collector.range.warnings.append($0) }
            // A catch-all: a pattern for the root would take it from the check's catch-alls.
            dispatcher.onAnyText { element, chunk in if element.depth == 1 { collector.rootText += chunk.count } }
            return { (collector.range, collector.rootText) }
        } merge: { range, text in
            summary.add(range)
            rootText += text
            for warning in range.warnings {
                summary.warnings.append(warning)
                onWarning?(warning)
            }
        }
    }

    /// Sets up the check's handlers for one range of the document (all of it from 0): the
    /// elements it owns, and the warnings about its own part (the XML version is said by the
    /// range that reads the document's start).
    func configure(
        _ dispatcher: inout Dispatcher, range: XMLParseRange, element: @escaping (ElementContext) -> Void,
        warning: @escaping (ParseWarning) -> Void
    ) {
        dispatcher.safety = profile
        dispatcher.processesNamespaces = processesNamespaces
        dispatcher.onAnyStart { if range.owns($0) { element($0) } }
        dispatcher.limitsAllText = true
        dispatcher.onWarning { if range.start == 0 || $0.code != .xmlVersion { warning($0) } }
    }

    /// What one range's handlers saw.
    private final class RangeCollector {
        var range = Summary()
        var rootText = 0
    }

    /// Reads a limit setting as the command line writes it: `NAME=VALUE`, where NAME is one
    /// of ``SafetyProfile/limitNames`` and VALUE a byte count or number (with an optional
    /// `K`, `M` or `G` binary suffix, such as `16M`) or `unlimited`.
    ///
    /// - Returns: `nil` with a message when the setting cannot be read.
    public static func limit(from setting: String) -> Result<(name: String, limit: SafetyProfile.Limit), LimitSettingError> {
        let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, SafetyProfile.limitNames.contains(parts[0]) else {
            return .failure(
                LimitSettingError(
                    "'\(setting)' is not NAME=VALUE with NAME one of \(SafetyProfile.limitNames.joined(separator: ", "))"))
        }
        let text = parts[1].lowercased()
        if text == "unlimited" { return .success((parts[0], .unlimited)) }
        var digits = Substring(text)
        var scale = 1
        if let unit = digits.last, let shift = ["k": 10, "m": 20, "g": 30][String(unit)] {
            scale = 1 << shift
            digits = digits.dropLast()
        }
        guard let number = Int(digits), number >= 0, number <= Int.max / scale else {
            return .failure(LimitSettingError("'\(parts[1])' is not a count, a size such as 16M, or 'unlimited'"))
        }
        return .success((parts[0], .atMost(number * scale)))
    }
}
