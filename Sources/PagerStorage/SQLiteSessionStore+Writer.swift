import Foundation
import PagerModel
import PagerSessions

/// The writer thread: group commits, folds, and giving space back.
extension SQLiteSessionStore {
    func writeLoop() {
        while let batch = queue.next() {
            // Nothing queued: a thread found the store short of space and asks for a fold.
            let deleted = batch.isEmpty || write(batch)
            let dueToSpace = deleted && queue.isShortOfSpace
            if dueToSpace || journalRecords >= options.checkpointRecords
                || journalBytes + freedBytes >= options.checkpointBytes
            {
                checkpoint()
                if dueToSpace { measureRoomForWriter() }
            }
        }
        checkpoint(evenIfPaused: true)
        // Everything into the database file, so that the file alone is whole once stopped.
        try? database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        insertRecord.reset()
        queue.end()
    }

    /// One transaction for `batch`; then every completion, in order. Answers whether it
    /// committed a deletion.
    private func write(_ batch: [Pending]) -> Bool {
        var records: [JournalRecord] = []
        records.reserveCapacity(batch.count)
        // What this batch does to `held` once it commits: a state to keep (kept in parts), or
        // nil to forget the session (deleted, or small enough to be kept whole).
        var heldChanges: [String: Pager?] = [:]
        var deletes = false
        var freed = 0
        var growth = 0
        for pending in batch {
            let id = pending.change.id.rawValue
            let start = records.count
            switch pending.change {
            case .save(_, let pager, let lastUsed, let positionOnly):
                if !positionOnly {
                    if pager.storedBytes <= StoredParts.wholeLimit {
                        // Written whole, over whatever the tables held.
                        records.append(JournalRecord(kind: .create, id: id))
                        records.append(
                            record(
                                StoredParts.Write(key: StoredParts.whole, body: StoredRecord.document(of: pager)),
                                of: id))
                        heldChanges.updateValue(nil, forKey: id)
                    } else if let base = heldChanges[id] ?? held[id] {
                        for write in StoredParts.changes(from: base, to: pager) {
                            records.append(record(write, of: id))
                        }
                        heldChanges[id] = pager
                    } else {
                        records.append(JournalRecord(kind: .create, id: id))
                        for write in StoredParts.all(of: pager) { records.append(record(write, of: id)) }
                        heldChanges[id] = pager
                    }
                }
                records.append(
                    JournalRecord(
                        kind: .move, id: id, version: pager.version, position: StoredRecord.position(of: pager),
                        lastUsed: lastUsed))
            case .delete:
                records.append(JournalRecord(kind: .delete, id: id))
                // What the fold will free: a session kept in parts is held; one kept whole has
                // at most `wholeLimit` bytes.
                let base = heldChanges[id] ?? held[id]
                freed += base?.storedBytes ?? StoredParts.wholeLimit
                heldChanges.updateValue(nil, forKey: id)
                deletes = true
            case .touch(_, let lastUsed):
                records.append(JournalRecord(kind: .touch, id: id, lastUsed: lastUsed))
            }
            if case .delete = pending.change { continue }
            growth += records[start...].reduce(0) { $0 + $1.bytes }
        }
        // A batch that grows the journal must leave the reserve free, counting its bytes twice:
        // once in the journal, once more when folded.
        if growth > 0, let room = room(for: growth), room - 2 * growth < options.reserveBytes {
            fail(
                batch,
                error: SpaceError(
                    "\(growth) bytes of changes would leave less than the \(options.reserveBytes) bytes pagerd keeps free (\(room) are left)"
                ))
            return false
        }
        do {
            try database.execute("BEGIN IMMEDIATE")
            do {
                for record in records { try insert(record) }
                try database.execute("COMMIT")
            } catch {
                try? database.execute("ROLLBACK")
                throw error
            }
        } catch {
            fail(batch, error: error)
            return false
        }
        for record in records {
            fold.apply(record)
            journalBytes += record.bytes
        }
        freedBytes += freed
        writtenSinceMeasure += 2 * growth
        journalRecords += records.count
        for (id, pager) in heldChanges { held[id] = pager }
        queue.recordCommit(changes: batch.count)
        for pending in batch { pending.completion?(nil) }
        return deletes
    }

