#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Per parse, made by ``XMLRecordDecoder`` for the decoded type: what the element decoders
/// share — the decoder's options, the captured subtree, the key schema the probe learned,
/// and cached key targets (``KeyTarget``).
final class DecodingSession {
    let options: XMLRecordDecoder
    let subtree = CapturedSubtree()
    /// The attribute a `URL` is read from (``XMLRecordDecoder/URLDecodingStrategy/attribute(_:)``).
    let urlAttribute: KeyName?
    /// The type being decoded.
    private let decodedType: any Decodable.Type
    /// The name of the type being decoded, for messages: made only when a message is
    /// (describing a type reflects on it, which costs as much as decoding many elements).
    var typeName: String { String(describing: decodedType) }
    let userInfo: [CodingUserInfoKey: Any]
    /// The schema of the matched elements; `nil` when everything is captured.
    private(set) var schema: KeySchema?
    /// The probe's schema of the matched elements when the type reads some element's whole
    /// text (``XMLStringValue``) or inner markup (``XMLInnerMarkup``), whether or not the
    /// capture prunes; `nil` otherwise.
    private(set) var wholeTextSchema: KeySchema?
    /// The element path of the record being decoded, for error descriptions.
    var recordPath: () -> ElementPath? = { nil }
    /// Key lookups made so far, by key name: a type has a handful of keys, so they are
    /// compared in turn rather than hashed. Keys taken from the data (a dictionary's, or
    /// names a type reads from an attribute) can be any names in the document, so only the
    /// first ``maximumCachedLookups`` are kept: memory and the time of a lookup stay
    /// bounded whatever the input.
    @exclusivity(unchecked) private var lookupNames: [String] = []
    @exclusivity(unchecked) private var lookups: [KeyTarget] = []
    static let maximumCachedLookups = 256
    /// The number of key lookups kept, for tests.
    var cachedLookupCount: Int { lookups.count }
    /// The most names a schema learns from decodes one at a time (children and attributes
    /// the probe had not seen); past it, the elements it describes are captured whole, as
    /// for a type that lists its keys. Keys from the data would otherwise grow the schema,
    /// and the time every captured element takes to look through it, without bound, and
    /// fail a record for each new name.
    static let maximumLearnedNames = 64
    /// Children a decode asked for that the probe had not seen, to capture from the next element on.
    // Read at every captured record and written only by decodes, which never overlap a capture:
    // the runtime's exclusivity checks are left out.
    @exclusivity(unchecked) private var learned: [(key: LearnedKey, schema: KeySchema)] = []

    /// What a decode asked for beyond the probe.
    enum LearnedKey {
        case child(KeyName)
        case attribute(KeyName)
        /// Every child and attribute: a decode listed the element's keys or children.
        case everything
    }

    /// Set when a decode read a list of keys or children that the capture left
    /// incomplete, where it could not throw (`allKeys`): the decode then fails with it.
    @exclusivity(unchecked) private var uncapturedListing: XMLDecodingError?
    /// Whether the current decode set ``uncapturedListing``: checked per record, where a
    /// look at the optional error itself would cost more.
    @exclusivity(unchecked) private var listedUncaptured = false

    /// The context of the error for something a decode asked for that the capture left out.
    func notCapturedContext(_ what: String, in element: Int, codingPath: [any CodingKey]) -> DecodingError.Context {
        DecodingError.Context(
            codingPath: codingPath,
            debugDescription:
                "\(location(of: element)): \(what) was not captured at \(elementPath(codingPath)):"
                + " \(typeName)'s init(from:) asked for it, but not when the decoder probed the type;"
                + " it is captured from the next element on (set keyPruning = .off to capture everything)"
                + " (decoding \(typeName))")
    }

    /// Notes that a decode listed `what` of `element` (its keys, its list of children),
    /// which the capture left incomplete: it is captured whole from the next matched
    /// element on, and this decode fails saying so (a listing cannot throw where it is read).
    func noteIncompleteListing(_ what: String, of element: Int, codingPath: [any CodingKey]) {
        guard let schema = subtree.elements[element].schema else { return }
        learn(.everything, in: schema)
        if !listedUncaptured {
            listedUncaptured = true
            uncapturedListing = located(.dataCorrupted(notCapturedContext(what, in: element, codingPath: codingPath)))
        }
    }

    init<T: Decodable>(_ type: T.Type, options: XMLRecordDecoder) {
        self.options = options
        if case .attribute(let name) = options.urlDecodingStrategy {
            urlAttribute = KeyName(
                parsing: name, namespaces: options.namespaces, processesNamespaces: options.processesNamespaces
            ).attributeName
        } else {
            urlAttribute = nil
        }
        decodedType = T.self
        userInfo = options.userInfo
        if case .probe = options.keyPruning {
            let schema = KeyProbe.schema(of: T.self, session: self, processesNamespaces: options.processesNamespaces)
            self.schema = schema.capturesEverything ? nil : schema
            // What the probe found read whole is gathered even where it gave up on pruning.
            wholeTextSchema = schema.readsContentAnywhere ? schema : nil
        }
    }

