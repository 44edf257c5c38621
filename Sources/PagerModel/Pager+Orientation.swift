extension Pager {
    // docs/api.md, «Right to left» and «Vertical pagers»: everything is computed left to right
    // and horizontal first; a right-to-left pager then mirrors the physical values it reports,
    // and a vertical one measures pages by the viewport's height. The logical model (index,
    // progress, directions, edges) is the same in every layout. The page axis's geometry is the ``PageStrip``'s; a
    // scroll input becomes progress in ``ScrollScene/progress(of:settings:count:current:)``.

    /// How pages sit along the page axis.
    var pageStrip: PageStrip { PageStrip(settings: settings, count: pages.count) }
}
