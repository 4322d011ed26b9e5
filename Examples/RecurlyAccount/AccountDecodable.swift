import Foundation
import SAXDispatch

// The account document read with Codable: the same `Account` model, decoded by
// `XMLRecordDecoder` with two of its options doing the work the records spell out —
// snake_case element names, and URLs read from `href` attributes. `State` and
// `Address` declare `Decodable` in Account.swift, where it can be synthesized.

extension Account: Decodable {
    private enum CodingKeys: String, CodingKey {
        case href, adjustments, billingInfo, invoices, subscriptions, transactions
        case accountCode, state, username, email, firstName, lastName, companyName, address, createdAt
    }

    /// The child resources, by the element name `links` uses.
    private static let linkKeys: [(CodingKeys, String)] = [
        (.adjustments, "adjustments"), (.billingInfo, "billing_info"), (.invoices, "invoices"),
        (.subscriptions, "subscriptions"), (.transactions, "transactions"),
    ]

    /// Decodes an `<account>`: `href` is its attribute, each link the `href` of a child
    /// element, and `nil="nil"` elements are absent values.
    init(from decoder: any Decoder) throws {
        let account = try decoder.container(keyedBy: CodingKeys.self)
        href = try account.decode(URL.self, forKey: .href)
        var links: [String: URL] = [:]
        for (key, name) in Self.linkKeys {
            links[name] = try account.decodeIfPresent(URL.self, forKey: key)
        }
        self.links = links
        code = try account.decode(String.self, forKey: .accountCode)
        state = try account.decode(State.self, forKey: .state)
        username = try account.decodeIfPresent(String.self, forKey: .username)
        email = try account.decode(String.self, forKey: .email)
        firstName = try account.decode(String.self, forKey: .firstName)
        lastName = try account.decode(String.self, forKey: .lastName)
        companyName = try account.decodeIfPresent(String.self, forKey: .companyName)
        address = try account.decodeIfPresent(Address.self, forKey: .address)
        createdAt = try account.decode(Date.self, forKey: .createdAt)
    }
}

/// The account document with Codable.
enum AccountDecoding {
    static let decoder: XMLRecordDecoder = {
        var decoder = XMLRecordDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase  // firstName reads <first_name>
        decoder.urlDecodingStrategy = .attribute("href")  // a URL-typed element is its href
        return decoder
    }()

    /// - Throws: `XMLDecodingError` whose description names the element, its line and
    ///   column and the offending text (an unknown state, a bad URL or date);
    ///   `XMLParseError` for a malformed document; `XMLInputError`.
    static func read(contentsOfFile path: String) throws -> Account {
        try decoder.decode(Account.self, from: .file(path))
    }
}
