/// A pager as described in a create request or a template: pages, initial page, settings and
/// catalog.
public struct PagerDefinition: Sendable, Equatable {
    public var pages: [Page]
    public var initialPage: Pager.InitialPage?
    public var settings: PagerSettings
    public var catalog: [Page]

    /// Creates a definition from values.
    public init(pages: [Page], initialPage: Pager.InitialPage?, settings: PagerSettings, catalog: [Page]) {
        self.pages = pages
        self.initialPage = initialPage
        self.settings = settings
        self.catalog = catalog
    }

    /// Builds the pager, applying every rule and limit.
    public func makePager(limits: PagerLimits, now: Int64 = 0) throws(PagerError) -> Pager {
        try Pager(
            pages: pages, initialPage: initialPage, settings: settings, catalog: catalog, limits: limits, now: now)
    }
}
