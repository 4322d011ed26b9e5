import Foundation
import SAXDispatch

/// An animal of the zoo document: every field is required.
struct Animal: Equatable, Sendable {
    let kind: String
    let name: String
    let url: URL
}

/// The whole zoo, assembled from per-element handlers into immutable values.
struct Zoo: Equatable, Sendable {
    let animals: [Animal]
    let toiletCount: Int
    let disabledParking: Bool
    let drainage: String
}

/// Why a zoo document could not become a `Zoo`, with the element responsible.
struct ZooError: Error, CustomStringConvertible, Equatable {
    var file: String
    var line: Int
    var column: Int
    var message: String

    var description: String { "\(file):\(line):\(column): error: \(message)" }
}

/// Reads a zoo document with one handler per element of interest; everything else
/// (`a_random_assortment_of_characters`, whitespace, unknown elements) costs nothing.
enum ZooReader {
    static func read(contentsOfFile path: String) throws -> Zoo {
        var animals: [Animal] = []
        var kind: String?
        var name: String?
        var url: URL?
        var toiletCount: Int?
        var disabledParking: Bool?
        var drainage: String?

        func failure(_ element: ElementContext, _ message: String) -> ZooError {
            ZooError(file: path, line: element.line, column: element.column, message: message)
        }
        func convert<Value>(_ text: String, _ element: ElementContext, as type: Value.Type, _ conversion: (String) -> Value?) throws -> Value {
            guard let value = conversion(text) else {
                throw failure(element, "cannot convert \(text.debugDescription) to \(type) at \(element.path)")
            }
            return value
        }

        var dispatcher = Dispatcher()
        dispatcher.onStart("animal") { _ in (kind, name, url) = (nil, nil, nil) }
        dispatcher.onEnd("kind") { _, text in kind = text }
        dispatcher.onEnd("name") { element, text in
            if element.ancestor(at: 1) == "nested_nonsense" { name = text }
        }
        dispatcher.onEnd("url") { element, text in
            url = try convert(text, element, as: URL.self) { URL(string: $0) }
        }
        dispatcher.onEnd("animal") { element in
            guard let kind, let name, let url else {
                let missing = [kind == nil ? "kind" : nil, name == nil ? "nested_nonsense/name" : nil, url == nil ? "url" : nil]
                throw failure(element, "animal is missing \(missing.compactMap { $0 }.joined(separator: ", "))")
            }
            animals.append(Animal(kind: kind, name: name, url: url))
        }
        dispatcher.onEnd("toilet") { element, text in
            toiletCount = try convert(text, element, as: Int.self) { Int($0) }
        }
        dispatcher.onEnd("disabled_parking") { element, text in
            disabledParking = try convert(text, element, as: Bool.self) { ["true": true, "false": false][$0] }
        }
        dispatcher.onEnd("drainage") { element, text in
            if element.ancestors.starts(with: ["crazy_nested", "seriously"]) { drainage = text }
        }
        dispatcher.onEnd("zoo") { element in
            guard toiletCount != nil, disabledParking != nil, drainage != nil else {
                throw failure(element, "zoo is missing facilities/toilet, facilities/disabled_parking or drainage")
            }
        }
        try dispatcher.parse(contentsOfFile: path)
        guard let toiletCount, let disabledParking, let drainage else {
            throw ZooError(file: path, line: 1, column: 1, message: "no zoo element")
        }
        return Zoo(animals: animals, toiletCount: toiletCount, disabledParking: disabledParking, drainage: drainage)
    }
}
