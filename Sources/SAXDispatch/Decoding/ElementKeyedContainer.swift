/// Reads an element's children, attributes and text by key.
struct ElementKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    /// The element and decoder the container reads; its factory may point a container it
    /// keeps at another element once nothing else holds it (``KeyedContainerFactory``).
    let state: KeyedContainerState

    init(state: KeyedContainerState) {
        self.state = state
    }

    /// The decoder the container was made from: the parent of the decoders of its keys.
    @inline(__always)
    private var decoder: ElementDecoder {
        // A state has a decoder whenever something other than its factory holds the container.
        state.decoder!
    }

    @inline(__always)
    private var element: Int { state.element }

    var codingPath: [any CodingKey] { decoder.codingPath }
    private var session: DecodingSession { decoder.session }
    private var subtree: CapturedSubtree { decoder.session.subtree }

    /// Every child name, attribute name, and the text key when the element has text, as
    /// keys of `Key` (names converted back for the snake and kebab key strategies).
    var allKeys: [Key] {
        var names: [String] = []
        var seen = Set<String>()
        for child in subtree.children(of: element) where seen.insert(subtree.elements[child].name).inserted {
            names.append(subtree.elements[child].name)
        }
        for index in subtree.elements[element].attributes where seen.insert(subtree.attributes[index].name).inserted {
            names.append(subtree.attributes[index].name)
        }
        var keys = names.compactMap { Key(stringValue: swiftName($0)) }
        if !subtree.elements[element].text.isEmpty, let text = Key(stringValue: session.options.textKey) {
            keys.append(text)
        }
        let captured = subtree.elements[element]
        if captured.hasUncapturedChildren || captured.hasUncapturedAttributes {
            session.noteIncompleteListing("part of the element", of: element, codingPath: codingPath)
        }
        return keys
    }

    private func swiftName(_ xmlName: String) -> String {
        let separator: Character
        switch session.options.keyDecodingStrategy {
        case .useDefaultKeys, .custom: return xmlName
        case .convertFromSnakeCase: separator = "_"
        case .convertFromKebabCase: separator = "-"
        }
        let words = xmlName.split(separator: separator)
        guard let first = words.first else { return xmlName }
        return String(first) + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    // MARK: Finding a key

    /// What `key` reads here, or `nil` when the element has no such child or attribute.
    /// - Throws: When the capture left out what `key` names (see ``XMLRecordDecoder/KeyPruning/probe``).
    private func resolve(_ key: Key) throws -> DecodedValue? {
        switch state.keys.target(key, in: session) {
        case .text:
            return .string(subtree.elements[element].text, owner: element)
        case .element:
            return .element(element, mayBeWrapper: false)
        case .attribute(let name):
            if let value = subtree.attribute(name, of: element) { return .string(value, owner: element) }
            try checkCaptured(attribute: name, in: element, key)
            return nil
        case .name(let name):
            let attributesFirst = if case .beforeElements = session.options.attributeLookup { true } else { false }
            // Made once: most keys are names as written, their own attribute name.
            let attribute = name.attributeName
            if attributesFirst, let value = subtree.attribute(attribute, of: element) {
                return .string(value, owner: element)
            }
            if let children = children(named: name, of: element) { return children }
            if !attributesFirst, let value = subtree.attribute(attribute, of: element) {
                return .string(value, owner: element)
            }
            try checkCapturedAbsent(name, attribute: attribute, in: element, key)
            return nil
        case .path(let steps, let attribute):
            let current = try elements(along: steps, key)
            if let attribute {
                for owner in current { try checkCaptured(attribute: attribute, in: owner, key) }
                let values = current.compactMap { owner in subtree.attribute(attribute, of: owner).map { ($0, owner) } }
                guard let first = values.first else { return nil }
                // Several elements' values are a list (one string each), read as a scalar the first.
                return values.count == 1 ? .string(first.0, owner: first.1) : .strings(values.map(\.0), owner: first.1)
            }
            return current.isEmpty ? nil : .elements(current)
        }
    }

    /// The elements a path key's `steps` lead to from ``element``, in document order.
    ///
    /// Walked one element at a time while each step finds one (`revision/text`), with no
    /// list per step; from a step that finds several, by ``elements(from:along:_:)``.
    private func elements(along steps: [KeyName], _ key: Key) throws -> [Int] {
        var single = element
        for (index, step) in steps.enumerated() {
            try checkCaptured(step, in: single, key)
            let rest = steps[(index + 1)...]
            if subtree.hasIndexedChildren(single) {
                let found = subtree.indexedChildren(of: single, named: step) ?? []
                guard found.count == 1 else { return found.isEmpty ? [] : try elements(from: found, along: rest, key) }
                single = found[0]
                continue
            }
            var found = -1
            for child in subtree.children(of: single) where subtree.isNamed(child, step) {
                if found >= 0 {
                    let all = subtree.children(of: single).filter { subtree.isNamed($0, step) }
                    return try elements(from: all, along: rest, key)
                }
                found = child
            }
            guard found >= 0 else { return [] }
            single = found
        }
        return [single]
    }

    /// The elements `steps` lead to from `current`, each step from every element the one
    /// before found.
    private func elements(from current: [Int], along steps: ArraySlice<KeyName>, _ key: Key) throws -> [Int] {
        var current = current
        for step in steps {
            var next: [Int] = []
            for parent in current {
                try checkCaptured(step, in: parent, key)
                if subtree.hasIndexedChildren(parent) {
                    next += subtree.indexedChildren(of: parent, named: step) ?? []
                    continue
                }
                for child in subtree.children(of: parent) where subtree.isNamed(child, step) { next.append(child) }
            }
            current = next
        }
        return current
    }

    /// The children `name` reads: one as `.element`, several as `.elements`.
    @inline(__always)
    private func children(named name: KeyName, of parent: Int) -> DecodedValue? {
        if _slowPath(subtree.hasIndexedChildren(parent)) {
            guard let found = subtree.indexedChildren(of: parent, named: name), let first = found.first else { return nil }
            return found.count == 1 ? .element(first, mayBeWrapper: true) : .elements(found)
        }
        var first = -1
        var more: [Int]?
        // Names as written first: a name in a namespace equals none of them.
        for child in subtree.children(of: parent) where subtree.elements[child].name == name.key {
            if first < 0 {
                first = child
            } else {
                if more == nil {
                    // One allocation for all of them: no more than the parent's children.
                    var all: [Int] = []
                    all.reserveCapacity(subtree.elements[parent].childCount)
                    all.append(first)
                    more = all
                }
                more?.append(child)
            }
        }
        if let more { return .elements(more) }
        if first >= 0 { return .element(first, mayBeWrapper: true) }
        guard name.isNamespaced, name.isAnyNamespace || subtree.elements[parent].hasNamespacedChildren else { return nil }
        return children(byNamespace: name, of: parent)
    }

    /// ``children(named:of:)`` for a name read by namespace.
    private func children(byNamespace name: KeyName, of parent: Int) -> DecodedValue? {
        let found = subtree.children(of: parent).filter { subtree.isNamed($0, name) }
        guard let first = found.first else { return nil }
        return found.count == 1 ? .element(first, mayBeWrapper: true) : .elements(found)
    }

    /// Throws when child `name`, or attribute `attribute` (the name's ``KeyName/attributeName``),
    /// is absent only because the capture left it out. Element after element the same keys
    /// are absent (an optional or empty list), and what a schema captures only grows: a name
    /// found captured both ways is remembered by the schema and not looked up again.
    @inline(__always)
    private func checkCapturedAbsent(_ name: KeyName, attribute: KeyName, in parent: Int, _ key: Key) throws {
        guard let schema = subtree.elements[parent].schema else { return }
        // A name in a namespace may read another attribute: remembered only for names as written.
        let remembers = !name.isNamespaced
        if remembers && schema.isKnownToCapture(childAndAttribute: name.key) { return }
        try checkCaptured(name, in: parent, key)
        try checkCaptured(attribute: attribute, in: parent, key)
        if remembers { schema.noteCaptures(childAndAttribute: name.key) }
    }

    /// Throws when child `name` is absent only because the capture left it out: the probe
    /// of the type did not see it asked for. From the next element on it is captured.
    private func checkCaptured(_ name: KeyName, in parent: Int, _ key: Key) throws {
        guard let schema = subtree.elements[parent].schema, !schema.captures(name) else { return }
        session.learn(.child(name), in: schema)
        throw notCaptured("<\(name)>", in: parent, key)
    }

    /// Throws when attribute `name` is absent only because the capture left it out.
    private func checkCaptured(attribute name: KeyName, in owner: Int, _ key: Key) throws {
        guard let schema = subtree.elements[owner].schema, !schema.captures(attribute: name) else { return }
        session.learn(.attribute(name), in: schema)
        throw notCaptured("attribute \"\(name)\"", in: owner, key)
    }

    private func notCaptured(_ what: String, in element: Int, _ key: Key) -> DecodingError {
        DecodingError.keyNotFound(key, session.notCapturedContext(what, in: element, codingPath: codingPath))
    }

    /// What `key` reads, or `.absent`.
    private func value(_ key: Key) throws -> DecodedValue {
        try resolve(key) ?? .absent(owner: element)
    }

    /// The decoder of `value`, which `key` read.
    private func decoder(_ value: DecodedValue, _ key: Key) -> ElementDecoder {
        ElementDecoder(session: session, value: value, parent: decoder, step: .key(key))
    }

    private func decoder(for key: Key) throws -> ElementDecoder {
        decoder(try value(key), key)
    }

    /// Decodes `value`, which `key` read: text without a decoder, the rest through one.
    private func decode<T: Decodable>(_ type: T.Type, _ value: DecodedValue, _ key: Key) throws -> T {
        let kind = session.kind(of: T.self)
        switch (kind, value) {
        case (.text(let text), _) where value.isPresent:
            return try ElementDecoder.decodeText(T.self, text, value, in: session) { decoder(value, key) }
        case (.list(let list), .absent):
            return ElementDecoder.emptyList(list, as: T.self)
        case (.list(let list), _):
            return try ElementDecoder.decodeList(list, as: T.self, value, under: decoder, key: key)
        default:
            return try decoder(value, key).decodeValue(T.self, kind)
        }
    }

    /// Converts what `key` reads; a decoder is made only to describe a failure.
    private func convert<C: XMLTextConvertible>(_ type: C.Type, _ key: Key) throws -> C {
        let value = try value(key)
        return try ElementDecoder.convert(C.self, value, in: session) { decoder(value, key) }
    }

    // MARK: KeyedDecodingContainerProtocol

    /// Whether the element has what `key` names. `true` when the capture left it out, so
    /// that the decode that follows reports that rather than reading it as absent.
    func contains(_ key: Key) -> Bool {
        do { return try resolve(key) != nil } catch { return true }
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let value = try resolve(key) else { return true }
        return value.isNil(in: subtree, emptyElementsAreNil: session.options.emptyElementsAreNil)
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decode(T.self, try value(key), key)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try present(T.self, key)
    }

    /// The value of `key`, or `nil` when it is absent or nil, finding the key once (the
    /// protocol's own `decodeIfPresent` finds it three times: `contains`, `decodeNil`, `decode`).
    ///
    /// A value that is present but empty is what `T` reads from it (`""` for a `String`), or
    /// `nil` when `T` reads nothing from it (an `Int`, a `Date`): the rule records and
    /// `saxdispatch extract` follow too.
    private func present<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        guard let value = try resolve(key),
            !value.isNil(in: subtree, emptyElementsAreNil: session.options.emptyElementsAreNil)
        else { return nil }
        if value.isEmpty(in: subtree, as: session.kind(of: T.self)) {
            return try? decode(T.self, value, key)
        }
        return try decode(T.self, value, key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try decoder(for: key).container(keyedBy: NestedKey.self)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder(for: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ElementDecoder(session: session, value: .element(element, mayBeWrapper: false), parent: decoder, step: nil)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try decoder(for: key)
    }

    // The scalar requirements convert text without a decoder.
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try convert(Bool.self, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try convert(String.self, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try convert(Double.self, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try convert(Float.self, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try convert(Int.self, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try convert(Int8.self, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try convert(Int16.self, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try convert(Int32.self, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try convert(Int64.self, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try convert(UInt.self, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try convert(UInt8.self, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try convert(UInt16.self, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try convert(UInt32.self, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try convert(UInt64.self, key) }

    // What synthesized conformances call for optional scalars.
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try present(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try present(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try present(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try present(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try present(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try present(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try present(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try present(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try present(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try present(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try present(type, key) }
}
