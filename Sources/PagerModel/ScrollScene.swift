import Foundation

/// A pager as a scroll sees it: its settings, its tab frames, its page count and where it is (the
/// current index, the transition or overscroll in flight). A scroll's effect and every member an
/// answer reports about it (page offset, pages on screen, tabs, indicator, tab bar) are computed
/// here, from these alone. The server's ``Pager`` passes its own parts to the static forms of
/// the scroll and of the indicator and tab bar (so that its hot path copies nothing into a
/// scene), and renders tabs, the page offset and the pages on screen with the same
/// ``TabBarLayout``, ``TabHighlight`` and ``PageStrip`` calls; a client's ``ScrollPredictor``
/// makes a scene from a state document and a settings document. Both run this code, so a
/// prediction cannot drift from the server's answer.
struct ScrollScene: Sendable {
    /// The settings, shared with the pager they came from (reading one copies only that member).
    let settingsBox: SettingsBox
    /// The tab frames before a selected tab widens and the alignment shifts them.
    let geometry: TabGeometry
    /// The number of pages, n ≥ 1.
    let count: Int
    /// The current index, c.
    var index: Int
    /// The swipe in flight, if any.
    var transition: Transition?
    /// The swipe past an end, if any; never together with a transition.
    var overscroll: Overscroll?

    var settings: PagerSettings { settingsBox.value }

    // MARK: - Neighbours

    /// The index one step from `position` in `direction` among `count` pages in `mode`, wrapping
    /// in a loop; nil at a bounded end, with fewer than two pages or outside the pages.
    static func neighbor(of position: Int, _ direction: Direction, count: Int, mode: PagerMode) -> Int? {
        guard count > 1, (0..<count).contains(position) else { return nil }
        let target = position + (direction == .forward ? 1 : -1)
        if (0..<count).contains(target) { return target }
        return mode == .loop ? (target + count) % count : nil
    }

    /// The edge a move from `position` in `direction` meets (lands on or is stopped at) among
    /// `count` pages in `mode`, if any. A loop of two or more pages has no edges.
    static func edge(after position: Int, moving direction: Direction, count: Int, mode: PagerMode) -> Edge? {
        guard mode == .bounded || count < 2 else { return nil }
        switch direction {
        case .forward: return position == count - 1 ? .end : nil
        case .reverse: return position == 0 ? .start : nil
        }
    }

    // MARK: - Scrolling

    /// What a scroll did besides moving the scene.
    struct ScrollReport {
        /// Whether the transition or overscroll changed.
        var changed = false
        /// The end the scroll met, when it pointed past one.
        var edge: Edge?
        /// The locked way the scroll pointed; nothing changed.
        var blocked: Direction?
        /// Whether the scroll brought the swipe back to p = 0.
        var scrolledToRest = false
    }

    /// Signed progress from `input`, before clamping: + toward the next page. Refuses NaN (an
    /// offset far beyond the viewport can overflow the ratio to ±infinity; it still has a
    /// direction and is clamped).
    static func progress(
        of input: ScrollInput, settings: SettingsBox, count: Int, current: Int
    ) throws(PagerError) -> Double {
        let raw: Double
        let field: String
        switch input {
        case .progress(let p):
            raw = p
            field = "progress"
        case .offset(let offset):
            raw = PageStrip(settings: settings.value, count: count).progress(fromOffset: offset, current: current)
            field = "offset"
        case .windowOffset(let offset):
            raw = PageStrip(settings: settings.value, count: count).progress(fromWindowOffset: offset)
            field = "windowOffset"
        }
        guard !raw.isNaN else { throw .invalid(field: field, "Must be a finite number.") }
        return raw
    }

    /// Applies a scroll with `input`: |p| clamped to 1, toward the neighbour in p's direction (a
    /// change of sign retargets); with no neighbour that way, the rest state or, with a rubber
    /// band, an overscroll; p = 0 keeps a transition in flight at 0; a locked way changes nothing.
    mutating func scroll(_ input: ScrollInput) throws(PagerError) -> ScrollReport {
        try Self.scroll(
            input, settings: settingsBox, count: count, index: index, transition: &transition, overscroll: &overscroll)
    }

