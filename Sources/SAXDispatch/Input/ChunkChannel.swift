/// The bounded queue of byte chunks from one producer (a reading thread, or a task that
/// writes) to the parse that consumes them: a producer that gets ahead waits, so at most
/// `capacity` chunks wait between them however fast the producer is.
///
/// The consumer receives with ``BoundedQueue/receive()``, never blocking a thread of the
/// cooperative pool; a reading thread adds with ``BoundedQueue/put(_:)``, a task that
/// writes with ``BoundedQueue/send(_:)``. When the consumer is done (the parse ended, its
/// task was cancelled, the stream's iteration was dropped) the channel is cancelled and
/// every producer is refused.
typealias ChunkChannel = BoundedQueue<[UInt8]>

extension BoundedQueue where Element == [UInt8] {
    /// A channel holding up to `capacity` chunks (at least 1), whose ``BoundedQueue/peak``
    /// weighs each chunk by its bytes.
    convenience init(chunks capacity: Int) {
        self.init(capacity: capacity, measuringBy: { $0.count })
    }
}
