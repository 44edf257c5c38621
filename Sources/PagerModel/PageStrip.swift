/// How pages sit along the page axis when a viewport shows several, or leaves a gap between
/// them, or centres the current one: each page's extent P, the stride D from one page to the next,
/// the space κ before a centred page, and the rest offsets, which a bounded pager that is not
/// centred stops at M, where its last page touches the viewport's trailing edge. Everything here
/// is left to right (top to bottom when vertical), before a right-to-left layout mirrors it, and
/// reads nothing about the pages but their count.
struct PageStrip {
    /// The number of pages, n.
    let count: Int
    /// The viewport's extent along the page axis, E.
    let extent: Double
    /// A page's extent, P = (E − (k − 1)·g)/k.
    let pageSize: Double
    /// From one page to the next, D = P + g.
    let stride: Double
    /// The space before the current page when centred, κ = (E − P)/2; else 0.
    let leadingSpace: Double
    /// M, the largest rest offset of a bounded pager that is not centred; nil when rest offsets
    /// are not bounded (a loop, or centred pages).
    let maxOffset: Double?

    /// The strip of `settings` for `count` pages. A loop of one page is laid out as bounded.
    init(settings: PagerSettings, count: Int) {
        let extent = settings.orientation == .vertical ? settings.viewportHeight : settings.viewportWidth
        let perView = settings.pagesPerView, spacing = settings.pageSpacing
        self.count = count
        self.extent = extent
        pageSize = (extent - (perView - 1) * spacing) / perView
        stride = pageSize + spacing
        leadingSpace = settings.pagesCentered ? (extent - pageSize) / 2 : 0
        if !settings.pagesCentered, settings.mode == .bounded || count < 2 {
            maxOffset = max(0, Double(count - 1) * stride - (extent - pageSize))
        } else {
            maxOffset = nil
        }
    }

    /// Whether position `position` cannot rest at its own offset: past M.
    func isLimited(_ position: Int) -> Bool {
        guard let maxOffset else { return false }
        return Double(position) * stride - leadingSpace > maxOffset + 1e-9
    }

    /// O_j: where the view rests on position `position`.
    func restOffset(_ position: Int) -> Double {
        isLimited(position) ? maxOffset ?? 0 : Double(position) * stride - leadingSpace
    }

    /// R = O_0 + O_{n−1}: a right-to-left layout reports R − offset.
    var mirrorSum: Double { restOffset(0) + restOffset(count - 1) }

    /// The view's offset on `current` with `transition` in flight, or displaced `shift` pages
    /// past an end: q·D − κ for q = c, c + σ·f or c + δ, except that where the current page or
    /// the target is limited it moves between their rest offsets.
    func offset(current: Int, transition: Transition?, shift: Double?) -> Double {
        let rest = restOffset(current)
        if let transition {
            let sign = transition.direction.sign
            let target = current + (transition.direction == .forward ? 1 : -1)
            if isLimited(current) || isLimited(target) {
                return rest + (restOffset(target) - rest) * transition.progress
            }
            return (Double(current) + sign * transition.progress) * stride - leadingSpace
        }
        if let shift {
            if isLimited(current) { return rest + shift * stride }
            return (Double(current) + shift) * stride - leadingSpace
        }
        return rest
    }

    /// Signed progress from an `offset` scroll input (already unmirrored) on `current`: in
    /// strides from the current page's offset, or, where that page or the neighbour the offset
    /// points to is limited, as the share of the way between their rest offsets.
    func progress(fromOffset offset: Double, current: Int) -> Double {
        let rest = restOffset(current)
        if maxOffset != nil {
            let target = offset - rest < 0 ? current - 1 : current + 1
            let hasTarget = (0..<count).contains(target)
            if isLimited(current) || (hasTarget && isLimited(target)) {
                let span = hasTarget ? abs(restOffset(target) - rest) : 0
                return (offset - rest) / (span == 0 ? stride : span)
            }
        }
        return (offset + leadingSpace) / stride - Double(current)
    }

    /// How much of position `position` (page `position` mod n in a loop) shows in a view at
    /// `offset`, in points.
    func overlap(_ position: Int, offset: Double) -> Double {
        let start = Double(position) * stride
        return min(start + pageSize, offset + extent) - max(start, offset)
    }

    /// The positions that may overlap a view at `offset`: those of 0..<n, or in a loop any
    /// integer (a position names page position mod n).
    func candidates(offset: Double, loops: Bool) -> Range<Int> {
        var first = Int(((offset - pageSize) / stride).rounded(.down))
        var last = Int(((offset + extent) / stride).rounded(.up))
        if !loops {
            first = max(first, 0)
            last = min(last, count - 1)
        }
        return first..<max(first, last + 1)
    }

    /// Whether an overlap shows: more than one point.
    static func shows(_ overlap: Double) -> Bool { overlap > 1 + 1e-9 }
}
