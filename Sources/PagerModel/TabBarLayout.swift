/// How strongly each tab is highlighted at one moment: tab c at rest or in an overscroll; during
/// a transition from c to t at progress f, by the tracking (continuous: c has 1 − f and t has f;
/// halfway: the nearer of the two has 1; settled: the index has 1).
struct TabHighlight {
    var current: Int?
    var target: Int?
    var progress = 0.0
    var continuous = true
    /// The one selected tab.
    var selected: Int?

    /// The highlight at rest on `position`.
    static func atRest(_ position: Int) -> TabHighlight { TabHighlight(current: position, selected: position) }

    /// The highlight on `current` with `transition` in flight, by `tracking`.
    init(current: Int, transition: Transition?, tracking: IndicatorTracking) {
        guard let transition else {
            self.init(current: current, selected: current)
            return
        }
        let halfway = transition.progress >= 0.5 - 1e-9 ? transition.to : transition.from
        switch tracking {
        case .continuous:
            self.init(current: current, target: transition.to, progress: transition.progress, selected: halfway)
        case .halfway:
            self.init(current: current, target: transition.to, continuous: false, selected: halfway)
        case .settled:
            self.init(current: current, target: transition.to, continuous: false, selected: current)
        }
    }

    init(
        current: Int? = nil, target: Int? = nil, progress: Double = 0, continuous: Bool = true, selected: Int? = nil
    ) {
        self.current = current
        self.target = target
        self.progress = progress
        self.continuous = continuous
        self.selected = selected
    }

    /// Tab `position`'s selection, in [0, 1].
    func selection(of position: Int) -> Double {
        guard let target else { return position == current ? 1 : 0 }
        if !continuous { return position == selected ? 1 : 0 }
        if position == current { return 1 - progress }
        return position == target ? progress : 0
    }
}

/// How one tab looks at one moment: what a state document reports of it besides its page's id,
/// title, decoration and accessibility.
struct TabLook {
    /// The frame as reported (mirrored right to left).
    var frame: Frame
    /// The width when not selected, only while the selected tab has a width of its own.
    var baseWidth: Double?
    /// How strongly it is highlighted, in [0, 1].
    var selection: Double
    /// Whether it is the one selected tab.
    var selected: Bool
    /// The title's colour and scale, only when titles are styled.
    var color: RGBA?
    var scale: Double?
}

/// The tab frames at one moment, left to right, as changes to the base frames of a
/// ``TabGeometry``: the selected tab widened toward `selectedTabWidth` by its selection (every tab
/// after it moving along), and the row shifted by the alignment when it is narrower than the bar.
/// Reading a frame is O(1): at most two tabs are widened.
struct TabStrip {
    /// The tabs widened and by how much, (S − w_i)·selection_i; −1 for none.
    private var firstWidened = -1, firstGrowth = 0.0
    private var secondWidened = -1, secondGrowth = 0.0
    /// Δ: how far the alignment moves every tab.
    private(set) var shift = 0.0
    /// C: the content width with the widened tabs and the alignment.
    private(set) var contentWidth: Double

    /// The frames of `geometry` with `highlight`'s selection widening toward `bar`'s
    /// `selectedTabWidth` and `bar`'s alignment in a viewport `viewportWidth` wide.
    init(geometry: TabGeometry, bar: TabBarSettings, viewportWidth: Double, highlight: TabHighlight) {
        contentWidth = geometry.contentWidth
        guard geometry.isScrollable else { return }
        if let selectedWidth = bar.selectedTabWidth {
            // Only the current tab and the target can have a selection.
            if let current = highlight.current {
                widen(current, by: (selectedWidth - geometry.frame(current).width) * highlight.selection(of: current))
            }
            if let target = highlight.target {
                widen(target, by: (selectedWidth - geometry.frame(target).width) * highlight.selection(of: target))
            }
        }
        guard bar.alignment != .leading, contentWidth < viewportWidth - 1e-9 else { return }
        shift = bar.alignment == .center ? (viewportWidth - contentWidth) / 2 : viewportWidth - contentWidth
        contentWidth = viewportWidth
    }

