/// One step of an animated jump.
public struct Keyframe: Sendable, Equatable {
    /// The page reached at this step.
    public var index: Int
    /// The page offset at rest on it.
    public var pageOffset: Double
    /// The indicator at rest on it; nil without a tab bar.
    public var indicator: Indicator?
    /// The tab bar's offset at rest on it.
    public var tabBarOffset: Double
    /// Whether the client reaches it without animation (the first keyframe of a `capped` jump).
    public var jump = false
}

/// What a move reports besides the state: for next, previous, select, a transition's end and an
/// auto-advance tick (whose event carries it, docs/api.md, «Auto-advance»).
public struct MoveReport: Sendable, Equatable {
    /// Whether the index changed.
    public var moved: Bool?
    /// The end of a bounded pager the move met.
    public var edge: Edge?
    /// Which way a jump (or a tick) went.
    public var direction: Direction?
    /// A jump's keyframes.
    public var keyframes: [Keyframe]?
}

/// How a swipe released with a velocity was decided: reported by the answer and the event.
public struct Settle: Sendable, Equatable {
    /// Whether the swipe completed (the index moved to its target).
    public var completed: Bool
    /// The signed progress at release: + toward the next page (at the end, for an overscroll).
    public var progress: Double
    /// The velocity sent, in pages per second.
    public var velocity: Double

    /// Creates a report.
    public init(completed: Bool, progress: Double, velocity: Double) {
        self.completed = completed
        self.progress = progress
        self.velocity = velocity
    }
}

/// What a command did: the new pager and what the response reports about the move.
public struct PagerOutcome: Sendable, Equatable {
    /// The pager after the command; its version is one higher when anything changed.
    public var pager: Pager
    /// For next, previous, select (and a transition's end): whether the index changed.
    public var moved: Bool?
    /// The end of a bounded pager that the move or scroll met.
    public var edge: Edge?
    /// For select: one keyframe per step, excluding the start and including the target.
    public var keyframes: [Keyframe]?
    /// For a select that moved: which way it went.
    public var direction: Direction?
    /// Whether the state changed (and so the version).
    public var changed: Bool
    /// Whether the only change was to the auto-advance timer or setting (an event
    /// `autoAdvanceChanged`, docs/api.md, «Auto-advance»).
    public var onlyTimerChanged: Bool
    /// For a scroll that pointed a locked way: that way; nothing changed.
    public var blocked: Direction?
    /// The trailing action the command asked for: a `next` at the end of a bounded pager, or the
    /// release of a swipe past it (docs/api.md, «Overscroll and the trailing action»).
    public var actionRequested: PagerAction?
    /// For next, previous and select: what a screen reader announces (docs/api.md, «Accessibility»).
    public var announcement: String?
    /// For a release by velocity with a swipe in flight: how it was decided.
    public var settle: Settle?
    /// For a tick: it gave up a swipe nobody touched for `dragTimeout` (or ended an interaction
    /// pause as long past), rather than advancing the pager.
    public var timedOut = false

    /// The members that describe the move.
    public var move: MoveReport { MoveReport(moved: moved, edge: edge, direction: direction, keyframes: keyframes) }
}
