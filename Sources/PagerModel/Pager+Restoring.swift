extension Pager {
    /// Rebuilds a pager that was stored: every value as it was, the version included. Pages,
    /// catalog and settings are validated as at creation and the position must fit the pages, so
    /// a damaged record is refused rather than served; the session budget is not applied (a
    /// budget lowered since must not lose a stored session).
    public init(
        restoring pages: [Page], index: Int?, transition: Transition?, overscroll: Overscroll? = nil,
        settings: PagerSettings, catalog: [Page], version: Int, timer: AutoAdvanceTimer = .idle,
        settingsVersion: Int = 1, dragDeadline: Int64? = nil, limits: PagerLimits = PagerLimits()
    ) throws(PagerError) {
        try self.init(pages: pages, settings: settings, catalog: catalog, limits: limits.ignoringBudget)
        try restorePosition(
            index: index, transition: transition, overscroll: overscroll, version: version, timer: timer,
            settingsVersion: settingsVersion, dragDeadline: dragDeadline)
    }

    /// This pager at a stored position: what ``init(restoring:index:transition:overscroll:settings:catalog:version:timer:limits:)``
    /// gives for this pager's pages, settings and catalog, which are shared, not copied or checked
    /// again (they were when this pager was made). For a stored change of position only; the
    /// position is checked as there.
    public func restoring(
        index: Int?, transition: Transition?, overscroll: Overscroll?, version: Int, timer: AutoAdvanceTimer,
        settingsVersion: Int? = nil, dragDeadline: Int64? = nil
    ) throws(PagerError) -> Pager {
        var pager = self
        try pager.restorePosition(
            index: index, transition: transition, overscroll: overscroll, version: version, timer: timer,
            settingsVersion: settingsVersion ?? self.settingsVersion, dragDeadline: dragDeadline)
        return pager
    }

    /// Sets every value of the position (index, transition, overscroll, version and timer) to a
    /// stored one, refusing one that does not fit the pages and settings.
    private mutating func restorePosition(
        index: Int?, transition: Transition?, overscroll: Overscroll?, version: Int, timer: AutoAdvanceTimer,
        settingsVersion: Int, dragDeadline: Int64?
    ) throws(PagerError) {
        guard version >= 1 else { throw .invalid(field: "version", "A stored version is at least 1, not \(version).") }
        guard (1...version).contains(settingsVersion) else {
            throw .invalid(field: "settingsVersion", "A stored settings version is from 1 to \(version).")
        }
        if let index {
            guard pages.indices.contains(index) else {
                throw .indexOutOfRange(
                    field: "index", index, pages.isEmpty ? "an empty pager" : "0...\(pages.count - 1)")
            }
        } else if !pages.isEmpty {
            throw .invalid(field: "index", "A pager with pages has a current index.")
        }
        if let transition {
            guard let index, transition.from == index, neighbor(of: index, transition.direction) == transition.to,
                (0...1).contains(transition.progress)
            else {
                throw .invalid(field: "transition", "The stored transition does not fit the pages and position.")
            }
        }
        if let overscroll {
            guard let index, transition == nil, settings.rubberBand.style != .none,
                overscroll.progress > 0, overscroll.progress <= 1,
                neighbor(of: index, overscroll.edge == .end ? .forward : .reverse) == nil
            else {
                throw .invalid(field: "overscroll", "The stored overscroll does not fit the pages and position.")
            }
        }
        self.index = index
        self.transition = transition
        self.overscroll = overscroll
        self.version = version
        let timerFits: Bool
        switch timer {
        case .idle: timerFits = !autoAdvanceRuns
        case .due: timerFits = autoAdvanceRuns && !swipeInFlight
        case .paused(_, let remaining): timerFits = autoAdvanceRuns && remaining >= 0
        }
        guard timerFits else {
            throw .invalid(field: "autoAdvance", "The stored timer does not fit the settings and position.")
        }
        self.timer = timer
        self.settingsVersion = settingsVersion
        self.dragDeadline = dragDeadline
    }
}

extension PagerLimits {
    /// The same limits with no session budget.
    var ignoringBudget: PagerLimits {
        var limits = self
        limits.sessionBudgetBytes = .max
        return limits
    }
}
