import SAXDispatch

extension XMLOutput {
    /// This output with what is written to it compressed in `format` — gzip, bzip2, xz
    /// or zstd (libzstd is loaded when the writer is made) — in constant memory: the stream
    /// ends when the writer finishes.
    ///
    /// ```swift
    /// let writer = try XMLWriter(to: XMLOutput.file("pages.xml.gz").compressed(.gzip))
    /// ```
    ///
    /// Making the `XMLWriter` throws ``CompressionError`` when `level` is not
    /// one of the format's or its library cannot be set up; what reads it back:
    /// ``SAXDispatch/XMLInput/decompressing(_:inBackground:threads:)``, `gzip -d` and the like.
    ///
    /// - Parameters:
    ///   - format: One of ``CompressionFormat/all``.
    ///   - level: The format's compression level: gzip 1–9 (default 6), bzip2 1–9 (the
    ///     block size in 100 kB, default 9), xz 0–9 (default 6), zstd 1–19 (default 3).
    public func compressed(_ format: CompressionFormat, level: Int? = nil) -> XMLOutput {
        let name = self.name
        return writingThrough { base in
            guard let levels = format.levels else {
                throw CompressionError(name: name, format: format, message: "\(format) output is not written by this package")
            }
            let level = level ?? levels.default
            guard levels.range.contains(level) else {
                throw CompressionError(
                    name: name, format: format,
                    message: "\(format) has no level \(level): \(levels.range.lowerBound) to \(levels.range.upperBound)")
            }
            return try CompressingWriter(base: base, format: format, level: level, name: name)
        }
    }
}
