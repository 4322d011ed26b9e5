import Foundation
import SAXDispatch
import SAXDispatchTestSupport

/// The hostile and malformed documents of `../shared/adversarial/gen.py`, generated
/// once per test run into a temporary folder, with the manifest that says how each
/// must end.
struct AdversarialCorpus: Sendable {
    struct Case: Sendable, CustomStringConvertible {
        var file: String
        /// `ok`, or the error kinds accepted (`error:a|b` gives `["a", "b"]`).
        var expectedDefault: Expectation
        var expectedStrict: Expectation
        var mustHold: String
        var feed: String
        var url: URL
        var description: String { file }

        /// The feeding the manifest asks for, as piece sizes (nil: whole).
        var pieceSize: Int? {
            switch feed {
            case "bytewise": 1
            case "chunked": 4096
            default: nil
            }
        }
    }

    enum Expectation: Sendable, Equatable, CustomStringConvertible {
        case ok
        case error([String])

        init(_ text: String) {
            if text == "ok" {
                self = .ok
            } else {
                self = .error(text.dropFirst("error:".count).split(separator: "|").map(String.init))
            }
        }

        var description: String {
            switch self {
            case .ok: "ok"
            case .error(let kinds): "error:" + kinds.joined(separator: "|")
            }
        }
    }

    let directory: URL
    let cases: [Case]

    /// The manifest's error kinds and the code each maps to.
    static let codes: [String: XMLParseError.Code] = [
        "amplification": .amplificationLimitBreach,
        "internal-subset-forbidden": .internalSubsetForbidden,
        "recursive-entity": .recursiveEntityReference,
        "entity-limit": .entityLimitExceeded,
        "async-entity": .asynchronousEntity,
        "external-entity-forbidden": .externalEntityForbidden,
        "external-entity-in-attribute": .attributeExternalEntityReference,
        "undefined-entity": .undefinedEntity,
        "attribute-limit": .attributeLimitExceeded,
        "depth-limit": .depthLimitExceeded,
        "token-limit": .tokenLimitExceeded,
        "memory-limit": .memoryLimitExceeded,
        "duplicate-attribute": .duplicateAttribute,
        "name-limit": .nameLimitExceeded,
        "text-limit": .textLimitExceeded,
        "incorrect-encoding": .incorrectEncoding,
        "invalid-token": .invalidToken,
        "unknown-encoding": .unknownEncoding,
        "truncated": .truncated,
        "bad-char-ref": .badCharacterReference,
        "no-root": .noElements,
        "junk-after-root": .junkAfterDocumentElement,
        "tag-mismatch": .tagMismatch,
        "misplaced-xml-decl": .misplacedXMLDeclaration,
        "unbound-prefix": .unboundPrefix,
        "reserved-prefix": .reservedPrefixXMLNS,
    ]

    /// Generated once per test process; nil when the generator is missing or fails.
    static let shared: AdversarialCorpus? = {
        guard let generator = TestPaths.adversarialGenerator else { return nil }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("saxdispatch-adversarial-\(ProcessInfo.processInfo.processIdentifier)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", generator.path, "--out", directory.path]
        process.standardOutput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return try? AdversarialCorpus(directory: directory)
    }()

    init(directory: URL) throws {
        self.directory = directory
        let manifest = try String(contentsOf: directory.appendingPathComponent("manifest.tsv"), encoding: .utf8)
        var rows = manifest.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        let header = rows.removeFirst().map(String.init)
        func column(_ name: String) -> Int { header.firstIndex(of: name) ?? 0 }
        let file = column("file"), expectedDefault = column("default"), strict = column("strict")
        let mustHold = column("must_hold"), feed = column("feed")
        cases = rows.compactMap { row -> Case? in
            let name = String(row[file])
            let url = directory.appendingPathComponent(name)
            // The --big cases are listed but only written on demand.
            guard FileManager.default.fileExists(atPath: url.path) else { return nil }
            let amended = Self.amendments[name]
            return Case(
                file: name, expectedDefault: Expectation(amended ?? String(row[expectedDefault])),
                expectedStrict: Expectation(amended ?? String(row[strict])), mustHold: String(row[mustHold]),
                feed: String(row[feed]), url: url)
        }
    }

    /// Cases whose expected end the package changed on purpose ahead of the shared
    /// generator: Shift_JIS is read since the multi-byte encodings are (issue 35).
    static let amendments: [String: String] = ["shift_jis.xml": "ok"]

    func `case`(_ file: String) -> Case? {
        cases.first { $0.file == file }
    }
}
