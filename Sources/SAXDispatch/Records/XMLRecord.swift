/// A typed record: the element it is built from, the fields it reads there, and how
/// they become a model value.
///
/// A record captures only what its fields name, while the document streams past, and
/// builds one immutable value when its element ends. The build closure receives the
/// fields' values with their declared types (`$0…$n`), in field order:
///
/// ```swift
/// struct Animal { let kind: String; let name: String; let url: URL }
/// struct Zoo { let animals: [Animal]; let toiletCount: Int; let disabledParking: Bool }
///
/// let animal = XMLRecord("animal",
///     .text("kind"),
///     .text("nested_nonsense/name"),
///     .value("url", as: URL.self)
/// ) { Animal(kind: $0, name: $1, url: $2) }
///
/// let zoo = XMLRecord("zoo",
///     .many("animals/animal", animal),
///     .value("facilities/toilet", as: Int.self).named("toiletCount"),
///     .value("facilities/disabled_parking", as: Bool.self, default: false)
/// ) { Zoo(animals: $0, toiletCount: $1, disabledParking: $2) }
///
/// let model = try zoo.first(in: .file("zoo.xml"))                     // the one zoo
/// try animal.forEach(in: .file("zoo.xml")) { print($0.name) }         // animal by animal
/// ```
///
/// A record is defined once and used anywhere: alone (its pattern says where), inside
/// other records (`.record(path, r)`, `.many(path, r)`: the path says where), or
/// registered on a ``Dispatcher`` next to other handlers (``Dispatcher/onRecord(_:diagnostics:_:)``).
/// Every field that fails is reported, not only the first, in one ``XMLRecordError``.
public struct XMLRecord<Model>: Sendable {
    var plan: RecordPlan

    /// Defines a record built from the elements matching `pattern`.
    ///
    /// - Parameters:
    ///   - pattern: Where the record's elements are when the record is used on its own
    ///     (any ``ElementPattern``); ignored when another record nests it at a path.
    ///   - fields: The fields, in the order `build` takes their values.
    ///   - build: Makes the model. It runs only when every field has a value; an error it
    ///     throws is reported as a ``FieldFailure/Reason/builder(underlying:)`` failure.
    public init<each Value>(
        _ pattern: ElementPattern, _ fields: repeat RecordField<each Value>,
        build: @escaping @Sendable (repeat each Value) throws -> Model
    ) {
        var layout = BuildArgumentLayout()
        for field in repeat each fields { layout.append(field) }
        self.init(pattern, layout) { values in try build(repeat values.take((each Value).self)) }
    }

    /// Defines a record whose fields share one value type and are chosen at run time
    /// (from a configuration or a command line); `build` receives their values in field order.
    ///
    /// ```swift
    /// let columns: [RecordField<String?>] = try names.map { .optional(.text(try RecordFieldPath($0).description)) }
    /// let row = XMLRecord(pattern, fields: columns) { $0 }      // [String?] per record
    /// ```
    ///
    /// - Parameters:
    ///   - pattern: Where the record's elements are when the record is used on its own.
    ///   - fields: The fields, in the order `build` takes their values.
    ///   - build: Makes the model. It runs only when every field has a value; an error it
    ///     throws is reported as a ``FieldFailure/Reason/builder(underlying:)`` failure.
    public init<Value>(
        _ pattern: ElementPattern, fields: [RecordField<Value>], build: @escaping @Sendable ([Value]) throws -> Model
    ) {
        var layout = BuildArgumentLayout()
        for field in fields { layout.append(field) }
        let count = fields.count
        self.init(pattern, layout) { values in
            var list: [Value] = []
            list.reserveCapacity(count)
            for _ in 0..<count { list.append(values.take(Value.self)) }
            return try build(list)
        }
    }

    /// A record whose fields are laid out in `layout`; `build` takes their values out in
    /// field order and makes the model.
    init(
        _ pattern: ElementPattern, _ layout: BuildArgumentLayout,
        build: @escaping @Sendable (inout BuildArguments) throws -> Model
    ) {
        plan = Self.plan(pattern, layout) { slots, record, out in
            layout.readFields(&slots, record) { values in
                Self.build(into: out, record) { try build(&values) }
            }
        }
    }

    private static func plan(
        _ pattern: ElementPattern, _ layout: BuildArgumentLayout,
        assemble: @escaping @Sendable (inout [CapturedField], RecordReadContext, UnsafeMutableRawPointer) -> FieldFailures?
    ) -> RecordPlan {
        RecordPlan(
            name: String(describing: Model.self), pattern: pattern, fields: layout.planList.plans,
            modelSize: MemoryLayout<Model>.size, modelAlignment: MemoryLayout<Model>.alignment, assemble: assemble,
            box: { $0.assumingMemoryBound(to: Model.self).move() })
    }

    /// Runs a build closure into `out`, reporting what it throws as the record's builder failure.
    private static func build(
        into out: UnsafeMutableRawPointer, _ record: RecordReadContext, _ build: () throws -> Model
    ) -> FieldFailures? {
        do {
            out.initialize(as: Model.self, to: try build())
            return nil
        } catch {
            let failure = FieldFailure(
                reason: .builder(underlying: error), recordName: record.name,
                fieldName: ".", fieldPath: ".", elementPath: record.context.path,
                line: record.occurrence.line, column: record.occurrence.column)
            return FieldFailures([failure])
        }
    }

