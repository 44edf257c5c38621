public import PagerModel

/// What kind of change an event reports.
public enum SessionEventKind: String, Sendable, CaseIterable {
    /// The current page changed.
    case pageChanged
    /// A swipe began, moved, retargeted or ended without moving.
    case transition
    /// Pages were inserted, removed, moved, updated or replaced.
    case pagesChanged
    /// A page's navigation stack changed.
    case stackChanged
    /// Viewport, mode, tab bar, preload or actions changed.
    case settingsChanged
    /// A client met the end of a bounded pager that offers a trailing action.
    case actionRequested
    /// The session was deleted; nothing follows. (A session with subscribers is never evicted.)
    case deleted

    /// The kind for a command that changed state (or, for `actionRequested`, asked for the action).
    static func of(_ command: PagerCommand, before: Pager, after: Pager) -> SessionEventKind {
        switch command {
        case .next, .previous, .select, .endTransition:
            return before.index != after.index ? .pageChanged : .transition
        case .scroll, .beginTransition: return .transition
        case .insert, .insertFromCatalog, .remove, .update, .replacePages: return .pagesChanged
        case .push, .pop: return .stackChanged
        case .updateSettings: return .settingsChanged
        }
    }
}

/// One change of a session, as the change feed delivers it.
public struct SessionEvent: Sendable {
    /// The kind of change.
    public var kind: SessionEventKind
    /// The session's state after the change (for `deleted`, the last state).
    public var snapshot: SessionSnapshot
}

/// A session's id and its pager at one version.
public struct SessionSnapshot: Sendable, Equatable {
    /// The session id.
    public var id: String
    /// The pager.
    public var pager: Pager

    /// The version.
    public var version: Int { pager.version }

    /// Creates a snapshot.
    public init(id: String, pager: Pager) {
        self.id = id
        self.pager = pager
    }
}

/// What applying a command produced.
public struct CommandResult: Sendable {
    /// The state after the command.
    public var snapshot: SessionSnapshot
    /// What the pager reported about the command.
    public var outcome: PagerOutcome
}
