public import JSON

/// A swipe in flight: from the current page toward a neighbour.
public struct Transition: Sendable, Equatable {
    /// The current index, c.
    public var from: Int
    /// The target index, t.
    public var to: Int
    /// |p|, in [0, 1].
    public var progress: Double
    /// Which way the page moves.
    public var direction: Direction

    /// Creates a transition.
    public init(from: Int, to: Int, progress: Double, direction: Direction) {
        self.from = from
        self.to = to
        self.progress = progress
        self.direction = direction
    }
}

/// The complete state of one pager: pages, position, settings, the transition in flight and a
/// version. A pure value: every command returns a new pager and leaves this one as it was.
public struct Pager: Sendable, Equatable {
    /// The pages in order.
    public internal(set) var pages: [Page]
    /// The current index; nil when there are no pages.
    public internal(set) var index: Int?
    /// The settings.
    public internal(set) var settings: PagerSettings
    /// The swipe in flight, if any.
    public internal(set) var transition: Transition?
    /// Page definitions that can be inserted by id (from the template).
    public internal(set) var catalog: [Page]
    /// +1 on every change of state; 1 at creation.
    public internal(set) var version: Int
    /// The session data held, as budgets count it: ``sessionOverheadBytes`` plus every page's
    /// ``Page/storedBytes``. Kept up to date by each command in O(what it changed).
    public internal(set) var storedBytes: Int
    /// The tab frames for `pages` and `settings`.
    var geometry: TabGeometry

    /// Bytes counted for every session besides its pages: settings, geometry, the table entry.
    public static let sessionOverheadBytes = 1024

    /// Creates a pager, validating every page and setting.
    public init(
        pages: [Page], initialPage: InitialPage? = nil, settings: PagerSettings = PagerSettings(),
        catalog: [Page] = [], limits: PagerLimits = PagerLimits()
    ) throws(PagerError) {
        try settings.validate()
        try Self.validate(pages: pages, field: "pages", limits: limits)
        for (position, page) in catalog.enumerated() {
            try page.validate(field: "catalog[\(position)]", limits: limits)
        }
        self.pages = pages
        self.settings = settings
        self.catalog = catalog
        self.transition = nil
        self.version = 1
        self.storedBytes = pages.reduce(Self.sessionOverheadBytes) { $0 + $1.storedBytes }
        self.geometry = try TabGeometry.make(pages: pages, settings: settings)
        try checkBudget(limits, growing: true)
        switch initialPage {
        case nil:
            index = pages.isEmpty ? nil : 0
        case .index(let value):
            guard pages.indices.contains(value) else {
                throw .indexOutOfRange(
                    field: "initialPage", value, pages.isEmpty ? "an empty pager" : "0...\(pages.count - 1)")
            }
            index = value
        case .id(let id):
            guard let position = pages.firstIndex(where: { $0.id == id }) else {
                throw .pageNotFound(id, field: "initialPage")
            }
            index = position
        }
    }

    /// How the initial page is named.
    public enum InitialPage: Sendable, Equatable {
        case index(Int)
        case id(String)
    }

    /// The number of pages.
    public var count: Int { pages.count }

    /// Whether there are no pages.
    public var isEmpty: Bool { pages.isEmpty }

    /// Refuses a pager over its session budget, unless it did not grow (a lowered budget must
    /// not make a session's removals impossible).
    func checkBudget(_ limits: PagerLimits, growing: Bool) throws(PagerError) {
        guard growing, storedBytes > limits.sessionBudgetBytes else { return }
        throw PagerError(
            kind: .budgetExceeded, field: nil,
            detail: "The session would hold \(storedBytes) bytes of data; its budget is \(limits.sessionBudgetBytes).")
    }

    static func validate(pages: [Page], field: String, limits: PagerLimits) throws(PagerError) {
        guard pages.count <= limits.maxPages else {
            throw .limitExceeded(
                field: field, "A pager holds at most \(limits.maxPages) pages; \(pages.count) were given.")
        }
        var seen = Set<String>()
        seen.reserveCapacity(pages.count)
        for (position, page) in pages.enumerated() {
            try page.validate(field: "\(field)[\(position)]", limits: limits)
            guard seen.insert(page.id).inserted else {
                throw PagerError(
                    kind: .duplicatePageId, field: "\(field)[\(position)].id",
                    detail: "The id '\(page.id)' is used by more than one page.")
            }
        }
    }
}

// MARK: - Commands

/// A page to select by index or by id.
public enum PageReference: Sendable, Equatable {
    case index(Int)
    case id(String)
}

/// The way a jump goes round a loop.
public enum JumpPath: String, Sendable, CaseIterable {
    /// Toward the target without crossing the seam.
    case direct
    /// The shorter way round (a tie goes forward); in a bounded pager, the same as direct.
    case shortest
}

/// Where the finger is during a swipe, in one of three forms.
public enum ScrollInput: Sendable, Equatable {
    /// Signed progress p: + toward the next page.
    case progress(Double)
    /// Absolute content offset: p = offset/W − c.
    case offset(Double)
    /// UIPageViewController's scroll view offset, W at rest: p = (windowOffset − W)/W.
    case windowOffset(Double)
}

