import SAXDispatch
import Testing

/// Records of one to eight fields: two to six fields take the fixed-arity initializers,
/// one, seven and eight the parameter-pack one. Each must hand the build closure every
/// value, typed and in field order, and report failing fields alike.
@Suite("Typed records of every arity")
struct RecordArityTests {
    /// Fields `@a1`…`@a8`: Int, String, Double, Bool, then again.
    static let document = """
        <list>
        <r a1="1" a2="two" a3="3.5" a4="true" a5="5" a6="six" a7="7.25" a8="false"/>
        <r a1="x" a2="two" a3="3.5" a4="true" a5="5" a6="six" a7="7.25" a8="maybe"/>
        </list>
        """

    static let expected = ["1", "two", "3.5", "true", "5", "six", "7.25", "false"]

    /// Builds the records of `record` from the document: the first element's values, and
    /// the error of the second, whose first and last fields do not convert.
    func read(_ record: XMLRecord<[String]>, fields: Int) throws {
        var diagnostics: [XMLRecordError] = []
        var models: [[String]] = []
        try record.onFailure(.skip).forEach(in: .string(Self.document), diagnostics: { diagnostics.append($0) }) {
            models.append($0)
        }
        #expect(models == [Array(Self.expected.prefix(fields))], "\(fields) fields")
        let failures = diagnostics.first?.failures ?? []
        let failingPaths = failures.map(\.fieldPath)
        // Field 1 fails (`x` is no Int), and with eight fields the last too (`maybe` is no Bool).
        var expectedPaths = ["@a1"]
        if fields == 8 { expectedPaths.append("@a8") }
        #expect(diagnostics.count == 1, "\(fields) fields")
        #expect(failingPaths == expectedPaths, "\(fields) fields")
        #expect(diagnostics.first?.line == 3)
    }

    @Test("one field: the pack form")
    func one() throws {
        try read(XMLRecord("r", .value("@a1", as: Int.self)) { ["\($0)"] }, fields: 1)
    }

    @Test("two to six fields: the fixed-arity forms")
    func twoToSix() throws {
        try read(XMLRecord("r", .value("@a1", as: Int.self), .text("@a2")) { ["\($0)", $1] }, fields: 2)
        try read(
            XMLRecord("r", .value("@a1", as: Int.self), .text("@a2"), .value("@a3", as: Double.self)) {
                ["\($0)", $1, "\($2)"]
            }, fields: 3)
        try read(
            XMLRecord(
                "r", .value("@a1", as: Int.self), .text("@a2"), .value("@a3", as: Double.self),
                .value("@a4", as: Bool.self)
            ) { ["\($0)", $1, "\($2)", "\($3)"] }, fields: 4)
        try read(
            XMLRecord(
                "r", .value("@a1", as: Int.self), .text("@a2"), .value("@a3", as: Double.self),
                .value("@a4", as: Bool.self), .value("@a5", as: Int.self)
            ) { ["\($0)", $1, "\($2)", "\($3)", "\($4)"] }, fields: 5)
        try read(
            XMLRecord(
                "r", .value("@a1", as: Int.self), .text("@a2"), .value("@a3", as: Double.self),
                .value("@a4", as: Bool.self), .value("@a5", as: Int.self), .text("@a6")
            ) { ["\($0)", $1, "\($2)", "\($3)", "\($4)", $5] }, fields: 6)
    }

    @Test("seven and eight fields: the pack form")
    func sevenAndEight() throws {
        try read(
            XMLRecord(
                "r", .value("@a1", as: Int.self), .text("@a2"), .value("@a3", as: Double.self),
                .value("@a4", as: Bool.self), .value("@a5", as: Int.self), .text("@a6"),
                .value("@a7", as: Double.self)
            ) { ["\($0)", $1, "\($2)", "\($3)", "\($4)", $5, "\($6)"] }, fields: 7)
        try read(
            XMLRecord(
                "r", .value("@a1", as: Int.self), .text("@a2"), .value("@a3", as: Double.self),
                .value("@a4", as: Bool.self), .value("@a5", as: Int.self), .text("@a6"),
                .value("@a7", as: Double.self), .value("@a8", as: Bool.self)
            ) { ["\($0)", $1, "\($2)", "\($3)", "\($4)", $5, "\($6)", "\($7)"] }, fields: 8)
    }
}
