#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `Encoder` a value encodes itself with: where its content goes (``Slot``) and the
/// keys that led there. Values of the types XML writes as text are turned into text here,
/// before their own `encode(to:)` would split them into parts.
struct ElementEncoder: Encoder {
    /// Where a value's content goes.
    enum Slot {
        /// Into this element: the record's own, a wrapper, or `.`.
        case element(EncodedElement)
        /// Into a new child of `parent` named `name`, one per value (an array makes many).
        case child(parent: EncodedElement, name: EncodedElement.Name)
        /// Into an attribute of `parent`.
        case attribute(parent: EncodedElement, name: EncodedElement.Name)
        /// Into `parent`'s own text.
        case text(parent: EncodedElement)
    }

    let session: EncodingSession
    let slot: Slot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { session.encoder.userInfo }

    /// Encodes `value` here: as text when XML writes its type as text, else by its own
    /// `encode(to:)`; then throws the first error a container kept.
    func encodeValue<T: Encodable>(_ value: T) throws {
        if let url = value as? URL, case .attribute(let name) = session.encoder.urlEncodingStrategy, let element = valueElement() {
            element.setAttribute(try session.attributeName(name, codingPath: codingPath), url.absoluteString)
        } else if let text = try text(of: value) {
            writeText(text)
        } else {
            try value.encode(to: self)
        }
        if let failure = session.failure { throw failure }
    }

    /// The text of a value XML writes as text, `nil` for any other.
    func text<T: Encodable>(of value: T) throws -> String? {
        switch value {
        case let text as String: return text
        case let flag as Bool: return flag ? "true" : "false"
        case let number as Double: return EncodingSession.text(ofFloatingPoint: number)
        case let number as Float: return EncodingSession.text(ofFloatingPoint: number)
        case let date as Date: return session.text(of: date)
        case let url as URL: return url.absoluteString
        case let decimal as Decimal: return decimal.description
        case let text as XMLStringValue: return text.text
        case let data as Data:
            switch session.encoder.dataEncodingStrategy {
            case .base64: return data.base64EncodedString()
            case .custom(let encode): return try encode(data)
            }
        case let number as any BinaryInteger: return String(describing: number)
        default: return nil
        }
    }

    /// The element the value fills: this one, or a new child; `nil` in an attribute or the
    /// text, which hold text only. (A URL's attribute, a container's keys, inner markup and
    /// `xsi:nil` go on it.)
    func valueElement() -> EncodedElement? {
        switch slot {
        case .element(let element): return element
        case .child(let parent, let name): return parent.appendChild(name)
        case .attribute, .text: return nil
        }
    }

    /// Writes a single value's text where the slot says.
    func writeText(_ text: String) {
        switch slot {
        case .element(let element): element.appendText(text)
        case .child(let parent, let name): parent.appendChild(name).appendText(text)
        case .attribute(let parent, let name): parent.setAttribute(name, text)
        case .text(let parent): parent.appendText(text)
        }
    }

    /// Writes `nil`: nothing, or under ``XMLRecordEncoder/NilEncodingStrategy/xsiNil`` an
    /// element marked `xsi:nil="true"` (an attribute or text is left out either way).
    func writeNil() {
        guard case .xsiNil = session.encoder.nilEncodingStrategy else { return }
        valueElement()?.setAttribute(EncodedElement.Name(name: "xsi:nil", namespace: EncodingSession.schemaInstanceNamespace), "true")
    }

    /// The element a keyed container fills: this one, or a new child; `nil`, with the
    /// failure kept, for an attribute or text, which hold no structure.
    func containerElement() -> EncodedElement? {
        if let element = valueElement() { return element }
        fail("a value with keys cannot be written in an attribute or as text")
        return nil
    }

    /// Keeps the first failure, thrown once the value is encoded.
    func fail(_ message: String) {
        guard session.failure == nil else { return }
        session.failure = EncodingError.invalidValue(
            message, EncodingError.Context(codingPath: codingPath, debugDescription: message))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(
            ElementKeyedEncodingContainer<Key>(encoder: self, element: containerElement() ?? EncodedElement(.init(name: "_"))))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        ElementUnkeyedEncodingContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        ElementSingleValueEncodingContainer(encoder: self)
    }
}

/// A single value: its text where the encoder's slot says.
struct ElementSingleValueEncodingContainer: SingleValueEncodingContainer {
    let encoder: ElementEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.writeNil() }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try encoder.encodeValue(value)
    }
}
