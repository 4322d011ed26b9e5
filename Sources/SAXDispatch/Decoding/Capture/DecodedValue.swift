/// What a coding path leads to in a captured subtree.
enum DecodedValue {
    /// One element. `mayBeWrapper`: read as a list, it may be a wrapper whose children are
    /// the items (it was found by name, or is the matched element).
    case element(Int, mayBeWrapper: Bool)
    /// Several elements (repeated children, or what a path leads to).
    case elements([Int])
    /// An attribute's value, an element's own text, or one token of a list in text;
    /// `owner` is the element it belongs to.
    case string(String, owner: Int)
    /// The values of an attribute on several elements (a path key ending in an attribute,
    /// `"item/@id"`); `owner` is the first element. Read as a list, each is one item.
    case strings([String], owner: Int)
    /// Nothing: the last key of the coding path names nothing in element `owner`. It reads
    /// as an empty list; anything else throws the `keyNotFound` error that names the key.
    case absent(owner: Int)
}

extension DecodedValue {
    /// Whether the value is anything but ``absent(owner:)``.
    var isPresent: Bool {
        if case .absent = self { false } else { true }
    }

    /// The element whose position and name describe the value.
    var owner: Int {
        switch self {
        case .element(let element, _): element
        case .elements(let elements): elements.first ?? 0
        case .string(_, let owner), .strings(_, let owner), .absent(let owner): owner
        }
    }

    /// The element the value is (the first, for several); `nil` for text or nothing.
    var element: Int? {
        switch self {
        case .element(let only, _): only
        case .elements(let elements): elements.first
        case .string, .strings, .absent: nil
        }
    }

    /// The text a scalar is read from: an element's own text, an attribute's value, a token.
    func text(in subtree: CapturedSubtree) -> String {
        switch self {
        case .element(let element, _): subtree.elements[element].text
        case .elements(let elements): elements.first.map { subtree.elements[$0].text } ?? ""
        case .string(let string, _): string
        case .strings(let strings, _): strings.first ?? ""
        case .absent: ""
        }
    }

    /// The whole text of the value (``XMLStringValue``): an element's, if it was gathered
    /// (`nil` if not, or for nothing), or the value itself for an attribute or a token.
    func wholeText(in subtree: CapturedSubtree) -> String? {
        switch self {
        case .element(let element, _): subtree.wholeText(of: element)
        case .elements(let elements): elements.first.flatMap { subtree.wholeText(of: $0) }
        case .string(let string, _): string
        case .strings(let strings, _): strings.first ?? ""
        case .absent: nil
        }
    }

    /// The inner markup of the value (``XMLInnerMarkup``): an element's, if it was written
    /// (`nil` if not, or for nothing), or the value itself for an attribute or a token, as
    /// a record's `.markup` field reads an attribute path.
    func innerMarkup(in subtree: CapturedSubtree) -> String? {
        switch self {
        case .element(let element, _): subtree.innerMarkup(of: element)
        case .elements(let elements): elements.first.flatMap { subtree.innerMarkup(of: $0) }
        case .string(let string, _): string
        case .strings(let strings, _): strings.first ?? ""
        case .absent: nil
        }
    }

    /// Whether the value is nil: nothing at all, an element marked `nil="nil"` or
    /// `xsi:nil="true"`, or an empty element when `emptyElementsAreNil`.
    func isNil(in subtree: CapturedSubtree, emptyElementsAreNil: Bool) -> Bool {
        switch self {
        case .string, .strings: return false
        default: break
        }
        // Several elements are a list, present whatever its first item says.
        if case .elements(let elements) = self, elements.count > 1 { return false }
        guard let element else { return true }
        return subtree.isNil(element) || (emptyElementsAreNil && subtree.isEmpty(element))
    }

    /// Whether the value is present but empty, as read as `kind`: an empty attribute value,
    /// or an element without text or child elements (for a type read from text) or without
    /// anything at all (for any other type). An optional reads such a value as `nil` when
    /// its type cannot be read from it (the rule the EmptyValues article states).
    func isEmpty(in subtree: CapturedSubtree, as kind: ElementDecoder.ValueKind) -> Bool {
        switch self {
        case .string(let string, _): return string.isEmpty
        case .strings, .absent: return false
        case .element(let element, _): return Self.isEmpty(element, in: subtree, as: kind)
        case .elements(let elements):
            return elements.count == 1 && Self.isEmpty(elements[0], in: subtree, as: kind)
        }
    }

    private static func isEmpty(_ element: Int, in subtree: CapturedSubtree, as kind: ElementDecoder.ValueKind) -> Bool {
        switch kind {
        case .text, .date, .url, .data: subtree.hasNoContent(element)
        case .list, .decodable: subtree.isEmpty(element)
        }
    }

    /// Whether the value is an element that says it is nil (`nil="nil"`, `xsi:nil="true"`):
    /// unlike ``isNil(in:emptyElementsAreNil:)``, not an empty element, whatever the options.
    func isMarkedNil(in subtree: CapturedSubtree) -> Bool {
        element.map { subtree.isNil($0) } ?? false
    }
}
