import SAXDispatch

extension XMLInput {
    /// `input` decompressed when it is compressed (gzip, bzip2, xz or zstd, told by its
    /// first bytes, not by its name), and as it is otherwise; with its name and options
    /// (`XMLInput.readingThrough(_:)`).
    ///
    /// ```swift
    /// import SAXDispatch
    /// import SAXDispatchCompression
    ///
    /// try dispatcher.parse(.decompressing(.file("enwiki-pages.xml.bz2")))
    /// try dispatcher.parse(.decompressing(.standardInput))        // curl … | my-tool
    /// ```
    ///
    /// Every member, stream or frame of a concatenated file is read, as one document. The
    /// safety limits of the parse see the decompressed bytes, so a small file that expands
    /// to gigabytes (a compression bomb) ends in the same limit error as the large
    /// document would, after decompressing no more than the limit lets through; memory
    /// stays at a chunk and the decompressor's state.
    ///
    /// Compressed input is decompressed on a thread of its own, a few blocks ahead of the
    /// parser (about a mebibyte), so that decompressing and parsing take two cores; `input`
    /// is then read on that thread, and a reader of your own in it must share no unguarded
    /// state with the handlers. With `inBackground: false`, each read of the parse
    /// decompresses what it needs, on the parse's thread.
    ///
    /// In the background, the blocks of bzip2 input (the slowest format to decompress), and
    /// the frames of zstd input of many frames (as `pzstd` writes), are decompressed on
    /// several threads at once: `threads` of them, or by default one per
    /// processor but the parse's, up to eight, where there are four processors or more
    /// (one otherwise). Each thread holds a decompressor of up to 3.6 MB and a few blocks.
    /// A program that parses several inputs at once should give each a share of the
    /// processors, or 1:
    ///
    /// ```swift
    /// try dispatcher.parse(.decompressing(.file(path), threads: 1))   // one of many parsed at once
    /// ```
    ///
    /// A parse throws ``DecompressionError`` when the input is truncated or corrupt,
    /// after the events of everything decoded before, and what `input` throws
    /// (`XMLInputError` for a file) as it is.
    ///
    /// - Parameters:
    ///   - input: The input, compressed or not.
    ///   - inBackground: Whether decompression runs on threads of its own (the default).
    ///   - threads: How many threads decompress bzip2 blocks or zstd frames at once in the background;
    ///     `nil` for the default above. Values below 1 count as 1.
    public static func decompressing(_ input: XMLInput, inBackground: Bool = true, threads: Int? = nil) -> XMLInput {
        let name = input.name
        return input.readingThrough { base in
            let reader = DecompressingReader(base, name: name, inBackground: inBackground)
            reader.decodingThreads = threads.map { max(1, $0) }
            return reader
        }
    }
}
