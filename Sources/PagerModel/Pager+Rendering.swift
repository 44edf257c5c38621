import Foundation

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
    public var layout: TabLayout
    public var contentWidth: Double
    public var offset: Double

    /// Creates a tab bar state.
    public init(layout: TabLayout, contentWidth: Double, offset: Double) {
        self.layout = layout
        self.contentWidth = contentWidth
        self.offset = offset
    }
}

/// One tab as reported.
public struct Tab: Sendable, Equatable {
    public var index: Int
    public var id: String
    public var title: String
    public var frame: Frame
    /// How strongly it is highlighted, in [0, 1] (SPEC §5.8).
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
    /// distance), without the current page and without repeats in a small loop.
    public var preloadIndices: [Int] {
        guard index != nil, settings.preload > 0 else { return [] }
        var result: [Int] = []
        result.reserveCapacity(Swift.min(2 * settings.preload, pages.count - 1))
        forEachPreloadIndex { result.append($0) }
        return result
    }

    /// Calls `body` with each of ``preloadIndices`` in order, building no list.
    public func forEachPreloadIndex(_ body: (Int) -> Void) {
        guard let current = index, settings.preload > 0 else { return }
        // Walking k back and j ahead visits k + j distinct pages other than the current one as
        // long as k + j < count, even in a loop; stopping once every other page is listed is
        // therefore all it takes to avoid repeats, with no set to hash into.
        let others = pages.count - 1
        var listed = 0
        var back = current, ahead = current
        for _ in 0..<settings.preload {
            guard listed < others else { break }
            if let previous = neighbor(of: back, .reverse) {
                back = previous
                listed += 1
                body(previous)
            }
            guard listed < others else { break }
            if let following = neighbor(of: ahead, .forward) {
                ahead = following
                listed += 1
                body(following)
            }
        }
    }

    /// The trailing action, reported only while the current page of a bounded pager is its last.
    public var reportedTrailingAction: PagerAction? {
        guard settings.mode == .bounded, let index, index == pages.count - 1 else { return nil }
        return settings.trailingAction
    }

    /// The empty state, reported only while there are no pages.
    public var reportedEmptyState: EmptyState? { pages.isEmpty ? settings.emptyState : nil }

    /// (c + σ·f)·E: the scroll offset along the page axis, unclamped and unwrapped; mirrored
    /// ((n − 1)·W − P) when horizontal and right to left; 0 with no pages.
    public var pageOffset: Double {
        guard let index else { return 0 }
        let moving = transition.map { $0.direction.sign * $0.progress } ?? overscrollShift ?? 0
        return reportedPageOffset(Double(index) + moving)
    }

    /// δ = σ_e·D/E during an overscroll (SPEC §5.3): the page's displacement past the end, in pages,
    /// with the rubber band's resistance applied.
    var overscrollShift: Double? {
        guard let overscroll else { return nil }
        let extent = pageExtent
        let travel = overscroll.progress * extent
        let rubberBand = settings.rubberBand
        let displacement = rubberBand.style == .resistance ? max(0, pow(travel, rubberBand.ratio) - 1) : travel
        return (overscroll.edge == .end ? 1 : -1) * displacement / extent
    }

    /// Every tab's frame (mirrored when right to left), highlight and title style; empty
    /// without a tab bar or pages.
    public var tabs: [Tab] {
        guard hasTabBar else { return [] }
        let highlight = self.highlight
        return pages.indices.map { tab(at: $0, highlight: highlight) }
    }

    /// Calls `body` with each tab's position, in order, and a function that describes the tab
    /// as ``tabs`` and ``tabAccessibility`` list it, building no list: for one who writes the
    /// tabs out, as the state document does, and who need not describe a tab at rest
    /// (``isTabAtRest(_:)``) whose description it kept.
    public func forEachTab(_ body: (Int, () -> (Tab, TabAccessibility)) -> Void) {
        guard hasTabBar else { return }
        let highlight = self.highlight
        for position in pages.indices {
            body(position) { (tab(at: position, highlight: highlight), tabAccessibility(at: position)) }
        }
    }

    /// Whether tab `position` is at rest: neither the current page's nor a swipe's target. Such a
    /// tab is described as ``tabAtRest(_:)`` describes it, so alike in every state with the same
    /// ``tabLayoutKey``.
    public func isTabAtRest(_ position: Int) -> Bool { position != index && position != transition?.to }

