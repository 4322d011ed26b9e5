#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A `Decoder` over one value of a captured subtree.
///
/// A class: `init(from:)` receives it as `any Decoder` and containers keep it, so what is
/// passed and copied is one reference (a struct this size would go into a heap box for
/// every `init(from:)` and be copied field by field into every container). Its coding path is
/// the chain of parents, joined only when asked for, by an error or by the caller's code.
/// Text read by key or as a list item makes no decoder at all unless it fails to convert
/// (``decodeText(_:_:_:in:describedBy:)``).
final class ElementDecoder: Decoder {
    /// The last key of a coding path: a container's key, or a list item's index.
    enum PathStep {
        case key(any CodingKey)
        case index(Int)
    }

    let session: DecodingSession
    // Changed only by `reuse`, when nothing else holds the decoder: no exclusivity checks.
    @exclusivity(unchecked) private(set) var value: DecodedValue
    /// The decoder of the container this value is in; `nil` for the matched element.
    let parent: ElementDecoder?
    // The steps from the parent's value to this one, kept as two fields: an existential in
    // an enum, assigned per reused decoder, would go through the runtime's generic value
    // witnesses at every record and every list item. A list item read by a key has both
    // (``init(session:value:parent:key:index:)``): the key of its list, then its index.
    @exclusivity(unchecked) private var stepKey: (any CodingKey)?
    /// A list item's index, or -1.
    @exclusivity(unchecked) private var stepIndex: Int

    init(session: DecodingSession, value: DecodedValue, parent: ElementDecoder?, step: PathStep?) {
        self.session = session
        self.value = value
        self.parent = parent
        switch step {
        case .key(let key):
            stepKey = key
            stepIndex = -1
        case .index(let index):
            stepKey = nil
            stepIndex = index
        case nil:
            stepKey = nil
            stepIndex = -1
        }
    }

    /// The last step from the parent's value to this one; `nil` for the matched element and
    /// for a container's super decoder (which has its container's path).
    var step: PathStep? {
        if stepIndex >= 0 { return .index(stepIndex) }
        return stepKey.map { .key($0) }
    }

    /// A decoder for item `index` of the list that `key` reads in `parent`'s container:
    /// its coding path is the parent's, the key and the index. The list itself needs no
    /// decoder of its own (``DecodableElementList/decodeItems(_:under:key:)``).
    init(session: DecodingSession, value: DecodedValue, parent: ElementDecoder, key: (any CodingKey)?, index: Int) {
        self.session = session
        self.value = value
        self.parent = parent
        stepKey = key
        stepIndex = index
    }

    /// Keeps a decoder between values, for ``reuse(_:session:value:parent:index:)``.
    final class Slot {
        @exclusivity(unchecked) var decoder: ElementDecoder?
    }

    /// A decoder for `value`, item `index` of its parent's list (`nil`: the matched
    /// element), read by `key` in the parent's container (`nil`: the parent is the list's
    /// own decoder): `spare` pointed at it when nothing but `spare` holds that decoder any
    /// more (the value decoded with it kept no container or decoder), else a new one, kept
    /// in `spare` for the next value. Saves an allocation per list item and per record.
    ///
    /// A spare serves one list, or the matched elements of one parse: its parent and key
    /// are those of every value it is pointed at.
    static func reuse(
        _ spare: inout ElementDecoder?, session: DecodingSession, value: DecodedValue, parent: ElementDecoder?,
        key: (any CodingKey)? = nil, index: Int?
    ) -> ElementDecoder {
        if isKnownUniquelyReferenced(&spare), let decoder = spare, decoder.parent === parent {
            decoder.value = value
            decoder.stepIndex = index ?? -1
            return decoder
        }
        let decoder =
            if let parent, let index {
                ElementDecoder(session: session, value: value, parent: parent, key: key, index: index)
            } else {
                ElementDecoder(session: session, value: value, parent: parent, step: index.map { .index($0) })
            }
        spare = decoder
        return decoder
    }

