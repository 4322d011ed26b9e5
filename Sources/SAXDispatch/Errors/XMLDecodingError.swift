/// A matched element that could not be decoded as the type asked for, with where and why.
///
/// ``XMLRecordDecoder`` throws it (and a dispatcher's ``Dispatcher/onDecoded(_:at:using:_:)``
/// wraps it in a ``HandlerError``) where other decoders throw a bare `DecodingError`: the
/// standard error stays available, unchanged, as ``underlying``, with its coding path and
/// context, and this one adds the position and element path that a `DecodingError` has no
/// place for. Its description reads like a compiler diagnostic, and so does its
/// `localizedDescription`:
///
/// ```text
/// zoo.xml:3:5: error: cannot convert "4x2" to Int at zoo/facilities/toilet (decoding Zoo): expected an integer
/// ```
///
/// ```swift
/// do {
///     let zoo = try XMLRecordDecoder().decode(Zoo.self, from: .file("zoo.xml"))
/// } catch let error as XMLDecodingError {
///     print(error.line, error.column, error.elementPath)   // 3 5 zoo/facilities/toilet
///     if case .dataCorrupted(let context) = error.underlying {
///         print(context.codingPath.map(\.stringValue))     // ["facilities", "toilet"]
///     }
/// }
/// ```
///
/// Errors that a type's own `init(from:)` throws that are not `DecodingError`s reach you
/// as they were thrown.
public struct XMLDecodingError: Error, CustomStringConvertible, Sendable {
    /// The standard error: `keyNotFound`, `valueNotFound`, `typeMismatch` or `dataCorrupted`,
    /// with the coding path of the keys that led to the value and, for a conversion, the
    /// conversion's own error as the context's underlying error.
    public var underlying: DecodingError
    /// What went wrong, without the position: `cannot convert "4x2" to Int at
    /// zoo/facilities/toilet (decoding Zoo): expected an integer`.
    public var message: String
    /// 1-based line of the start tag of the element the failure is about.
    public var line: Int
    /// 1-based column of that start tag, counted in characters.
    public var column: Int
    /// The path from the root to the value, names as the document wrote them; an item of
    /// a list carries its number from 1 (`animals[2]`).
    public var elementPath: ElementPath
    /// Where the input came from (a file path), when known.
    public var source: String?

    /// Creates an error value; the decoder makes these, tests and wrappers may too.
    public init(
        underlying: DecodingError, message: String, line: Int, column: Int, elementPath: ElementPath,
        source: String? = nil
    ) {
        self.underlying = underlying
        self.message = message
        self.line = line
        self.column = column
        self.elementPath = elementPath
        self.source = source
    }

    /// The keys that led to the value, as the ``underlying`` error's context has them.
    public var codingPath: [any CodingKey] {
        switch underlying {
        case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context),
            .keyNotFound(_, let context):
            context.codingPath
        @unknown default: []
        }
    }

    /// `SOURCE:LINE:COLUMN: error: MESSAGE`, with `<input>` when the source is unknown.
    public var description: String {
        "\(source ?? "<input>"):\(line):\(column): error: \(message)"
    }
}
