import ArgumentParser
import SAXDispatch

/// `--undeclared-entities`, on the commands that print the parse's warnings (`check`,
/// `extract`): skipping a reference is only offered where its warning is shown.
struct UndeclaredEntitiesOption: ParsableArguments {
    enum Choice: String, ExpressibleByArgument, CaseIterable {
        case error
        case skip
    }

    @Option(
        name: .customLong("undeclared-entities"),
        help: ArgumentHelp(
            "What a reference to an entity the document does not declare where it is read (only in an external DTD, "
                + "or after a parameter entity reference) does, in content and attribute values: error (the default) "
                + "or skip, which leaves it out and prints a warning on standard error.",
            valueName: "policy"))
    var choice: Choice = .error

    /// `profile` with the chosen policy.
    func applied(to profile: SafetyProfile) -> SafetyProfile {
        var profile = profile
        profile.undeclaredEntities = choice == .skip ? .skipWithWarning : .error
        return profile
    }
}
