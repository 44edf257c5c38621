import HTTPTypes
import JSON
import PagerAPI
import PagerModel
import PagerSessions
import TestSupport
import Testing

@testable import MicroHTTP

@Suite("Event streams: shared encoding, one heartbeat, the writer")
struct EventStreamTests {
    @Test("an event's bytes are computed once and shared by every caller")
    func encodedOnce() throws {
        let event = SessionEvent(
            kind: .pageChanged, snapshot: SessionSnapshot(id: "s", pager: try Pager(pages: [Page(id: "a", title: "A")]))
        )
        var encodings = 0
        let copies = [event, event, event]
        let results = copies.map { copy in
            copy.encoding.bytes {
                encodings += 1
                return Array("data".utf8)
            }
        }
        #expect(encodings == 1)
        #expect(results.allSatisfy { $0 == Array("data".utf8) })
    }

    @Test("one heartbeat writes to every open stream, and forgets a stream once it closes")
    func heartbeat() async throws {
        let api = try APITester()
        let id = try await api.create(#"{"template": "mall"}"#)
        let replies = [
            await api.send("GET", "/v1/sessions/\(id)/events"), await api.send("GET", "/v1/sessions/\(id)/events"),
        ]
        let streams = replies.compactMap { reply -> HTTPResponseStream? in
            if case .stream(let stream) = reply.response.body { return stream }
            return nil
        }
        #expect(streams.count == 2)
        #expect(api.responder.heartbeat.count == 2)
        let before = streams.map(\.bufferedByteCount)
        api.responder.heartbeat.beat()
        let comment = ": heartbeat\n\n".utf8.count
        #expect(zip(streams, before).allSatisfy { $0.bufferedByteCount == $1 + comment })
        // As the server does when a connection ends: the streams' writers and slots are released.
        for stream in streams { stream.close() }
        #expect(api.responder.heartbeat.count == 0 && api.engine.subscriberTotal == 0)
    }

    @Test("the writer sends each change of the session in order and ends after `deleted`")
    func writerFollowsChanges() async throws {
        let api = try APITester()
        let id = try await api.create(#"{"template": "media"}"#)
        let reply = await api.send("GET", "/v1/sessions/\(id)/events")
        guard case .stream(let stream) = reply.response.body else {
            Issue.record("expected a stream")
            return
        }
        let initial = stream.bufferedByteCount
        #expect(await api.send("POST", "/v1/sessions/\(id)/next").status == 200)
        await waitUntil("the stream has more bytes") { stream.bufferedByteCount != initial }
        #expect(stream.bufferedByteCount > initial)
        #expect(await api.send("DELETE", "/v1/sessions/\(id)").status == 204)
        await waitUntil("the session is gone") { api.engine.sessionCount == 0 }
        #expect(api.engine.subscriberTotal == 0)
        stream.close()  // as the server does once the finished stream is sent
    }
}
