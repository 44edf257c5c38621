import HTTPTypes
import Locking
import TestSupport
import Testing

@testable import MicroHTTP

@Suite("Response streams: waiting for room without polling")
struct StreamBackPressureTests {
    /// Reads up to `count` bytes as the server would.
    private func drain(_ stream: HTTPResponseStream, _ count: Int) -> HTTPResponseStream.ReadResult {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 1)
        defer { buffer.deallocate() }
        return stream.read(into: buffer, suspend: {})
    }

    @Test("a writer waiting for room is woken as the server sends, not before")
    func wokenByReads() async throws {
        let stream = HTTPResponseStream()
        stream.write([UInt8](repeating: 1, count: 1000))
        let woke = Locked(false)
        let waiter = Task {
            await stream.waitForRoom(atMost: 100)
            woke.withLock { $0 = true }
        }
        try await Task.sleep(for: .milliseconds(50))
        #expect(!woke.withLock { $0 })
        #expect(drain(stream, 500) == .bytes(500))
        try await Task.sleep(for: .milliseconds(50))
        #expect(!woke.withLock { $0 })  // 500 unsent: still more than 100
        #expect(drain(stream, 450) == .bytes(450))
        await waiter.value
        #expect(woke.withLock { $0 } && stream.bufferedByteCount == 50)
    }

    @Test("a writer waiting for room returns when the stream closes or its task is cancelled")
    func endedByCloseOrCancel() async {
        let closing = HTTPResponseStream()
        closing.write([UInt8](repeating: 1, count: 1000))
        let first = Task { await closing.waitForRoom(atMost: 0) }
        closing.close()
        await first.value
        let cancelled = HTTPResponseStream()
        cancelled.write([UInt8](repeating: 1, count: 1000))
        let second = Task { await cancelled.waitForRoom(atMost: 0) }
        second.cancel()
        await second.value
        #expect(cancelled.bufferedByteCount == 1000)
    }

    @Test("a reader that stays behind keeps the queue short: sent chunks do not pile up in it")
    func behindReaderQueue() {
        let stream = HTTPResponseStream()
        for _ in 0..<100 { stream.write([UInt8](repeating: 2, count: 10)) }
        // Each round a chunk more is written than read: the queue never drains.
        for _ in 0..<10_000 {
            stream.write([UInt8](repeating: 3, count: 10))
            stream.write([UInt8](repeating: 4, count: 10))
            #expect(drain(stream, 15) == .bytes(15))
        }
        let unsent = stream.unsentChunks.count
        #expect(stream.bufferedByteCount == 100 * 10 + 10_000 * 5)
        #expect(
            stream.queuedPlaces <= 2 * unsent + HTTPResponseStream.keptChunks, "\(stream.queuedPlaces) for \(unsent)")
    }
}
