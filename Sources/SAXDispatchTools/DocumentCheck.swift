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
    public func run(
        _ input: XMLInput, progress meter: (any ProgressDisplay)? = nil, onWarning: ((ParseWarning) -> Void)? = nil
    ) throws -> Summary {
        var summary = Summary()
        var dispatcher = Dispatcher()
        dispatcher.safety = profile
        dispatcher.processesNamespaces = processesNamespaces
        dispatcher.onAnyStart { element in
            summary.elements += 1
            summary.maximumDepth = max(summary.maximumDepth, element.depth)
        }
        dispatcher.limitsAllText = true
        dispatcher.onWarning { warning in
            summary.warnings.append(warning)
            onWarning?(warning)
        }
        let progress = ReadProgress(meter: meter) { summary.elements }
        defer { progress.finish() }
        try dispatcher.parse(progress.reading(input))
        return summary
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
