extension Pager {
    // MARK: - Release by velocity

    /// The signed progress of the swipe in flight (+ toward the next page; for an overscroll, +
    /// at the end) and its sign s; nil with nothing in flight.
    public var swipeProgress: (progress: Double, sign: Double)? {
        if let transition {
            let sign = transition.direction.sign
            return (sign * transition.progress, sign)
        }
        if let overscroll {
            let sign: Double = overscroll.edge == .end ? 1 : -1
            return (sign * overscroll.progress, sign)
        }
        return nil
    }

    /// Whether a swipe in flight released at `velocity` (pages per second, signed like progress)
    /// completes, as a device decides it: a flick toward the target (v·s ≥ F) completes it
    /// however short; past half way it completes unless flicked back (v·s > −F); otherwise it is
    /// cancelled. F is `release.flickVelocity`. Nil with nothing in flight.
    public func releaseCompletes(velocity: Double) -> Bool? {
        guard let (progress, sign) = swipeProgress else { return nil }
        let toward = velocity * sign
        let flick = settings.release.flickVelocity
        return toward >= flick || (abs(progress) >= 0.5 - 1e-9 && toward > -flick)
    }

    /// The largest velocity a release may report, in pages per second.
    public static let maxReleaseVelocity = 1000.0

    /// `end {velocity}`: the swipe in flight completes or is cancelled as
    /// ``releaseCompletes(velocity:)`` decides, and then everything goes as `end {completed}`
    /// does; the report says how it was decided. With nothing in flight it does what
    /// `end {completed: false}` does then.
    mutating func release(velocity: Double, report: inout Report) throws(PagerError) {
        guard velocity.isFinite, abs(velocity) <= Self.maxReleaseVelocity else {
            throw .invalid(
                field: "velocity",
                "Must be a finite number of pages per second, at most \(Int(Self.maxReleaseVelocity)) either way.")
        }
        guard let completed = releaseCompletes(velocity: velocity), let (progress, _) = swipeProgress else {
            return endTransition(completed: false, report: &report)
        }
        report.settle = Settle(completed: completed, progress: progress, velocity: velocity)
        endTransition(completed: completed, report: &report)
    }

    // MARK: - Abandoned swipes

    /// The earliest time the server acts on this pager by itself: its auto-advance tick or the
    /// end of an untouched swipe.
    public var nextDue: Int64? {
        switch (timer.dueAt, dragDeadline) {
        case (let tick?, let drag?): min(tick, drag)
        case (let tick, let drag): tick ?? drag
        }
    }

    /// Sets the drag deadline after a command, from the pager before it: a command that set a
    /// new transition or overscroll starts it again; one that left the swipe as it was keeps it;
    /// with nothing in flight, an interaction pause of auto-advance keeps one from the change
    /// that caused it; otherwise there is none.
    mutating func settleDragDeadline(from old: Pager, now: Int64) {
        let timeout = settings.dragTimeout
        guard timeout > 0 else {
            dragDeadline = nil
            return
        }
        if swipeInFlight {
            let changed = transition != old.transition || overscroll != old.overscroll
            if changed || dragDeadline == nil { dragDeadline = now + Int64(timeout) }
        } else if timer.pausedBy == .interaction {
            let paused = old.timer.pausedBy == .interaction && !old.swipeInFlight
            if !paused || dragDeadline == nil { dragDeadline = now + Int64(timeout) }
        } else {
            dragDeadline = nil
        }
    }

    /// A tick at `now` past the drag deadline: the swipe in flight is cancelled, as
    /// `end {completed: false}` does (the interaction pause then ends, see `settleTimer`), or, with
    /// nothing in flight, the interaction pause alone ends. Answers whether it was due.
    mutating func giveUpDrag(now: Int64, report: inout Report) -> Bool {
        guard let deadline = dragDeadline, deadline <= now else { return false }
        report.timedOut = true
        if swipeInFlight { endTransition(completed: false, report: &report) }
        return true
    }
}
