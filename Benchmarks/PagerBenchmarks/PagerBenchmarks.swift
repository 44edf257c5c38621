// Micro-benchmarks: `make bench` (PAGERD_BENCHMARKS=1 swift package benchmark). They print time
// and allocations per operation; nothing here asserts on time.
import Benchmark
import Dispatch
import JSON
import PagerAPI
import PagerDocuments
import PagerModel
import PagerSessions
import PagerWire

func pager(pages count: Int, layout: TabLayout = .scrollable) -> Pager {
    var settings = PagerSettings()
    settings.tabBar.layout = layout
    let pages = (0..<count).map { Page(id: "p\($0)", title: $0 % 2 == 0 ? "상품 \($0)" : "Page \($0)") }
    return try! Pager(
        pages: pages, initialPage: .index(count / 2), settings: settings, limits: PagerLimits(maxPages: 2000))
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .throughput], maxDuration: .seconds(2), maxIterations: 200_000)

    for count in [4, 1000] {
        let start = pager(pages: count)
        Benchmark("model: next (\(count) pages)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try! start.applying(.next)) }
        }
        Benchmark("model: scroll (\(count) pages)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try! start.applying(.scroll(.progress(0.37)))) }
        }
        Benchmark("model: indicator and tab bar mid-swipe (\(count) pages)") { benchmark in
            let swiping = try! start.applying(.scroll(.progress(0.37))).pager
            for _ in benchmark.scaledIterations {
                blackHole(swiping.indicator)
                blackHole(swiping.tabBar)
            }
        }
    }

    // docs/api.md, «Right to left», «Vertical pagers», «Overscroll and the trailing action»: the same scroll in a
    // right-to-left, vertical pager with a rubber band, pulled past its last page (an overscroll, the indicator
    // bouncing), next to the plain scroll above.
    for count in [4, 1000] {
        var wave2 = pager(pages: count)
        var settings = wave2.settings
        settings.layoutDirection = .rtl
        settings.orientation = .vertical
        settings.rubberBand.style = .resistance
        settings.tabBar.indicatorOverscroll = .bounce
        wave2 = try! wave2.applying(.updateSettings(settings)).pager
        let atEnd = try! wave2.applying(.select(.index(count - 1), path: .direct)).pager
        Benchmark("model: scroll past the end, rtl + vertical + overscroll (\(count) pages)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try! atEnd.applying(.scroll(.progress(0.37)))) }
        }
        Benchmark("model: indicator and tab bar in an overscroll, rtl + vertical (\(count) pages)") { benchmark in
            let pulled = try! atEnd.applying(.scroll(.progress(0.37))).pager
            for _ in benchmark.scaledIterations {
                blackHole(pulled.indicator)
                blackHole(pulled.tabBar)
                blackHole(pulled.pageOffset)
            }
        }
    }

    let thousand = pager(pages: 1000)
    let first = try! thousand.applying(.select(.index(0), path: .direct)).pager
    Benchmark("model: select 0 → 999 with 999 keyframes (1000 pages)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! first.applying(.select(.index(999), path: .direct))) }
    }
    Benchmark("model + encoding: jump across 1000 pages, keyframes encoded") { benchmark in
        for _ in benchmark.scaledIterations {
            let outcome = try! first.applying(.select(.index(999), path: .direct))
            blackHole(StateDocument.encode(SessionSnapshot(id: "benchmark", pager: outcome.pager), outcome: outcome))
        }
    }
    Benchmark("model: insert into 1000 pages") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(
                try! thousand.applying(
                    .insert(Page(id: "new", title: "New"), at: 500), limits: PagerLimits(maxPages: 2000)))
        }
    }

    for count in [4, 100] {
        let snapshot = SessionSnapshot(id: "AAAAAAAAAAAAAAAAAAAAAA", pager: pager(pages: count, layout: .fixed))
        Benchmark("encoding: state document (\(count) pages)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(StateDocument.encode(snapshot)) }
        }
        // As the routes write it once the session keeps its tab forms: the tabs at rest copied.
        let mark = StateDocument.encode(snapshot, tabForms: nil).made
        let forms = StateDocument.encode(snapshot, tabForms: mark).made
        Benchmark("encoding: state document with tab forms (\(count) pages)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(StateDocument.encode(snapshot, tabForms: forms)) }
        }
    }

    // A client's prediction of a scroll's answer (the scroll members), from the state and
    // settings documents a server sent: per call with the predictor made once for the state (as a
    // drag draws many frames from one state), made every call from typed values, and from the
    // parsed JSON documents.
    for count in [4, 100] {
        let swiping = try! pager(pages: count).applying(.scroll(.progress(0.2))).pager
        let state = try! JSONParser.parse(
            StateDocument.encode(SessionSnapshot(id: "AAAAAAAAAAAAAAAAAAAAAA", pager: swiping)))
        let settings = JSONValue.object(swiping.settings.document)
        let predictor = try! ScrollPredictor(state: state, settings: settings)
        let typedState = try! ScrollState(document: state),
            typedSettings = try! ScrollPredictor.settings(document: settings)
        Benchmark("prediction: predict one progress, predictor made once (\(count) pages)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try! predictor.predict(.progress(0.37))) }
        }
        Benchmark("prediction: predictScroll from typed state and settings (\(count) pages)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try! predictScroll(state: typedState, settings: typedSettings, input: .progress(0.37)))
            }
        }
        Benchmark("prediction: predictScroll from parsed JSON documents (\(count) pages)") { benchmark in
            let input: JSONValue = ["progress": 0.37]
            for _ in benchmark.scaledIterations {
                blackHole(try! predictScroll(state: state, settings: settings, input: input))
            }
        }
    }

    // Request decoding, from the body's bytes to typed values (the strict parser included): a
    // create with pages and settings, a create from a template with overrides, a PATCH of the
    // settings, and the settings document a GET writes.
    for count in [4, 100] {
        let body = Array(createBody(pages: count).utf8)
        Benchmark("decoding: create body (\(count) pages, settings)") { benchmark in
            for _ in benchmark.scaledIterations {
                let object = try! JSONParser.parse(body).objectValue!
                blackHole(try! PagerDefinition(json: object, extraMembers: ["template"]))
            }
        }
    }
    // The most frequent body, read as the scroll route reads it (its members allowed, exactly
    // one form, a number).
    let scrollBody = Array(#"{"progress":0.37}"#.utf8)
    Benchmark("decoding: scroll body") { benchmark in
        for _ in benchmark.scaledIterations {
            let reader = try! JSONReader(JSONParser.parse(scrollBody))
            try! reader.allowOnly(["progress", "offset", "windowOffset"])
            var given = 0
            for name in ["progress", "offset", "windowOffset"] where reader.has(name) { given += 1 }
            precondition(given == 1)
            blackHole(try! reader.number("progress"))
        }
    }
    let template = try! Template(json: try! JSONParser.parse(createBody(pages: 8, named: "bench")))
    let overrides = Array(#"{"template":"bench","viewport":{"width":412},"tabBar":{"layout":"scrollable"}}"#.utf8)
    Benchmark("decoding: create body from a template with overrides (8 pages)") { benchmark in
        for _ in benchmark.scaledIterations {
            let object = try! JSONParser.parse(overrides).objectValue!
            blackHole(try! template.makeDefinition(overrides: object, extraMembers: ["template"]))
        }
    }
    let patchBody = Array(
        #"{"tabBar":{"indicator":{"style":"elastic"},"spacing":8},"autoAdvance":{"enabled":true}}"#.utf8)
    let current = try! PagerDefinition(json: try! JSONParser.parse(createBody(pages: 4)).objectValue!).settings
    Benchmark("decoding: PATCH of the settings") { benchmark in
        for _ in benchmark.scaledIterations {
            let object = try! JSONParser.parse(patchBody).objectValue!
            blackHole(try! current.patched(with: object))
        }
    }
    codableComparisonBenchmarks()
    Benchmark("encoding: settings document") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(current.documentBytes) }
    }

    let loopOfFour = PagerDefinition(
        pages: (0..<4).map { Page(id: "p\($0)", title: "Page \($0)") }, initialPage: nil,
        settings: {
            var s = PagerSettings(); s.mode = .loop; return s
        }(), catalog: [])
    Benchmark("engine: one next, awaited (queued to the engine's executor)") { benchmark in
        let engine = PagerEngine()
        let id = try! await engine.create(loopOfFour).id
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try! await engine.apply(.next, to: id)) }
    }
    Benchmark("engine: one next, withLock (the HTTP routes' way)") { benchmark in
        let engine = PagerEngine()
        let id = try! await engine.create(loopOfFour).id
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try! engine.withLock { engine throws(EngineError) in try engine.apply(.next, to: id) })
        }
    }

    // Lock contention: 8 threads, each on its own session, 2,000 `next`s each per iteration, into
    // one engine and into 8 shards. The wall time per iteration is what the table compares.
    for shardCount in [1, 8] {
        Benchmark(
            "engine: 8 threads × 2,000 nexts on distinct sessions, \(shardCount == 1 ? "one engine" : "8 shards")",
            configuration: .init(metrics: [.wallClock], maxDuration: .seconds(3), maxIterations: 50)
        ) { benchmark in
            let engines = PagerEngines(count: shardCount)
            let ids = (0..<8).map { _ in try! engines.create(loopOfFour).id }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                DispatchQueue.concurrentPerform(iterations: 8) { thread in
                    let id = ids[thread]
                    let shard = engines.shard(for: id)
                    for _ in 0..<2000 {
                        blackHole(
                            try! shard.withLock { engine throws(EngineError) in try engine.apply(.next, to: id) })
                    }
                }
            }
        }
    }
}

/// A create body with `count` pages and most settings given.
func createBody(pages count: Int, named name: String? = nil) -> String {
    let pages = (0..<count).map { #"{"id":"p\#($0)","title":"Page \#($0)","content":{"kind":"feed","n":\#($0)}}"# }
    return """
        {\(name.map { #""name":"\#($0)","# } ?? "")"pages":[\(pages.joined(separator: ","))],"mode":"bounded",\
        "viewport":{"width":390,"height":844},"layoutDirection":"ltr","swipe":"both",\
        "rubberBand":{"style":"resistance","ratio":0.8},\
        "tabBar":{"layout":"fixed","spacing":4,"indicator":{"style":"linear","height":3,"tracking":"continuous"},\
        "title":{"color":"#333333FF","selectedColor":"#000000FF","scale":1,"selectedScale":1.1}},\
        "preload":1,"trailingAction":{"id":"more","title":"More"},\
        "autoAdvance":{"enabled":false,"interval":4000},"release":{"flickVelocity":0.6},"dragTimeout":15000}
        """
}
