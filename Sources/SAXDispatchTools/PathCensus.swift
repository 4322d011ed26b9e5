#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SAXDispatch

/// What `saxdispatch paths` does: counts every distinct element path of a document, with
/// the attribute names seen on it, how deep elements nest inside it and, optionally, one
/// sample of its text — in memory that grows with the number of distinct paths, not with
/// the document.
///
/// Paths and attribute names are kept as the document writes them, prefixes included; the
/// namespace each prefix (or the default namespace) stands for is listed beside them
/// (``Outcome/namespaces``), every binding of it when the document binds one prefix to
/// several URIs, so that a user sees what to bind.
///
/// ```swift
/// let paths = try PathCensus().run(.file("map.osm"))
/// for path in paths { print(path.count, path.path) }
/// ```
public struct PathCensus: Sendable {
    /// One distinct element path and what was seen at it.
    public struct Entry: Sendable, Hashable {
        /// The absolute path, such as `/osm/node/tag`.
        public var path: String
        /// How many elements have this path.
        public var count: Int
        /// The path's depth: 1 for the root element.
        public var depth: Int
        /// The most levels of elements found inside one element of this path (0 for leaves).
        public var levelsBelow: Int
        /// The attribute names seen on elements of this path, in order of first appearance.
        public var attributes: [String]
        /// The namespace URIs of the elements of this path, in order of first appearance:
        /// none for a name in no namespace, one as a rule, more when the prefix (or the
        /// default namespace) stands for different URIs in different places.
        public var namespaceURIs: [String] = []
        /// The first non-empty text of an element of this path (trimmed, shortened to
        /// ``PathCensus/sampleLength`` characters), when samples were asked for.
        public var sample: String?
    }

    /// How the entries are ordered.
    public enum Order: String, Sendable, CaseIterable {
        /// By the document order of each path's first element.
        case document
        /// Most frequent first; equal counts in document order.
        case count
    }

    /// The longest sample kept, in characters; longer texts end with `…`.
    public static let sampleLength = 60

    /// A prefix as the document wrote it and the namespace URI it stood for.
    public struct Namespace: Sendable, Hashable {
        /// The prefix; `nil` for a default namespace (`xmlns="…"`).
        public var prefix: String?
        /// The namespace URI.
        public var uri: String

        public init(prefix: String?, uri: String) {
            self.prefix = prefix
            self.uri = uri
        }
    }

    /// The limits the document must keep.
    public var safety: SafetyProfile
    /// Whether names are read by namespace (the default) or as written
    /// (``Dispatcher/processesNamespaces``): without it, no name has a namespace and
    /// `xmlns` declarations are attributes.
    public var processesNamespaces: Bool
    /// Whether each entry gets a sample of its text.
    public var collectsSamples: Bool
    /// The most distinct paths, attribute names and namespace bindings (together) kept
    /// before the census fails, so that a document with endless distinct names cannot
    /// exhaust memory.
    public var maximumEntries: Int
    /// The most bytes those entries may take, each path counted whole (`/osm/node/tag`):
    /// a few deep paths of long names would otherwise make paths that take the square of
    /// the input's size. 64 MiB by default.
    public var maximumBytes: Int

    /// A census under `safety`, with or without samples.
    public init(
        safety: SafetyProfile = .default, collectsSamples: Bool = false, maximumEntries: Int = 100_000,
        maximumBytes: Int = 64 << 20, processesNamespaces: Bool = true
    ) {
        self.safety = safety
        self.processesNamespaces = processesNamespaces
        self.collectsSamples = collectsSamples
        self.maximumEntries = maximumEntries
        self.maximumBytes = maximumBytes
    }

    /// What a census found: every path, and the error that ended the document early, if any.
    public struct Outcome: Sendable {
        /// One entry per distinct path, in the order asked for; on an error, the paths of
        /// the document up to it.
        public var entries: [Entry]
        /// Every prefix that element and attribute names were written with (and the default
        /// namespace) with each URI it stood for, in order of first appearance; empty for a
        /// document without namespaces, or without namespace processing.
        public var namespaces: [Namespace] = []
        /// Why the document could not be read to its end: ``XMLParseError`` for a malformed
        /// document, ``XMLInputError`` when the input cannot be read, ``DecompressionError``
        /// when it is compressed and cannot be decompressed, ``TooManyPaths``
        /// (with the position of the element that would have been one too many).
        public var failure: (any Error)?
    }

    /// Counts the paths of `input`; `progress`, if given, counts elements. A document that
    /// fails part of the way still gives the paths seen before the failure.
    public func run(_ input: XMLInput, progress meter: (any ProgressDisplay)? = nil, order: Order = .document) -> Outcome {
        run(input, progress: meter, order: order, tally: Tally(maximumEntries: maximumEntries, maximumBytes: maximumBytes))
    }

