/// A page named by index, id and title.
public struct PageSummary: Sendable, Equatable {
    public var index: Int
    public var id: String
    public var title: String

    /// Creates a summary.
    public init(index: Int, id: String, title: String) {
        self.index = index
        self.id = id
        self.title = title
    }
}

/// The tab bar's reported state.
public struct TabBarState: Sendable, Equatable {
    /// The layout setting, `auto` included.
    public var layout: TabLayout
    public var contentWidth: Double
    public var offset: Double
    /// The layout in effect (`fixed` or `scrollable`), reported only while `layout` is `auto`.
    public var effectiveLayout: TabLayout?

    /// Creates a tab bar state.
    public init(layout: TabLayout, contentWidth: Double, offset: Double, effectiveLayout: TabLayout? = nil) {
        self.layout = layout
        self.contentWidth = contentWidth
        self.offset = offset
        self.effectiveLayout = effectiveLayout
    }
}

/// One tab as reported.
public struct Tab: Sendable, Equatable {
    public var index: Int
    public var id: String
    public var title: String
    public var frame: Frame
    /// Its width when not selected, reported only while the selected tab has a width of its own.
    public var baseWidth: Double?
    /// How strongly it is highlighted, in [0, 1] (docs/api.md, «Tab rendering»).
    public var selection: Double
    /// Whether it is the one selected tab.
    public var selected: Bool
    /// Its title colour and scale, when `tabBar.title` is set.
    public var color: RGBA?
    public var scale: Double?
    /// Its page's icon and badge, if any.
    public var decoration: TabDecoration?
}

extension Pager {
    /// The current page, if any.
    public var currentPage: Page? { index.map { pages[$0] } }

    /// The page before the current one, wrapping in a loop.
    public var previousSummary: PageSummary? { index.flatMap { neighbor(of: $0, .reverse) }.map(summary) }

    /// The page after the current one, wrapping in a loop.
    public var nextSummary: PageSummary? { index.flatMap { neighbor(of: $0, .forward) }.map(summary) }

    /// The summary of page `position`.
    public func summary(_ position: Int) -> PageSummary {
        PageSummary(index: position, id: pages[position].id, title: pages[position].title)
    }

    /// The indexes within `preload` steps on each side, nearest first (before, then after, at each
    /// distance), without the current page and without repeats in a small loop. With several
    /// pages per view the steps are counted from the first and the last page on screen at rest;
    /// without tabs (which name every page) the list then reaches at least one step past them,
    /// even with `preload` 0, so the state names every page a scroll can show (docs/api.md,
    /// «Several pages per viewport»).
    public var preloadIndices: [Int] {
        guard index != nil else { return [] }
        var result: [Int] = []
        if settings.hasOnePagePerView {
            guard settings.preload > 0 else { return [] }
            result.reserveCapacity(Swift.min(2 * settings.preload, pages.count - 1))
        }
        forEachPreloadIndex { result.append($0) }
        return result
    }

    /// Calls `body` with each of ``preloadIndices`` in order, building no list.
    public func forEachPreloadIndex(_ body: (Int) -> Void) {
        guard let current = index else { return }
        pageStrip.forEachPreload(
            current: current, preload: settings.preload, namingScrolled: settings.tabBar.layout == .none, body)
    }

    /// The trailing action, reported only while the current page of a bounded pager is its last.
    public var reportedTrailingAction: PagerAction? {
        guard settings.mode == .bounded, let index, index == pages.count - 1 else { return nil }
        return settings.trailingAction
    }

    /// The empty state, reported only while there are no pages.
    public var reportedEmptyState: EmptyState? { pages.isEmpty ? settings.emptyState : nil }

    /// (c + σ·f)·E: the scroll offset along the page axis, unclamped and unwrapped; mirrored
    /// ((n − 1)·W − P) when horizontal and right to left; 0 with no pages. With several pages per
    /// view or a gap between them, the ``PageStrip``'s offset (mirrored R − P).
    public var pageOffset: Double {
        guard let index else { return 0 }
        return pageStrip.reportedOffset(current: index, transition: transition, overscroll: overscroll)
    }

    /// A page's extent along the page axis: the viewport's with one page per view, else
    /// (E − (k − 1)·g)/k.
    public var pageSize: Double { pageStrip.pageSize }

    /// The tab bar's geometry from the frames laid out for the pages.
    var tabBarLayout: TabBarLayout { TabBarLayout(geometry: geometry, settings: settingsBox, count: pages.count) }

    /// Every tab's frame (mirrored when right to left), highlight and title style; empty
    /// without a tab bar or pages.
    public var tabs: [Tab] {
        guard hasTabBar else { return [] }
        let layout = tabBarLayout, highlight = self.highlight
        let strip = layout.strip(highlight)
        return pages.indices.map { tab(at: $0, highlight: highlight, layout: layout, strip: strip) }
    }

