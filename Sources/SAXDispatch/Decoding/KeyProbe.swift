#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Compiled once per decoded type: a `Decoder` that learns which children a `Decodable`
/// type reads by decoding it once from nothing, when its ``DecodingSession`` is made: every
/// key is present, every value a placeholder (`""`, `0`, `false`, an enum's first case),
/// every list one item long. What the type asks for becomes a ``KeySchema``.
///
/// Where the probe cannot go on (a type that rejects the placeholder, `allKeys`, a type
/// nested deeper than ``maximumDepth``), the containers it was in capture everything, so
/// the schema never leaves out what a real decode may read.
struct KeyProbe: Decoder {
    let schema: KeySchema
    let session: DecodingSession
    let depth: Int
    /// The schema of the element whose whole text or inner markup this probe's value
    /// stands for, when it is not ``schema``'s: the element's, for its text key.
    var contentSchema: KeySchema? = nil
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { session.userInfo }

    /// Past this depth, lists are empty and optional keys absent to the probe, and what
    /// they name is captured whole: that ends the probe of a recursive type (a tree of
    /// items with items) without losing what lies deeper.
    static let recursionDepth = 16
    /// Types nested deeper than this are captured whole.
    static let maximumDepth = 32

    /// The schema of `type`'s elements.
    static func schema<T: Decodable>(
        of type: T.Type, session: DecodingSession, processesNamespaces: Bool
    ) -> KeySchema {
        let schema = KeySchema(processesNamespaces: processesNamespaces)
        do {
            _ = try KeyProbe(schema: schema, session: session, depth: 0).value(T.self)
        } catch {
            schema.capturesEverything = true
        }
        return schema
    }

    /// The probe for what `key` reads in this probe's element.
    func at(_ key: some CodingKey) -> KeyProbe {
        let target: KeySchema
        switch session.lookup(key) {
        case .text:
            // Text is always captured; read whole or as markup, it is the element's.
            return KeyProbe(
                schema: KeySchema(processesNamespaces: schema.processesNamespaces), session: session, depth: depth + 1,
                contentSchema: schema)
        case .element:
            target = schema
        case .attribute(let name):
            schema.readAttribute(name)
            target = KeySchema(processesNamespaces: schema.processesNamespaces)
        case .name(let name):
            schema.readAttribute(name.attributeName)
            target = schema.child(name)
        case .path(let steps, let attribute):
            var current = schema
            for step in steps { current = current.child(step) }
            if let attribute {
                current.readAttribute(attribute)
                target = KeySchema(processesNamespaces: schema.processesNamespaces)
            } else {
                target = current
            }
        }
        return KeyProbe(schema: target, session: session, depth: depth + 1)
    }

    /// A placeholder `T`, learning what `T` reads on the way.
    func value<T: Decodable>(_ type: T.Type) throws -> T {
        if let placeholder = try placeholder(T.self) { return placeholder }
        guard depth < Self.maximumDepth else { throw ProbeEnded() }
        return try T(from: self)
    }