    /// Widens tab `position` by `growth`, (S − w)·selection, unless that is 0.
    private mutating func widen(_ position: Int, by growth: Double) {
        guard growth != 0 else { return }
        if firstWidened < 0 {
            firstWidened = position
            firstGrowth = growth
        } else {
            secondWidened = position
            secondGrowth = growth
        }
        contentWidth += growth
    }

    /// The frame of tab `position` of `geometry` (the one this strip was made from), left to right.
    func frame(_ position: Int, in geometry: TabGeometry) -> Frame {
        var frame = geometry.frame(position)
        if firstWidened >= 0 {
            if position > firstWidened {
                frame.x += firstGrowth
            } else if position == firstWidened {
                frame.width += firstGrowth
            }
            if secondWidened >= 0 {
                if position > secondWidened {
                    frame.x += secondGrowth
                } else if position == secondWidened {
                    frame.width += secondGrowth
                }
            }
        }
        if shift != 0 { frame.x += shift }
        return frame
    }
}

/// The tab bar's geometry: tab frames, the indicator and the bar's scroll offset, from the base
/// frames, the tab bar settings, the viewport width, the page count and the position (index,
/// transition, overscroll). It reads nothing about the pages, so the same computation serves
/// anyone who has the widths (a client holding a state document does).
///
/// The order is: tab frames (widened, aligned); the focus frame G the indicator follows (by the
/// tracking and style, or past an end); the indicator F, G less its inset; the bar's offset from
/// G; a progressive fill from F; and last the mirror of a right-to-left layout.
struct TabBarLayout {
    let geometry: TabGeometry
    let bar: TabBarSettings
    let viewportWidth: Double
    let count: Int
    let mirrored: Bool

    /// The layout of `count` tabs laid out as `geometry` with `bar`'s settings in a viewport
    /// `viewportWidth` wide, mirrored when right to left.
    init(geometry: TabGeometry, bar: TabBarSettings, viewportWidth: Double, count: Int, mirrored: Bool) {
        self.geometry = geometry
        self.bar = bar
        self.viewportWidth = viewportWidth
        self.count = count
        self.mirrored = mirrored
    }

    /// The layout of `count` tabs laid out as `geometry` with the tab bar settings, viewport
    /// width and layout direction of `settings`.
    init(geometry: TabGeometry, settings: SettingsBox, count: Int) {
        self.init(
            geometry: geometry, bar: settings.value.tabBar, viewportWidth: settings.value.viewportWidth, count: count,
            mirrored: settings.value.layoutDirection == .rtl)
    }

    /// Whether the selected tab's width changes the frames (so no tab's frame is the same in
    /// every state).
    var widensSelected: Bool { bar.selectedTabWidth != nil && geometry.isScrollable }

    /// The frames with `highlight`.
    func strip(_ highlight: TabHighlight) -> TabStrip {
        TabStrip(geometry: geometry, bar: bar, viewportWidth: viewportWidth, highlight: highlight)
    }

    /// The state of the bar with no tab selected (no pages).
    var restingBar: TabBarState {
        let strip = strip(TabHighlight())
        return TabBarState(
            layout: bar.layout, contentWidth: strip.contentWidth, offset: 0, effectiveLayout: effectiveLayout)
    }

    /// `effectiveLayout` as reported: only while the setting is `auto`.
    var effectiveLayout: TabLayout? { bar.layout == .auto ? geometry.layout : nil }

    /// The frame of tab `position` in `strip`, as reported (mirrored right to left).
    func reportedFrame(_ position: Int, in strip: TabStrip) -> Frame {
        mirror(strip.frame(position, in: geometry), in: strip)
    }

    /// The width tab `position` has when not selected, reported while the selected tab is widened.
    func baseWidth(_ position: Int) -> Double? { widensSelected ? geometry.frame(position).width : nil }

    /// How tab `position` looks in `strip` with `highlight`: its frame as reported, its base
    /// width, its selection, whether it is the selected one, and its title's colour and scale
    /// when titles are styled.
    func look(_ position: Int, highlight: TabHighlight, strip: TabStrip) -> TabLook {
        let selection = highlight.selection(of: position)
        let title = bar.title
        return TabLook(
            frame: reportedFrame(position, in: strip), baseWidth: baseWidth(position), selection: selection,
            selected: position == highlight.selected,
            color: title.map { $0.color.mixed(with: $0.selectedColor, selection) },
            scale: title.map { $0.scale + ($0.selectedScale - $0.scale) * selection })
    }

