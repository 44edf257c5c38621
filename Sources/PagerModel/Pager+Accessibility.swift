extension Pager {
    /// What a screen reader calls page `position`: its accessibility label, else its title, else
    /// its id (the first that is not empty).
    public func label(of position: Int) -> String {
        let page = pages[position]
        if let label = page.accessibilityLabel, !label.isEmpty { return label }
        return page.title.isEmpty ? page.id : page.title
    }

    /// `text` written for page `position`, whose label is `label`; after the label and ", "
    /// when `afterLabel`.
    func formatted(_ text: String, at position: Int, label: String? = nil, afterLabel: Bool = false) -> String {
        let label = label ?? self.label(of: position)
        return AccessibilityText.format(
            text, position: position + 1, count: pages.count, title: pages[position].title, label: label,
            leading: afterLabel ? label : nil)
    }

    // Shared arrays, so that describing a tab allocates only its strings.
    private static let tabTraits = ["button"]
    private static let selectedTraits = ["button", "selected"]
    private static let tabActions = ["activate"]

    /// Each tab's descriptor, in page order; selected follows the index, never a transition.
    public var tabAccessibility: [TabAccessibility] { pages.indices.map(tabAccessibility(at:)) }

    /// The descriptor of the tab of page `position`, as ``tabAccessibility`` lists it.
    public func tabAccessibility(at position: Int) -> TabAccessibility {
        tabAccessibility(at: position, selected: position == index)
    }

    /// The descriptor of the tab of page `position`, selected or not.
    func tabAccessibility(at position: Int, selected: Bool) -> TabAccessibility {
        let hint = pages[position].accessibilityHint.flatMap { $0.isEmpty ? nil : $0 }
        let label = label(of: position)
        return TabAccessibility(
            label: label, hint: hint,
            value: formatted(settings.accessibilityText.tabValueFormat, at: position, label: label), selected: selected,
            traits: selected ? Self.selectedTraits : Self.tabTraits, actions: selected ? [] : Self.tabActions)
    }

    // The pager's possible adjustments, shared so that describing it allocates no arrays: its
    // actions and their platform names for each axis, indexed by (forward ? 2 : 0) + (reverse ? 1 : 0).
    private static let adjustable = ["adjustable"]
    private static let pagerActions: [[String]] = [[], ["decrement"], ["increment"], ["increment", "decrement"]]
    private static let verticalActions: [[String]] = [[], ["pageUp"], ["pageDown"], ["pageDown", "pageUp"]]
    private static let rightToLeftActions: [[String]] = [[], ["pageRight"], ["pageLeft"], ["pageLeft", "pageRight"]]
    private static let leftToRightActions: [[String]] = [[], ["pageLeft"], ["pageRight"], ["pageRight", "pageLeft"]]

    /// The pager's descriptor: its value, the adjustments a user may make (a locked swipe
    /// direction drops its action) with the platform's names for them, and the live region.
    public var pagerAccessibility: PagerAccessibility {
        let forward = canGoNext && settings.swipe.allows(.forward)
        let reverse = canGoPrevious && settings.swipe.allows(.reverse)
        let adjustments = (forward ? 2 : 0) + (reverse ? 1 : 0)
        let platform =
            settings.orientation == .vertical
            ? Self.verticalActions
            : settings.layoutDirection == .rtl ? Self.rightToLeftActions : Self.leftToRightActions
        return PagerAccessibility(
            value: index.map { formatted(settings.accessibilityText.pageValueFormat, at: $0) },
            traits: adjustments == 0 ? [] : Self.adjustable, actions: Self.pagerActions[adjustments],
            platformActions: platform[adjustments], liveRegion: timer.dueAt == nil ? "polite" : "off")
    }

    /// What a move announces: the new page's label and value when it moved, the first or last
    /// page message when it met an end, nothing otherwise.
    func announcement(moved: Bool?, edge: Edge?) -> String? {
        guard let index else { return nil }
        let text = settings.accessibilityText
        if moved == true { return formatted(text.pageValueFormat, at: index, afterLabel: true) }
        switch edge {
        case .end: return formatted(text.lastPageMessage, at: index)
        case .start: return formatted(text.firstPageMessage, at: index)
        case nil: return nil
        }
    }
}
