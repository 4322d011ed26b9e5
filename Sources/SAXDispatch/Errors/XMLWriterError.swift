/// What ``XMLWriter`` refused to write, or could not: each call that would make the output
/// other than well-formed XML 1.0 with namespaces throws one, and writes nothing.
///
/// ```swift
/// do {
///     try writer.comment("a -- b")
/// } catch let error as XMLWriterError where error.code == .invalidComment {
///     // The writer is unchanged: the document goes on.
/// }
/// ```
///
/// After a refusal the writer is as it was before the call, so the document can go on;
/// after ``Code/outputFailed`` what reached the output is unknown, and the writer takes no
/// more calls.
public struct XMLWriterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as a value to match on.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name, such as `invalidName`.
        public let rawValue: String

        /// Makes a code from its name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The code's name.
        public var description: String { rawValue }

        /// A name that is not an XML name (or, with a namespace, a prefix or local name that
        /// is not an NCName): element, attribute, prefix, processing-instruction target.
        public static let invalidName = Code(rawValue: "invalidName")
        /// A character XML 1.0 cannot carry, even escaped: U+0000 to U+001F but tab, line
        /// feed and carriage return, U+FFFE, U+FFFF (a `String` cannot hold an unpaired
        /// surrogate; bytes given as text must be UTF-8).
        public static let invalidCharacter = Code(rawValue: "invalidCharacter")
        /// An end tag with no element open, or naming another element than the one open.
        public static let mismatchedEndTag = Code(rawValue: "mismatchedEndTag")
        /// A second root element, or text or a CDATA section outside the root element.
        public static let outsideRootElement = Code(rawValue: "outsideRootElement")
        /// An attribute once content follows the start tag, or one the element has already.
        public static let invalidAttribute = Code(rawValue: "invalidAttribute")
        /// A prefix bound to no namespace where it is used, or bound where it may not be
        /// (`xml` to another URI, `xmlns` at all).
        public static let invalidNamespace = Code(rawValue: "invalidNamespace")
        /// A comment with `--` in it or a `-` at its end.
        public static let invalidComment = Code(rawValue: "invalidComment")
        /// A processing instruction whose target is `xml` in any case, or whose data holds `?>`.
        public static let invalidProcessingInstruction = Code(rawValue: "invalidProcessingInstruction")
        /// The document finished with elements open, or without a root element; or a call
        /// after it finished.
        public static let unfinishedDocument = Code(rawValue: "unfinishedDocument")
        /// The output could not be opened or written (``XMLWriterError/errorNumber`` says why).
        public static let outputFailed = Code(rawValue: "outputFailed")
    }

    /// What went wrong.
    public var code: Code
    /// What was refused, and why.
    public var message: String
    /// The output's name (a file's path).
    public var output: String?
    /// The C `errno` value of ``Code/outputFailed``.
    public var errorNumber: Int32?

    /// Makes an error; the writer makes these.
    public init(code: Code, message: String, output: String? = nil, errorNumber: Int32? = nil) {
        self.code = code
        self.message = message
        self.output = output
        self.errorNumber = errorNumber
    }

    /// `OUTPUT: error: MESSAGE (code)`.
    public var description: String {
        "\(output.map { "\($0): " } ?? "")error: \(message) (\(code))"
    }
}
