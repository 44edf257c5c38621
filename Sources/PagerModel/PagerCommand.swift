public import JSON

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

/// How a jump's keyframes are animated (docs/api.md, «Jump animation»).
public enum JumpAnimation: String, Sendable, CaseIterable {
    /// One keyframe per step.
    case stepped
    /// The target only.
    case direct
    /// At most the last four steps, the first reached without animation.
    case capped
}

/// What an insert does after inserting (docs/api.md, «Insert then select»).
public enum AfterInsert: String, Sendable, CaseIterable {
    /// The current page stays current.
    case stay
    /// The inserted page becomes current.
    case select
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

/// How a merge patch (RFC 7396) changes one optional member: absent keeps it, null clears it.
public enum FieldChange<Value: Sendable & Equatable>: Sendable, Equatable {
    case keep
    case set(Value)
    case clear

    /// The value after the change.
    public func applied(to old: Value?) -> Value? {
        switch self {
        case .keep: old
        case .set(let value): value
        case .clear: nil
        }
    }
}

/// Changes to one page; nil members stay as they are.
public struct PageUpdate: Sendable, Equatable {
    /// A tab width change; clearing it goes back to the estimate from the title.
    public typealias TabWidthChange = FieldChange<Double>

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
    /// The tab's icon and badge, merged as RFC 7396 says.
    public var tab = TabChange.keep
    /// The accessibility label and hint.
    public var accessibilityLabel = FieldChange<String>.keep
    public var accessibilityHint = FieldChange<String>.keep

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
            && lhs.moveTo == rhs.moveTo && lhs.tab == rhs.tab && lhs.accessibilityLabel == rhs.accessibilityLabel
            && lhs.accessibilityHint == rhs.accessibilityHint
    }
}

/// Everything a client can ask a pager to do.
public enum PagerCommand: Sendable, Equatable {
    case next
    case previous
    case select(PageReference, path: JumpPath, animation: JumpAnimation = .stepped)
    case scroll(ScrollInput)
    case beginTransition(to: Int)
    case endTransition(completed: Bool)
    /// The end of a swipe decided by the finger's velocity at release, in pages per second,
    /// signed like progress (``Pager/releaseCompletes(velocity:)``).
    case release(velocity: Double)
    case insert(Page, at: Int?, then: AfterInsert = .stay)
    case insertFromCatalog(id: String, at: Int?, then: AfterInsert = .stay)
    case remove(pageID: String)
    case update(pageID: String, PageUpdate)
    case replacePages([Page])
    case push(pageID: String, Screen)
    case pop(pageID: String, toRoot: Bool)
    case updateSettings(PagerSettings)
    /// The auto-advance control (docs/api.md, «Auto-advance»).
    case autoAdvance(AutoAdvanceAction)
    /// The auto-advance timer's tick, applied by the server when it is due.
    case tick
}