    /// The room left before a batch of `growth` bytes: measured when the last measure is a
    /// second old or what was written since could bring the batch near the reserve; otherwise
    /// the last measure less what was written since, which costs no system call.
    private func room(for growth: Int) -> Int? {
        let now = options.clock()
        if let measured = measuredRoom, now - roomMeasuredAt < Self.roomMeasureInterval {
            let estimate = measured - writtenSinceMeasure
            if estimate - 2 * growth >= 2 * options.reserveBytes { return estimate }
        }
        return measureRoomForWriter()
    }

    /// Measures the room left (``measureRoom()``) and keeps the measure for ``room(for:)``.
    @discardableResult
    private func measureRoomForWriter() -> Int? {
        measuredRoom = measureRoom()
        roomMeasuredAt = options.clock()
        writtenSinceMeasure = 0
        return measuredRoom
    }

    private func record(_ write: StoredParts.Write, of id: String) -> JournalRecord {
        JournalRecord(kind: write.body == nil ? .drop : .part, id: id, part: write.key, body: write.body)
    }

    private func insert(_ record: JournalRecord) throws(SQLiteError) {
        insertRecord.bind(1, record.id)
        insertRecord.bind(2, record.kind.rawValue)
        insertRecord.bind(3, record.version)
        if let part = record.part { insertRecord.bind(4, part) } else { insertRecord.bindNull(4) }
        insertRecord.bind(5, record.body)
        insertRecord.bind(6, record.position)
        insertRecord.bind(7, record.lastUsed)
        try insertRecord.run()
    }

    /// Fails `batch` and everything queued behind it, then refuses submissions for the retry
    /// delay: nothing built on a failed change is ever committed.
    private func fail(_ batch: [Pending], error: any Error) {
        queue.failAll(
            batch, reason: "\(options.path): a commit failed: \(error)", pause: options.retryDelay, log: options.log
        ) { pending, failure in pending.completion?(failure) }
    }

    // MARK: - Folds

    /// Folds the journal into the tables: the journal emptied first (so that the fold reuses its
    /// pages), then one write per part and session changed since the last fold, and the parts of
    /// the sessions deleted since, in one transaction; then freed pages go back to the file
    /// system (``giveSpaceBack()``). On failure the journal is kept, the failure counted and
    /// logged, and the next try waits a pause that doubles with each failure in a row (the first
    /// failure also checks the file: damaged, it is never written again). `evenIfPaused` tries
    /// even during that pause (when closing).
    func checkpoint(evenIfPaused: Bool = false) {
        guard !damaged, !fold.isEmpty || journalRecords > 0 else { return }
        guard evenIfPaused || options.clock() >= nextFoldAttempt else { return }
        do {
            try database.execute("BEGIN IMMEDIATE")
            do {
                try database.execute("DELETE FROM journal")
                try writeFold()
                try database.execute("COMMIT")
            } catch {
                try? database.execute("ROLLBACK")
                throw error
            }
        } catch {
            foldFailed(error)
            return
        }
        fold.removeAll()
        journalRecords = 0
        journalBytes = 0
        freedBytes = 0
        queue.recordFold(failed: false)
        if foldFailures > 0 {
            options.warn("\(options.path): the journal was folded into the tables after \(foldFailures) failed tries")
            foldFailures = 0
            nextFoldAttempt = -.infinity
        }
        giveSpaceBack()
    }

