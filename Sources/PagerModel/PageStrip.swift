import Foundation

/// Where pages sit along the page axis and everything that follows from it: the page offset, the
/// progress a scroll input means, the pages on screen and the pages to preload. It reads nothing
/// about the pages but their count, so the same computation serves anyone who knows the count,
/// the settings and the position.
///
/// With one page per viewport and no gap (the defaults) a page is the viewport's extent E long
/// and these are the plain formulas (c + σ·f)·E and their inverses. Otherwise a viewport shows k
/// pages g apart: each P = (E − (k − 1)·g)/k long, one stride D = P + g from the next, the current
/// one κ = (E − P)/2 from the viewport's leading edge when centred; the rest offsets of a bounded
/// pager that is not centred stop at M, where its last page touches the viewport's trailing edge.
/// Offsets are computed left to right (top to bottom when vertical) and mirrored last for a
/// horizontal right-to-left layout.
struct PageStrip {
    /// The number of pages, n.
    let count: Int
    /// The viewport's extent along the page axis, E.
    let extent: Double
    /// Whether pages are one per viewport with no gap: the plain formulas apply.
    let onePerView: Bool
    /// Whether offsets are mirrored (horizontal and right to left).
    let mirrored: Bool
    /// Whether positions wrap (a loop of two pages or more).
    let loops: Bool
    /// The rubber band past the ends.
    let rubberBand: RubberBand
    /// A page's extent, P.
    let pageSize: Double
    /// From one page to the next, D = P + g.
    let stride: Double
    /// The space before the current page when centred, κ; else 0.
    let leadingSpace: Double
    /// M, the largest rest offset of a bounded pager that is not centred; nil when rest offsets
    /// are not bounded (a loop, centred pages, or one page per viewport, where no page passes M).
    let maxOffset: Double?

    /// The strip of `settings` for `count` pages. A loop of one page is laid out as bounded.
    init(settings: PagerSettings, count: Int) {
        let extent = settings.orientation == .vertical ? settings.viewportHeight : settings.viewportWidth
        self.count = count
        self.extent = extent
        onePerView = settings.hasOnePagePerView
        mirrored = settings.layoutDirection == .rtl && settings.orientation == .horizontal
        loops = settings.mode == .loop && count > 1
        rubberBand = settings.rubberBand
        guard !onePerView else {
            pageSize = extent
            stride = extent
            leadingSpace = 0
            maxOffset = nil
            return
        }
        let perView = settings.pagesPerView, spacing = settings.pageSpacing
        pageSize = (extent - (perView - 1) * spacing) / perView
        stride = pageSize + spacing
        leadingSpace = settings.pagesCentered ? (extent - pageSize) / 2 : 0
        maxOffset = settings.pagesCentered || loops ? nil : max(0, Double(count - 1) * stride - (extent - pageSize))
    }

    // MARK: - Rest offsets

    /// Whether position `position` cannot rest at its own offset: past M.
    func isLimited(_ position: Int) -> Bool {
        guard let maxOffset else { return false }
        return Double(position) * stride - leadingSpace > maxOffset + Self.sameOffset
    }

    /// O_j: where the view rests on position `position`, left to right.
    func restOffset(_ position: Int) -> Double {
        if onePerView { return Double(position) * extent }
        return isLimited(position) ? maxOffset ?? 0 : Double(position) * stride - leadingSpace
    }

    /// R = O_0 + O_{n−1}, about which a mirrored offset turns: R − offset.
    var mirrorSum: Double { restOffset(0) + restOffset(count - 1) }

    /// An offset as reported: mirrored when horizontal and right to left.
    func reported(_ offset: Double) -> Double {
        guard mirrored else { return offset }
        return onePerView ? Double(count - 1) * extent - offset : mirrorSum - offset
    }

    /// The reported offset at rest on `position`, as a keyframe carries it.
    func reportedRestOffset(_ position: Int) -> Double { reported(restOffset(position)) }

    // MARK: - The offset now

    /// δ = σ_e·D/E: how far an overscroll displaces the page past its end, in strides, with the
    /// rubber band's resistance applied to the finger's travel.
    func shift(of overscroll: Overscroll) -> Double {
        let travel = overscroll.progress * stride
        let displacement = rubberBand.style == .resistance ? max(0, pow(travel, rubberBand.ratio) - 1) : travel
        return (overscroll.edge == .end ? 1 : -1) * displacement / stride
    }

    /// The view's offset on `current`, left to right, with `transition` in flight or displaced
    /// `shift` strides past an end: q·D − κ for q = c, c + σ·f or c + δ, unclamped and unwrapped,
    /// except that where the current page or the target is limited the view moves between their
    /// rest offsets.
    func offset(current: Int, transition: Transition?, shift: Double?) -> Double {
        guard !onePerView else {
            let moving = transition.map { $0.direction.sign * $0.progress } ?? shift ?? 0
            return (Double(current) + moving) * extent
        }
        let rest = restOffset(current)
        if let transition {
            let target = current + (transition.direction == .forward ? 1 : -1)
            if isLimited(current) || isLimited(target) {
                return rest + (restOffset(target) - rest) * transition.progress
            }
            return (Double(current) + transition.direction.sign * transition.progress) * stride - leadingSpace
        }
        if let shift {
            if isLimited(current) { return rest + shift * stride }
            return (Double(current) + shift) * stride - leadingSpace
        }
        return rest
    }

    /// The page offset as reported on `current` with `transition` or `overscroll` in flight.
    func reportedOffset(current: Int, transition: Transition?, overscroll: Overscroll?) -> Double {
        reported(offset(current: current, transition: transition, shift: overscroll.map(shift(of:))))
    }

    // MARK: - Scroll inputs

