/// What happens past the last page.
public enum PagerMode: String, Sendable, CaseIterable {
    /// Stops at the first and the last page.
    case bounded
    /// After the last page comes the first, and before the first the last.
    case loop
}

/// How tabs are laid out.
public enum TabLayout: String, Sendable, CaseIterable {
    /// Equal widths filling the viewport.
    case fixed
    /// Per-tab widths in a bar that scrolls.
    case scrollable
    /// No tab bar.
    case none
    /// `fixed` when every tab's scrollable width fits an equal share of the bar, `scrollable`
    /// otherwise (Material's automatic mode), decided whenever the tabs are laid out.
    case auto
}

/// Where something sits along the tab bar: at its leading edge, centred, or at its trailing edge.
/// Leading is the left in a left-to-right layout and the right in a right-to-left one.
public enum TabBarPosition: String, Sendable, CaseIterable {
    case leading
    case center
    case trailing
}

/// How much narrower the indicator is than the frame it follows, on each side. Leading and
/// trailing are logical sides: mirrored right to left.
public struct IndicatorInset: Sendable, Equatable {
    /// Taken off the leading side of every tab's frame.
    public var leading = 0.0
    /// Taken off the trailing side of every tab's frame.
    public var trailing = 0.0
    /// Taken off the leading side of the first tab's frame, when more than `leading`.
    public var firstLeading = 0.0
    /// Taken off the trailing side of the last tab's frame, when more than `trailing`.
    public var lastTrailing = 0.0

    /// No inset.
    public init() {}

    /// Whether every member is 0: the indicator is the frame it follows.
    public var isZero: Bool { leading == 0 && trailing == 0 && firstLeading == 0 && lastTrailing == 0 }

    /// What is taken off the leading side of tab `position`.
    public func leadingInset(at position: Int) -> Double { position == 0 ? max(leading, firstLeading) : leading }

    /// What is taken off the trailing side of tab `position` of `count`.
    public func trailingInset(at position: Int, of count: Int) -> Double {
        position == count - 1 ? max(trailing, lastTrailing) : trailing
    }
}

/// How the indicator moves between tabs.
public enum IndicatorStyle: String, Sendable, CaseIterable {
    /// Position and width interpolate linearly.
    case linear
    /// The leading edge leads and the trailing edge follows, so the indicator stretches.
    case elastic
    /// It stays on a tab and fades out and in: the current tab's frame until half way, then the
    /// target's, with alpha |1 − 2f| (docs/api.md, «Tab rendering»).
    case fade
}

/// Which way a page move goes.
public enum Direction: String, Sendable, CaseIterable {
    /// Toward higher indexes (or across the seam to 0 in a loop).
    case forward
    /// Toward lower indexes.
    case reverse

    /// +1 forward, −1 reverse.
    public var sign: Double { self == .forward ? 1 : -1 }
}

/// Which way the tab bar and horizontal pages are laid out (docs/api.md, «Right to left»).
public enum LayoutDirection: String, Sendable, CaseIterable {
    /// Left to right.
    case ltr
    /// Right to left: the physical geometry is mirrored; the logical model is unchanged.
    case rtl
}

/// The axis pages move along (docs/api.md, «Vertical pagers»); the tab bar is always horizontal.
public enum Orientation: String, Sendable, CaseIterable {
    case horizontal
    case vertical
}

/// The directions a user may swipe (docs/api.md, «Swipe lock»); commands are never locked.
public enum SwipeLock: String, Sendable, CaseIterable {
    case both
    case forward
    case reverse
    case none

    /// Whether a swipe toward `direction` is allowed.
    public func allows(_ direction: Direction) -> Bool {
        switch self {
        case .both: true
        case .forward: direction == .forward
        case .reverse: direction == .reverse
        case .none: false
        }
    }
}

/// How a swipe past an end is shown (docs/api.md, «Overscroll and the trailing action»).
public enum RubberBandStyle: String, Sendable, CaseIterable {
    /// No overscroll: a swipe past an end is a rest state (docs/api.md, «Swipes»).
    case none
    /// The page follows the finger: D = d.
    case linear
    /// The page follows with resistance: D = max(0, d^ratio − 1).
    case resistance
}

/// The rubber band past the ends.
public struct RubberBand: Sendable, Equatable {
    public var style = RubberBandStyle.none
    /// The exponent of `resistance`, in (0, 1].
    public var ratio = 0.85

    /// The defaults docs/api.md gives («Settings»).
    public init() {}
}

/// How the indicator shows an overscroll (docs/api.md, «Overscroll and the trailing action»).
public enum IndicatorOverscroll: String, Sendable, CaseIterable {
    /// It stays at rest.
    case none
    /// It moves with the page.
    case bounce
    /// It shrinks against the edge's far side.
    case compress
}

