import Foundation
import OpenAPIRuntime
import PagerdClient
import TestSupport
import Testing

/// Every method of the façade against the real server, with the values pagerd answers.
@Suite struct CommandTests {
    @Test func movesSwipesAndJumps() async throws {
        let server = try await Server()
        let client = server.client()
        let files = try FileManager.default.contentsOfDirectory(
            atPath: PagerdProcess.repositoryRoot.appendingPathComponent("config/templates").path)
        let names = files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
        #expect(try await client.templates().map(\.name) == names)
        #expect(names.contains("media") && names.contains("posepicker"))

        var state = try await client.createSession(template: "media")
        #expect(state.version == 1 && state.index == 0 && state.page?.id == "photos")
        #expect(await client.sessionID == state.id)
        #expect(state.tabs.map(\.width) == [130, 130, 130])

        state = try await client.next()
        #expect(state.version == 2 && state.index == 1 && state.moved == true)
        state = try await client.previous()
        #expect(state.version == 3 && state.index == 0)

        state = try await client.select(page: "music")
        #expect(
            state.index == 2 && state.keyframes?.map(\.index) == [1, 2] && state.announcement == "Music, Page 3 of 3")
        state = try await client.select(index: 0, animation: .direct)
        #expect(state.index == 0 && state.keyframes?.map(\.index) == [0] && state.version == 5)

        state = try await client.scroll(.progress(0.25))
        #expect(state.transition == .init(from: 0, to: 1, progress: 0.25, direction: .forward))
        #expect(abs(state.pageOffset - 97.5) < 1e-6)
        #expect(abs((state.indicator?.x ?? -1) - 32.5) < 1e-6)
        state = try await client.scroll(.offset(195))
        #expect(state.transition?.progress == 0.5)
        state = try await client.scroll(.windowOffset(487.5))
        #expect(state.transition?.progress == 0.25)
        state = try await client.end(completed: true)
        #expect(state.index == 1 && state.transition == nil && state.moved == true)

        state = try await client.begin(to: 2)
        #expect(state.transition == .init(from: 1, to: 2, progress: 0, direction: .forward))
        state = try await client.end(completed: false)
        #expect(state.index == 1 && state.transition == nil)

        _ = try await client.scroll(.progress(0.3))
        state = try await client.end(velocity: 0.8)  // flung forward: completes
        #expect(state.index == 2 && state.transition == nil)
        #expect(state.settle == .init(completed: true, progress: 0.3, velocity: 0.8))
        _ = try await client.scroll(.progress(-0.6))
        state = try await client.end(velocity: 0.7)  // past half way, flung back: cancelled
        #expect(state.index == 2 && state.settle == .init(completed: false, progress: -0.6, velocity: 0.7))
        state = try await client.select(index: 1)

