/// How a parse that did not throw ended.
public enum ParseOutcome: Sendable, Hashable {
    /// The whole document was read and was well-formed.
    case completed
    /// A handler called ``ElementContext/stopParsing()`` or ``PushParser/stop()``;
    /// the rest of the input was not read.
    case stopped
}
