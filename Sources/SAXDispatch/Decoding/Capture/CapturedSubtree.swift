#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One matched element and what it contains, held for one decode: names, attributes,
/// own text and position of every captured element, in document order.
///
/// Elements live in one array and point at each other by index; the storage is reused
/// from record to record.
final class CapturedSubtree {
    struct Element {
        /// The name as the document wrote it: `prefix:local`, or `local`.
        var name: String
        var text = ""
        // An element's whole text and inner markup, which few types read, are kept apart
        // (``wholeText(of:)``, ``innerMarkup(of:)``): every element made and destroyed
        // would otherwise carry them.
        var attributes: Range<Int>
        var firstChild = -1
        var lastChild = -1
        var nextSibling = -1
        var childCount = 0
        var line: Int
        var column: Int
        /// The element's schema when the capture left children out (`nil`: all captured).
        var schema: KeySchema?
        /// Whether the element has attributes or children that the capture left out: it
        /// is then neither empty nor (for attributes) a wrapper, as with everything captured.
        var hasUncapturedAttributes = false
        var hasUncapturedChildren = false
        /// Whether some captured child, or attribute, is in a namespace: only then can a key
        /// read by namespace find one, and lookups by name as written need not ask.
        var hasNamespacedChildren = false
        var hasNamespacedAttributes = false
        /// The namespace, in ``CapturedSubtree/namespaces`` (kept in what would be the
        /// struct's padding, so an element costs no more than without namespaces).
        var namespace = CapturedNamespaces.none
    }

    struct Attribute {
        /// The name as the document wrote it: `prefix:local`, or `local`.
        var name: String
        var value: String
        /// The namespace, in ``CapturedSubtree/namespaces`` (none for an unprefixed attribute).
        var namespace = CapturedNamespaces.none
    }

    // One parse's capture and decode use the subtree one step at a time, never
    // re-entrantly, so accesses cannot overlap: no runtime exclusivity checks.
    // Buffers rather than arrays: reading an element retains no array buffer.
    @exclusivity(unchecked) private(set) var elements = GrowableBuffer<Element>()
    @exclusivity(unchecked) private(set) var attributes = GrowableBuffer<Attribute>()
    /// The namespace URIs of the elements and attributes.
    @exclusivity(unchecked) private(set) var namespaces = CapturedNamespaces()
    /// What the capture holds, as ``XMLRecordDecoder/maximumRecordBytes`` counts it.
    @exclusivity(unchecked) private(set) var byteCount = 0
    /// The name of the input the document came from (``PushParser/source``), for error descriptions.
    var source: String?

    /// The bytes an element costs beyond its strings.
    static let elementOverhead = 32

    /// The whole texts and inner markups gathered, by element (``setWholeText(_:of:)``,
    /// ``setInnerMarkup(_:of:)``): only for the elements whose schema asked for them.
    @exclusivity(unchecked) private var wholeTexts: [Int: String] = [:]
    @exclusivity(unchecked) private var innerMarkups: [Int: String] = [:]

    func removeAll() {
        if !wholeTexts.isEmpty { wholeTexts.removeAll(keepingCapacity: true) }
        if !innerMarkups.isEmpty { innerMarkups.removeAll(keepingCapacity: true) }
        elements.removeAll()
        attributes.removeAll()
        namespaces.removeAll()
        byteCount = 0
        indexedParent = -1
    }

    /// Elements with more children than this get an index of their children by name
    /// (``indexedChildren(of:named:)``).
    static let indexedChildCount = 32

    /// Whether `element` has more children than ``indexedChildCount``: its children
    /// called a name are found through ``indexedChildren(of:named:)``, not by a scan.
    @inline(__always)
    func hasIndexedChildren(_ element: Int) -> Bool {
        elements[element].childCount > Self.indexedChildCount
    }
    /// The element whose children ``childIndex`` lists by name, or -1.
    @exclusivity(unchecked) private var indexedParent = -1
    @exclusivity(unchecked) private var childIndex: [String: [Int]] = [:]

    /// The children of `parent` that `name` reads, in document order (`nil`: none), found
    /// through an index: for an element with ``hasIndexedChildren(_:)``, whose children
    /// are otherwise scanned. A decode reads an element's keys one by one,
    /// so a large element read as a dictionary would cost a scan of all its children per
    /// key: time growing with the square of its size. One element is indexed at a time,
    /// when first asked.
    func indexedChildren(of parent: Int, named name: KeyName) -> [Int]? {
        if indexedParent != parent {
            childIndex.removeAll(keepingCapacity: true)
            for child in children(of: parent) { childIndex[elements[child].name, default: []].append(child) }
            indexedParent = parent
        }
        guard let (namespace, local) = name.namespaceAndLocalName else { return childIndex[name.key] }
        // The index is by name as written: a name in a namespace may be written with any
        // prefix, so each written name with its local name is a candidate.
        var found: [Int] = []
        for (written, children) in childIndex where KeyName.hasLocalName(written, local) {
            // An empty URI is a local name in any namespace (``KeyName/init(anyNamespace:)``).
            found += children.filter { namespace.isEmpty || (namespaceURI(of: $0).map { $0[...] == namespace } ?? false) }
        }
        return found.isEmpty ? nil : found.sorted()
    }