    /// Counts the paths of `input` into `tally`, which a test can then ask what the count cost.
    func run(_ input: XMLInput, progress meter: (any ProgressDisplay)?, order: Order, tally: Tally) -> Outcome {
        var dispatcher = Dispatcher()
        dispatcher.safety = safety
        dispatcher.processesNamespaces = processesNamespaces
        dispatcher.onAnyStart { element in try tally.start(element) }
        if collectsSamples {
            dispatcher.onAnyEnd(whitespace: .collapse) { _, text in tally.end(text: text) }
        } else {
            dispatcher.onAnyEnd { _ in tally.end(text: nil) }
        }
        let progress = ReadProgress(meter: meter) { tally.elements }
        defer { progress.finish() }
        var failure: (any Error)?
        do {
            try dispatcher.parse(progress.reading(input))
        } catch {
            if let handlerError = error as? HandlerError, var tooMany = handlerError.underlying as? TooManyPaths {
                // Said as a document error, where the element is, not as a handler's.
                tooMany.position = "\(handlerError.source ?? "<input>"):\(handlerError.line):\(handlerError.column)"
                tooMany.elementPath = handlerError.elementPath.abbreviated()
                failure = tooMany
            } else {
                failure = error
            }
        }
        return Outcome(entries: tally.entries(order: order), namespaces: tally.namespaces, failure: failure)
    }

    /// The error a census stops with when a document has more distinct paths, attribute
    /// names and namespace bindings than it keeps.
    public struct TooManyPaths: Error, CustomStringConvertible {
        /// The limit on entries, when that is the limit reached.
        public var maximumEntries: Int
        /// The limit on bytes, when that is the limit reached instead.
        public var maximumBytes: Int?
        /// `SOURCE:LINE:COLUMN` of the element that would have been one too many, once known.
        public var position: String?
        /// The path of that element, abbreviated.
        public var elementPath: String?

        /// `SOURCE:LINE:COLUMN: error: more than N distinct paths and attribute names (in PATH)`,
        /// or `… distinct paths and attribute names take more than N bytes (in PATH)`.
        public var description: String {
            let message =
                maximumBytes.map { "distinct paths and attribute names take more than \(ProgressMeter.grouped($0)) bytes" }
                ?? "more than \(ProgressMeter.grouped(maximumEntries)) distinct paths and attribute names"
            guard let position else { return message }
            return "\(position): error: \(message)" + (elementPath.map { " (in \($0))" } ?? "")
        }
    }

    /// The counts, kept while the document streams past: a tree of distinct paths, with
    /// the open elements' nodes on a stack.
    final class Tally {
        struct Node {
            var name: String
            var parent: Int
            var depth: Int
            var count = 0
            var levelsBelow = 0
            var children: [String: Int] = [:]
            var attributes: [String] = []
            var attributeSet: Set<String> = []
            var namespaceURIs: [String] = []
            /// The same URIs, to look one up without searching the list.
            var namespaceURISet: Set<String> = []
            var sample: String?
            /// The bytes of the node's whole path, as ``entries(order:)`` writes it.
            var pathBytes = 0
        }

        let maximumEntries: Int
        let maximumBytes: Int
        var byteCount = 0
        /// Node 0 stands for the document, above the root element.
        var nodes = [Node(name: "", parent: -1, depth: 0)]
        var entryCount = 0
        var elements = 0
        /// The open elements: their node and the deepest depth reached inside them so far.
        var open: [(node: Int, deepest: Int)] = [(0, 0)]
        /// Every (prefix, URI) pair seen, in order of first appearance.
        var namespaces: [Namespace] = []
        /// The same pairs, each with its URI as kept: each string is kept once, so that the
        /// nodes holding it share it. A dictionary, so that a document of many distinct
        /// pairs costs a lookup per element, not a search of those before.
        var keptURIs: [Namespace: String] = [:]
        /// How many times a URI was looked up among the known ones, of a node or of the
        /// document: the census's work per namespace, which a test checks stays the same
        /// whatever number of URIs came before.
        private(set) var namespaceLookups = 0

        init(maximumEntries: Int, maximumBytes: Int) {
            self.maximumEntries = maximumEntries
            self.maximumBytes = maximumBytes
        }

