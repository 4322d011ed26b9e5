/// Per-parse decoding state: values kept per Swift type (a type's value kind, its keyed
/// container factory) for the handful of types one ``DecodingSession`` meets, scanned in
/// turn, which costs less than hashing the type.
struct PerTypeCache<Value> {
    private var types: [ObjectIdentifier] = []
    private var values: [Value] = []

    /// The value kept for `type`, made by `make` and kept the first time it is asked for.
    mutating func value(for type: Any.Type, orMake make: () -> Value) -> Value {
        let id = ObjectIdentifier(type)
        if let index = types.firstIndex(of: id) { return values[index] }
        let value = make()
        types.append(id)
        values.append(value)
        return value
    }
}
