/// Compiled once per model: a record's ``FieldPlan``s shared by reference, made by its
/// ``BuildArgumentLayout``, so that the ``FieldReadContext`` made for every record refers
/// to them without copying any path.
final class FieldPlanList: Sendable {
    let plans: [FieldPlan]

    init(_ plans: [FieldPlan]) {
        self.plans = plans
    }
}
