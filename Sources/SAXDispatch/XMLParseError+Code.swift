extension XMLParseError {
    /// An expat error code.
    ///
    /// An open set: expat adds codes over time, so this is a `RawRepresentable` struct
    /// with named values rather than an enum. The raw value is expat's `enum XML_Error`
    /// value (`XML_ERROR_TAG_MISMATCH` is `Code.tagMismatch`, raw value 7).
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: Int

        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// The name of the code, such as `tagMismatch`, or its number when unnamed.
        public var description: String {
            Self.names[rawValue] ?? "code \(rawValue)"
        }

        public static let noMemory = Code(rawValue: 1)
        public static let syntax = Code(rawValue: 2)
        public static let noElements = Code(rawValue: 3)
        public static let invalidToken = Code(rawValue: 4)
        public static let unclosedToken = Code(rawValue: 5)
        public static let partialCharacter = Code(rawValue: 6)
        public static let tagMismatch = Code(rawValue: 7)
        public static let duplicateAttribute = Code(rawValue: 8)
        public static let junkAfterDocumentElement = Code(rawValue: 9)
        public static let parameterEntityReference = Code(rawValue: 10)
        public static let undefinedEntity = Code(rawValue: 11)
        public static let recursiveEntityReference = Code(rawValue: 12)
        public static let asynchronousEntity = Code(rawValue: 13)
        public static let badCharacterReference = Code(rawValue: 14)
        public static let binaryEntityReference = Code(rawValue: 15)
        public static let attributeExternalEntityReference = Code(rawValue: 16)
        public static let misplacedXMLDeclaration = Code(rawValue: 17)
        public static let unknownEncoding = Code(rawValue: 18)
        public static let incorrectEncoding = Code(rawValue: 19)
        public static let unclosedCDATASection = Code(rawValue: 20)
        public static let externalEntityHandling = Code(rawValue: 21)
        public static let notStandalone = Code(rawValue: 22)
        public static let unexpectedState = Code(rawValue: 23)
        public static let entityDeclaredInParameterEntity = Code(rawValue: 24)
        public static let featureRequiresDTD = Code(rawValue: 25)
        public static let cannotChangeFeatureOnceParsing = Code(rawValue: 26)
        public static let unboundPrefix = Code(rawValue: 27)
        public static let undeclaringPrefix = Code(rawValue: 28)
        public static let incompleteParameterEntity = Code(rawValue: 29)
        public static let xmlDeclaration = Code(rawValue: 30)
        public static let textDeclaration = Code(rawValue: 31)
        public static let publicID = Code(rawValue: 32)
        public static let suspended = Code(rawValue: 33)
        public static let notSuspended = Code(rawValue: 34)
        public static let aborted = Code(rawValue: 35)
        public static let finished = Code(rawValue: 36)
        public static let suspendParameterEntity = Code(rawValue: 37)
        public static let reservedPrefixXML = Code(rawValue: 38)
        public static let reservedPrefixXMLNS = Code(rawValue: 39)
        public static let reservedNamespaceURI = Code(rawValue: 40)
        public static let invalidArgument = Code(rawValue: 41)
        public static let noBuffer = Code(rawValue: 42)
        public static let amplificationLimitBreach = Code(rawValue: 43)

        private static let names: [Int: String] = [
            1: "noMemory", 2: "syntax", 3: "noElements", 4: "invalidToken", 5: "unclosedToken",
            6: "partialCharacter", 7: "tagMismatch", 8: "duplicateAttribute",
            9: "junkAfterDocumentElement", 10: "parameterEntityReference", 11: "undefinedEntity",
            12: "recursiveEntityReference", 13: "asynchronousEntity", 14: "badCharacterReference",
            15: "binaryEntityReference", 16: "attributeExternalEntityReference",
            17: "misplacedXMLDeclaration", 18: "unknownEncoding", 19: "incorrectEncoding",
            20: "unclosedCDATASection", 21: "externalEntityHandling", 22: "notStandalone",
            23: "unexpectedState", 24: "entityDeclaredInParameterEntity", 25: "featureRequiresDTD",
            26: "cannotChangeFeatureOnceParsing", 27: "unboundPrefix", 28: "undeclaringPrefix",
            29: "incompleteParameterEntity", 30: "xmlDeclaration", 31: "textDeclaration",
            32: "publicID", 33: "suspended", 34: "notSuspended", 35: "aborted", 36: "finished",
            37: "suspendParameterEntity", 38: "reservedPrefixXML", 39: "reservedPrefixXMLNS",
            40: "reservedNamespaceURI", 41: "invalidArgument", 42: "noBuffer",
            43: "amplificationLimitBreach",
        ]
    }
}
