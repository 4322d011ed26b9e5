/// The limits the dispatcher holds a document to while it dispatches, and the errors that
/// breaking one of them produces: how deep elements nest (``SafetyProfile/maximumDepth``),
/// how many attributes one element carries (``SafetyProfile/maximumAttributes``), how long
/// one element's text, whole text or inner markup grows (``SafetyProfile/maximumTextBytes``)
/// and how much text is collected at once (``SafetyProfile/maximumCollectedTextBytes``).
///
/// The engine asks it on every start tag and whenever collected text passes ``textBound``;
/// ``ContentCapture`` checks whole text and inner markup against ``contentLimits``.
///
/// The other limits are enforced where what they measure is: expat's own entity
/// amplification protection, configured by the driver; the token size, name length, entity
/// and attribute declarations, attribute values defaulted from the DTD, the parser's memory
/// (expat's heap and the name table) and the internal subset in ``ExpatDriver`` (its
/// `+Safety` and `+TokenLimit` files); the size of one captured record in the typed
/// records and the decoder, which capture it; a stream's backlog in the stream's output,
/// which reports it through ``PushParser/failStreamBacklog(limit:)``.
///
/// What must stay true: ``textBound`` is the least of ``maximumTextBytes`` and what
/// ``maximumCollectedTextBytes`` leaves beside the text counted without being kept and the
/// content captured, so that one comparison of the text buffer's size against it shows
/// that a piece of text breaks neither limit.
struct LimitGuard {
    /// A broken limit, as the parse error reports it.
    struct Violation {
        var code: XMLParseError.Code
        var message: String
        var limit: Int
    }

    /// The limits as plain bounds (`Int.max` when unlimited).
    let maximumDepth: Int
    let maximumAttributes: Int
    let maximumTextBytes: Int
    let maximumCollectedTextBytes: Int
    /// Start tags of fewer input bytes than this plus one cannot break the token, name or
    /// attribute limits, so only larger ones are examined. ``examinesStartTag(byteCount:)``
    /// compares a tag's size less one, unsigned, so that a tag of no input bytes of its own
    /// (from an internal entity's replacement text) is always examined, still in one comparison.
    private let startTagCheckBound: UInt

    /// The text counted, not kept, for the open elements together (``Dispatcher/limitsAllText``).
    var measuredText = 0 {
        didSet { updateTextBound() }
    }
    /// The bytes of whole text and inner markup captured for the open elements.
    var capturedText = 0 {
        didSet { updateTextBound() }
    }
    /// While the text buffer and `length` more bytes stay within this, both text limits hold
    /// (the innermost element's own text is a part of the buffer): the one comparison that
    /// collecting a piece of text costs.
    private(set) var textBound: Int

    init(profile: SafetyProfile) {
        maximumDepth = profile.maximumDepth.bound
        maximumAttributes = profile.maximumAttributes.bound
        maximumTextBytes = profile.maximumTextBytes.bound
        maximumCollectedTextBytes = profile.maximumCollectedTextBytes.bound
        textBound = min(maximumTextBytes, maximumCollectedTextBytes)
        // A specified attribute takes at least 5 input bytes (` a=""`) in any encoding. The
        // name limit counts UTF-8 bytes, and one input byte decodes to at most 3 of them (a
        // single-byte table maps each byte to a scalar below U+10000; UTF-16 takes 2 bytes
        // for 3, 4 for 4): a name over the limit takes more than a third of it in input.
        let attributeBytes = maximumAttributes.multipliedReportingOverflow(by: 5)
        let startTagCheckSize = min(
            profile.maximumTokenBytes.bound, profile.maximumNameBytes.bound / 3,
            attributeBytes.overflow ? Int.max : attributeBytes.partialValue)
        // Every start tag takes at least 3 bytes, so a size of 0 or 1 examines them all.
        startTagCheckBound = UInt(max(1, startTagCheckSize) - 1)
    }

    private mutating func updateTextBound() {
        textBound = min(maximumTextBytes, maximumCollectedTextBytes - measuredText - capturedText)
    }

    /// The limits whole text and inner markup count against.
    var contentLimits: ContentCapture.Limits {
        ContentCapture.Limits(maximumTextBytes: maximumTextBytes, maximumCollectedTextBytes: maximumCollectedTextBytes)
    }

    // MARK: Checks

    /// Whether an element may open inside `openElements` open ones.
    @inline(__always)
    func admitsDepth(openElements: Int) -> Bool {
        openElements < maximumDepth
    }

    /// Whether a start tag of `byteCount` input bytes may break the token, name or
    /// attribute limits, and so must be examined.
    @inline(__always)
    func examinesStartTag(byteCount: Int) -> Bool {
        UInt(bitPattern: byteCount &- 1) >= startTagCheckBound
    }

    /// Whether one element may carry `count` attributes.
    func admitsAttributes(_ count: Int) -> Bool {
        count <= maximumAttributes
    }

    /// The text limit that `added` more bytes of the innermost element's text break, when
    /// it has `own` bytes so far and the text buffer holds `buffered` bytes; `nil` when they
    /// break neither. The breach's ``ContentCapture/Breach/allowed`` counts the added bytes
    /// that still fit.
    func textBreach(added: Int, own: Int, buffered: Int) -> ContentCapture.Breach? {
        if own + added > maximumTextBytes {
            return ContentCapture.Breach(limit: .ownText, allowed: maximumTextBytes - own)
        }
        let collected = buffered + measuredText + capturedText
        if collected + added > maximumCollectedTextBytes {
            return ContentCapture.Breach(limit: .collectedText, allowed: maximumCollectedTextBytes - collected)
        }
        return nil
    }

    // MARK: Violations

    func depthViolation() -> Violation {
        Violation(
            code: .depthLimitExceeded, message: "elements nest deeper than maximumDepth (\(maximumDepth))",
            limit: maximumDepth)
    }

    func attributeViolation() -> Violation {
        Violation(
            code: .attributeLimitExceeded,
            message: "more than maximumAttributes (\(maximumAttributes)) attributes on one element",
            limit: maximumAttributes)
    }

    /// The violation of a text limit: by the text of the element named `element` (for
    /// ``ContentCapture/Breach/Limit/ownText`` the innermost, for whole text and inner
    /// markup the one at the breach's depth), or by the text collected for it and the
    /// other open elements, `holders` of which hold some.
    func textViolation(_ limit: ContentCapture.Breach.Limit, element: String, holders: Int) -> Violation {
        let name = MessageText.name(element)
        switch limit {
        case .wholeText:
            return Violation(
                code: .textLimitExceeded,
                message: "the whole text of <\(name)> is longer than maximumTextBytes (\(maximumTextBytes))",
                limit: maximumTextBytes)
        case .innerMarkup:
            return Violation(
                code: .textLimitExceeded,
                message: "the inner markup of <\(name)> is longer than maximumTextBytes (\(maximumTextBytes))",
                limit: maximumTextBytes)
        case .ownText:
            return Violation(
                code: .textLimitExceeded,
                message: "the text of <\(name)> is longer than maximumTextBytes (\(maximumTextBytes))",
                limit: maximumTextBytes)
        case .collectedText:
            return Violation(
                code: .textLimitExceeded,
                message: "the text collected for <\(name)> and the other open elements (\(max(holders, 1)) in all)"
                    + " is longer than maximumCollectedTextBytes (\(maximumCollectedTextBytes))",
                limit: maximumCollectedTextBytes)
        }
    }
}
