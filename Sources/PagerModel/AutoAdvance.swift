/// What a bounded pager's timer does at its far end (docs/api.md, «Auto-advance»).
public enum AutoAdvanceEnd: String, Sendable, CaseIterable {
    /// Jumps back to the other end, without stepping through the pages between.
    case rewind
    /// Halts the timer.
    case stop
}

/// What a swipe does to a timer that runs (docs/api.md, «Auto-advance»).
public enum AutoAdvanceInteraction: String, Sendable, CaseIterable {
    /// Pauses it until the swipe is over.
    case pause
    /// Halts it.
    case stop
}

/// Who paused a timer.
public enum AutoAdvancePause: String, Sendable, CaseIterable {
    /// A swipe; the swipe's end resumes it.
    case interaction
    /// The control endpoint; only `resume` (or `start`) ends it.
    case control
}

/// The control endpoint's actions (docs/api.md, «Auto-advance»).
public enum AutoAdvanceAction: String, Sendable, CaseIterable {
    case start
    case stop
    case pause
    case resume
}

/// The `autoAdvance` setting: a timer that moves the pager by itself.
public struct AutoAdvanceSettings: Sendable, Equatable {
    /// Whether it is on; halting turns it off.
    public var enabled = false
    /// Milliseconds between ticks, within ``intervals``.
    public var interval = 5000
    /// `next` (forward) or `previous` (reverse) on every tick.
    public var direction = Direction.forward
    /// What a bounded pager does at its far end.
    public var atEnd = AutoAdvanceEnd.rewind
    /// What a swipe does.
    public var onInteraction = AutoAdvanceInteraction.pause

    /// The defaults docs/api.md gives («Auto-advance»).
    public init() {}

    /// The intervals accepted, in milliseconds (100 ms to a day).
    public static let intervals = 100...86_400_000

    func validate() throws(PagerError) {
        guard Self.intervals.contains(interval) else {
            throw .invalid(
                field: "autoAdvance.interval",
                "Must be an integer number of milliseconds from \(Self.intervals.lowerBound) to \(Self.intervals.upperBound)."
            )
        }
    }
}

/// Where a running timer is. Times are wall-clock milliseconds since 1970, given to every command
/// by the caller, so the model never reads a clock and each version has one document.
public enum AutoAdvanceTimer: Sendable, Equatable {
    /// Not running: disabled, halted, or fewer than two pages.
    case idle
    /// Running unpaused; the next tick is at this time.
    case due(at: Int64)
    /// Running and paused, with this many milliseconds left once it resumes.
    case paused(by: AutoAdvancePause, remaining: Int)

    /// When the next tick is due; nil unless running unpaused.
    public var dueAt: Int64? {
        guard case .due(let at) = self else { return nil }
        return at
    }

    /// Who paused it; nil unless paused.
    public var pausedBy: AutoAdvancePause? {
        guard case .paused(let by, _) = self else { return nil }
        return by
    }

    /// The milliseconds left while paused; nil otherwise.
    public var remaining: Int? {
        guard case .paused(_, let remaining) = self else { return nil }
        return remaining
    }
}

extension Pager {
    /// Whether auto-advance runs: enabled, with at least two pages.
    public var autoAdvanceRuns: Bool { settings.autoAdvance.enabled && pages.count >= 2 }

    /// Whether a swipe is in flight: a transition or an overscroll.
    var swipeInFlight: Bool { transition != nil || overscroll != nil }

    /// The id of the current page, if any.
    var currentPageID: String? { index.map { pages[$0].id } }

    // MARK: - Ticks

    /// One tick: `next` (or `previous`) as a client would send it, except that a bounded pager at
    /// its far end rewinds or halts, and no trailing action is ever requested. Nothing happens
    /// unless the timer is due by `now`.
    mutating func tick(now: Int64, report: inout Report) {
        // An untouched swipe is given up first; no swipe is in flight while the timer runs.
        if giveUpDrag(now: now, report: &report) { return }
        guard autoAdvanceRuns, let dueAt = timer.dueAt, dueAt <= now, !swipeInFlight, let current = index else {
            return
        }
        let direction = settings.autoAdvance.direction
        let farEnd: Edge = direction == .forward ? .end : .start
        if let target = neighbor(of: current, direction) {
            index = target
            report.changed = true
            report.moved = true
            report.direction = direction
            report.edge = edge(after: target, moving: direction)
            if report.edge == farEnd, settings.autoAdvance.atEnd == .stop { settings.autoAdvance.enabled = false }
            return
        }
        report.edge = farEnd
        switch settings.autoAdvance.atEnd {
        case .rewind:
            // A bounded pager always has pages at both ends here, so the select cannot fail.
            let other = direction == .forward ? 0 : pages.count - 1
            try? select(.index(other), path: .direct, animation: .direct, report: &report)
        case .stop:
            report.moved = false
            report.timerChanged = true
            settings.autoAdvance.enabled = false
        }
    }