    var codingPath: [any CodingKey] {
        var keys: [any CodingKey] = []
        var decoder: ElementDecoder? = self
        while let current = decoder {
            // Last step first: the whole path is reversed below.
            if current.stepIndex >= 0 { keys.append(ElementIndexKey(current.stepIndex)) }
            if let key = current.stepKey { keys.append(key) }
            decoder = current.parent
        }
        return keys.reversed()
    }

    var userInfo: [CodingUserInfoKey: Any] { session.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        switch value {
        case .element(let element, _):
            return session.keyedContainer(Key.self, decoder: self, element: element)
        case .elements(let elements):
            guard let first = elements.first else { throw mismatch(Key.self, "no element") }
            return session.keyedContainer(Key.self, decoder: self, element: first)
        case .string, .strings:
            throw mismatch([String: Any].self, "text, which has no children or attributes")
        case .absent:
            throw missingKey()
        }
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        ElementUnkeyedContainer(decoder: self, items: listItems())
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        if case .absent = value { throw missingKey() }
        return ElementSingleValueContainer(decoder: self)
    }

    // MARK: Reading values

    /// The element whose position and name describe this value.
    var owner: Int { value.owner }

    /// The text a scalar is read from: an element's own text, an attribute's value, a token.
    var text: String { value.text(in: session.subtree) }

    /// Whether the value is nil: nothing at all, an element marked `nil="nil"` or
    /// `xsi:nil="true"`, or an empty element when the decoder reads those as nil.
    var isNil: Bool { value.isNil(in: session.subtree, emptyElementsAreNil: session.options.emptyElementsAreNil) }

    /// Whether the value is an element that says it is nil (`nil="nil"`, `xsi:nil="true"`):
    /// unlike ``isNil``, not an empty element, whatever the options.
    var isMarkedNil: Bool { value.isMarkedNil(in: session.subtree) }

    /// How a type is read, found once per type and list rather than once per value.
    enum ValueKind {
        /// Converted from its text with its ``XMLTextConvertible`` initializer.
        case text(TextKind)
        /// Read from its text by the decoder's strategies.
        case date, url, data
        case list(any DecodableElementList.Type)
        case decodable

        /// Whether the value is read from its text by the decoder's own strategies rather
        /// than converted (``ElementDecoder/convert(_:)`` checks for nil markers itself).
        var readsTextByStrategy: Bool {
            switch self {
            case .date, .url, .data: true
            default: false
            }
        }

        init<T>(of type: T.Type) {
            // The common types by identity: cheaper than a conformance lookup.
            if T.self == String.self {
                self = .text(.string)
            } else if T.self == Int.self {
                self = .text(.int)
            } else if T.self == Double.self {
                self = .text(.double)
            } else if T.self == Bool.self {
                self = .text(.bool)
            } else if T.self == Date.self {
                self = .date
            } else if T.self == URL.self {
                self = .url
            } else if T.self == Data.self {
                self = .data
            } else if let convertible = T.self as? any XMLTextConvertible.Type {
                self = .text(.convertible(convertible))
            } else if let list = T.self as? any DecodableElementList.Type {
                self = .list(list)
            } else {
                self = .decodable
            }
        }
    }

    /// A type converted from text: the standard ones by identity, or any ``XMLTextConvertible``.
    enum TextKind {
        case string, int, double, bool
        case convertible(any XMLTextConvertible.Type)
    }

