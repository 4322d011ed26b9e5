/// A per-record value: one occurrence of a repeated field in its ``CapturedField/items(_:)``
/// — its text (or attribute value) once its element ended, or `nil` while it is open or
/// when it was marked nil.
struct CapturedItem {
    var text: String?
    var isNil: Bool
    var occurrence: CapturePosition
    /// The element's depth while its text is awaited; 0 once complete.
    var openDepth: Int
}