    // MARK: - Control

    /// The control endpoint's `action`. It never cancels a transition or clears an overscroll:
    /// with either in flight, starting or resuming leaves the timer paused by interaction.
    mutating func control(_ action: AutoAdvanceAction, now: Int64, report: inout Report) {
        let interval = settings.autoAdvance.interval
        switch action {
        case .start:
            guard !settings.autoAdvance.enabled || timer.pausedBy == .control else { return }
            settings.autoAdvance.enabled = true
            timer = restarted(remaining: interval, now: now)
        case .stop:
            guard settings.autoAdvance.enabled else { return }
            settings.autoAdvance.enabled = false
            timer = .idle
        case .pause:
            switch timer {
            case .idle, .paused(by: .control, _): return
            case .due(let at): timer = .paused(by: .control, remaining: Int(max(0, at - now)))
            case .paused(by: .interaction, let remaining): timer = .paused(by: .control, remaining: remaining)
            }
        case .resume:
            guard case .paused(let by, let remaining) = timer else { return }
            if swipeInFlight {
                guard by == .control else { return }
                timer = .paused(by: .interaction, remaining: remaining)
            } else {
                timer = .due(at: now + Int64(remaining))
            }
        }
        report.timerChanged = true
    }

    /// A running timer that starts counting `remaining` now, or that waits paused by interaction
    /// while a swipe is in flight; idle when it does not run.
    private func restarted(remaining: Int, now: Int64) -> AutoAdvanceTimer {
        guard autoAdvanceRuns else { return .idle }
        return swipeInFlight ? .paused(by: .interaction, remaining: remaining) : .due(at: now + Int64(remaining))
    }

    // MARK: - After every command

    /// What a command did to the timer besides a control action or a tick's own halt: an
    /// interaction pauses (or halts) it, the end of one resumes it, and the interval restarts when
    /// the timer starts running, the current page changes or the setting changes. Called on the
    /// new pager with the old one, once the command has applied.
    mutating func settleTimer(after command: PagerCommand, from old: Pager, now: Int64, report: inout Report) {
        guard autoAdvanceRuns else {
            if timer != .idle {
                timer = .idle
                report.timerChanged = true
            }
            return
        }
        let interval = settings.autoAdvance.interval
        var next = timer
        switch command.timerEffect(report) {
        case .interaction:
            if case .due = next {
                guard settings.autoAdvance.onInteraction == .pause else {
                    settings.autoAdvance.enabled = false
                    timer = .idle
                    report.timerChanged = true
                    return
                }
                next = .paused(by: .interaction, remaining: interval)
            }
        case .endsInteraction:
            if case .paused(by: .interaction, let remaining) = next, !swipeInFlight {
                next = .due(at: now + Int64(remaining))
            }
        case .none:
            break
        }
        if !old.autoAdvanceRuns || currentPageID != old.currentPageID
            || settings.autoAdvance != old.settings.autoAdvance
        {
            switch next {
            case .paused(let by, _): next = .paused(by: by, remaining: interval)
            case .due, .idle: next = restarted(remaining: interval, now: now)
            }
        }
        // The timer never runs unpaused during a swipe.
        if case .due = next, swipeInFlight { next = .paused(by: .interaction, remaining: interval) }
        if next != timer {
            timer = next
            report.timerChanged = true
        }
    }
}

/// What a command means to a running timer (docs/api.md, «Auto-advance»).
enum TimerEffect {
    /// A swipe: pauses (or halts) it.
    case interaction
    /// The end of a swipe, a move or a change: ends an interaction pause.
    case endsInteraction
    case none
}

extension PagerCommand {
    /// The command's effect on the timer, from what it reported: a blocked scroll is no
    /// interaction, and neither is a scroll back to p = 0, which ends one.
    func timerEffect(_ report: Pager.Report) -> TimerEffect {
        switch self {
        case .scroll:
            if report.blocked != nil { return .none }
            return report.scrolledToRest ? .endsInteraction : .interaction
        case .beginTransition: return .interaction
        case .endTransition, .release, .next, .previous, .select, .insert, .insertFromCatalog, .remove, .update,
            .replacePages:
            return .endsInteraction
        // A PATCH that leaves every setting as it was changes nothing, a pause included.
        case .updateSettings: return report.changed ? .endsInteraction : .none
        case .tick: return report.timedOut ? .endsInteraction : .none
        case .push, .pop, .autoAdvance: return .none
        }
    }
}
