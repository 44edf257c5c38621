import Foundation
import PagerModel
import PagerSessions

// The database's tables, their migrations and the statements the writer prepares.
extension PostgresSessionStore {
    // MARK: - The schema

    /// Creates the tables on first use and migrates an older schema forward, under a
    /// transaction-level advisory lock so that two processes starting together do it once.
    static func migrate(_ connection: PostgresConnection, place: String) throws {
        try connection.execute(
            """
            BEGIN;
            SELECT pg_advisory_xact_lock(\(lockKey));
            CREATE TABLE IF NOT EXISTS pagerd_schema(version integer NOT NULL);
            """)
        do {
            var version = 0
            try connection.query("SELECT version::bigint FROM pagerd_schema") { row throws(PostgresError) in
                version = try row.int(0)
            }
            guard version <= schemaVersion else {
                throw StoreOpenError(
                    .corrupt, "\(place) has pagerd schema \(version), newer than this pagerd's (\(schemaVersion))")
            }
            if version < 1 {
                try connection.execute(
                    """
                    CREATE TABLE pagerd_sessions(
                        id text PRIMARY KEY, version bigint NOT NULL, document bytea NOT NULL,
                        position bytea NOT NULL, last_used double precision NOT NULL);
                    INSERT INTO pagerd_schema(version) VALUES (1);
                    """)
            }
            if version < 2 { try migrateToCounts(connection) }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Schema 2: each row's data size, read from its stored state, and the row of counts.
    static func migrateToCounts(_ connection: PostgresConnection) throws {
        try connection.execute(
            """
            ALTER TABLE pagerd_sessions ADD COLUMN bytes bigint NOT NULL DEFAULT 0;
            CREATE TABLE pagerd_counters(sessions bigint NOT NULL, bytes bigint NOT NULL);
            """)
        var sizes: [(String, Int)] = []
        try connection.query("SELECT id, version, document, position, last_used FROM pagerd_sessions") {
            row throws(PostgresError) in
            let stored = try session(from: row)
            sizes.append((stored.id.rawValue, stored.pager.storedBytes))
        }
        for (id, bytes) in sizes {
            try connection.query("UPDATE pagerd_sessions SET bytes = $2 WHERE id = $1", [.text(id), .int(bytes)]) {
                _ throws(PostgresError) in
            }
        }
        try connection.execute(
            """
            INSERT INTO pagerd_counters(sessions, bytes) SELECT count(*), coalesce(sum(bytes), 0) FROM pagerd_sessions;
            UPDATE pagerd_schema SET version = 2;
            """)
    }

    /// The statements a transaction is made of, prepared once per connection. Each answers one
    /// row when it changed the session (and then announces the change) and none when it did not.
    static func prepareStatements(_ connection: PostgresConnection) throws(PostgresError) {
        // Creations, whole saves and deletions keep the counts; a creation past either limit, or
        // a save that grows the data past the budget, changes nothing. A transaction that has
        // any of them locks the counts first (`count`), and then the sessions' rows in the order
        // of their ids, so that no two transactions wait for each other in a circle. A save
        // reads the size it replaces from the row it locks, at the version it names.
        try connection.prepare("count", "SELECT sessions, bytes FROM pagerd_counters FOR UPDATE")
        try connection.prepare(
            "insert",
            """
            WITH room AS (
                UPDATE pagerd_counters SET sessions = sessions + 1, bytes = bytes + $7
                    WHERE sessions < $6 AND bytes + $7 <= $8 RETURNING 1)
            INSERT INTO pagerd_sessions(id, version, document, position, last_used, bytes)
                SELECT $1::text, $2::bigint, $3::bytea, $4::bytea, $5::double precision, $7::bigint FROM room
                RETURNING 1
            """)
        try connection.prepare(
            "save",
            """
            WITH old AS (SELECT bytes FROM pagerd_sessions WHERE id = $1 AND version = $2 - 1 FOR UPDATE),
                room AS (
                    UPDATE pagerd_counters SET bytes = bytes + $7 - (SELECT bytes FROM old)
                        WHERE EXISTS (SELECT 1 FROM old)
                            AND ($7 <= (SELECT bytes FROM old) OR bytes + $7 - (SELECT bytes FROM old) <= $8)
                        RETURNING 1),
                kept AS (
                    UPDATE pagerd_sessions SET version = $2, document = $3, position = $4,
                        last_used = greatest(last_used, $5), bytes = $7
                        WHERE id = $1 AND version = $2 - 1 AND EXISTS (SELECT 1 FROM room) RETURNING 1)
            SELECT pg_notify('\(channel)', payload) FROM kept, unnest($6::text[]) WITH ORDINALITY AS a(payload, n)
                ORDER BY n
            """)
        try connection.prepare(
            "move",
            """
            WITH kept AS (
                UPDATE pagerd_sessions SET version = $2, position = $3, last_used = greatest(last_used, $4)
                    WHERE id = $1 AND version = $2 - 1 RETURNING 1)
            SELECT pg_notify('\(channel)', $5) FROM kept
            """)
        try connection.prepare(
            "delete",
            """
            WITH gone AS (DELETE FROM pagerd_sessions WHERE id = $1 AND ($3 < 0 OR version = $3) RETURNING bytes),
                counted AS (
                    UPDATE pagerd_counters SET sessions = sessions - (SELECT count(*) FROM gone),
                        bytes = bytes - (SELECT coalesce(sum(bytes), 0) FROM gone))
            SELECT pg_notify('\(channel)', $2) FROM gone
            """)
        try connection.prepare(
            "touch", "UPDATE pagerd_sessions SET last_used = greatest(last_used, $2) WHERE id = $1")
        try connection.prepare(
            "rows",
            "SELECT id, version, document, position, last_used FROM pagerd_sessions WHERE id = ANY($1::text[])")
        try connection.prepare(
            "expire",
            """
            WITH gone AS (DELETE FROM pagerd_sessions WHERE last_used < $1 RETURNING id, bytes),
                counted AS (
                    UPDATE pagerd_counters SET sessions = sessions - (SELECT count(*) FROM gone),
                        bytes = bytes - (SELECT coalesce(sum(bytes), 0) FROM gone))
            SELECT pg_notify('\(channel)', $2 || ' D ' || id || ' 0 deleted idle') FROM gone
            """)
    }
}
