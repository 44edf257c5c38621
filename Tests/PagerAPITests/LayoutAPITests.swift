import JSON
import PagerModel
import Testing

@testable import PagerAPI

/// The layout settings through the HTTP face: every worked example over the real responder, the
/// members the state reports only when a setting is not at its default, PATCH merges, the
/// settings document, templates, and every refusal with its field.
@Suite("Layouts over HTTP: alignment, scroll position, inset, bounded and selected widths, pages per view")
struct LayoutAPITests {
    /// One request of an example and what its answer must hold: a JSON path (`tabs.*.x`,
    /// `indicator.segments`, `keyframes.1.pageOffset`) and its value, numbers within 1e-6.
    struct Step: Sendable {
        var method = "POST"
        var path: String
        var body: String?
        var expect: [(String, JSONValue)]
    }

    struct Example: CustomTestStringConvertible, Sendable {
        var name: String
        var create: String
        var expect: [(String, JSONValue)] = []
        var steps: [Step] = []
        var testDescription: String { name }
    }

    static func scroll(_ input: String, _ expect: [(String, JSONValue)]) -> Step {
        Step(path: "scroll", body: "{\(input)}", expect: expect)
    }

    static func select(_ index: Int, _ expect: [(String, JSONValue)]) -> Step {
        Step(path: "select", body: #"{"index": \#(index)}"#, expect: expect)
    }

    static func end(_ expect: [(String, JSONValue)]) -> Step {
        Step(path: "transition", body: #"{"phase": "end", "completed": true}"#, expect: expect)
    }

    /// `count` pages p0… titled "Page i", with a tab width each when `width` is given.
    static func pages(_ count: Int, width: Double? = nil) -> String {
        let items = (0..<count).map { i in
            #"{"id": "p\#(i)", "title": "Page \#(i)"\#(width.map { #", "tabWidth": \#($0)"# } ?? "")}"#
        }
        return "[" + items.joined(separator: ", ") + "]"
    }

    /// Pages titled as given.
    static func titled(_ titles: [String]) -> String {
        "["
            + titles.enumerated().map { #"{"id": "p\#($0.offset)", "title": "\#($0.element)"}"# }.joined(
                separator: ", ")
            + "]"
    }

    static func frames(_ pairs: [(Double, Double)]) -> JSONValue {
        .array(pairs.map { ["x": .number($0.0), "width": .number($0.1)] })
    }

    static func numbers(_ values: [Double]) -> JSONValue { .array(values.map(JSONValue.number)) }

    static let alignmentExamples: [Example] = [
        Example(
            name: "PagingKit leading",
            create:
                #"{"pages": \#(pages(3, width: 50)), "viewport": {"width": 320}, "tabBar": {"layout": "scrollable", "alignment": "leading"}}"#,
            expect: [("tabs.*.x", numbers([0, 50, 100])), ("tabBar.contentWidth", 150)]),
        Example(
            name: "PagingKit center, then half way",
            create:
                #"{"pages": \#(pages(3, width: 50)), "viewport": {"width": 320}, "tabBar": {"layout": "scrollable", "alignment": "center"}}"#,
            expect: [("tabs.*.x", numbers([85, 135, 185])), ("tabBar.contentWidth", 320)],
            steps: [scroll(#""progress": 0.5"#, [("indicator.x", 110)])]),
        Example(
            name: "PagingKit trailing",
            create:
                #"{"pages": \#(pages(3, width: 50)), "viewport": {"width": 320}, "tabBar": {"layout": "scrollable", "alignment": "trailing"}}"#,
            expect: [
                ("tabs.*.x", numbers([170, 220, 270])), ("tabBar.contentWidth", 320), ("indicator.x", 170),
                ("tabBar.offset", 0),
            ]),
        Example(
            name: "center with inset 10",
            create:
                #"{"pages": \#(pages(3, width: 50)), "viewport": {"width": 320}, "tabBar": {"layout": "scrollable", "alignment": "center", "inset": 10}}"#,
            expect: [("tabs.*.x", numbers([85, 135, 185]))]),
        Example(
            name: "twenty tabs of 100 overflow",
            create:
                #"{"pages": \#(pages(20, width: 100)), "viewport": {"width": 320}, "tabBar": {"layout": "scrollable", "alignment": "center"}}"#,
            expect: [("tabs.0.x", 0), ("tabBar.contentWidth", 2000)]),
        Example(
            name: "Parchment cellFramesForHorizontalMenuAlignment",
            create:
                #"{"pages": \#(pages(3, width: 10)), "tabBar": {"layout": "scrollable", "alignment": "center"}}"#,
            expect: [("tabs.0.x", 180)]),
        Example(
            name: "trailing, rtl",
            create:
                #"{"pages": \#(pages(3, width: 50)), "viewport": {"width": 320}, "layoutDirection": "rtl", "tabBar": {"layout": "scrollable", "alignment": "trailing"}}"#,
            expect: [("tabs.*.x", numbers([100, 50, 0])), ("indicator.x", 100)]),
        Example(
            name: "loop, center, index 2 half way across the seam",
            create:
                #"{"pages": \#(pages(3, width: 50)), "mode": "loop", "initialPage": 2, "viewport": {"width": 320}, "tabBar": {"layout": "scrollable", "alignment": "center"}}"#,
            steps: [
                scroll(
                    #""progress": 0.5"#, [("indicator.x", 295), ("indicator.segments", frames([(295, 25), (0, 25)]))])
            ]),
    ]

    static func tenOf100(_ tabBar: String, extra: String = "") -> String {
        #"{"pages": \#(pages(10, width: 100)), "viewport": {"width": 500}\#(extra), "tabBar": {"layout": "scrollable", \#(tabBar)}}"#
    }

    static let scrollPositionExamples: [Example] = [
        Example(
            name: "Parchment distanceLeft…", create: tenOf100(#""selectedScrollPosition": "leading""#),
            expect: [("tabBar.offset", 0)],
            steps: [
                select(1, [("tabBar.offset", 100)]), select(0, [("tabBar.offset", 0)]),
                select(2, [("tabBar.offset", 200)]), select(9, [("tabBar.offset", 500)]),
            ]),
        Example(
            name: "Parchment distanceRight…",
            create: tenOf100(#""selectedScrollPosition": "trailing""#, extra: #", "initialPage": 4"#),
            expect: [("tabBar.offset", 0)],
            steps: [
                scroll(#""progress": 0.5"#, [("tabBar.offset", 50)]), end([("tabBar.offset", 100)]),
                select(6, [("tabBar.offset", 200)]),
            ]),
        Example(
            name: "leading with inset 20",
            create: tenOf100(#""selectedScrollPosition": "leading", "inset": 20"#, extra: #", "initialPage": 3"#),
            expect: [("tabBar.contentWidth", 1040), ("tabs.3.x", 320), ("tabBar.offset", 300)]),
        Example(
            name: "leading, rtl",
            create: tenOf100(
                #""selectedScrollPosition": "leading""#, extra: #", "initialPage": 1, "layoutDirection": "rtl""#),
            expect: [("tabBar.offset", 400), ("tabs.1.x", 800)]),
    ]

    static func threeOf100(_ inset: String, extra: String = "") -> String {
        #"{"pages": \#(pages(3, width: 100))\#(extra), "tabBar": {"layout": "scrollable", "indicator": {"inset": \#(inset)}}}"#
    }

    static func media(_ indicator: String, extra: String = "") -> String {
        #"{"template": "media"\#(extra), "tabBar": {"indicator": \#(indicator)}}"#
    }

    static let insetExamples: [Example] = [
        Example(
            name: "Parchment indicatorFrameWithSpacing", create: threeOf100(#"{"leading": 20, "trailing": 20}"#),
            expect: [("indicator.x", 20), ("indicator.width", 60), ("indicator.segments", frames([(20, 60)]))]),
        Example(
            name: "Parchment indicatorFrameWithInsets",
            create: threeOf100(#"{"firstLeading": 20, "lastTrailing": 20}"#),
            expect: [("indicator.x", 20), ("indicator.width", 80)],
            steps: [
                select(1, [("indicator.x", 100), ("indicator.width", 100)]),
                select(2, [("indicator.x", 200), ("indicator.width", 80)]),
            ]),
        Example(
            name: "Parchment tweening",
            create:
                #"{"pages": [{"id": "a", "title": "A", "tabWidth": 200}, {"id": "b", "title": "B", "tabWidth": 100}], "tabBar": {"layout": "scrollable", "indicator": {"inset": {"firstLeading": 50, "lastTrailing": 50}}}}"#,
            expect: [("indicator.x", 50), ("indicator.width", 150)],
            steps: [
                scroll(#""progress": 0.5"#, [("indicator.x", 125), ("indicator.width", 100)]),
                scroll(#""progress": 1"#, [("indicator.x", 200), ("indicator.width", 50)]),
            ]),
        Example(
            name: "media 16/16", create: media(#"{"inset": {"leading": 16, "trailing": 16}}"#),
            expect: [("indicator.x", 16), ("indicator.width", 98)],
            steps: [scroll(#""progress": 0.5"#, [("indicator.x", 81), ("indicator.width", 98)])]),
        Example(
            name: "media 16/16, elastic",
            create: media(#"{"style": "elastic", "inset": {"leading": 16, "trailing": 16}}"#),
            steps: [
                scroll(#""progress": 0.5"#, [("indicator.x", 54.0761184), ("indicator.width", 151.8477631)])
            ]),
        Example(
            name: "media at 2, bounce past the end",
            create: media(
                #"{"overscroll": "bounce", "inset": {"leading": 16, "trailing": 16}}"#,
                extra: #", "initialPage": 2, "rubberBand": {"style": "linear"}"#),
            steps: [
                scroll(
                    #""windowOffset": 468"#,
                    [("indicator.x", 302), ("indicator.width", 98), ("indicator.segments", frames([(302, 88)]))])
            ]),
        Example(
            name: "media at 2, compress past the end",
            create: media(
                #"{"overscroll": "compress", "inset": {"leading": 16, "trailing": 16}}"#,
                extra: #", "initialPage": 2, "rubberBand": {"style": "linear"}"#),
            steps: [scroll(#""windowOffset": 468"#, [("indicator.x", 302), ("indicator.width", 72)])]),
        Example(
            name: "mall at 2 across the seam",
            create:
                #"{"template": "mall", "initialPage": 2, "tabBar": {"indicator": {"inset": {"leading": 16, "trailing": 16}}}}"#,
            steps: [
                scroll(
                    #""progress": 0.5"#,
                    [
                        ("indicator.x", 341), ("indicator.width", 98),
                        ("indicator.segments", frames([(341, 49), (0, 49)])),
                    ])
            ]),
        Example(
            name: "mall at 2 across the seam, rtl",
            create:
                #"{"template": "mall", "initialPage": 2, "layoutDirection": "rtl", "tabBar": {"indicator": {"inset": {"leading": 16, "trailing": 16}}}}"#,
            steps: [
                scroll(
                    #""progress": 0.5"#, [("indicator.x", -49), ("indicator.segments", frames([(0, 49), (341, 49)]))])
            ]),
        Example(
            name: "four fixed tabs, progressive",
            create:
                #"{"pages": \#(pages(4)), "initialPage": 1, "viewport": {"width": 400}, "tabBar": {"indicator": {"progressive": true, "inset": {"leading": 10, "trailing": 10}}}}"#,
            steps: [
                scroll(
                    #""progress": 0.5"#,
                    [("indicator.x", 0), ("indicator.width", 240), ("indicator.segments", frames([(0, 240)]))])
            ]),
        Example(
            name: "ten tabs, leading position: the offset follows G",
            create: tenOf100(
                #""selectedScrollPosition": "leading", "indicator": {"inset": {"leading": 30, "trailing": 10}}"#,
                extra: #", "initialPage": 2"#),
            expect: [("indicator.x", 230), ("indicator.width", 60), ("tabBar.offset", 200)]),
    ]

    static let widthExamples: [Example] = [
        Example(
            name: "MDC testMaxTabWidth",
            create:
                #"{"pages": \#(titled([String(repeating: "a", count: 41)])), "tabBar": {"layout": "scrollable", "maxTabWidth": 100}}"#,
            expect: [("tabs.*.width", numbers([100]))]),
        Example(
            name: "MDC testMinMaxTabWidth",
            create:
                #"{"pages": \#(titled(["ab", "abcdefgh", "abcdefghijk", "abcdefghijkl", String(repeating: "a", count: 41)])), "tabBar": {"layout": "scrollable", "minTabWidth": 80, "maxTabWidth": 120}}"#,
            expect: [("tabs.*.width", numbers([80, 96, 120, 120, 120]))]),
        Example(
            name: "media, auto", create: #"{"template": "media", "tabBar": {"layout": "auto"}}"#,
            expect: [
                ("tabBar.layout", "auto"), ("tabBar.effectiveLayout", "fixed"), ("tabs.*.x", numbers([0, 130, 260])),
                ("tabBar.contentWidth", 390),
            ]),
        Example(
            name: "media, auto in 200",
            create: #"{"template": "media", "viewport": {"width": 200}, "tabBar": {"layout": "auto"}}"#,
            expect: [
                ("tabBar.effectiveLayout", "scrollable"), ("tabs.*.x", numbers([0, 80, 160])),
                ("tabBar.contentWidth", 232),
            ]),
        Example(
            name: "MDC fixed-width layout",
            create:
                #"{"pages": \#(titled((0..<8).map { "Tab \($0)" })), "viewport": {"width": 160}, "tabBar": {"layout": "auto", "minTabWidth": 72, "tabPadding": 12}}"#,
            expect: [("tabBar.effectiveLayout", "scrollable"), ("tabBar.contentWidth", 576)]),
        Example(
            name: "MDC fixed-width layout, its first two tabs",
            create:
                #"{"pages": \#(titled(["Tab 0", "Tab 1"])), "viewport": {"width": 160}, "tabBar": {"layout": "auto", "minTabWidth": 72, "tabPadding": 12}}"#,
            expect: [("tabBar.effectiveLayout", "fixed"), ("tabs.*.x", numbers([0, 80]))]),
        Example(
            name: "Parchment cellFramesForSizeDelegate",
            create:
                #"{"pages": \#(pages(3)), "tabBar": {"layout": "scrollable", "selectedTabWidth": 100, "minTabWidth": 50, "tabPadding": 0, "charWidth": 1}}"#,
            expect: [
                ("tabs.*.x", numbers([0, 100, 150])), ("tabs.*.width", numbers([100, 50, 50])),
                ("tabs.*.baseWidth", numbers([50, 50, 50])), ("tabBar.contentWidth", 200),
            ],
            steps: [
                scroll(
                    #""progress": 0.5"#,
                    [
                        ("tabs.*.x", numbers([0, 75, 150])), ("tabs.*.width", numbers([75, 75, 50])),
                        ("indicator.x", 37.5), ("indicator.width", 75),
                    ]),
                end([
                    ("tabs.*.x", numbers([0, 50, 150])), ("tabs.*.width", numbers([50, 100, 50])), ("indicator.x", 50),
                    ("indicator.width", 100),
                ]),
                select(0, []),
                select(
                    2,
                    [
                        ("keyframes.*.indicator.x", numbers([50, 100])),
                        ("keyframes.*.indicator.width", numbers([100, 100])),
                    ]),
                // The session keeps what it wrote for its reads: a GET must lay the tabs out anew.
                Step(method: "GET", path: "", expect: [("tabs.*.x", numbers([0, 50, 100]))]),
            ]),
        Example(
            name: "selected width, rtl",
            create:
                #"{"pages": \#(pages(3)), "layoutDirection": "rtl", "tabBar": {"layout": "scrollable", "selectedTabWidth": 100, "minTabWidth": 50, "tabPadding": 0, "charWidth": 1}}"#,
            expect: [("tabs.*.x", numbers([100, 50, 0]))]),
        Example(
            name: "selected width, loop at 2 half way",
            create:
                #"{"pages": \#(pages(3)), "mode": "loop", "initialPage": 2, "tabBar": {"layout": "scrollable", "selectedTabWidth": 100, "minTabWidth": 50, "tabPadding": 0, "charWidth": 1}}"#,
            steps: [
                scroll(
                    #""progress": 0.5"#,
                    [
                        ("tabs.*.x", numbers([0, 75, 125])), ("tabs.*.width", numbers([75, 50, 75])),
                        ("indicator.x", 162.5), ("indicator.segments", frames([(162.5, 37.5), (0, 37.5)])),
                    ])
            ]),
        Example(
            name: "Parchment PagingDistanceCentered…UsingSizeDelegate",
            create:
                #"{"pages": \#(pages(20, width: 50)), "initialPage": 3, "viewport": {"width": 400}, "tabBar": {"layout": "scrollable", "selectedTabWidth": 100}}"#,
            expect: [("tabBar.offset", 0), ("tabBar.contentWidth", 1050)],
            steps: [
                scroll(#""progress": 0.5"#, [("tabBar.offset", 25)]), end([("tabBar.offset", 50)]),
                select(3, [("tabBar.offset", 0)]), select(2, [("tabBar.offset", 0)]),
            ]),
        Example(
            name: "Parchment …WithHugeSelectedWidth",
            create:
                #"{"pages": \#(pages(11, width: 50)), "initialPage": 6, "viewport": {"width": 400}, "tabBar": {"layout": "scrollable", "selectedTabWidth": 500}}"#,
            expect: [("tabBar.offset", 350), ("tabBar.contentWidth", 1000)],
            steps: [select(10, [("keyframes.*.tabBarOffset", numbers([400, 450, 500, 550]))])]),
    ]

    @Test(
        "every worked example holds over HTTP",
        arguments: alignmentExamples + scrollPositionExamples + insetExamples + widthExamples + pageExamples)
    func example(_ example: Example) async throws {
        let api = try APITester()
        let created = await api.send("POST", "/v1/sessions", json: example.create)
        #expect(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
        let id = try #require(created["id"]?.stringValue)
        Self.check(created.json, example.expect)
        for step in example.steps {
            let path = step.path.isEmpty ? "/v1/sessions/\(id)" : "/v1/sessions/\(id)/\(step.path)"
            let reply = await api.send(step.method, path, json: step.body)
            #expect(reply.status == 200, "\(step.path): \(String(decoding: reply.body, as: UTF8.self))")
            Self.check(reply.json, step.expect, "\(step.path) \(step.body ?? "")")
        }
    }

    static func check(
        _ document: JSONValue, _ expectations: [(String, JSONValue)], _ context: String = "create",
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for (path, wanted) in expectations {
            let found = resolve(document, path)
            #expect(
                found.map { close($0, wanted) } ?? false,
                "\(context): \(path) is \(String(describing: found)), not \(wanted)",
                sourceLocation: sourceLocation)
        }
    }

    /// The value at `path`: members and indexes separated by dots, `*` mapping over an array.
    static func resolve(_ value: JSONValue, _ path: String) -> JSONValue? {
        var components = path.split(separator: ".").map(String.init)
        guard !components.isEmpty else { return value }
        let first = components.removeFirst()
        let rest = components.joined(separator: ".")
        if first == "*" {
            guard let items = value.arrayValue else { return nil }
            var mapped: [JSONValue] = []
            for item in items {
                guard let inner = resolve(item, rest) else { return nil }
                mapped.append(inner)
            }
            return .array(mapped)
        }
        if let position = Int(first) {
            guard let items = value.arrayValue, items.indices.contains(position) else { return nil }
            return resolve(items[position], rest)
        }
        return value[first].flatMap { resolve($0, rest) }
    }

    /// Equal, numbers within 1e-6.
    static func close(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if let x = a.numberValue, let y = b.numberValue { return abs(x - y) <= 1e-6 }
        if let xs = a.arrayValue, let ys = b.arrayValue {
            return xs.count == ys.count && zip(xs, ys).allSatisfy { close($0, $1) }
        }
        if let x = a.objectValue, let y = b.objectValue {
            return x.count == y.count
                && x.allSatisfy { member in y[member.key].map { close(member.value, $0) } ?? false }
        }
        return a == b
    }
}
