// Records of two to six fields. The parameter-pack initializer covers every count, but
// calling its build closure makes the runtime look up the metadata of the tuple of the
// field types, and build and destroy such a tuple, for every record; with the field
// types as separate generic parameters, the call costs what any closure call does.
// Overload resolution prefers these to the pack form, so `XMLRecord(p, a, b) { … }` gets
// them without the caller saying so.

extension XMLRecord {
    /// Defines a record of two fields, as ``init(_:_:build:)`` does, with less work per record.
    public init<A, B>(
        _ pattern: ElementPattern, _ a: RecordField<A>, _ b: RecordField<B>,
        build: @escaping @Sendable (A, B) throws -> Model
    ) {
        var layout = BuildArgumentLayout()
        layout.append(a); layout.append(b)
        self.init(pattern, layout) { values in
            try build(values.take(A.self), values.take(B.self))
        }
    }

    /// Defines a record of three fields, as ``init(_:_:build:)`` does, with less work per record.
    public init<A, B, C>(
        _ pattern: ElementPattern, _ a: RecordField<A>, _ b: RecordField<B>, _ c: RecordField<C>,
        build: @escaping @Sendable (A, B, C) throws -> Model
    ) {
        var layout = BuildArgumentLayout()
        layout.append(a); layout.append(b); layout.append(c)
        self.init(pattern, layout) { values in
            try build(values.take(A.self), values.take(B.self), values.take(C.self))
        }
    }

    /// Defines a record of four fields, as ``init(_:_:build:)`` does, with less work per record.
    public init<A, B, C, D>(
        _ pattern: ElementPattern, _ a: RecordField<A>, _ b: RecordField<B>, _ c: RecordField<C>,
        _ d: RecordField<D>,
        build: @escaping @Sendable (A, B, C, D) throws -> Model
    ) {
        var layout = BuildArgumentLayout()
        layout.append(a); layout.append(b); layout.append(c); layout.append(d)
        self.init(pattern, layout) { values in
            try build(values.take(A.self), values.take(B.self), values.take(C.self), values.take(D.self))
        }
    }

    /// Defines a record of five fields, as ``init(_:_:build:)`` does, with less work per record.
    public init<A, B, C, D, E>(
        _ pattern: ElementPattern, _ a: RecordField<A>, _ b: RecordField<B>, _ c: RecordField<C>,
        _ d: RecordField<D>, _ e: RecordField<E>,
        build: @escaping @Sendable (A, B, C, D, E) throws -> Model
    ) {
        var layout = BuildArgumentLayout()
        layout.append(a); layout.append(b); layout.append(c); layout.append(d); layout.append(e)
        self.init(pattern, layout) { values in
            try build(values.take(A.self), values.take(B.self), values.take(C.self), values.take(D.self),
                values.take(E.self))
        }
    }

    /// Defines a record of six fields, as ``init(_:_:build:)`` does, with less work per record.
    public init<A, B, C, D, E, F>(
        _ pattern: ElementPattern, _ a: RecordField<A>, _ b: RecordField<B>, _ c: RecordField<C>,
        _ d: RecordField<D>, _ e: RecordField<E>, _ f: RecordField<F>,
        build: @escaping @Sendable (A, B, C, D, E, F) throws -> Model
    ) {
        var layout = BuildArgumentLayout()
        layout.append(a); layout.append(b); layout.append(c); layout.append(d); layout.append(e); layout.append(f)
        self.init(pattern, layout) { values in
            try build(values.take(A.self), values.take(B.self), values.take(C.self), values.take(D.self),
                values.take(E.self), values.take(F.self))
        }
    }
}
