import JSON
import PagerModel
import PagerWire

/// A pager's document cut into parts, so that a change writes only the parts it changed: a
/// title rewrites one page's small part, not every page's content.
///
/// The parts, each a compact JSON value named by its key:
/// - `h`, the head: the page ids in order, the catalog's size and the settings;
/// - `m/<id>`, a page without its content (title, tab width, stack, tab, accessibility);
/// - `c/<id>`, that page's content (a JSON object);
/// - `k/<n>`, the catalog's page `n`, whole.
///
/// A small session (at most ``wholeLimit`` bytes of session data, as budgets count it) is kept
/// whole instead, as one part `d` holding ``StoredRecord/document(of:)``: rewriting it costs no
/// more than a few parts would, and one row takes far less room than ten. The position and the
/// version are kept beside the parts (``StoredRecord/position(of:)``).
enum StoredParts {
    /// The key of the head.
    static let head = "h"

    /// The key of a small session's whole document.
    static let whole = "d"

    /// The most session data (``Pager/storedBytes``) a session kept whole holds: 32 KiB, a few KB
    /// of document.
    static let wholeLimit = 32 << 10

    /// The key of page `id`'s part without its content.
    static func page(_ id: String) -> String { "m/" + id }

    /// The key of page `id`'s content.
    static func content(_ id: String) -> String { "c/" + id }

    /// The key of the catalog's page at `index`.
    static func catalog(_ index: Int) -> String { "k/\(index)" }

    /// The head's format: its first member. Heads of format 2 held the settings by position (as
    /// ``StoredRecord``'s format 1 did); they are still read, never written. (``StoredRecord``'s
    /// whole document was format 1 when this started at 2.)
    static let headFormat = 3

    /// The oldest head format read.
    static let oldestHeadFormat = 2

    /// One part to write (`body`) or to remove (`body` nil).
    struct Write: Equatable {
        var key: String
        var body: [UInt8]?
    }

    // MARK: - Writing

    /// Every part of `pager`: its whole document when it has at most `wholeLimit` bytes of
    /// session data, its parts otherwise.
    static func all(of pager: Pager, wholeLimit: Int = wholeLimit) -> [Write] {
        guard pager.storedBytes > wholeLimit else {
            return [Write(key: whole, body: StoredRecord.document(of: pager))]
        }
        var writes = [Write(key: head, body: headBytes(of: pager))]
        writes.reserveCapacity(1 + 2 * pager.pages.count + pager.catalog.count)
        for page in pager.pages {
            writes.append(Write(key: Self.page(page.id), body: pageBytes(page)))
            writes.append(Write(key: content(page.id), body: contentBytes(page.content)))
        }
        for (index, page) in pager.catalog.enumerated() {
            writes.append(Write(key: catalog(index), body: catalogBytes(page)))
        }
        return writes
    }

    /// The writes that take the stored `held` (the state last stored) to `pager`: the whole
    /// document again for a small session; for a larger one, the parts that differ (written
    /// when new or changed, removed when gone); all of them, and the other form's removal, when
    /// the session crosses ``wholeLimit``.
    static func changes(from held: Pager, to pager: Pager, wholeLimit: Int = wholeLimit) -> [Write] {
        switch (held.storedBytes > wholeLimit, pager.storedBytes > wholeLimit) {
        case (true, true):
            return partChanges(from: held, to: pager)
        case (false, true):
            return all(of: pager, wholeLimit: wholeLimit) + [Write(key: whole, body: nil)]
        case (let heldInParts, false):
            var writes = all(of: pager, wholeLimit: wholeLimit)
            if heldInParts {
                writes.append(Write(key: head, body: nil))
                for page in held.pages {
                    writes.append(Write(key: Self.page(page.id), body: nil))
                    writes.append(Write(key: content(page.id), body: nil))
                }
                for index in held.catalog.indices { writes.append(Write(key: catalog(index), body: nil)) }
            }
            return writes
        }
    }

