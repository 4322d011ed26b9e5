extension XMLWriter {
    /// How the document is laid out.
    public struct Options: Sendable {
        /// Spaces per level of nesting before each start tag, end tag, comment and
        /// processing instruction on a line of its own; `nil` (the default) writes no white
        /// space of its own. Inside an element, nothing is added once text was written in it;
        /// the white space added before its first text stays, part of its content. Indent
        /// documents whose elements hold text or elements, not both.
        public var indentation: Int?
        /// Whether the document begins with `<?xml version="1.0" encoding="UTF-8"?>` (the
        /// default). The output is always UTF-8.
        public var writesDeclaration: Bool

        /// Options as given.
        public init(indentation: Int? = nil, writesDeclaration: Bool = true) {
            self.indentation = indentation
            self.writesDeclaration = writesDeclaration
        }

        /// No white space added, and the XML declaration.
        public static let compact = Options()
        /// Two spaces a level, and the XML declaration.
        public static let indented = Options(indentation: 2)
    }
}
