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

/// Every tab's frame, computed once when pages or settings change so that reading one frame is
/// O(1): fixed tabs by formula, scrollable tabs from prefix sums.
struct TabGeometry: Sendable, Equatable {
    enum Storage: Equatable {
        case none
        case fixed(width: Double, inset: Double, spacing: Double)
        case scrollable(xs: [Double], widths: [Double])
    }

    let storage: Storage
    /// The tab bar's content width.
    let contentWidth: Double

    /// The frame of tab `index`; the index must be valid.
    func frame(_ index: Int) -> Frame {
        switch storage {
        case .none: Frame(x: 0, width: 0)
        case .fixed(let width, let inset, let spacing):
            Frame(x: inset + Double(index) * (width + spacing), width: width)
        case .scrollable(let xs, let widths): Frame(x: xs[index], width: widths[index])
        }
    }

    /// Whether there is a tab bar at all.
    var hasTabs: Bool { storage != .none }

    /// Lays out `pages` with `settings`; a fixed layout whose tabs would not be wider than 0 is refused.
    static func make(pages: [Page], settings: PagerSettings) throws(PagerError) -> TabGeometry {
        let bar = settings.tabBar
        let count = pages.count
        switch bar.layout {
        case .none:
            return TabGeometry(storage: .none, contentWidth: 0)
        case .fixed:
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
        case .scrollable:
            guard count > 0 else { return TabGeometry(storage: .scrollable(xs: [], widths: []), contentWidth: 0) }
            var xs: [Double] = []
            var widths: [Double] = []
            xs.reserveCapacity(count)
            widths.reserveCapacity(count)
            var x = bar.inset
            for page in pages {
                let width = page.tabWidth ?? estimatedWidth(of: page.title, bar: bar)
                xs.append(x)
                widths.append(width)
                x += width + bar.spacing
            }
            let contentWidth = xs[count - 1] + widths[count - 1] + bar.inset
            return TabGeometry(storage: .scrollable(xs: xs, widths: widths), contentWidth: contentWidth)
        }
    }

    /// max(minTabWidth, 2·tabPadding + charWidth·u(title)).
    static func estimatedWidth(of title: String, bar: TabBarSettings) -> Double {
        max(bar.minTabWidth, 2 * bar.tabPadding + bar.charWidth * Double(DisplayWidth.cells(title)))
    }
}