    private func foldFailed(_ error: any Error) {
        // The WAL the failed transaction grew goes back to its limit (only committed frames are
        // copied), so that a fold that failed for want of room does not keep the room it took.
        try? database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        foldFailures += 1
        queue.recordFold(failed: true)
        var damage: String?
        if foldFailures == 1 {
            do { damage = try Self.quickCheck(database) } catch let error as SQLiteError where error.isCorruptFile {
                damage = "\(error)"
            } catch {}
        }
        if let damage {
            damaged = true
            let reason = "\(options.path) is damaged (PRAGMA quick_check: \(damage))"
            queue.setDamage("\(reason); changes are refused")
            options.log(
                "\(reason): folding the journal failed (\(error)); pagerd refuses every change from now on and serves reads from memory. Stop it and restore a backup."
            )
            return
        }
        let pause = min(options.foldRetryDelay * pow(2, Double(foldFailures - 1)), options.maxFoldRetryDelay)
        nextFoldAttempt = options.clock() + pause
        options.log(
            "\(options.path): folding the journal into the tables failed (\(foldFailures) in a row), next try in \(pause) s; changes are still journaled: \(error)"
        )
    }

    private func writeFold() throws {
        let session = try database.prepare(
            "INSERT OR REPLACE INTO sessions(id, version, position, last_used) VALUES (?1, ?2, ?3, ?4)")
        let move = try database.prepare(
            "UPDATE sessions SET version = ?2, position = ?3, last_used = max(last_used, ?4) WHERE id = ?1")
        let touch = try database.prepare("UPDATE sessions SET last_used = max(last_used, ?2) WHERE id = ?1")
        let delete = try database.prepare("DELETE FROM sessions WHERE id = ?1")
        let deleteParts = try database.prepare("DELETE FROM parts WHERE session = ?1")
        let writePart = try database.prepare("INSERT OR REPLACE INTO parts(session, key, body) VALUES (?1, ?2, ?3)")
        let dropPart = try database.prepare("DELETE FROM parts WHERE session = ?1 AND key = ?2")
        for (id, entry) in fold.entries {
            if entry.deleted || entry.fresh {
                deleteParts.bind(1, id)
                try deleteParts.run()
            }
            if entry.deleted {
                delete.bind(1, id)
                try delete.run()
                continue
            }
            for (key, body) in entry.parts {
                let statement = body == nil ? dropPart : writePart
                statement.bind(1, id)
                statement.bind(2, key)
                if let body { statement.bind(3, body) }
                try statement.run()
            }
            if entry.fresh, let position = entry.position {
                session.bind(1, id)
                session.bind(2, entry.version)
                session.bind(3, position)
                session.bind(4, entry.lastUsed)
                try session.run()
            } else if let position = entry.position {
                move.bind(1, id)
                move.bind(2, entry.version)
                move.bind(3, position)
                move.bind(4, entry.lastUsed)
                try move.run()
            } else {
                touch.bind(1, id)
                touch.bind(2, entry.lastUsed)
                try touch.run()
            }
        }
    }

    /// Gives the pages the fold freed back to the file system, a step at a time, and empties the
    /// WAL after each step, so neither needs more room than a step: when the store is short of
    /// space, always; otherwise once the free pages outnumber half the used ones and hold more
    /// than ``Options/checkpointBytes`` (so the file stays within 1.5 times what it uses, or that
    /// plus one journal). Below that the pages are kept: the journal takes them again before the
    /// next fold, and giving them back every time would make the file and the WAL shrink and grow
    /// again (each commit's sync then also records the WAL's new size). A failure is logged; the
    /// pages stay free in the file, used again by later writes.
    private func giveSpaceBack() {
        guard vacuums else { return }
        do {
            var free = try database.integer("PRAGMA freelist_count") ?? 0
            let pages = try database.integer("PRAGMA page_count") ?? 0
            let pageSize = try database.integer("PRAGMA page_size") ?? 4096
            let worthIt = 2 * free > pages - free && free * pageSize > options.checkpointBytes
            guard free > 0, queue.isShortOfSpace || worthIt else { return }
            var steps = free / Self.vacuumStep + 2
            while steps > 0, free > 0 {
                try database.execute("PRAGMA incremental_vacuum(\(Self.vacuumStep))")
                try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                free = try database.integer("PRAGMA freelist_count") ?? 0
                steps -= 1
            }
        } catch {
            options.log(
                "\(options.path): giving freed space back failed and will be tried after the next fold: \(error)")
        }
    }
}

/// A batch refused because it would leave less disk free than the store keeps.
struct SpaceError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }
}
