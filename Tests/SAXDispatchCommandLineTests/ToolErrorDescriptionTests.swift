import Foundation
import SAXDispatchTools
import Testing

/// The tools' argument errors read the same in `localizedDescription` as in `description`,
/// and say how the argument is written.
@Suite("Tool errors: descriptions and suggestions")
struct ToolErrorDescriptionTests {
    @Test("a --field argument that cannot be read")
    func extractField() throws {
        let error = try #require(throws: ExtractFieldError.self) { try ExtractField(parsing: "x=@") }
        #expect(error.localizedDescription == error.description)
        #expect(error.description == #"--field 'x=@': invalid field path "@": '@' must be followed by an attribute name"#)
        #expect(error.recoverySuggestion == "Write --field [NAME=]RELPATH[:TYPE], with RELPATH relative to the record element (see 'saxdispatch extract --help').")
    }

    @Test("a -N argument that cannot be read")
    func namespaceArgument() throws {
        let error = try #require(throws: NamespaceArgumentError.self) { try NamespaceArguments.bindings(["atom"]) }
        #expect(error.localizedDescription == error.description)
        #expect(error.description == "-N 'atom': not PREFIX=URI (for example -N atom=http://www.w3.org/2005/Atom)")
        #expect(error.recoverySuggestion == "Write -N PREFIX=URI.")
    }

    @Test("a --limit setting that cannot be read")
    func limitSetting() throws {
        guard case .failure(let error) = DocumentCheck.limit(from: "depth=deep") else {
            Issue.record("read 'depth=deep' as a limit")
            return
        }
        #expect(error.localizedDescription == error.description)
        #expect(error.description == "'deep' is not a count, a size such as 16M, or 'unlimited'")
        #expect(error.recoverySuggestion == "Write --limit NAME=VALUE, with a count, a size such as 16M, or unlimited (see 'saxdispatch check --help').")
    }
}
