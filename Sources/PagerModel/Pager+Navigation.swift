extension Pager {
    // MARK: - Neighbours

    /// The index one step away in `direction`, wrapping in a loop; nil at a bounded end or with
    /// fewer than two pages.
    public func neighbor(of position: Int, _ direction: Direction) -> Int? {
        ScrollScene.neighbor(of: position, direction, count: pages.count, mode: settings.mode)
    }

    /// Whether a move backward is possible from the current page.
    public var canGoPrevious: Bool { index.flatMap { neighbor(of: $0, .reverse) } != nil }

    /// Whether a move forward is possible from the current page.
    public var canGoNext: Bool { index.flatMap { neighbor(of: $0, .forward) } != nil }

    /// The edge a move from `position` in `direction` meets (lands on or is stopped at), if any.
    /// A loop of two or more pages has no edges.
    func edge(after position: Int, moving direction: Direction) -> Edge? {
        ScrollScene.edge(after: position, moving: direction, count: pages.count, mode: settings.mode)
    }

    // MARK: - Moves

    mutating func currentIndex() throws(PagerError) -> Int {
        guard let index else { throw PagerError.empty }
        return index
    }

    mutating func move(_ direction: Direction, report: inout Report) throws(PagerError) {
        let current = try currentIndex()
        cancelTransition(report: &report)
        if let target = neighbor(of: current, direction) {
            index = target
            report.moved = true
            report.changed = true
            report.edge = edge(after: target, moving: direction)
        } else {
            report.moved = false
            report.edge = edge(after: current, moving: direction)
            if direction == .forward { report.actionRequested = requestedAction(at: report.edge) }
        }
    }

    /// The trailing action a move or a release at `edge` asks for: only at the end of a bounded
    /// pager that offers one.
    func requestedAction(at edge: Edge?) -> PagerAction? {
        guard edge == .end, settings.mode == .bounded else { return nil }
        return settings.trailingAction
    }

    mutating func select(
        _ reference: PageReference, path: JumpPath, animation: JumpAnimation = .stepped, report: inout Report
    ) throws(PagerError) {
        let current = try currentIndex()
        let target: Int
        switch reference {
        case .index(let value):
            guard pages.indices.contains(value) else {
                throw .indexOutOfRange(field: "index", value, "0...\(pages.count - 1)")
            }
            target = value
        case .id(let id):
            guard let position = pages.firstIndex(where: { $0.id == id }) else {
                throw .pageNotFound(id, field: "page")
            }
            target = position
        }
        cancelTransition(report: &report)
        guard target != current else {
            report.moved = false
            return
        }
        report.changed = true
        let count = pages.count
        var direction: Direction = target > current ? .forward : .reverse
        var wraps = false
        if settings.mode == .loop, path == .shortest {
            let forwardSteps = (target - current + count) % count
            direction = forwardSteps <= count - forwardSteps ? .forward : .reverse
            wraps = true
        }
        // The pages along the path, s_1 … s_k (only indexes: keyframes are made for the ones kept).
        var steps: [Int] = []
        var position = current
        while position != target {
            position =
                wraps
                ? (position + (direction == .forward ? 1 : -1) + count) % count
                : position + (direction == .forward ? 1 : -1)
            steps.append(position)
        }
        let kept: ArraySlice<Int>
        switch animation {
        case .stepped: kept = steps[...]
        case .direct: kept = steps.suffix(1)
        case .capped: kept = steps.suffix(4)
        }
        var keyframes = keyframes(at: kept)
        if animation == .capped, steps.count > 3 { keyframes[0].jump = true }
        index = target
        report.moved = true
        report.keyframes = keyframes
        report.direction = direction
        report.edge = edge(after: target, moving: direction)
    }

    // MARK: - Swipes

    /// A scroll, as ``ScrollScene/scroll(_:)`` applies it (the code a client's prediction runs).
    mutating func scroll(_ input: ScrollInput, report: inout Report) throws(PagerError) {
        let current = try currentIndex()
        let scrolled = try ScrollScene.scroll(
            input, settings: settingsBox, count: pages.count, index: current, transition: &transition,
            overscroll: &overscroll)
        if scrolled.changed { report.changed = true }
        report.edge = scrolled.edge
        report.blocked = scrolled.blocked
        report.scrolledToRest = scrolled.scrolledToRest
    }

    mutating func beginTransition(to target: Int, report: inout Report) throws(PagerError) {
        let current = try currentIndex()
        guard pages.indices.contains(target) else {
            throw .indexOutOfRange(field: "to", target, "0...\(pages.count - 1)")
        }
        let direction: Direction
        if neighbor(of: current, .forward) == target {
            direction = .forward
        } else if neighbor(of: current, .reverse) == target {
            direction = .reverse
        } else {
            throw PagerError(
                kind: .notANeighbor, field: "to",
                detail: "Page \(target) is not a neighbour of the current page \(current).")
        }
        guard settings.swipe.allows(direction) else {
            throw PagerError(
                kind: .swipeLocked, field: "to",
                detail: "Swiping \(direction.rawValue) is locked ('swipe' is '\(settings.swipe.rawValue)').")
        }
        if let transition, transition.to == target { return }
        overscroll = nil
        transition = Transition(from: current, to: target, progress: 0, direction: direction)
        report.changed = true
    }

    mutating func endTransition(completed: Bool, report: inout Report) {
        // Releasing a swipe past an end: the page springs back; past the end of a bounded pager
        // with a trailing action, a completed release asks for it.
        if let past = overscroll {
            overscroll = nil
            report.changed = true
            report.moved = false
            report.edge = past.edge
            if completed { report.actionRequested = requestedAction(at: past.edge) }
            return
        }
        guard let transition else {
            report.moved = false
            return
        }
        self.transition = nil
        if completed { index = transition.to }
        report.moved = completed
        report.changed = true
    }
}
