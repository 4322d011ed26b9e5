import Foundation
import SAXDispatch

/// Why a value in a zoo document could not become part of a `Zoo`. The parse wraps it
/// in a `HandlerError`, which adds the file, line, column and element path.
struct ZooError: Error, CustomStringConvertible, Equatable {
    var message: String

    var description: String { message }
}

/// Reads a zoo document with one handler per path of interest; everything else
/// (`a_random_assortment_of_characters`, whitespace, unknown elements) costs nothing.
/// The same zoo read with hand-written handlers, kept to compare with `ZooRecords`:
/// the records say in a dozen lines what these handlers spell out.
enum ZooHandlerReader {
    /// - Throws: `HandlerError` wrapping a `ZooError` for a value that does not convert
    ///   or a missing field, `XMLParseError` for a malformed document, `XMLInputError`.
    static func read(contentsOfFile path: String) throws -> Zoo {
        var animals: [Animal] = []
        var kind: String?
        var name: String?
        var url: URL?
        var toiletCount: Int?
        var disabledParking: Bool?
        var drainage: String?

        func convert<Value>(_ text: String, as type: Value.Type, _ conversion: (String) -> Value?) throws -> Value {
            guard let value = conversion(text) else { throw ZooError(message: "cannot convert \(text.debugDescription) to \(type)") }
            return value
        }

        var dispatcher = Dispatcher()
        dispatcher.onStart("animal") { _ in (kind, name, url) = (nil, nil, nil) }
        dispatcher.onEnd("animal/kind") { _, text in kind = text }
        dispatcher.onEnd("animal/nested_nonsense/name") { _, text in name = text }
        dispatcher.onEnd("animal/url") { _, text in url = try convert(text, as: URL.self) { URL(string: $0) } }
        dispatcher.onEnd("animal") { _ in
            guard let kind, let name, let url else {
                let missing = [kind == nil ? "kind" : nil, name == nil ? "nested_nonsense/name" : nil, url == nil ? "url" : nil]
                throw ZooError(message: "animal is missing \(missing.compactMap { $0 }.joined(separator: ", "))")
            }
            animals.append(Animal(kind: kind, name: name, url: url))
        }
        dispatcher.onEnd("/zoo/facilities/toilet") { _, text in toiletCount = try convert(text, as: Int.self) { Int($0) } }
        dispatcher.onEnd("/zoo/facilities/disabled_parking") { _, text in
            disabledParking = try convert(text, as: Bool.self) { ["true": true, "false": false][$0] }
        }
        dispatcher.onEnd("seriously/crazy_nested/drainage") { _, text in drainage = text }
        dispatcher.onEnd("/zoo") { _ in
            guard toiletCount != nil, disabledParking != nil, drainage != nil else {
                throw ZooError(message: "zoo is missing facilities/toilet, facilities/disabled_parking or drainage")
            }
        }
        try dispatcher.parse(.file(path))
        guard let toiletCount, let disabledParking, let drainage else {
            throw ZooError(message: "\(path): no zoo element")
        }
        return Zoo(animals: animals, toiletCount: toiletCount, disabledParking: disabledParking, drainage: drainage)
    }
}
