import Foundation
import JSON
import PagerModel
import PagerSessions
import TestSupport
import Testing

@testable import PagerAPI

@Suite("Tab forms: the tabs at rest are copied, and the document is the same byte for byte")
struct TabFormsTests {
    static func pager(count: Int, rtl: Bool = false) throws -> Pager {
        var settings = PagerSettings()
        settings.mode = .loop
        settings.tabBar.layout = .scrollable
        settings.tabBar.title = TitleStyle()
        settings.layoutDirection = rtl ? .rtl : .ltr
        let pages = (0..<count).map { i in
            Page(
                id: "p\(i)", title: i % 2 == 0 ? "Tab \(i)" : "탭 \"\(i)\"",
                tab: i % 3 == 0 ? TabDecoration(icon: "i\(i)", badge: .count(i)) : nil,
                accessibilityHint: i == 1 ? "Hint" : nil)
        }
        return try Pager(pages: pages, settings: settings)
    }

    /// Commands that move, swipe, and now and then change the pages or the settings.
    static func command(_ step: Int, _ pager: Pager) -> PagerCommand {
        switch step % 9 {
        case 0, 1: return .next
        case 2: return .previous
        case 3: return .scroll(.progress(0.35))
        case 4: return .scroll(.progress(-0.6))
        case 5: return .endTransition(completed: step % 2 == 0)
        case 6: return .select(.index(step % pager.count), path: .direct)
        case 7 where step % 4 == 3: return .update(pageID: "p1", PageUpdate(title: "Renamed \(step)"))
        default:
            var settings = pager.settings
            settings.viewportWidth = step % 18 < 9 ? 390 : 414
            return step % 5 == 0 ? .updateSettings(settings) : .next
        }
    }

    @Test("documents written with the forms a session keeps equal documents written without, state after state")
    func sameBytes() throws {
        for rtl in [false, true] {
            var pager = try Self.pager(count: 7, rtl: rtl)
            var kept: TabForms?
            var copied = 0, rebuilt = 0
            for step in 0..<120 {
                let outcome = try pager.applying(Self.command(step, pager))
                pager = outcome.pager
                let snapshot = SessionSnapshot(id: "s", pager: pager)
                if kept?.isWritten == true, kept?.key == pager.tabLayoutKey { copied += 1 }
                let (bytes, made) = StateDocument.encode(snapshot, outcome: outcome, tabForms: kept)
                #expect(bytes == StateDocument.encode(snapshot, outcome: outcome), "step \(step)")
                #expect(try JSONParser.parse(bytes)["tabs"]?.arrayValue?.count == 7)
                if let made {
                    if made.isWritten { rebuilt += 1 }
                    kept = made
                }
            }
            // Most documents copied their tabs at rest; the forms were written again after changes.
            #expect(copied > 60 && rebuilt > 3, "copied \(copied), rebuilt \(rebuilt)")
        }
    }

    @Test("the first document from new pages or settings only marks them; the second writes the forms")
    func markThenForms() throws {
        let pager = try Self.pager(count: 4)
        let snapshot = SessionSnapshot(id: "s", pager: pager)
        let (_, mark) = StateDocument.encode(snapshot, tabForms: nil)
        let marked = try #require(mark)
        #expect(!marked.isWritten && marked.key == pager.tabLayoutKey)
        let (_, forms) = StateDocument.encode(snapshot, tabForms: marked)
        let written = try #require(forms)
        #expect(written.isWritten && written.ends.count == 4)
        let (_, nothing) = StateDocument.encode(snapshot, tabForms: written)
        #expect(nothing == nil)
        // Each form is one tab object at rest.
        let tab2 = try JSONParser.parse(Array(written.bytes[written.form(at: 2)]))
        #expect(tab2["index"] == .number(2) && tab2["selected"] == .bool(false) && tab2["selection"] == .number(0))
        // One page: no tab is ever at rest, so nothing is kept.
        let single = SessionSnapshot(id: "s", pager: try Self.pager(count: 1))
        #expect(StateDocument.encode(single, tabForms: nil).made == nil)
    }

