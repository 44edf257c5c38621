import JSON
import PagerModel
import Testing

/// Commands decide whether they changed anything from what they did, not by comparing whole
/// states, and keep the stored-bytes count without walking content.
@Suite("Change detection and stored bytes")
struct ChangeCostTests {
    /// Content with `members` members, about 7 bytes of JSON each.
    static func wideContent(_ members: Int, seed: Int = 0) -> JSONObject {
        var content = JSONObject()
        for i in 0..<members { content["a\(i)"] = .number(Double(seed)) }
        return content
    }

    static let roomy = PagerLimits(maxContentBytes: 1 << 20, sessionBudgetBytes: .max)

    @Test("a push onto one of 200 pages with 2,200-member contents does not compare the pages")
    func pushDoesNotCompareStates() throws {
        let content = Self.wideContent(2200)
        let pages = (0..<200).map { Page(id: "p\($0)", title: "P\($0)", content: content) }
        let pager = try Pager(pages: pages, limits: Self.roomy)
        let screen = Screen(id: "s", content: Self.wideContent(2200, seed: 1))
        let started = ContinuousClock.now
        let outcome = try pager.applying(.push(pageID: "p199", screen), limits: Self.roomy)
        let elapsed = ContinuousClock.now - started
        #expect(outcome.changed && outcome.pager.version == 2)
        // Comparing the states took seconds here (quadratic object equality over 200 pages); a
        // push costs microseconds. The bound is far above either machine noise or a debug build.
        #expect(elapsed < .milliseconds(500), "push took \(elapsed)")
    }

    @Test("changes are reported exactly: no-ops keep the version, changes bump it once")
    func exactChanges() throws {
        var pager = try makePager(3, initial: 1)
        let cases: [(PagerCommand, Bool)] = [
            (.scroll(.progress(0)), false),
            (.scroll(.progress(0.4)), true),
            (.scroll(.progress(0.4)), false),
            (.scroll(.progress(0)), true),
            (.scroll(.progress(0)), false),
            (.beginTransition(to: 2), false),  // already in flight toward 2, at progress 0
            (.beginTransition(to: 0), true),
            (.beginTransition(to: 0), false),
            (.endTransition(completed: false), true),
            (.endTransition(completed: false), false),
            (.select(.index(1), path: .direct), false),
            (.update(pageID: "p0", PageUpdate(title: "Page 0")), false),
            (.update(pageID: "p0", PageUpdate(content: ["k": 1])), true),
            (.update(pageID: "p0", PageUpdate(content: ["k": 1])), false),
            (.update(pageID: "p0", PageUpdate(moveTo: 0)), false),
            (.pop(pageID: "p0", toRoot: true), false),
            (
                .replacePages(
                    pager.pages.map { $0.id == "p0" ? Page(id: "p0", title: "Page 0", content: ["k": 1]) : $0 }), false
            ),
            (.replacePages(makePages(3)), true),
            (.next, true),
            (.next, false),
        ]
        for (command, changes) in cases {
            let outcome = try pager.applying(command)
            #expect(outcome.changed == changes, "\(command)")
            #expect(outcome.pager.version == pager.version + (changes ? 1 : 0), "\(command)")
            pager = outcome.pager
        }
    }

    @Test("content whose members are reordered is a change: it is written differently")
    func reorderedContentIsAChange() throws {
        let pager = try Pager(pages: [Page(id: "a", title: "A", content: ["x": 1, "y": 2])])
        let outcome = try pager.applying(.update(pageID: "a", PageUpdate(content: ["y": 2, "x": 1])))
        #expect(outcome.changed && outcome.pager.pages[0].content.keys == ["y", "x"])
    }

    @Test("stored bytes follow every command and always equal a fresh count")
    func storedBytesStayExact() throws {
        var pager = try makePager(2)
        let blob: JSONObject = ["text": .string(String(repeating: "b", count: 500))]
        let commands: [PagerCommand] = [
            .insert(Page(id: "c", title: "Title C", content: blob), at: 0),
            .push(pageID: "c", Screen(id: "s1", title: "S", content: blob)),
            .push(pageID: "c", Screen(id: "s2")),
            .update(pageID: "p0", PageUpdate(title: "A longer title", content: blob)),
            .pop(pageID: "c", toRoot: false),
            .remove(pageID: "p1"),
            .push(pageID: "p0", Screen(id: "s3", content: blob)),
            .pop(pageID: "p0", toRoot: true),
            .replacePages([Page(id: "z", title: "Z", content: blob)]),
            .insertFromCatalog(id: "nothing", at: nil),
        ]
        for command in commands {
            guard let next = try? pager.applying(command).pager else { continue }
            pager = next
            let fresh = pager.pages.reduce(Pager.sessionOverheadBytes) { $0 + $1.storedBytes }
            #expect(pager.storedBytes == fresh, "\(command)")
        }
        #expect(pager.storedBytes == Pager.sessionOverheadBytes + Page(id: "z", title: "Z", content: blob).storedBytes)
    }

    @Test("over the session budget a command is refused with nothing changed; shrinking is always allowed")
    func sessionBudget() throws {
        let blob: JSONObject = ["text": .string(String(repeating: "b", count: 4000))]
        let limits = PagerLimits(sessionBudgetBytes: 12_000)
        var pager = try Pager(pages: [Page(id: "a", title: "A")], limits: limits)
        var refused: PagerError?
        for i in 0..<10 {
            do {
                pager = try pager.applying(.push(pageID: "a", Screen(id: "s\(i)", content: blob)), limits: limits).pager
            } catch {
                refused = error
                break
            }
        }
        #expect(refused?.kind == .budgetExceeded)
        #expect(pager.pages[0].stack.count == 2 && pager.version == 3 && pager.storedBytes <= 12_000)
        let tighter = PagerLimits(sessionBudgetBytes: 2_000)
        let popped = try pager.applying(.pop(pageID: "a", toRoot: false), limits: tighter)
        #expect(popped.changed && popped.pager.storedBytes < pager.storedBytes)
        #expect(throws: PagerError.self) {
            try Pager(pages: [Page(id: "a", title: "A", content: blob)], limits: PagerLimits(sessionBudgetBytes: 3_000))
        }
    }
}
