import TestSupport
import Testing

@testable import MicroHTTP
@testable import PagerAPI

/// What keeps an audience of thousands cheap: heartbeats a slice at a time, and one heap of
/// deadlines for the streams opened with a token.
@Suite("Audiences: heartbeat slices and stream deadlines")
struct AudienceTests {
    @Test("the heartbeat spreads streams over one slice per second of its interval; each gets one beat per interval")
    func heartbeatSlices() {
        let heartbeat = EventHeartbeat(interval: .seconds(15))
        #expect(heartbeat.slices == 15)
        let streams = (0..<30).map { _ in HTTPResponseStream() }
        for stream in streams { heartbeat.register(stream) }
        heartbeat.beat(slice: 0)
        let beaten = streams.filter { $0.bufferedByteCount > 0 }
        #expect(beaten.count == 2 && beaten[0] === streams[0] && beaten[1] === streams[15])
        for slice in 1..<15 { heartbeat.beat(slice: slice) }
        #expect(streams.allSatisfy { $0.bufferedByteCount == ": heartbeat\n\n".utf8.count })
        streams[0].close()
        #expect(heartbeat.count == 29)
        // A registered stream and the heartbeat hold each other until the stream closes, as the
        // server closes every stream when its response is freed.
        for stream in streams.dropFirst() { stream.close() }
        #expect(heartbeat.count == 0)
        #expect(EventHeartbeat(interval: .seconds(1)).slices == 1)
        #expect(EventHeartbeat(interval: .seconds(3600)).slices == 60)
    }

    @Test("streams end in the order of their deadlines, each once; a stream that closed first is skipped")
    func deadlines() async throws {
        let tester = try await AccessTester()
        let expiry = tester.api.responder.expiry
        let streams = (0..<5).map { _ in HTTPResponseStream() }
        let now = tester.clock.now()
        for (offset, stream) in zip([50.0, 10, 40, 20, 30], streams) {
            expiry.register(stream, until: now + offset, version: StreamVersion(Int(offset)))
        }
        streams[3].close()  // deadline 20
        #expect(expiry.count == 4)
        tester.clock.advance(by: 25)
        #expect(expiry.endDue() == 1)
        #expect(AccessMintingTests.drain(streams[1]) == "event: expired\ndata: {\"version\":10}\n\n")
        tester.clock.advance(by: 100)
        #expect(expiry.endDue() == 3 && expiry.count == 0)
        #expect(expiry.endDue() == 0)
    }

    @Test("a stream made where a closed one was (the allocator reuses the address) ends at its own deadline")
    func reusedAddress() async throws {
        let tester = try await AccessTester()
        let expiry = tester.api.responder.expiry
        let now = tester.clock.now()
        var address: UInt = 0
        do {
            let closed = HTTPResponseStream()
            address = UInt(bitPattern: ObjectIdentifier(closed))
            expiry.register(closed, until: now + 10, version: StreamVersion(1))
            closed.close()
        }
        // The allocator most often gives the next stream the freed one's memory: take the first
        // that has it (or the last made, which shows the deadline all the same).
        var made: [HTTPResponseStream] = []
        repeat {
            made.append(HTTPResponseStream())
        } while made.count < 64
            && UInt(bitPattern: ObjectIdentifier(made[made.count - 1])) != address
        let stream = made[made.count - 1]
        expiry.register(stream, until: now + 100, version: StreamVersion(2))
        tester.clock.advance(by: 20)
        #expect(expiry.endDue() == 0)
        #expect(stream.bufferedByteCount == 0)
        tester.clock.advance(by: 100)
        #expect(expiry.endDue() == 1)
        #expect(AccessMintingTests.drain(stream) == "event: expired\ndata: {\"version\":2}\n\n")
    }

    @Test("the deadlines of streams that closed do not pile up: the heap is rebuilt from the waiting ones")
    func closedDeadlinesLeave() async throws {
        let tester = try await AccessTester()
        let expiry = tester.api.responder.expiry
        let now = tester.clock.now()
        let kept = HTTPResponseStream()
        expiry.register(kept, until: now + 50, version: StreamVersion(7))
        for _ in 0..<1000 {
            let stream = HTTPResponseStream()
            expiry.register(stream, until: now + 86_400, version: StreamVersion(1))
            stream.close()
        }
        #expect(expiry.count == 1)
        #expect(expiry.heldDeadlines <= 2 * 1 + 64 + 1)
        tester.clock.advance(by: 60)
        #expect(expiry.endDue() == 1)
        #expect(AccessMintingTests.drain(kept) == "event: expired\ndata: {\"version\":7}\n\n")
    }
}
