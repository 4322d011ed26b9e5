import Foundation

/// Writes small temporary files for tests.
public enum FileManagerTemp {
    public static func write(_ contents: String, name: String) -> String {
        write(Data(contents.utf8), name: name)
    }

    public static func write(_ contents: Data, name: String) -> String {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("saxdispatch-tests-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try? contents.write(to: url)
        return url.path
    }
}
