/// Which versions a conditional request accepts (from `If-Match` and `If-None-Match`).
public enum VersionPrecondition: Sendable, Equatable {
    /// `*`: any current version.
    case any
    /// One of these versions; an empty list matches nothing.
    case oneOf([Int])
    /// Any version but these.
    case except([Int])

    /// The versions this one accepts that `excluded` does not: `If-Match` and then
    /// `If-None-Match` as one precondition of a change (RFC 9110 §13.2.2).
    public func excluding(_ excluded: VersionPrecondition) -> VersionPrecondition {
        switch (self, excluded) {
        case (_, .any): .oneOf([])
        case (.any, .oneOf(let others)): .except(others)
        case (.oneOf(let versions), .oneOf(let others)): .oneOf(versions.filter { !others.contains($0) })
        case (.except(let versions), .oneOf(let others)): .except(versions + others)
        case (.any, .except(let others)): .oneOf(others)
        case (.oneOf(let versions), .except(let others)): .oneOf(versions.filter { others.contains($0) })
        case (.except(let versions), .except(let others)): .oneOf(others.filter { !versions.contains($0) })
        }
    }

    /// Throws `versionMismatch` naming `version` when the precondition does not accept it.
    public func check(_ version: Int) throws(EngineError) {
        guard accepts(version) else { throw .versionMismatch(current: version) }
    }

    /// Whether `version` satisfies the precondition.
    public func accepts(_ version: Int) -> Bool {
        switch self {
        case .any: true
        case .oneOf(let versions): versions.contains(version)
        case .except(let versions): !versions.contains(version)
        }
    }
}
