/// The elements a writer has open, innermost last: for each, the name its end tag writes,
/// where its namespace bindings begin, and what indentation looks at.
///
/// A copy through a transform opens and closes an element per start tag, so an open element
/// holds no reference: the names written are bytes on a stack of their own, and the few
/// names given otherwise than written (a namespace URI given, a prefix chosen) are kept
/// aside. What must stay true: ``names`` holds the written names of ``elements`` in order,
/// each element's at its ``OpenElement/nameStart``, and ``givenNames`` one name per element
/// whose ``OpenElement/hasGivenName``, in order.
struct OpenElementStack: ~Copyable {
    struct OpenElement {
        /// Where its written name begins in the stack's bytes, and its length.
        let nameStart: Int32
        let nameCount: Int32
        /// Whether the name given to ``XMLWriter/startElement(_:namespace:attributes:)-(_,_,KeyValuePairs<String,String>)``
        /// is another than the name written (kept in ``OpenElementStack/givenNames``).
        let hasGivenName: Bool
        let bindingStart: Int
        /// What indentation looks at (kept only when the writer indents).
        var hasChildren = false
        var hasText = false
    }

    /// What a hold goes back to (``XMLWriter/Hold``): rare, so a copy.
    struct Snapshot {
        fileprivate let elements: [OpenElement]
        fileprivate let names: [UInt8]
        fileprivate let givenNames: [String]
    }

    private var elements = GrowableBuffer<OpenElement>(capacity: 64)
    private var names = TextBuffer(capacity: 256)
    private var givenNames: [String] = []

    var count: Int { elements.count }
    var isEmpty: Bool { elements.isEmpty }

    /// Opens an element whose name is written as given (a copied one).
    @inline(__always)
    mutating func push(written: UnsafeRawBufferPointer, bindingStart: Int) {
        let start = names.count
        names.appendBytes(written)
        elements.append(
            OpenElement(
                nameStart: Int32(truncatingIfNeeded: start), nameCount: Int32(truncatingIfNeeded: written.count),
                hasGivenName: false, bindingStart: bindingStart))
    }

    /// Opens an element written `written`, given as `given`.
    mutating func push(written: String, given: String, bindingStart: Int) {
        var bytes = written
        bytes.withUTF8 { push(written: UnsafeRawBufferPointer($0), bindingStart: bindingStart) }
        if given != written {
            givenNames.append(given)
            elements.lastAddress.pointee = OpenElement(
                nameStart: elements.last.nameStart, nameCount: elements.last.nameCount, hasGivenName: true,
                bindingStart: bindingStart)
        }
    }

    /// The innermost element; the stack must not be empty.
    var top: OpenElement {
        @inline(__always) get { elements.last }
    }

    mutating func markTopHasChildren() { elements.lastAddress.pointee.hasChildren = true }
    mutating func markTopHasText() { elements.lastAddress.pointee.hasText = true }

    /// The bytes of the innermost element's written name, valid until the stack changes.
    var topWrittenBytes: UnsafeRawBufferPointer {
        @inline(__always) get {
            let element = top
            return UnsafeRawBufferPointer(start: names.bytes(from: Int(element.nameStart)).baseAddress, count: Int(element.nameCount))
        }
    }

    /// The innermost element's written name.
    var topWritten: String { String(decoding: topWrittenBytes, as: UTF8.self) }

    /// The innermost element's name as given.
    var topGiven: String { top.hasGivenName ? givenNames[givenNames.count - 1] : topWritten }

    /// Whether `name` is the innermost element's name as given.
    func topIsGiven(_ name: String) -> Bool {
        if top.hasGivenName { return givenNames[givenNames.count - 1] == name }
        return name.utf8.elementsEqual(topWrittenBytes)
    }

    /// The prefix of the innermost element's written name (`""` for none).
    var topPrefix: Substring {
        let written = topWritten
        return QualifiedName.firstColon(in: written).map { written[..<$0] } ?? ""
    }

    /// Closes the innermost element; the stack must not be empty.
    @inline(__always)
    mutating func pop() {
        let element = elements.removeLast()
        names.truncate(to: Int(element.nameStart))
        if _slowPath(element.hasGivenName) { givenNames.removeLast() }
    }

    func snapshot() -> Snapshot {
        Snapshot(
            elements: Array(elements.elements(from: 0, count: elements.count)), names: Array(names.bytes(from: 0)),
            givenNames: givenNames)
    }

    mutating func restore(_ snapshot: Snapshot) {
        elements.truncate(to: 0)
        for element in snapshot.elements { elements.append(element) }
        names.truncate(to: 0)
        snapshot.names.withUnsafeBytes { names.appendBytes($0) }
        givenNames = snapshot.givenNames
    }
}
