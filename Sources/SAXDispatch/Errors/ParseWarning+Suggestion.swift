extension ParseWarning {
    /// An element name the document had that a pattern which matched nothing may have
    /// meant, with how often it occurred.
    public struct Suggestion: Sendable, Hashable, CustomStringConvertible {
        /// How a suggested name relates to the pattern's name.
        public struct Relation: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
            /// The relation's name, such as `otherNamespace`.
            public var rawValue: String

            /// Wraps any relation, named here or not.
            public init(rawValue: String) {
                self.rawValue = rawValue
            }

            public var description: String { rawValue }

            /// The same local name in another namespace, or in one where the pattern
            /// names none (`dc:date` in another URI; `b:customer` for `customer`).
            public static let otherNamespace = Relation(rawValue: "otherNamespace")
            /// The same name but for letter case (`Item` for `item`).
            public static let letterCase = Relation(rawValue: "letterCase")
            /// A name a few edits away (`item` for `itme`).
            public static let spelling = Relation(rawValue: "spelling")
            /// The pattern's own name, which occurred, but not where the pattern's path puts it.
            public static let otherPath = Relation(rawValue: "otherPath")
        }

        /// The name as the document wrote it (`b:customer`).
        public var name: String
        /// Its namespace URI, `nil` for none.
        public var namespaceURI: String?
        /// How many elements the parse read with this name (and namespace).
        public var count: Int
        /// How it relates to the pattern's name.
        public var relation: Relation

        /// A suggestion of `name` in `namespaceURI`, seen `count` times.
        public init(name: String, namespaceURI: String?, count: Int, relation: Relation) {
            self.name = name
            self.namespaceURI = namespaceURI
            self.count = count
            self.relation = relation
        }

        /// How the warning's message lists it: the name in backticks and its count, with its
        /// namespace when it has one (`b:customer` in urn:billing, 3 times).
        ///
        /// ```
        /// `item` (1,048 times)
        /// `b:customer` in urn:billing (3 times)
        /// ```
        public var description: String {
            let times = count == 1 ? "once" : "\(Self.grouped(count)) times"
            guard let namespaceURI else { return "`\(name)` (\(times))" }
            return "`\(name)` in \(namespaceURI) (\(times))"
        }

        /// `1,048` for 1048: digits in groups of three.
        static func grouped(_ value: Int) -> String {
            var digits = String(value.magnitude)
            var index = digits.endIndex
            while digits.distance(from: digits.startIndex, to: index) > 3 {
                index = digits.index(index, offsetBy: -3)
                digits.insert(",", at: index)
            }
            return value < 0 ? "-" + digits : digits
        }
    }
}