    /// The schema to capture the next matched element with, with what earlier decodes learned.
    func schemaForNextElement() -> KeySchema? {
        if learned.isEmpty { return schema }
        for (key, schema) in learned {
            // A held batch of records learns the name it missed once per record: only names
            // new to the schema count towards the limit.
            let isNew: Bool
            switch key {
            case .child(let name): isNew = schema.schema(ofChild: name) == nil
            case .attribute(let name): isNew = !schema.attributes.contains(name)
            case .everything: isNew = false
            }
            if isNew {
                guard schema.learnedNameCount < Self.maximumLearnedNames else {
                    schema.capturesEverything = true
                    continue
                }
                schema.learnedNameCount += 1
            }
            switch key {
            case .child(let name):
                schema.child(name).capturesEverything = true
                schema.readAttribute(name.attributeName)
            case .attribute(let name):
                schema.readAttribute(name)
            case .everything:
                schema.capturesEverything = true
            }
        }
        learned.removeAll()
        return schema
    }

    /// Notes that a decode asked for a child or attribute of an element captured with `schema`.
    func learn(_ key: LearnedKey, in schema: KeySchema) {
        learned.append((key, schema))
    }

    /// How the types decoded so far are read.
    @exclusivity(unchecked) private var kinds = PerTypeCache<ElementDecoder.ValueKind>()

    /// How `T` is read, found once per session: its conformance checks are dynamic casts,
    /// which cost more than the scan.
    func kind<T>(of type: T.Type) -> ElementDecoder.ValueKind {
        kinds.value(for: T.self) { ElementDecoder.ValueKind(of: T.self) }
    }

    /// The container factories made so far, by key type.
    @exclusivity(unchecked) private var factories = PerTypeCache<AnyObject>()

    /// A keyed container over `element`, made by the key type's factory (see
    /// ``KeyedContainerFactory``), which is made the first time the session meets the type:
    /// the factory's kept container when nothing else holds it, listed until the decode that
    /// takes it is done (``returnContainers(downTo:)``).
    func keyedContainer<Key: CodingKey>(
        _ type: Key.Type, decoder: ElementDecoder, element: Int
    ) -> KeyedDecodingContainer<Key> {
        let factory = keyedFactory(Key.self)
        guard factory.keptIsFree else { return factory.make(decoder, element) }
        if !factory.isListed {
            factory.isListed = true
            handedOut.append(factory)
        }
        return factory.reuse(decoder, element)
    }

    /// The factories whose kept container a decode took, in the order taken.
    // Changed by decodes, one at a time: no runtime exclusivity checks.
    @exclusivity(unchecked) private var handedOut: [KeptContainerHolder] = []

    /// How many kept containers are handed out: a mark for ``returnContainers(downTo:)``.
    @inline(__always)
    var handedOutCount: Int { handedOut.count }

    /// Takes back the kept containers handed out since `mark` (``handedOutCount``), once the
    /// decode that took them is done: a list item's, or a record's.
    @inline(__always)
    func returnContainers(downTo mark: Int) {
        if handedOut.count > mark { returnContainersSlowly(downTo: mark) }
    }

    private func returnContainersSlowly(downTo mark: Int) {
        while handedOut.count > mark { handedOut.removeLast().returnKept() }
    }

    /// How many containers the key type's factory handed out again rather than made, for tests.
    func reusedContainerCount<Key: CodingKey>(_ type: Key.Type) -> Int {
        keyedFactory(Key.self).reuseCount
    }

    /// The factory of `Key`'s containers, made the first time.
    @inline(__always)
    private func keyedFactory<Key: CodingKey>(
        _ type: Key.Type
    ) -> KeyedContainerFactory<Key, ElementKeyedContainer<Key>, KeyedDecodingContainer<Key>> {
        typealias Factory = KeyedContainerFactory<Key, ElementKeyedContainer<Key>, KeyedDecodingContainer<Key>>
        // Kept under its key type: the cast is the identity.
        return unsafeDowncast(factories.value(for: Key.self) { Factory.made() }, to: Factory.self)
    }

    /// What a key reads, under the decoder's key strategy.
    func lookup(_ key: some CodingKey) -> KeyTarget {
        let name = key.stringValue
        if let index = lookupNames.firstIndex(of: name) { return lookups[index] }
        let lookup = KeyTarget(name, options: options)
        if lookups.count < Self.maximumCachedLookups {
            lookupNames.append(name)
            lookups.append(lookup)
        }
        return lookup
    }