    /// Decodes the value as `T`: text conversions for the standard scalar types, the
    /// decoder's strategies for dates, URLs and data, `init(from:)` for the rest.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        try decodeValue(T.self, session.kind(of: T.self))
    }

    /// Decodes the value as `T`, which is read as `kind` says.
    func decodeValue<T: Decodable>(_ type: T.Type, _ kind: ValueKind) throws -> T {
        if case .absent = value {
            // Only a list reads nothing (as empty); the rest throw from their containers.
            if case .list(let list) = kind { return Self.emptyList(list, as: T.self) }
            do { return try T(from: self) } catch is DecodingError { throw missingKey() }
        }
        if kind.readsTextByStrategy && isMarkedNil { throw markedNil(T.self) }
        // (`unsafeBitCast` between a type and itself: the kind was found by identity.)
        switch kind {
        case .text(let text): return try Self.decodeText(T.self, text, value, in: session) { self }
        case .date: return unsafeBitCast(try decodeDate(), to: T.self)
        case .url: return unsafeBitCast(try decodeURL(), to: T.self)
        case .data: return unsafeBitCast(try decodeData(), to: T.self)
        case .list(let list): return try decodeListOpened(list, as: T.self)
        case .decodable: break
        }
        do {
            return try T(from: self)
        } catch let error as DecodingError {
            throw locate(error)
        }
    }

    /// Converts `value`, of type `T` which `kind` says is converted from text, without
    /// a decoder: `describe` makes the decoder a failure is described by, and is called
    /// only then.
    static func decodeText<T>(
        _ type: T.Type, _ kind: TextKind, _ value: DecodedValue, in session: DecodingSession,
        describedBy describe: () -> ElementDecoder
    ) throws -> T {
        // (`unsafeBitCast` between a type and itself: the kind was found by identity.)
        switch kind {
        case .string: unsafeBitCast(try convert(String.self, value, in: session, describedBy: describe), to: T.self)
        case .int: unsafeBitCast(try convert(Int.self, value, in: session, describedBy: describe), to: T.self)
        case .double: unsafeBitCast(try convert(Double.self, value, in: session, describedBy: describe), to: T.self)
        case .bool: unsafeBitCast(try convert(Bool.self, value, in: session, describedBy: describe), to: T.self)
        case .convertible(let convertible): try convertOpened(convertible, as: T.self, value, in: session, describedBy: describe)
        }
    }

    // The opened type is `T` itself (``ValueKind`` wrapped `T.self`), so its value is
    // handed back by a bit cast: `as? T` would make every `decodeValue` call, whatever
    // the kind, ask the runtime for `Optional<T>`'s metadata.

    private static func convertOpened<C: XMLTextConvertible, T>(
        _ type: C.Type, as: T.Type, _ value: DecodedValue, in session: DecodingSession,
        describedBy describe: () -> ElementDecoder
    ) throws -> T {
        unsafeBitCast(try convert(C.self, value, in: session, describedBy: describe), to: T.self)
    }

    /// Converts the text with the type's ``XMLTextConvertible`` initializer.
    func convert<C: XMLTextConvertible>(_ type: C.Type) throws -> C {
        try Self.convert(C.self, value, in: session) { self }
    }

    /// Converts `value`'s text with the type's ``XMLTextConvertible`` initializer;
    /// `describe` makes the decoder a failure is described by, and is called only then.
    static func convert<C: XMLTextConvertible>(
        _ type: C.Type, _ value: DecodedValue, in session: DecodingSession, describedBy describe: () -> ElementDecoder
    ) throws -> C {
        if case .absent = value { throw describe().missingKey() }
        let subtree = session.subtree
        if value.isMarkedNil(in: subtree) { throw describe().markedNil(C.self) }
        let text = value.text(in: subtree)
        do {
            return try C(xmlText: text)
        } catch {
            throw describe().conversionFailure(text, C.self, error)
        }
    }

    private func decodeDate() throws -> Date {
        switch session.options.dateDecodingStrategy {
        case .iso8601: return try convert(Date.self)
        case .format(let format):
            let text = self.text
            do { return try format.date(from: text) } catch { throw conversionFailure(text, Date.self, error, as: format.name) }
        case .custom(let decode):
            do { return try decode(self) } catch let error as DecodingError { throw locate(error) }
        }
    }

    private func decodeURL() throws -> URL {
        if let name = session.urlAttribute, case .element = value,
            let href = session.subtree.attribute(name, of: owner)
        {
            return try url(from: href)
        }
        // Absent and nil-marked values were turned away by ``decodeValue(_:_:)``.
        return try url(from: text)
    }

    private func url(from text: String) throws -> URL {
        do {
            return try URL(xmlText: text, encodingInvalidCharacters: session.options.encodesInvalidCharactersInURLs)
        } catch {
            throw conversionFailure(text, URL.self, error)
        }
    }

    private func decodeData() throws -> Data {
        let text = self.text
        switch session.options.dataDecodingStrategy {
        case .base64:
            guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
                throw conversionFailure(text, Data.self, ValueConversionError("expected base64"))
            }
            return data
        case .custom(let decode):
            do { return try decode(text) } catch { throw conversionFailure(text, Data.self, error) }
        }
    }

    // MARK: Errors

    /// The error for an absent value: the last key of the coding path names nothing in its element.
    func missingKey() -> DecodingError {
        let containerPath = Array(codingPath.dropLast())
        guard let key = codingPath.last else {
            return DecodingError.valueNotFound(
                Any.self, DecodingError.Context(codingPath: [], debugDescription: "\(session.location(of: owner)): no value"))
        }
        let name: String
        switch session.lookup(key) {
        case .text: name = "text"
        case .element: name = "element"
        case .attribute(let attribute): name = "attribute \"\(attribute)\""
        case .name(let child): name = "element or attribute \"\(child)\""
        case .path: name = "\"\(session.lookup(key).xmlPath)\""
        }
        return DecodingError.keyNotFound(
            key,
            DecodingError.Context(
                codingPath: containerPath,
                debugDescription:
                    "\(session.location(of: owner)): no \(name) in <\(MessageText.name(session.subtree.elements[owner].name))>"
                    + " at \(session.elementPath(containerPath)) (decoding \(session.typeName))"))
    }

    func conversionFailure<T>(_ text: String, _ type: T.Type, _ error: any Error, as name: String? = nil) -> DecodingError {
        let reason = (error as? ValueConversionError).map { ": \($0.reason)" } ?? ""
        return DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: codingPath,
                debugDescription:
                    "\(session.location(of: owner)): cannot convert \(DecodingSession.quoted(text)) to \(name ?? String(describing: T.self))"
                    + " at \(session.elementPath(codingPath)) (decoding \(session.typeName))\(reason)",
                underlyingError: error))
    }

    /// The error for an element marked nil where a non-optional value is required.
    func markedNil<T>(_ type: T.Type) -> DecodingError {
        DecodingError.valueNotFound(
            T.self,
            DecodingError.Context(
                codingPath: codingPath,
                debugDescription:
                    "\(session.location(of: owner)): marked nil, but \(T.self) is required at \(session.elementPath(codingPath))"
                    + " (decoding \(session.typeName))"))
    }

    func mismatch<T>(_ type: T.Type, _ found: String) -> DecodingError {
        DecodingError.typeMismatch(
            T.self,
            DecodingError.Context(
                codingPath: codingPath,
                debugDescription:
                    "\(session.location(of: owner)): expected \(T.self), found \(found) at \(session.elementPath(codingPath))"
                    + " (decoding \(session.typeName))"))
    }

    /// Adds the position, path and text to an error a type's own `init(from:)` threw
    /// about this value (a `RawRepresentable` enum's unknown raw value, say).
    func locate(_ error: DecodingError) -> DecodingError {
        func located(_ context: DecodingError.Context) -> DecodingError.Context {
            guard !context.debugDescription.contains("(decoding \(session.typeName))") else { return context }
            var description = "\(session.location(of: owner)): \(context.debugDescription)"
            description += " at \(session.elementPath(context.codingPath))"
            // The text, when the value is text: a string, or an element without children.
            let isText =
                switch value {
                case .string, .strings: true
                default: session.subtree.elements[owner].firstChild < 0
                }
            if isText { description += ", text \(DecodingSession.quoted(text))" }
            description += " (decoding \(session.typeName))"
            return DecodingError.Context(
                codingPath: context.codingPath, debugDescription: description, underlyingError: context.underlyingError)
        }
        switch error {
        case .dataCorrupted(let context): return .dataCorrupted(located(context))
        case .typeMismatch(let type, let context): return .typeMismatch(type, located(context))
        case .valueNotFound(let type, let context): return .valueNotFound(type, located(context))
        case .keyNotFound(let key, let context): return .keyNotFound(key, located(context))
        @unknown default: return error
        }
    }
}
