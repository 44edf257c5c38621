/// A scroll as a client reports it: one of the three forms `POST …/scroll` takes (docs/api.md,
/// «Swipes»).
public enum ScrollInput: Sendable, Hashable {
    /// Signed progress, + toward the next page; its magnitude is clamped to 1.
    case progress(Double)
    /// The page strip's content offset along the page axis, in points (physical: from the left
    /// or top edge).
    case offset(Double)
    /// What a paging scroll view reports: one page (the viewport's extent) at rest.
    case windowOffset(Double)
}

/// The members of a state that a scroll changes, as pagerd will answer them: what a view needs
/// to draw a frame of a swipe (docs/client-prediction.md lists them). Its JSON form is the object
/// web/pagerd.js's `predictScroll` returns (`tabBar` holds `contentWidth` and `offset`).
public struct ScrollMembers: Sendable, Hashable, Codable {
    /// A tab's members that a scroll changes.
    public struct Tab: Sendable, Hashable, Codable {
        /// The tab's left edge in the bar's content, in points.
        public var x: Double
        /// The tab's width, in points.
        public var width: Double
        /// How strongly the tab is highlighted, 0 to 1.
        public var selection: Double
        /// Whether this is the one selected tab.
        public var selected: Bool
        /// The title's colour (`#RRGGBBAA`) while titles are styled.
        public var color: String?
        /// The title's scale while titles are styled.
        public var scale: Double?

        /// Creates a tab's scroll members.
        public init(
            x: Double, width: Double, selection: Double, selected: Bool, color: String? = nil, scale: Double? = nil
        ) {
            self.x = x
            self.width = width
            self.selection = selection
            self.selected = selected
            self.color = color
            self.scale = scale
        }
    }

    /// The swipe in flight, or nil.
    public var transition: Components.Schemas.Transition?
    /// The pull past an end, or nil.
    public var overscroll: Components.Schemas.Overscroll?
    /// Where the page strip is scrolled, in points.
    public var pageOffset: Double
    /// The pages on screen with the fraction of the viewport each covers.
    public var visible: [Components.Schemas.VisiblePage]
    /// The indicator, or nil without tabs.
    public var indicator: Components.Schemas.Indicator?
    /// The tab bar's scroll offset.
    public var tabBarOffset: Double
    /// The tab bar's content width.
    public var tabBarContentWidth: Double
    /// Every tab, in order.
    public var tabs: [Tab]
    /// The end a scroll met, when it met one.
    public var edge: Components.Schemas.State.EdgePayload?
    /// The way the swipe lock refused, when it refused.
    public var blocked: Components.Schemas.State.BlockedPayload?

    /// Creates the scroll members.
    public init(
        transition: Components.Schemas.Transition?, overscroll: Components.Schemas.Overscroll?, pageOffset: Double,
        visible: [Components.Schemas.VisiblePage], indicator: Components.Schemas.Indicator?, tabBarOffset: Double,
        tabBarContentWidth: Double, tabs: [Tab], edge: Components.Schemas.State.EdgePayload? = nil,
        blocked: Components.Schemas.State.BlockedPayload? = nil
    ) {
        self.transition = transition
        self.overscroll = overscroll
        self.pageOffset = pageOffset
        self.visible = visible
        self.indicator = indicator
        self.tabBarOffset = tabBarOffset
        self.tabBarContentWidth = tabBarContentWidth
        self.tabs = tabs
        self.edge = edge
        self.blocked = blocked
    }

    private enum CodingKeys: String, CodingKey {
        case transition, overscroll, pageOffset, visible, indicator, tabBar, tabs, edge, blocked
    }

    private struct TabBar: Codable {
        var contentWidth: Double
        var offset: Double
    }

