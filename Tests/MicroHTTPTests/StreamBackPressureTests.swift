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
}
