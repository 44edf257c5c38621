import JSON

/// One group of settings of the conformance table: its pages and the settings members of a create.
struct TableConfig: Sendable {
    var name: String
    var pages: [JSONValue]
    var settings: JSONObject
    /// Where given, the layout an `auto` bar must resolve to at creation.
    var effectiveLayout: String? = nil
}

/// The pages the table uses.
enum TablePages {
    static func titled(_ titles: [String]) -> [JSONValue] {
        titles.enumerated().map { ["id": .string("p\($0.offset)"), "title": .string($0.element)] }
    }

    static let one = titled(["Only"])
    static let two = titled(["First", "Second"])
    static let three = titled(["Photos", "Videos", "Music"])
    static let five = titled(["Home", "최근 본 상품", "Wishlist and more", "찜", "Settings"])
    static let widths: [JSONValue] = [60, 120, 80, 200, 95.5].enumerated().map {
        ["id": .string("w\($0.offset)"), "title": .string("W\($0.offset)"), "tabWidth": .number($0.element)]
    }
    static let seven = titled(["A", "Bb", "Ccc", "Dddd", "Eeeee", "Ffffff", "Ggggggg"])
    static let mall = titled(["상품", "최근 본 상품", "찜"])
    static let ten = titled(["A", "B", "C", "D", "E", "F", "G", "H", "I", "J"])
}

