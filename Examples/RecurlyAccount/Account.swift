import Foundation
import SAXDispatch

/// An account as a billing API returns it: links as `href` attributes, `nil="nil"`
/// for absent values, an enumerated state and a nested address.
struct Account: Equatable, Sendable {
    /// The account's `<state>`; any other text is a conversion failure naming the field.
    /// (`CaseIterable` lets the Codable decoder's key probe answer with a valid state.)
    enum State: String, Sendable, CaseIterable, Decodable {
        case active
        case closed
        case pastDue = "past_due"
    }

    /// The account's `<address>`; its own `<state>` is a region, not an `Account.State`.
    struct Address: Equatable, Sendable, Decodable {
        let address1: String
        let address2: String?
        let city: String
        let region: String
        let zip: String
        let country: String
        let phone: String?

        private enum CodingKeys: String, CodingKey {
            case address1, address2, city, zip, country, phone
            case region = "state"
        }
    }

    let href: URL
    /// Child resources by element name (`adjustments`, `invoices`, …).
    let links: [String: URL]
    let code: String
    let state: State
    let username: String?
    let email: String
    let firstName: String
    let lastName: String
    let companyName: String?
    let address: Address?
    let createdAt: Date
}

/// A raw-value enum converts through its raw value: `"past_due"` becomes `.pastDue`.
extension Account.State: XMLTextConvertible {}

/// The account document as typed records: the `Address` record nested at `address`,
/// links read from `href` attributes, `nil="nil"` elements as `nil` in optional fields.
enum AccountRecords {
    static let address = XMLRecord(
        "address",
        .text("address1"),
        .value("address2", as: String?.self),
        .text("city"),
        .text("state"),
        .text("zip"),
        .text("country"),
        .value("phone", as: String?.self)
    ) { Account.Address(address1: $0, address2: $1, city: $2, region: $3, zip: $4, country: $5, phone: $6) }

    static let account = XMLRecord(
        "/account",
        .value("@href", as: URL.self),
        .value("adjustments/@href", as: URL?.self),
        .value("billing_info/@href", as: URL?.self),
        .value("invoices/@href", as: URL?.self),
        .value("subscriptions/@href", as: URL?.self),
        .value("transactions/@href", as: URL?.self),
        .text("account_code"),
        .value("state", as: Account.State.self),  // the account's, not address/state
        .value("username", as: String?.self),
        .text("email"),
        .text("first_name"),
        .text("last_name"),
        .value("company_name", as: String?.self),
        .optional(.record("address", address)),
        .date("created_at")
    ) { href, adjustments, billingInfo, invoices, subscriptions, transactions, code, state, username, email,
        firstName, lastName, companyName, address, createdAt in
        let links = [
            "adjustments": adjustments, "billing_info": billingInfo, "invoices": invoices,
            "subscriptions": subscriptions, "transactions": transactions,
        ].compactMapValues { $0 }
        return Account(
            href: href, links: links, code: code, state: state, username: username, email: email,
            firstName: firstName, lastName: lastName, companyName: companyName, address: address,
            createdAt: createdAt)
    }

    /// - Throws: `XMLRecordError` naming every field that is missing, nil but required, or
    ///   does not convert (an unknown state, a bad URL or date), with its line and
    ///   column, or of kind `.notFound` without an `<account>` root; `XMLParseError`
    ///   for a malformed document; `XMLInputError`.
    static func read(contentsOfFile path: String) throws -> Account {
        try account.first(in: .file(path))
    }
}
