extension Pager {
    /// The position of the page `id`, or a `page_not_found` error.
    func position(of id: String) throws(PagerError) -> Int {
        guard let position = pages.firstIndex(where: { $0.id == id }) else { throw .pageNotFound(id) }
        return position
    }

    /// Recomputes the tab frames after pages or settings changed.
    mutating func relayout() throws(PagerError) {
        geometry = try TabGeometry.make(pages: pages, settings: settings)
    }

    /// Clears a transition in flight and an overscroll, noting the change.
    mutating func cancelTransition(report: inout Report) {
        if transition != nil || overscroll != nil {
            transition = nil
            overscroll = nil
            report.changed = true
        }
    }

    mutating func insert(
        _ page: Page, at position: Int?, then: AfterInsert = .stay, field: String, limits: PagerLimits,
        report: inout Report
    )
        throws(PagerError)
    {
        try page.validate(field: field, limits: limits)
        guard pages.count < limits.maxPages else {
            throw .limitExceeded(field: field, "A pager holds at most \(limits.maxPages) pages.")
        }
        guard !pages.contains(where: { $0.id == page.id }) else {
            throw PagerError(
                kind: .duplicatePageId, field: "\(field).id", detail: "A page with the id '\(page.id)' already exists.")
        }
        let at = position ?? pages.count
        guard (0...pages.count).contains(at) else { throw .indexOutOfRange(field: "at", at, "0...\(pages.count)") }
        transition = nil
        overscroll = nil
        pages.insert(page, at: at)
        storedBytes += page.storedBytes
        if then == .select {
            index = at
        } else if let current = index {
            if at <= current { index = current + 1 }
        } else {
            index = 0
        }
        report.changed = true
        try relayout()
    }

    mutating func insertFromCatalog(
        id: String, at position: Int?, then: AfterInsert = .stay, limits: PagerLimits, report: inout Report
    )
        throws(PagerError)
    {
        guard let page = catalog.first(where: { $0.id == id }) else {
            throw PagerError(kind: .pageNotFound, field: "from", detail: "The catalog has no page '\(id)'.")
        }
        try insert(page, at: position, then: then, field: "from", limits: limits, report: &report)
    }

    mutating func remove(pageID id: String, report: inout Report) throws(PagerError) {
        let position = try position(of: id)
        transition = nil
        overscroll = nil
        storedBytes -= pages.remove(at: position).storedBytes
        if let current = index {
            if pages.isEmpty {
                index = nil
            } else if position < current {
                index = current - 1
            } else if position == current {
                index = min(current, pages.count - 1)
            }
        }
        report.changed = true
        try relayout()
    }

    mutating func update(
        pageID id: String, _ update: PageUpdate, limits: PagerLimits, report: inout Report
    )
        throws(PagerError)
    {
        let position = try position(of: id)
        let old = pages[position]
        var page = old
        if let title = update.title { page.title = title }
        if let (content, measure) = update.newContent { page.setContent(content, measured: measure) }
        page.tabWidth = update.tabWidth.applied(to: page.tabWidth)
        page.tab = update.tab.applied(to: page.tab)
        page.accessibilityLabel = update.accessibilityLabel.applied(to: page.accessibilityLabel)
        page.accessibilityHint = update.accessibilityHint.applied(to: page.accessibilityHint)
        try page.validate(field: "", limits: limits)
        if let target = update.moveTo {
            guard pages.indices.contains(target) else {
                throw .indexOutOfRange(field: "moveTo", target, "0...\(pages.count - 1)")
            }
        }
        let moves = update.moveTo.map { $0 != position } ?? false
        // Only this page is compared, and its content only when the measures agree.
        guard moves || page != old else { return }
        let currentID = index.map { pages[$0].id }
        transition = nil
        overscroll = nil
        report.changed = true
        storedBytes += page.storedBytes - old.storedBytes
        pages[position] = page
        if let target = update.moveTo, target != position {
            pages.remove(at: position)
            pages.insert(page, at: target)
            if let currentID { index = pages.firstIndex { $0.id == currentID } }
        }
        try relayout()
    }

    mutating func replacePages(_ newPages: [Page], limits: PagerLimits, report: inout Report) throws(PagerError) {
        try Self.validate(pages: newPages, field: "pages", limits: limits)
        let currentID = index.map { pages[$0].id }
        let oldIndex = index
        cancelTransition(report: &report)
        // Comparing costs O(the request): a replacement carries every page it keeps.
        if newPages != pages { report.changed = true }
        pages = newPages
        storedBytes = newPages.reduce(Self.sessionOverheadBytes) { $0 + $1.storedBytes }
        if newPages.isEmpty {
            index = nil
        } else if let currentID, let kept = newPages.firstIndex(where: { $0.id == currentID }) {
            index = kept
        } else {
            index = min(index ?? 0, newPages.count - 1)
        }
        if index != oldIndex { report.changed = true }
        try relayout()
    }

    mutating func push(_ screen: Screen, onto id: String, limits: PagerLimits, report: inout Report) throws(PagerError)
    {
        let position = try position(of: id)
        try screen.validate(field: "screen", limits: limits)
        guard pages[position].stack.count < limits.maxStackDepth else {
            throw .limitExceeded(field: "screen", "A stack holds at most \(limits.maxStackDepth) pushed screens.")
        }
        pages[position].stack.append(screen)
        storedBytes += screen.storedBytes
        report.changed = true
    }

    mutating func pop(pageID id: String, toRoot: Bool, report: inout Report) throws(PagerError) {
        let position = try position(of: id)
        if toRoot {
            guard !pages[position].stack.isEmpty else { return }
            storedBytes -= pages[position].stack.reduce(0) { $0 + $1.storedBytes }
            pages[position].stack.removeAll()
            report.changed = true
            return
        }
        guard let screen = pages[position].stack.popLast() else {
            throw PagerError(kind: .stackRoot, field: nil, detail: "The page '\(id)' is at the root of its stack.")
        }
        storedBytes -= screen.storedBytes
        report.changed = true
    }

    mutating func updateSettings(_ newSettings: PagerSettings, report: inout Report) throws(PagerError) {
        try newSettings.validate()
        guard newSettings != settings else { return }
        transition = nil
        overscroll = nil
        settings = newSettings
        report.changed = true
        try relayout()
    }
}
