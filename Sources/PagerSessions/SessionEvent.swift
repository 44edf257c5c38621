import Locking
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
    /// The auto-advance timer changed (or halted) with nothing else changing (docs/api.md, «Auto-advance»).
    case autoAdvanceChanged
    /// The session was deleted; nothing follows. (A session with subscribers is never evicted.)
    case deleted
    /// The whole current state, as the first event of a stream carries it: sent later when a
    /// shared store's session moved on in ways this process could not follow one by one.
    case state

    /// The kind of the event for `command`, which changed state as `outcome` reports, from index
    /// `before`: a change that also asks for the trailing action is published as that request
    /// (docs/api.md, «Overscroll and the trailing action»), one that changed only the timer or
    /// the auto-advance setting as `autoAdvanceChanged` («Auto-advance»).
    static func of(_ command: PagerCommand, _ outcome: PagerOutcome, movedFrom before: Int?) -> SessionEventKind {
        if outcome.actionRequested != nil { return .actionRequested }
        if outcome.onlyTimerChanged { return .autoAdvanceChanged }
        let moved = before != outcome.pager.index
        switch command {
        case .next, .previous, .select, .endTransition, .release: return moved ? .pageChanged : .transition
        case .scroll, .beginTransition: return .transition
        case .insert, .insertFromCatalog, .remove, .update, .replacePages: return .pagesChanged
        case .push, .pop: return .stackChanged
        case .updateSettings: return .settingsChanged
        case .autoAdvance: return .autoAdvanceChanged
        case .tick where outcome.timedOut: return .transition
        case .tick: return moved ? .pageChanged : .autoAdvanceChanged
        }
    }
}

/// What made a change (docs/api.md, «Auto-advance»): every event after the first `state` event says.
public enum EventCause: String, Sendable {
    /// A client's request.
    case request
    /// The session's automatic advance.
    case autoAdvance
    /// Eviction after idling (a `deleted` event).
    case idle
    /// A swipe nobody touched for `dragTimeout` given up, or an interaction pause ended as long
    /// past.
    case timeout
}

/// One change of a session, as the change feed delivers it. Every subscriber of the session
/// receives the same event, and with it the same ``encoding`` slot.
public struct SessionEvent: Sendable {
    /// The kind of change.
    public var kind: SessionEventKind
    /// The session's state after the change (for `deleted`, the last state).
    public var snapshot: SessionSnapshot
    /// What made the change.
    public var cause: EventCause
    /// For a tick, what a request would have reported (`moved`, `direction`, `edge`,
    /// `keyframes`); nil for other events.
    public var move: MoveReport?
    /// For a release by velocity, how it was decided; nil for other events.
    public var settle: Settle?
    /// Where the first subscriber that writes the event keeps its wire form for the others.
    public let encoding = EncodedOnce()

    /// Creates an event.
    public init(
        kind: SessionEventKind, snapshot: SessionSnapshot, cause: EventCause = .request, move: MoveReport? = nil,
        settle: Settle? = nil
    ) {
        self.kind = kind
        self.snapshot = snapshot
        self.cause = cause
        self.move = move
        self.settle = settle
    }
}

/// A value computed once, by the first caller, and shared by every later one: an event's wire
/// form, so that a change is encoded once however many subscribers write it.
///
/// The slot keeps the value until the engine has two newer events for the session (``lend()``);
/// from then on it only lends it: the value is shared while somebody else still holds it (the
/// streams still sending it) and made again after. So the events waiting in a slow subscriber's
/// queue hold no encodings of their own. A slot made lending lends from the start.
public final class EncodedOnce: Sendable {
    private struct Slot {
        var kept: (any AnyObject & Sendable)?
        weak var lent: (any AnyObject & Sendable)?
        var lends = false
        /// A caller is making the value; the others wait for it.
        var making = false
    }
    private let slot: Locked<Slot>

    /// Creates an empty slot, which keeps its value until ``lend()`` unless `lending`.
    public init(lending: Bool = false) {
        slot = Locked(Slot(lends: lending))
    }

    /// The value, made by `encode` on the first call, or after it was lent and let go; later
    /// calls share it. A caller that comes while another makes it waits for that one (on the
    /// slot's condition) rather than encoding again; the lock itself is never held while
    /// encoding, so ``lend()`` never waits for one. Every call must ask for the same type.
    public func value<Value: AnyObject & Sendable>(_ encode: () -> Value) -> Value {
        let found = slot.wait(until: { !$0.making }) { slot -> Value? in
            if let value = (slot.kept ?? slot.lent) as? Value { return value }
            slot.making = true
            return nil
        }
        if let found { return found }
        let made = encode()
        slot.withLock { slot in
            if slot.lends { slot.lent = made } else { slot.kept = made }
            slot.making = false
        }
        slot.notifyAll()
        return made
    }

    /// Stops keeping the value: from now on it is only shared while somebody else holds it.
    public func lend() {
        slot.withLock { slot in
            slot.lends = true
            if let kept = slot.kept { slot.lent = kept }
            slot.kept = nil
        }
    }
}

/// A session's id and its pager at one version.
public struct SessionSnapshot: Sendable, Equatable {
    /// The session id.
    public var id: SessionID
    /// The pager.
    public var pager: Pager

    /// The version.
    public var version: Int { pager.version }

    /// Creates a snapshot.
    public init(id: SessionID, pager: Pager) {
        self.id = id
        self.pager = pager
    }
}

/// What applying a command produced.
public struct CommandResult: Sendable {
    /// The session.
    public var id: SessionID
    /// What the pager reported about the command, with the state after it.
    public var outcome: PagerOutcome
    /// The state after the command (the outcome's pager: a result holds the pager once).
    public var snapshot: SessionSnapshot { SessionSnapshot(id: id, pager: outcome.pager) }
    /// With a store, the commit to wait for before answering; nil when the command changed
    /// nothing or sessions are kept in memory only.
    public var commit: Commit?
    /// The session's tab forms when the command applied, for writing the state document.
    public var tabForms: TabForms?
}

extension PagerCommand {
    /// Whether the command changes only the position: the index, the transition, the overscroll
    /// and the timer (and so the version). The auto-advance setting's `enabled`, which a tick,
    /// a swipe or a control action may turn off, is checked by the engine.
    var changesPositionOnly: Bool {
        switch self {
        case .next, .previous, .select, .scroll, .beginTransition, .endTransition, .release, .autoAdvance, .tick: true
        case .insert, .insertFromCatalog, .remove, .update, .replacePages, .push, .pop, .updateSettings: false
        }
    }
}