    /// Calls `body` with each tab's position, in order, and a function that describes the tab
    /// as ``tabs`` and ``tabAccessibility`` list it, building no list: for one who writes the
    /// tabs out, as the state document does, and who need not describe a tab at rest
    /// (``isTabAtRest(_:)``) whose description it kept.
    public func forEachTab(_ body: (Int, () -> (Tab, TabAccessibility)) -> Void) {
        guard hasTabBar else { return }
        let layout = tabBarLayout, highlight = self.highlight
        let strip = layout.strip(highlight)
        for position in pages.indices {
            body(position) {
                (
                    tab(at: position, highlight: highlight, layout: layout, strip: strip),
                    tabAccessibility(at: position)
                )
            }
        }
    }

    /// Whether tab `position` is at rest: neither the current page's nor a swipe's target, while
    /// no tab has a selected width of its own (which moves every tab after it). Such a tab is
    /// described as ``tabAtRest(_:)`` describes it, so alike in every state with the same
    /// ``tabLayoutKey``.
    public func isTabAtRest(_ position: Int) -> Bool {
        position != index && position != transition?.to && hasTabsAtRest
    }

    /// Whether any tab can be at rest (``isTabAtRest(_:)``): false while the selected tab has a
    /// width of its own, so that every frame depends on the index.
    public var hasTabsAtRest: Bool { settings.tabBar.selectedTabWidth == nil || !geometry.isScrollable }

    /// How tab `position` is described when it is at rest: unselected, with no highlight.
    public func tabAtRest(_ position: Int) -> (Tab, TabAccessibility) {
        let layout = tabBarLayout
        return (
            tab(at: position, highlight: TabHighlight(), layout: layout, strip: layout.strip(TabHighlight())),
            tabAccessibility(at: position, selected: false)
        )
    }

    /// Names the pages and settings that every tab at rest is described from (``tabAtRest(_:)``
    /// reads nothing else: the frames are computed from them too).
    public var tabLayoutKey: TabLayoutKey { TabLayoutKey(pages: pages, settings: settingsBox) }

    /// Whether the layout has a tab bar; a pager without pages has one with no tabs.
    public var hasTabBar: Bool { geometry.hasTabs }

    /// The tab of page `position`, as ``tabs`` lists it. Only when ``hasTabBar``.
    public func tab(at position: Int) -> Tab {
        let layout = tabBarLayout, highlight = self.highlight
        return tab(at: position, highlight: highlight, layout: layout, strip: layout.strip(highlight))
    }

    private func tab(at position: Int, highlight: TabHighlight, layout: TabBarLayout, strip: TabStrip) -> Tab {
        let look = layout.look(position, highlight: highlight, strip: strip)
        return Tab(
            index: position, id: pages[position].id, title: pages[position].title, frame: look.frame,
            baseWidth: look.baseWidth, selection: look.selection, selected: look.selected, color: look.color,
            scale: look.scale, decoration: pages[position].tab)
    }

    /// The tabs' highlight (docs/api.md, «Tab rendering»): tab c at rest or in an overscroll; during a transition
    /// from c to t at f, by the tracking.
    var highlight: TabHighlight {
        guard let index else { return TabHighlight() }
        return TabHighlight(current: index, transition: transition, tracking: settings.tabBar.indicatorTracking)
    }

    /// The pages on screen with the fraction of each (docs/api.md, «Visibility»): an entry whose fraction·E is
    /// at most 1 point is left out.
    public var visible: [VisiblePage] {
        var result: [VisiblePage] = []
        forEachVisible { result.append($0) }
        return result
    }

    /// Calls `body` with each of ``visible`` in order, building no list.
    public func forEachVisible(_ body: (VisiblePage) -> Void) {
        guard let index else { return }
        pageStrip.forEachVisible(current: index, transition: transition) { page, fraction in
            body(VisiblePage(index: page, id: pages[page].id, fraction: fraction))
        }
    }

    /// The indicator now: at rest on the current tab, or between tabs during a transition
    /// (mirrored when right to left).
    public var indicator: Indicator? { indicatorAndTabBar.indicator }

    /// The tab bar's layout, content width and scroll offset.
    public var tabBar: TabBarState { indicatorAndTabBar.tabBar }

    /// The indicator and the tab bar's state, computed together (the bar's offset follows the
    /// frame the indicator follows, from before its inset and a progressive fill).
    public var indicatorAndTabBar: (indicator: Indicator?, tabBar: TabBarState) {
        ScrollScene.indicatorAndTabBar(
            settings: settingsBox, geometry: geometry, count: pages.count, index: index, transition: transition,
            overscroll: overscroll)
    }

    /// The keyframes at rest on each of `positions`, as reported.
    func keyframes(at positions: ArraySlice<Int>) -> [Keyframe] {
        // What every keyframe shares is made once.
        let strip = pageStrip
        let bar = geometry.hasTabs ? tabBarLayout : nil
        return positions.map { position in
            let pageOffset = strip.reportedRestOffset(position)
            guard let placed = bar?.keyframe(at: position) else {
                return Keyframe(index: position, pageOffset: pageOffset, indicator: nil, tabBarOffset: 0)
            }
            return Keyframe(
                index: position, pageOffset: pageOffset, indicator: placed.indicator, tabBarOffset: placed.tabBarOffset)
        }
    }
}