        let neighbors = try await client.neighbors()
        #expect(neighbors.previous?.id == "photos" && neighbors.next?.id == "music")
        #expect(await client.state?.version == state.version)
    }

    @Test func settingsAutoAdvanceAndDeletion() async throws {
        let server = try await Server()
        let client = server.client()
        _ = try await client.createSession(template: "media")
        var settings = try await client.loadSettings()
        #expect(settings.viewport.width == 390 && settings.tabBar.inset == 0)

        let state = try await client.patch(.init(viewport: .init(width: 844), tabBar: .init(inset: 16)))
        #expect(state.version == 2 && state.viewport.width == 844)
        #expect(abs(state.tabs[0].x - 16) < 1e-6 && abs(state.tabs[0].width - 270.6666666666667) < 1e-6)
        settings = try await client.loadSettings()
        #expect(settings.viewport.width == 844 && settings.tabBar.inset == 16)

        var running = try await client.autoAdvance(.start)
        #expect(running.autoAdvance.running && !running.autoAdvance.paused)
        running = try await client.autoAdvance(.pause)
        #expect(running.autoAdvance.paused && running.autoAdvance.pausedBy == .control)

        let id = try #require(await client.sessionID)
        try await client.delete()
        #expect(await client.sessionID == nil)
        let gone = await refusal { try await client.open(sessionID: id) }
        #expect(gone?.status == 404 && gone?.code == "session_not_found")
    }

    @Test func pagesAndStacks() async throws {
        let server = try await Server()
        let client = server.client()
        _ = try await client.createSession(template: "posepicker")

        var state = try await client.insert(fromCatalog: "bookmark", then: .select)
        #expect(state.pageCount == 4 && state.page?.id == "bookmark" && state.index == 3)
        state = try await client.insert(
            .init(id: "podcasts", title: "Podcasts", content: .init(unvalidatedValue: ["episodes": 12])), at: 0)
        #expect(state.pageCount == 5 && state.index == 4 && state.tabs[0].id == "podcasts")

        state = try await client.updatePage("podcasts", .init(title: "Shows", moveTo: 1))
        #expect(state.tabs[1].id == "podcasts" && state.tabs[1].title == "Shows")

        state = try await client.push(.init(id: "album-7", title: "Blue Train"), onPage: "bookmark")
        #expect(state.page?.stack.map(\.id) == ["album-7"])
        state = try await client.push(.init(id: "track-2"), onPage: "bookmark")
        state = try await client.pop(onPage: "bookmark")
        #expect(state.page?.stack.map(\.id) == ["album-7"])
        state = try await client.pop(onPage: "bookmark", toRoot: true)
        #expect(state.page?.stack.isEmpty == true)

        state = try await client.removePage("podcasts")
        #expect(state.pageCount == 4)
        let pages = try await client.pages()
        #expect(pages.map(\.id) == ["posepick", "posetalk", "posefeed", "bookmark"])

        state = try await client.replacePages([.init(id: "a", title: "A"), .init(id: "b", title: "B")])
        #expect(state.pageCount == 2 && state.tabs.map(\.id) == ["a", "b"])
        #expect(try await client.refresh() == state)
    }

    @Test func retryingOnConflictReadsAgainAndRetries() async throws {
        let server = try await Server()
        let mine = server.client()
        let other = server.client()
        let created = try await mine.createSession(template: "snap")
        try await other.open(sessionID: created.id)
        _ = try await other.next()  // the session moves on without `mine` knowing

        let stale = await refusal { try await mine.next() }
        #expect(stale?.status == 412 && stale?.code == "version_mismatch")
        if case .problem(let problem) = stale {
            #expect(problem.currentVersion == 2 && problem.knownCode == .versionMismatch)
        }
        // The refusal made the client read the state it lost to.
        let current = try await other.refresh()
        #expect(await mine.state == current && current.version == 2)

        _ = try await other.next()
        var attempts: [Int] = []
        let moved = try await mine.retryingOnConflict { state in
            attempts.append(state.version)
            return try await mine.select(index: (state.index ?? 0) - 1)
        }
        #expect(attempts == [2, 3])  // first with the state held, then with the one it lost to
        #expect(moved.version == 4 && moved.index == 2)

        let none = try await mine.next(ifMatch: .none)
        #expect(none.version == 5)
    }

    @Test func aChangeInsideRetryingOnConflictNamesTheStateItWasGiven() async throws {
        let server = try await Server()
        let mine = server.client()
        let other = server.client()
        let created = try await mine.createSession(template: "media")
        try await other.open(sessionID: created.id)
        var attempts: [Int] = []
        let moved = try await mine.retryingOnConflict { state in
            attempts.append(state.version)
            if attempts.count == 1 {
                _ = try await other.next()  // another client moves the pager…
                // …and this client learns of it in another task (as from its events)
                _ = try await Task.detached { try await mine.refresh() }.value
            }
            // Computed from `state`: sent with its version, refused while that is not current.
            return try await mine.select(index: (state.index ?? 0) + 1)
        }
        #expect(attempts == [1, 2])
        #expect(moved.version == 3 && moved.index == 2)
    }

    @Test func aChangeOfTwoRequestsSendsTheSecondAtTheVersionTheFirstMade() async throws {
        let server = try await Server()
        let mine = server.client()
        _ = try await mine.createSession(template: "media")
        var attempts: [Int] = []
        let moved = try await mine.retryingOnConflict { state in
            attempts.append(state.version)
            _ = try await mine.next()
            return try await mine.next()
        }
        #expect(attempts == [1])  // no conflict with itself: one attempt, two pages
        #expect(moved.version == 3 && moved.index == 2)
        // Outside the change, `.lastKnown` is the state held again.
        #expect(try await mine.previous().version == 4)

        // A conflict the change swallows does not move its version on: its next request, made
        // on the state it was given, is refused too, not applied to a state it never saw.
        let other = server.client()
        try await other.open(sessionID: moved.id)
        _ = try await other.next()  // version 5
        let refused = await refusal {
            try await mine.retryingOnConflict(maxAttempts: 1) { _ in
                _ = try? await mine.next()
                return try await mine.next()
            }
        }
        #expect(refused?.code == "version_mismatch")
        #expect(try await other.refresh().version == 5)
    }

    @Test func openingTheSessionHeldKeepsItsSettingsAndNewestState() async throws {
        let server = try await Server()
        let mine = server.client()
        let created = try await mine.createSession(template: "media")
        _ = try await mine.loadSettings()
        let moved = try await mine.next()
        let reopened = try await mine.open(sessionID: created.id)
        #expect(reopened.version == moved.version && reopened.index == moved.index)
        #expect(await mine.settings != nil)
        #expect(await mine.state?.version == moved.version)
        // Another session replaces it all.
        let other = try await server.client().createSession(template: "mall")
        #expect(try await mine.open(sessionID: other.id).id == other.id)
        #expect(await mine.settings == nil)
        #expect(await mine.state == other)
    }
}
