/// An error whose description already says where in the document it happened
/// (`SOURCE:LINE:COLUMN: …`): a record that could not be built, a decoded value.
///
/// A ``HandlerError`` that wraps one describes itself with the wrapped description alone,
/// so that the location is stated once, at the element the failure is about.
protocol LocatedError: Error, CustomStringConvertible {}

extension XMLRecordError: LocatedError {}
extension XMLDecodingError: LocatedError {}
