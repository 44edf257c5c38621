import Foundation
import JSON
import PagerModel
import PagerSessions
import TestSupport
import Testing

@testable import PagerAPI

/// Settings added after these digests were recorded must leave every existing answer as it was
/// while they are at their defaults. The digests in `Tests/Fixtures/default-state-digests.txt` were
/// written by the code before the layout settings (tab alignment, scroll position, indicator inset,
/// bounded and selected tab widths, several pages per view) existed: each line is the digest of
/// every state document, tab forms path included, that a seeded random walk produced then. They
/// were written again when the state gained `settingsVersion` (the settings' version, after
/// `version`), the one change to those documents; release by velocity and the drag timeout left
/// them as they were. Walk 94's changed once more when segment pieces no wider than 1e-9 (rounding
/// slivers) were left out of the indicator: its walk had one.
///
/// When an answer changes on purpose, rewrite the file with `PAGERD_WRITE_DIGESTS=1 swift test
/// --filter DefaultBytesTests` and say in the commit which answers changed and why.
@Suite("Default settings keep every answer byte for byte")
struct DefaultBytesTests {
    /// How many seeded walks there are.
    static let walks = 400
    /// Commands per walk.
    static let steps = 30

    static var fixture: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/default-state-digests.txt")
    }

    @Test("random pagers over the settings that came before the layout ones answer the recorded bytes")
    func recordedBytes() async throws {
        // Seconds of work: it gives its thread back between walks, so that the tests run beside
        // it, whose servers answer on the same two task threads, keep going.
        var digests: [UInt64] = []
        for seed in 0..<Self.walks {
            digests.append(try Self.walk(seed: UInt64(seed)))
            await Task.yield()
        }
        if ProcessInfo.processInfo.environment["PAGERD_WRITE_DIGESTS"] != nil {
            let text = digests.enumerated().map { "\($0.offset) \(String($0.element, radix: 16))" }
            try (text.joined(separator: "\n") + "\n").write(to: Self.fixture, atomically: true, encoding: .utf8)
        }
        let recorded = try String(contentsOf: Self.fixture, encoding: .utf8).split(separator: "\n").map {
            UInt64($0.split(separator: " ")[1], radix: 16)
        }
        #expect(recorded.count == Self.walks)
        for (seed, digest) in digests.enumerated() where seed < recorded.count {
            #expect(recorded[seed] == digest, "walk \(seed)")
        }
    }

    /// The digest of every document one walk writes: its pager's state after creation and after
    /// each command (with what the command reported), written once plainly and once through tab
    /// forms as a session keeps them (the two must agree).
    static func walk(seed: UInt64) throws -> UInt64 {
        var random = SplitMix(seed: seed)
        var pager = try makePager(&random)
        var digest = FNV()
        var forms: TabForms?
        func write(_ outcome: PagerOutcome?) {
            let snapshot = SessionSnapshot(id: "AAAAAAAAAAAAAAAAAAAAAA", pager: pager)
            let plain = StateDocument.encode(snapshot, outcome: outcome)
            let (kept, made) = StateDocument.encode(snapshot, outcome: outcome, tabForms: forms)
            if let made { forms = made }
            #expect(kept == plain, "seed \(seed)")
            digest.add(plain)
        }
        write(nil)
        for _ in 0..<steps {
            guard let outcome = try? pager.applying(command(&random, pager)) else {
                digest.add([0])
                continue
            }
            pager = outcome.pager
            write(outcome)
        }
        return digest.value
    }

    /// A pager of 0–7 pages with every earlier setting drawn at random (the layout settings stay
    /// at their defaults).
    static func makePager(_ random: inout SplitMix) throws -> Pager {
        var settings = PagerSettings()
        settings.mode = random.pick([.bounded, .loop])
        settings.viewportWidth = random.pick([390, 320, 200, 1000])
        settings.viewportHeight = random.pick([844, 600])
        settings.layoutDirection = random.pick([.ltr, .ltr, .rtl])
        settings.orientation = random.pick([.horizontal, .horizontal, .vertical])
        settings.swipe = random.pick([.both, .both, .both, .forward, .reverse, .none])
        settings.rubberBand.style = random.pick([.none, .linear, .resistance])
        settings.rubberBand.ratio = random.pick([0.85, 0.5, 1])
        settings.preload = random.pick([0, 1, 1, 2, 3])
        settings.tabBar.layout = random.pick([.fixed, .scrollable, .scrollable, .none])
        settings.tabBar.spacing = random.pick([0, 0, 4])
        settings.tabBar.inset = random.pick([0, 0, 12])
        settings.tabBar.minTabWidth = random.pick([48, 80])
        settings.tabBar.indicatorStyle = random.pick([.linear, .elastic, .fade])
        settings.tabBar.indicatorOverscroll = random.pick([.none, .bounce, .compress])
        settings.tabBar.indicatorTracking = random.pick([.continuous, .continuous, .halfway, .settled])
        settings.tabBar.indicatorProgressive = settings.mode == .bounded && random.next() % 4 == 0
        if random.next() % 3 == 0 {
            var title = TitleStyle()
            title.scale = random.pick([1, 0.8])
            settings.tabBar.title = title
        }
        if random.next() % 4 == 0 { settings.trailingAction = PagerAction(id: "add", title: "Add") }
        if random.next() % 4 == 0 { settings.emptyState = EmptyState(title: "Nothing", action: nil) }
        let count = Int(random.next() % 8)
        let titles = ["Chat", "상품", "최근 본 상품", "", "A \"quoted\" tab", "Discover", "찜", "Photos"]
        let pages = (0..<count).map { i in
            Page(
                id: "p\(i)", title: titles[(i + Int(random.next() % 3)) % titles.count],
                tabWidth: random.next() % 5 == 0 ? random.pick([60, 100, 150.5]) : nil,
                content: i % 2 == 0 ? ["n": .number(Double(i))] : [:],
                tab: i % 3 == 0 ? TabDecoration(icon: "icon\(i)", badge: .count(i)) : nil)
        }
        return try Pager(
            pages: pages, initialPage: count > 0 ? .index(Int(random.next() % UInt64(count))) : nil,
            settings: settings)
    }

    /// One command drawn at random; some are refused, which the walk records.
    static func command(_ random: inout SplitMix, _ pager: Pager) -> PagerCommand {
        let count = max(pager.count, 1)
        let target = Int(random.next() % UInt64(count))
        let progress = Double(Int(random.next() % 41) - 20) / 20
        switch random.next() % 16 {
        case 0, 1: return .next
        case 2: return .previous
        case 3:
            return .select(
                .index(target), path: random.pick([.direct, .shortest]),
                animation: random.pick([.stepped, .direct, .capped]))
        case 4, 5, 6: return .scroll(.progress(progress))
        case 7: return .scroll(.offset(Double(random.next() % 2000) - 300))
        case 8: return .scroll(.windowOffset(Double(random.next() % 900)))
        case 9: return .beginTransition(to: target)
        case 10: return .endTransition(completed: random.next() % 2 == 0)
        case 11: return .insert(Page(id: "n\(random.next() % 1000)", title: "New"), at: nil)
        case 12: return .remove(pageID: "p\(target)")
        case 13: return .update(pageID: "p\(target)", PageUpdate(title: "Renamed", moveTo: target == 0 ? 1 : 0))
        case 14:
            var settings = pager.settings
            settings.layoutDirection = random.pick([.ltr, .rtl])
            settings.viewportWidth = random.pick([390, 414, 250])
            return .updateSettings(settings)
        default: return .push(pageID: "p\(target)", Screen(id: "s\(random.next() % 100)"))
        }
    }
}

extension SplitMix {
    /// One of `choices`, drawn from the next number.
    mutating func pick<T>(_ choices: [T]) -> T { choices[Int(next() % UInt64(choices.count))] }
}

/// FNV-1a, 64 bits, over every byte added.
struct FNV {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ bytes: [UInt8]) {
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x100_0000_01b3
        }
    }
}
