import Foundation
import Locking

#if canImport(Glibc)
    import Glibc
#endif

/// Watches the sockets of suspended streaming connections for a client that left.
///
/// libmicrohttpd does not look at a suspended connection's socket, so without this a departed
/// event-stream client would hold its slot until a heartbeat write failed (the first write to a
/// closed peer usually succeeds, so the second). One thread polls every watched socket for
/// `POLLRDHUP`/`POLLHUP`/`POLLERR` (an event-stream client sends nothing after its request) and
/// calls the watch's handler, which ends the stream and resumes its connection. A change of the
/// watch set wakes the thread through a pipe; changes that arrive together (one event fanned out
/// to many streams) are taken in one pass, so the thread rebuilds its poll set once per batch.
///
/// (An epoll set, O(1) per change, was tried and lost connections under load: a stream's new
/// connection sometimes never got its first event; `poll` over the whole set has not.)
///
/// The sockets belong to libmicrohttpd: the watcher never reads or closes them, and a watch must
/// be removed before its connection is resumed (the descriptor may be reused once the connection
/// completes). Each watch carries a serial number, so a poll result that raced with a removal is
/// never applied to a later watch of the same descriptor number.
final class PeerWatcher: Sendable {
    private struct Watch {
        let serial: UInt64
        let owner: ObjectIdentifier
        let onHangUp: @Sendable () -> Void
    }

    private struct State {
        var watches: [Int32: Watch] = [:]
        var nextSerial: UInt64 = 0
        /// Whether the watcher should run; cleared by `stop()`.
        var running = false
        /// Whether the polling thread has not ended yet; `stop()` waits for it to clear.
        var threadLive = false
    }

    private let state = Locked(State())
    /// A pipe whose write end wakes the polling thread when the watch set changes or it must stop.
    private let wakeRead: Int32
    private let wakeWrite: Int32

    /// Creates a stopped watcher.
    init() {
        var ends: [Int32] = [-1, -1]
        precondition(pipe(&ends) == 0, "cannot create the peer watcher's pipe")
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        wakeRead = ends[0]
        wakeWrite = ends[1]
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// Starts the polling thread.
    func start() {
        let started = state.withLock { state -> Bool in
            guard !state.running else { return false }
            state.running = true
            state.threadLive = true
            return true
        }
        guard started else { return }
        let thread = Thread { [self] in run() }
        thread.name = "pagerd.peer-watcher"
        thread.start()
    }

    /// Stops the polling thread and forgets every watch; returns once the thread has ended.
    func stop() {
        let wasRunning = state.withLock { state -> Bool in
            defer {
                state.running = false
                state.watches.removeAll()
            }
            return state.running
        }
        guard wasRunning else { return }
        wake()
        state.wait(until: { !$0.threadLive }, then: { _ in })
    }

    /// Watches `descriptor` for `owner`, calling `onHangUp` once if the peer hangs up first.
    func watch(_ descriptor: Int32, owner: ObjectIdentifier, onHangUp: @escaping @Sendable () -> Void) {
        guard descriptor >= 0 else { return }
        state.withLock { state in
            state.nextSerial += 1
            state.watches[descriptor] = Watch(serial: state.nextSerial, owner: owner, onHangUp: onHangUp)
        }
        wake()
    }

    /// Stops watching `descriptor` if `owner` watches it.
    func unwatch(_ descriptor: Int32, owner: ObjectIdentifier) {
        state.withLock { state in
            if state.watches[descriptor]?.owner == owner { state.watches[descriptor] = nil }
        }
    }

    /// The number of sockets watched.
    var count: Int { state.withLock { $0.watches.count } }

    /// `POLLRDHUP`: the peer closed its end. Linux's value; Glibc exports it only to C code
    /// built with `_GNU_SOURCE`.
    private static let readHangUp: Int16 = 0x2000

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    private func run() {
        defer {
            state.withLock { $0.threadLive = false }
            state.notifyAll()
        }
        while true {
            guard let snapshot = state.withLock({ $0.running ? $0.watches.map { ($0.key, $0.value.serial) } : nil })
            else {
                return
            }
            var descriptors = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            for (descriptor, _) in snapshot {
                descriptors.append(pollfd(fd: descriptor, events: Self.readHangUp, revents: 0))
            }
            let ready = poll(&descriptors, nfds_t(descriptors.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return  // EBADF, EFAULT, EINVAL, ENOMEM: stop watching; heartbeats still reveal departed clients.
            }
            if descriptors[0].revents != 0 { drainWakeups() }
            let hangUp = Self.readHangUp | Int16(POLLHUP) | Int16(POLLERR) | Int16(POLLNVAL)
            var handlers: [@Sendable () -> Void] = []
            state.withLock { state in
                for (position, (descriptor, serial)) in snapshot.enumerated()
                where descriptors[position + 1].revents & hangUp != 0 {
                    guard let watch = state.watches[descriptor], watch.serial == serial else { continue }
                    state.watches[descriptor] = nil
                    handlers.append(watch.onHangUp)
                }
            }
            for handler in handlers { handler() }
        }
    }

    private func drainWakeups() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while read(wakeRead, &buffer, buffer.count) > 0 {}
    }
}
