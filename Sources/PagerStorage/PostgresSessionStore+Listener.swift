import Foundation
import Locking
import PagerModel
public import PagerSessions
import Synchronization

extension PostgresSessionStore {
    // MARK: - The listener thread

    /// Starts listening for the changes other processes announce: `onChange` gets each, in the
    /// order they were committed; `onResynchronize` is called after the listening connection was
    /// lost and made again, since announcements made meanwhile are lost.
    /// `onListening` runs each time the `LISTEN` is in place (at start, and again after a lost
    /// connection was made again): from then on, every change committed elsewhere is announced.
    public func listen(
        onChange: @escaping @Sendable (RemoteChange) -> Void, onResynchronize: @escaping @Sendable () -> Void,
        onListening: @escaping @Sendable () -> Void = {}
    ) {
        listenerRunning.withLock { $0 = true }
        let thread = Thread {
            self.listenLoop(onChange: onChange, onResynchronize: onResynchronize, onListening: onListening)
            self.listenerRunning.withLock { $0 = false }
            self.listenerRunning.notifyAll()
        }
        thread.name = "pagerd-postgres-listen"
        thread.start()
    }

    private func listenLoop(
        onChange: @escaping @Sendable (RemoteChange) -> Void, onResynchronize: @escaping @Sendable () -> Void,
        onListening: @Sendable () -> Void
    ) {
        var listening: PostgresConnection?
        var lost = false
        var pieces = PieceAssembler()
        while !queue.isClosing {
            do {
                if listening == nil {
                    let made = try PostgresConnection(url: options.url, password: options.password)
                    try made.execute("LISTEN \(Self.channel)")
                    listening = made
                    pieces = PieceAssembler()
                    listenerConnected.store(true, ordering: .relaxed)
                    onListening()
                    if lost {
                        options.warn("\(place): listening again; sessions watched here are brought up to date")
                        onResynchronize()
                    }
                }
                for payload in try listening?.notifications(timeout: 0.5) ?? [] {
                    guard let whole = pieces.take(payload, skipping: instance) else { continue }
                    if let change = remoteChange(from: whole) { onChange(change) }
                }
            } catch {
                if !lost || listening != nil { options.log("\(place): listening for changes failed: \(error)") }
                listening = nil
                lost = true
                listenerConnected.store(false, ordering: .relaxed)
                Thread.sleep(forTimeInterval: options.retryDelay)
            }
        }
        listening?.close()
    }

    /// An announcement of another process as a change; nil for this process's own and for
    /// anything unreadable.
    private func remoteChange(from payload: String) -> RemoteChange? {
        let lines = payload.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
        let header = lines[0].split(separator: " ")
        guard header.count == 6, header[0] != Substring(instance), let version = Int(header[3]),
            let kind = SessionEventKind(rawValue: String(header[4])),
            let cause = EventCause(rawValue: String(header[5]))
        else { return nil }
        let id = SessionID(String(header[2]))
        let announcement = ChangeAnnouncement(kind: kind, cause: cause)
        let state: RemoteChange.State
        switch header[1] {
        case "D": state = .deleted
        case "U": state = .unknown
        case "M" where lines.count >= 2:
            let position = Array(lines[1].utf8)
            state = .position { held in try? StoredRecord.pager(laying: position, on: held, version: version) }
        case "S" where lines.count == 3:
            guard
                let pager = try? StoredRecord.pager(
                    document: Array(lines[2].utf8), position: Array(lines[1].utf8), version: version)
            else { return RemoteChange(id: id, version: version, announcement: announcement, state: .unknown) }
            state = .whole(pager)
        default: return nil
        }
        return RemoteChange(id: id, version: version, announcement: announcement, state: state)
    }
}

/// Puts back together a state announced in pieces (see
/// ``PostgresSessionStore/announcements(header:body:pieceHeader:)``): the pieces of one
/// announcement arrive together and in order, so the assembler holds one announcement at a time.
/// A piece out of turn (never expected) gives its change as unknown, so its session is loaded.
struct PieceAssembler {
    /// The announcement being put together (its header without the piece numbers), the number
    /// of its next piece, how many it has, and the body so far.
    private var key = ""
    private var next = 0
    private var count = 0
    private var body = ""

    /// `payload` as a whole announcement: itself, unless it is a piece; for the last piece of an
    /// announcement, the announcement put together; nil while pieces are missing and for this
    /// process's own pieces (`instance`).
    mutating func take(_ payload: String, skipping instance: String) -> String? {
        let firstLine = payload.prefix { $0 != "\n" }
        let header = firstLine.split(separator: " ")
        guard header.count == 8, header[1] == "C" else { return payload }
        guard header[0] != Substring(instance), let index = Int(header[6]), let total = Int(header[7]) else {
            return nil
        }
        var fields = header[0..<6].map(String.init)
        let announcement = fields.joined(separator: " ")
        let piece = payload.dropFirst(firstLine.count + 1)
        if index == 0 {
            (key, next, count, body) = (announcement, 1, total, String(piece))
        } else if announcement == key, index == next, total == count {
            body += piece
            next += 1
        } else {
            key = ""
            fields[1] = "U"
            return fields.joined(separator: " ")
        }
        guard next == count else { return nil }
        key = ""
        // As if announced whole: `S`, then the position and the document.
        fields[1] = "S"
        return fields.joined(separator: " ") + "\n" + body
    }
}
