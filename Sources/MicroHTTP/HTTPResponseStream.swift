import Locking
import Synchronization

/// A response body written over time, such as a Server-Sent Events stream.
///
/// The application writes; the server sends what was written and waits, without holding a thread,
/// when nothing is buffered. What is written is queued as ``StreamChunk``s, shared with the other
/// streams that queue the same chunk, and counted toward the server's answer budget (once per
/// chunk) and its client network's share (each large chunk for each stream) until it is sent.
/// The stream ends when the application finishes it, when the client goes away (noticed by the
/// server's peer watcher, from the stream's first wait on, or by a failed send), or when the
/// server stops.
public final class HTTPResponseStream: Sendable {
    struct State {
        /// What is queued: the chunks from `head` on are unsent, the first of them from `sent` on.
        var chunks: [StreamChunk] = []
        var head = 0
        var sent = 0
        /// Bytes queued and not yet handed to the socket.
        var unsent = 0
        /// Where the unsent chunks are counted, from when the server takes the stream on.
        var account: StreamAccount?
        var finished = false
        /// The client hung up (seen by the peer watcher while the stream's socket is watched);
        /// nothing more is sent.
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
            guard let waiter = roomWaiter, unsent <= roomLimit || closed || peerLeft else { return }
            roomWaiter = nil
            waiter.resume()
        }

        /// `limit`, or 0 while the server's answers are past its budget.
        func roomLimit(_ limit: Int) -> Int {
            guard let account, account.statistics.answerBytes >= account.budget else { return limit }
            return 0
        }

        /// Queues `chunk`, counted from now on if the server has taken the stream on; an empty
        /// one is left out.
        mutating func append(_ chunk: StreamChunk) {
            guard chunk.count > 0 else { return }
            chunks.append(chunk)
            unsent += chunk.count
            if let account { chunk.hold(in: account) }
        }

        /// Lets go of the chunk at `head`, sent or dropped.
        mutating func dropHead() {
            if let account { chunks[head].release(in: account) }
            chunks[head] = StreamChunk.empty
            head += 1
            sent = 0
            if head == chunks.count {
                // A stream mostly waits: a drained queue keeps its room only when small, so an
                // audience of thousands of idle streams holds no large arrays.
                chunks.removeAll(keepingCapacity: chunks.capacity <= HTTPResponseStream.keptChunks)
                head = 0
            } else if head >= HTTPResponseStream.keptChunks, head * 2 >= chunks.count {
                // A reader that stays behind never drains its queue: the sent places go once
                // they are half of it, so the queue holds what is unsent and at most as much again.
                chunks.removeFirst(head)
                head = 0
            }
        }

        /// Lets go of every unsent chunk.
        mutating func dropAll() {
            while head < chunks.count { dropHead() }
            unsent = 0
        }
    }

    /// The outcome of one read by the server.
    enum ReadResult: Equatable {
        case bytes(Int)
        case wait
        /// Everything was sent: end the response normally.
        case end
        /// The client left: nothing queued is sent, and the response ends (which closes the
        /// connection, as the peer's socket is gone).
        case abort
    }

    private let state = Locked(State())
    /// The most chunks a drained queue keeps room for.
    static let keptChunks = 8

    /// Creates an open stream with nothing buffered.
    public init() {}

    /// Queues bytes for the client. Returns false, writing nothing, once the stream is closed.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        write(StreamChunk(bytes))
    }

    /// Queues a chunk for the client, sharing it with any other stream that queues it. Returns
    /// false, writing nothing, once the stream is closed.
    @discardableResult
    public func write(_ chunk: StreamChunk) -> Bool {
        state.withLock { state in
            guard !state.closed, !state.finished else { return false }
            state.append(chunk)
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
            state.append(StreamChunk(bytes))
            state.finished = true
            state.wakeIfWaiting()
            return true
        }
    }

    /// Whether the server has stopped sending this stream (the client left, or it ended).
    public var isClosed: Bool { state.withLock { $0.closed } }

    /// The chunks queued and not yet wholly sent (for tests).
    var unsentChunks: [StreamChunk] { state.withLock { Array($0.chunks[$0.head...]) } }

    /// The places in the queue, sent ones not yet trimmed included (for tests).
    var queuedPlaces: Int { state.withLock { $0.chunks.count } }

    /// Bytes written but not yet handed to the socket; a writer may coalesce while this is large.
    public var bufferedByteCount: Int { state.withLock { $0.unsent } }

    /// Whether a writer about to write more should wait first (``waitForRoom(atMost:)``): more
    /// than `limit` bytes are unsent, or any are while the server's answers are past its budget,
    /// where a stream that is behind coalesces rather than add to a budget already spent.
    public func shouldWait(beyond limit: Int) -> Bool {
        state.withLock { $0.unsent > $0.roomLimit(limit) }
    }

    /// Waits, without polling, until at most `limit` bytes are unsent (none, if the server's
    /// answers are past its budget when it begins), or the stream has closed or its client left.
    /// One writer at a time may wait; it is woken by the server as it sends, and returns at once
    /// if its task is cancelled.
    public func waitForRoom(atMost limit: Int) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                state.withLock { state in
                    let limit = state.roomLimit(limit)
                    if state.unsent <= limit || state.closed || state.peerLeft || Task.isCancelled {
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

    /// Binds the stream to the connection's resume function, and counts what it holds unsent in
    /// `account` from now on; called once when it is queued.
    func attach(wake: @escaping @Sendable () -> Void, account: StreamAccount) {
        state.withLock { state in
            state.wake = wake
            state.account = account
            for chunk in state.chunks[state.head...] { chunk.hold(in: account) }
        }
    }

    /// Copies buffered bytes into `destination`, or says to wait or to end. When it says to wait,
    /// `suspend` has been called under the stream's lock, so a concurrent write cannot be missed.
    func read(into destination: UnsafeMutableRawBufferPointer, suspend: () -> Void) -> ReadResult {
        state.withLock { state in
            if state.unsent > 0, !state.peerLeft {
                var copied = 0
                while copied < destination.count, state.head < state.chunks.count {
                    let bytes = state.chunks[state.head].bytes
                    let count = min(bytes.count - state.sent, destination.count - copied)
                    bytes.withUnsafeBytes { source in
                        UnsafeMutableRawBufferPointer(rebasing: destination[copied..<copied + count])
                            .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[state.sent..<state.sent + count]))
                    }
                    copied += count
                    state.sent += count
                    if state.sent == bytes.count { state.dropHead() }
                }
                state.unsent -= copied
                state.resumeRoomWaiterIfDue()
                return .bytes(copied)
            }
            if state.peerLeft { return .abort }
            if state.finished || state.closed { return .end }
            suspend()
            state.waiting = true
            return .wait
        }
    }

    /// Called when the client hung up (the socket is watched from the stream's first wait until
    /// its response is freed): wakes the server so that it ends the stream, and the connection,
    /// at once.
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
            state.dropAll()
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
