import Foundation
import JSON
import PagerDocuments
import PagerModel
import TestSupport
import Testing

/// PagerModel's prediction against the real server, as web/test/conformance.mjs checks
/// web/pagerd.js: for each case, the state and settings documents the server gave, a prediction
/// from them (through the JSON entry point, so the document readers are checked too), then the
/// real `POST …/scroll`, and a comparison of the scroll members: numbers within 1e-6, everything
/// else equal, no member the server lacks. The table covers every value of every setting that
/// bears on a scroll, at the first, a middle and the last index, for progress −1…1 in steps of
/// 0.05 in each input form, from rest and from mid-swipe; a seeded sweep adds random settings,
/// pages, positions and inputs; refusals and inputs at the ends of the number line close it.
@Suite(
    "Prediction against the server",
    .disabled(
        if: ProcessInfo.processInfo.environment["PAGERD_SKIP_PROCESS_TESTS"] != nil, "Process.run fails under ASan"),
    .disabled(
        if: ProcessInfo.processInfo.environment["PAGERD_SKIP_CONFORMANCE"] != nil,
        "geometry, not threads: make test runs it; under ThreadSanitizer its 123,550 cases take many minutes"))
struct ConformanceTests {
    /// Concurrent connections (each driven by a thread of its own).
    static let workers = 3
    static let seed: UInt64 = 20_251_126
    static let sweepSessions = 400

    @Test("the table, a seeded random sweep and the refusals: zero differences")
    func predictionMatchesTheServer() async throws {
        let binary = PagerdProcess.fastestExecutableURL
        let process = try PagerdProcess.launch(
            arguments: ["--port", "0"], environment: ["PAGERD_PER_IP_CONNECTION_LIMIT": "0"], executable: binary)
        let port = try await process.port()
        let started = ContinuousClock.now
        let configs = conformanceTable()
        let totals = try await withThrowingTaskGroup(of: Tally.self) { group in
            for worker in 0..<Self.workers {
                group.addTask {
                    try await onThread {
                        var runner = try Runner(port: port)
                        for config in stride(from: worker, to: configs.count, by: Self.workers) {
                            try runner.run(configs[config])
                        }
                        var random = SplitMix(seed: Self.seed &+ UInt64(worker))
                        let sessions = (Self.sweepSessions + Self.workers - 1) / Self.workers
                        for _ in 0..<sessions { try runner.sweep(&random) }
                        if worker == 0 { try runner.refusals() }
                        return runner.tally
                    }
                }
            }
            var all = Tally()
            for try await tally in group { all.add(tally) }
            return all
        }
        let seconds = (ContinuousClock.now - started).components.seconds
        print(
            "prediction conformance (Swift): \(totals.cases) cases (\(totals.table) in the table over "
                + "\(configs.count) settings, \(totals.sweep) in the sweep, \(totals.edge) refusals and extreme inputs), "
                + "largest difference \(totals.maxDifference), \(totals.differences) differences, "
                + "in \(seconds) s against \(binary.path)")
        for failure in totals.failures.prefix(20) { print("  " + failure) }
        #expect(configs.count == 162)
        #expect(totals.differences == 0)
        #expect(totals.maxDifference <= 1e-6)
        #expect(totals.table > 70_000 && totals.sweep >= 4000 && totals.edge >= 40)
    }
}

/// What one worker found.
struct Tally: Sendable {
    var cases = 0, table = 0, sweep = 0, edge = 0
    var maxDifference = 0.0
    var differences = 0
    var failures: [String] = []

    mutating func add(_ other: Tally) {
        cases += other.cases
        table += other.table
        sweep += other.sweep
        edge += other.edge
        maxDifference = max(maxDifference, other.maxDifference)
        differences += other.differences
        failures += other.failures
    }

    mutating func fail(_ message: String) {
        differences += 1
        if failures.count < 50 { failures.append(message) }
    }
}

/// One worker: a keep-alive connection to the server and what it found.
struct Runner {
    enum Counter { case table, sweep, edge }

    let connection: RawHTTPConnection
    var tally = Tally()
    /// The settings document of the session last checked, read.
    var readSettings: (id: String, settings: PagerSettings)?

    init(port: Int) throws { connection = try RawHTTPConnection(port: port) }