    /// Signed progress from an `offset` scroll input (physical, from the content's start) on
    /// `current`: in strides from the current page's offset, or, where that page or the neighbour
    /// the offset points to is limited, as the share of the way between their rest offsets. An
    /// offset within 1e-9 of the page offset `current` reports at rest (computed as it is
    /// reported, so a client sending back the `pageOffset` it was given is on it exactly, at any
    /// size) is that offset: progress 0.
    func progress(fromOffset physical: Double, current: Int) -> Double {
        let reportedRest = reportedOffset(current: current, transition: nil, overscroll: nil)
        guard abs(physical - reportedRest) > Self.sameOffset else { return 0 }
        guard !onePerView else {
            guard mirrored else { return physical / extent - Double(current) }
            return (Double(count - 1) * extent - physical) / extent - Double(current)
        }
        let offset = mirrored ? mirrorSum - physical : physical
        let rest = restOffset(current)
        if maxOffset != nil {
            let target = offset - rest < 0 ? current - 1 : current + 1
            let hasTarget = (0..<count).contains(target)
            if isLimited(current) || (hasTarget && isLimited(target)) {
                // Rest offsets that agree to within 1e-9 are one offset: with a whole number of
                // pages per view, the last unlimited position's j·D − κ and M differ by rounding.
                let span = hasTarget ? abs(restOffset(target) - rest) : 0
                return (offset - rest) / (span <= Self.sameOffset ? stride : span)
            }
        }
        return (offset + leadingSpace) / stride - Double(current)
    }

    /// Signed progress from a `windowOffset` scroll input: a paging scroll view three strides
    /// long, one stride at rest (within 1e-9).
    func progress(fromWindowOffset offset: Double) -> Double {
        guard abs(offset - stride) > Self.sameOffset else { return 0 }
        return mirrored ? (stride - offset) / stride : (offset - stride) / stride
    }

    /// Offsets closer than this are one offset: every comparison that picks a case allows it.
    static let sameOffset = 1e-9

    // MARK: - Pages on screen

    /// Calls `body` with each page on screen on `current` with `transition` in flight (at rest in
    /// an overscroll) and the share of it that shows, leaving out a page that shows no more than
    /// a point: the current page first, then the target, then the others along the axis. In a
    /// loop a position shows page position mod n, so a small loop can show a page twice.
    func forEachVisible(current: Int, transition: Transition?, _ body: (_ page: Int, _ fraction: Double) -> Void) {
        guard !onePerView else {
            guard let transition else { return body(current, 1) }
            if (1 - transition.progress) * extent > 1 + 1e-9 { body(current, 1 - transition.progress) }
            if transition.progress * extent > 1 + 1e-9 { body(transition.to, transition.progress) }
            return
        }
        let view = offset(current: current, transition: transition, shift: nil)
        let target = transition.map { current + ($0.direction == .forward ? 1 : -1) }
        func show(_ position: Int) {
            let overlap = overlap(position, offset: view)
            guard Self.shows(overlap) else { return }
            // (start + P) − start can round above P: a share is never more than the whole page.
            body(page(at: position), min(1, overlap / pageSize))
        }
        show(current)
        if let target { show(target) }
        for position in candidates(offset: view) where position != current && position != target { show(position) }
    }

    /// Calls `body` with the pages to preload on `current`, `preload` on each side of those on
    /// screen at rest (of the current page alone with one page per view), nearest first (the one
    /// before first at equal distance), without the current page and each page once. With
    /// `namingScrolled`, at least one on each side when pages besides the current one are on
    /// screen: the pages a scroll can bring into view.
    func forEachPreload(current: Int, preload: Int, namingScrolled: Bool = false, _ body: (Int) -> Void) {
        var first = current, last = current
        if !onePerView {
            let rest = restOffset(current)
            for position in candidates(offset: rest) where Self.shows(overlap(position, offset: rest)) {
                first = min(first, position)
                last = max(last, position)
            }
        }
        let reach = namingScrolled && (first < current || last > current) ? max(1, preload) : preload
        first -= reach
        last += reach
        // The positions visited form one unbroken run around the current one, growing by one
        // each time, so in a loop the first n − 1 of them are n − 1 distinct pages: counting is
        // all it takes to avoid repeats, with no set to hash into.
        var listed = 0
        var distance = 1
        while current - distance >= first || current + distance <= last {
            let before = current - distance, after = current + distance
            if loops {
                if before >= first {
                    guard listed < count - 1 else { return }
                    listed += 1
                    body(page(at: before))
                }
                if after <= last {
                    guard listed < count - 1 else { return }
                    listed += 1
                    body(page(at: after))
                }
            } else {
                if before >= first, before >= 0 { body(before) }
                if after <= last, after < count { body(after) }
            }
            distance += 1
        }
    }

    /// The page at position `position`: itself, or position mod n in a loop.
    private func page(at position: Int) -> Int { loops ? ((position % count) + count) % count : position }

    /// How much of position `position` shows in a view at `offset`, in points.
    private func overlap(_ position: Int, offset: Double) -> Double {
        let start = Double(position) * stride
        return min(start + pageSize, offset + extent) - max(start, offset)
    }

    /// The positions that may overlap a view at `offset`: those of 0..<n, or any in a loop.
    private func candidates(offset: Double) -> Range<Int> {
        var first = Int(((offset - pageSize) / stride).rounded(.down))
        var last = Int(((offset + extent) / stride).rounded(.up))
        if !loops {
            first = max(first, 0)
            last = min(last, count - 1)
        }
        return first..<max(first, last + 1)
    }

    /// Whether an overlap shows: more than one point.
    private static func shows(_ overlap: Double) -> Bool { overlap > 1 + 1e-9 }
}
