import Foundation
import PagerdClient
import TestSupport
import Testing

/// Following a session's events: while another client moves it, across a restart of the server,
/// and until the follower is cancelled.
@Suite struct EventTests {
    @Test func followsWhileAnotherClientMoves() async throws {
        let server = try await Server()
        let mover = server.client()
        let created = try await mover.createSession(template: "media")
        let follower = server.client()
        try await follower.open(sessionID: created.id)
        let events = try await follower.events()

        var iterator = events.makeAsyncIterator()
        let first = try #require(try await iterator.next())
        #expect(first.kind == .state && first.state.version == 1 && first.cause == nil)

        _ = try await mover.next()
        _ = try await mover.scroll(.progress(0.5))
        _ = try await mover.end(completed: false)
        _ = try await mover.insert(.init(id: "podcasts", title: "Podcasts"))
        _ = try await mover.push(.init(id: "album"), onPage: "videos")
        _ = try await mover.patch(.init(preload: 2))
        var received: [PagerEvent] = []
        for _ in 0..<6 { received.append(try #require(try await iterator.next())) }
        #expect(
            received.map(\.kind) == [
                .pageChanged, .transition, .transition, .pagesChanged, .stackChanged, .settingsChanged,
            ])
        #expect(received.map(\.state.version) == [2, 3, 4, 5, 6, 7])
        #expect(received.allSatisfy { $0.cause == .request })
        #expect(received[1].state.transition?.progress == 0.5)
        #expect(await follower.state == received.last?.state)  // the follower's state follows

        _ = try await mover.delete()
        let deleted = try #require(try await iterator.next())
        #expect(deleted.kind == .deleted && deleted.cause == .request)
        #expect(try await iterator.next() == nil)  // the sequence ends with the session
    }

    @Test func startsAfterAVersion() async throws {
        let server = try await Server()
        let client = server.client()
        _ = try await client.createSession(template: "snap")
        _ = try await client.next()
        var iterator = try await client.events(after: 1).makeAsyncIterator()
        let catchUp = try #require(try await iterator.next())
        #expect(catchUp.kind == .state && catchUp.state.version == 2)  // what came after version 1
        _ = try await client.next()
        let next = try #require(try await iterator.next())
        #expect(next.kind == .pageChanged && next.state.version == 3)
    }

    @Test func refusedStreamEndsWithTheProblem() async throws {
        let server = try await Server()
        let client = server.client()
        _ = try await client.createSession(template: "snap")
        let other = server.client()
        try await other.open(sessionID: try #require(await client.sessionID))
        try await other.delete()
        do {
            for try await event in try await client.events() { Issue.record("unexpected \(event.kind)") }
            Issue.record("the stream of a deleted session ended without an error")
        } catch let error as PagerClientError {
            #expect(error.status == 404 && error.code == "session_not_found")
        }
    }

    @Test(.timeLimit(.minutes(1))) func reconnectsAfterRestartWithNoVersionMissed() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("pagerd-client-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: data) }
        let environment = [
            "PAGERD_STORAGE": "sqlite", "PAGERD_DATA_PATH": data.appendingPathComponent("pagerd.db").path,
        ]

        var server = try await Server(environment: environment)
        let port = server.port
        let mover = server.client()
        let created = try await mover.createSession(template: "snap")
        let follower = server.client()
        try await follower.open(sessionID: created.id)

        let versions = VersionLog()
        let following = Task {
            for try await event in try await follower.events() {
                await versions.append(event.state.version, event.kind)
            }
        }
        await waitUntil("the first event arrived") { await versions.versions == [1] }
        try await expectNextVersion(in: versions) { _ = try await mover.next() }
        try await expectNextVersion(in: versions) { _ = try await mover.scroll(.progress(0.3)) }

        try await server.stop()
        server = try await Server(port: port, environment: environment)
        let restarted = server
        // Version 4 is made at once, most likely while the follower waits to connect again (it
        // then comes as the `state` its Last-Event-ID of 3 asks for), version 5 once it follows.
        _ = try await mover.end(completed: true)
        await waitUntil("the follower is connected again") {
            (try? await restarted.metric("pagerd_event_subscribers")) == 1
        }
        _ = try await mover.previous()
        await waitUntil("the follower saw version 5") { await versions.versions.last == 5 }
        following.cancel()
        _ = await following.result

        let seen = await versions.versions
        #expect(seen == [1, 2, 3, 4, 5])
        let kinds = await versions.kinds
        #expect(kinds.count == 5 && [.state, .pageChanged].contains(kinds[3]))
        let others = kinds.enumerated().filter { $0.offset != 3 }.map(\.element)
        #expect(others == [.state, .pageChanged, .transition, .pageChanged])
        #expect(await follower.state?.version == 5)
    }

    @Test func cancellationClosesTheConnection() async throws {
        let server = try await Server()
        let client = server.client()
        _ = try await client.createSession(template: "media")
        let versions = VersionLog()
        let following = Task {
            for try await event in try await client.events() { await versions.append(event.state.version, event.kind) }
        }
        await waitUntil("the first event arrived") { await versions.versions == [1] }
        #expect(try await server.metric("pagerd_event_subscribers") == 1)
        following.cancel()
        let ended = await following.result
        #expect((try? ended.get()) != nil)  // cancellation ends the sequence, not with an error
        await waitUntil("the server released the stream") {
            (try? await server.metric("pagerd_event_subscribers")) == 0
        }
    }

    /// Runs `change` and waits until the follower's log ends with the version after the one it
    /// ended with before.
    private func expectNextVersion(in log: VersionLog, _ change: () async throws -> Void) async throws {
        let before = await log.versions.last ?? 0
        try await change()
        await waitUntil("the follower saw version \(before + 1)") { await log.versions.last == before + 1 }
    }
}

/// What a follower saw, in order.
actor VersionLog {
    private(set) var versions: [Int] = []
    private(set) var kinds: [EventKind] = []

    func append(_ version: Int, _ kind: EventKind) {
        versions.append(version)
        kinds.append(kind)
    }
}