    /// The parts that differ between `held` and `pager`, both kept in parts.
    ///
    /// Pages are matched by id, at the same position first. Arrays and contents that share their
    /// storage with `held`'s (what a command did not touch) are known equal without being
    /// compared, so the work grows with what changed and with the number of pages, not with
    /// the content stored.
    private static func partChanges(from held: Pager, to pager: Pager) -> [Write] {
        var writes: [Write] = []
        var idsChanged = false
        if !sharesStorage(pager.pages, held.pages) {
            idsChanged = pager.pages.count != held.pages.count
            var heldPositions: [String: Int]?
            for (position, page) in pager.pages.enumerated() {
                var old: Page?
                if position < held.pages.count, held.pages[position].id == page.id {
                    old = held.pages[position]
                } else {
                    idsChanged = true
                    if heldPositions == nil {
                        heldPositions = Dictionary(
                            held.pages.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
                    }
                    old = heldPositions?[page.id].map { held.pages[$0] }
                }
                if old.map({ pageDiffers(page, $0) }) ?? true {
                    writes.append(Write(key: Self.page(page.id), body: pageBytes(page)))
                }
                if !(old.map { sameContent(page, $0) } ?? false) {
                    writes.append(Write(key: content(page.id), body: contentBytes(page.content)))
                }
            }
            if idsChanged {
                let kept = Set(pager.pages.map(\.id))
                for page in held.pages where !kept.contains(page.id) {
                    writes.append(Write(key: Self.page(page.id), body: nil))
                    writes.append(Write(key: content(page.id), body: nil))
                }
            }
        }
        if idsChanged || pager.catalog.count != held.catalog.count || pager.settings != held.settings {
            writes.insert(Write(key: head, body: headBytes(of: pager)), at: 0)
        }
        if !sharesStorage(pager.catalog, held.catalog) {
            for (index, page) in pager.catalog.enumerated()
            where index >= held.catalog.count || page != held.catalog[index] {
                writes.append(Write(key: catalog(index), body: catalogBytes(page)))
            }
            for index in pager.catalog.count..<max(pager.catalog.count, held.catalog.count) {
                writes.append(Write(key: catalog(index), body: nil))
            }
        }
        return writes
    }

    /// Whether anything but the content differs (the ids are the same).
    private static func pageDiffers(_ page: Page, _ old: Page) -> Bool {
        page.title != old.title || page.tabWidth != old.tabWidth || page.tab != old.tab
            || page.accessibilityLabel != old.accessibilityLabel || page.accessibilityHint != old.accessibilityHint
            || page.stack != old.stack
    }

    /// Whether the contents would be written alike: the same storage, or the same members in
    /// the same order.
    private static func sameContent(_ page: Page, _ old: Page) -> Bool {
        guard page.contentMeasure == old.contentMeasure else { return false }
        let (members, oldMembers) = (page.content.members, old.content.members)
        return sharesStorage(members, oldMembers) || page.content.isIdentical(to: old.content)
    }

    /// Whether two arrays are one buffer (so equal without looking at their elements). Only
    /// the buffers' addresses are compared, while both arrays are alive.
    private static func sharesStorage<Element>(_ a: [Element], _ b: [Element]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBufferPointer { first in
            b.withUnsafeBufferPointer { second in first.baseAddress == second.baseAddress }
        }
    }

    private static func headBytes(of pager: Pager) -> [UInt8] {
        JSONWriter.bytes(capacity: 256 + pager.pages.count * 16) { w in
            w.beginArray()
            w.int(headFormat)
            w.beginArray()
            for page in pager.pages { w.string(page.id) }
            w.endArray()
            w.int(pager.catalog.count)
            pager.settings.encode(into: &w)
            w.endArray()
        }
    }

    private static func pageBytes(_ page: Page) -> [UInt8] {
        JSONWriter.bytes(capacity: 128) { w in StoredRecord.page(page, includingContent: false, &w) }
    }

    private static func contentBytes(_ content: JSONObject) -> [UInt8] {
        JSONWriter.bytes(capacity: 128) { w in w.value(.object(content)) }
    }

    private static func catalogBytes(_ page: Page) -> [UInt8] {
        JSONWriter.bytes(capacity: 256) { w in StoredRecord.page(page, includingContent: true, &w) }
    }

    // MARK: - Reading

    /// Rebuilds a pager from its parts (by key) or its whole document, its position and its
    /// version, validating it as at creation. A missing part or one that does not fit is refused.
    static func pager(parts: [String: [UInt8]], position: [UInt8], version: Int) throws(RecordError) -> Pager {
        if let document = parts[whole] {
            return try StoredRecord.pager(document: document, position: position, version: version)
        }
        var head = try Fields(parsing: try part(head, in: parts), what: "head")
        let format = try head.int()
        guard (oldestHeadFormat...headFormat).contains(format) else {
            throw RecordError(
                "head format \(format) is not one this pagerd reads (\(oldestHeadFormat) to \(headFormat))")
        }
        var ids = try head.array()
        var pages: [Page] = []
        while !ids.isAtEnd {
            let id = try ids.string()
            let contentText = try part(content(id), in: parts)
            let content: JSONObject
            do {
                guard let object = try JSONParser.parse(contentText, maxDepth: StoredRecord.maxDepth).objectValue else {
                    throw RecordError("the content of page \(id) is not an object")
                }
                content = object
            } catch let error as RecordError {
                throw error
            } catch {
                throw RecordError("the content of page \(id) is not readable: \(error)")
            }
            var fields = try Fields(parsing: try part(Self.page(id), in: parts), what: "page \(id)")
            let page = try StoredRecord.readPage(&fields, content: content)
            guard page.id == id else { throw RecordError("the part of page \(id) holds page \(page.id)") }
            pages.append(page)
        }
        let catalogCount = try head.int()
        guard catalogCount >= 0 else { throw RecordError("the catalog's size is \(catalogCount)") }
        var catalog: [Page] = []
        for index in 0..<catalogCount {
            var fields = try Fields(parsing: try part(Self.catalog(index), in: parts), what: "catalog page \(index)")
            catalog.append(try StoredRecord.readPage(&fields, content: nil))
        }
        let settings = try StoredRecord.readSettings(&head, positional: format == 2)
        return try StoredRecord.pager(
            pages: pages, catalog: catalog, settings: settings, position: position, version: version)
    }

    private static func part(_ key: String, in parts: [String: [UInt8]]) throws(RecordError) -> [UInt8] {
        guard let body = parts[key] else { throw RecordError("the part \(key) is missing") }
        return body
    }
}
