/// Conversion to the model: the failures of one field (several for a repeated field), as
/// a ``FieldReader`` returns them; the ``RecordAssembler`` gathers a record's into one
/// ``XMLRecordError``, and optional and defaulted fields turn absences into their fallback.
struct FieldFailures: Error {
    var failures: [FieldFailure]

    init(_ failures: [FieldFailure]) {
        self.failures = failures
    }

    /// Whether every failure is an absence (missing or marked nil), which an optional or
    /// defaulted field turns into its fallback; a conversion failure is not.
    var areAbsences: Bool {
        failures.allSatisfy {
            switch $0.reason {
            case .missing, .markedNil: true
            default: false
            }
        }
    }

    /// Whether every failure is an absence or the conversion of empty text: what an
    /// optional or defaulted field turns into its fallback (the rule the EmptyValues article
    /// states).
    /// A type that reads empty text, such as `String`, never fails on it, so its empty
    /// value is kept.
    var areAbsencesOrEmptyText: Bool {
        failures.allSatisfy {
            switch $0.reason {
            case .missing, .markedNil: true
            case .conversion(let text, _, _): text.isEmpty
            default: false
            }
        }
    }
}