    /// The indicator and the bar's state on `current` with `transition` or `overscroll` in flight
    /// (`shift` is the overscroll's displacement in strides, δ), with the frames of `strip`.
    func indicatorAndBar(
        current: Int, transition: Transition?, overscroll: (edge: Edge, shift: Double)?, strip: TabStrip
    ) -> (indicator: Indicator, tabBar: TabBarState) {
        let (indicator, offset) = placed(current: current, transition: transition, overscroll: overscroll, strip: strip)
        return (
            indicator,
            TabBarState(
                layout: bar.layout, contentWidth: strip.contentWidth, offset: offset, effectiveLayout: effectiveLayout)
        )
    }

    /// The indicator and the bar's offset at rest on `position`, as a keyframe reports them.
    func keyframe(at position: Int) -> (indicator: Indicator, tabBarOffset: Double) {
        let strip = strip(TabHighlight.atRest(position))
        return placed(current: position, transition: nil, overscroll: nil, strip: strip)
    }

    /// The reported indicator and bar offset: F (progressive when set) and the offset from G,
    /// mirrored right to left.
    private func placed(
        current: Int, transition: Transition?, overscroll: (edge: Edge, shift: Double)?, strip: TabStrip
    ) -> (Indicator, Double) {
        let (focus, placed) = indicator(current: current, transition: transition, overscroll: overscroll, strip: strip)
        let offset = barOffset(for: focus, in: strip)
        var indicator = placed
        if bar.indicatorProgressive {
            // The fill runs from where the tabs start (Δ, 0 unless aligned) to F's right edge,
            // and is empty when that edge is before it (an inset wider than a tab pulled past
            // the start).
            let right = placed.x + placed.width
            let start = strip.shift
            let piece = min(right, strip.contentWidth) - start
            indicator = Indicator(
                x: start, width: max(0, right - start), height: placed.height,
                segments: IndicatorGeometry.shows(piece) ? [Frame(x: start, width: piece)] : [],
                alpha: placed.alpha)
        }
        return (mirror(indicator, in: strip), mirrorOffset(offset, in: strip))
    }

    /// G, the frame the indicator follows, and the indicator F with its segments, left to right:
    /// at rest on `current`, between tabs during `transition` by the tracking and style, or past
    /// an end.
    private func indicator(
        current: Int, transition: Transition?, overscroll: (edge: Edge, shift: Double)?, strip: TabStrip
    ) -> (focus: Frame, indicator: Indicator) {
        let height = bar.indicatorHeight
        let inset = bar.indicatorInset
        if let transition {
            switch bar.indicatorTracking {
            case .continuous where bar.indicatorStyle == .fade:
                let shown = transition.progress >= 0.5 - 1e-9 ? transition.to : transition.from
                return rest(shown, strip: strip, alpha: abs(1 - 2 * transition.progress))
            case .continuous:
                let contentWidth = strip.contentWidth
                var target = strip.frame(transition.to, in: geometry)
                // Across a loop's seam the target is taken one period away, so the indicator keeps
                // moving the way the page moves.
                if transition.direction == .forward, transition.to < transition.from { target.x += contentWidth }
                if transition.direction == .reverse, transition.to > transition.from { target.x -= contentWidth }
                let progress = transition.progress
                let focus = IndicatorGeometry.interpolate(
                    from: strip.frame(current, in: geometry), to: target, progress: progress, style: bar.indicatorStyle)
                var frame = focus
                if !inset.isZero {
                    let lerp = IndicatorGeometry.lerp
                    frame = IndicatorGeometry.inset(
                        focus,
                        leading: lerp(inset.leadingInset(at: current), inset.leadingInset(at: transition.to), progress),
                        trailing: lerp(
                            inset.trailingInset(at: current, of: count),
                            inset.trailingInset(at: transition.to, of: count),
                            progress))
                }
                return (
                    focus,
                    Indicator(
                        x: frame.x, width: frame.width, height: height,
                        segments: IndicatorGeometry.segments(of: frame, contentWidth: contentWidth))
                )
            case .halfway:
                return rest(transition.progress >= 0.5 - 1e-9 ? transition.to : transition.from, strip: strip)
            case .settled:
                return rest(current, strip: strip)
            }
        }
        if let overscroll, bar.indicatorTracking == .continuous {
            let resting = strip.frame(current, in: geometry)
            let shift = overscroll.shift
            let focus: Frame
            switch (bar.indicatorOverscroll, overscroll.edge) {
            case (.none, _): focus = resting
            case (.bounce, _): focus = Frame(x: resting.x + shift * resting.width, width: resting.width)
            case (.compress, .end):
                focus = Frame(x: resting.x + shift * resting.width, width: resting.width * (1 - shift))
            case (.compress, .start): focus = Frame(x: resting.x, width: resting.width * (1 + shift))
            }
            let frame = insetFrame(focus, of: current)
            // One piece clipped to the bar, none when nothing wider than a sliver is inside: never
            // a wrapped piece.
            let segments = IndicatorGeometry.clippedSegment(of: frame, contentWidth: strip.contentWidth)
            return (focus, Indicator(x: frame.x, width: frame.width, height: height, segments: segments))
        }
        return rest(current, strip: strip)
    }

