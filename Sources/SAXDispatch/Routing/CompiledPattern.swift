/// An ``ElementPattern`` with its names interned, ready to match against the stack of
/// open elements without allocating.
///
/// Steps are grouped into segments at each `//`; a segment's steps are consecutive
/// generations. Matching places the last segment at the element and each earlier one
/// at the nearest position above that fits, which is the placement that leaves the
/// most room for the segments still to come, so no backtracking is needed.
struct CompiledPattern {
    struct Step {
        /// The name's key (``NameKeys``), or `-1` for `*`.
        var name: Int32
        /// Indices into the dispatcher's attribute tests, all of which must hold.
        var tests: [Int]
    }

    let steps: [Step]
    /// The index of each segment's first step, in order; a segment ends where the next starts.
    let segmentStarts: [Int]
    let isAnchored: Bool
    /// The ``ElementFrame/nameBit(_:)`` of every named step: unless all of them are among
    /// an element's ``ElementFrame/openNames``, the pattern cannot match it.
    let requiredNames: UInt64
    /// Whether any step tests attributes; most patterns match on names alone.
    let hasTests: Bool
    /// What an element's key means (the pattern outlives no parse, and neither do they).
    unowned(unsafe) let keys: NameKeys

    init(_ pattern: ElementPattern, keys: NameKeys, tests: inout [ElementPattern.AttributeTest]) {
        var steps: [Step] = []
        var segmentStarts: [Int] = []
        for (index, step) in pattern.steps.enumerated() {
            if index == 0 || step.followsDescendantAxis { segmentStarts.append(index) }
            let testIndices = step.tests.map { test in
                if let existing = tests.firstIndex(of: test) { return existing }
                tests.append(test)
                return tests.count - 1
            }
            steps.append(
                Step(name: step.name.map { keys.key(ofPatternName: $0, namespace: step.namespace) } ?? -1, tests: testIndices))
        }
        self.keys = keys
        self.steps = steps
        self.segmentStarts = segmentStarts
        self.isAnchored = pattern.isAnchored
        requiredNames = steps.reduce(0) { $1.name >= 0 ? $0 | ElementFrame.nameBit($1.name) : $0 }
        hasTests = steps.contains { !$0.tests.isEmpty }
    }

    /// The pattern's first `count` steps (at least one): for a mounted set's catch-all
    /// entry, `mountPoint//*`, its first `steps.count - 1` are the mount point.
    init(_ pattern: CompiledPattern, prefix count: Int) {
        precondition(count >= 1 && count <= pattern.steps.count, "a pattern prefix has at least one of its steps")
        steps = Array(pattern.steps.prefix(count))
        keys = pattern.keys
        segmentStarts = pattern.segmentStarts.filter { $0 < count }
        isAnchored = pattern.isAnchored
        requiredNames = steps.reduce(0) { $1.name >= 0 ? $0 | ElementFrame.nameBit($1.name) : $0 }
        hasTests = steps.contains { !$0.tests.isEmpty }
    }

    /// Whether the pattern matches at one depth only: anchored, without `//`.
    var matchesAtOneDepth: Bool { isAnchored && segmentStarts.count == 1 }

    /// Whether the open element at stack index `top` and its ancestors match.
    func matches(top: Int, stack: borrowing ElementStack, tests: borrowing AttributeTestResults) -> Bool {
        var segment = segmentStarts.count - 1
        var length = steps.count - segmentStarts[segment]
        guard matchesSegment(segment, endingAt: top, stack, tests) else { return false }
        // The highest stack index still free for the segments above.
        var free = top - length
        while segment > 0 {
            segment -= 1
            length = segmentStarts[segment + 1] - segmentStarts[segment]
            if segment == 0 && isAnchored {
                return length - 1 <= free && matchesSegment(0, endingAt: length - 1, stack, tests)
            }
            var position = free
            while position >= length - 1 && !matchesSegment(segment, endingAt: position, stack, tests) {
                position -= 1
            }
            guard position >= length - 1 else { return false }
            free = position - length
        }
        return !isAnchored || free == -1
    }