    /// Decodes the object web/pagerd.js's `predictScroll` returns.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let bar = try container.decode(TabBar.self, forKey: .tabBar)
        self.init(
            transition: try container.decodeIfPresent(Components.Schemas.Transition.self, forKey: .transition),
            overscroll: try container.decodeIfPresent(Components.Schemas.Overscroll.self, forKey: .overscroll),
            pageOffset: try container.decode(Double.self, forKey: .pageOffset),
            visible: try container.decode([Components.Schemas.VisiblePage].self, forKey: .visible),
            indicator: try container.decodeIfPresent(Components.Schemas.Indicator.self, forKey: .indicator),
            tabBarOffset: bar.offset, tabBarContentWidth: bar.contentWidth,
            tabs: try container.decode([Tab].self, forKey: .tabs),
            edge: try container.decodeIfPresent(Components.Schemas.State.EdgePayload.self, forKey: .edge),
            blocked: try container.decodeIfPresent(Components.Schemas.State.BlockedPayload.self, forKey: .blocked))
    }

    /// Encodes the object web/pagerd.js's `predictScroll` returns (nulls written, `edge` and
    /// `blocked` only when set).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(transition, forKey: .transition)
        try container.encode(overscroll, forKey: .overscroll)
        try container.encode(pageOffset, forKey: .pageOffset)
        try container.encode(visible, forKey: .visible)
        try container.encode(indicator, forKey: .indicator)
        try container.encode(TabBar(contentWidth: tabBarContentWidth, offset: tabBarOffset), forKey: .tabBar)
        try container.encode(tabs, forKey: .tabs)
        try container.encodeIfPresent(edge, forKey: .edge)
        try container.encodeIfPresent(blocked, forKey: .blocked)
    }

    /// The scroll members of a state pagerd sent (an answer to a scroll, to compare a
    /// prediction with).
    public init(of state: PagerState) {
        self.init(
            transition: state.transition, overscroll: state.overscroll, pageOffset: state.pageOffset,
            visible: state.visible, indicator: state.indicator, tabBarOffset: state.tabBar.offset,
            tabBarContentWidth: state.tabBar.contentWidth,
            tabs: state.tabs.map {
                Tab(
                    x: $0.x, width: $0.width, selection: $0.selection, selected: $0.selected, color: $0.color,
                    scale: $0.scale)
            },
            edge: state.edge, blocked: state.blocked)
    }
}

/// Computes, on the device, what pagerd will answer to a scroll: the seam through which the
/// client draws every frame of a swipe without the network (``PagerClient/predictScroll(_:)``).
///
/// A client predicts with ``ModelScrollPredictor``, the server's own model, unless it is given
/// another at creation (`predictor:`). Any implementation owes the same: numbers within 1e-6 of
/// the server's answer, everything else equal, and a refusal the server would answer (an input
/// out of range, an empty pager) thrown as the server's problem (docs/client-prediction.md).
public protocol ScrollPredicting: Sendable {
    /// The scroll members of pagerd's answer to `input` from `state`, whose session has
    /// `settings` (the settings document of the same settings version).
    func predictScroll(
        state: PagerState, settings: PagerSettings, input: ScrollInput
    ) throws(PagerClientError)
        -> ScrollMembers
}

extension PagerState {
    /// This state with `members` in place of its own: the whole state as it will be after the
    /// scroll, for code that draws from a state.
    public func withScroll(_ members: ScrollMembers) -> PagerState {
        var state = self
        state.transition = members.transition
        state.overscroll = members.overscroll
        state.pageOffset = members.pageOffset
        state.visible = members.visible
        state.indicator = members.indicator
        state.tabBar.offset = members.tabBarOffset
        state.tabBar.contentWidth = members.tabBarContentWidth
        for (index, tab) in members.tabs.enumerated() where index < state.tabs.count {
            state.tabs[index].x = tab.x
            state.tabs[index].width = tab.width
            state.tabs[index].selection = tab.selection
            state.tabs[index].selected = tab.selected
            state.tabs[index].color = tab.color
            state.tabs[index].scale = tab.scale
        }
        state.edge = members.edge
        state.blocked = members.blocked
        return state
    }
}
