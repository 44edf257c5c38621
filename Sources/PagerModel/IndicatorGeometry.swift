import Foundation

/// The indicator's frame: the unwrapped frame plus the visible pieces inside the tab bar.
public struct Indicator: Sendable, Equatable {
    /// The unwrapped left edge (may lie outside the bar while wrapping across a loop's seam).
    public var x: Double
    /// The width.
    public var width: Double
    /// The height, as configured.
    public var height: Double
    /// The visible pieces, clipped to [0, contentWidth]: the piece inside the bar's unwrapped
    /// range first, then the piece that wrapped around, if any; a piece no wider than 1e-9 (a
    /// rounding sliver) is left out.
    public var segments: [Frame]
    /// The opacity: 1, except while a `fade` indicator crosses between tabs.
    public var alpha: Double = 1
}

/// The indicator formulas (docs/api.md, «The indicator»).
enum IndicatorGeometry {
    /// a(f) = 1 − cos(f·π/2): starts slow.
    static func ease(_ f: Double) -> Double { 1 - cos(f * .pi / 2) }
    /// d(f) = sin(f·π/2): starts fast.
    static func lead(_ f: Double) -> Double { sin(f * .pi / 2) }

    static func lerp(_ a: Double, _ b: Double, _ t: Double) -> Double { a + (b - a) * t }

    /// The frame between `current` and `target` at progress `f` in `style`.
    static func interpolate(from current: Frame, to target: Frame, progress f: Double, style: IndicatorStyle) -> Frame {
        switch style {
        case .linear, .fade:
            // A fading indicator does not move (the caller places it); linear is its fallback.
            return Frame(x: lerp(current.x, target.x, f), width: lerp(current.width, target.width, f))
        case .elastic:
            let left: Double, right: Double
            if target.x > current.x {
                left = lerp(current.x, target.x, ease(f))
                right = lerp(current.maxX, target.maxX, lead(f))
            } else {
                left = lerp(current.x, target.x, lead(f))
                right = lerp(current.maxX, target.maxX, ease(f))
            }
            return Frame(x: left, width: right - left)
        }
    }

    /// The widest piece of an indicator that is a rounding sliver: every answer leaves out a
    /// segment no wider than this.
    static let sliver = 1e-9

    /// Whether a piece `width` wide is shown: wider than a ``sliver``.
    static func shows(_ width: Double) -> Bool { width > sliver }

    /// The visible pieces of `frame` in a bar of `contentWidth`, wrapping what passes either edge;
    /// slivers left out.
    static func segments(of frame: Frame, contentWidth: Double) -> [Frame] {
        var pieces: [Frame] = []
        let insideLeft = max(frame.x, 0), insideRight = min(frame.maxX, contentWidth)
        if shows(insideRight - insideLeft) { pieces.append(Frame(x: insideLeft, width: insideRight - insideLeft)) }
        if frame.x < 0 {
            let width = min(-frame.x, frame.width)
            if shows(width) { pieces.append(Frame(x: contentWidth + frame.x, width: width)) }
        }
        if frame.maxX > contentWidth {
            let width = min(frame.maxX - contentWidth, frame.width)
            if shows(width) { pieces.append(Frame(x: max(frame.x - contentWidth, 0), width: width)) }
        }
        return pieces
    }

    /// `frame` clipped to [0, `contentWidth`], one piece or none (an overscroll never wraps).
    static func clippedSegment(of frame: Frame, contentWidth: Double) -> [Frame] {
        let left = max(frame.x, 0), right = min(frame.maxX, contentWidth)
        return shows(right - left) ? [Frame(x: left, width: right - left)] : []
    }

    /// F: `focus` less `leading` and `trailing`. When the two add up to more than its width, it
    /// collapses to no width at the point that divides the frame in their ratio.
    static func inset(_ focus: Frame, leading: Double, trailing: Double) -> Frame {
        let total = leading + trailing
        if total > 0, total > focus.width {
            return Frame(x: focus.x + focus.width * leading / total, width: 0)
        }
        return Frame(x: focus.x + leading, width: focus.width - leading - trailing)
    }

    /// The scroll offset that puts `frame` at `position` in a bar `viewportWidth` wide, clamped to
    /// [0, max(0, contentWidth − W)]: centred (x + w/2 − W/2), or `inset` from the bar's leading
    /// (x − e) or trailing edge (x + w + e − W).
    static func tabBarOffset(
        for frame: Frame, position: TabBarPosition = .center, inset: Double = 0, viewportWidth: Double,
        contentWidth: Double
    ) -> Double {
        let wanted: Double
        switch position {
        case .center: wanted = frame.x + frame.width / 2 - viewportWidth / 2
        case .leading: wanted = frame.x - inset
        case .trailing: wanted = frame.x + frame.width + inset - viewportWidth
        }
        return min(max(wanted, 0), max(0, contentWidth - viewportWidth))
    }
}
