extension Pager {
    /// Applies `command` at `now` (wall-clock milliseconds, for the auto-advance timer),
    /// returning the new pager and what happened; throws, changing nothing, when the command is
    /// refused.
    public func applying(
        _ command: PagerCommand, limits: PagerLimits = PagerLimits(), now: Int64 = 0
    ) throws(PagerError) -> PagerOutcome {
        var next = self
        var report = Report()
        switch command {
        case .next: try next.move(.forward, report: &report)
        case .previous: try next.move(.reverse, report: &report)
        case .select(let target, let path, let animation):
            try next.select(target, path: path, animation: animation, report: &report)
        case .scroll(let input): try next.scroll(input, report: &report)
        case .beginTransition(let target): try next.beginTransition(to: target, report: &report)
        case .endTransition(let completed): next.endTransition(completed: completed, report: &report)
        case .release(let velocity): try next.release(velocity: velocity, report: &report)
        case .insert(let page, let position, let then):
            try next.insert(page, at: position, then: then, field: "page", limits: limits, report: &report)
        case .insertFromCatalog(let id, let position, let then):
            try next.insertFromCatalog(id: id, at: position, then: then, limits: limits, report: &report)
        case .remove(let id): try next.remove(pageID: id, report: &report)
        case .update(let id, let update): try next.update(pageID: id, update, limits: limits, report: &report)
        case .replacePages(let pages): try next.replacePages(pages, limits: limits, report: &report)
        case .push(let id, let screen): try next.push(screen, onto: id, limits: limits, report: &report)
        case .pop(let id, let toRoot): try next.pop(pageID: id, toRoot: toRoot, report: &report)
        case .updateSettings(let settings): try next.updateSettings(settings, report: &report)
        case .autoAdvance(let action): next.control(action, now: now, report: &report)
        case .tick: next.tick(now: now, report: &report)
        }
        try next.checkBudget(limits, growing: next.storedBytes > storedBytes)
        next.settleTimer(after: command, from: self, now: now, report: &report)
        next.settleDragDeadline(from: self, now: now)
        switch command {
        case .next, .previous, .select: report.announcement = next.announcement(moved: report.moved, edge: report.edge)
        default: break
        }
        let changed = report.changed || report.timerChanged
        next.version = version + (changed ? 1 : 0)
        if case .updateSettings = command, report.changed { next.settingsVersion = next.version }
        return PagerOutcome(
            pager: next, moved: report.moved, edge: report.edge, keyframes: report.keyframes,
            direction: report.direction, changed: changed, onlyTimerChanged: !report.changed && report.timerChanged,
            blocked: report.blocked,
            actionRequested: report.actionRequested, announcement: report.announcement, settle: report.settle,
            timedOut: report.timedOut)
    }

    /// What a command reports besides the new state. Each command says itself whether it changed
    /// anything, so deciding costs O(the change), never a comparison of whole states.
    struct Report {
        var moved: Bool?
        var edge: Edge?
        var keyframes: [Keyframe]?
        var direction: Direction?
        var changed = false
        /// The timer, or only the auto-advance setting, changed (docs/api.md, «Auto-advance»).
        var timerChanged = false
        /// A scroll that brought the swipe back to p = 0.
        var scrolledToRest = false
        var blocked: Direction?
        var actionRequested: PagerAction?
        var announcement: String?
        var settle: Settle?
        /// A tick that gave up an untouched swipe (or ended a pause as long past).
        var timedOut = false
    }
}
