import JSON
import PagerModel
import PagerSessions
import TestSupport
import Testing

@testable import PagerAPI

/// Release by velocity, abandoned swipes and the settings' version over the API in-process.
@Suite("Release by velocity, drag timeout and settingsVersion over the API")
struct ReleaseAPITests {
    @Test("end with a velocity answers how it was decided, and its event says the same")
    func releaseBySettle() async throws {
        let api = try APITester()
        let id = try await api.create(#"{"template": "media"}"#)
        let shard = api.engine.shard(for: SessionID(id))
        let watcher = try shard.withLock { try $0.subscribe(to: SessionID(id)) }
        var events = watcher.events.makeAsyncIterator()
        #expect(await api.send("POST", "/v1/sessions/\(id)/scroll", json: #"{"progress": 0.3}"#)["version"] == 2)
        _ = await events.next()
        let flicked = await api.send(
            "POST", "/v1/sessions/\(id)/transition", json: #"{"phase": "end", "velocity": 0.8}"#)
        #expect(flicked.status == 200 && flicked["index"] == 1 && flicked["moved"] == true)
        #expect(flicked["settle"] == ["completed": true, "progress": 0.3, "velocity": 0.8])
        let event = await events.next()
        #expect(event?.kind == .pageChanged && event?.settle == Settle(completed: true, progress: 0.3, velocity: 0.8))
        let bytes = EventRoutes.event(
            kind: "pageChanged", snapshot: try #require(event?.snapshot), settle: event?.settle, cause: "request")
        #expect(
            String(decoding: bytes, as: UTF8.self).contains(
                #""settle":{"completed":true,"progress":0.3,"velocity":0.8}"#))
        // Nothing in flight: nothing changes, and there is no settle.
        let idle = await api.send("POST", "/v1/sessions/\(id)/transition", json: #"{"phase": "end", "velocity": 3}"#)
        #expect(idle.status == 200 && idle["version"] == 3 && idle["settle"] == nil && idle["moved"] == false)
        shard.withLock { $0.unsubscribe(watcher.token, from: SessionID(id)) }
    }

    @Test(
        "end takes exactly one of completed and velocity; a bad velocity names it",
        arguments: [
            (#"{"phase": "end", "completed": true, "velocity": 1}"#, "velocity"),
            (#"{"phase": "end"}"#, "completed"),
            (#"{"phase": "end", "velocity": 1000.5}"#, "velocity"),
            (#"{"phase": "end", "velocity": "fast"}"#, "velocity"),
            (#"{"phase": "begin", "to": 2, "velocity": 1}"#, "velocity"),
        ])
    func refusals(body: String, field: String) async throws {
        let api = try APITester()
        let id = try await api.create(#"{"template": "media"}"#)
        _ = await api.send("POST", "/v1/sessions/\(id)/scroll", json: #"{"progress": 0.3}"#)
        let reply = await api.send("POST", "/v1/sessions/\(id)/transition", json: body)
        #expect(reply.status == 400 && reply.code == "invalid_request" && reply.field == field)
        #expect(await api.send("GET", "/v1/sessions/\(id)")["version"] == 2)
    }

    @Test("a swipe nobody touches is given up dragTimeout later, published with cause timeout")
    func dragTimeout() async throws {
        let api = try APITester()
        let id = try await api.create(#"{"template": "media", "dragTimeout": 2000}"#)
        let shard = api.engine.shard(for: SessionID(id))
        let watcher = try shard.withLock { try $0.subscribe(to: SessionID(id)) }
        var events = watcher.events.makeAsyncIterator()
        _ = await api.send("POST", "/v1/sessions/\(id)/scroll", json: #"{"progress": 0.3}"#)
        _ = await events.next()
        #expect(api.fireTimers(after: 1999) == 0)
        #expect(api.fireTimers(after: 1) == 1)
        let event = await events.next()
        #expect(event?.kind == .transition && event?.cause == .timeout && event?.snapshot.version == 3)
        #expect(event?.snapshot.pager.transition == nil && event?.move == nil)
        let state = await api.send("GET", "/v1/sessions/\(id)")
        #expect(state["transition"] == .null && state["version"] == 3 && state["index"] == 0)
        // With dragTimeout 0 nothing is given up.
        let never = try await api.create(#"{"template": "media", "dragTimeout": 0}"#)
        _ = await api.send("POST", "/v1/sessions/\(never)/scroll", json: #"{"progress": 0.3}"#)
        #expect(api.fireTimers(after: 600_000) == 0)
        #expect(await api.send("GET", "/v1/sessions/\(never)")["transition"]?["progress"] == 0.3)
        shard.withLock { $0.unsubscribe(watcher.token, from: SessionID(id)) }
    }

    @Test("an interaction pause with nothing in flight ends dragTimeout after the pull: autoAdvanceChanged, timeout")
    func pauseTimeout() async throws {
        let api = try APITester()
        let id = try await api.create(
            #"{"template": "media", "initialPage": 2, "dragTimeout": 2000, "autoAdvance": {"enabled": true, "interval": 100000}}"#
        )
        let shard = api.engine.shard(for: SessionID(id))
        let watcher = try shard.withLock { try $0.subscribe(to: SessionID(id)) }
        var events = watcher.events.makeAsyncIterator()
        // Past the last page without a rubber band: only the timer changes, paused by the pull.
        let pulled = await api.send("POST", "/v1/sessions/\(id)/scroll", json: #"{"progress": 0.3}"#)
        #expect(pulled["version"] == 2 && pulled["edge"] == "end" && pulled["transition"] == .null)
        #expect(pulled["autoAdvance"]?["paused"] == true && pulled["autoAdvance"]?["pausedBy"] == "interaction")
        let paused = await events.next()
        #expect(paused?.kind == .autoAdvanceChanged && paused?.cause == .request && paused?.snapshot.version == 2)
        // The same pull again is refused and changes nothing: the deadline stays 2000 after the first.
        #expect(api.fireTimers(after: 1000) == 0)
        let again = await api.send("POST", "/v1/sessions/\(id)/scroll", json: #"{"progress": 0.3}"#)
        #expect(again["version"] == 2 && again["edge"] == "end")
        #expect(api.fireTimers(after: 999) == 0)
        #expect(api.fireTimers(after: 1) == 1)
        let event = await events.next()
        #expect(event?.kind == .autoAdvanceChanged && event?.cause == .timeout && event?.snapshot.version == 3)
        #expect(event?.snapshot.pager.timer.pausedBy == nil && event?.move == nil)
        let bytes = EventRoutes.event(
            kind: "autoAdvanceChanged", snapshot: try #require(event?.snapshot), settle: nil, cause: "timeout")
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""cause":"timeout""#))
        let state = await api.send("GET", "/v1/sessions/\(id)")
        #expect(state["version"] == 3 && state["index"] == 2 && state["autoAdvance"]?["paused"] == false)
        #expect(state["autoAdvance"]?["dueAt"]?.numberValue == Double(APITester.wallOrigin + 2000 + 100_000))
        shard.withLock { $0.unsubscribe(watcher.token, from: SessionID(id)) }
    }

    @Test("a timed-out swipe that paused auto-advance is one transition event, timeout, that resumes it")
    func swipeTimeoutResumes() async throws {
        let api = try APITester()
        let id = try await api.create(
            #"{"template": "media", "dragTimeout": 1000, "autoAdvance": {"enabled": true, "interval": 100000}}"#)
        let shard = api.engine.shard(for: SessionID(id))
        let watcher = try shard.withLock { try $0.subscribe(to: SessionID(id)) }
        var events = watcher.events.makeAsyncIterator()
        let swiping = await api.send("POST", "/v1/sessions/\(id)/scroll", json: #"{"progress": 0.3}"#)
        #expect(swiping["version"] == 2 && swiping["autoAdvance"]?["pausedBy"] == "interaction")
        _ = await events.next()
        #expect(api.fireTimers(after: 1000) == 1)
        let event = await events.next()
        #expect(event?.kind == .transition && event?.cause == .timeout && event?.snapshot.version == 3)
        #expect(event?.snapshot.pager.transition == nil && event?.snapshot.pager.timer.pausedBy == nil)
        let state = await api.send("GET", "/v1/sessions/\(id)")
        #expect(state["version"] == 3 && state["autoAdvance"]?["paused"] == false)
        #expect(state["autoAdvance"]?["dueAt"]?.numberValue == Double(APITester.wallOrigin + 1000 + 100_000))
        shard.withLock { $0.unsubscribe(watcher.token, from: SessionID(id)) }
    }

    @Test("settingsVersion follows the changes of the settings; the settings document lists release and dragTimeout")
    func settingsVersion() async throws {
        let api = try APITester()
        let id = try await api.create(#"{"template": "media", "release": {"flickVelocity": 2}}"#)
        var state = await api.send("POST", "/v1/sessions/\(id)/next")
        #expect(state["version"] == 2 && state["settingsVersion"] == 1)
        state = await api.send("PATCH", "/v1/sessions/\(id)", json: #"{"dragTimeout": 0}"#)
        #expect(state["version"] == 3 && state["settingsVersion"] == 3)
        let settings = await api.send("GET", "/v1/sessions/\(id)/settings")
        #expect(settings["release"] == ["flickVelocity": 2] && settings["dragTimeout"] == 0)
        let bad = await api.send("PATCH", "/v1/sessions/\(id)", json: #"{"release": {"flickVelocity": 0}}"#)
        #expect(bad.status == 400 && bad.field == "release.flickVelocity")
        let badTimeout = await api.send("PATCH", "/v1/sessions/\(id)", json: #"{"dragTimeout": 500}"#)
        #expect(badTimeout.status == 400 && badTimeout.field == "dragTimeout")
    }
}
