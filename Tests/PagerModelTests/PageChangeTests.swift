import JSON
import PagerModel
import Testing

@Suite("Page changes, stacks, settings and validation (docs/api.md, «Changing pages», «Navigation stacks»)")
struct PageChangeTests {
    @Test("insert at or before the current page keeps it current; into an empty pager makes index 0")
    func insertKeepsCurrent() throws {
        let pager = try makePager(3, initial: 1)
        let before = try pager.after(.insert(Page(id: "new", title: "New"), at: 1))
        #expect(before.index == 2 && before.currentPage?.id == "p1" && before.version == 2)
        let after = try pager.after(.insert(Page(id: "new", title: "New"), at: nil))
        #expect(after.index == 1 && after.pages.last?.id == "new")
        let empty = try makePager(0).after(.insert(Page(id: "first", title: "First"), at: nil))
        #expect(empty.index == 0 && !empty.isEmpty)
    }

    @Test("insert refuses duplicates, bad positions, bad pages and a full pager")
    func insertRefusals() throws {
        let pager = try makePager(3)
        let cases: [(PagerCommand, PagerError.Kind, String?)] = [
            (.insert(Page(id: "p1", title: "Dup"), at: nil), .duplicatePageId, "page.id"),
            (.insert(Page(id: "x", title: "X"), at: 4), .indexOutOfRange, "at"),
            (.insert(Page(id: "x", title: "X"), at: -1), .indexOutOfRange, "at"),
            (.insert(Page(id: "bad id", title: "X"), at: nil), .invalid, "page.id"),
            (.insert(Page(id: String(repeating: "a", count: 65), title: "X"), at: nil), .invalid, "page.id"),
            (.insert(Page(id: "x", title: String(repeating: "t", count: 201)), at: nil), .invalid, "page.title"),
            (.insert(Page(id: "x", title: "X", tabWidth: 0), at: nil), .invalid, "page.tabWidth"),
            (.insert(Page(id: "x", title: "X", tabWidth: .infinity), at: nil), .invalid, "page.tabWidth"),
        ]
        for (command, kind, field) in cases {
            do {
                _ = try pager.applying(command)
                Issue.record("expected \(kind) for \(command)")
            } catch {
                #expect(error.kind == kind)
                #expect(error.field == field)
            }
        }
        let small = PagerLimits(maxPages: 3)
        do {
            _ = try pager.applying(.insert(Page(id: "x", title: "X"), at: nil), limits: small)
            Issue.record("expected limit_exceeded")
        } catch { #expect(error.kind == .limitExceeded) }
        let big = JSONObject(dictionaryLiteral: ("blob", .string(String(repeating: "x", count: 100))))
        do {
            _ = try pager.applying(
                .insert(Page(id: "x", title: "X", content: big), at: nil), limits: PagerLimits(maxContentBytes: 50))
            Issue.record("expected limit_exceeded")
        } catch { #expect(error.kind == .limitExceeded && error.field == "page.content") }
    }

    @Test("remove before, at and after the current page; the last page leaves it empty")
    func remove() throws {
        let pager = try makePager(4, initial: 2)
        #expect(try pager.after(.remove(pageID: "p0")).index == 1)
        let current = try pager.after(.remove(pageID: "p2"))
        #expect(current.index == 2 && current.currentPage?.id == "p3")
        let last = try makePager(3, initial: 2).after(.remove(pageID: "p2"))
        #expect(last.index == 1 && last.currentPage?.id == "p1")
        #expect(try pager.after(.remove(pageID: "p3")).index == 2)
        let alone = try makePager(1).after(.remove(pageID: "p0"))
        #expect(alone.index == nil && alone.isEmpty && alone.indicator == nil)
        #expect(throws: PagerError.self) { try pager.applying(.remove(pageID: "zz")) }
    }

    @Test("move and update keep the current page current; a no-op update keeps the version")
    func moveAndUpdate() throws {
        let pager = try makePager(4, initial: 1)
        let moved = try pager.after(.update(pageID: "p1", PageUpdate(moveTo: 3)))
        #expect(moved.pages.map(\.id) == ["p0", "p2", "p3", "p1"] && moved.index == 3)
        let other = try pager.after(.update(pageID: "p3", PageUpdate(moveTo: 0)))
        #expect(other.pages.map(\.id) == ["p3", "p0", "p1", "p2"] && other.currentPage?.id == "p1")
        let titled = try pager.after(.update(pageID: "p0", PageUpdate(title: "Zero", tabWidth: .set(50))))
        #expect(titled.pages[0].title == "Zero" && titled.pages[0].tabWidth == 50 && titled.version == 2)
        let cleared = try titled.after(.update(pageID: "p0", PageUpdate(tabWidth: .clear)))
        #expect(cleared.pages[0].tabWidth == nil)
        let noop = try pager.applying(.update(pageID: "p0", PageUpdate(title: "Page 0")))
        #expect(!noop.changed && noop.pager.version == 1)
        do {
            _ = try pager.applying(.update(pageID: "p0", PageUpdate(moveTo: 4)))
            Issue.record("expected a refusal")
        } catch { #expect(error.kind == .indexOutOfRange && error.field == "moveTo") }
    }

    @Test("replace keeps the current page when its id survives, else clamps the index")
    func replace() throws {
        let pager = try makePager(4, initial: 2)
        let kept = try pager.after(.replacePages([Page(id: "p2", title: "Two"), Page(id: "z", title: "Z")]))
        #expect(kept.index == 0 && kept.currentPage?.title == "Two")
        let clamped = try pager.after(.replacePages([Page(id: "a", title: "A"), Page(id: "b", title: "B")]))
        #expect(clamped.index == 1)
        let emptied = try pager.after(.replacePages([]))
        #expect(emptied.index == nil)
        do {
            _ = try pager.applying(.replacePages([Page(id: "a", title: "A"), Page(id: "a", title: "B")]))
            Issue.record("expected a refusal")
        } catch { #expect(error.kind == .duplicatePageId && error.field == "pages[1].id") }
    }

    @Test("a page change and a settings change cancel a transition in flight")
    func changesCancelTransition() throws {
        let swiping = try makePager(3).after(.scroll(.progress(0.5)))
        #expect(try swiping.after(.insert(Page(id: "x", title: "X"), at: nil)).transition == nil)
        var settings = swiping.settings
        settings.viewportWidth = 400
        let resized = try swiping.after(.updateSettings(settings))
        #expect(resized.transition == nil && resized.version == 3)
        expectClose(resized.tabs.last?.frame.x, 800.0 / 3)
        let same = try swiping.applying(.updateSettings(swiping.settings))
        #expect(!same.changed && same.pager.transition != nil)
    }

    @Test("stacks: push, pop, pop at root, pop to root, depth limit; pages keep their stacks")
    func stacks() throws {
        let pager = try makePager(2)
        let pushed = try pager.after(.push(pageID: "p0", Screen(id: "detail", title: "Detail")))
            .after(.push(pageID: "p0", Screen(id: "more")))
        #expect(pushed.pages[0].stack.map(\.id) == ["detail", "more"] && pushed.version == 3)
        let moved = try pushed.after(.next).after(.previous)
        #expect(moved.pages[0].stack.count == 2)
        #expect(try pushed.after(.pop(pageID: "p0", toRoot: false)).pages[0].stack.map(\.id) == ["detail"])
        #expect(try pushed.after(.pop(pageID: "p0", toRoot: true)).pages[0].stack.isEmpty)
        let rootNoop = try pager.applying(.pop(pageID: "p0", toRoot: true))
        #expect(!rootNoop.changed)
        do {
            _ = try pager.applying(.pop(pageID: "p0", toRoot: false))
            Issue.record("expected stack_root")
        } catch { #expect(error.kind == .stackRoot) }
        let limits = PagerLimits(maxStackDepth: 2)
        do {
            _ = try pushed.applying(.push(pageID: "p0", Screen(id: "third")), limits: limits)
            Issue.record("expected limit_exceeded")
        } catch { #expect(error.kind == .limitExceeded) }
    }

    @Test("settings are validated with the field named")
    func settingsValidation() {
        let cases: [(WritableKeyPath<PagerSettings, Double>, Double, String)] = [
            (\.viewportWidth, 0, "viewport.width"),
            (\.viewportWidth, .nan, "viewport.width"),
            (\.tabBar.spacing, -1, "tabBar.spacing"),
            (\.tabBar.inset, .infinity, "tabBar.inset"),
            (\.tabBar.minTabWidth, 0, "tabBar.minTabWidth"),
            (\.tabBar.charWidth, -2, "tabBar.charWidth"),
            (\.tabBar.tabPadding, -0.5, "tabBar.tabPadding"),
            (\.tabBar.indicatorHeight, 0, "tabBar.indicator.height"),
        ]
        for (path, value, field) in cases {
            var settings = PagerSettings()
            settings[keyPath: path] = value
            do {
                _ = try Pager(pages: makePages(2), settings: settings)
                Issue.record("expected \(field) to be refused")
            } catch { #expect(error.field == field) }
        }
        var settings = PagerSettings()
        settings.preload = -1
        #expect(throws: PagerError.self) { try Pager(pages: [], settings: settings) }
    }
}
