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
            copy.encoding.value {
                encodings += 1
                return StreamChunk(Array("data".utf8))
            }
        }
        #expect(encodings == 1)
        #expect(results.allSatisfy { $0 === results[0] && $0.bytes == Array("data".utf8) })
    }

    @Test("a lent encoding is shared while somebody holds it, then made again: a queued event holds none")
    func lentEncoding() throws {
        let slot = EncodedOnce()
        var encodings = 0
        func encode() -> StreamChunk {
            encodings += 1
            return StreamChunk(Array("event \(encodings)".utf8))
        }
        // Kept: shared even when nobody else holds it.
        _ = slot.value(encode)
        var held: StreamChunk? = slot.value(encode)
        #expect(held?.bytes == Array("event 1".utf8) && encodings == 1)
        slot.lend()
        // Lent: shared while a stream holds it...
        #expect(slot.value(encode) === held && encodings == 1)
        held = nil
        // ...and made again once nobody does.
        #expect(slot.value(encode).bytes == Array("event 2".utf8) && encodings == 2)
        #expect(held == nil)
    }

    @Test("streams that begin at the same state share their first event; a stream that begins later has its own")
    func sharedFirstEvent() async throws {
        let api = try APITester()
        let id = try await api.create(#"{"template": "mall"}"#)
        func open() async throws -> HTTPResponseStream {
            let reply = await api.send("GET", "/v1/sessions/\(id)/events")
            guard case .stream(let stream) = reply.response.body else {
                Issue.record("no stream: \(reply.status)")
                return HTTPResponseStream()
            }
            return stream
        }
        let first = try await open(), second = try await open()
        let (a, b) = (first.unsentChunks, second.unsentChunks)
        #expect(a.count == 2 && b.count == 2)  // retry, then the state
        #expect(a[1] === b[1])
        #expect(String(decoding: a[1].bytes, as: UTF8.self).hasPrefix("id: 1\nevent: state\ndata: {"))
        _ = await api.send("POST", "/v1/sessions/\(id)/next")
        let third = try await open()
        let c = third.unsentChunks
        #expect(c.count == 2 && c[1] !== a[1])
        #expect(String(decoding: c[1].bytes, as: UTF8.self).hasPrefix("id: 2\nevent: state\ndata: {"))
        for stream in [first, second, third] { stream.close() }
    }

    @Test("a published event lends its encoding once two newer ones are published; the two newest keep theirs")
    func newestKeepEncodings() async throws {
        let api = try APITester()
        let id = try await api.create(#"{"template": "mall"}"#)
        let subscription = try api.engine.shard(for: SessionID(id)).withLock { try $0.subscribe(to: SessionID(id)) }
        var events = subscription.events.makeAsyncIterator()
        var encodings = 0
        let encode = { () -> StreamChunk in
            encodings += 1
            return StreamChunk(Array("encoded".utf8))
        }
        var published: [SessionEvent] = []
        for _ in 0..<3 {
            _ = await api.send("POST", "/v1/sessions/\(id)/next")
            published.append(try #require(await events.next()))
            _ = published.last!.encoding.value(encode)
        }
        #expect(encodings == 3)
        _ = published[1].encoding.value(encode)
        _ = published[2].encoding.value(encode)
        #expect(encodings == 3)  // the two newest keep theirs
        _ = published[0].encoding.value(encode)
        #expect(encodings == 4)  // lent, and nobody held it
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