/// The table of web/test/conformance.mjs: every setting that bears on a scroll, each value at
/// least once, the interplay in groups (162 settings).
func conformanceTable() -> [TableConfig] {
    var configs: [TableConfig] = []
    func add(_ name: String, _ pages: [JSONValue], _ settings: JSONObject, effectiveLayout: String? = nil) {
        configs.append(TableConfig(name: name, pages: pages, settings: settings, effectiveLayout: effectiveLayout))
    }
    typealias P = TablePages

    // Layouts, widths, spacing and insets.
    for (name, pages) in [("one", P.one), ("two", P.two), ("three", P.three), ("five", P.five)] {
        add("fixed/\(name)", pages, [:])
    }
    add("fixed/spacing-inset", P.five, ["tabBar": ["spacing": 4, "inset": 10]])
    add("scrollable/titles", P.five, ["tabBar": ["layout": "scrollable"]])
    add("scrollable/widths", P.widths, ["tabBar": ["layout": "scrollable"]])
    add("scrollable/spacing-inset", P.widths, ["tabBar": ["layout": "scrollable", "spacing": 8, "inset": 12]])
    add(
        "scrollable/estimate", P.seven,
        ["tabBar": ["layout": "scrollable", "minTabWidth": 30, "tabPadding": 5, "charWidth": 11]])
    add("scrollable/narrow", P.five, ["viewport": ["width": 200], "tabBar": ["layout": "scrollable"]])
    add("scrollable/short-bar", P.three, ["viewport": ["width": 900], "tabBar": ["layout": "scrollable"]])
    add("none/bounded", P.three, ["tabBar": ["layout": "none"]])
    add("none/loop", P.five, ["mode": "loop", "tabBar": ["layout": "none"]])

    // Direction, orientation and mode.
    for direction in ["ltr", "rtl"] {
        for orientation in ["horizontal", "vertical"] {
            for mode in ["bounded", "loop"] {
                for layout in ["fixed", "scrollable"] {
                    add(
                        "\(direction)/\(orientation)/\(mode)/\(layout)", layout == "fixed" ? P.three : P.widths,
                        [
                            "layoutDirection": .string(direction), "orientation": .string(orientation),
                            "mode": .string(mode), "viewport": ["width": 390, "height": 600],
                            "tabBar": [
                                "layout": .string(layout), "spacing": layout == "fixed" ? 2 : 6, "inset": 5,
                            ],
                        ])
                }
            }
        }
    }

    // Indicator style and tracking, bounded and across a loop's seam.
    var turn = 0
    for style in ["linear", "elastic", "fade"] {
        for tracking in ["continuous", "halfway", "settled"] {
            for mode in ["bounded", "loop"] {
                turn += 1
                let layout = turn % 2 == 1 ? "fixed" : "scrollable"
                add(
                    "\(style)/\(tracking)/\(mode)", layout == "fixed" ? P.five : P.widths,
                    [
                        "mode": .string(mode), "layoutDirection": turn % 3 == 0 ? "rtl" : "ltr",
                        "tabBar": [
                            "layout": .string(layout),
                            "indicator": ["style": .string(style), "tracking": .string(tracking)],
                        ],
                    ])
            }
        }
    }

    // Across the seam with estimated widths (64, 128, 48), where rounding leaves slivers.
    for style in ["linear", "elastic"] {
        for direction in ["ltr", "rtl"] {
            add(
                "seam/\(style)/\(direction)", P.mall,
                [
                    "mode": "loop", "layoutDirection": .string(direction),
                    "tabBar": ["layout": "scrollable", "indicator": ["style": .string(style)]],
                ])
        }
    }

    // Overscroll of the indicator and the rubber band.
    turn = 0
    let bands: [JSONValue] = [
        ["style": "none"], ["style": "linear"], ["style": "resistance", "ratio": 0.5], ["style": "resistance"],
        ["style": "resistance", "ratio": 1],
    ]
    for overscroll in ["none", "bounce", "compress"] {
        for band in bands {
            turn += 1
            let ratio = band["ratio"].flatMap(\.numberValue).map { "\($0)" } ?? ""
            add(
                "overscroll/\(overscroll)/\(band["style"]?.stringValue ?? "")/\(ratio)",
                turn % 2 == 1 ? P.three : P.widths,
                [
                    "rubberBand": band, "layoutDirection": turn % 3 == 1 ? "rtl" : "ltr",
                    "orientation": turn % 4 == 2 ? "vertical" : "horizontal",
                    "tabBar": [
                        "layout": turn % 2 == 1 ? "fixed" : "scrollable",
                        "indicator": [
                            "overscroll": .string(overscroll), "style": turn % 5 == 0 ? "elastic" : "linear",
                        ],
                    ],
                ])
        }
    }
    for tracking in ["halfway", "settled"] {
        add(
            "overscroll/bounce/\(tracking)", P.three,
            [
                "rubberBand": ["style": "linear"],
                "tabBar": ["indicator": ["overscroll": "bounce", "tracking": .string(tracking)]],
            ])
    }
    add(
        "overscroll/loop-of-one", P.one,
        ["mode": "loop", "rubberBand": ["style": "linear"], "tabBar": ["indicator": ["overscroll": "compress"]]])
    add(
        "overscroll/bounded-one", P.one,
        ["rubberBand": ["style": "resistance", "ratio": 0.7], "tabBar": ["indicator": ["overscroll": "bounce"]]])
    add(
        "overscroll/loop-of-two", P.two,
        ["mode": "loop", "rubberBand": ["style": "linear"], "tabBar": ["indicator": ["overscroll": "bounce"]]])

    // A progressive indicator (bounded only).
    turn = 0
    for layout in ["fixed", "scrollable"] {
        for style in ["linear", "elastic", "fade"] {
            for direction in ["ltr", "rtl"] {
                turn += 1
                let overscroll = ["none", "bounce", "compress"][turn % 3]
                add(
                    "progressive/\(layout)/\(style)/\(direction)", layout == "fixed" ? P.five : P.widths,
                    [
                        "layoutDirection": .string(direction),
                        "rubberBand": ["style": turn % 2 == 1 ? "linear" : "none"],
                        "tabBar": [
                            "layout": .string(layout),
                            "indicator": [
                                "progressive": true, "style": .string(style), "overscroll": .string(overscroll),
                                "tracking": turn % 4 == 3 ? "halfway" : "continuous",
                            ],
                        ],
                    ])
            }
        }
    }

    // Title colours and scales.
    let title: JSONValue = ["color": "#112233", "selectedColor": "#FFAA0080", "scale": 0.8, "selectedScale": 1.25]
    for tracking in ["continuous", "halfway", "settled"] {
        for mode in ["bounded", "loop"] {
            add(
                "title/\(tracking)/\(mode)", P.five,
                ["mode": .string(mode), "tabBar": ["title": title, "indicator": ["tracking": .string(tracking)]]])
        }
    }
    add("title/defaults", P.three, ["tabBar": ["title": [:]]])
    add(
        "title/scrollable-rtl", P.widths,
        [
            "layoutDirection": "rtl",
            "tabBar": ["layout": "scrollable", "title": ["color": "#00000000", "selectedColor": "#ffffff"]],
        ])

    // Swipe locks.
    for swipe in ["both", "forward", "reverse", "none"] {
        for mode in ["bounded", "loop"] {
            add(
                "swipe/\(swipe)/\(mode)", P.three,
                [
                    "swipe": .string(swipe), "mode": .string(mode),
                    "rubberBand": ["style": mode == "bounded" ? "linear" : "none"],
                ])
        }
    }

    // Tab alignment.
    for alignment in ["center", "trailing"] {
        for direction in ["ltr", "rtl"] {
            for mode in ["bounded", "loop"] {
                add(
                    "alignment/\(alignment)/\(direction)/\(mode)", P.widths,
                    [
                        "mode": .string(mode), "layoutDirection": .string(direction), "viewport": ["width": 900],
                        "tabBar": [
                            "layout": "scrollable", "alignment": .string(alignment), "inset": 10, "spacing": 3,
                            "indicator": ["style": mode == "loop" ? "elastic" : "linear"],
                        ],
                    ])
            }
        }
        add(
            "alignment/\(alignment)/progressive", P.widths,
            [
                "viewport": ["width": 900], "rubberBand": ["style": "linear"],
                "tabBar": [
                    "layout": "scrollable", "alignment": .string(alignment),
                    "indicator": ["progressive": true, "overscroll": "compress"],
                ],
            ])
    }
    add(
        "alignment/overflowing", P.seven,
        ["viewport": ["width": 200], "tabBar": ["layout": "scrollable", "alignment": "center"]])

    // Where the selected tab scrolls to.
    for position in ["leading", "trailing"] {
        for direction in ["ltr", "rtl"] {
            add(
                "scroll-position/\(position)/\(direction)", P.seven,
                [
                    "layoutDirection": .string(direction), "viewport": ["width": 200],
                    "rubberBand": ["style": "linear"],
                    "tabBar": [
                        "layout": "scrollable", "inset": 12, "selectedScrollPosition": .string(position),
                        "indicator": ["overscroll": "bounce"],
                    ],
                ])
        }
        // Across the loop's seam (clamped as in a bounded bar), `trailing` in RTL.
        add(
            "scroll-position/\(position)/loop", P.seven,
            [
                "mode": "loop", "layoutDirection": .string(position == "trailing" ? "rtl" : "ltr"),
                "viewport": ["width": 200],
                "tabBar": [
                    "layout": "scrollable", "inset": 12, "selectedScrollPosition": .string(position),
                    "indicator": ["style": "elastic"],
                ],
            ])
    }

    // The indicator inset.
    let inset: JSONValue = ["leading": 10, "trailing": 6, "firstLeading": 20, "lastTrailing": 30]
    var round = 0
    for style in ["linear", "elastic", "fade"] {
        for tracking in ["continuous", "halfway", "settled"] {
            round += 1
            add(
                "inset/\(style)/\(tracking)", round % 2 == 1 ? P.five : P.widths,
                [
                    "mode": round % 3 == 0 ? "loop" : "bounded", "layoutDirection": round % 4 == 1 ? "rtl" : "ltr",
                    "rubberBand": ["style": "linear"],
                    "tabBar": [
                        "layout": round % 2 == 1 ? "fixed" : "scrollable",
                        "indicator": [
                            "style": .string(style), "tracking": .string(tracking), "inset": inset,
                            "overscroll": .string(["bounce", "compress", "none"][round % 3]),
                        ],
                    ],
                ])
        }
    }
    add(
        "inset/progressive", P.five,
        [
            "rubberBand": ["style": "resistance"],
            "tabBar": ["indicator": ["progressive": true, "inset": inset, "overscroll": "compress"]],
        ])
    add(
        "inset/wider-than-tabs", P.five,
        ["mode": "loop", "tabBar": ["indicator": ["inset": ["leading": 50, "trailing": 40]]]])

    // Bounded widths and `auto`.
    add("max-width/scrollable", P.five, ["tabBar": ["layout": "scrollable", "maxTabWidth": 70]])
    for width in [390, 200] {
        add(
            "auto/\(width)", P.five,
            [
                "viewport": ["width": .number(Double(width))],
                "tabBar": ["layout": "auto", "maxTabWidth": 120, "minTabWidth": 40],
            ], effectiveLayout: "scrollable")
    }
    // Across the loop's seam: scrollable at W = 200, with bounded widths.
    add(
        "auto/loop", P.five,
        [
            "mode": "loop", "viewport": ["width": 200],
            "tabBar": ["layout": "auto", "maxTabWidth": 120, "minTabWidth": 40, "indicator": ["style": "elastic"]],
        ], effectiveLayout: "scrollable")
    // Widths 80, 80 and 72 fit the share 130: fixed.
    add(
        "auto/fixed/390", P.three,
        [
            "viewport": ["width": 390], "rubberBand": ["style": "linear"],
            "tabBar": ["layout": "auto", "indicator": ["overscroll": "bounce"]],
        ], effectiveLayout: "fixed")

    // A selected tab of its own width.
    for tracking in ["continuous", "halfway", "settled"] {
        for mode in ["bounded", "loop"] {
            add(
                "selected-width/\(tracking)/\(mode)", P.widths,
                [
                    "mode": .string(mode), "layoutDirection": mode == "loop" ? "rtl" : "ltr",
                    "rubberBand": ["style": "linear"],
                    "tabBar": [
                        "layout": "scrollable", "selectedTabWidth": 150,
                        "indicator": [
                            "tracking": .string(tracking), "style": mode == "loop" ? "elastic" : "linear",
                            "overscroll": "bounce",
                        ],
                    ],
                ])
        }
    }
    add(
        "selected-width/centred-short-bar", P.three,
        [
            "viewport": ["width": 900],
            "tabBar": ["layout": "scrollable", "selectedTabWidth": 300, "alignment": "center"],
        ]
    )

    // Several pages per viewport.
    let spreads: [JSONObject] = [
        ["pagesPerView": 2, "pageSpacing": 10], ["pagesPerView": 2.5],
        ["pagesPerView": 1.25, "pageSpacing": 10, "centered": true], ["pageSpacing": 10],
        ["pagesPerView": 3, "centered": true],
    ]
    let arrangements = [
        ("bounded", "ltr", "horizontal"), ("bounded", "rtl", "horizontal"), ("loop", "ltr", "horizontal"),
        ("bounded", "rtl", "vertical"),
    ]
    for viewport in spreads {
        for (mode, direction, orientation) in arrangements {
            add(
                "pages/\(JSONWriter.string(.object(viewport)))/\(mode)/\(direction)/\(orientation)", P.seven,
                [
                    "mode": .string(mode), "layoutDirection": .string(direction),
                    "orientation": .string(orientation), "viewport": .object(viewport),
                    "rubberBand": ["style": mode == "bounded" ? "linear" : "none"],
                    "tabBar": ["indicator": ["overscroll": "bounce"]],
                ])
        }
    }
    // Without tabs and with `preload` 0, the page past those on screen is named by `preload` alone.
    let untabbed: [(JSONObject, String)] = [
        (["pagesPerView": 1.25, "pageSpacing": 10, "centered": true], "bounded"), (["pagesPerView": 2.5], "loop"),
    ]
    for (viewport, mode) in untabbed {
        add(
            "pages/no-tabs/preload-0/\(JSONWriter.string(.object(viewport)))/\(mode)", P.seven,
            ["mode": .string(mode), "viewport": .object(viewport), "preload": 0, "tabBar": ["layout": "none"]])
    }
    // Three pages per view 10 apart over ten pages: the last ones rest at M, which j·D − κ
    // reaches only to within rounding.
    add("pages/rounded-stride", P.ten, ["viewport": ["pagesPerView": 3, "pageSpacing": 10]])
    return configs
}

