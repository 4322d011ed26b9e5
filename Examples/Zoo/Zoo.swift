import Foundation
import SAXDispatch

/// An animal of the zoo document: every field is required.
struct Animal: Equatable, Sendable {
    let kind: String
    let name: String
    let url: URL
}

/// The whole zoo, as immutable values.
struct Zoo: Equatable, Sendable {
    let animals: [Animal]
    let toiletCount: Int
    let disabledParking: Bool
    let drainage: String
}

/// The zoo document as typed records: the `Animal` record is defined once and used
/// inside the `Zoo` record at `animals/animal`. Everything the fields do not name
/// (`a_random_assortment_of_characters`, whitespace) is skipped unread.
enum ZooRecords {
    static let animal = XMLRecord(
        "animal",
        .text("kind"),
        .text("nested_nonsense/name"),
        .value("url", as: URL.self)
    ) { Animal(kind: $0, name: $1, url: $2) }

    static let zoo = XMLRecord(
        "/zoo",
        .many("animals/animal", animal),
        .value("facilities/toilet", as: Int.self).named("toiletCount"),
        .value("facilities/disabled_parking", as: Bool.self).named("disabledParking"),
        .text("facilities/seriously/crazy_nested/drainage")
    ) { Zoo(animals: $0, toiletCount: $1, disabledParking: $2, drainage: $3) }

    /// - Throws: `XMLRecordError` naming every field that is missing or does not convert,
    ///   with its line and column; `XMLParseError` for a malformed document; `XMLInputError`.
    static func read(contentsOfFile path: String) throws -> Zoo {
        try zoo.first(in: .file(path))
    }
}
