/// What a worker made of one range: the values its handlers delivered, in document order,
/// and the warnings of its parse.
struct RangeValues<Value: Sendable>: Sendable {
    let values = DeliveryBuffer<Value>()
    var warnings: [ParseWarning] = []
}
