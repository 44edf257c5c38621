import HTTPTypes
import JSON
import PagerModel
import PagerSessions
import TestSupport
import Testing

/// docs/api.md «Auto-advance» over the API in-process: the setting, the state member, the control endpoint and
/// ticks published to watchers, with the engine's clock moved by hand.
@Suite("Auto-advance over the API")
struct AutoAdvanceAPITests {
    static let t0 = APITester.wallOrigin

    @Test("docs/api.md's example: ticks at 1 and 2 reach every watcher with cause autoAdvance, then nothing")
    func documentedExample() async throws {
        let api = try APITester()
        let id = try await api.create(
            #"{"template": "media", "autoAdvance": {"enabled": true, "interval": 200, "atEnd": "stop"}}"#)
        var reply = await api.send("GET", "/v1/sessions/\(id)")
        let auto = try #require(reply["autoAdvance"])
        #expect(auto["enabled"] == true && auto["interval"] == 200 && auto["direction"] == "forward")
        #expect(auto["atEnd"] == "stop" && auto["onInteraction"] == "pause" && auto["running"] == true)
        #expect(auto["paused"] == false && auto["pausedBy"] == .null && auto["remaining"] == .null)
        #expect(auto["dueAt"]?.numberValue == Double(Self.t0 + 200))
        #expect(reply["accessibility"]?["liveRegion"] == "off")
        let shard = api.engine.shard(for: SessionID(id))
        let watchers = try (0..<2).map { _ in try shard.withLock { try $0.subscribe(to: SessionID(id)) } }
        var streams = watchers.map { $0.events.makeAsyncIterator() }
        #expect(api.fireTimers(after: 199) == 0)
        #expect(api.fireTimers(after: 1) == 1)
        for index in streams.indices {
            let event = await streams[index].next()
            #expect(event?.kind == .pageChanged && event?.cause == .autoAdvance)
            #expect(event?.snapshot.version == 2 && event?.snapshot.pager.index == 1)
            #expect(event?.move?.moved == true && event?.move?.direction == .forward)
        }
        api.fireTimers(after: 200)
        for index in streams.indices {
            let event = await streams[index].next()
            #expect(event?.kind == .pageChanged && event?.snapshot.version == 3 && event?.move?.edge == .end)
            #expect(event?.snapshot.pager.settings.autoAdvance.enabled == false)
        }
        #expect(api.fireTimers(after: 1000) == 0)
        reply = await api.send("GET", "/v1/sessions/\(id)")
        #expect(reply["version"] == 3 && reply["index"] == 2)
        #expect(reply["autoAdvance"]?["enabled"] == false && reply["autoAdvance"]?["running"] == false)
        #expect(reply["autoAdvance"]?["dueAt"] == .null && reply["accessibility"]?["liveRegion"] == "polite")
        for watcher in watchers { shard.withLock { $0.unsubscribe(watcher.token, from: SessionID(id)) } }
    }

    @Test("rewind: the third tick lands on 0, reverse, with one keyframe in the event")
    func rewindEvent() async throws {
        let api = try APITester()
        let id = try await api.create(#"{"template": "media", "autoAdvance": {"enabled": true, "interval": 200}}"#)
        let shard = api.engine.shard(for: SessionID(id))
        let watcher = try shard.withLock { try $0.subscribe(to: SessionID(id)) }
        var events = watcher.events.makeAsyncIterator()
        for _ in 0..<3 { api.fireTimers(after: 200) }
        _ = await events.next()
        _ = await events.next()
        let rewind = await events.next()
        #expect(rewind?.snapshot.pager.index == 0 && rewind?.move?.direction == .reverse)
        #expect(rewind?.move?.keyframes?.map(\.index) == [0] && rewind?.snapshot.version == 4)
        let reply = await api.send("GET", "/v1/sessions/\(id)")
        #expect(reply["autoAdvance"]?["dueAt"]?.numberValue == Double(Self.t0 + 800))
        shard.withLock { $0.unsubscribe(watcher.token, from: SessionID(id)) }
    }

    @Test("a scroll right after creation pauses by interaction; an end not completed runs it again")
    func interaction() async throws {
        let api = try APITester()
        let id = try await api.create(#"{"template": "media", "autoAdvance": {"enabled": true, "interval": 200}}"#)
        api.fireTimers(after: 50)
        var reply = await api.send("POST", "/v1/sessions/\(id)/scroll", json: #"{"progress": 0.3}"#)
        let auto = try #require(reply["autoAdvance"])
        #expect(reply["version"] == 2 && auto["paused"] == true && auto["pausedBy"] == "interaction")
        #expect(auto["remaining"] == 200 && auto["dueAt"] == .null && auto["running"] == true)
        #expect(reply["accessibility"]?["liveRegion"] == "polite")
        #expect(api.fireTimers(after: 1000) == 0)
        reply = await api.send("POST", "/v1/sessions/\(id)/transition", json: #"{"phase": "end", "completed": false}"#)
        #expect(reply["autoAdvance"]?["paused"] == false)
        #expect(reply["autoAdvance"]?["dueAt"]?.numberValue == Double(Self.t0 + 1050 + 200))
    }

    @Test("control: each action answers the state; no-ops keep the version; bad actions name 'action'")
    func control() async throws {
        let api = try APITester()
        let id = try await api.create(#"{"template": "media", "autoAdvance": {"enabled": true, "interval": 1000}}"#)
        let path = "/v1/sessions/\(id)/autoAdvance"
        api.fireTimers(after: 300)
        var reply = await api.send("POST", path, json: #"{"action": "pause"}"#)
        #expect(reply.status == 200 && reply["version"] == 2)
        #expect(reply["autoAdvance"]?["pausedBy"] == "control" && reply["autoAdvance"]?["remaining"] == 700)
        reply = await api.send("POST", path, json: #"{"action": "pause"}"#)
        #expect(reply.status == 200 && reply["version"] == 2)
        api.fireTimers(after: 5000)
        reply = await api.send("POST", path, json: #"{"action": "resume"}"#)
        #expect(reply["version"] == 3 && reply["autoAdvance"]?["dueAt"]?.numberValue == Double(Self.t0 + 6000))
        reply = await api.send("POST", path, json: #"{"action": "stop"}"#, headers: [("If-Match", "\"2\"")])
        #expect(reply.status == 412)
        reply = await api.send("POST", path, json: #"{"action": "stop"}"#, headers: [("If-Match", "\"3\"")])
        #expect(reply.status == 200 && reply["autoAdvance"]?["enabled"] == false && reply["version"] == 4)
        reply = await api.send("POST", path, json: #"{"action": "start"}"#)
        #expect(reply["autoAdvance"]?["running"] == true && reply["version"] == 5)
        for body in [#"{}"#, #"{"action": "rewind"}"#, #"{"action": 1}"#, #"{"action": "start", "extra": 1}"#] {
            reply = await api.send("POST", path, json: body)
            #expect(reply.status == 400 && reply.field == (body.contains("extra") ? "extra" : "action"), "\(body)")
        }
        let empty = try await api.create(#"{"pages": []}"#)
        reply = await api.send("POST", "/v1/sessions/\(empty)/autoAdvance", json: #"{"action": "resume"}"#)
        #expect(reply.status == 200 && reply["version"] == 1 && reply["autoAdvance"]?["running"] == false)
        reply = await api.send("POST", "/v1/sessions/nope/autoAdvance", json: #"{"action": "start"}"#)
        #expect(reply.status == 404)
    }

    @Test("bad settings name their member; a PATCH restarts the interval and is reported by GET")
    func settings() async throws {
        let api = try APITester()
        let cases: [(String, String)] = [
            (#"{"interval": 99}"#, "autoAdvance.interval"),
            (#"{"interval": 1500.5}"#, "autoAdvance.interval"),
            (#"{"interval": 86400001}"#, "autoAdvance.interval"),
            (#"{"direction": "up"}"#, "autoAdvance.direction"),
            (#"{"atEnd": "loop"}"#, "autoAdvance.atEnd"),
            (#"{"onInteraction": "ignore"}"#, "autoAdvance.onInteraction"),
            (#"{"enabled": "yes"}"#, "autoAdvance.enabled"),
            (#"{"speed": 1}"#, "autoAdvance.speed"),
        ]
        for (member, field) in cases {
            let reply = await api.send(
                "POST", "/v1/sessions", json: #"{"template": "media", "autoAdvance": \#(member)}"#)
            #expect(reply.status == 400 && reply.field == field, "\(member)")
        }
        let id = try await api.create(#"{"template": "media"}"#)
        var reply = await api.send("GET", "/v1/sessions/\(id)")
        #expect(reply["autoAdvance"]?["enabled"] == false && reply["autoAdvance"]?["interval"] == 5000)
        #expect(reply["autoAdvance"]?["atEnd"] == "rewind" && reply["autoAdvance"]?["running"] == false)
        api.fireTimers(after: 100)
        reply = await api.send("PATCH", "/v1/sessions/\(id)", json: #"{"autoAdvance": {"enabled": true}}"#)
        #expect(reply["version"] == 2 && reply["autoAdvance"]?["dueAt"]?.numberValue == Double(Self.t0 + 5100))
        reply = await api.send("PATCH", "/v1/sessions/\(id)", json: #"{"autoAdvance": {"interval": 99}}"#)
        #expect(reply.status == 400 && reply.field == "autoAdvance.interval")
        let etag = reply.headers[.eTag]
        reply = await api.send("GET", "/v1/sessions/\(id)", headers: [("If-None-Match", "\"2\"")])
        #expect(reply.status == 304 && etag == nil)
    }

    @Test("ticks are not use: an abandoned ticking session idles out and leaves the timer queue")
    func ticksAreNotUse() async throws {
        let api = try APITester(limits: EngineLimits(idleTTL: 10))
        let id = try await api.create(#"{"template": "media", "autoAdvance": {"enabled": true, "interval": 1000}}"#)
        for _ in 0..<9 { api.fireTimers(after: 1000) }
        var reply = await api.send("GET", "/v1/sessions/\(id)")
        #expect(reply.status == 200 && reply["version"] == 10)
        // Nine seconds of ticks did not count as use: the GET above did. Eleven quiet seconds later
        // the session is gone, and its timer with it.
        for _ in 0..<11 { api.fireTimers(after: 1000) }
        var queued = 0
        for shard in api.engine.shards { queued += await shard.scheduledTimers }
        #expect(queued == 0)
        reply = await api.send("GET", "/v1/sessions/\(id)")
        #expect(reply.status == 404)
    }
}

@Suite("Auto-advance timers in the engine")
struct EngineTimerTests {
    @Test("300 sessions with different intervals each tick exactly ⌊elapsed / interval⌋ times, in due order")
    func manyTimers() async throws {
        let api = try APITester()
        var generator = SystemRandomNumberGenerator()
        var sessions: [(id: String, interval: Int)] = []
        for _ in 0..<300 {
            let interval = Int.random(in: 2...40, using: &generator) * 50
            let id = try await api.create(
                #"{"template": "mall", "autoAdvance": {"enabled": true, "interval": \#(interval)}}"#)
            sessions.append((id, interval))
        }
        var queued = 0
        for shard in api.engine.shards { queued += await shard.scheduledTimers }
        #expect(queued == 300)
        // Steps shorter than the shortest interval, so no tick is more than an interval late.
        for _ in 0..<100 { api.fireTimers(after: 50) }
        for (id, interval) in sessions {
            let reply = await api.send("GET", "/v1/sessions/\(id)")
            let ticks = 5000 / interval
            #expect(reply["version"]?.intValue == 1 + ticks, "interval \(interval)")
            #expect(
                reply["autoAdvance"]?["dueAt"]?.numberValue
                    == Double(APITester.wallOrigin + Int64((ticks + 1) * interval)))
        }
        // Stopping every timer empties the queues.
        for (id, _) in sessions {
            _ = await api.send("POST", "/v1/sessions/\(id)/autoAdvance", json: #"{"action": "stop"}"#)
        }
        queued = 0
        for shard in api.engine.shards { queued += await shard.scheduledTimers }
        #expect(queued == 0)
    }

    @Test("a backlog more than an interval late ticks once, from now, not once per missed interval")
    func backlog() async throws {
        let api = try APITester()
        let id = try await api.create(#"{"template": "mall", "autoAdvance": {"enabled": true, "interval": 100}}"#)
        api.fireTimers(after: 10_000)
        let reply = await api.send("GET", "/v1/sessions/\(id)")
        #expect(reply["version"] == 2)
        #expect(reply["autoAdvance"]?["dueAt"]?.numberValue == Double(APITester.wallOrigin + 10_100))
    }
}
