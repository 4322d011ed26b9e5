// Reads a billing-API account document three ways — typed records (the default),
// Codable, or hand-written handlers — and prints it: href links, nil="nil" values, an
// enum state and a nested address.
//
//     swift run RecurlyAccountExample [--records | --codable | --handlers] [FILE]
//
// Without FILE it reads the fixture the tests use.
import Foundation

var arguments = CommandLine.arguments.dropFirst()
let reader = arguments.first?.hasPrefix("--") == true ? arguments.removeFirst() : "--records"
let path = arguments.first
    ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Tests/ExamplesTests/Fixtures/account.xml").standardized.path

do {
    let account: Account
    switch reader {
    case "--records": account = try AccountRecords.read(contentsOfFile: path)
    case "--codable": account = try AccountDecoding.read(contentsOfFile: path)
    case "--handlers": account = try AccountReader.read(contentsOfFile: path)
    default:
        FileHandle.standardError.write(Data("usage: RecurlyAccountExample [--records | --codable | --handlers] [FILE]\n".utf8))
        exit(2)
    }
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
