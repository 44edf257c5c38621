import Foundation
import HTTPTypes
import OpenAPIRuntime
import PagerdClient
import Testing

/// Prediction equals the server: for each case, every progress from −1 to 1 in steps of 0.05 in
/// each of the three input forms, predicted from the state the previous scroll left (at rest
/// first, then mid-swipe, across changes of direction) and compared with pagerd's answer to the
/// same scroll — numbers within 1e-6, everything else equal (docs/client-prediction.md).
struct PredictionTests {
    /// A session to swipe: a create request and the index to swipe from.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var create: Components.Schemas.CreateSession
        var index: Int
        var testDescription: String { "\(name) at \(index)" }
    }

    static let cases: [Case] = [
        Case(name: "media", create: .init(template: "media"), index: 0),
        Case(name: "media", create: .init(template: "media"), index: 1),
        Case(name: "media", create: .init(template: "media"), index: 2),
        Case(name: "media rtl", create: .init(template: "media", layoutDirection: .rtl), index: 1),
        Case(name: "media vertical", create: .init(template: "media", orientation: .vertical), index: 1),
        Case(name: "mall loop seam", create: .init(template: "mall"), index: 2),
        Case(name: "mall loop start", create: .init(template: "mall"), index: 0),
        Case(name: "snap without a tab bar", create: .init(template: "snap"), index: 1),
        Case(
            name: "titles styled, fade",
            create: .init(template: "media", tabBar: .init(indicator: .init(style: .fade), title: .init(scale: 0.8))),
            index: 1),
        Case(
            name: "elastic, halfway",
            create: .init(template: "media", tabBar: .init(indicator: .init(style: .elastic, tracking: .halfway))),
            index: 1),
        Case(
            name: "rubber band, bounce",
            create: .init(
                template: "media", rubberBand: .init(style: .resistance),
                tabBar: .init(indicator: .init(overscroll: .bounce))),
            index: 0),
        Case(name: "swipe forward only", create: .init(template: "media", swipe: .forward), index: 1),
        Case(
            name: "scrollable",
            create: .init(template: "media", viewport: .init(width: 200), tabBar: .init(layout: .scrollable)),
            index: 1),
    ]

    static let progresses: [Double] = (0...40).map { -1 + Double($0) * 0.05 }

    @Test(arguments: cases) func predictionEqualsTheServer(_ testCase: Case) async throws {
        try await Self.expectPredictionEqualsTheServer(testCase, predictor: ModelScrollPredictor())
    }

    @Test func refusalsAreTheServers() async throws {
        try await Self.expectRefusalsAreTheServers(predictor: ModelScrollPredictor())
    }

    @Test func clientPredictsFromTheStateItHolds() async throws {
        let server = try await Server()
        let client = server.client()
        _ = try await client.createSession(template: "mall")
        _ = try await client.select(index: 2)
        let predicted = try await client.predictScroll(.progress(0.5))  // reads the settings itself
        #expect(await client.settings?.mode == .loop)
        let answered = try await client.scroll(.progress(0.5))
        expectClose(predicted, ScrollMembers(of: answered), "mall across the seam")
        #expect(predicted.transition == .init(from: 2, to: 0, progress: 0.5, direction: .forward))

        let unable = PagerClient(baseURL: server.url, predictor: nil)
        _ = try await unable.createSession(template: "mall")
        let refused = await refusal { try await unable.predictScroll(.progress(0.5)) }
        #expect(refused == .predictionUnavailable)
    }

    @Test func predictionReadsTheSettingsAgainOnceTheStateNamesNewerOnes() async throws {
        let server = try await Server()
        let mine = server.client()
        let other = server.client()
        let created = try await mine.createSession(template: "media")
        #expect(try await mine.loadSettings().mode == .bounded)
        try await other.open(sessionID: created.id)
        _ = try await other.patch(.init(mode: .loop))  // another client makes the pager loop
        let learnt = try await mine.refresh()
        #expect(learnt.settingsVersion == 2)
        // At the first page, a swipe back crosses the seam only in a loop.
        let predicted = try await mine.predictScroll(.progress(-0.5))
        #expect(await mine.settings?.mode == .loop)
        let answered = try await mine.scroll(.progress(-0.5))
        expectClose(predicted, ScrollMembers(of: answered), "after another client's PATCH")
        #expect(predicted.transition?.to == 2)
    }

    @Test func framesDrawnDuringASettingsReadShareIt() async throws {
        let server = try await Server()
        let reads = SettingsReads()
        let client = PagerClient(baseURL: server.url, transport: CountingTransport(reads: reads))
        _ = try await client.createSession(template: "mall")
        // Sixty frames at once, with no settings held: one read for all of them.
        let predicted = try await withThrowingTaskGroup(of: ScrollMembers.self) { group in
            for frame in 1...60 { group.addTask { try await client.predictScroll(.progress(Double(frame) / 100)) } }
            return try await group.reduce(into: [ScrollMembers]()) { $0.append($1) }
        }
        #expect(predicted.count == 60)
        #expect(reads.count == 1)
        _ = try await client.predictScroll(.progress(0.7))
        #expect(reads.count == 1)
    }

    /// Swipes `testCase` through every progress and form, comparing `predictor` with pagerd.
    static func expectPredictionEqualsTheServer(_ testCase: Case, predictor: any ScrollPredicting) async throws {
        let server = try await Server()
        let client = server.client()
        _ = try await client.createSession(testCase.create)
        var state = try await client.select(index: testCase.index, ifMatch: .none)
        let settings = try await client.loadSettings()
        for form in 0..<3 {
            for progress in Self.progresses {
                let input = Self.input(form: form, progress: progress, state: state)
                let predicted = try predictor.predictScroll(state: state, settings: settings, input: input)
                let answered = try await client.scroll(input, ifMatch: .none)
                expectClose(predicted, ScrollMembers(of: answered), "\(testCase.testDescription) \(input)")
                expectClose(ScrollMembers(of: state.withScroll(predicted)), predicted, "withScroll \(input)")
                state = answered
            }
            state = try await client.end(completed: false, ifMatch: .none)
        }
    }

    /// A scroll pagerd refuses (every input a `ScrollInput` can hold is taken, clamped, so what is
    /// left is an empty pager): `predictor` refuses it with the same code.
    static func expectRefusalsAreTheServers(predictor: any ScrollPredicting) async throws {
        let server = try await Server()
        let client = server.client()
        let empty = try await client.createSession(template: "piggybank")
        let settings = try await client.loadSettings()
        let predictedEmpty = await refusal {
            try predictor.predictScroll(state: empty, settings: settings, input: .progress(0.5))
        }
        let answeredEmpty = await refusal { try await client.scroll(.progress(0.5)) }
        #expect(predictedEmpty?.code == answeredEmpty?.code && answeredEmpty?.code == "empty_pager")
        #expect(predictedEmpty?.status == 409 && answeredEmpty?.status == 409)
    }

    /// The input of form `form` (progress, offset, window offset) that means `progress` from
    /// `state`'s page (docs/api.md, «Swipes», «Right to left», «Vertical pagers»).
    static func input(form: Int, progress: Double, state: PagerState) -> ScrollInput {
        let extent = state.orientation == .vertical ? state.viewport.height : state.viewport.width
        let mirrored = state.layoutDirection == .rtl && state.orientation == .horizontal
        let index = Double(state.index ?? 0)
        let last = Double(max(state.pageCount - 1, 0))
        switch form {
        case 0: return .progress(progress)
        case 1: return .offset(mirrored ? (last - index - progress) * extent : (index + progress) * extent)
        default: return .windowOffset(mirrored ? (1 - progress) * extent : (1 + progress) * extent)
        }
    }
}

