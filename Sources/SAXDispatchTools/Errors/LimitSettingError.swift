/// A `--limit` setting that could not be read.
public struct LimitSettingError: Error, CustomStringConvertible {
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