/// How the indicator follows a transition (docs/api.md, «Indicator tracking»).
public enum IndicatorTracking: String, Sendable, CaseIterable {
    /// It moves with the progress (docs/api.md, «The indicator»).
    case continuous
    /// It jumps to the target tab at half way.
    case halfway
    /// It moves only when the index changes.
    case settled
}

/// Which end of a bounded pager a move or a scroll met.
public enum Edge: String, Sendable, CaseIterable {
    case start
    case end
}

/// The tab bar's settings.
public struct TabBarSettings: Sendable, Equatable {
    public var layout: TabLayout = .fixed
    /// Gap between tabs, s.
    public var spacing: Double = 0
    /// Leading and trailing inset, e.
    public var inset: Double = 0
    /// Narrowest estimated scrollable tab.
    public var minTabWidth: Double = 48
    /// Padding on each side of an estimated title.
    public var tabPadding: Double = 16
    /// Width of one title cell.
    public var charWidth: Double = 8
    public var indicatorStyle: IndicatorStyle = .linear
    /// How the indicator shows an overscroll.
    public var indicatorOverscroll = IndicatorOverscroll.none
    /// How the indicator follows a transition.
    public var indicatorTracking = IndicatorTracking.continuous
    /// Whether the indicator fills from the bar's start to the current position (docs/api.md, «Tab rendering»).
    public var indicatorProgressive = false
    /// Title colours and scales; nil reports none.
    public var title: TitleStyle?
    /// Reported as is.
    public var indicatorHeight: Double = 2
    /// Where the tabs sit in a scrollable bar whose content is narrower than the viewport.
    public var alignment = TabBarPosition.leading
    /// Where a scrollable bar scrolls the selected tab to.
    public var selectedScrollPosition = TabBarPosition.center
    /// How much narrower the indicator is than the tab it follows.
    public var indicatorInset = IndicatorInset()
    /// The widest estimated scrollable tab; nil for no bound.
    public var maxTabWidth: Double?
    /// The width of the selected tab in a scrollable bar (others keep theirs); nil for none.
    public var selectedTabWidth: Double?

    /// The defaults docs/api.md gives («Settings»).
    public init() {}
}

/// Everything about a pager other than its pages, position and transition.
public struct PagerSettings: Sendable, Equatable {
    public var mode: PagerMode = .bounded
    /// The page width W.
    public var viewportWidth: Double = 390
    /// The page height H, the page extent when vertical.
    public var viewportHeight: Double = 844
    /// How many pages the viewport shows along the page axis, k in [1, 100], fractions allowed.
    public var pagesPerView: Double = 1
    /// The gap between two pages along the page axis, g.
    public var pageSpacing: Double = 0
    /// Whether the current page sits in the middle of the viewport with its neighbours peeking
    /// on both sides, rather than at its leading edge.
    public var pagesCentered = false
    /// Left to right, or mirrored.
    public var layoutDirection = LayoutDirection.ltr
    /// The axis pages move along.
    public var orientation = Orientation.horizontal
    /// The directions a user may swipe.
    public var swipe = SwipeLock.both
    /// The rubber band past the ends.
    public var rubberBand = RubberBand()
    /// The texts of the accessibility descriptors.
    public var accessibilityText = AccessibilityText()
    public var tabBar = TabBarSettings()
    /// Neighbours on each side returned with the state.
    public var preload: Int = 1
    /// What lies past the last page of a bounded pager, if anything.
    public var trailingAction: PagerAction?
    /// What to show with no pages.
    public var emptyState: EmptyState?
    /// The timer that moves the pager by itself.
    public var autoAdvance = AutoAdvanceSettings()
    /// How a swipe released with a velocity is decided (``Pager/release(velocity:)``).
    public var release = ReleaseSettings()
    /// Milliseconds after which a swipe nobody touches (or an interaction pause with nothing in
    /// flight) is given up; 0 never.
    public var dragTimeout = 15_000

    /// The defaults docs/api.md gives («Settings»).
    public init() {}

    /// The values `dragTimeout` takes besides 0 (never).
    public static let dragTimeoutRange = 1000...600_000

    /// The most pages `preload` may ask for on each side.
    public static let maxPreload = 100

    /// The most pages a viewport may show at once.
    public static let maxPagesPerView = 100.0

    /// Whether pages are laid out one per viewport with no gap (every page setting at its
    /// default but perhaps `pagesCentered`, which then changes nothing): the page geometry of
    /// one page per viewport.
    public var hasOnePagePerView: Bool { pagesPerView == 1 && pageSpacing == 0 }

    /// Whether any page layout setting differs from its default (the state then reports them).
    public var reportsPageLayout: Bool { pagesPerView != 1 || pageSpacing != 0 || pagesCentered }

