#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What one ``XMLRecordEncoder/encode(_:as:to:)`` call shares across its containers: the
/// encoder's settings, how keys and names resolve, how values become text, and the first
/// error a container could not throw where it happened (`container(keyedBy:)` cannot
/// throw), thrown once the value is encoded.
final class EncodingSession {
    let encoder: XMLRecordEncoder
    var failure: EncodingError?

    /// The namespace of `xsi:nil`.
    static let schemaInstanceNamespace = "http://www.w3.org/2001/XMLSchema-instance"

    init(_ encoder: XMLRecordEncoder) {
        self.encoder = encoder
    }

    /// Where a key puts its value in the element being encoded.
    enum KeyPlace: Sendable {
        /// The element's own text (``XMLRecordEncoder/textKey``).
        case text
        /// The element itself (`.`).
        case itself
        /// Child elements (each wrapper written once), then an element or an attribute.
        case path(wrappers: [EncodedElement.Name], last: EncodedElement.Name, isAttribute: Bool)
    }

    /// Where `key` puts its value: worked out once per key string and encoder settings
    /// (``XMLRecordEncoder/keyPlaces``), as every record of a type asks the same keys.
    func place(of key: any CodingKey, codingPath: [any CodingKey]) throws -> KeyPlace {
        let string = key.stringValue
        if let known = encoder.keyPlaces.withLock({ $0[string] }) { return known }
        let place = try workOutPlace(of: key, codingPath: codingPath)
        encoder.keyPlaces.withLock { places in
            // Bounded: keys are the types' own, but a dictionary's keys are the data's.
            if places.count >= XMLRecordEncoder.keyPlaceLimit { places.removeAll() }
            places[string] = place
        }
        return place
    }

    private func workOutPlace(of key: any CodingKey, codingPath: [any CodingKey]) throws -> KeyPlace {
        let written = keyString(key.stringValue)
        if written == encoder.textKey { return .text }
        if written == "." { return .itself }
        var steps = Self.steps(of: written)
        guard let last = steps.popLast(), !last.isEmpty, !steps.contains(where: \.isEmpty) else {
            throw invalidKey(written, codingPath + [key])
        }
        let path = codingPath + [key]
        let wrappers = try steps.map { try elementName($0, codingPath: path) }
        if last.hasPrefix("@") {
            return .path(wrappers: wrappers, last: try attributeName(String(last.dropFirst()), codingPath: path), isAttribute: true)
        }
        return .path(wrappers: wrappers, last: try elementName(last, codingPath: path), isAttribute: false)
    }

