import JSON
import PagerModel
import Testing

@testable import PagerStorage

@Suite("StoredParts: a change writes the parts it changed, and the parts read back as the pager")
struct StoredPartsTests {
    /// The parts of `held` with `writes` laid over them.
    static func laying(_ writes: [StoredParts.Write], on held: Pager) -> [String: [UInt8]] {
        var parts: [String: [UInt8]] = [:]
        for write in StoredParts.all(of: held) { parts[write.key] = write.body }
        for write in writes { parts[write.key] = write.body }
        return parts
    }

    static func read(_ parts: [String: [UInt8]], as pager: Pager) throws -> Pager {
        try StoredParts.pager(parts: parts, position: StoredRecord.position(of: pager), version: pager.version)
    }

    @Test("every field round-trips through the parts")
    func roundTrip() throws {
        let pager = try StoredRecordTests.richPager()
        let read = try Self.read(Self.laying([], on: pager), as: pager)
        #expect(read == pager)
        #expect(read.storedBytes == pager.storedBytes && read.tabs == pager.tabs && read.catalog == pager.catalog)
    }

    @Test(
        "a command writes only the parts it changed (+ written, - removed)",
        arguments: [
            ("a title", PagerCommand.update(pageID: "b", PageUpdate(title: "Bee")), ["+m/b"]),
            ("a content", .update(pageID: "c", PageUpdate(content: ["k": "w"])), ["+c/c"]),
            (
                "a title and a content", .update(pageID: "c", PageUpdate(title: "See", content: ["k": 2])),
                ["+m/c", "+c/c"]
            ),
            ("a move of a page", .update(pageID: "c", PageUpdate(moveTo: 0)), ["+h"]),
            ("an insert", .insert(Page(id: "z", title: "Zed", content: ["z": 1]), at: 0), ["+h", "+m/z", "+c/z"]),
            ("an insert from the catalog", .insertFromCatalog(id: "extra", at: nil), ["+h", "+m/extra", "+c/extra"]),
            ("a removal", .remove(pageID: "b"), ["+h", "-m/b", "-c/b"]),
            ("a push", .push(pageID: "a", Screen(id: "more", content: ["deep": ["x": 1]])), ["+m/a"]),
            ("a pop", .pop(pageID: "a", toRoot: true), ["+m/a"]),
            ("a move of the pager", .next, []),
            (
                "a replacement of the pages, one kept alike",
                .replacePages([Page(id: "b", title: "B"), Page(id: "y", title: "Why")]),
                ["+h", "+m/y", "+c/y", "-m/a", "-c/a", "-m/c", "-c/c"]
            ),
        ])
    func changedParts(name: String, command: PagerCommand, expected: [String]) throws {
        let held = try StoredRecordTests.richPager()
        let pager = try held.applying(command).pager
        let writes = StoredParts.changes(from: held, to: pager)
        #expect(writes.map { ($0.body == nil ? "-" : "+") + $0.key }.sorted() == expected.sorted(), "\(name)")
        #expect(try Self.read(Self.laying(writes, on: held), as: pager) == pager, "\(name)")
    }

    @Test("a settings change writes the head alone")
    func settingsOnly() throws {
        let held = try StoredRecordTests.richPager()
        var settings = held.settings
        settings.viewportWidth = 500
        let pager = try held.applying(.updateSettings(settings)).pager
        let writes = StoredParts.changes(from: held, to: pager)
        #expect(writes.map(\.key) == ["h"])
        #expect(try Self.read(Self.laying(writes, on: held), as: pager) == pager)
    }

    @Test("pages read back from disk (sharing no storage with the new state) are compared by value")
    func comparedByValue() throws {
        let original = try StoredRecordTests.richPager()
        let held = try Self.read(Self.laying([], on: original), as: original)
        let pager = try held.applying(.update(pageID: "a", PageUpdate(title: "A"))).pager
        #expect(StoredParts.changes(from: original, to: pager).map(\.key) == ["m/a"])
        #expect(StoredParts.changes(from: original, to: original).isEmpty)
    }

    @Test("a missing or mismatched part is refused with a reason, never served")
    func damaged() throws {
        let pager = try StoredRecordTests.richPager()
        var parts = Self.laying([], on: pager)
        parts["c/b"] = nil
        #expect(throws: RecordError.self) { try Self.read(parts, as: pager) }
        parts = Self.laying([], on: pager)
        parts["m/b"] = parts["m/c"]
        #expect(throws: RecordError.self) { try Self.read(parts, as: pager) }
        parts = Self.laying([], on: pager)
        parts["c/b"] = Array("[1]".utf8)
        #expect(throws: RecordError.self) { try Self.read(parts, as: pager) }
    }
}
