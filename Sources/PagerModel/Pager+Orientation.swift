extension Pager {
    // SPEC §5.1 and §5.2: everything is computed left to right and horizontal first; a
    // right-to-left pager then mirrors the physical values it reports, and a vertical one
    // measures pages by the viewport's height. The logical model (index, progress, directions,
    // edges) is the same in every layout.
    //
    // With one page per viewport and no gap (the defaults) pages are measured by the viewport's
    // extent, as these functions always did; otherwise by the stride of a ``PageStrip``.

    /// The page extent E: W horizontally, H vertically.
    var pageExtent: Double {
        settings.orientation == .vertical ? settings.viewportHeight : settings.viewportWidth
    }

    /// How pages sit along the page axis.
    var pageStrip: PageStrip { PageStrip(settings: settings, count: pages.count) }

    /// Whether horizontal page offsets are mirrored (right to left and horizontal).
    var mirrorsPages: Bool { settings.layoutDirection == .rtl && settings.orientation == .horizontal }

    /// The reported page offset for the unmirrored position `logical` (in pages, c + σ·f), with
    /// one page per viewport.
    func reportedPageOffset(_ logical: Double) -> Double {
        let offset = logical * pageExtent
        guard mirrorsPages else { return offset }
        return Double(pages.count - 1) * settings.viewportWidth - offset
    }

    /// The reported page offset for the unmirrored `offset` of `strip`: R − offset when mirrored.
    func reportedPageOffset(_ offset: Double, in strip: PageStrip) -> Double {
        guard mirrorsPages else { return offset }
        return strip.mirrorSum - offset
    }

    /// Signed progress from an `offset` scroll input: physical, from the content's start.
    func progress(fromOffset offset: Double, current: Int) -> Double {
        guard settings.hasOnePagePerView else {
            let strip = pageStrip
            return strip.progress(fromOffset: mirrorsPages ? strip.mirrorSum - offset : offset, current: current)
        }
        let extent = pageExtent
        guard mirrorsPages else { return offset / extent - Double(current) }
        return (Double(pages.count - 1) * extent - offset) / extent - Double(current)
    }

    /// Signed progress from a `windowOffset` scroll input (a paging scroll view, one stride at
    /// rest).
    func progress(fromWindowOffset offset: Double) -> Double {
        let extent = settings.hasOnePagePerView ? pageExtent : pageStrip.stride
        return mirrorsPages ? (extent - offset) / extent : (offset - extent) / extent
    }
}
