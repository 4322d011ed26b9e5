// Reads a billing-API account document: href links, nil="nil" values and an enum state.
//
//     swift run RecurlyAccountExample [FILE]
import Foundation

let path = CommandLine.arguments.dropFirst().first
    ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Tests/ExamplesTests/Fixtures/account.xml").standardized.path

do {
    let account = try AccountReader.read(contentsOfFile: path)
    print("account \(account.code) <\(account.href)>")
    print("  state: \(account.state)")
    print("  name: \(account.firstName) \(account.lastName) <\(account.email)>")
    print("  username: \(account.username ?? "nil"), company: \(account.companyName ?? "nil")")
    print("  created: \(account.createdAt.formatted(.iso8601))")
    for (name, url) in account.links.sorted(by: { $0.key < $1.key }) {
        print("  link \(name): \(url)")
    }
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