    /// The rest frame of tab `position` as G, and the indicator on it, with `alpha`.
    private func rest(_ position: Int, strip: TabStrip, alpha: Double = 1) -> (focus: Frame, indicator: Indicator) {
        let focus = strip.frame(position, in: geometry)
        guard !bar.indicatorInset.isZero else {
            return (
                focus,
                Indicator(
                    x: focus.x, width: focus.width, height: bar.indicatorHeight,
                    segments: IndicatorGeometry.shows(focus.width) ? [focus] : [], alpha: alpha)
            )
        }
        let frame = insetFrame(focus, of: position)
        return (
            focus,
            Indicator(
                x: frame.x, width: frame.width, height: bar.indicatorHeight,
                segments: IndicatorGeometry.shows(frame.width) ? [frame] : [], alpha: alpha)
        )
    }

    /// `focus` less tab `position`'s indicator inset.
    private func insetFrame(_ focus: Frame, of position: Int) -> Frame {
        let inset = bar.indicatorInset
        guard !inset.isZero else { return focus }
        return IndicatorGeometry.inset(
            focus, leading: inset.leadingInset(at: position), trailing: inset.trailingInset(at: position, of: count))
    }

    /// A scrollable bar's offset for the focus frame, by the selected scroll position; 0 for
    /// other layouts.
    private func barOffset(for focus: Frame, in strip: TabStrip) -> Double {
        guard geometry.isScrollable else { return 0 }
        return IndicatorGeometry.tabBarOffset(
            for: focus, position: bar.selectedScrollPosition, inset: bar.inset, viewportWidth: viewportWidth,
            contentWidth: strip.contentWidth)
    }

    // MARK: - Right to left

    /// A frame as reported: mirrored in a bar of the content width when right to left.
    private func mirror(_ frame: Frame, in strip: TabStrip) -> Frame {
        guard mirrored else { return frame }
        return Frame(x: strip.contentWidth - frame.x - frame.width, width: frame.width)
    }

    /// An indicator as reported: its frame and each segment mirrored, the segments in the same
    /// order.
    private func mirror(_ indicator: Indicator, in strip: TabStrip) -> Indicator {
        guard mirrored else { return indicator }
        let frame = mirror(Frame(x: indicator.x, width: indicator.width), in: strip)
        return Indicator(
            x: frame.x, width: frame.width, height: indicator.height,
            segments: indicator.segments.map { mirror($0, in: strip) }, alpha: indicator.alpha)
    }

    /// A scrollable bar's offset as reported: o′ = max(0, C − W) − o when right to left.
    private func mirrorOffset(_ offset: Double, in strip: TabStrip) -> Double {
        guard mirrored, geometry.isScrollable else { return offset }
        return max(0, strip.contentWidth - viewportWidth) - offset
    }
}
