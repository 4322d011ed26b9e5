import Foundation
import SAXDispatch

/// An account as a billing API returns it: links as `href` attributes, `nil="nil"`
/// for absent values, an enumerated state.
struct Account: Equatable, Sendable {
    enum State: String, Sendable {
        case active
        case closed
        case pastDue = "past_due"
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
    let createdAt: Date
}

struct AccountError: Error, CustomStringConvertible, Equatable {
    var file: String
    var line: Int
    var column: Int
    var message: String

    var description: String { "\(file):\(line):\(column): error: \(message)" }
}

/// Reads an account with element handlers: attributes at the start tag, text at the end.
enum AccountReader {
    static func read(contentsOfFile path: String) throws -> Account {
        var href: URL?
        var links: [String: URL] = [:]
        var fields: [String: String?] = [:]
        var positions: [String: (line: Int, column: Int)] = [:]
        var isNil = false

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
        try dispatcher.parse(contentsOfFile: path)

        func failure(_ field: String, _ message: String) -> AccountError {
            let position = positions[field] ?? (1, 1)
            return AccountError(file: path, line: position.line, column: position.column, message: message)
        }
        func required(_ field: String) throws -> String {
            guard let value = fields[field], let text = value else {
                throw failure(field, "account is missing required \(field)")
            }
            return text
        }
        func optional(_ field: String) -> String? {
            fields[field] ?? nil
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
        return Account(
            href: href, links: links, code: try required("account_code"), state: state,
            username: optional("username"), email: try required("email"), firstName: try required("first_name"),
            lastName: try required("last_name"), companyName: optional("company_name"), createdAt: createdAt)
    }
}
