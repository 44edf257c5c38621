import PagerModel
import TestSupport
import Testing

@testable import PagerSessions

/// With a shared store, a session's versions reach an engine from its own commits and from the
/// notifications of other instances' commits, in no set order between the two; subscribers must
/// still see every version once, in order.
@Suite("A shared session's changes reach subscribers in version order", .timeLimit(.minutes(1)))
struct OrderedFeedTests {
    /// An engine over a shared store, a committed session and a prompt subscriber.
    private func watched() async throws -> (PagerEngine, HandStore, SessionID, Subscription) {
        let store = HandStore(shared: true)
        let engine = PagerEngine(store: store, drivesTimers: false)
        let created = try await engine.create(HandStore.threePages)
        store.answerAll()
        try await created.commit?.durable()
        let subscription = try await engine.subscribe(to: created.id, from: "10.0.0.1")
        return (engine, store, created.id, subscription)
    }

    /// The state at `version` another instance made by moving `from` forward.
    private func moved(_ from: Pager, to version: Int) throws -> Pager {
        let pager = try from.applying(.next, limits: PagerLimits(), now: 0).pager
        return try pager.restoring(
            index: pager.index, transition: nil, overscroll: nil, version: version, timer: pager.timer)
    }

    private func versions(_ subscription: Subscription, count: Int) async -> [Int] {
        var seen: [Int] = []
        for await event in subscription.events {
            seen.append(event.snapshot.version)
            if seen.count == count { break }
        }
        return seen
    }

    @Test("an own commit that follows a change lost to another instance waits for that change's notification")
    func ownCommitWaitsForTheRemoteVersionBeforeIt() async throws {
        let (engine, store, id, subscription) = try await watched()
        let one = subscription.snapshot.pager
        // Another instance made versions 2 and 3.
        let two = try moved(one, to: 2), three = try moved(two, to: 3)
        // This engine moves from version 1 too: its compare-and-swap loses, and the store hands
        // back the newest row, version 3.
        let lost = try await engine.apply(.next, to: id)
        store.answerAll(.conflict("version 2 is taken", current: three))
        await #expect(throws: EngineError.staleCopy) { try await lost.commit?.durable() }
        // Made again on version 3 (on the last page: a move back), it commits as version 4 ...
        let made = try await engine.apply(.previous, to: id)
        #expect(made.snapshot.version == 4)
        store.answerAll()
        try await made.commit?.durable()
        // ... before the notifications of versions 2 and 3 arrive.
        for pager in [two, three] {
            let notification = RemoteChange(
                id: id, version: pager.version, announcement: ChangeAnnouncement(kind: .pageChanged, cause: .request),
                state: .whole(pager))
            #expect(await engine.absorb(notification) == false)
        }
        #expect(await versions(subscription, count: 3) == [2, 3, 4])
    }

    @Test("notifications that arrive before their predecessors are published once those are")
    func remoteChangesOutOfOrder() async throws {
        let (engine, _, id, subscription) = try await watched()
        let one = subscription.snapshot.pager
        let two = try moved(one, to: 2), three = try moved(two, to: 3)
        func change(_ pager: Pager) -> RemoteChange {
            RemoteChange(
                id: id, version: pager.version, announcement: ChangeAnnouncement(kind: .pageChanged, cause: .request),
                state: .whole(pager))
        }
        _ = await engine.absorb(change(three))
        _ = await engine.absorb(change(two))
        _ = await engine.absorb(change(two))  // a repeat is published once
        #expect(await versions(subscription, count: 2) == [2, 3])
        // A new subscriber starts from the version the others saw last.
        #expect(try await engine.subscribe(to: id, from: "10.0.0.2").snapshot.version == 3)
        #expect(await engine.skippedEvents == 0)
    }

    @Test("past 256 changes waiting for a lost one, the newest state held is published and the changes after it follow")
    func tooManyWaiting() async throws {
        let (engine, _, id, subscription) = try await watched()
        var states = [subscription.snapshot.pager]  // states[k] is version k + 1
        for version in 2...260 { states.append(try moved(states[states.count - 1], to: version)) }
        func change(_ pager: Pager) -> RemoteChange {
            RemoteChange(
                id: id, version: pager.version, announcement: ChangeAnnouncement(kind: .pageChanged, cause: .request),
                state: .whole(pager))
        }
        // Version 2's notification is lost; 3…259 wait for it, and the 257th to wait (259) is one
        // too many: the newest state held (258, since a change is taken in after it is delivered)
        // is published, then 259, which came past it, and 260.
        for pager in states[2...258] { _ = await engine.absorb(change(pager)) }  // versions 3…259
        _ = await engine.absorb(change(states[259]))  // version 260
        #expect(await versions(subscription, count: 3) == [258, 259, 260])
        #expect(await engine.skippedEvents == 256)  // versions 2…257
    }

    @Test("a deletion while changes wait for a lost one ends the stream, and the versions never published count")
    func deletedWhileWaiting() async throws {
        let (engine, _, id, subscription) = try await watched()
        let two = try moved(subscription.snapshot.pager, to: 2), three = try moved(two, to: 3)
        _ = await engine.absorb(
            RemoteChange(
                id: id, version: 3, announcement: ChangeAnnouncement(kind: .pageChanged, cause: .request),
                state: .whole(three)))
        _ = await engine.absorb(
            RemoteChange(
                id: id, version: 4, announcement: ChangeAnnouncement(kind: .deleted, cause: .request),
                state: .deleted))
        var seen: [(SessionEventKind, Int)] = []
        for await event in subscription.events { seen.append((event.kind, event.snapshot.version)) }
        #expect(seen.map(\.0) == [.deleted] && seen.map(\.1) == [3])
        #expect(await engine.skippedEvents == 1)  // version 2
    }

    @Test("after lost notifications, the state loaded is published and the versions it skips count for each subscriber")
    func resynchronizationSkips() async throws {
        let (engine, _, id, subscription) = try await watched()
        let other = try await engine.subscribe(to: id, from: "10.0.0.2")
        let one = subscription.snapshot.pager
        let four = try moved(moved(moved(one, to: 2), to: 3), to: 4)
        await engine.expectResynchronization()
        await engine.adopt(StoredSession(id: id, pager: four, lastUsed: 0))
        #expect(await versions(subscription, count: 1) == [4])
        #expect(await versions(other, count: 1) == [4])
        #expect(await engine.skippedEvents == 4)  // versions 2 and 3, for each of the two
    }
}