    /// Whether the pattern could match some element below the open element at stack
    /// index `top`, judging by the names of the open elements alone (attribute tests are
    /// taken to hold). A floating pattern always could.
    func mayMatchBelow(top: Int, stack: borrowing ElementStack) -> Bool {
        guard isAnchored else { return true }
        let firstSegmentLength = segmentStarts.count > 1 ? segmentStarts[1] : steps.count
        // Without `//`, the pattern matches at one depth only: its own step count.
        if segmentStarts.count == 1 && steps.count <= top + 1 { return false }
        for level in 0..<min(firstSegmentLength, top + 1) {
            let name = steps[level].name
            if name >= 0 && !keys.accepts(stack[level].key, name) { return false }
        }
        return true
    }

    /// Whether a segment's steps match the elements ending at stack index `last`, one generation each.
    @inline(__always)
    private func matchesSegment(
        _ segment: Int, endingAt last: Int, _ stack: borrowing ElementStack, _ tests: borrowing AttributeTestResults
    ) -> Bool {
        let from = segmentStarts[segment]
        let to = segment + 1 < segmentStarts.count ? segmentStarts[segment + 1] : steps.count
        guard last - (to - from - 1) >= 0 else { return false }
        var position = last
        var index = to - 1
        while index >= from {
            // The step is read in place: a copy would retain its test list.
            let name = steps[index].name
            if name >= 0 && !keys.accepts(stack[position].key, name) { return false }
            if hasTests {
                for test in steps[index].tests where !tests.passed(test, level: position) { return false }
            }
            position -= 1
            index -= 1
        }
        return true
    }
}

/// Which attribute tests held on each open element, as bits per stack level.
///
/// Attributes are gone once an element's start tag has been dispatched, so every test
/// some pattern makes of an element's attributes is evaluated at its start and kept
/// here until it ends; no attribute is kept.
struct AttributeTestResults: ~Copyable {
    private let wordsPerLevel: Int
    private var words: UnsafeMutablePointer<UInt64>
    private var levels: Int

    init(testCount: Int) {
        wordsPerLevel = (testCount + 63) / 64
        levels = 64
        words = .allocate(capacity: max(1, wordsPerLevel * levels))
    }

    deinit { words.deallocate() }

    /// Clears the bits of a level about to be pushed.
    @inline(__always)
    mutating func reset(level: Int) {
        guard wordsPerLevel > 0 else { return }
        if level >= levels { grow(to: level + 1) }
        let level = words + level * wordsPerLevel
        // One word (up to 64 tests) is the usual case: a store, not a call to `memset`.
        if wordsPerLevel == 1 {
            level.pointee = 0
        } else {
            level.update(repeating: 0, count: wordsPerLevel)
        }
    }

    @inline(__always)
    mutating func record(_ test: Int, level: Int) {
        words[level * wordsPerLevel + test / 64] |= 1 << UInt64(test % 64)
    }

    @inline(__always)
    func passed(_ test: Int, level: Int) -> Bool {
        words[level * wordsPerLevel + test / 64] & (1 << UInt64(test % 64)) != 0
    }

    private mutating func grow(to needed: Int) {
        var newLevels = levels
        while newLevels < needed { newLevels *= 2 }
        let bigger = UnsafeMutablePointer<UInt64>.allocate(capacity: newLevels * wordsPerLevel)
        bigger.moveInitialize(from: words, count: levels * wordsPerLevel)
        words.deallocate()
        words = bigger
        levels = newLevels
    }
}

/// An attribute test as bytes, evaluated against expat's attribute array.
struct CompiledAttributeTest {
    let name: AttributeNameMatcher
    let value: [UInt8]?

    init(_ test: ElementPattern.AttributeTest, processesNamespaces: Bool) {
        name = AttributeNameMatcher(name: test.name, namespace: test.namespace, processesNamespaces: processesNamespaces)
        value = test.value.map { Array($0.utf8) }
    }

    /// Whether a start tag's attributes (name, value, …, NULL) pass the test.
    func holds(for attributes: UnsafePointer<UnsafePointer<CChar>?>) -> Bool {
        var index = 0
        while let candidate = attributes[2 * index] {
            if name.matches(candidate) {
                guard let value else { return true }
                guard let actual = attributes[2 * index + 1] else { return false }
                return value.withUnsafeBufferPointer { cStringEquals(actual, $0) }
            }
            index += 1
        }
        return false
    }
}