    /// ``scroll(_:)`` on the parts of a scene, which a pager passes without copying them into one.
    static func scroll(
        _ input: ScrollInput, settings: SettingsBox, count: Int, index: Int, transition: inout Transition?,
        overscroll: inout Overscroll?
    ) throws(PagerError) -> ScrollReport {
        var report = ScrollReport()
        let raw = try progress(of: input, settings: settings, count: count, current: index)
        if raw != 0 {
            let way: Direction = raw > 0 ? .forward : .reverse
            guard settings.value.swipe.allows(way) else {
                report.blocked = way
                return report
            }
        }
        let p = min(max(raw, -1), 1)
        if p == 0 {
            report.scrolledToRest = true
            if overscroll != nil {
                overscroll = nil
                report.changed = true
            }
            if let inFlight = transition, inFlight.progress != 0 {
                transition?.progress = 0
                report.changed = true
            }
            return report
        }
        let direction: Direction = p > 0 ? .forward : .reverse
        let mode = settings.value.mode
        guard let target = neighbor(of: index, direction, count: count, mode: mode) else {
            let edge = edge(after: index, moving: direction, count: count, mode: mode)
            report.edge = edge
            guard settings.value.rubberBand.style != .none, let edge else {
                if transition != nil || overscroll != nil {
                    transition = nil
                    overscroll = nil
                    report.changed = true
                }
                return report
            }
            if transition != nil {
                transition = nil
                report.changed = true
            }
            let past = Overscroll(edge: edge, progress: abs(p))
            if past != overscroll {
                overscroll = past
                report.changed = true
            }
            return report
        }
        if overscroll != nil {
            overscroll = nil
            report.changed = true
        }
        let swipe = Transition(from: index, to: target, progress: abs(p), direction: direction)
        if swipe != transition {
            transition = swipe
            report.changed = true
        }
        return report
    }

    // MARK: - Rendering

    /// How pages sit along the page axis.
    var pageStrip: PageStrip { PageStrip(settings: settings, count: count) }

    /// The tab bar's geometry from the frames.
    var tabBarLayout: TabBarLayout { TabBarLayout(geometry: geometry, settings: settingsBox, count: count) }

    /// The tabs' highlight: tab c at rest or in an overscroll; during a transition by the tracking.
    var highlight: TabHighlight {
        TabHighlight(current: index, transition: transition, tracking: settingsBox.value.tabBar.indicatorTracking)
    }

    /// The page offset as reported: unclamped, unwrapped, mirrored when horizontal and right to left.
    var pageOffset: Double {
        pageStrip.reportedOffset(current: index, transition: transition, overscroll: overscroll)
    }

    /// Calls `body` with each page on screen and the share of it that shows, in the order the
    /// state lists them.
    func forEachVisible(_ body: (_ page: Int, _ fraction: Double) -> Void) {
        pageStrip.forEachVisible(current: index, transition: transition, body)
    }

    /// The indicator and the tab bar's state, computed together (the bar's offset follows the
    /// frame the indicator follows, from before its inset and a progressive fill); no indicator
    /// without a tab bar.
    var indicatorAndTabBar: (indicator: Indicator?, tabBar: TabBarState) {
        Self.indicatorAndTabBar(
            settings: settingsBox, geometry: geometry, count: count, index: index, transition: transition,
            overscroll: overscroll)
    }

    /// ``indicatorAndTabBar`` from the parts of a scene, which a pager passes without copying
    /// them into one; nil `index` (no pages) gives the bar at rest with no indicator.
    static func indicatorAndTabBar(
        settings: SettingsBox, geometry: TabGeometry, count: Int, index: Int?, transition: Transition?,
        overscroll: Overscroll?
    ) -> (indicator: Indicator?, tabBar: TabBarState) {
        guard settings.value.tabBar.layout != .none else {
            return (nil, TabBarState(layout: .none, contentWidth: 0, offset: 0))
        }
        let bar = TabBarLayout(geometry: geometry, settings: settings, count: count)
        guard let index, geometry.hasTabs else { return (nil, bar.restingBar) }
        let shifted = overscroll.map {
            (edge: $0.edge, shift: PageStrip(settings: settings.value, count: count).shift(of: $0))
        }
        let highlight = TabHighlight(
            current: index, transition: transition, tracking: settings.value.tabBar.indicatorTracking)
        let placed = bar.indicatorAndBar(
            current: index, transition: transition, overscroll: shifted, strip: bar.strip(highlight))
        return (placed.indicator, placed.tabBar)
    }
}
