extension XMLParseError {
    /// What kind of error ended a parse: an expat error code, or one of the library's
    /// own codes (raw values from 1000) for the end of input and the rules and limits
    /// of a ``SafetyProfile``.
    ///
    /// An open set: expat adds codes over time, so this is a `RawRepresentable` struct
    /// with named values rather than an enum. Below 1000 the raw value is expat's
    /// `enum XML_Error` value (`XML_ERROR_TAG_MISMATCH` is `Code.tagMismatch`, raw value 7).
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// Expat's `enum XML_Error` value.
        public var rawValue: Int

        /// Wraps any expat error value, named here or not.
        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// The name of the code, such as `tagMismatch`, or its number when unnamed.
        public var description: String {
            Self.names[rawValue] ?? "code \(rawValue)"
        }

        /// `XML_ERROR_NO_MEMORY`: out of memory.
        public static let noMemory = Code(rawValue: 1)
        /// `XML_ERROR_SYNTAX`: syntax error.
        public static let syntax = Code(rawValue: 2)
        /// `XML_ERROR_NO_ELEMENTS`: no element found.
        public static let noElements = Code(rawValue: 3)
        /// `XML_ERROR_INVALID_TOKEN`: not well-formed (invalid token).
        public static let invalidToken = Code(rawValue: 4)
        /// `XML_ERROR_UNCLOSED_TOKEN`: unclosed token.
        public static let unclosedToken = Code(rawValue: 5)
        /// `XML_ERROR_PARTIAL_CHAR`: partial character.
        public static let partialCharacter = Code(rawValue: 6)
        /// `XML_ERROR_TAG_MISMATCH`: mismatched tag.
        public static let tagMismatch = Code(rawValue: 7)
        /// `XML_ERROR_DUPLICATE_ATTRIBUTE`: duplicate attribute.
        public static let duplicateAttribute = Code(rawValue: 8)
        /// `XML_ERROR_JUNK_AFTER_DOC_ELEMENT`: junk after document element.
        public static let junkAfterDocumentElement = Code(rawValue: 9)
        /// `XML_ERROR_PARAM_ENTITY_REF`: illegal parameter entity reference.
        public static let parameterEntityReference = Code(rawValue: 10)
        /// `XML_ERROR_UNDEFINED_ENTITY`: undefined entity.
        public static let undefinedEntity = Code(rawValue: 11)
        /// `XML_ERROR_RECURSIVE_ENTITY_REF`: recursive entity reference.
        public static let recursiveEntityReference = Code(rawValue: 12)
        /// `XML_ERROR_ASYNC_ENTITY`: asynchronous entity.
        public static let asynchronousEntity = Code(rawValue: 13)
        /// `XML_ERROR_BAD_CHAR_REF`: reference to invalid character number.
        public static let badCharacterReference = Code(rawValue: 14)
        /// `XML_ERROR_BINARY_ENTITY_REF`: reference to binary entity.
        public static let binaryEntityReference = Code(rawValue: 15)
        /// `XML_ERROR_ATTRIBUTE_EXTERNAL_ENTITY_REF`: reference to external entity in attribute.
        public static let attributeExternalEntityReference = Code(rawValue: 16)
        /// `XML_ERROR_MISPLACED_XML_PI`: XML or text declaration not at start of entity.
        public static let misplacedXMLDeclaration = Code(rawValue: 17)
        /// `XML_ERROR_UNKNOWN_ENCODING`: unknown encoding.
        public static let unknownEncoding = Code(rawValue: 18)
        /// `XML_ERROR_INCORRECT_ENCODING`: encoding specified in XML declaration is incorrect.
        public static let incorrectEncoding = Code(rawValue: 19)
        /// `XML_ERROR_UNCLOSED_CDATA_SECTION`: unclosed CDATA section.
        public static let unclosedCDATASection = Code(rawValue: 20)
        /// `XML_ERROR_EXTERNAL_ENTITY_HANDLING`: error in processing external entity reference.
        public static let externalEntityHandling = Code(rawValue: 21)
        /// `XML_ERROR_NOT_STANDALONE`: document is not standalone.
        public static let notStandalone = Code(rawValue: 22)
        /// `XML_ERROR_UNEXPECTED_STATE`: unexpected parser state - please send a bug report.
        public static let unexpectedState = Code(rawValue: 23)
        /// `XML_ERROR_ENTITY_DECLARED_IN_PE`: entity declared in parameter entity.
        public static let entityDeclaredInParameterEntity = Code(rawValue: 24)
        /// `XML_ERROR_FEATURE_REQUIRES_XML_DTD`: requested feature requires XML_DTD support in Expat.
        public static let featureRequiresDTD = Code(rawValue: 25)
        /// `XML_ERROR_CANT_CHANGE_FEATURE_ONCE_PARSING`: cannot change setting once parsing has begun.
        public static let cannotChangeFeatureOnceParsing = Code(rawValue: 26)
        /// `XML_ERROR_UNBOUND_PREFIX`: unbound prefix.
        public static let unboundPrefix = Code(rawValue: 27)
        /// `XML_ERROR_UNDECLARING_PREFIX`: must not undeclare prefix.
        public static let undeclaringPrefix = Code(rawValue: 28)
        /// `XML_ERROR_INCOMPLETE_PE`: incomplete markup in parameter entity.
        public static let incompleteParameterEntity = Code(rawValue: 29)
        /// `XML_ERROR_XML_DECL`: XML declaration not well-formed.
        public static let xmlDeclaration = Code(rawValue: 30)
        /// `XML_ERROR_TEXT_DECL`: text declaration not well-formed.
        public static let textDeclaration = Code(rawValue: 31)
        /// `XML_ERROR_PUBLICID`: illegal character(s) in public id.
        public static let publicID = Code(rawValue: 32)
        /// `XML_ERROR_SUSPENDED`: parser suspended.
        public static let suspended = Code(rawValue: 33)
        /// `XML_ERROR_NOT_SUSPENDED`: parser not suspended.
        public static let notSuspended = Code(rawValue: 34)
        /// `XML_ERROR_ABORTED`: parsing aborted.
        public static let aborted = Code(rawValue: 35)
        /// `XML_ERROR_FINISHED`: parsing finished.
        public static let finished = Code(rawValue: 36)
        /// `XML_ERROR_SUSPEND_PE`: cannot suspend in external parameter entity.
        public static let suspendParameterEntity = Code(rawValue: 37)
        /// `XML_ERROR_RESERVED_PREFIX_XML`: reserved prefix (xml) must not be undeclared or bound to another namespace name.
        public static let reservedPrefixXML = Code(rawValue: 38)
        /// `XML_ERROR_RESERVED_PREFIX_XMLNS`: reserved prefix (xmlns) must not be declared or undeclared.
        public static let reservedPrefixXMLNS = Code(rawValue: 39)
        /// `XML_ERROR_RESERVED_NAMESPACE_URI`: prefix must not be bound to one of the reserved namespace names.
        public static let reservedNamespaceURI = Code(rawValue: 40)
        /// `XML_ERROR_INVALID_ARGUMENT`: invalid argument.
        public static let invalidArgument = Code(rawValue: 41)
        /// `XML_ERROR_NO_BUFFER`: a successful prior call to function XML_GetBuffer is required.
        public static let noBuffer = Code(rawValue: 42)
        /// `XML_ERROR_AMPLIFICATION_LIMIT_BREACH`: limit on input amplification factor (from DTD and entities) breached.
        public static let amplificationLimitBreach = Code(rawValue: 43)
        /// `XML_ERROR_NOT_STARTED` (expat 2.6.4 and later): parser not started.
        public static let notStarted = Code(rawValue: 44)