    /// Checks the numeric rules of «Tab geometry» (the fixed-width rule needs the page count: see `Pager`).
    public func validate() throws(PagerError) {
        try Page.validatePositive(viewportWidth, field: "viewport.width")
        try Page.validatePositive(viewportHeight, field: "viewport.height")
        guard pagesPerView.isFinite, pagesPerView >= 1, pagesPerView <= Self.maxPagesPerView else {
            throw .invalid(field: "viewport.pagesPerView", "Must be a number from 1 to \(Int(Self.maxPagesPerView)).")
        }
        try Page.validateNonNegative(pageSpacing, field: "viewport.pageSpacing")
        let pageSize = PageStrip(settings: self, count: 0).pageSize
        guard pageSize > 0 else {
            throw .invalid(
                field: "viewport.pageSpacing",
                "With \(pagesPerView) pages per view and a spacing of \(pageSpacing), each page would be \(pageSize) points long; it must be longer than 0."
            )
        }
        guard rubberBand.ratio.isFinite, rubberBand.ratio > 0, rubberBand.ratio <= 1 else {
            throw .invalid(field: "rubberBand.ratio", "Must be a number in (0, 1].")
        }
        if let title = tabBar.title {
            for (value, field) in [
                (title.scale, "tabBar.title.scale"), (title.selectedScale, "tabBar.title.selectedScale"),
            ] {
                guard value.isFinite, value > 0, value <= TitleStyle.maxScale else {
                    throw .invalid(field: field, "Must be a number in (0, \(Int(TitleStyle.maxScale))].")
                }
            }
        }
        try accessibilityText.validate(field: "accessibilityText")
        try autoAdvance.validate()
        guard release.flickVelocity.isFinite, release.flickVelocity > 0,
            release.flickVelocity <= ReleaseSettings.maxFlickVelocity
        else {
            throw .invalid(
                field: "release.flickVelocity",
                "Must be a number in (0, \(Int(ReleaseSettings.maxFlickVelocity))], in pages per second.")
        }
        guard dragTimeout == 0 || Self.dragTimeoutRange.contains(dragTimeout) else {
            throw .invalid(
                field: "dragTimeout",
                "Must be 0 (never) or an integer from \(Self.dragTimeoutRange.lowerBound) to \(Self.dragTimeoutRange.upperBound) ms."
            )
        }
        if tabBar.indicatorProgressive, mode == .loop {
            throw .invalid(
                field: "tabBar.indicator.progressive", "A progressive indicator does not combine with a loop.")
        }
        try Page.validatePositive(tabBar.minTabWidth, field: "tabBar.minTabWidth")
        if let maxTabWidth = tabBar.maxTabWidth {
            try Page.validatePositive(maxTabWidth, field: "tabBar.maxTabWidth")
            // Like every comparison of group L's that picks a case, within 1e-9.
            guard maxTabWidth >= tabBar.minTabWidth - 1e-9 else {
                throw .invalid(
                    field: "tabBar.maxTabWidth",
                    "The widest tab (\(maxTabWidth)) must not be narrower than the narrowest (\(tabBar.minTabWidth)).")
            }
        }
        if let selectedTabWidth = tabBar.selectedTabWidth {
            try Page.validatePositive(selectedTabWidth, field: "tabBar.selectedTabWidth")
        }
        let inset = tabBar.indicatorInset
        for (value, field) in [
            (inset.leading, "tabBar.indicator.inset.leading"), (inset.trailing, "tabBar.indicator.inset.trailing"),
            (inset.firstLeading, "tabBar.indicator.inset.firstLeading"),
            (inset.lastTrailing, "tabBar.indicator.inset.lastTrailing"),
        ] {
            try Page.validateNonNegative(value, field: field)
        }
        try Page.validatePositive(tabBar.charWidth, field: "tabBar.charWidth")
        try Page.validatePositive(tabBar.indicatorHeight, field: "tabBar.indicator.height")
        for (value, field) in [
            (tabBar.spacing, "tabBar.spacing"), (tabBar.inset, "tabBar.inset"),
            (tabBar.tabPadding, "tabBar.tabPadding"),
        ] {
            try Page.validateNonNegative(value, field: field)
        }
        guard (0...Self.maxPreload).contains(preload) else {
            throw .invalid(field: "preload", "Must be an integer from 0 to \(Self.maxPreload).")
        }
        if let trailingAction { try trailingAction.validate(field: "trailingAction") }
        if let emptyState {
            try Page.validateTitle(emptyState.title, field: "emptyState.title")
            try emptyState.action?.validate(field: "emptyState.action")
        }
    }
}

extension PagerAction {
    func validate(field: String) throws(PagerError) {
        try Page.validateID(id, field: "\(field).id")
        try Page.validateTitle(title, field: "\(field).title")
    }
}

/// How a released swipe is decided from the finger's velocity.
public struct ReleaseSettings: Sendable, Equatable {
    /// F: a release at least this fast (pages per second) toward the target completes the swipe
    /// however far it went; one as fast away from it cancels it even past half way.
    public var flickVelocity = 0.5

    /// The defaults docs/api.md gives («Settings»).
    public init() {}

    /// The fastest flick velocity a setting may ask for.
    public static let maxFlickVelocity = 100.0
}
