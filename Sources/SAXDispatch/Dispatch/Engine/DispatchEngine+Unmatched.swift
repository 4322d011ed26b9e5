/// The warnings about patterns that matched nothing (``ParseWarning/Code/unmatchedPattern``,
/// ``ParseWarning/Code/unmatchedField``), made once a parse has read its document.
///
/// Nothing is recorded per element for them but one count per element name
/// (``NameKeys/countedRoute(of:)``): a pattern that the name alone decides matched when an
/// element with a name it accepts was read; a pattern matched against the ancestors
/// records its matches where that matching happens (``DispatchEngine/matchedEntries``).
extension DispatchEngine {
    /// What the names the parse read say about the watched patterns: a warning for each
    /// that matched nothing (a field's only if its record matched), with the names the
    /// document had that it may have meant.
    func unmatchedPatternWarnings() -> [ParseWarning] {
        guard !watched.isEmpty else { return [] }
        var matched = (0..<matchedEntries.count).map { matchedEntries[$0] }
        // The buckets whose handlers the name alone decides: every candidate of such a
        // bucket matched if an element with one of its names was read.
        var read = [Bool](repeating: false, count: keys.keyCount)
        for id in 0..<Int32(keys.decidedNameCount) where keys.count(of: id) > 0 { read[Int(keys.key(of: id))] = true }
        for (key, wasRead) in earlierDocumentNames.keysRead.enumerated() where wasRead { read[key] = true }
        for bucket in read.indices where read[bucket] && !routes.flags(bucket: bucket).contains(.matchesAncestors) {
            for entry in routes.candidates(bucket: bucket) where Int(entry) < matched.count { matched[Int(entry)] = true }
        }
        let watchMatched = watched.map { $0.entries.contains { matched[Int($0)] } }
        var warnings: [ParseWarning] = []
        var reported: Set<String> = []
        for (index, watched) in watched.enumerated() where !watchMatched[index] {
            let watch = watched.watch
            if watch.role == .unwatched { continue }
            // A field of a record that matched nothing: the record's warning says it.
            if let parent = watch.parent, parent < watchMatched.count, !watchMatched[parent] { continue }
            let parentText = watch.parent.flatMap { $0 < self.watched.count ? self.watched[$0].watch.displayText : nil }
            guard reported.insert("\(watch.role)\u{0}\(watch.displayText)\u{0}\(parentText ?? "")").inserted else { continue }
            warnings.append(
                warning(for: watch, parentText: parentText, suggests: warnings.count < NameSuggester.maximumPatterns))
        }
        return warnings
    }

    /// The warning that `watch` matched nothing, with the names it may have meant when `suggests`.
    private func warning(for watch: PatternWatch, parentText: String?, suggests: Bool) -> ParseWarning {
        let text = watch.displayText
        let last = watch.pattern.steps.last
        var subject: String
        switch watch.role {
        case .record: subject = "record pattern `\(text)`"
        case .decoded: subject = "decoded pattern `\(text)`"
        case .field: subject = "field `\(text)`" + (parentText.map { " of record `\($0)`" } ?? "")
        case .pattern, .unwatched: subject = "pattern `\(text)`"
        }
        // A bound prefix's URI, which the pattern's spelling does not show.
        if let last, let name = last.name, let namespace = last.namespace, QualifiedName.prefix(of: name) != nil {
            subject += " (\(namespace))"
        }
        var message = subject + (watch.role == .field ? " matched no element in any record" : " matched no element")
        var suggestions: [ParseWarning.Suggestion] = []
        if suggests, let last, let name = last.name {
            let local = QualifiedName.anyNamespaceLocalName(of: name) ?? QualifiedName.localPart(of: name)
            suggestions = NameSuggester.suggestions(for: local, among: candidates(for: name, namespace: last.namespace))
            if suggestions.isEmpty {
                message += "; no element name in this document is close to `\(local)`"
            } else {
                message += "; this document has "
                    + suggestions.map { $0.description + ($0.relation == .otherPath ? " elsewhere" : "") }
                    .joined(separator: ", ")
                let elsewhere = suggestions.filter { $0.relation == .otherNamespace }
                if !elsewhere.isEmpty {
                    message += " — " + Self.namespaceHints(for: name, namespace: last.namespace, local: local, elsewhere)
                }
            }
        }
        return ParseWarning(
            code: watch.role == .field ? .unmatchedField : .unmatchedPattern, message: message, source: source,
            pattern: text, suggestions: suggestions)
    }

    /// What to do about a name found only in other namespaces (`elsewhere`): bind a prefix
    /// to the namespace the document uses, write the name without one, or match any namespace.
    private static func namespaceHints(
        for name: String, namespace: String?, local: String, _ elsewhere: [ParseWarning.Suggestion]
    ) -> String {
        var ways: [String] = []
        if namespace == nil {
            // An unbound prefix (`p:item`) against names in no namespace: no binding helps.
            if elsewhere.contains(where: { $0.namespaceURI != nil }) {
                ways.append("bind a prefix to its namespace")
            }
            if QualifiedName.prefix(of: name) != nil, elsewhere.contains(where: { $0.namespaceURI == nil }) {
                ways.append("write the name without a prefix (`\(local)`)")
            }
        } else {
            if elsewhere.contains(where: { $0.namespaceURI != nil }) {
                ways.append(
                    QualifiedName.prefix(of: name) != nil
                        ? "bind the prefix to the namespace the document uses" : "write the namespace the document uses")
            }
            if elsewhere.contains(where: { $0.namespaceURI == nil }) { ways.append("write the name without a namespace") }
        }
        ways.append("match any namespace with `*:\(local)`")
        return ways.joined(separator: ", or ")
    }

    /// The element names the parse read, with their counts, each marked when the pattern
    /// name `name` accepts it: those of the table, and those earlier documents of a
    /// concatenated input had (``earlierDocumentNames``).
    private func candidates(for name: String, namespace: String?) -> [NameSuggester.Candidate] {
        let key = keys.key(ofPatternName: name, namespace: namespace)
        func accepted(_ nameKey: Int32) -> Bool { key != keys.other && keys.accepts(nameKey, key) }
        var candidates: [NameSuggester.Candidate] = []
        var positions: [QualifiedName.Parts: Int] = [:]
        for id in 0..<Int32(keys.decidedNameCount) where keys.count(of: id) > 0 {
            let parts = names.parts(id)
            if !earlierDocumentNames.isEmpty { positions[parts] = candidates.count }
            candidates.append(
                NameSuggester.Candidate(parts: parts, count: keys.count(of: id), isPatternName: accepted(keys.key(of: id))))
            if candidates.count == NameSuggester.maximumNames { return candidates }
        }
        for (parts, earlier) in earlierDocumentNames.names {
            if let position = positions[parts] {
                candidates[position].count += earlier.count
            } else if candidates.count < NameSuggester.maximumNames {
                candidates.append(NameSuggester.Candidate(parts: parts, count: earlier.count, isPatternName: accepted(earlier.key)))
            }
        }
        return candidates
    }
}
