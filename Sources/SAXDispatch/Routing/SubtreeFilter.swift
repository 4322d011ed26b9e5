/// Decides, at each start tag, whether an element lies in one of the subtrees the
/// application said matter (``Dispatcher/skipAll(except:)``), on the way to one, or
/// outside them all, in which case it is skipped with everything inside it.
///
/// The patterns run as one small automaton: a state is a set of bits, one per step of
/// every pattern, meaning "this step may match next". Each open element keeps the
/// state below it in its stack frame, so an element costs a few bit operations.
final class SubtreeFilter {
    struct Step {
        var name: Int32
        var tests: [CompiledAttributeTest]
        /// Whether the step may match any number of levels down (`//`, or a floating first step).
        var mayMatchDeeper: Bool
        var isLast: Bool
    }

    enum Decision {
        /// The element is in a kept subtree: dispatch it and everything inside.
        case keep
        /// The element may contain a kept subtree: dispatch it, and decide again below it.
        case descend(UInt64)
        /// Nothing inside can be kept: skip the element and its subtree.
        case skip
    }

    /// The most steps all patterns may have together (one bit each).
    static let maximumSteps = 64

    private let steps: [Step]
    /// The state at the root element: every pattern's first step.
    let initialState: UInt64

    /// What an element's key means.
    private let keys: NameKeys

    init(_ patterns: [ElementPattern], keys: NameKeys) {
        self.keys = keys
        var steps: [Step] = []
        var initial: UInt64 = 0
        for pattern in patterns {
            initial |= 1 << UInt64(steps.count)
            for (index, step) in pattern.steps.enumerated() {
                steps.append(
                    Step(
                        name: step.name.map { keys.key(ofPatternName: $0, namespace: step.namespace) } ?? -1,
                        tests: step.tests.map { CompiledAttributeTest($0, processesNamespaces: keys.processesNamespaces) },
                        mayMatchDeeper: index == 0 ? !pattern.isAnchored : step.followsDescendantAxis,
                        isLast: index == pattern.steps.count - 1))
            }
        }
        self.steps = steps
        initialState = initial
    }

    /// What to do with an element with key `key` (``NameKeys``) whose parent left `state`.
    func decide(
        _ state: UInt64, key: Int32, attributes: UnsafePointer<UnsafePointer<CChar>?>
    ) -> Decision {
        var next: UInt64 = 0
        var pending = state
        while pending != 0 {
            let index = pending.trailingZeroBitCount
            pending &= pending - 1
            let step = steps[index]
            if step.mayMatchDeeper { next |= 1 << UInt64(index) }
            guard step.name < 0 || keys.accepts(key, step.name), step.tests.allSatisfy({ $0.holds(for: attributes) }) else {
                continue
            }
            if step.isLast { return .keep }
            next |= 1 << UInt64(index + 1)
        }
        return next == 0 ? .skip : .descend(next)
    }
}
