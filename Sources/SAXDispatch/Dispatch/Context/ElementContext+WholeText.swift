extension ElementContext {
    /// Starts gathering this element's whole text, for a handler that decides per element
    /// whether it needs it; read it with ``wholeText(_:)`` at the element's end. Only from
    /// a start handler, for its own element (anywhere else it traps).
    func requestWholeText() {
        engine.requestWholeText(serial: serial)
    }

    /// This element's whole text so far, shaped by `policy`: all of it in an end handler,
    /// if ``requestWholeText()`` (or a whole-text handler) asked for it; `""` otherwise.
    func wholeText(_ policy: WhitespacePolicy) -> String {
        engine.wholeText(depth: depth, serial: serial, policy: policy)
    }

    /// Starts writing this element's inner markup, as ``requestWholeText()`` starts
    /// gathering its whole text; read it with ``innerMarkup(_:)`` at the element's end.
    func requestInnerMarkup() {
        engine.requestInnerMarkup(serial: serial)
    }

    /// This element's inner markup so far, its two ends trimmed unless `policy` is
    /// `.preserve` (whitespace inside markup may matter); `""` unless asked for.
    func innerMarkup(_ policy: WhitespacePolicy) -> String {
        engine.innerMarkup(depth: depth, serial: serial, policy: policy)
    }
}
