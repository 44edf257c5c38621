import Foundation
import HTTPTypes
import JSON
import PagerModel
import PagerSessions
import TestSupport
import Testing

@Suite("PagerEngine: ids, change feed, concurrency")
struct EngineTests {
    @Test("session ids are 22 URL-safe characters carrying 128 random bits, all distinct")
    func ids() {
        var seen = Set<SessionID>()
        for _ in 0..<2000 {
            let id = SessionID.random()
            #expect(id.rawValue.utf8.count == 22 && id.isWellFormed)
            seen.insert(id)
        }
        #expect(seen.count == 2000)
    }

    @Test("subscribers see every change in order with its kind, then deleted")
    func changeFeed() async throws {
        let engine = PagerEngine()
        let created = try await engine.create(Definitions.media)
        let subscription = try await engine.subscribe(to: created.id)
        let snapshot = subscription.snapshot, events = subscription.events
        #expect(snapshot.version == 1)
        let collector = Task {
            var seen: [(SessionEventKind, Int)] = []
            for await event in events { seen.append((event.kind, event.snapshot.version)) }
            return seen
        }
        // Each change gives the collector time to read it, so the order seen is the order made
        // (the feed buffers the newest 64 events; a slower reader would lose the oldest).
        func step(_ command: PagerCommand) async throws {
            _ = try await engine.apply(command, to: created.id)
            try await Task.sleep(for: .milliseconds(20))
        }
        try await step(.next)
        try await step(.scroll(.progress(0.3)))
        try await step(.insert(Page(id: "x", title: "X"), at: nil))
        try await step(.push(pageID: "x", Screen(id: "s")))
        try await step(.next)
        try await step(.next)  // at the end: no change, nothing published
        _ = try await engine.delete(created.id)
        let seen = await collector.value
        #expect(
            seen.map(\.0) == [
                .pageChanged, .transition, .pagesChanged, .stackChanged, .pageChanged, .pageChanged, .deleted,
            ])
        #expect(seen.map(\.1) == [2, 3, 4, 5, 6, 7, 7])
        #expect(engine.subscriberTotal == 0)
    }

    @Test("a subscriber that does not read keeps the newest 64 events; the older ones count as skipped")
    func slowSubscriber() async throws {
        let engine = PagerEngine()
        let id = try await engine.create(Definitions.mall).id
        let subscription = try await engine.subscribe(to: id)
        for _ in 0..<100 { _ = try await engine.apply(.next, to: id) }
        #expect(await engine.skippedEvents == 36)
        _ = try await engine.delete(id)  // `deleted` takes the place of the oldest kept, version 38
        var seen: [(SessionEventKind, Int)] = []
        for await event in subscription.events { seen.append((event.kind, event.snapshot.version)) }
        #expect(seen.map(\.1) == Array(39...101) + [101])
        #expect(seen.last?.0 == .deleted)
        #expect(await engine.skippedEvents == 37)
    }

    @Test("events that only repeat a version (actionRequested) are not counted as skipped when dropped")
    func repeatsAreNotSkips() async throws {
        var settings = PagerSettings()
        settings.trailingAction = PagerAction(id: "add", title: "Add")
        let engine = PagerEngine()
        let id = try await engine.create(
            PagerDefinition(pages: [Page(id: "a", title: "A")], initialPage: nil, settings: settings, catalog: [])
        ).id
        let subscription = try await engine.subscribe(to: id)
        for _ in 0..<100 {
            let result = try await engine.apply(.next, to: id)  // at the end: asks for the action
            #expect(result.outcome.actionRequested != nil && result.snapshot.version == 1)
        }
        #expect(await engine.skippedEvents == 0)
        withExtendedLifetime(subscription) {}
    }

    @Test("commands from many tasks on one session apply one at a time: versions 2…801 each once", .runsAlone)
    func concurrentCommands() async throws {
        let engine = PagerEngine()
        let id = try await engine.create(Definitions.mall).id
        let versions = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<16 {
                group.addTask {
                    var mine: [Int] = []
                    for _ in 0..<50 { mine.append(try await engine.apply(.next, to: id).snapshot.version) }
                    return mine
                }
            }
            return try await group.reduce(into: [Int]()) { $0 += $1 }
        }
        #expect(versions.sorted() == Array(2...801))
        #expect(try await engine.snapshot(of: id).pager.index == 800 % 3)
    }

    @Test(
        "synchronous and awaited entries exclude each other: 8 threads × 100 withLock and 8 tasks × 100 awaited give versions 2…1601 each once",
        .runsAlone)
    func synchronousAndAwaitedCommands() async throws {
        let engine = PagerEngine()
        let id = try await engine.create(Definitions.mall).id
        let versions = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var mine: [Int] = []
                    for _ in 0..<100 { mine.append(try await engine.apply(.next, to: id).snapshot.version) }
                    return mine
                }
            }
            // Plain threads, as the HTTP server's are, entering the engine synchronously.
            let threads = (0..<8).map { _ in
                ThreadCaller {
                    (0..<100).map { _ in
                        (try? engine.withLock { engine throws(EngineError) in try engine.apply(.next, to: id) })?
                            .snapshot.version ?? -1
                    }
                }
            }
            var all: [Int] = []
            for thread in threads { all += await thread.value }
            return try await group.reduce(into: all) { $0 += $1 }
        }
        #expect(versions.sorted() == Array(2...1601))
        let current = engine.withLock { engine in (try? engine.snapshot(of: id))?.version }
        #expect(current == 1601)
        #expect(try await engine.snapshot(of: id).pager.index == 1600 % 3)
    }
}

/// Runs `work` on a new thread outside Swift concurrency and hands its result to a task.
private final class ThreadCaller: Sendable {
    private let result = AsyncStream<[Int]>.makeStream()

    init(_ work: @escaping @Sendable () -> [Int]) {
        let continuation = result.continuation
        Thread.detachNewThread {
            continuation.yield(work())
            continuation.finish()
        }
    }

    var value: [Int] {
        get async {
            for await value in result.stream { return value }
            return []
        }
    }
}