    /// Sends `body` (JSON) and answers the status and the parsed body.
    func call(_ method: String, _ path: String, _ body: JSONValue? = nil) throws -> (status: Int, body: JSONValue) {
        let bytes = body.map(JSONWriter.encode)
        let response = try connection.request(
            method, path, headers: bytes == nil ? [] : [("Content-Type", "application/json")], body: bytes)
        let parsed = response.body.isEmpty ? JSONValue.null : try JSONParser.parse(response.body)
        return (response.status, parsed)
    }

    /// Like ``call(_:_:_:)``, but any status other than `expected` is an error.
    func json(_ method: String, _ path: String, _ body: JSONValue? = nil, expected: Int = 200) throws -> JSONValue {
        let answer = try call(method, path, body)
        guard answer.status == expected else {
            throw RawHTTPError.malformed(
                "\(method) \(path) answered \(answer.status): \(JSONWriter.string(answer.body))")
        }
        return answer.body
    }

    /// Creates a session; answers its id, state and settings documents.
    func create(
        _ pages: [JSONValue], _ settings: JSONObject, initialPage: Int? = nil
    ) throws -> (
        id: String, state: JSONValue, settings: JSONValue
    ) {
        var body = settings
        body["pages"] = .array(pages)
        if let initialPage { body["initialPage"] = .number(Double(initialPage)) }
        let state = try json("POST", "/v1/sessions", .object(body), expected: 201)
        let id = state["id"]?.stringValue ?? ""
        return (id, state, try json("GET", "/v1/sessions/\(id)/settings"))
    }

    /// Ends a swipe or an overscroll in flight, cancelled: the state at rest.
    func rest(_ id: String) throws -> JSONValue {
        try json("POST", "/v1/sessions/\(id)/transition", ["phase": "end", "completed": false])
    }

    /// One case: predicts from `state`, scrolls, compares; answers the server's new state.
    @discardableResult
    mutating func check(
        _ id: String, _ state: JSONValue, _ settings: JSONValue, _ input: JSONValue, _ label: String,
        _ counter: Counter
    ) throws -> JSONValue {
        // The body as the server reads it (JSON has no -0, NaN or infinities).
        let body = try JSONParser.parse(JSONWriter.encode(input))
        var predicted: ScrollMembers?
        var refusal: PredictionError?
        do {
            if counter == .edge {
                predicted = try predictScroll(state: state, settings: settings, input: body)
            } else {
                // The same steps, with the settings document read once a session.
                let input = try ScrollInput(body: body)
                if readSettings?.id != id { readSettings = (id, try ScrollPredictor.settings(document: settings)) }
                let predictor = try ScrollPredictor(
                    state: ScrollState(document: state), settings: readSettings!.settings)
                predicted = try predictor.predict(input)
            }
        } catch {
            refusal = error
        }
        let answer = try call("POST", "/v1/sessions/\(id)/scroll", input)
        tally.cases += 1
        switch counter {
        case .table: tally.table += 1
        case .sweep: tally.sweep += 1
        case .edge: tally.edge += 1
        }
        // Described only for a report: writing it for every case would cost more than the case.
        func at() -> String {
            "\(label) from \(JSONWriter.string(state["transition"] ?? .null)) "
                + "\(JSONWriter.string(state["overscroll"] ?? .null)) index \(state["index"].map(JSONWriter.string) ?? "-") "
                + "with \(JSONWriter.string(body))"
        }
        guard answer.status == 200 else {
            let code = answer.body["code"]?.stringValue, field = answer.body["field"]?.stringValue
            if refusal?.code.rawValue != code || refusal?.field != field {
                tally.fail(
                    "\(at()): server \(answer.status) \(code ?? "") \(field ?? ""), predicted \(refusal.map { "\($0)" } ?? "success")"
                )
            }
            return state
        }
        guard let predicted else {
            tally.fail("\(at()): predicted \(refusal.map { "\($0)" } ?? "nothing"), server answered 200")
            return answer.body
        }
        var comparison = Comparison()
        comparison.walk(scrollMembers(of: answer.body), predicted.document, path: "")
        tally.maxDifference = max(tally.maxDifference, comparison.maxDifference)
        if !comparison.problems.isEmpty {
            tally.fail("\(at()): \(comparison.problems.prefix(4).joined(separator: "; "))")
        }
        return answer.body
    }

