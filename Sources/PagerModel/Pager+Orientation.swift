extension Pager {
    // SPEC §5.1 and §5.2: everything is computed left to right and horizontal first; a
    // right-to-left pager then mirrors the physical values it reports, and a vertical one
    // measures pages by the viewport's height. The logical model (index, progress, directions,
    // edges) is the same in every layout. The page axis's geometry is the ``PageStrip``'s.

    /// How pages sit along the page axis.
    var pageStrip: PageStrip { PageStrip(settings: settings, count: pages.count) }

    /// Signed progress from an `offset` scroll input: physical, from the content's start.
    func progress(fromOffset offset: Double, current: Int) -> Double {
        pageStrip.progress(fromOffset: offset, current: current)
    }

    /// Signed progress from a `windowOffset` scroll input (a paging scroll view, one stride at
    /// rest).
    func progress(fromWindowOffset offset: Double) -> Double { pageStrip.progress(fromWindowOffset: offset) }
}
