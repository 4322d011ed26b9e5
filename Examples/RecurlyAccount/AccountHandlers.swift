import Foundation
import SAXDispatch

/// Why an account document could not become an `Account`, with the position of the
/// element at fault.
struct AccountError: Error, CustomStringConvertible, Equatable {
    var file: String
    var line: Int
    var column: Int
    var message: String

    var description: String { "\(file):\(line):\(column): error: \(message)" }
}

/// Reads an account with element handlers: attributes at the start tag, text at the end.
/// The same account read by hand, kept to compare with `AccountRecords`: nil markers,
/// positions, required fields and conversions are all spelled out here.
enum AccountReader {
    /// - Throws: `AccountError` for a missing field or a value that does not convert,
    ///   `XMLParseError` for a malformed document, `XMLInputError`.
    static func read(contentsOfFile path: String) throws -> Account {
        var href: URL?
        var links: [String: URL] = [:]
        var fields: [String: String?] = [:]
        var positions: [String: (line: Int, column: Int)] = [:]
        var isNil = false
        var hasAddress = false
        var addressFields: [String: String?] = [:]
        var addressNil = false

        var dispatcher = Dispatcher()
        dispatcher.onStart("account") { element in
            href = element.attributes["href"].flatMap(URL.init(string:))
        }
        // Direct children of <account>: links carry an href, values carry text or nil="nil".
        dispatcher.onAnyStart { element in
            guard element.depth == 2 else { return }
            isNil = element.attributes["nil"] == "nil"
            positions[element.name] = (element.line, element.column)
            if let link = element.attributes["href"], let url = URL(string: link) {
                links[element.name] = url
            }
        }
        dispatcher.onAnyEnd { element, text in
            guard element.depth == 2, links[element.name] == nil else { return }
            fields[element.name] = isNil ? .some(nil) : .some(text)
        }
        // The address's children, <state> among them, are one level further down.
        dispatcher.onStart("/account/address") { _ in hasAddress = true }
        dispatcher.onStart("/account/address/*") { element in addressNil = element.attributes["nil"] == "nil" }
        dispatcher.onEnd("/account/address/*") { element, text in
            addressFields[element.name] = addressNil ? .some(nil) : .some(text)
        }
        try dispatcher.parse(.file(path))

        func failure(_ field: String, _ message: String) -> AccountError {
            let position = positions[field] ?? (1, 1)
            return AccountError(file: path, line: position.line, column: position.column, message: message)
        }
        func required(_ field: String, in values: [String: String?] = fields) throws -> String {
            guard let value = values[field], let text = value else {
                throw failure(field, "account is missing required \(field)")
            }
            return text
        }
        func optional(_ field: String, in values: [String: String?] = fields) -> String? {
            values[field] ?? nil
        }

        guard let href else { throw AccountError(file: path, line: 1, column: 1, message: "account has no href") }
        let stateText = try required("state")
        guard let state = Account.State(rawValue: stateText) else {
            throw failure("state", "cannot convert \(stateText.debugDescription) to Account.State at account/state")
        }
        let createdText = try required("created_at")
        guard let createdAt = try? Date(createdText, strategy: .iso8601) else {
            throw failure("created_at", "cannot convert \(createdText.debugDescription) to Date at account/created_at")
        }
        var address: Account.Address?
        if hasAddress {
            address = Account.Address(
                address1: try required("address1", in: addressFields), address2: optional("address2", in: addressFields),
                city: try required("city", in: addressFields), region: try required("state", in: addressFields),
                zip: try required("zip", in: addressFields), country: try required("country", in: addressFields),
                phone: optional("phone", in: addressFields))
        }
        return Account(
            href: href, links: links, code: try required("account_code"), state: state,
            username: optional("username"), email: try required("email"), firstName: try required("first_name"),
            lastName: try required("last_name"), companyName: optional("company_name"), address: address,
            createdAt: createdAt)
    }
}
