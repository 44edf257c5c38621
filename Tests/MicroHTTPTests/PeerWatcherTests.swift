import Foundation
import Locking
import TestSupport
import Testing

@testable import MicroHTTP

/// The peer watcher alone, on socket pairs: a hang-up reaches its watch once, and never the watch
/// of a later socket that reuses the descriptor number.
@Suite("Peer watcher")
struct PeerWatcherTests {
    /// Two distinct owners.
    final class Owner: Sendable {}
    let first = Owner(), second = Owner()

    /// A connected pair of sockets: (the watched end, the peer's end).
    static func pair() -> (Int32, Int32) {
        var ends: [Int32] = [-1, -1]
        precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        return (ends[0], ends[1])
    }

    @Test("a peer that hangs up ends its watch once; an unwatched socket is left alone")
    func hangUp() async throws {
        let watcher = PeerWatcher()
        watcher.start()
        defer { watcher.stop() }
        let calls = Locked([String]())
        let (watched, peer) = Self.pair()
        let (quiet, quietPeer) = Self.pair()
        watcher.watch(watched, owner: ObjectIdentifier(first)) { calls.withLock { $0.append("first") } }
        watcher.watch(quiet, owner: ObjectIdentifier(second)) { calls.withLock { $0.append("quiet") } }
        watcher.unwatch(quiet, owner: ObjectIdentifier(second))
        #expect(watcher.count == 1)
        close(peer)
        close(quietPeer)
        await waitUntil("the hang-up is seen") { calls.withLock { $0 } == ["first"] }
        try await Task.sleep(for: .milliseconds(50))
        #expect(calls.withLock { $0 } == ["first"] && watcher.count == 0)
        close(watched)
        close(quiet)
    }

    @Test("a descriptor closed while watched and reused by a new socket: only the new peer ends the new watch")
    func reusedDescriptor() async throws {
        let watcher = PeerWatcher()
        watcher.start()
        defer { watcher.stop() }
        let calls = Locked([String]())
        let (old, oldPeer) = Self.pair()
        watcher.watch(old, owner: ObjectIdentifier(second)) { calls.withLock { $0.append("old") } }
        // The watched descriptor is closed and its number taken by a new socket, as libmicrohttpd
        // closes a completed connection before its response is freed and the next accept reuses
        // the number. dup2 does both in one step, so no descriptor of a test running beside this
        // one can take the number in between.
        let (fresh, other) = Self.pair()
        #expect(dup2(fresh, old) == old)
        close(fresh)
        let reused = old
        watcher.watch(reused, owner: ObjectIdentifier(first)) { calls.withLock { $0.append("new") } }
        close(oldPeer)
        try await Task.sleep(for: .milliseconds(100))
        #expect(calls.withLock { $0 }.isEmpty)
        // The old owner's late unwatch does not remove the new watch.
        watcher.unwatch(reused, owner: ObjectIdentifier(second))
        #expect(watcher.count == 1)
        close(other)
        await waitUntil("the new peer's hang-up is seen") { calls.withLock { $0 } == ["new"] }
        close(reused)
    }
}