    /// The pattern the record is found at when used on its own.
    public var pattern: ElementPattern { plan.pattern }

    /// The record's name in messages; its model type's name unless ``named(_:)`` changed it.
    public var name: String { plan.name }

    /// The same record with another name in messages (`in record Zoo`).
    public func named(_ name: String) -> XMLRecord<Model> {
        var copy = self
        copy.plan.name = name
        return copy
    }

    /// The same record found at another pattern when used on its own.
    public func at(_ pattern: ElementPattern) -> XMLRecord<Model> {
        var copy = self
        copy.plan.pattern = plan.matchesAnyNamespace ? pattern.matchingUnprefixedNamesInAnyNamespace() : pattern
        return copy
    }

    /// The same record with every unprefixed element name in its pattern, its field paths
    /// and the records nested in it read as a local name in any namespace or none (`customer`
    /// as `*:customer`): for SOAP bodies and feeds whose producers pick their own namespace
    /// URIs. Prefixed and Clark names keep matching by namespace; attribute names, which an
    /// unprefixed name puts in no namespace, stay as they are.
    ///
    /// ```swift
    /// // <b:customer xmlns:b="urn:billing"><b:name>Ada</b:name></b:customer>, or with any other URI
    /// let customer = XMLRecord("customer", .text("name")) { $0 }.matchingAnyNamespace()
    /// ```
    public func matchingAnyNamespace() -> XMLRecord<Model> {
        var copy = self
        copy.plan = plan.matchingUnprefixedNamesInAnyNamespace()
        return copy
    }

    /// The same record with prefixes bound for its pattern, its field paths (elements and
    /// attributes) and the records nested in it, which inherit them (a nested record may
    /// add its own, but not bind an inherited prefix to another URI: that traps when the
    /// records are put together). A prefix bound nowhere matches the prefix as written;
    /// see ``NamespaceBindings``.
    ///
    /// ```swift
    /// let entry = XMLRecord("atom:entry", .text("atom:title"), .text("atom:link[@rel='alternate']/@href")) {
    ///     Entry(title: $0, link: $1)
    /// }
    /// .namespaces(["atom": "http://www.w3.org/2005/Atom"])
    /// ```
    public func namespaces(_ bindings: NamespaceBindings) -> XMLRecord<Model> {
        var copy = self
        copy.plan.namespaces = bindings
        return copy
    }

    /// The same record, read with namespace processing on (the default) or off when it
    /// parses a document on its own; see ``Dispatcher/processesNamespaces``. A record
    /// handed to a dispatcher (``Dispatcher/onRecord(_:diagnostics:_:)``) follows the
    /// dispatcher's setting.
    public func processingNamespaces(_ enabled: Bool) -> XMLRecord<Model> {
        var copy = self
        copy.plan.processesNamespaces = enabled
        return copy
    }

    /// The most bytes one record's lists may hold while it is assembled: the values of its
    /// repeated fields (each counted with 32 bytes for its keeping) and its nested records'
    /// (counted the same way); default 16 MiB, like ``XMLRecordDecoder/maximumRecordBytes``.
    ///
    /// A single field holds one value, which ``SafetyProfile/maximumTextBytes`` bounds; a
    /// list can grow with the document (`.many("entry/title")` on an element that holds a
    /// whole feed, or entities that expand a little input into many elements). Past the
    /// limit the parse fails with ``XMLParseError/Code/recordSizeLimitExceeded``, at the
    /// record element's start tag, rather than run out of memory; whatever the record's
    /// ``RecordFailurePolicy``, as the limit is the document's, not the record's.
    public func maximumRecordBytes(_ limit: Int) -> XMLRecord<Model> {
        var copy = self
        copy.plan.maximumBytes = max(0, limit)
        return copy
    }
}

/// What happens to a record that cannot be built.
public enum RecordFailurePolicy<Model: Sendable>: Sendable {
    /// The parse stops and throws the ``XMLRecordError`` (the default).
    case fail
    /// The record is left out; its ``XMLRecordError`` goes to the diagnostics.
    case skip
    /// The given model is used instead; the ``XMLRecordError`` goes to the diagnostics.
    case replace(with: Model)
}

extension XMLRecord where Model: Sendable {
    /// The same record with another failure policy: skip a bad record (one bad `<item>`
    /// does not lose a whole feed) or replace it with a default, reporting it as a diagnostic.
    ///
    /// ```swift
    /// let item = XMLRecord("item", .text("title"), .date("pubDate", format: .rfc822)) { Item(title: $0, date: $1) }
    ///     .onFailure(.skip)
    /// ```
    public func onFailure(_ policy: RecordFailurePolicy<Model>) -> XMLRecord<Model> {
        var copy = self
        switch policy {
        case .fail: copy.plan.policy = .fail
        case .skip: copy.plan.policy = .skip
        case .replace(let model):
            copy.plan.policy = .replace { $0.initialize(as: Model.self, to: model) }
        }
        return copy
    }
}
