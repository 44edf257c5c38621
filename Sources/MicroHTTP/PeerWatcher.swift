private import CEpoll
import Foundation
import Locking

#if canImport(Glibc)
    import Glibc
#endif

/// Watches the sockets of streaming connections (from their first suspension until their
/// response is freed) for a client that left.
///
/// libmicrohttpd does not look at a suspended connection's socket, so without this a departed
/// event-stream client would hold its slot until a heartbeat write failed (the first write to a
/// closed peer usually succeeds, so the second). The sockets are in one epoll set, registered for
/// `EPOLLRDHUP` (an event-stream client sends nothing after its request; `EPOLLHUP` and
/// `EPOLLERR` always come): one thread waits on it and calls a watch's handler, which ends the
/// stream and resumes its connection. Adding or removing a watch is one `epoll_ctl`, made by the
/// caller under the watcher's lock, so a change costs the same with ten streams or ten thousand
/// (a `poll` over the whole set, rebuilt after each batch of changes, cost a pass over every
/// socket per batch: with 10,000 streams, a third of the server's CPU while one change reached
/// them all; docs/performance.md, «An audience»).
///
/// The sockets belong to libmicrohttpd: the watcher never reads or closes them. A stream's socket
/// stays watched while its connection is suspended and resumed, until the response is freed; the
/// connection may complete and libmicrohttpd close the descriptor before that (closing takes it
/// out of the epoll set), and the number be reused by a new connection. So each registration
/// carries its watch's serial number as its epoll data, and an event is applied only to the watch
/// with that serial: never to a later watch of the same number, whose `watch` replaces the stale
/// entry (the hang-up of a connection that left must not end a newer stream on its number).
final class PeerWatcher: Sendable {
    private struct Watch {
        let serial: UInt64
        let owner: ObjectIdentifier
        let onHangUp: @Sendable () -> Void
    }

    private struct State {
        var watches: [Int32: Watch] = [:]
        /// The descriptor of each watch by its serial, for the events, which carry the serial.
        var bySerial: [UInt64: Int32] = [:]
        var nextSerial: UInt64 = 0
        /// Whether the watcher should run; cleared by `stop()`.
        var running = false
        /// Whether the waiting thread has not ended yet; `stop()` waits for it to clear.
        var threadLive = false
    }

    private let state = Locked(State())
    /// The epoll set: the wake pipe's read end (data 0) and every watched socket (data: its serial).
    private let epoll: Int32
    /// A pipe whose write end wakes the thread when it must stop.
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
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        precondition(epoll >= 0, "cannot create the peer watcher's epoll set")
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = 0
        precondition(epoll_ctl(epoll, EPOLL_CTL_ADD, wakeRead, &event) == 0, "cannot watch the peer watcher's pipe")
    }

    deinit {
        close(epoll)
        close(wakeRead)
        close(wakeWrite)
    }

    /// Starts the waiting thread.
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

    /// Stops the waiting thread and forgets every watch; returns once the thread has ended.
    func stop() {
        let wasRunning = state.withLock { state -> Bool in
            defer {
                state.running = false
                for descriptor in state.watches.keys { remove(descriptor) }
                state.watches.removeAll()
                state.bySerial.removeAll()
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
            let serial = state.nextSerial
            var event = epoll_event()
            event.events = EPOLLRDHUP.rawValue
            event.data.u64 = serial
            if let previous = state.watches[descriptor] {
                // The watch of a connection that completed before its response was freed: its
                // descriptor was closed (and left the set) and now names a new connection.
                state.bySerial[previous.serial] = nil
            }
            // ADD, or MOD when the number is still registered (a stale watch whose descriptor was
            // never closed, or one forgotten by stop()).
            if epoll_ctl(epoll, EPOLL_CTL_ADD, descriptor, &event) != 0 {
                guard errno == EEXIST, epoll_ctl(epoll, EPOLL_CTL_MOD, descriptor, &event) == 0 else {
                    state.watches[descriptor] = nil
                    return
                }
            }
            state.watches[descriptor] = Watch(serial: serial, owner: owner, onHangUp: onHangUp)
            state.bySerial[serial] = descriptor
        }
    }

    /// Stops watching `descriptor` if `owner` watches it; the descriptor is out of the epoll set
    /// when this returns (if it was still open).
    func unwatch(_ descriptor: Int32, owner: ObjectIdentifier) {
        state.withLock { state in
            guard let watch = state.watches[descriptor], watch.owner == owner else { return }
            state.watches[descriptor] = nil
            state.bySerial[watch.serial] = nil
            remove(descriptor)
        }
    }

    /// The number of sockets watched.
    var count: Int { state.withLock { $0.watches.count } }

    /// Takes `descriptor` out of the epoll set. Called under the state's lock.
    private func remove(_ descriptor: Int32) {
        var unused = epoll_event()
        _ = epoll_ctl(epoll, EPOLL_CTL_DEL, descriptor, &unused)
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    private func run() {
        defer {
            state.withLock { $0.threadLive = false }
            state.notifyAll()
        }
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        while state.withLock({ $0.running }) {
            let ready = epoll_wait(epoll, &events, Int32(events.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return  // EBADF, EFAULT, EINVAL: stop watching; heartbeats still reveal departed clients.
            }
            var handlers: [@Sendable () -> Void] = []
            state.withLock { state in
                for event in events[0..<Int(ready)] {
                    let serial = event.data.u64
                    // The wake pipe (data 0), or a watch removed since the event was queued.
                    guard serial != 0, let descriptor = state.bySerial[serial],
                        let watch = state.watches[descriptor], watch.serial == serial
                    else { continue }
                    state.watches[descriptor] = nil
                    state.bySerial[serial] = nil
                    remove(descriptor)
                    handlers.append(watch.onHangUp)
                }
            }
            if events[0..<Int(ready)].contains(where: { $0.data.u64 == 0 }) { drainWakeups() }
            for handler in handlers { handler() }
        }
    }

    private func drainWakeups() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while read(wakeRead, &buffer, buffer.count) > 0 {}
    }
}