    /// How tab `position` is described when it is at rest: unselected, with no highlight.
    public func tabAtRest(_ position: Int) -> (Tab, TabAccessibility) {
        (tab(at: position, highlight: Highlight()), tabAccessibility(at: position, selected: false))
    }

    /// Names the pages and settings that every tab at rest is described from (``tabAtRest(_:)``
    /// reads nothing else: the frames are computed from them too).
    public var tabLayoutKey: TabLayoutKey { TabLayoutKey(pages: pages, settings: settingsBox) }

    /// Whether the layout has a tab bar; a pager without pages has one with no tabs.
    public var hasTabBar: Bool { geometry.hasTabs }

    /// The tab of page `position`, as ``tabs`` lists it. Only when ``hasTabBar``.
    public func tab(at position: Int) -> Tab { tab(at: position, highlight: highlight) }

    private func tab(at position: Int, highlight: Highlight) -> Tab {
        let selection = highlight.selection(of: position)
        let title = settings.tabBar.title
        return Tab(
            index: position, id: pages[position].id, title: pages[position].title,
            frame: reportedFrame(geometry.frame(position)), selection: selection,
            selected: position == highlight.selected,
            color: title.map { $0.color.mixed(with: $0.selectedColor, selection) },
            scale: title.map { $0.scale + ($0.selectedScale - $0.scale) * selection },
            decoration: pages[position].tab)
    }

    /// The tabs' highlight (SPEC §5.8): tab c at rest or in an overscroll; during a transition
    /// from c to t at f, by the tracking.
    struct Highlight {
        var current: Int?
        var target: Int?
        var progress = 0.0
        var continuous = true
        var selected: Int?

        func selection(of position: Int) -> Double {
            guard let target else { return position == current ? 1 : 0 }
            if !continuous { return position == selected ? 1 : 0 }
            if position == current { return 1 - progress }
            return position == target ? progress : 0
        }
    }

    var highlight: Highlight {
        guard let index else { return Highlight() }
        guard let transition else { return Highlight(current: index, selected: index) }
        let halfway = transition.progress >= 0.5 - 1e-9 ? transition.to : transition.from
        switch settings.tabBar.indicatorTracking {
        case .continuous:
            return Highlight(current: index, target: transition.to, progress: transition.progress, selected: halfway)
        case .halfway:
            return Highlight(current: index, target: transition.to, continuous: false, selected: halfway)
        case .settled:
            return Highlight(current: index, target: transition.to, continuous: false, selected: index)
        }
    }

    /// The pages on screen with the fraction of each (SPEC §5.11): an entry whose fraction·E is
    /// at most 1 point is left out.
    public var visible: [VisiblePage] {
        var result: [VisiblePage] = []
        forEachVisible { result.append($0) }
        return result
    }

    /// Calls `body` with each of ``visible`` in order, building no list.
    public func forEachVisible(_ body: (VisiblePage) -> Void) {
        guard let index else { return }
        guard let transition else { return body(VisiblePage(index: index, id: pages[index].id, fraction: 1)) }
        let extent = pageExtent
        func show(_ position: Int, _ fraction: Double) {
            if fraction * extent > 1 + 1e-9 {
                body(VisiblePage(index: position, id: pages[position].id, fraction: fraction))
            }
        }
        show(index, 1 - transition.progress)
        show(transition.to, transition.progress)
    }

    /// The indicator now: at rest on the current tab, or between tabs during a transition
    /// (mirrored when right to left).
    public var indicator: Indicator? { indicatorAndTabBar.indicator }

    /// The tab bar's layout, content width and scroll offset.
    public var tabBar: TabBarState { indicatorAndTabBar.tabBar }

    /// The indicator and the tab bar's state, computed together (the bar's offset follows the
    /// indicator's frame from before a progressive fill replaces it).
    public var indicatorAndTabBar: (indicator: Indicator?, tabBar: TabBarState) {
        let layout = settings.tabBar.layout
        guard layout != .none else { return (nil, TabBarState(layout: .none, contentWidth: 0, offset: 0)) }
        guard let index, geometry.hasTabs else {
            return (nil, TabBarState(layout: layout, contentWidth: geometry.contentWidth, offset: 0))
        }
        let placed = indicatorFrame(at: index, transition: transition, overscroll: overscroll)
        let bar = TabBarState(
            layout: layout, contentWidth: geometry.contentWidth, offset: reportedBarOffset(barOffset(for: placed.frame))
        )
        return (reportedIndicator(placed.indicator), bar)
    }

