#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A bounded queue of decompressed blocks from the thread that decompresses to the parse
/// that reads them: a decompressor that gets ahead waits, so at most `capacity` blocks
/// wait between them (and one more is filled, one read) however fast it is. Blocks the
/// parse has read go back to the decompressor to be filled again, so a parse allocates
/// no block after the first few.
///
/// Both sides wait on condition variables: the decompressor on its own thread, the parse
/// on the thread that reads its input (a synchronous parse's own, or the reading thread
/// of an asynchronous one, never a thread of the cooperative pool).
///
/// Unchecked `Sendable`: every stored property is guarded by `mutex`; an error crosses
/// from the decompressing thread to the parse once, after that thread stopped using it.
final class BlockQueue: @unchecked Sendable {
    /// Decompressed bytes: `bytes[..<count]`.
    struct Block {
        var bytes: [UInt8]
        var count: Int
    }

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let capacity: Int
    private let blockSize: Int
    private var blocks: [Block] = []
    private var spare: [[UInt8]] = []
    /// The end of the input: `nil` while it goes on, then nothing or the error that ended it.
    private var end: Result<Void, any Error>?
    private var isClosed = false

    /// A queue of up to `capacity` blocks (at least 1) of `blockSize` bytes each.
    init(capacity: Int, blockSize: Int) {
        self.capacity = max(1, capacity)
        self.blockSize = max(1, blockSize)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        changed.deallocate()
        mutex.deallocate()
    }

    private func locked<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    // MARK: Decompressing

    /// A block to fill: one the parse has read, or a new one.
    func emptyBlock() -> [UInt8] {
        locked { spare.popLast() } ?? [UInt8](repeating: 0, count: blockSize)
    }

    /// Adds a filled block, waiting while the queue is full; false when the parse is done
    /// with the queue, and the block dropped.
    func put(_ block: Block) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while blocks.count >= capacity && !isClosed {
            pthread_cond_wait(changed, mutex)
        }
        guard !isClosed else { return false }
        blocks.append(block)
        pthread_cond_broadcast(changed)
        return true
    }

    /// Ends the input: the parse reads the blocks before, then the end or `error`.
    func finish(throwing error: (any Error)? = nil) {
        locked {
            end = error.map { .failure($0) } ?? .success(())
            pthread_cond_broadcast(changed)
        }
    }

    // MARK: Reading

    /// The next block, waiting while none is ready; `nil` at the end, or once the queue is
    /// closed (its reader is then stopping too).
    ///
    /// - Throws: The error that ended the input, after every block before it.
    func take() throws -> Block? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while blocks.isEmpty && end == nil && !isClosed {
            pthread_cond_wait(changed, mutex)
        }
        if !blocks.isEmpty {
            let block = blocks.removeFirst()
            pthread_cond_broadcast(changed)
            return block
        }
        if case .failure(let error) = end, !isClosed { throw error }
        return nil
    }

    /// Hands a block that was read back to be filled again.
    func recycle(_ bytes: [UInt8]) {
        locked {
            if spare.count < capacity { spare.append(bytes) }
        }
    }

    /// The parse is done with the queue: a waiting decompressor stops.
    func close() {
        locked {
            isClosed = true
            blocks.removeAll()
            spare.removeAll()
            pthread_cond_broadcast(changed)
        }
    }
}
