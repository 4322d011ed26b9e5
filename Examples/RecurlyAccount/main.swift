// Reads a billing-API account document with typed records: href links, nil="nil"
// values, an enum state and a nested address.
//
//     swift run RecurlyAccountExample [FILE]
//
// Without FILE it reads the fixture the tests use.
import Foundation

let path = CommandLine.arguments.dropFirst().first
    ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Tests/ExamplesTests/Fixtures/account.xml").standardized.path

do {
    let account = try AccountRecords.read(contentsOfFile: path)
    print("account \(account.code) <\(account.href)>")
    print("  state: \(account.state)")
    print("  name: \(account.firstName) \(account.lastName) <\(account.email)>")
    print("  username: \(account.username ?? "nil"), company: \(account.companyName ?? "nil")")
    if let address = account.address {
        let street = [address.address1, address.address2].compactMap { $0 }.joined(separator: ", ")
        print("  address: \(street), \(address.zip) \(address.city), \(address.region), \(address.country)")
    }
    print("  created: \(account.createdAt.formatted(.iso8601))")
    for (name, url) in account.links.sorted(by: { $0.key < $1.key }) {
        print("  link \(name): \(url)")
    }
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