    @Test(
        "the engine keeps forms for the durable pages and settings, hands them to commands, and drops them when those change"
    )
    func engineKeepsForms() async throws {
        let engine = PagerEngine()
        let definition = PagerDefinition(
            pages: try Self.pager(count: 4).pages, initialPage: nil, settings: try Self.pager(count: 4).settings,
            catalog: [])
        let id = try await engine.create(definition).id
        let first = try await engine.apply(.next, to: id)
        #expect(first.tabForms == nil)
        let forms = StateDocument.tabForms(of: first.snapshot.pager, key: first.snapshot.pager.tabLayoutKey)
        await engine.keep(forms, for: id)
        #expect(engine.accounts.readCacheByteCount >= forms.bytes.count)
        let moved = try await engine.apply(.next, to: id)
        #expect(moved.tabForms === forms)
        // A mark of the same pages and settings, from a reader that began before, replaces nothing.
        await engine.keep(TabForms(key: moved.snapshot.pager.tabLayoutKey), for: id)
        #expect(try await engine.apply(.next, to: id).tabForms === forms)
        // Forms for other pages are not kept.
        let other = try Self.pager(count: 4)
        await engine.keep(StateDocument.tabForms(of: other, key: other.tabLayoutKey), for: id)
        #expect(try await engine.apply(.previous, to: id).tabForms === forms)
        // A change of the pages drops them, and their bytes go back to the read cache.
        let renamed = try await engine.apply(.update(pageID: "p2", PageUpdate(title: "Two")), to: id)
        #expect(renamed.tabForms == nil && engine.accounts.readCacheByteCount == 0)
        let again = StateDocument.tabForms(of: renamed.snapshot.pager, key: renamed.snapshot.pager.tabLayoutKey)
        await engine.keep(again, for: id)
        #expect(engine.accounts.readCacheByteCount > 0)
        _ = try await engine.delete(id)
        #expect(engine.accounts.readCacheByteCount == 0)
    }

    @Test("forms that do not fit in the read cache leave the kept ones in place")
    func formsOverBudget() async throws {
        let four = try Self.pager(count: 4)
        let small = StateDocument.tabForms(of: four, key: four.tabLayoutKey)
        // Room for the small forms (and a little more), not for the forms of forty pages.
        let engine = PagerEngine(limits: EngineLimits(memoryBudgetBytes: (small.bytes.capacity + 512) * 8))
        let definition = PagerDefinition(pages: four.pages, initialPage: nil, settings: four.settings, catalog: [])
        let id = try await engine.create(definition).id
        let held = try await engine.snapshot(of: id).pager
        let kept = StateDocument.tabForms(of: held, key: held.tabLayoutKey)
        await engine.keep(kept, for: id)
        #expect(try await engine.apply(.next, to: id).tabForms === kept)
        let large = TabForms(
            key: held.tabLayoutKey, bytes: Array(repeating: 0x20, count: 64 * 1024), ends: [1, 2, 3, 64 * 1024])
        await engine.keep(large, for: id)
        #expect(try await engine.apply(.next, to: id).tabForms === kept)
        #expect(engine.accounts.readCacheByteCount == kept.bytes.capacity + kept.ends.capacity * 8)
    }

    @Test("over the API, every answer and every read equals a fresh write of its state")
    func overTheAPI() async throws {
        let api = try APITester()
        let id = try await api.create(
            #"{"pages":[{"id":"a","title":"A"},{"id":"b","title":"B"},{"id":"c","title":"C"},{"id":"d","title":"D"}],"#
                + #""mode":"loop","tabBar":{"layout":"scrollable"}}"#)
        let shard = api.engine.shard(for: SessionID(id))
        for step in 0..<12 {
            let path = step % 4 == 3 ? "/v1/sessions/\(id)/previous" : "/v1/sessions/\(id)/next"
            let answer = await api.send("POST", path)
            #expect(answer.status == 200)
            let snapshot = try shard.withLock { try $0.snapshot(of: SessionID(id)) }
            var fresh = try #require(JSONParser.parse(StateDocument.encode(snapshot)).objectValue)
            var answered = try #require(answer.json.objectValue)
            // The answer adds what the command reported.
            for member in ["moved", "announcement", "edge", "direction"] {
                answered[member] = nil
                fresh[member] = nil
            }
            #expect(answered == fresh, "step \(step)")
            let read = await api.send("GET", "/v1/sessions/\(id)")
            #expect(read.body == StateDocument.encode(snapshot), "step \(step)")
        }
        #expect(api.engine.readCacheBytes > 0)
    }
}
