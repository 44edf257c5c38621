/// What a run of journal records leaves of each session: the records folded in order, newest
/// last. Recovery folds the journal over the table's rows; the writer folds what it committed
/// since the last checkpoint and writes the result into the table.
struct SessionFold {
    /// One session's net change.
    struct Entry {
        /// The newest document, or nil when it is the table's.
        var document: [UInt8]?
        /// The newest position, or nil when it is the table's.
        var position: [UInt8]?
        /// The version of `position`; 0 when only a use was recorded.
        var version = 0
        var lastUsed = 0.0
        var deleted = false
    }

    /// Each record kind, as the journal's `kind` column stores it.
    enum Kind: Int {
        /// A whole state: document and position.
        case save = 0
        /// A position only; the document is unchanged.
        case move = 1
        case delete = 2
        case touch = 3
    }

    private(set) var entries: [String: Entry] = [:]

    var isEmpty: Bool { entries.isEmpty }

    mutating func removeAll() { entries.removeAll(keepingCapacity: true) }

    /// Seeds a session as the table holds it.
    mutating func seed(_ id: String, document: [UInt8], position: [UInt8], version: Int, lastUsed: Double) {
        entries[id] = Entry(document: document, position: position, version: version, lastUsed: lastUsed)
    }

    /// Lays a later net change over this fold's entry for `id`.
    mutating func overlay(_ change: Entry, id: String) {
        if change.deleted {
            entries[id] = Entry(deleted: true)
            return
        }
        var entry = entries[id] ?? Entry()
        if change.document != nil { entry = Entry(document: change.document) }
        if change.position != nil {
            entry.position = change.position
            entry.version = change.version
        }
        entry.lastUsed = max(entry.lastUsed, change.lastUsed)
        entries[id] = entry
    }

    /// Folds in one record.
    mutating func apply(
        _ kind: Kind, id: String, version: Int, document: [UInt8]?, position: [UInt8]?, lastUsed: Double
    ) {
        switch kind {
        case .save:
            entries[id] = Entry(document: document, position: position, version: version, lastUsed: lastUsed)
        case .move:
            var entry = entries[id] ?? Entry()
            guard !entry.deleted else { return }
            entry.position = position
            entry.version = version
            entry.lastUsed = max(entry.lastUsed, lastUsed)
            entries[id] = entry
        case .delete:
            entries[id] = Entry(deleted: true)
        case .touch:
            var entry = entries[id] ?? Entry()
            guard !entry.deleted else { return }
            entry.lastUsed = max(entry.lastUsed, lastUsed)
            entries[id] = entry
        }
    }
}
