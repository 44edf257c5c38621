/// What ``PagerEngine/read(_:unlessVersionIn:)`` found for a reader of a session's state.
public enum SessionRead: Sendable {
    /// The reader has this version already.
    case unchanged(version: Int)
    /// The state at `version`, as readers get it, kept from an earlier read.
    case written(version: Int, bytes: [UInt8])
    /// The state, not written yet, with the session's tab forms: the reader writes it, and may
    /// hand the bytes back with ``PagerEngine/keep(_:asReadOf:version:forms:)`` for the reads after
    /// it.
    case state(SessionSnapshot, tabForms: TabForms?)

    /// The version read.
    public var version: Int {
        switch self {
        case .unchanged(let version), .written(let version, _): version
        case .state(let snapshot, _): snapshot.version
        }
    }
}
