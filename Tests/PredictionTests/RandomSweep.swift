import JSON
import TestSupport

/// One of `list`, at random.
func pick<T>(_ list: [T], _ random: inout SplitMix) -> T { list[Int.random(in: 0..<list.count, using: &random)] }

/// Whether an event of probability `p` happens.
func chance(_ p: Double, _ random: inout SplitMix) -> Bool { Double.random(in: 0..<1, using: &random) < p }

/// Random pages (titled, or with explicit widths), random settings that bear on a scroll, and a
/// random initial page, as web/test/conformance.mjs draws them.
func randomConfig(_ random: inout SplitMix) -> (pages: [JSONValue], settings: JSONObject, initialPage: Int) {
    let count = Int.random(in: 1...7, using: &random)
    let explicit = chance(0.5, &random)
    let titles = ["A", "Photos", "최근 본 상품", "A much longer title", "찜", "Settings", "🙂 Smile"]
    var pages: [JSONValue] = []
    for i in 0..<count {
        var page: JSONObject = ["id": .string("r\(i)"), "title": .string(pick(titles, &random))]
        if explicit {
            page["tabWidth"] = .number(((20 + Double.random(in: 0..<1, using: &random) * 230) * 4).rounded() / 4)
        }
        pages.append(.object(page))
    }
    let mode = pick(["bounded", "bounded", "loop"], &random)
    var layout = pick(["fixed", "scrollable", "scrollable", "none"], &random)
    let ratio = pick(
        [0.85, 0.5, 1, max(0.001, (Double.random(in: 0..<1, using: &random) * 1000).rounded() / 1000)], &random)
    var indicator: JSONObject = [
        "style": .string(pick(["linear", "elastic", "fade"], &random)),
        "tracking": .string(pick(["continuous", "continuous", "halfway", "settled"], &random)),
        "overscroll": .string(pick(["none", "bounce", "compress"], &random)),
        "progressive": .bool(mode == "bounded" && chance(0.25, &random)),
        "height": .number(pick([2, 3.5], &random)),
    ]
    if chance(0.5, &random) {
        indicator["inset"] = [
            "leading": .number(pick([0, 4, 12], &random)), "trailing": .number(pick([0, 6], &random)),
            "firstLeading": .number(pick([0, 20], &random)), "lastTrailing": .number(pick([0, 30], &random)),
        ]
    }
    var bar: JSONObject = [
        "spacing": .number(pick([0, 0, 3.5, 10], &random)), "inset": .number(pick([0, 0, 6, 15.25], &random)),
        "alignment": .string(pick(["leading", "center", "trailing"], &random)),
        "selectedScrollPosition": .string(pick(["leading", "center", "trailing"], &random)),
    ]
    if chance(0.3, &random) {
        bar["title"] = [
            "color": "#4A4A4A", "selectedColor": .string(pick(["#037DE9", "#FF000080"], &random)), "scale": 0.9,
            "selectedScale": .number(pick([1, 1.3], &random)),
        ]
    }
    if layout != "none", chance(0.4, &random) {
        layout = pick(["auto", "scrollable"], &random)
        bar["maxTabWidth"] = pick([nil, 90, 160] as [JSONValue], &random)
        bar["minTabWidth"] = 40
    }
    if chance(0.3, &random) { bar["selectedTabWidth"] = .number(pick([120, 200.5], &random)) }
    bar["layout"] = .string(layout)
    bar["indicator"] = .object(indicator)
    var viewport: JSONObject = [
        "width": .number(pick([250, 320, 390, 414.5, 768], &random)),
        "height": .number(pick([600, 844, 1000.5], &random)),
    ]
    if chance(0.4, &random) {
        viewport["pagesPerView"] = .number(pick([1, 1.5, 2, 3], &random))
        viewport["pageSpacing"] = .number(pick([0, 8], &random))
        viewport["centered"] = .bool(chance(0.4, &random))
    }
    let settings: JSONObject = [
        "mode": .string(mode),
        "layoutDirection": .string(pick(["ltr", "rtl"], &random)),
        "orientation": .string(pick(["horizontal", "horizontal", "vertical"], &random)),
        "swipe": .string(pick(["both", "both", "both", "forward", "reverse", "none"], &random)),
        "viewport": .object(viewport),
        "rubberBand": ["style": .string(pick(["none", "linear", "resistance"], &random)), "ratio": .number(ratio)],
        "tabBar": .object(bar),
    ]
    return (pages, settings, Int.random(in: 0..<count, using: &random))
}

/// A random input from `state`: a progress of the grid, any progress a little past the ends, or
/// one at a threshold, in a random form.
func randomInput(_ random: inout SplitMix, _ state: JSONValue) -> JSONValue {
    let form = pick(scrollForms, &random)
    let vertical = state["orientation"]?.stringValue == "vertical"
    let extent = (vertical ? state["viewport"]?["height"] : state["viewport"]?["width"])?.numberValue ?? 1
    let roll = Double.random(in: 0..<1, using: &random)
    let p: Double
    if roll < 0.4 {
        p = pick(progressGrid, &random)
    } else if roll < 0.85 {
        p = Double.random(in: 0..<1, using: &random) * 2.6 - 1.3
    } else {
        p = pick(
            [0, 1, -1, 0.5, -0.5, 0.5 - 5e-10, -(0.5 - 2e-9), 1 / extent, -1 / extent, 1 - 1 / extent, 1e-12, -1e-12],
            &random)
    }
    return scrollInput(form, p, from: state)
}