    /// The steps of a key path, split at the slashes outside Clark names' braces
    /// (`{http://purl.org/dc/elements/1.1/}rights` is one step).
    static func steps(of key: String) -> [String] {
        var steps: [String] = []
        var current = ""
        var inBraces = false
        for character in key {
            switch character {
            case "{": inBraces = true
            case "}": inBraces = false
            case "/" where !inBraces:
                steps.append(current)
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        steps.append(current)
        return steps
    }

    /// The key a property name becomes under ``XMLRecordEncoder/keyEncodingStrategy``.
    /// The built-in conversions leave keys with XML syntax (`@`, `/`, `:`, `{`, `#`, `.`) as
    /// they are.
    func keyString(_ name: String) -> String {
        switch encoder.keyEncodingStrategy {
        case .useDefaultKeys: return name
        case .custom(let convert): return convert(name)
        case .convertToSnakeCase: return Self.converting(name, separator: "_")
        case .convertToKebabCase: return Self.converting(name, separator: "-")
        }
    }

    /// `firstName` → `first_name` (or `first-name`): a separator before each upper-case
    /// letter that follows a lower-case letter or digit, or that begins a word after an
    /// acronym (`URLValue` → `url_value`).
    static func converting(_ name: String, separator: Character) -> String {
        guard !name.contains(where: { "@/:{#.".contains($0) }) else { return name }
        let characters = Array(name)
        var result = ""
        for (index, character) in characters.enumerated() {
            if character.isUppercase && index > 0 {
                let previous = characters[index - 1]
                let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLower) { result.append(separator) }
            }
            result += character.lowercased()
        }
        return result
    }

    /// An element's name and namespace: `{uri}local`, `p:local` with `p` bound in
    /// ``XMLRecordEncoder/namespaces`` (or `xml`), `*:local` as `local`, or a name as written.
    func elementName(_ text: String, codingPath: [any CodingKey]) throws -> EncodedElement.Name {
        try name(text, isAttribute: false, codingPath: codingPath)
    }

    /// An attribute's name and namespace, as ``elementName(_:codingPath:)``; an unprefixed
    /// attribute is in no namespace.
    func attributeName(_ text: String, codingPath: [any CodingKey]) throws -> EncodedElement.Name {
        try name(text, isAttribute: true, codingPath: codingPath)
    }

    private func name(_ text: String, isAttribute: Bool, codingPath: [any CodingKey]) throws -> EncodedElement.Name {
        if text.hasPrefix("{") {
            guard let close = text.firstIndex(of: "}"), text.index(after: close) < text.endIndex else {
                throw invalidKey(text, codingPath)
            }
            let uri = String(text[text.index(after: text.startIndex)..<close])
            return EncodedElement.Name(name: String(text[text.index(after: close)...]), namespace: uri.isEmpty ? nil : uri)
        }
        if text.hasPrefix("*:") { return EncodedElement.Name(name: String(text.dropFirst(2)), namespace: nil) }
        if let colon = QualifiedName.firstColon(in: text) {
            let prefix = String(text[..<colon])
            let uri = prefix == "xml" ? NamespaceBindings.xmlNamespace : encoder.namespaces.uri(for: prefix)
            return EncodedElement.Name(name: text, namespace: uri)
        }
        return EncodedElement.Name(name: text, namespace: nil)
    }

    private func invalidKey(_ key: String, _ codingPath: [any CodingKey]) -> EncodingError {
        EncodingError.invalidValue(
            key, EncodingError.Context(codingPath: codingPath, debugDescription: "the key \"\(key)\" names no element or attribute"))
    }

    /// The text of a date under ``XMLRecordEncoder/dateEncodingStrategy``.
    func text(of date: Date) -> String {
        switch encoder.dateEncodingStrategy {
        case .iso8601: return Self.iso8601(date)
        case .secondsSince1970: return Self.text(ofFloatingPoint: date.timeIntervalSince1970)
        case .formatted(let format): return format(date)
        }
    }

    /// `2026-11-29T20:41:37Z`, with the fraction of a second the date has (`…37.25Z`),
    /// in as few digits as read back to the same date: the decoder adds the fraction it
    /// reads to the whole seconds, and each digit count is tried until that gives the
    /// date again.
    static func iso8601(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        let seconds = interval.rounded(.down)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: seconds))
        func padded(_ value: Int?, _ width: Int) -> String {
            let digits = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        var text = padded(parts.year, 4) + "-" + padded(parts.month, 2) + "-" + padded(parts.day, 2)
        text += "T" + padded(parts.hour, 2) + ":" + padded(parts.minute, 2) + ":" + padded(parts.second, 2)
        let fraction = interval - seconds
        if fraction > 0 { text += "." + fractionDigits(fraction, after: seconds, making: interval) }
        return text + "Z"
    }

    /// The fewest digits `d` for which `seconds + Double("0.d")` is `interval`, as the
    /// decoder computes it; 17 when none is (the closest then).
    private static func fractionDigits(_ fraction: Double, after seconds: Double, making interval: Double) -> String {
        var scale = 1.0
        for count in 1...17 {
            scale *= 10
            let scaled = (fraction * scale).rounded()
            guard scaled < scale else { continue }
            let number = String(UInt64(scaled))
            let digits = String(repeating: "0", count: count - number.count) + number
            if seconds + (Double("0." + digits) ?? 0) == interval { return trimmed(digits) }
            if count == 17 { return trimmed(digits) }
        }
        return "0"
    }

    private static func trimmed(_ digits: String) -> String {
        var digits = Substring(digits)
        while digits.count > 1 && digits.last == "0" { digits = digits.dropLast() }
        return String(digits)
    }

    /// A floating-point number as the decoder reads it back exactly: its shortest
    /// round-tripping digits, or `INF`, `-INF`, `NaN`.
    static func text(ofFloatingPoint number: some BinaryFloatingPoint & CustomStringConvertible) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-INF" : "INF" }
        return number.description
    }
}