    /// The keyframe at rest on page `position`, as reported.
    func keyframe(at position: Int) -> Keyframe {
        let placed = geometry.hasTabs ? indicatorFrame(at: position, transition: nil) : nil
        return Keyframe(
            index: position, pageOffset: reportedPageOffset(Double(position)),
            indicator: placed.map { reportedIndicator($0.indicator) },
            tabBarOffset: reportedBarOffset(placed.map { barOffset(for: $0.frame) } ?? 0))
    }

    /// The indicator left to right (SPEC §5.0's steps 2–4) and its frame F before a progressive
    /// fill, which the tab bar's offset follows.
    private func indicatorFrame(
        at position: Int, transition: Transition?, overscroll: Overscroll? = nil
    ) -> (indicator: Indicator, frame: Frame) {
        let placed = placedIndicator(at: position, transition: transition, overscroll: overscroll)
        let frame = Frame(x: placed.x, width: placed.width)
        guard settings.tabBar.indicatorProgressive else { return (placed, frame) }
        // Step 4: the fill runs from the bar's start to F's right edge.
        let right = placed.x + placed.width
        let clipped = min(right, geometry.contentWidth)
        let filled = Indicator(
            x: 0, width: right, height: placed.height,
            segments: clipped > 0 ? [Frame(x: 0, width: clipped)] : [], alpha: placed.alpha)
        return (filled, frame)
    }

    /// The indicator's frame F and segments, left to right (SPEC §2.3, §5.3, §5.4, §5.8): at rest
    /// on `position`, between tabs during `transition` by the tracking and style, or past an end.
    private func placedIndicator(at position: Int, transition: Transition?, overscroll: Overscroll?) -> Indicator {
        let current = geometry.frame(position)
        let contentWidth = geometry.contentWidth
        let height = settings.tabBar.indicatorHeight
        let tracking = settings.tabBar.indicatorTracking
        if let transition {
            switch tracking {
            case .continuous where settings.tabBar.indicatorStyle == .fade:
                let shown = transition.progress >= 0.5 - 1e-9 ? transition.to : transition.from
                let frame = geometry.frame(shown)
                return Indicator(
                    x: frame.x, width: frame.width, height: height, segments: [frame],
                    alpha: abs(1 - 2 * transition.progress))
            case .continuous:
                var target = geometry.frame(transition.to)
                // Across a loop's seam the target is taken one period away, so the indicator keeps
                // moving the way the page moves.
                if transition.direction == .forward, transition.to < transition.from { target.x += contentWidth }
                if transition.direction == .reverse, transition.to > transition.from { target.x -= contentWidth }
                let frame = IndicatorGeometry.interpolate(
                    from: current, to: target, progress: transition.progress, style: settings.tabBar.indicatorStyle)
                return Indicator(
                    x: frame.x, width: frame.width, height: height,
                    segments: IndicatorGeometry.segments(of: frame, contentWidth: contentWidth))
            case .halfway:
                let shown = transition.progress >= 0.5 - 1e-9 ? transition.to : transition.from
                let frame = geometry.frame(shown)
                return Indicator(x: frame.x, width: frame.width, height: height, segments: [frame])
            case .settled:
                return Indicator(x: current.x, width: current.width, height: height, segments: [current])
            }
        }
        if let overscroll, let shift = overscrollShift, tracking == .continuous {
            let frame: Frame
            switch (settings.tabBar.indicatorOverscroll, overscroll.edge) {
            case (.none, _): frame = current
            case (.bounce, _): frame = Frame(x: current.x + shift * current.width, width: current.width)
            case (.compress, .end):
                frame = Frame(x: current.x + shift * current.width, width: current.width * (1 - shift))
            case (.compress, .start): frame = Frame(x: current.x, width: current.width * (1 + shift))
            }
            // One piece clipped to the bar, none when nothing is inside: never a wrapped piece.
            let left = max(frame.x, 0), right = min(frame.maxX, contentWidth)
            let segments = right - left > 0 ? [Frame(x: left, width: right - left)] : []
            return Indicator(x: frame.x, width: frame.width, height: height, segments: segments)
        }
        return Indicator(x: current.x, width: current.width, height: height, segments: [current])
    }

    private func barOffset(for frame: Frame) -> Double {
        guard settings.tabBar.layout == .scrollable else { return 0 }
        return IndicatorGeometry.tabBarOffset(
            for: frame, viewportWidth: settings.viewportWidth, contentWidth: geometry.contentWidth)
    }
}