    /// Every index of interest, each input form, each progress of the grid from rest, and from the
    /// mid-swipe state that left, another form and progress.
    mutating func run(_ config: TableConfig) throws {
        let (id, created, settings) = try create(config.pages, config.settings)
        let layout = created["tabBar"]?["effectiveLayout"]?.stringValue
        if let wanted = config.effectiveLayout, layout != wanted {
            tally.fail("\(config.name): effectiveLayout \(layout ?? "absent"), not \(wanted)")
        }
        let count = created["pageCount"]?.intValue ?? 0
        var indexes: [Int] = []
        for index in [0, (count - 1) / 2, count - 1] where !indexes.contains(index) { indexes.append(index) }
        for index in indexes {
            _ = try json("POST", "/v1/sessions/\(id)/select", ["index": .number(Double(index))])
            // The page offset the state reports, sent back as it is: rounding and all, it is the rest.
            let atRest = try rest(id)
            let sentBack = try check(
                id, atRest, settings, ["offset": atRest["pageOffset"] ?? .null], "\(config.name) reported offset", .edge
            )
            if sentBack["version"] != atRest["version"] || (sentBack["transition"] ?? .null) != .null
                || (sentBack["overscroll"] ?? .null) != .null
            {
                tally.fail("\(config.name) at \(index): sending back the reported pageOffset changed the state")
            }
            for (f, form) in scrollForms.enumerated() {
                for i in progressGrid.indices {
                    let atRest = try rest(id)
                    let label = "\(config.name) \(form)"
                    let swiping = try check(
                        id, atRest, settings, scrollInput(form, progressGrid[i], from: atRest), label, .table)
                    let next = progressGrid[(i * 17 + 5) % progressGrid.count]
                    let other = scrollForms[(i + f + 1) % scrollForms.count]
                    try check(
                        id, swiping, settings, scrollInput(other, next, from: swiping), "\(label) then \(other)", .table
                    )
                }
            }
        }
        _ = try call("DELETE", "/v1/sessions/\(id)")
    }

    /// One random session: random pages and settings, twelve scrolls from random positions.
    mutating func sweep(_ random: inout SplitMix) throws {
        let (pages, settings, initialPage) = randomConfig(&random)
        let session: (id: String, state: JSONValue, settings: JSONValue)
        do {
            session = try create(pages, settings, initialPage: initialPage)
        } catch {
            tally.fail("sweep session \(JSONWriter.string(.object(settings))): \(error)")
            return
        }
        var state = session.state
        for _ in 0..<12 {
            if Double.random(in: 0..<1, using: &random) < 0.25 {
                state = try rest(session.id)
            } else if Double.random(in: 0..<1, using: &random) < 0.1 {
                let count = state["pageCount"]?.intValue ?? 1
                state = try json(
                    "POST", "/v1/sessions/\(session.id)/select",
                    ["index": .number(Double(Int.random(in: 0..<count, using: &random)))])
            }
            state = try check(session.id, state, session.settings, randomInput(&random, state), "sweep", .sweep)
        }
        _ = try call("DELETE", "/v1/sessions/\(session.id)")
    }

    /// Bodies the server refuses, inputs at the ends of the number line, and an empty pager.
    mutating func refusals() throws {
        let three = try create(TablePages.three, [:])
        let bad: [JSONValue] = [
            [:], ["progress": "0.5"], ["progress": true], ["progress": [1]], ["progress": 0.2, "offset": 5],
            ["offset": 1, "windowOffset": 2, "progress": 3], ["sideways": 1], ["progress": nil],
            ["progress": 0.1, "extra": nil], ["progress": .number(.nan)], ["offset": .number(.infinity)], [], [0.5],
            "0.5", 7, nil,
        ]
        for input in bad { try check(three.id, three.state, three.settings, input, "refusal", .edge) }
        let extremes: [JSONValue] = [
            ["offset": .number(.greatestFiniteMagnitude)], ["offset": .number(-.greatestFiniteMagnitude)],
            ["windowOffset": .number(.greatestFiniteMagnitude)], ["progress": 1e308],
            ["progress": .number(-.leastNonzeroMagnitude)], ["progress": .number(.leastNonzeroMagnitude)],
            ["offset": .number(.leastNonzeroMagnitude)], ["progress": .number(-0.0)],
        ]
        let viewports: [JSONObject] = [
            [:], ["layoutDirection": "rtl", "viewport": ["width": 1e-300]],
            ["mode": "loop", "viewport": ["width": 1e9]],
        ]
        for settings in viewports {
            let session = try create(TablePages.three, settings)
            for input in extremes {
                try check(session.id, try rest(session.id), session.settings, input, "extreme", .edge)
            }
        }
        let empty = try create([], [:])
        let inputs: [JSONValue] = [
            ["progress": 0.5], ["offset": 10], ["windowOffset": 0], ["progress": 0], [:], ["x": 1],
        ]
        for input in inputs { try check(empty.id, empty.state, empty.settings, input, "empty pager", .edge) }
        try roundingCorners()
    }

