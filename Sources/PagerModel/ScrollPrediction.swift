/// What a client knows of a session's state that a scroll starts from: the members of a state
/// document (an answer or an event's data) that prediction reads. The tab frames are laid out
/// again from the widths, as the server lays them out, so only the widths are needed.
public struct ScrollState: Sendable, Equatable {
    /// One tab's widths.
    public struct Tab: Sendable, Equatable {
        /// Its `width` as the state reports it.
        public var width: Double
        /// Its `baseWidth` (the width when not selected), which the state reports while the
        /// selected tab of a scrollable bar has a width of its own.
        public var baseWidth: Double?

        /// Creates a tab's widths.
        public init(width: Double, baseWidth: Double? = nil) {
            self.width = width
            self.baseWidth = baseWidth
        }
    }

    /// `index`; nil when the pager is empty.
    public var index: Int?
    /// `pageCount`.
    public var pageCount: Int
    /// `transition`, the swipe in flight.
    public var transition: Transition?
    /// `overscroll`, the swipe past an end.
    public var overscroll: Overscroll?
    /// `tabs`, in order (empty without a tab bar).
    public var tabs: [Tab]
    /// `tabBar.effectiveLayout`, which the state reports while `tabBar.layout` is `auto`.
    public var effectiveLayout: TabLayout?
    /// The id of every page the state names (its `page`, `previous`, `next`, `preload`, `tabs`
    /// and `visible`), by index: a scroll's `visible` lists pages with their ids.
    public var pageIDs: [Int: String]

    /// Creates the state a scroll starts from.
    public init(
        index: Int?, pageCount: Int, transition: Transition? = nil, overscroll: Overscroll? = nil, tabs: [Tab],
        effectiveLayout: TabLayout? = nil, pageIDs: [Int: String]
    ) {
        self.index = index
        self.pageCount = pageCount
        self.transition = transition
        self.overscroll = overscroll
        self.tabs = tabs
        self.effectiveLayout = effectiveLayout
        self.pageIDs = pageIDs
    }
}

/// The scroll members of pagerd's answer to `POST /v1/sessions/{id}/scroll`: what a scroll
/// changes in the state besides `version`, `autoAdvance` and `accessibility`, plus `edge` and
/// `blocked` where the answer carries them.
public struct ScrollMembers: Sendable, Equatable {
    /// The members of one tab that a scroll changes.
    public struct Tab: Sendable, Equatable {
        /// `x`, as reported (mirrored right to left).
        public var x: Double
        /// `width`.
        public var width: Double
        /// `selection`, in [0, 1].
        public var selection: Double
        /// `selected`.
        public var selected: Bool
        /// `color`, present only when titles are styled.
        public var color: RGBA?
        /// `scale`, present only when titles are styled.
        public var scale: Double?

        /// Creates a tab's members.
        public init(
            x: Double, width: Double, selection: Double, selected: Bool, color: RGBA? = nil, scale: Double? = nil
        ) {
            self.x = x
            self.width = width
            self.selection = selection
            self.selected = selected
            self.color = color
            self.scale = scale
        }
    }

    /// The members of `tabBar` that a scroll changes.
    public struct TabBar: Sendable, Equatable {
        /// `contentWidth`, C.
        public var contentWidth: Double
        /// `offset`.
        public var offset: Double

        /// Creates the tab bar's members.
        public init(contentWidth: Double, offset: Double) {
            self.contentWidth = contentWidth
            self.offset = offset
        }
    }

    /// `transition`.
    public var transition: Transition?
    /// `overscroll`.
    public var overscroll: Overscroll?
    /// `pageOffset`.
    public var pageOffset: Double
    /// `visible`.
    public var visible: [VisiblePage]
    /// `indicator`; nil without a tab bar.
    public var indicator: Indicator?
    /// `tabBar.contentWidth` and `tabBar.offset`.
    public var tabBar: TabBar
    /// Each tab's `x`, `width`, `selection`, `selected`, `color` and `scale`.
    public var tabs: [Tab]
    /// `edge`: the end the scroll met, when the answer carries one.
    public var edge: Edge?
    /// `blocked`: the locked way the scroll pointed, when the answer carries one.
    public var blocked: Direction?
}

/// Why a prediction has no answer: the refusal the server would answer, or a document it cannot
/// read.
public struct PredictionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server's problem code, or `unexpected_response` for a document prediction cannot read.
    public enum Code: String, Sendable {
        /// 400: the server refuses the scroll input; `field` names the member.
        case invalidRequest = "invalid_request"
        /// 409: the pager has no pages.
        case emptyPager = "empty_pager"
        /// A state or settings document that is not pagerd's, or that disagrees with itself (for
        /// example, a page brought into view whose id no member of the state names).
        case unexpectedDocument = "unexpected_response"
    }

    /// The code.
    public var code: Code
    /// The member at fault, such as `progress`.
    public var field: String?
    /// A sentence for people.
    public var detail: String

    /// Creates an error.
    public init(code: Code, field: String? = nil, detail: String) {
        self.code = code
        self.field = field
        self.detail = detail
    }

    public var description: String { "\(code.rawValue)\(field.map { " (\($0))" } ?? ""): \(detail)" }

    /// The server's refusal of a scroll input, `invalid_request` naming the field.
    public init(refusal: PagerError) {
        self.init(
            code: refusal.kind == .emptyPager ? .emptyPager : .invalidRequest, field: refusal.field,
            detail: refusal.detail)
    }

    /// A document prediction cannot read, `unexpected_response`.
    public static func unexpected(_ detail: String) -> PredictionError {
        PredictionError(code: .unexpectedDocument, detail: detail)
    }
}

