/// What a worker made of one range: the values its handlers delivered, in document order,
/// and the warnings of its parse.
struct RangeValues<Value: Sendable>: Sendable {
    var values: [Value] = []
    var warnings: [ParseWarning] = []
}