    /// Decodes the matched element whose subtree starts at `root` in ``subtree``, with the
    /// decoder in `slot` when nothing else holds it any more.
    ///
    /// The slot belongs to the caller: a decoder holds its session, so the session cannot hold one.
    func decode<T: Decodable>(_ type: T.Type, root: Int, reusing slot: ElementDecoder.Slot) throws -> T {
        currentRoot = root
        let decoder = ElementDecoder.reuse(
            &slot.decoder, session: self, value: .element(root, mayBeWrapper: true), parent: nil, index: nil)
        listedUncaptured = false
        failure = nil
        let value: T
        do {
            defer { returnContainers(downTo: 0) }
            value = try decoder.decodeValue(T.self)
        } catch let error as DecodingError {
            throw located(error)
        }
        if _slowPath(listedUncaptured) { try throwUncapturedListing() }
        return value
    }

    private func throwUncapturedListing() throws {
        listedUncaptured = false
        let error = uncapturedListing
        uncapturedListing = nil
        if let error { throw error }
    }

    /// The root of the record being decoded.
    @exclusivity(unchecked) private var currentRoot = 0

    // MARK: Error descriptions

    // Every error a decode makes names its element with `location(of:)` and then, most
    // of them, its path with `elementPath(_:)`: the two note them as the site of the
    // failure being described, which `located(_:)` gives the error thrown out of `decode`.

    /// The element and element path of the last error a decode described.
    @exclusivity(unchecked) private var failure: (element: Int, path: [String]?)?

    /// `zoo.xml:12:9` or `12:9`: where an element starts. Notes the element as the site of
    /// the failure being described.
    func location(of element: Int) -> String {
        failure = (element, nil)
        let element = subtree.elements[element]
        return "\(subtree.source.map { "\($0):" } ?? "")\(element.line):\(element.column)"
    }

    /// The element path a coding path leads to, from the document root:
    /// `zoo/animals/animal[3]/name`. Notes it as the path of the failure being described.
    func elementPath(_ codingPath: [any CodingKey]) -> String {
        let components = elementPathComponents(codingPath)
        failure?.path = components
        return ElementPath(components).abbreviated()
    }

    /// The names of ``elementPath(_:)``, an item's number in its name: `["zoo", "animals", "animal[3]"]`.
    private func elementPathComponents(_ codingPath: [any CodingKey]) -> [String] {
        var path = recordPath()?.components ?? [subtree.elements[currentRoot].name]
        for key in codingPath {
            if let index = key as? ElementIndexKey {
                if path.isEmpty { path.append("") }
                path[path.count - 1] += "[\(index.index + 1)]"
                continue
            }
            switch lookup(key) {
            case .element: break
            case .text: path.append("text()")
            case .attribute(let name): path.append("@" + writtenName(name, attribute: true))
            case .name(let name):
                path.append(
                    subtree.writtenName(of: name, from: currentRoot, attribute: false)
                        ?? writtenName(name, attribute: true))
            case .path(let steps, let attribute):
                path += steps.map { writtenName($0, attribute: false) }
                if let attribute { path.append("@" + writtenName(attribute, attribute: true)) }
            }
        }
        return path
    }

    /// A key's name as the document writes it, where the capture holds what it names
    /// (`a:title` for a key `atom:title` or `{uri}title`, `title` under a default
    /// namespace), and as the key wrote it otherwise: error paths use one spelling, the
    /// document's.
    private func writtenName(_ name: KeyName, attribute: Bool) -> String {
        subtree.writtenName(of: name, from: currentRoot, attribute: attribute) ?? name.spelling
    }

    /// `error`, a `DecodingError` thrown out of a decode, with the position and path its
    /// description began with.
    func located(_ error: DecodingError) -> XMLDecodingError {
        let site = failure ?? (currentRoot, nil)
        let element = subtree.elements[site.element]
        let prefix = location(of: site.element) + ": "
        let description: String
        switch error {
        case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context),
            .keyNotFound(_, let context):
            description = context.debugDescription
        @unknown default:
            description = "\(error)"
        }
        let message = description.hasPrefix(prefix) ? String(description.dropFirst(prefix.count)) : description
        return XMLDecodingError(
            underlying: error, message: message, line: element.line, column: element.column,
            elementPath: ElementPath(site.path ?? elementPathComponents([])), source: subtree.source)
    }

    /// Text for a message: quoted, and shortened in the middle when long.
    static func quoted(_ text: String) -> String {
        let limit = 60
        guard MessageText.prefix(text, characters: limit).utf8.count < text.utf8.count else { return text.debugDescription }
        return (MessageText.prefix(text, characters: limit / 2) + "…" + MessageText.suffix(text, characters: limit / 2 - 5))
            .debugDescription
    }
}

/// The key of an item of a list in a coding path; shown as `Index 2`, as Foundation's
/// decoders do, and as `[3]` in element paths.
struct ElementIndexKey: CodingKey {
    let index: Int
    var stringValue: String { "Index \(index)" }
    var intValue: Int? { index }

    init(_ index: Int) { self.index = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { index = intValue }
}
