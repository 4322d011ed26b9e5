import SAXDispatch

/// The standard output and standard error of many files' parses, running at once,
/// written in the order of the files: what one file writes never interleaves with
/// another's.
///
/// Each file writes to its own ``Channel``. The channel of the first file not yet
/// finished, the head, writes straight through, so that with one job, or for the file at
/// the head of the order, output streams as it is made. The others keep what they write
/// in a ``SpillBuffer`` (in memory up to a limit per stream, then in a temporary file)
/// until their file becomes the head. Memory is therefore bounded by the number of files
/// whose output waits, which ``XMLInputBatch`` bounds by its jobs, times twice the limit.
///
/// ```swift
/// let output = OrderedOutput { stream, bytes in write(stream == .output ? 1 : 2, bytes) }
/// output.channel(1).write("second\n", to: .output)   // kept: file 0 is the head
/// output.channel(0).write("first\n", to: .output)    // written at once
/// output.finish(0)                                   // writes "second", file 1 is the head
/// ```
public final class OrderedOutput: @unchecked Sendable {
    /// Where a channel's bytes go.
    public enum Stream: Sendable, Hashable {
        /// Standard output: rows, tables.
        case output
        /// Standard error: diagnostics, errors.
        case error
    }

    // `head` and `channels` are guarded by `lock`.
    private let lock = Lock()
    private var head = 0
    private var channels: [Int: Channel] = [:]
    private let memoryLimit: Int
    private let write: @Sendable (Stream, UnsafeRawBufferPointer) -> Void

    /// The default limit of what one channel keeps in memory per stream, before the rest goes
    /// to a temporary file.
    public static let defaultMemoryLimit = 1 << 20

    /// Output written through `write`, each waiting channel keeping up to `memoryLimit`
    /// bytes per stream in memory.
    public init(
        memoryLimit: Int = OrderedOutput.defaultMemoryLimit, write: @escaping @Sendable (Stream, UnsafeRawBufferPointer) -> Void
    ) {
        self.memoryLimit = memoryLimit
        self.write = write
    }

    /// The channel of file number `index` (from 0), made on first use.
    public func channel(_ index: Int) -> Channel {
        lock.withLock {
            if let channel = channels[index] { return channel }
            let channel = Channel(memoryLimit: memoryLimit, write: write, isDirect: index == head)
            channels[index] = channel
            return channel
        }
    }

    /// Ends file number `index`, which must be the head: writes what its channel still
    /// keeps, then makes the next file the head, writing what it kept so far.
    ///
    /// Call it once per file, in file order, when the file's parse has ended.
    public func finish(_ index: Int) {
        let (finished, next) = lock.withLock {
            let finished = channels.removeValue(forKey: index)
            head = index + 1
            return (finished, channels[head])
        }
        finished?.goDirect()
        next?.goDirect()
    }

    /// What one file's parse writes, in order, straight through when its file is the head.
    public final class Channel: @unchecked Sendable {
        // Every stored `var` is guarded by `lock`.
        private let lock = Lock()
        private var isDirect: Bool
        private var output: SpillBuffer
        private var error: SpillBuffer
        private let write: @Sendable (Stream, UnsafeRawBufferPointer) -> Void

        init(memoryLimit: Int, write: @escaping @Sendable (Stream, UnsafeRawBufferPointer) -> Void, isDirect: Bool) {
            self.isDirect = isDirect
            self.write = write
            output = SpillBuffer(memoryLimit: memoryLimit)
            error = SpillBuffer(memoryLimit: memoryLimit)
        }

        deinit {
            output.discard()
            error.discard()
        }

        /// Writes `bytes` to `stream`, or keeps them until the file is the head.
        public func write(_ bytes: UnsafeRawBufferPointer, to stream: Stream) {
            lock.withLock {
                if isDirect {
                    write(stream, bytes)
                } else if stream == .output {
                    output.append(bytes)
                } else {
                    error.append(bytes)
                }
            }
        }

        /// Writes `text` as UTF-8 to `stream`, or keeps it until the file is the head.
        public func write(_ text: String, to stream: Stream) {
            var text = text
            text.withUTF8 { write(UnsafeRawBufferPointer($0), to: stream) }
        }

        /// Writes what was kept, standard output first, and writes straight through from now on.
        fileprivate func goDirect() {
            lock.withLock {
                output.replay { write(.output, $0) }
                error.replay { write(.error, $0) }
                isDirect = true
            }
        }
    }
}