/// Progress −1…1 in steps of 0.05, and past both ends.
let progressGrid: [Double] = (0..<41).map { Double($0 * 5 - 100) / 100 } + [-1.25, 1.25]

/// The three input forms of a scroll.
let scrollForms = ["progress", "offset", "windowOffset"]

/// The input of form `form` that the server reads as progress `p` from `state` (away from a
/// limited position): an `offset` of the current position's rest offset plus `p` strides, a
/// `windowOffset` of one stride plus `p` strides (docs/api.md, «Several pages per viewport»).
func scrollInput(_ form: String, _ p: Double, from state: JSONValue) -> JSONValue {
    if form == "progress" { return ["progress": .number(p)] }
    let vertical = state["orientation"]?.stringValue == "vertical"
    let viewport = state["viewport"]
    let extent = (vertical ? viewport?["height"] : viewport?["width"])?.numberValue ?? 0
    let size = viewport?["pageSize"]?.numberValue ?? extent
    let stride = size + (viewport?["pageSpacing"]?.numberValue ?? 0)
    let mirrored = state["layoutDirection"]?.stringValue == "rtl" && !vertical
    if form == "offset" {
        let count = state["pageCount"]?.intValue ?? 0
        let centered = viewport?["centered"]?.boolValue == true
        let shift = centered ? (extent - size) / 2 : 0
        // A bounded pager that is not centred stops where the last page touches the trailing edge.
        let capped = state["mode"]?.stringValue != "loop" || count == 1
        let limit = capped && !centered ? max(0, Double(count - 1) * stride - (extent - size)) : .infinity
        func rest(_ j: Int) -> Double { min(Double(j) * stride - shift, limit) }
        let forward = rest(state["index"]?.intValue ?? 0) + p * stride
        return ["offset": .number(mirrored ? rest(0) + rest(max(count - 1, 0)) - forward : forward)]
    }
    return ["windowOffset": .number(mirrored ? stride - p * stride : stride + p * stride)]
}