    /// A value for the types the decoder reads from text, `nil` for the others.
    private func placeholder<T: Decodable>(_ type: T.Type) throws -> T? {
        if T.self == String.self { return unsafeBitCast("", to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(false, to: T.self) }
        if T.self == Date.self {
            if case .custom(let decode) = session.options.dateDecodingStrategy { _ = try? decode(self) }
            return unsafeBitCast(Date(timeIntervalSince1970: 0), to: T.self)
        }
        if T.self == URL.self {
            if let name = session.urlAttribute { schema.readAttribute(name) }
            return unsafeBitCast(URL(fileURLWithPath: "/"), to: T.self)
        }
        if T.self == Data.self { return unsafeBitCast(Data(), to: T.self) }
        if let numeric = T.self as? any AdditiveArithmetic.Type, let zero = Self.zero(numeric) as? T { return zero }
        if let enumeration = T.self as? any (CaseIterable & RawRepresentable).Type,
            let first = Self.firstCase(enumeration) as? T
        {
            return first
        }
        if let convertible = T.self as? any XMLTextConvertible.Type {
            for text in ["", "0", "1", "true", "1970-01-01T00:00:00Z", "x"] {
                if let value = try? Self.converted(text, convertible) as? T { return value }
            }
            throw ProbeEnded()
        }
        return nil
    }

    private static func zero<N: AdditiveArithmetic>(_ type: N.Type) -> Any { N.zero }
    private static func firstCase<E: CaseIterable & RawRepresentable>(_ type: E.Type) -> Any? { E.allCases.first }
    private static func converted<C: XMLTextConvertible>(_ text: String, _ type: C.Type) throws -> Any {
        try C(xmlText: text)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(ProbeKeyedContainer<Key>(probe: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        schema.readsAnyChildAsItem = true
        return ProbeUnkeyedContainer(probe: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ProbeSingleValueContainer(probe: self)
    }

    /// Runs `body`; if it throws, the probe of this element ends there, so everything in
    /// the element is captured.
    func guarded<R>(_ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch {
            schema.capturesEverything = true
            throw error
        }
    }
}

/// The probe could not go on; its containers capture everything.
struct ProbeEnded: Error {}

private struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let probe: KeyProbe
    var codingPath: [any CodingKey] { [] }

    var allKeys: [Key] {
        probe.schema.capturesEverything = true
        return []
    }

    func contains(_ key: Key) -> Bool {
        guard probe.depth >= KeyProbe.recursionDepth else { return true }
        probe.at(key).schema.capturesEverything = true
        return false
    }
    func decodeNil(forKey key: Key) throws -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try probe.guarded { try probe.at(key).value(T.self) }
    }

    /// An optional value the probe cannot build (a `UUID` from placeholder text, an enum
    /// without cases to try) is captured whole, and the probe goes on as if it were absent:
    /// the other keys keep their pruning.
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        let target = probe.at(key)
        do {
            return try target.value(T.self)
        } catch {
            target.schema.capturesEverything = true
            return nil
        }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try probe.at(key).container(keyedBy: NestedKey.self)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try probe.at(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { probe }
    func superDecoder(forKey key: Key) throws -> any Decoder { probe.at(key) }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(type, key) }

    /// Notes the key; the scalar itself is a placeholder.
    private func decode<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        try probe.at(key).value(T.self)
    }
}

/// A list of one item, read with the list element's own schema (the items are either the
/// repeated elements themselves or a wrapper's children, whatever their name).
private struct ProbeUnkeyedContainer: UnkeyedDecodingContainer {
    let probe: KeyProbe
    var codingPath: [any CodingKey] { [] }
    var count: Int? { nil }
    private(set) var currentIndex = 0
    var isAtEnd: Bool {
        if currentIndex > 0 { return true }
        guard probe.depth >= KeyProbe.recursionDepth else { return false }
        probe.schema.capturesEverything = true
        return true
    }

    init(probe: KeyProbe) {
        self.probe = probe
    }

    private var item: KeyProbe { KeyProbe(schema: probe.schema, session: probe.session, depth: probe.depth + 1) }

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        currentIndex += 1
        return try probe.guarded { try item.value(T.self) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        currentIndex += 1
        return try item.container(keyedBy: NestedKey.self)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        currentIndex += 1
        return try item.unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        currentIndex += 1
        return item
    }
}

private struct ProbeSingleValueContainer: SingleValueDecodingContainer {
    let probe: KeyProbe
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { false }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try probe.value(T.self) }
}

extension KeyProbe: ElementContentSource {
    /// Notes that the element's whole text is read; the value is a placeholder.
    func decodeWholeText() throws -> String {
        (contentSchema ?? schema).readsWholeText = true
        return ""
    }

    /// Notes that the element's inner markup is read; the value is a placeholder.
    func decodeInnerMarkup() throws -> String {
        (contentSchema ?? schema).readsInnerMarkup = true
        return ""
    }
}