    /// Adds an element as the last child of `parent` (`-1` for the root) and returns its index.
    func append(
        name: String, namespaceURI: String?, attributes newAttributes: ElementAttributes, parent: Int,
        schema: KeySchema?, line: Int, column: Int
    ) -> Int {
        let start = attributes.count
        var bytes = Self.elementOverhead + name.utf8.count
        var leftOut = false
        var namespacedAttributes = false
        if let schema, !schema.capturesEverything {
            // Only the attributes read, found by their names' bytes: the others never become strings.
            let read = schema.attributes
            newAttributes.forEachPair { rawName, value in
                guard let index = read.index(of: rawName) else {
                    leftOut = true
                    return
                }
                let name: String
                var namespace = CapturedNamespaces.none
                switch read.found(at: index) {
                case .written(let written):
                    name = written
                case .namespaced(let uri):
                    // The prefix is the document's: expat spells the name `uri␁local␁prefix`.
                    name = Self.writtenName(ofNamespaced: rawName)
                    namespace = namespaces.index(of: uri)
                case .prefixed(let written):
                    name = written
                    namespace = namespaces.index(of: Self.namespaceURI(ofNamespaced: rawName))
                }
                if namespace != CapturedNamespaces.none { namespacedAttributes = true }
                let value = UTF8Text.string(cString: value)
                bytes += name.utf8.count + value.utf8.count
                attributes.append(Attribute(name: name, value: value, namespace: namespace))
            }
        } else {
            for attribute in newAttributes {
                let namespace = namespaces.index(of: attribute.namespaceURI)
                if namespace != CapturedNamespaces.none { namespacedAttributes = true }
                bytes += attribute.name.utf8.count + attribute.value.utf8.count
                attributes.append(Attribute(name: attribute.name, value: attribute.value, namespace: namespace))
            }
        }
        byteCount += bytes
        let index = elements.count
        let namespace = namespaces.index(of: namespaceURI)
        elements.append(
            Element(
                name: name, attributes: start..<attributes.count, line: line, column: column, schema: schema,
                hasUncapturedAttributes: leftOut, hasNamespacedAttributes: namespacedAttributes, namespace: namespace))
        if parent >= 0 {
            if namespace != CapturedNamespaces.none { elements[parent].hasNamespacedChildren = true }
            let previous = elements[parent].lastChild
            if previous >= 0 { elements[previous].nextSibling = index } else { elements[parent].firstChild = index }
            elements[parent].lastChild = index
            elements[parent].childCount += 1
            if parent == indexedParent { indexedParent = -1 }
        }
        return index
    }

