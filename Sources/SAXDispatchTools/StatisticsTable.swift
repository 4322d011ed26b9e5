/// The table `saxdispatch stats` prints for many files: one row per file, in the order
/// the files were given, then a total row, as `wc` does.
///
/// ```
///       ELEMENTS   NAMES  DEPTH    ATTRIBUTES        TEXT BYTES        BYTES READ  FILE
///      1,310,099      17      6             0        52,303,128       104,857,600  zoo-1.xml.gz
///      2,620,198      17      6             0       104,606,256       209,715,200  total (2 files)
/// ```
public enum StatisticsTable {
    /// The column headings.
    public static let header = cells(["ELEMENTS", "NAMES", "DEPTH", "ATTRIBUTES", "TEXT BYTES", "BYTES READ"], "FILE")

    /// The row of one file's statistics.
    public static func row(_ statistics: DocumentStatistics, file: String) -> String {
        cells(
            [
                statistics.elements, statistics.distinctNames, statistics.maximumDepth, statistics.attributes,
                statistics.textBytes, statistics.bytesRead,
            ].map(ProgressMeter.grouped), file)
    }

    /// The statistics of many files together: counts added up, the deepest depth, and the
    /// names of all of them counted once.
    public static func total(_ all: [DocumentStatistics]) -> DocumentStatistics {
        var total = DocumentStatistics()
        for statistics in all { add(statistics, to: &total) }
        return total
    }

    /// Adds one file's statistics to a running total.
    public static func add(_ statistics: DocumentStatistics, to total: inout DocumentStatistics) {
        total.elements += statistics.elements
        total.maximumDepth = max(total.maximumDepth, statistics.maximumDepth)
        total.attributes += statistics.attributes
        total.textBytes += statistics.textBytes
        total.bytesRead += statistics.bytesRead
        total.names.formUnion(statistics.names)
        total.distinctNames = total.names.count
    }

    private static let widths = [14, 7, 6, 13, 17, 17]

    private static func cells(_ values: [String], _ last: String) -> String {
        zip(values, widths).map { value, width in String(repeating: " ", count: max(0, width - value.count)) + value }
            .joined(separator: " ") + "  " + last + "\n"
    }
}
