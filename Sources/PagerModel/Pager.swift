/// The complete state of one pager: pages, position, settings, the transition in flight and a
/// version. A pure value: every command returns a new pager and leaves this one as it was.
public struct Pager: Sendable, Equatable {
    /// The pages in order.
    public internal(set) var pages: [Page]
    /// The current index; nil when there are no pages.
    public internal(set) var index: Int?
    /// The settings. They are kept in a shared box, copied only when a pager whose box is
    /// shared changes them, so copying a pager (which every command, snapshot and event does)
    /// copies a pointer instead of every setting.
    public internal(set) var settings: PagerSettings {
        // Inlinable, so a reader in another module loads the setting it reads from the box
        // rather than calling an accessor that copies them all.
        @inlinable get { settingsBox.value }
        _modify {
            if !isKnownUniquelyReferenced(&settingsBox) { settingsBox = SettingsBox(settingsBox.value) }
            yield &settingsBox.value
        }
    }
    @usableFromInline var settingsBox: SettingsBox
    /// The swipe in flight, if any.
    public internal(set) var transition: Transition?
    /// A swipe past an end with a rubber band, if any; never together with a transition.
    public internal(set) var overscroll: Overscroll?
    /// The auto-advance timer (docs/api.md, «Auto-advance»); idle unless ``autoAdvanceRuns``.
    public internal(set) var timer = AutoAdvanceTimer.idle
    /// Page definitions that can be inserted by id (from the template).
    public internal(set) var catalog: [Page]
    /// +1 on every change of state; 1 at creation.
    public internal(set) var version: Int
    /// The version of the change that last set the settings: the creation, or a settings change.
    /// A client holding settings of another version reads them again.
    public internal(set) var settingsVersion = 1
    /// When a swipe in flight that nobody touches is given up (wall-clock milliseconds): the
    /// time of the change that set the transition or overscroll plus `dragTimeout`; also set,
    /// the same way, while an interaction pauses auto-advance with nothing in flight. Nil
    /// otherwise, and with `dragTimeout` 0.
    public internal(set) var dragDeadline: Int64?
    /// The session data held, as budgets count it: ``sessionOverheadBytes`` plus every page's
    /// ``Page/storedBytes``. Kept up to date by each command in O(what it changed).
    public internal(set) var storedBytes: Int
    /// The tab frames for `pages` and `settings`.
    var geometry: TabGeometry

    /// Bytes counted for every session besides its pages: settings, geometry, the table entry.
    public static let sessionOverheadBytes = 1024

    /// Creates a pager, validating every page and setting; `now` (wall-clock milliseconds) starts
    /// an auto-advance timer.
    public init(
        pages: [Page], initialPage: InitialPage? = nil, settings: PagerSettings = PagerSettings(),
        catalog: [Page] = [], limits: PagerLimits = PagerLimits(), now: Int64 = 0
    ) throws(PagerError) {
        try settings.validate()
        try Self.validate(pages: pages, field: "pages", limits: limits)
        for (position, page) in catalog.enumerated() {
            try page.validate(field: "catalog[\(position)]", limits: limits)
        }
        self.pages = pages
        self.settingsBox = SettingsBox(settings)
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
        if autoAdvanceRuns { timer = .due(at: now + Int64(settings.autoAdvance.interval)) }
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

/// A pager's settings, shared between copies of the pager until one of them changes them.
@usableFromInline final class SettingsBox: Equatable, @unchecked Sendable {
    // @unchecked Sendable: `value` is changed only through `Pager.settings`, which first makes
    // the box unique to the changing pager, so a box that two pagers (or threads) share is never
    // written.
    @usableFromInline var value: PagerSettings

    init(_ value: PagerSettings) { self.value = value }

    @usableFromInline static func == (a: SettingsBox, b: SettingsBox) -> Bool { a === b || a.value == b.value }
}
