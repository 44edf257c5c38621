import PagerModel
import Testing

/// Pages with ids p0, p1, … and the given titles (default "Page i").
func makePages(_ count: Int, titles: [String]? = nil, widths: [Double?]? = nil) -> [Page] {
    (0..<count).map { i in
        Page(id: "p\(i)", title: titles?[i] ?? "Page \(i)", tabWidth: widths?[i] ?? nil)
    }
}

func makePager(
    _ count: Int, mode: PagerMode = .bounded, layout: TabLayout = .fixed, width: Double = 390,
    style: IndicatorStyle = .linear, titles: [String]? = nil, widths: [Double?]? = nil, initial: Int? = nil,
    configure: (inout PagerSettings) -> Void = { _ in }
) throws -> Pager {
    var settings = PagerSettings()
    settings.mode = mode
    settings.viewportWidth = width
    settings.tabBar.layout = layout
    settings.tabBar.indicatorStyle = style
    configure(&settings)
    return try Pager(
        pages: makePages(count, titles: titles, widths: widths), initialPage: initial.map { .index($0) },
        settings: settings)
}

extension Pager {
    /// Applies a command, failing the test on a refusal.
    func after(_ command: PagerCommand, sourceLocation: SourceLocation = #_sourceLocation) throws -> Pager {
        try applying(command).pager
    }
}

func expectClose(
    _ a: Double?, _ b: Double, _ tolerance: Double = 1e-6, sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let a else {
        Issue.record("expected \(b), found nil", sourceLocation: sourceLocation)
        return
    }
    #expect(abs(a - b) <= tolerance, "\(a) ≠ \(b)", sourceLocation: sourceLocation)
}

func expectFrames(_ frames: [Frame]?, _ expected: [(Double, Double)], sourceLocation: SourceLocation = #_sourceLocation)
{
    guard let frames, frames.count == expected.count else {
        Issue.record("expected \(expected), found \(String(describing: frames))", sourceLocation: sourceLocation)
        return
    }
    for (frame, (x, width)) in zip(frames, expected) {
        expectClose(frame.x, x, sourceLocation: sourceLocation)
        expectClose(frame.width, width, sourceLocation: sourceLocation)
    }
}
