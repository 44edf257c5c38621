import Locking
import Synchronization

/// A response body written over time, such as a Server-Sent Events stream.
///
/// The application writes; the server sends what was written and waits, without holding a thread,
/// when nothing is buffered. The stream ends when the application finishes it, when the client goes
/// away (noticed while waiting by the server's peer watcher, or by a failed send), or when the
/// server stops.
public final class HTTPResponseStream: Sendable {
    struct State {
        var buffer: [UInt8] = []
        var sent = 0
        var finished = false
        /// The client hung up while the stream waited; nothing more is sent.
        var peerLeft = false
        var closed = false
        var waiting = false
        var wake: (@Sendable () -> Void)?
        var onClose: [@Sendable () -> Void] = []
        /// A writer waiting for the unsent bytes to fall to `roomLimit`.
        var roomWaiter: CheckedContinuation<Void, Never>?
        var roomLimit = 0

        /// Resumes the writer waiting for room if there is room now, or the stream has ended.
        mutating func resumeRoomWaiterIfDue() {
            guard let waiter = roomWaiter, buffer.count - sent <= roomLimit || closed || peerLeft else { return }
            roomWaiter = nil
            waiter.resume()
        }
    }

    /// The outcome of one read by the server.
    enum ReadResult: Equatable {
        case bytes(Int)
        case wait
        /// Everything was sent: end the response normally.
        case end
        /// The client left: close the connection without ending the response.
        case abort
    }

    private let state = Locked(State())
    /// The most room a drained buffer keeps.
    static let keptCapacity = 512

    /// Creates an open stream with nothing buffered.
    public init() {}

    /// Queues bytes for the client. Returns false, writing nothing, once the stream is closed.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        state.withLock { state in
            guard !state.closed, !state.finished else { return false }
            state.buffer.append(contentsOf: bytes)
            state.wakeIfWaiting()
            return true
        }
    }

    /// Ends the stream once what is buffered has been sent.
    public func finish() {
        state.withLock { state in
            state.finished = true
            state.wakeIfWaiting()
        }
    }

    /// Queues `bytes` as the last the client gets and ends the stream once they are sent, in one
    /// step, so no other write can come between them. Returns false, writing nothing, once the
    /// stream is closed or finished.
    @discardableResult
    public func finish(after bytes: [UInt8]) -> Bool {
        state.withLock { state in
            guard !state.closed, !state.finished else { return false }
            state.buffer.append(contentsOf: bytes)
            state.finished = true
            state.wakeIfWaiting()
            return true
        }
    }

    /// Whether the server has stopped sending this stream (the client left, or it ended).
    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Bytes written but not yet handed to the socket; a writer may coalesce while this is large.
    public var bufferedByteCount: Int { state.withLock { $0.buffer.count - $0.sent } }

    /// Waits, without polling, until at most `limit` bytes are unsent, or the stream has closed or
    /// its client left. One writer at a time may wait; it is woken by the server as it sends, and
    /// returns at once if its task is cancelled.
    public func waitForRoom(atMost limit: Int) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                state.withLock { state in
                    if state.buffer.count - state.sent <= limit || state.closed || state.peerLeft || Task.isCancelled {
                        continuation.resume()
                        return
                    }
                    precondition(state.roomWaiter == nil, "two writers wait on one stream")
                    state.roomWaiter = continuation
                    state.roomLimit = limit
                }
            }
        } onCancel: {
            state.withLock { state in
                state.roomWaiter?.resume()
                state.roomWaiter = nil
            }
        }
    }

    /// Registers `handler` to run once when the server stops sending this stream; it runs at once
    /// when the stream is already closed.
    public func onClose(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.closed { return true }
            state.onClose.append(handler)
            return false
        }
        if runNow { handler() }
    }

    // MARK: - Server side

    /// Binds the stream to the connection's resume function; called once when it is queued.
    func attach(wake: @escaping @Sendable () -> Void) {
        state.withLock { $0.wake = wake }
    }

    /// Copies buffered bytes into `destination`, or says to wait or to end. When it says to wait,
    /// `suspend` has been called under the stream's lock, so a concurrent write cannot be missed.
    func read(into destination: UnsafeMutableRawBufferPointer, suspend: () -> Void) -> ReadResult {
        state.withLock { state in
            let available = state.buffer.count - state.sent
            if available > 0, !state.peerLeft {
                let count = min(available, destination.count)
                state.buffer.withUnsafeBytes { source in
                    destination.copyMemory(
                        from: UnsafeRawBufferPointer(rebasing: source[state.sent..<state.sent + count]))
                }
                state.sent += count
                if state.sent == state.buffer.count {
                    // A stream mostly waits: a drained buffer keeps its room only when small, so
                    // an audience of thousands of idle streams holds no event-sized buffers.
                    state.buffer.removeAll(keepingCapacity: state.buffer.capacity <= Self.keptCapacity)
                    state.sent = 0
                }
                state.resumeRoomWaiterIfDue()
                return .bytes(count)
            }
            if state.peerLeft { return .abort }
            if state.finished || state.closed { return .end }
            suspend()
            state.waiting = true
            return .wait
        }
    }

    /// Called when the client hung up while the stream waited: wakes the server so that it ends
    /// the stream, and the connection, at once.
    func peerDidLeave() {
        state.withLock { state in
            state.peerLeft = true
            state.wakeIfWaiting()
            state.resumeRoomWaiterIfDue()
        }
    }

    /// Marks the stream closed and runs the close handlers; called when the server drops it.
    func close() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.closed else { return [] }
            state.closed = true
            state.waiting = false
            state.wake = nil
            state.resumeRoomWaiterIfDue()
            defer { state.onClose = [] }
            return state.onClose
        }
        for handler in handlers { handler() }
    }
}

extension HTTPResponseStream.State {
    /// Resumes the connection if the server is waiting for data, and clears the wait. Runs under
    /// the stream's lock, so that once a caller has seen the wait cleared, the connection has been
    /// resumed: `stop()` relies on that to never stop the daemon with a connection suspended.
    mutating func wakeIfWaiting() {
        guard waiting, !closed else { return }
        waiting = false
        wake?()
    }
}
