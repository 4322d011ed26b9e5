/// Generates a large zoo document on the fly, deterministically: the built-in sample
/// of `saxdispatch stats`. Nothing is stored; memory stays at one chunk.
///
/// Each `<animal>` carries the fields of the README's zoo (`kind`,
/// `nested_nonsense/name`, `url`) plus an `id` attribute and a `<notes>` element of
/// prose with entity references, so the sample exercises tags, attributes and text.
public struct ZooSample {
    /// Roughly how many bytes to generate; the document ends after the record that crosses it.
    public var targetSize: Int
    public var seed: UInt64

    public init(targetSize: Int = 200_000_000, seed: UInt64 = 0x5A5D_15BA_7C40_0001) {
        self.targetSize = targetSize
        self.seed = seed
    }

    static let kinds = ["cat", "dog", "elephant", "giraffe", "lion", "okapi", "penguin", "zebra"]
    static let names = ["grumpy", "i have no idea what i'm doing", "Ëlsa", "Tom &amp; Jerry", "Kōji", "Max"]
    static let notes = [
        "Feeds at dawn &amp; dusk; keep the gate &lt;closed&gt;.",
        "Prefers shade. Visitors love the enclosure near the café.",
        "Transferred from another zoo; vaccinations up to date.",
    ]

    /// Calls `body` with successive chunks of about `chunkSize` bytes until the document is complete.
    public func generate(chunkSize: Int = 1 << 16, _ body: ([UInt8]) throws -> Void) rethrows {
        var random = SplitMix64(seed: seed)
        var chunk: [UInt8] = []
        chunk.reserveCapacity(chunkSize + 1024)
        var produced = 0
        var id = 0

        func flushIfFull(force: Bool = false) throws {
            if chunk.count >= chunkSize || (force && !chunk.isEmpty) {
                produced += chunk.count
                try body(chunk)
                chunk.removeAll(keepingCapacity: true)
            }
        }

        chunk.append(contentsOf: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<zoo>\n  <animals>\n".utf8)
        while produced + chunk.count < targetSize {
            id += 1
            let kind = Self.kinds[Int(random.next() % UInt64(Self.kinds.count))]
            let name = Self.names[Int(random.next() % UInt64(Self.names.count))]
            let note = Self.notes[Int(random.next() % UInt64(Self.notes.count))]
            chunk.append(contentsOf: "    <animal id=\"".utf8)
            append(id, to: &chunk)
            chunk.append(contentsOf: "\">\n      <kind>".utf8)
            chunk.append(contentsOf: kind.utf8)
            chunk.append(contentsOf: "</kind>\n      <nested_nonsense><name>".utf8)
            chunk.append(contentsOf: name.utf8)
            chunk.append(contentsOf: "</name></nested_nonsense>\n      <url>http://example.org/animals/".utf8)
            append(id, to: &chunk)
            chunk.append(contentsOf: "</url>\n      <notes>".utf8)
            chunk.append(contentsOf: note.utf8)
            chunk.append(contentsOf: "</notes>\n    </animal>\n".utf8)
            try flushIfFull()
        }
        chunk.append(contentsOf: "  </animals>\n  <facilities>\n    <toilet>42</toilet>\n".utf8)
        chunk.append(contentsOf: "    <disabled_parking>true</disabled_parking>\n  </facilities>\n</zoo>\n".utf8)
        try flushIfFull(force: true)
    }

    private func append(_ number: Int, to bytes: inout [UInt8]) {
        var digits: [UInt8] = []
        var value = number
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(value % 10))
            value /= 10
        } while value > 0
        bytes.append(contentsOf: digits.reversed())
    }
}

/// A small, fast, seedable pseudo-random generator (SplitMix64).
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
