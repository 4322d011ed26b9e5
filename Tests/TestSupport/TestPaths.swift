import Foundation
import Testing

/// Where tests find their fixtures and the shared corpus.
public enum TestPaths {
    /// The package root, found from this file's location.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Where SwiftPM put the built executables: beside this target's resource bundle.
    public static let productsDirectory: URL = Bundle.module.bundleURL.deletingLastPathComponent()

    public static let fixtures: URL = packageRoot.appendingPathComponent("Tests/SAXDispatchTests/Fixtures")

    public static func fixture(_ name: String) -> URL {
        fixtures.appendingPathComponent(name)
    }

    public static func fixtureBytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: fixture(name)))
    }

    /// `../shared/corpus/xmlconf` beside the project, or nil when it is absent.
    public static let conformanceSuite: URL? = {
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/xmlconf")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    /// `../shared/adversarial/gen.py` beside the project, or nil when it is absent.
    public static let adversarialGenerator: URL? = {
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/adversarial/gen.py")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    public static let adversarialGeneratorMissing: Comment =
        "skipped: the adversarial corpus generator is not at ../shared/adversarial/gen.py beside the package"

    public static let conformanceSuiteMissing: Comment =
        "skipped: the W3C XML conformance suite is not at ../shared/corpus/xmlconf beside the package"
}
