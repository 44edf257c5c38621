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

    mutating func insert(_ page: Page, at position: Int?, field: String, limits: PagerLimits) throws(PagerError) {
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
        pages.insert(page, at: at)
        if let current = index {
            if at <= current { index = current + 1 }
        } else {
            index = 0
        }
        try relayout()
    }

    mutating func insertFromCatalog(id: String, at position: Int?, limits: PagerLimits) throws(PagerError) {
        guard let page = catalog.first(where: { $0.id == id }) else {
            throw PagerError(kind: .pageNotFound, field: "from", detail: "The catalog has no page '\(id)'.")
        }
        try insert(page, at: position, field: "from", limits: limits)
    }

    mutating func remove(pageID id: String) throws(PagerError) {
        let position = try position(of: id)
        transition = nil
        pages.remove(at: position)
        if let current = index {
            if pages.isEmpty {
                index = nil
            } else if position < current {
                index = current - 1
            } else if position == current {
                index = min(current, pages.count - 1)
            }
        }
        try relayout()
    }

    mutating func update(pageID id: String, _ update: PageUpdate, limits: PagerLimits) throws(PagerError) {
        let position = try position(of: id)
        var page = pages[position]
        if let title = update.title { page.title = title }
        if let content = update.content { page.content = content }
        switch update.tabWidth {
        case .keep: break
        case .set(let width): page.tabWidth = width
        case .clear: page.tabWidth = nil
        }
        try page.validate(field: "page", limits: limits)
        if let target = update.moveTo {
            guard pages.indices.contains(target) else {
                throw .indexOutOfRange(field: "moveTo", target, "0...\(pages.count - 1)")
            }
        }
        let currentID = index.map { pages[$0].id }
        if page != pages[position] || (update.moveTo.map { $0 != position } ?? false) { transition = nil }
        pages[position] = page
        if let target = update.moveTo, target != position {
            pages.remove(at: position)
            pages.insert(page, at: target)
            if let currentID { index = pages.firstIndex { $0.id == currentID } }
        }
        try relayout()
    }

    mutating func replacePages(_ newPages: [Page], limits: PagerLimits) throws(PagerError) {
        try Self.validate(pages: newPages, field: "pages", limits: limits)
        let currentID = index.map { pages[$0].id }
        transition = nil
        pages = newPages
        if newPages.isEmpty {
            index = nil
        } else if let currentID, let kept = newPages.firstIndex(where: { $0.id == currentID }) {
            index = kept
        } else {
            index = min(index ?? 0, newPages.count - 1)
        }
        try relayout()
    }

    mutating func push(_ screen: Screen, onto id: String, limits: PagerLimits) throws(PagerError) {
        let position = try position(of: id)
        try screen.validate(field: "screen", limits: limits)
        guard pages[position].stack.count < limits.maxStackDepth else {
            throw .limitExceeded(field: "screen", "A stack holds at most \(limits.maxStackDepth) pushed screens.")
        }
        pages[position].stack.append(screen)
    }

    mutating func pop(pageID id: String, toRoot: Bool) throws(PagerError) {
        let position = try position(of: id)
        if toRoot {
            if !pages[position].stack.isEmpty { pages[position].stack.removeAll() }
            return
        }
        guard !pages[position].stack.isEmpty else {
            throw PagerError(kind: .stackRoot, field: nil, detail: "The page '\(id)' is at the root of its stack.")
        }
        pages[position].stack.removeLast()
    }

    mutating func updateSettings(_ newSettings: PagerSettings) throws(PagerError) {
        try newSettings.validate()
        guard newSettings != settings else { return }
        transition = nil
        settings = newSettings
        try relayout()
    }
}
