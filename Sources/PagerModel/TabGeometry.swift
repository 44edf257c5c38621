/// A horizontal frame in points.
public struct Frame: Sendable, Equatable {
    /// The left edge.
    public var x: Double
    /// The width.
    public var width: Double

    /// Creates a frame.
    public init(x: Double, width: Double) {
        self.x = x
        self.width = width
    }

    /// The right edge.
    public var maxX: Double { x + width }
}

/// Every tab's frame before the selection widens one and the alignment shifts them, computed
/// once when pages or settings change so that reading one frame is O(1): fixed tabs by formula,
/// scrollable tabs from prefix sums. The layout `auto` is resolved here, to `fixed` or
/// `scrollable`.
///
/// Only ``make(pages:settings:)`` reads the pages (their titles and tab widths); everything after
/// it works from the widths alone, so ``make(layout:widths:settings:)`` with the widths a state
/// document reports lays the bar out the same way.
struct TabGeometry: Sendable, Equatable {
    enum Storage: Equatable {
        case none
        case fixed(width: Double, inset: Double, spacing: Double)
        /// Each tab's frame, in order (one array, so a copy of the geometry retains one buffer).
        case scrollable(frames: [Frame])
    }

    let storage: Storage
    /// The tab bar's content width, C_0: the last tab's right edge plus the inset.
    let contentWidth: Double

    /// The frame of tab `index`; the index must be valid.
    func frame(_ index: Int) -> Frame {
        switch storage {
        case .none: Frame(x: 0, width: 0)
        case .fixed(let width, let inset, let spacing):
            Frame(x: inset + Double(index) * (width + spacing), width: width)
        case .scrollable(let frames): frames[index]
        }
    }

    /// Whether there is a tab bar at all.
    var hasTabs: Bool { storage != .none }

    /// The layout in effect: `fixed`, `scrollable` or `none`, never `auto`.
    var layout: TabLayout {
        switch storage {
        case .none: .none
        case .fixed: .fixed
        case .scrollable: .scrollable
        }
    }

    /// Whether the bar scrolls (its layout in effect is `scrollable`).
    var isScrollable: Bool {
        if case .scrollable = storage { return true }
        return false
    }

    /// Lays out `pages` with `settings`; a fixed layout whose tabs would not be wider than 0 is refused.
    static func make(pages: [Page], settings: PagerSettings) throws(PagerError) -> TabGeometry {
        let bar = settings.tabBar
        switch bar.layout {
        case .none:
            return TabGeometry(storage: .none, contentWidth: 0)
        case .fixed:
            return try fixed(count: pages.count, settings: settings)
        case .scrollable, .auto:
            var frames: [Frame] = []
            frames.reserveCapacity(pages.count)
            var x = bar.inset
            for page in pages {
                // The title and width are passed, not the page: passing a page copies all of it.
                let width = scrollableWidth(tabWidth: page.tabWidth, title: page.title, bar: bar)
                frames.append(Frame(x: x, width: width))
                x += width + bar.spacing
            }
            return try settle(bar.layout, frames: frames, settings: settings)
        }
    }

    /// Lays out tabs whose scrollable widths are `widths` (each page's `tabWidth`, or its bounded
    /// estimate) in `layout`, as ``make(pages:settings:)`` does once it has the widths: a client
    /// that has them (a state document reports them) lays the bar out the same way. A fixed bar
    /// uses only their count.
    static func make(layout: TabLayout, widths: [Double], settings: PagerSettings) throws(PagerError) -> TabGeometry {
        let bar = settings.tabBar
        switch layout {
        case .none:
            return TabGeometry(storage: .none, contentWidth: 0)
        case .fixed:
            return try fixed(count: widths.count, settings: settings)
        case .scrollable, .auto:
            var frames: [Frame] = []
            frames.reserveCapacity(widths.count)
            var x = bar.inset
            for width in widths {
                frames.append(Frame(x: x, width: width))
                x += width + bar.spacing
            }
            return try settle(layout, frames: frames, settings: settings)
        }
    }

    /// The geometry of scrollable tabs at `frames` (one after another from the inset) in
    /// `layout`, `scrollable` or `auto`: automatic tabs are fixed when the widest fits an equal
    /// share of the bar (an empty bar is an empty fixed one).
    private static func settle(
        _ layout: TabLayout, frames: [Frame], settings: PagerSettings
    ) throws(PagerError) -> TabGeometry {
        let bar = settings.tabBar
        let count = frames.count
        if layout == .auto {
            guard count > 0 else { return try fixed(count: 0, settings: settings) }
            let share = (settings.viewportWidth - 2 * bar.inset - bar.spacing * Double(count - 1)) / Double(count)
            if share > 0, frames.allSatisfy({ $0.width <= share + 1e-9 }) {
                return try fixed(count: count, settings: settings)
            }
        }
        guard let last = frames.last else { return TabGeometry(storage: .scrollable(frames: []), contentWidth: 0) }
        return TabGeometry(storage: .scrollable(frames: frames), contentWidth: last.x + last.width + bar.inset)
    }

    /// Equal shares of the viewport: w = (W − 2e − s·(n − 1)) / n, refused when not wider than 0.
    private static func fixed(count: Int, settings: PagerSettings) throws(PagerError) -> TabGeometry {
        let bar = settings.tabBar
        let W = settings.viewportWidth
        guard count > 0 else {
            return TabGeometry(storage: .fixed(width: 0, inset: bar.inset, spacing: bar.spacing), contentWidth: W)
        }
        let width = (W - 2 * bar.inset - bar.spacing * Double(count - 1)) / Double(count)
        guard width > 0, width.isFinite else {
            throw .invalid(
                field: "tabBar",
                "With \(count) fixed tabs, spacing \(bar.spacing) and inset \(bar.inset) in a viewport of \(W) points, each tab would be \(width) points wide; it must be wider than 0."
            )
        }
        return TabGeometry(storage: .fixed(width: width, inset: bar.inset, spacing: bar.spacing), contentWidth: W)
    }

    /// A page's tab in a scrollable bar: its `tabWidth` as given, else the estimate from its
    /// title bounded by `minTabWidth` and `maxTabWidth`.
    static func scrollableWidth(tabWidth: Double?, title: String, bar: TabBarSettings) -> Double {
        if let tabWidth { return tabWidth }
        let estimate = estimatedWidth(of: title, bar: bar)
        guard let bound = bar.maxTabWidth else { return estimate }
        return min(bound, estimate)
    }

    /// max(minTabWidth, 2·tabPadding + charWidth·u(title)).
    static func estimatedWidth(of title: String, bar: TabBarSettings) -> Double {
        max(bar.minTabWidth, 2 * bar.tabPadding + bar.charWidth * Double(DisplayWidth.cells(title)))
    }
}
