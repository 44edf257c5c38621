extension Pager {
    // SPEC §5.1 and §5.2: everything is computed left to right and horizontal first; a
    // right-to-left pager then mirrors the physical values it reports, and a vertical one
    // measures pages by the viewport's height. The logical model (index, progress, directions,
    // edges) is the same in every layout.

    /// The page extent E: W horizontally, H vertically.
    var pageExtent: Double {
        settings.orientation == .vertical ? settings.viewportHeight : settings.viewportWidth
    }

    /// Whether horizontal page offsets are mirrored (right to left and horizontal).
    var mirrorsPages: Bool { settings.layoutDirection == .rtl && settings.orientation == .horizontal }

    /// Whether the tab bar is mirrored.
    var mirrorsTabBar: Bool { settings.layoutDirection == .rtl }

    /// The reported page offset for the unmirrored position `logical` (in pages, c + σ·f).
    func reportedPageOffset(_ logical: Double) -> Double {
        let offset = logical * pageExtent
        guard mirrorsPages else { return offset }
        return Double(pages.count - 1) * settings.viewportWidth - offset
    }

    /// Signed progress from an `offset` scroll input: physical, from the content's start.
    func progress(fromOffset offset: Double, current: Int) -> Double {
        let extent = pageExtent
        guard mirrorsPages else { return offset / extent - Double(current) }
        return (Double(pages.count - 1) * extent - offset) / extent - Double(current)
    }

    /// Signed progress from a `windowOffset` scroll input (a paging scroll view, E at rest).
    func progress(fromWindowOffset offset: Double) -> Double {
        let extent = pageExtent
        return mirrorsPages ? (extent - offset) / extent : (offset - extent) / extent
    }

    /// A tab-bar frame as reported: mirrored in a bar of the content width when right to left.
    func reportedFrame(_ frame: Frame) -> Frame {
        guard mirrorsTabBar else { return frame }
        return Frame(x: geometry.contentWidth - frame.x - frame.width, width: frame.width)
    }

    /// An indicator as reported: its frame and each segment mirrored, the segments in the same
    /// order.
    func reportedIndicator(_ indicator: Indicator) -> Indicator {
        guard mirrorsTabBar else { return indicator }
        let frame = reportedFrame(Frame(x: indicator.x, width: indicator.width))
        return Indicator(
            x: frame.x, width: frame.width, height: indicator.height, segments: indicator.segments.map(reportedFrame),
            alpha: indicator.alpha)
    }

    /// A scrollable tab bar's offset as reported: o′ = max(0, C − W) − o when right to left.
    func reportedBarOffset(_ offset: Double) -> Double {
        guard mirrorsTabBar, settings.tabBar.layout == .scrollable else { return offset }
        return max(0, geometry.contentWidth - settings.viewportWidth) - offset
    }
}
