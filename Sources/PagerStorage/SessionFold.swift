/// One row of the SQLite store's journal: a change to one session, or one part of a change.
///
/// A saved state is a run of records in one transaction: `create` when the session is new (the
/// table's rows for its id no longer count), a `part` or `drop` for each part that changed
/// (``StoredParts``), and a `move` with the new position and version last. A move of the pager
/// is the `move` alone.
struct JournalRecord {
    /// Each kind, as the journal's `kind` column stores it. Schema 1's whole-document records
    /// (kind 0) are read only when a file is migrated.
    enum Kind: Int {
        /// The position, the version and the use of a new state.
        case move = 1
        case delete = 2
        case touch = 3
        /// A part written: `part` names it, `body` holds it.
        case part = 4
        /// A part removed: `part` names it.
        case drop = 5
        /// The session starts again from nothing: parts and position follow.
        case create = 6
    }

    var kind: Kind
    var id: String
    var version = 0
    var part: String?
    var body: [UInt8]?
    var position: [UInt8]?
    var lastUsed = 0.0

    /// Roughly what the record takes in the journal, for folding by bytes.
    var bytes: Int { 32 + id.utf8.count + (part?.utf8.count ?? 0) + (body?.count ?? 0) + (position?.count ?? 0) }
}

/// What a run of journal records leaves of each session: the records folded in order, newest
/// last. Recovery lays it over the table's rows; the writer folds what it committed since the
/// last checkpoint and writes the result into the table.
struct SessionFold {
    /// One session's net change.
    struct Entry {
        /// The session was created anew: the table's rows for it no longer count.
        var fresh = false
        var deleted = false
        /// The newest position, or nil when it is the table's.
        var position: [UInt8]?
        /// The version of `position`; 0 when none was recorded.
        var version = 0
        var lastUsed = 0.0
        /// The parts written (a body) or removed (nil) since; the others are the table's.
        var parts: [String: [UInt8]?] = [:]
    }

    private(set) var entries: [String: Entry] = [:]

    var isEmpty: Bool { entries.isEmpty }

    mutating func removeAll() { entries.removeAll(keepingCapacity: true) }

    /// Folds in one record.
    mutating func apply(_ record: JournalRecord) {
        let id = record.id
        switch record.kind {
        case .create:
            entries[id] = Entry(fresh: true)
        case .delete:
            entries[id] = Entry(deleted: true)
        case .part, .drop:
            guard let key = record.part else { return }
            var entry = entries[id] ?? Entry()
            guard !entry.deleted else { return }
            entry.parts.updateValue(record.kind == .part ? record.body ?? [] : nil, forKey: key)
            entries[id] = entry
        case .move:
            var entry = entries[id] ?? Entry()
            guard !entry.deleted else { return }
            entry.position = record.position
            entry.version = record.version
            entry.lastUsed = max(entry.lastUsed, record.lastUsed)
            entries[id] = entry
        case .touch:
            var entry = entries[id] ?? Entry()
            guard !entry.deleted else { return }
            entry.lastUsed = max(entry.lastUsed, record.lastUsed)
            entries[id] = entry
        }
    }
}