    /// `prefix:local` of an attribute name expat spells `uri␁local␁prefix`.
    private static func writtenName(ofNamespaced name: UnsafePointer<CChar>) -> String {
        let bytes = UnsafeRawBufferPointer(start: name, count: strlen(name))
        guard let first = bytes.firstIndex(of: QualifiedName.separator),
            let second = bytes[(first + 1)...].firstIndex(of: QualifiedName.separator)
        else { return QualifiedName.qualifiedName(of: bytes) }
        var written = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(second + 1)...]), as: UTF8.self)
        written += ":"
        written += String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(first + 1)..<second]), as: UTF8.self)
        return written
    }

    /// The URI of an attribute name expat spells `uri␁local␁prefix`.
    private static func namespaceURI(ofNamespaced name: UnsafePointer<CChar>) -> String? {
        QualifiedName.parts(of: UnsafeRawBufferPointer(start: name, count: strlen(name))).namespaceURI
    }

    /// Notes that the capture left out a child of `element`.
    func noteUncapturedChild(of element: Int) {
        elements[element].hasUncapturedChildren = true
    }

    func setText(_ text: String, of element: Int) {
        byteCount += text.utf8.count
        elements[element].text = text
    }

    func setWholeText(_ text: String, of element: Int) {
        byteCount += text.utf8.count
        wholeTexts[element] = text
    }

    /// The element's whole text, when its schema asked for it (``KeySchema/readsWholeText``).
    func wholeText(of element: Int) -> String? { wholeTexts[element] }

    /// The element's inner markup, when its schema asked for it (``KeySchema/readsInnerMarkup``).
    func innerMarkup(of element: Int) -> String? { innerMarkups[element] }

    func setInnerMarkup(_ markup: String, of element: Int) {
        byteCount += markup.utf8.count
        innerMarkups[element] = markup
    }

    /// The value of the element's attribute that `name` reads, if it has one.
    @inline(__always)
    func attribute(_ name: KeyName, of element: Int) -> String? {
        // Names as written first: a name in a namespace equals none of them.
        for index in elements[element].attributes where attributes[index].name == name.key {
            return attributes[index].value
        }
        guard elements[element].hasNamespacedAttributes else { return nil }
        return attribute(byNamespace: name, of: element)
    }

    /// ``attribute(_:of:)`` for a name read by namespace.
    private func attribute(byNamespace name: KeyName, of element: Int) -> String? {
        guard name.isNamespaced else { return nil }
        for index in elements[element].attributes {
            if let namespaceURI = namespaces.uri(attributes[index].namespace),
                name.matchesByNamespace(attributes[index].name, namespaceURI)
            {
                return attributes[index].value
            }
        }
        return nil
    }

    /// The namespace URI of `element`, `nil` for none.
    @inline(__always)
    func namespaceURI(of element: Int) -> String? {
        namespaces.uri(elements[element].namespace)
    }

    /// How the document writes what a name read by namespace names: the name of the first
    /// element from `start` on (or, for `attribute`, of the first attribute of one) that
    /// `name` reads; `nil` when the capture holds none. For messages only: a linear scan.
    func writtenName(of name: KeyName, from start: Int, attribute: Bool) -> String? {
        guard name.isNamespaced, start < elements.count else { return nil }
        for element in start..<elements.count {
            if !attribute {
                if isNamed(element, name) { return elements[element].name }
                continue
            }
            for index in elements[element].attributes {
                if let namespaceURI = namespaces.uri(attributes[index].namespace),
                    name.matchesByNamespace(attributes[index].name, namespaceURI)
                {
                    return attributes[index].name
                }
            }
        }
        return nil
    }

    /// Whether `name` reads `element`.
    @inline(__always)
    func isNamed(_ element: Int, _ name: KeyName) -> Bool {
        // ``KeyName/matches(_:namespaceURI:)``, with the namespace looked up only when the
        // name as written differs: path keys ask for every child.
        if elements[element].name == name.key { return true }
        guard name.isNamespaced else { return false }
        return name.matchesByNamespace(elements[element].name, namespaceURI(of: element) ?? "")
    }

    /// The element's children, in document order.
    func children(of element: Int) -> ChildSequence {
        ChildSequence(subtree: self, first: elements[element].firstChild)
    }

    struct ChildSequence: Sequence, IteratorProtocol {
        let subtree: CapturedSubtree
        var following: Int

        init(subtree: CapturedSubtree, first: Int) {
            self.subtree = subtree
            self.following = first
        }

        mutating func next() -> Int? {
            guard following >= 0 else { return nil }
            defer { following = subtree.elements[following].nextSibling }
            return following
        }
    }

    /// Whether the element says it is nil: `nil="nil"`, `nil="true"`, or the XML Schema
    /// instance's `nil="true"` (by its namespace, whatever the prefix; written `xsi:nil`
    /// without namespace processing).
    func isNil(_ element: Int) -> Bool {
        for index in elements[element].attributes {
            let attribute = attributes[index]
            if let namespaceURI = namespaces.uri(attribute.namespace) {
                if namespaceURI == KeyName.schemaInstanceNamespace, KeyName.hasLocalName(attribute.name, "nil"),
                    attribute.value == "true" || attribute.value == "1"
                {
                    return true
                }
                continue
            }
            switch attribute.name {
            case "nil": if attribute.value == "nil" || attribute.value == "true" { return true }
            case "xsi:nil": if attribute.value == "true" || attribute.value == "1" { return true }
            default: continue
            }
        }
        return false
    }

    /// Whether the element has no attributes, no children and no text.
    /// Whether `element` has no text and no child elements (attributes it may have): what
    /// a value read from text finds empty.
    func hasNoContent(_ element: Int) -> Bool {
        let element = elements[element]
        return element.firstChild < 0 && element.text.isEmpty && !element.hasUncapturedChildren
    }

    func isEmpty(_ element: Int) -> Bool {
        let element = elements[element]
        return element.attributes.isEmpty && element.firstChild < 0 && element.text.isEmpty
            && !element.hasUncapturedAttributes && !element.hasUncapturedChildren
    }
}
