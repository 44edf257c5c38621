import JSON
import PagerModel
import Testing

@testable import PagerStorage

@Suite("StoredParts: a change writes the parts it changed, and the parts read back as the pager")
struct StoredPartsTests {
    /// The parts of `held` (in parts below `wholeLimit`) with `writes` laid over them.
    static func laying(_ writes: [StoredParts.Write], on held: Pager, wholeLimit: Int = 0) -> [String: [UInt8]] {
        var parts: [String: [UInt8]] = [:]
        for write in StoredParts.all(of: held, wholeLimit: wholeLimit) { parts[write.key] = write.body }
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
        let writes = StoredParts.changes(from: held, to: pager, wholeLimit: 0)
        #expect(writes.map { ($0.body == nil ? "-" : "+") + $0.key }.sorted() == expected.sorted(), "\(name)")
        #expect(try Self.read(Self.laying(writes, on: held), as: pager) == pager, "\(name)")
    }

    @Test("a settings change writes the head alone")
    func settingsOnly() throws {
        let held = try StoredRecordTests.richPager()
        var settings = held.settings
        settings.viewportWidth = 500
        let pager = try held.applying(.updateSettings(settings)).pager
        let writes = StoredParts.changes(from: held, to: pager, wholeLimit: 0)
        #expect(writes.map(\.key) == ["h"])
        #expect(try Self.read(Self.laying(writes, on: held), as: pager) == pager)
    }

    @Test("pages read back from disk (sharing no storage with the new state) are compared by value")
    func comparedByValue() throws {
        let original = try StoredRecordTests.richPager()
        let held = try Self.read(Self.laying([], on: original), as: original)
        let pager = try held.applying(.update(pageID: "a", PageUpdate(title: "A"))).pager
        #expect(StoredParts.changes(from: original, to: pager, wholeLimit: 0).map(\.key) == ["m/a"])
        #expect(StoredParts.changes(from: original, to: original, wholeLimit: 0).isEmpty)
    }

    @Test(
        "a small session is kept whole, in one part; crossing the limit either way changes the form, removing the other"
    )
    func wholeOrParts() throws {
        let small = try StoredRecordTests.richPager()
        #expect(small.storedBytes <= StoredParts.wholeLimit)
        #expect(StoredParts.all(of: small).map(\.key) == ["d"])
        #expect(StoredParts.all(of: small).first?.body == StoredRecord.document(of: small))
        let titled = try small.applying(.update(pageID: "b", PageUpdate(title: "Bee"))).pager
        #expect(StoredParts.changes(from: small, to: titled).map(\.key) == ["d"])
        var large = titled
        for n in 0..<3 {
            let content: JSONObject = ["blob": .string(String(repeating: "x", count: 15_000))]
            large = try large.applying(.insert(Page(id: "big\(n)", title: "Big", content: content), at: 0)).pager
        }
        #expect(large.storedBytes > StoredParts.wholeLimit)
        let growing = StoredParts.changes(from: titled, to: large)
        #expect(growing.map { ($0.body == nil ? "-" : "+") + $0.key }.last == "-d")
        #expect(Set(growing.compactMap { $0.body == nil ? nil : $0.key }) == Set(StoredParts.all(of: large).map(\.key)))
        let parts = Self.laying(growing, on: titled, wholeLimit: StoredParts.wholeLimit)
        #expect(parts["d"] == nil)
        #expect(try Self.read(parts, as: large) == large)
        let shrunk = try large.applying(.remove(pageID: "big0")).pager.applying(.remove(pageID: "big1")).pager
        let shrinking = StoredParts.changes(from: large, to: shrunk)
        #expect(shrinking.first?.key == "d" && shrinking.dropFirst().allSatisfy { $0.body == nil })
        #expect(Set(shrinking.dropFirst().map(\.key)) == Set(StoredParts.all(of: large).map(\.key)))
        #expect(try Self.read(["d": try #require(shrinking.first?.body)], as: shrunk) == shrunk)
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
