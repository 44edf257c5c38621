import Foundation
import HTTPTypes
import JSON
import MicroHTTP
import PagerAPI
import PagerModel
import PagerSessions
import TestSupport
import Testing

/// Drives the API responder in-process with request values.
struct APITester {
    /// Four shards, so that tests cross shards as the server does.
    let engine: PagerEngines
    let responder: APIResponder
    /// The engine's clock: tests move it by hand.
    let clock = ManualTime()
    /// Wall-clock milliseconds at clock time 0, so auto-advance times are known in advance.
    static let wallOrigin: Int64 = 1_700_000_000_000

    init(limits: EngineLimits = EngineLimits(), options: APIOptions = APIOptions()) throws {
        let templates = try Self.shippedTemplates()
        // Timers fire only when a test calls `fireTimers()`, at the time the test set.
        engine = PagerEngines(
            count: 4, limits: limits, clock: TestClock(time: clock), drivesTimers: false,
            wallOrigin: Double(Self.wallOrigin) / 1000)
        responder = APIResponder(engines: engine, templates: templates, readiness: Readiness(), options: options)
    }

    /// The definition of a session made from shipped template `name`, as a create body would ask.
    static func definition(template name: String) throws -> PagerDefinition {
        let template = try #require(try shippedTemplates().first { $0.name == name })
        return try template.makeDefinition(overrides: JSONObject())
    }

    static func shippedTemplates() throws -> [Template] {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        let folder = url.appendingPathComponent("config/templates")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
            .sorted()
            .map {
                try Template(json: try JSONParser.parse(Array(Data(contentsOf: folder.appendingPathComponent($0)))))
            }
    }

    struct Reply {
        var status: Int
        var headers: HTTPFields
        var body: [UInt8]
        /// The response as the responder returned it (a streamed body included).
        var response: Response
        /// Whether the responder answered now (``Reply/now(_:)``) rather than with work for later.
        var answeredNow = false
        var json: JSONValue { (try? JSONParser.parse(body)) ?? .null }
        subscript(key: String) -> JSONValue? { json[key] }
        var code: String? { json["code"]?.stringValue }
        var field: String? { json["field"]?.stringValue }
    }

    /// Sends a request written as a client writes it: method and field names as text. Like the
    /// server, it takes the answer made now, or runs the work for later and waits for it.
    func send(
        _ method: String, _ path: String, json: String? = nil, headers: [(String, String)] = [],
        contentType: String? = "application/json", query: [(String, String)] = []
    ) async -> Reply {
        var requestHeaders = HTTPFields()
        if json != nil, let contentType { requestHeaders[.contentType] = contentType }
        for (name, value) in headers { requestHeaders.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
        let request = Request(
            method: HTTPRequest.Method(method)!, path: path, query: query.map { (name: $0.0, value: $0.1) },
            headers: requestHeaders, body: json.map { Array($0.utf8) } ?? [])
        let response: Response
        var now = false
        switch responder.respond(to: request) {
        case .now(let made):
            response = made
            now = true
        case .later(let work):
            response = await work()
        }
        return Reply(
            status: response.status.code, headers: response.headers, body: response.bodyBytes, response: response,
            answeredNow: now)
    }

    /// Moves the clock on by `milliseconds` and applies every tick due by then; returns how many
    /// timers were taken from the queues.
    @discardableResult
    func fireTimers(after milliseconds: Int = 0) -> Int {
        clock.advance(by: Double(milliseconds) / 1000)
        return engine.shards.reduce(0) { total, shard in total + shard.withLock { $0.fireDueTimers() } }
    }

    /// Creates a session and returns its id.
    func create(_ json: String) async throws -> String {
        let reply = await send("POST", "/v1/sessions", json: json)
        guard reply.status == 201, let id = reply["id"]?.stringValue else {
            throw RawHTTPError.malformed(
                "create failed: \(reply.status) \(String(decoding: reply.body, as: UTF8.self))")
        }
        return id
    }
}
