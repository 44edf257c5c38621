import JSON
import PagerModel
import Testing

@testable import PagerAPI

// Several pages per viewport: the worked examples of «Several pages per viewport» (docs/api.md).
extension LayoutAPITests {
    static func swiper(_ extra: String = "") -> String {
        #"{"pages": \#(pages(10)), "tabBar": {"layout": "none"}, "viewport": {"pagesPerView": 2, "pageSpacing": 10}\#(extra)}"#
    }

    static func visible(_ pairs: [(Int, Double)]) -> JSONValue {
        .array(pairs.map { ["index": .number(Double($0.0)), "id": .string("p\($0.0)"), "fraction": .number($0.1)] })
    }

    static let pageExamples: [Example] = [
        Example(
            name: "Swiper slidesPerView", create: swiper(),
            expect: [
                ("viewport.pageSize", 190), ("pageOffset", 0), ("visible", visible([(0, 1), (1, 1)])),
                ("preload.*.index", numbers([1, 2])),
                (
                    "viewport",
                    [
                        "width": 390, "height": 844, "pagesPerView": 2, "pageSpacing": 10, "centered": false,
                        "pageSize": 190,
                    ]
                ),
            ],
            steps: [
                scroll(
                    #""offset": 100"#,
                    [
                        ("transition.progress", 0.5), ("pageOffset", 100),
                        ("visible", visible([(0, 0.4736842), (1, 1), (2, 0.4736842)])),
                    ]),
                select(
                    9,
                    [
                        ("keyframes.*.pageOffset", numbers([200, 400, 600, 800, 1000, 1200, 1400, 1600, 1600])),
                        ("pageOffset", 1600), ("visible", visible([(9, 1), (8, 1)])),
                    ]),
                scroll(
                    #""progress": -0.5"#,
                    [("transition.from", 9), ("transition.to", 8), ("transition.progress", 0.5), ("pageOffset", 1600)]
                ),
                scroll(#""offset": 1500"#, [("transition.to", 8), ("transition.progress", 0.5), ("pageOffset", 1600)]),
            ]),
        Example(
            name: "three per view",
            create:
                #"{"pages": \#(pages(10)), "tabBar": {"layout": "none"}, "viewport": {"pagesPerView": 3, "pageSpacing": 10}}"#,
            expect: [("viewport.pageSize", 123.3333333), ("visible.*.index", numbers([0, 1, 2]))]),
        Example(
            name: "2.5 per view toward a limited page",
            create:
                #"{"pages": \#(pages(10)), "initialPage": 7, "tabBar": {"layout": "none"}, "viewport": {"width": 400, "pagesPerView": 2.5}}"#,
            expect: [("pageOffset", 1120)],
            steps: [
                scroll(
                    #""offset": 1160"#,
                    [
                        ("transition.progress", 0.5), ("pageOffset", 1160),
                        ("visible", visible([(7, 0.75), (8, 1), (9, 0.75)])),
                    ])
            ]),
        Example(
            name: "2.5 per view at limited page 8",
            create:
                #"{"pages": \#(pages(10)), "initialPage": 8, "tabBar": {"layout": "none"}, "viewport": {"width": 400, "pagesPerView": 2.5}}"#,
            expect: [("pageOffset", 1200), ("visible", visible([(8, 1), (7, 0.5), (9, 1)]))]),
        Example(
            name: "2.5 per view at limited page 9",
            create:
                #"{"pages": \#(pages(10)), "initialPage": 9, "tabBar": {"layout": "none"}, "viewport": {"width": 400, "pagesPerView": 2.5}}"#,
            expect: [("pageOffset", 1200), ("visible", visible([(9, 1), (7, 0.5), (8, 1)]))]),
        Example(
            name: "peeking media",
            create: #"{"template": "media", "viewport": {"pagesPerView": 1.25, "pageSpacing": 10, "centered": true}}"#,
            expect: [
                ("viewport.pageSize", 310), ("pageOffset", -40), ("visible.*.index", numbers([0, 1])),
                ("visible.*.fraction", numbers([1, 0.0967742])), ("preload.*.index", numbers([1, 2])),
            ],
            steps: [Step(path: "next", expect: [("pageOffset", 280)])]),
        Example(
            name: "peeking media, rtl",
            create:
                #"{"template": "media", "layoutDirection": "rtl", "viewport": {"pagesPerView": 1.25, "pageSpacing": 10, "centered": true}}"#,
            expect: [("pageOffset", 600)]),
        Example(
            name: "spacing only", create: #"{"template": "media", "viewport": {"pageSpacing": 10}}"#,
            steps: [
                scroll(
                    #""windowOffset": 600"#,
                    [
                        ("transition.progress", 0.5), ("pageOffset", 200),
                        ("visible.*.fraction", numbers([0.4871795, 0.4871795])),
                    ])
            ]),
        Example(
            name: "spacing only, rtl",
            create: #"{"template": "media", "layoutDirection": "rtl", "viewport": {"pageSpacing": 10}}"#,
            expect: [("pageOffset", 800)],
            steps: [scroll(#""offset": 600"#, [("transition.progress", 0.5), ("pageOffset", 600)])]),
        Example(
            name: "overscroll in strides",
            create:
                #"{"template": "media", "initialPage": 2, "rubberBand": {"style": "linear"}, "viewport": {"pageSpacing": 10}, "tabBar": {"indicator": {"overscroll": "bounce"}}}"#,
            steps: [scroll(#""progress": 0.2"#, [("pageOffset", 880), ("indicator.x", 286)])]),
        Example(
            name: "vertical snap",
            create:
                #"{"template": "snap", "orientation": "vertical", "viewport": {"pagesPerView": 2, "pageSpacing": 4}}"#,
            expect: [
                ("viewport.pageSize", 420), ("pageOffset", 424), ("visible.*.index", numbers([1, 2])),
                ("preload.*.index", numbers([0, 2, 3])),
            ],
            steps: [
                scroll(
                    #""offset": 636"#,
                    [
                        ("transition.progress", 0.5), ("pageOffset", 636),
                        ("visible.*.fraction", numbers([0.4952381, 1, 0.4952381])),
                    ]),
                Step(path: "transition", body: #"{"phase": "end", "completed": false}"#, expect: []),
                select(3, [("keyframes.*.pageOffset", numbers([848, 848]))]),
            ]),
        Example(
            name: "vertical snap, rtl",
            create:
                #"{"template": "snap", "orientation": "vertical", "layoutDirection": "rtl", "viewport": {"pagesPerView": 2, "pageSpacing": 4}}"#,
            expect: [
                ("pageOffset", 424), ("visible.*.index", numbers([1, 2])), ("visible.*.fraction", numbers([1, 1])),
                ("preload.*.index", numbers([0, 2, 3])),
            ],
            steps: [
                scroll(#""offset": 636"#, [("transition.progress", 0.5), ("pageOffset", 636)]),
                Step(path: "transition", body: #"{"phase": "end", "completed": false}"#, expect: []),
                select(3, [("keyframes.*.pageOffset", numbers([848, 848]))]),
            ]),
    ]
}
