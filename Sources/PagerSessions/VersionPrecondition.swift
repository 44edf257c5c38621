/// Which versions a conditional request accepts (from `If-Match`).
public enum VersionPrecondition: Sendable, Equatable {
    /// `*`: any current version.
    case any
    /// One of these versions; an empty list matches nothing.
    case oneOf([Int])

    /// Whether `version` satisfies the precondition.
    public func accepts(_ version: Int) -> Bool {
        switch self {
        case .any: true
        case .oneOf(let versions): versions.contains(version)
        }
    }
}
