// The second of the two files that import the C module: epoll comes through its shim.
private import CMicroHTTPD
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Watches the sockets of suspended streaming connections for a client that left.
///
/// libmicrohttpd does not look at a suspended connection's socket, so without this a departed
/// event-stream client would hold its slot until a heartbeat write failed (the first write to a
/// closed peer usually succeeds, so the second). One thread waits in `epoll_wait` for a hang-up
/// (`EPOLLRDHUP`/`EPOLLHUP`/`EPOLLERR`; an event-stream client sends nothing after its request)
/// on every watched socket and calls the watch's handler, which ends the stream and resumes its
/// connection. Adding and removing a watch is one `epoll_ctl` call: O(1), whatever the number of
/// streams, and a watch fires at most once (`EPOLLONESHOT`).
///
/// The sockets belong to libmicrohttpd: the watcher never reads or closes them, and a watch must
/// be removed before its connection is resumed (the descriptor may be reused once the connection
/// completes). Each watch carries a serial number as its epoll data, so an event that raced with
/// a removal is never applied to a later watch of the same descriptor number.
final class PeerWatcher: Sendable {
    private struct Watch {
        let serial: UInt64
        let owner: ObjectIdentifier
        let onHangUp: @Sendable () -> Void
    }

    private struct State {
        /// Watches by descriptor, and the descriptor of each serial.
        var watches: [Int32: Watch] = [:]
        var descriptors: [UInt64: Int32] = [:]
        var nextSerial: UInt64 = 1
        var running = false
    }

    private let state = Locked(State())
    private let poller: Int32
    /// A pipe whose write end wakes the thread when it must stop; serial 0 in the epoll set.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let finished = DispatchSemaphore(value: 0)

    /// Creates a stopped watcher.
    init() {
        poller = epoll_create1(Int32(EPOLL_CLOEXEC))
        precondition(poller >= 0, "cannot create the peer watcher's epoll instance")
        var ends: [Int32] = [-1, -1]
        precondition(pipe(&ends) == 0, "cannot create the peer watcher's pipe")
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        wakeRead = ends[0]
        wakeWrite = ends[1]
        var event = epoll_event(events: UInt32(EPOLLIN.rawValue), data: epoll_data_t(u64: 0))
        precondition(epoll_ctl(poller, EPOLL_CTL_ADD, wakeRead, &event) == 0, "cannot watch the wake pipe")
    }

    deinit {
        close(poller)
        close(wakeRead)
        close(wakeWrite)
    }

    /// Starts the polling thread.
    func start() {
        let started = state.withLock { state -> Bool in
            guard !state.running else { return false }
            state.running = true
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
                for descriptor in state.watches.keys { _ = epoll_ctl(poller, EPOLL_CTL_DEL, descriptor, nil) }
                state.watches.removeAll()
                state.descriptors.removeAll()
            }
            return state.running
        }
        guard wasRunning else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        finished.wait()
    }

    /// Watches `descriptor` for `owner`, calling `onHangUp` once if the peer hangs up first.
    func watch(_ descriptor: Int32, owner: ObjectIdentifier, onHangUp: @escaping @Sendable () -> Void) {
        guard descriptor >= 0 else { return }
        state.withLock { state in
            let serial = state.nextSerial
            state.nextSerial += 1
            if let previous = state.watches[descriptor] { state.descriptors[previous.serial] = nil }
            state.watches[descriptor] = Watch(serial: serial, owner: owner, onHangUp: onHangUp)
            state.descriptors[serial] = descriptor
            var event = epoll_event(events: CMicroHTTPD_hang_up_events(), data: epoll_data_t(u64: serial))
            if epoll_ctl(poller, EPOLL_CTL_MOD, descriptor, &event) != 0 {
                _ = epoll_ctl(poller, EPOLL_CTL_ADD, descriptor, &event)
            }
        }
    }

    /// Stops watching `descriptor` if `owner` watches it.
    func unwatch(_ descriptor: Int32, owner: ObjectIdentifier) {
        state.withLock { state in
            guard let watch = state.watches[descriptor], watch.owner == owner else { return }
            state.watches[descriptor] = nil
            state.descriptors[watch.serial] = nil
            _ = epoll_ctl(poller, EPOLL_CTL_DEL, descriptor, nil)
        }
    }

    /// The number of sockets watched.
    var count: Int { state.withLock { $0.watches.count } }

    private func run() {
        defer { finished.signal() }
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        while state.withLock({ $0.running }) {
            let ready = epoll_wait(poller, &events, Int32(events.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return  // EBADF or EINVAL: the instance is unusable; streams fall back to heartbeats.
            }
            var handlers: [@Sendable () -> Void] = []
            state.withLock { state in
                for event in events[0..<Int(ready)] {
                    let serial = event.data.u64
                    guard serial != 0, let descriptor = state.descriptors[serial],
                        let watch = state.watches[descriptor], watch.serial == serial
                    else { continue }
                    state.watches[descriptor] = nil
                    state.descriptors[serial] = nil
                    _ = epoll_ctl(poller, EPOLL_CTL_DEL, descriptor, nil)
                    handlers.append(watch.onHangUp)
                }
            }
            for handler in handlers { handler() }
            if events[0..<Int(ready)].contains(where: { $0.data.u64 == 0 }) { drainWakeups() }
        }
    }

    private func drainWakeups() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while read(wakeRead, &buffer, buffer.count) > 0 {}
    }
}
