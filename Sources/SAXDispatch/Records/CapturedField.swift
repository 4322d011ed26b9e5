/// A per-record value: what one field of an open record has captured so far. The
/// ``RecordAssembler`` keeps one per field in each open record and fills it as the field's
/// events arrive; at the record's end its ``FieldReader`` consumes it into the field's value.
enum CapturedField {
    case empty
    /// The field's element started; its text comes at its end.
    case pending(CapturePosition, isNil: Bool, depth: Int)
    /// Text or an attribute value (the first occurrence: later ones are ignored).
    case text(String, CapturePosition)
    /// An attribute value converted as it was read, for a single field of a standard
    /// number or `Bool` kind (``FieldReader/convert(_:_:)``): the value's bits. A value that
    /// does not convert is kept as ``text(_:_:)`` instead, for its failure to show it.
    case converted(UInt64, CapturePosition)
    /// The element was there, marked `nil="nil"` or `xsi:nil="true"`.
    case markedNil(CapturePosition)
    /// Every occurrence of a repeated text or attribute field, in document order.
    case items([CapturedItem])
    /// Nested records, built, in document order.
    case records([Any])
}

extension CapturedField {
    /// A field's element started: a single field remembers its first occurrence, a
    /// repeated one adds an occurrence; the text comes with ``complete(depth:text:)``.
    mutating func open(_ occurrence: CapturePosition, isNil: Bool, depth: Int, isList: Bool) {
        if isList {
            append(CapturedItem(text: nil, isNil: isNil, occurrence: occurrence, openDepth: depth))
        } else if case .empty = self {
            self = .pending(occurrence, isNil: isNil, depth: depth)
        }
    }

    /// An attribute value: the first for a single field, one more for a repeated one.
    /// Returns whether a repeated field's list grew (a single field holds one value at
    /// most, which the text limits bound; a list can grow without end).
    @discardableResult
    mutating func capture(_ value: String, _ occurrence: CapturePosition, isList: Bool) -> Bool {
        if isList {
            append(CapturedItem(text: value, isNil: false, occurrence: occurrence, openDepth: 0))
            return true
        } else if case .empty = self {
            self = .text(value, occurrence)
        }
        return false
    }

    /// An attribute value converted as it was read (see ``converted(_:_:)``): the first for
    /// a single field, later ones ignored, as for text.
    mutating func capture(converted bits: UInt64, _ occurrence: CapturePosition) {
        if case .empty = self { self = .converted(bits, occurrence) }
    }

    /// Gives the occurrence opened at `depth` its text. Returns whether a repeated field's
    /// list took it (see ``capture(_:_:isList:)``).
    @discardableResult
    mutating func complete(depth: Int, text: String) -> Bool {
        switch self {
        case .items(var items):
            self = .empty  // `items` is now the only reference: no copy below
            var kept = false
            if let last = items.lastIndex(where: { $0.openDepth == depth }) {
                if !items[last].isNil {
                    items[last].text = text
                    kept = true
                }
                items[last].openDepth = 0
            }
            self = .items(items)
            return kept
        case .pending(let occurrence, let isNil, let pendingDepth) where pendingDepth == depth:
            self = isNil ? .markedNil(occurrence) : .text(text, occurrence)
            return false
        default:
            return false
        }
    }

    /// Adds a nested record's model.
    mutating func appendRecord(_ model: Any) {
        guard case .records(var models) = self else {
            self = .records([model])
            return
        }
        self = .empty
        models.append(model)
        self = .records(models)
    }

    private mutating func append(_ item: CapturedItem) {
        guard case .items(var items) = self else {
            self = .items([item])
            return
        }
        self = .empty
        items.append(item)
        self = .items(items)
    }
}