        /// The input ended before the document was complete: inside a token, or with
        /// elements still open. (Expat reports these as `noElements`, `unclosedToken`,
        /// `partialCharacter` or `unclosedCDATASection`; an input with no root element
        /// at all stays ``noElements``.)
        public static let truncated = Code(rawValue: 1000)
        /// Elements nest deeper than ``SafetyProfile/maximumDepth``.
        public static let depthLimitExceeded = Code(rawValue: 1001)
        /// An element has, or declares, more attributes than ``SafetyProfile/maximumAttributes``.
        public static let attributeLimitExceeded = Code(rawValue: 1002)
        /// A name is longer than ``SafetyProfile/maximumNameBytes``.
        public static let nameLimitExceeded = Code(rawValue: 1003)
        /// A single token is larger than ``SafetyProfile/maximumTokenBytes``.
        public static let tokenLimitExceeded = Code(rawValue: 1004)
        /// An element's coalesced text is longer than ``SafetyProfile/maximumTextBytes``.
        public static let textLimitExceeded = Code(rawValue: 1005)
        /// The DTD declares more entities than ``SafetyProfile/maximumEntityDeclarations``.
        public static let entityLimitExceeded = Code(rawValue: 1006)
        /// Expat needed more memory than ``SafetyProfile/maximumParserMemoryBytes``.
        public static let memoryLimitExceeded = Code(rawValue: 1007)
        /// The document references an external entity; external entities are never read.
        public static let externalEntityForbidden = Code(rawValue: 1008)
        /// The DOCTYPE has an internal subset and ``SafetyProfile/allowsInternalSubset`` is off.
        public static let internalSubsetForbidden = Code(rawValue: 1009)
        /// More values waited for a stream's consumer than ``XMLStreamOutput/maximumWaitingValues``:
        /// the parse cannot pause inside an internal entity's replacement text, and one
        /// reference expanded to more values than that.
        public static let streamBacklogExceeded = Code(rawValue: 1010)
        /// A typed record's lists and nested records held more than
        /// ``XMLRecord/maximumRecordBytes(_:)`` allows, or an element decoded by
        /// ``XMLRecordDecoder`` more than ``XMLRecordDecoder/maximumRecordBytes``: the
        /// position and path are the record element's start tag, ``XMLParseError/limit`` the limit.
        public static let recordSizeLimitExceeded = Code(rawValue: 1011)

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
            43: "amplificationLimitBreach", 44: "notStarted",
            1000: "truncated", 1001: "depthLimitExceeded", 1002: "attributeLimitExceeded",
            1003: "nameLimitExceeded", 1004: "tokenLimitExceeded", 1005: "textLimitExceeded",
            1006: "entityLimitExceeded", 1007: "memoryLimitExceeded", 1008: "externalEntityForbidden",
            1009: "internalSubsetForbidden", 1010: "streamBacklogExceeded",
            1011: "recordSizeLimitExceeded",
        ]
    }
}