/// Records an issue for each member of `predicted` that differs from `answered` (numbers by more
/// than 1e-6).
func expectClose(
    _ predicted: ScrollMembers, _ answered: ScrollMembers, _ context: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    func close(_ a: Double?, _ b: Double?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let a?, let b?): abs(a - b) <= 1e-6
        default: false
        }
    }
    var differences: [String] = []
    func check(_ name: String, _ same: Bool) { if !same { differences.append(name) } }
    check(
        "transition",
        predicted.transition?.from == answered.transition?.from
            && predicted.transition?.to == answered.transition?.to
            && predicted.transition?.direction == answered.transition?.direction
            && close(predicted.transition?.progress, answered.transition?.progress))
    check(
        "overscroll",
        predicted.overscroll?.edge == answered.overscroll?.edge
            && close(predicted.overscroll?.progress, answered.overscroll?.progress))
    check("pageOffset", close(predicted.pageOffset, answered.pageOffset))
    check(
        "visible",
        predicted.visible.count == answered.visible.count
            && zip(predicted.visible, answered.visible).allSatisfy {
                $0.index == $1.index && $0.id == $1.id && close($0.fraction, $1.fraction)
            })
    let (mine, theirs) = (predicted.indicator, answered.indicator)
    check(
        "indicator",
        (mine == nil) == (theirs == nil)
            && close(mine?.x, theirs?.x) && close(mine?.width, theirs?.width) && close(mine?.height, theirs?.height)
            && close(mine?.alpha, theirs?.alpha) && mine?.segments.count == theirs?.segments.count
            && zip(mine?.segments ?? [], theirs?.segments ?? []).allSatisfy {
                close($0.x, $1.x) && close($0.width, $1.width)
            })
    check("tabBar.offset", close(predicted.tabBarOffset, answered.tabBarOffset))
    check("tabBar.contentWidth", close(predicted.tabBarContentWidth, answered.tabBarContentWidth))
    check(
        "tabs",
        predicted.tabs.count == answered.tabs.count
            && zip(predicted.tabs, answered.tabs).allSatisfy {
                close($0.x, $1.x) && close($0.width, $1.width) && close($0.selection, $1.selection)
                    && $0.selected == $1.selected && $0.color == $1.color && close($0.scale, $1.scale)
            })
    check("edge", predicted.edge == answered.edge)
    check("blocked", predicted.blocked == answered.blocked)
    if !differences.isEmpty {
        Issue.record("\(context): \(differences.joined(separator: ", ")) differ", sourceLocation: sourceLocation)
    }
}

/// Counts the settings reads a client sends, passing every request to the default transport.
private struct CountingTransport: ClientTransport {
    let reads: SettingsReads
    let next = PagerClient.defaultTransport()

    func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        if operationID == "getSettings" { reads.increment() }
        return try await next.send(request, body: body, baseURL: baseURL, operationID: operationID)
    }
}

private final class SettingsReads: @unchecked Sendable {
    // @unchecked: `stored` is read and written only under `lock`.
    private let lock = NSLock()
    private var stored = 0
    var count: Int { lock.withLock { stored } }
    func increment() { lock.withLock { stored += 1 } }
}