    /// Where a rounding error decides a case: `visible`'s one-point cut with `centered` set on one
    /// page per view (which then changes nothing), and the indicator at the ends of a
    /// right-to-left bar a billion points wide.
    mutating func roundingCorners() throws {
        var corners: [(settings: JSONObject, inputs: [JSONValue])] = [
            (
                ["viewport": ["width": 1, "centered": true], "rubberBand": ["style": "linear"]],
                [["progress": 0], ["progress": 0.3], ["progress": -0.3], ["offset": 1.5]]
            ),
            (
                ["viewport": ["centered": true]],
                [["offset": 1.00000000100001], ["offset": 389.999999999], ["windowOffset": 390.000000001]]
            ),
            (
                ["orientation": "vertical", "viewport": ["height": 1e9, "centered": true]],
                [["offset": 1_000_000_001], ["offset": 999_999_999]]
            ),
        ]
        for mode: JSONValue in ["bounded", "loop"] {
            corners.append(
                (
                    [
                        "mode": mode, "layoutDirection": "rtl", "viewport": ["width": 1e9],
                        "tabBar": ["indicator": ["style": "elastic"]],
                    ],
                    [["progress": 1e-9], ["progress": -1e-9], ["progress": 1e-12], ["progress": 0.999]]
                ))
        }
        for (settings, inputs) in corners {
            let session = try create(TablePages.three, settings)
            for index in 0..<3 {
                _ = try json("POST", "/v1/sessions/\(session.id)/select", ["index": .number(Double(index))])
                for input in inputs {
                    try check(session.id, try rest(session.id), session.settings, input, "rounding \(settings)", .edge)
                }
            }
            _ = try call("DELETE", "/v1/sessions/\(session.id)")
        }
    }
}

/// The scroll members of a scroll answer, in the shape ``ScrollMembers/document`` has.
func scrollMembers(of answer: JSONValue) -> JSONValue {
    var members: JSONObject = [:]
    for key in ["transition", "overscroll", "pageOffset", "visible", "indicator"] {
        members[key] = answer[key] ?? .null
    }
    members["tabBar"] = [
        "contentWidth": answer["tabBar"]?["contentWidth"] ?? .null, "offset": answer["tabBar"]?["offset"] ?? .null,
    ]
    members["tabs"] = .array(
        (answer["tabs"]?.arrayValue ?? []).map { tab in
            var picked: JSONObject = [:]
            for key in ["x", "width", "selection", "selected", "color", "scale"] {
                if let value = tab[key] { picked[key] = value }
            }
            return .object(picked)
        })
    for key in ["edge", "blocked"] {
        if let value = answer[key] { members[key] = value }
    }
    return .object(members)
}

/// A comparison of the server's members with the prediction's: numbers within 1e-6, everything
/// else equal, the same members, the same number of items (a segment sliver too).
struct Comparison {
    var maxDifference = 0.0
    var problems: [String] = []

    mutating func walk(_ expected: JSONValue, _ actual: JSONValue, path: String) {
        switch (expected, actual) {
        case (.number(let a), .number(let b)):
            let difference = abs(a - b)
            if !(difference <= 1e-6) { problems.append("\(path): \(a) != \(b)") }
            maxDifference = difference.isNaN ? .infinity : max(maxDifference, difference)
        case (.array(let a), .array(let b)):
            guard a.count == b.count else {
                problems.append(
                    "\(path): \(a.count) items != \(b.count): \(JSONWriter.string(expected)) vs \(JSONWriter.string(actual))"
                )
                return
            }
            for (i, (x, y)) in zip(a, b).enumerated() { walk(x, y, path: "\(path)[\(i)]") }
        case (.object(let a), .object(let b)):
            for key in a.keys where b[key] == nil { problems.append("\(path).\(key): missing from the prediction") }
            for key in b.keys where a[key] == nil { problems.append("\(path).\(key): not in the server's answer") }
            for (key, value) in a { if let other = b[key] { walk(value, other, path: "\(path).\(key)") } }
        default:
            if expected != actual {
                problems.append("\(path): \(JSONWriter.string(expected)) != \(JSONWriter.string(actual))")
            }
        }
    }
}
