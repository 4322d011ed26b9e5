extension Dispatcher {
    /// Skips every element outside the subtrees matching `patterns`, with all it contains:
    /// no handler runs there, no text is collected, and expat's callbacks for it only
    /// count depth.
    ///
    /// Elements on the way down to a kept subtree are still dispatched (a handler for
    /// `zoo` runs when only `/zoo/animals/animal` is kept); inside a kept subtree every
    /// element is. Patterns anchored at the root (`/zoo/animals/animal`) are what make
    /// skipping possible: a floating pattern (`animal`) could match at any depth, so
    /// nothing that might contain one is skipped. Calling this again replaces the list.
    ///
    /// ```swift
    /// try dispatcher.skipAll(except: "/zoo/animals/animal", "/zoo/facilities")
    /// ```
    ///
    /// - Throws: ``XMLPatternError`` if the patterns have more than 64 steps in all, or
    ///   one of them is `.`.
    public mutating func skipAll(except patterns: ElementPattern...) throws(XMLPatternError) {
        try skipAll(except: patterns)
    }

    /// Skips every element outside the subtrees matching `patterns`; see ``skipAll(except:)-(ElementPattern...)``.
    ///
    /// - Throws: ``XMLPatternError`` if the patterns have more than 64 steps in all, or
    ///   one of them is `.`.
    public mutating func skipAll(except patterns: [ElementPattern]) throws(XMLPatternError) {
        var total = 0
        for pattern in patterns {
            if pattern.isMountPoint {
                throw XMLPatternError(
                    .elementPattern, text: ".", column: 1, message: "'.' names a mount point, which a document being parsed does not have")
            }
            total += pattern.steps.count
            if total > SubtreeFilter.maximumSteps {
                throw XMLPatternError(
                    .elementPattern, text: pattern.description, column: 1,
                    message: "the subtrees to keep have more than \(SubtreeFilter.maximumSteps) steps in all")
            }
        }
        setKeptSubtrees(patterns)
    }
}