/// Changes to one page; nil members stay as they are.
public struct PageUpdate: Sendable, Equatable {
    /// A tab width change.
    public enum TabWidthChange: Sendable, Equatable {
        case keep
        case set(Double)
        /// Back to the estimate from the title.
        case clear
    }

    public var title: String?
    /// New content, measured when set (while the request is decoded).
    public var content: JSONObject? {
        get { newContent?.content }
        set { newContent = newValue.map { ($0, ContentMeasure($0)) } }
    }
    var newContent: (content: JSONObject, measure: ContentMeasure)?
    public var tabWidth: TabWidthChange
    /// Moves the page to this index, keeping the current page current.
    public var moveTo: Int?

    /// Creates an update.
    public init(title: String? = nil, content: JSONObject? = nil, tabWidth: TabWidthChange = .keep, moveTo: Int? = nil)
    {
        self.title = title
        self.newContent = content.map { ($0, ContentMeasure($0)) }
        self.tabWidth = tabWidth
        self.moveTo = moveTo
    }

    public static func == (lhs: PageUpdate, rhs: PageUpdate) -> Bool {
        lhs.title == rhs.title && lhs.newContent?.measure == rhs.newContent?.measure
            && lhs.newContent?.content == rhs.newContent?.content && lhs.tabWidth == rhs.tabWidth
            && lhs.moveTo == rhs.moveTo
    }
}

/// Everything a client can ask a pager to do.
public enum PagerCommand: Sendable, Equatable {
    case next
    case previous
    case select(PageReference, path: JumpPath)
    case scroll(ScrollInput)
    case beginTransition(to: Int)
    case endTransition(completed: Bool)
    case insert(Page, at: Int?)
    case insertFromCatalog(id: String, at: Int?)
    case remove(pageID: String)
    case update(pageID: String, PageUpdate)
    case replacePages([Page])
    case push(pageID: String, Screen)
    case pop(pageID: String, toRoot: Bool)
    case updateSettings(PagerSettings)
}

/// One step of an animated jump.
public struct Keyframe: Sendable, Equatable {
    /// The page reached at this step.
    public var index: Int
    /// The page offset at rest on it.
    public var pageOffset: Double
    /// The indicator at rest on it; nil without a tab bar.
    public var indicator: Indicator?
    /// The tab bar's offset at rest on it.
    public var tabBarOffset: Double
}

/// What a command did: the new pager and what the response reports about the move.
public struct PagerOutcome: Sendable, Equatable {
    /// The pager after the command; its version is one higher when anything changed.
    public var pager: Pager
    /// For next, previous, select (and a transition's end): whether the index changed.
    public var moved: Bool?
    /// The end of a bounded pager that the move or scroll met.
    public var edge: Edge?
    /// For select: one keyframe per step, excluding the start and including the target.
    public var keyframes: [Keyframe]?
    /// For a select that moved: which way it went.
    public var direction: Direction?
    /// Whether the state changed (and so the version).
    public var changed: Bool
}

extension Pager {
    /// Applies `command`, returning the new pager and what happened; throws, changing nothing,
    /// when the command is refused.
    public func applying(
        _ command: PagerCommand, limits: PagerLimits = PagerLimits()
    ) throws(PagerError) -> PagerOutcome {
        var next = self
        var report = Report()
        switch command {
        case .next: try next.move(.forward, report: &report)
        case .previous: try next.move(.reverse, report: &report)
        case .select(let target, let path): try next.select(target, path: path, report: &report)
        case .scroll(let input): try next.scroll(input, report: &report)
        case .beginTransition(let target): try next.beginTransition(to: target, report: &report)
        case .endTransition(let completed): next.endTransition(completed: completed, report: &report)
        case .insert(let page, let position):
            try next.insert(page, at: position, field: "page", limits: limits, report: &report)
        case .insertFromCatalog(let id, let position):
            try next.insertFromCatalog(id: id, at: position, limits: limits, report: &report)
        case .remove(let id): try next.remove(pageID: id, report: &report)
        case .update(let id, let update): try next.update(pageID: id, update, limits: limits, report: &report)
        case .replacePages(let pages): try next.replacePages(pages, limits: limits, report: &report)
        case .push(let id, let screen): try next.push(screen, onto: id, limits: limits, report: &report)
        case .pop(let id, let toRoot): try next.pop(pageID: id, toRoot: toRoot, report: &report)
        case .updateSettings(let settings): try next.updateSettings(settings, report: &report)
        }
        try next.checkBudget(limits, growing: next.storedBytes > storedBytes)
        next.version = version + (report.changed ? 1 : 0)
        return PagerOutcome(
            pager: next, moved: report.moved, edge: report.edge, keyframes: report.keyframes,
            direction: report.direction, changed: report.changed)
    }

    /// What a command reports besides the new state. Each command says itself whether it changed
    /// anything, so deciding costs O(the change), never a comparison of whole states.
    struct Report {
        var moved: Bool?
        var edge: Edge?
        var keyframes: [Keyframe]?
        var direction: Direction?
        var changed = false
    }
}