        /// Counts `element`; one of a range's context (`counts` false), which the range
        /// before counted, only takes its place on the path.
        func start(_ element: ElementContext, counts: Bool = true) throws {
            let parent = open[open.count - 1].node
            let name = element.name
            let index: Int
            if let existing = nodes[parent].children[name] {
                index = existing
            } else {
                let pathBytes = nodes[parent].pathBytes + 1 + name.utf8.count
                try admitEntry(bytes: pathBytes)
                index = nodes.count
                var node = Node(name: name, parent: parent, depth: nodes[parent].depth + 1)
                node.pathBytes = pathBytes
                nodes.append(node)
                nodes[parent].children[name] = index
            }
            guard counts else {
                open.append((index, nodes[index].depth))
                return
            }
            elements += 1
            nodes[index].count += 1
            // A node's name fixes its prefix, so a URI the node already has is a known
            // binding: the common case costs one comparison.
            if let uri = element.namespaceURI, !knows(uri, node: index) {
                let kept = try namespace(prefix: element.prefix, uri: uri)
                // The first URI is part of the path's entry; another one counts as an entry.
                if !nodes[index].namespaceURIs.isEmpty { try admitEntry(bytes: kept.utf8.count) }
                nodes[index].namespaceURIs.append(kept)
                nodes[index].namespaceURISet.insert(kept)
            }
            for attribute in element.attributes {
                if let uri = attribute.namespaceURI { _ = try namespace(prefix: attribute.prefix, uri: uri) }
                guard !nodes[index].attributeSet.contains(attribute.name) else { continue }
                try admitEntry(bytes: attribute.name.utf8.count)
                nodes[index].attributeSet.insert(attribute.name)
                nodes[index].attributes.append(attribute.name)
            }
            open.append((index, nodes[index].depth))
        }

        /// Whether the node at `index` has had `uri`: its first URI compared, or a lookup.
        private func knows(_ uri: String, node index: Int) -> Bool {
            namespaceLookups += 1
            guard let first = nodes[index].namespaceURIs.first else { return false }
            return first == uri || nodes[index].namespaceURISet.contains(uri)
        }

        /// Records that `prefix` stood for `uri` and returns the URI as kept.
        private func namespace(prefix: String?, uri: String) throws -> String {
            let namespace = Namespace(prefix: prefix, uri: uri)
            namespaceLookups += 1
            if let known = keptURIs[namespace] { return known }
            try admitEntry(bytes: (prefix?.utf8.count ?? 0) + uri.utf8.count)
            keptURIs[namespace] = uri
            namespaces.append(namespace)
            return uri
        }

        func end(text: String?) {
            // Once ``entries(order:)`` closed what was open, a range's closing tags end
            // nothing more.
            guard open.count > 1 else { return }
            let (index, deepest) = open.removeLast()
            let levels = deepest - nodes[index].depth
            if levels > nodes[index].levelsBelow { nodes[index].levelsBelow = levels }
            if deepest > open[open.count - 1].deepest { open[open.count - 1].deepest = deepest }
            if let text, !text.isEmpty, nodes[index].sample == nil {
                nodes[index].sample =
                    text.count > PathCensus.sampleLength ? String(text.prefix(PathCensus.sampleLength - 1)) + "…" : text
            }
        }

        private func admitEntry(bytes: Int) throws {
            guard entryCount < maximumEntries else { throw TooManyPaths(maximumEntries: maximumEntries) }
            guard bytes <= maximumBytes - byteCount else {
                throw TooManyPaths(maximumEntries: maximumEntries, maximumBytes: maximumBytes)
            }
            entryCount += 1
            byteCount += bytes
        }

        func entries(order: Order) -> [Entry] {
            // After an error, the elements still open count what was seen inside them.
            while open.count > 1 { end(text: nil) }
            // Nodes are numbered in order of first appearance, which is document order.
            var paths = [""]
            var entries: [Entry] = []
            entries.reserveCapacity(nodes.count - 1)
            for node in nodes.dropFirst() {
                let path = paths[node.parent] + "/" + node.name
                paths.append(path)
                entries.append(
                    Entry(
                        path: path, count: node.count, depth: node.depth, levelsBelow: node.levelsBelow,
                        attributes: node.attributes, namespaceURIs: node.namespaceURIs, sample: node.sample))
            }
            if order == .count {
                let ranked = entries.enumerated().sorted { ($0.element.count, $1.offset) > ($1.element.count, $0.offset) }
                return ranked.map(\.element)
            }
            return entries
        }
    }
}

extension PathCensus.TooManyPaths: LocalizedError {
    /// The same text as `description`.
    public var errorDescription: String? { description }

    /// That the census keeps a bounded number of paths, to bound its memory.
    public var failureReason: String? {
        "The document has more distinct paths than the census keeps, to bound its memory."
    }
}