/// Predicts pagerd's answers to scrolls from one state: made once from a state and its settings
/// (laying out the tab frames), then asked for any number of inputs. It runs the code the server
/// runs for a scroll, so its numbers are the server's.
public struct ScrollPredictor: Sendable {
    /// The pager as the server sees it; nil when it has no pages.
    private let scene: ScrollScene?
    private let pageIDs: [Int: String]

    /// Reads `state` with `settings` (the session's settings, of the same `settingsVersion`; of
    /// the tab bar's, the title-width estimate is not read: the state gives the widths). Throws
    /// ``PredictionError/Code/unexpectedDocument`` when the two do not describe a pager pagerd
    /// could hold.
    public init(state: ScrollState, settings: PagerSettings) throws(PredictionError) {
        pageIDs = state.pageIDs
        do { try settings.validate() } catch { throw .unexpected("The settings break a rule: \(error).") }
        guard let index = state.index else {
            guard state.pageCount == 0 else { throw .unexpected("A state with pages has no index.") }
            scene = nil
            return
        }
        let count = state.pageCount
        guard (0..<count).contains(index) else { throw .unexpected("The index \(index) is outside the pages.") }
        if let transition = state.transition {
            guard transition.from == index, (0..<count).contains(transition.to) else {
                throw .unexpected("The transition does not start at the index or ends outside the pages.")
            }
        }
        var layout = settings.tabBar.layout
        if layout == .auto {
            guard let effective = state.effectiveLayout, effective == .fixed || effective == .scrollable else {
                throw .unexpected("A tab bar laid out `auto` needs its effectiveLayout, fixed or scrollable.")
            }
            layout = effective
        }
        var widths: [Double] = []
        if layout != .none {
            guard state.tabs.count == count else {
                throw .unexpected("The state lists \(state.tabs.count) tabs for \(count) pages.")
            }
            if layout == .scrollable {
                let widened = settings.tabBar.selectedTabWidth != nil
                widths.reserveCapacity(count)
                for tab in state.tabs {
                    // While the selected tab has a width of its own, a tab's width of the moment
                    // is not its own: its base width is.
                    guard let width = widened ? tab.baseWidth : tab.width else {
                        throw .unexpected("A tab has no baseWidth while the selected tab has a width of its own.")
                    }
                    widths.append(width)
                }
            } else {
                widths = Array(repeating: 0, count: count)
            }
        }
        let geometry: TabGeometry
        do {
            geometry = try TabGeometry.make(layout: layout, widths: widths, settings: settings)
        } catch {
            throw .unexpected("The tab bar cannot be laid out: \(error).")
        }
        scene = ScrollScene(
            settingsBox: SettingsBox(settings), geometry: geometry, count: count, index: index,
            transition: state.transition, overscroll: state.overscroll)
    }

    /// The scroll members of the server's answer to a scroll with `input`. Throws the server's
    /// refusal: `invalid_request` for an input that is not a finite progress (an offset whose
    /// ratio is NaN), `empty_pager` when there are no pages; and `unexpected_response` when a page
    /// the scroll brings into view is not named by the state.
    public func predict(_ input: ScrollInput) throws(PredictionError) -> ScrollMembers {
        guard var scene else { throw PredictionError(code: .emptyPager, detail: "The pager has no pages.") }
        let report: ScrollScene.ScrollReport
        do { report = try scene.scroll(input) } catch { throw PredictionError(refusal: error) }
        let (indicator, bar) = scene.indicatorAndTabBar
        var tabs: [ScrollMembers.Tab] = []
        if scene.geometry.hasTabs {
            let layout = scene.tabBarLayout, highlight = scene.highlight
            let strip = layout.strip(highlight)
            tabs.reserveCapacity(scene.count)
            for position in 0..<scene.count {
                let look = layout.look(position, highlight: highlight, strip: strip)
                tabs.append(
                    ScrollMembers.Tab(
                        x: look.frame.x, width: look.frame.width, selection: look.selection, selected: look.selected,
                        color: look.color, scale: look.scale))
            }
        }
        var visible: [VisiblePage] = []
        var unnamed: Int?
        scene.forEachVisible { page, fraction in
            guard let id = pageIDs[page] else {
                unnamed = page
                return
            }
            visible.append(VisiblePage(index: page, id: id, fraction: fraction))
        }
        if let unnamed { throw .unexpected("The state names no id for page \(unnamed), which this scroll shows.") }
        return ScrollMembers(
            transition: scene.transition, overscroll: scene.overscroll, pageOffset: scene.pageOffset, visible: visible,
            indicator: indicator, tabBar: ScrollMembers.TabBar(contentWidth: bar.contentWidth, offset: bar.offset),
            tabs: tabs, edge: report.edge, blocked: report.blocked)
    }
}

/// The scroll members of pagerd's answer to `POST /v1/sessions/{id}/scroll` with `input`, from
/// the session's `state` (at rest or mid-swipe) and its `settings`: ``ScrollPredictor`` made and
/// asked once. To predict many inputs from one state, make the predictor once.
public func predictScroll(
    state: ScrollState, settings: PagerSettings, input: ScrollInput
) throws(PredictionError) -> ScrollMembers {
    try ScrollPredictor(state: state, settings: settings).predict(input)
}
