// libFuzzer entry point for request handling in-process: the bytes choose a method, a route
// (with a live session's id and page ids filled in), headers and a body, and the request goes
// through the real responder and engine. Every answer must be a status the API documents, never
// a crash or a 500, and a JSON body must parse.
import Dispatch
import Foundation
import FuzzSupport
import HTTPTypes
import JSON
import MicroHTTP
import PagerAPI
import PagerModel
import PagerSessions
import Synchronization

private let methods: [HTTPRequest.Method] = [
    .get, .post, .put, .patch, .delete, .options, .head, HTTPRequest.Method("BREW")!,
]
private let paths = [
    "/v1/sessions", "/v1/sessions/{S}", "/v1/sessions/{S}/next", "/v1/sessions/{S}/previous",
    "/v1/sessions/{S}/select", "/v1/sessions/{S}/scroll", "/v1/sessions/{S}/transition",
    "/v1/sessions/{S}/neighbors", "/v1/sessions/{S}/pages", "/v1/sessions/{S}/pages/product",
    "/v1/sessions/{S}/pages/product/stack", "/v1/sessions/{S}/pages/nope", "/v1/sessions/unknown",
    "/v1/templates", "/v1/templates/mall", "/healthz", "/readyz", "/metrics", "/openapi.json", "/nowhere",
]
private let documented: Set<Int> = [200, 201, 204, 304, 400, 401, 404, 405, 409, 411, 412, 413, 415, 422, 503, 507]

private final class Harness: Sendable {
    let engines: PagerEngines
    let responder: APIResponder

    init() {
        let folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(
            "config/templates")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let templates = names.filter { $0.hasSuffix(".json") }.compactMap { name -> Template? in
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path),
                let value = try? JSONParser.parse(Array(data))
            else { return nil }
            return try? Template(json: value)
        }
        precondition(!templates.isEmpty, "run the fuzzer from the repository's root, where config/templates is")
        engines = PagerEngines(
            count: 4,
            limits: EngineLimits(
                maxSessions: 1000, pager: PagerLimits(sessionBudgetBytes: 256 << 10), memoryBudgetBytes: 64 << 20))
        let readiness = Readiness()
        readiness.set(true)
        responder = APIResponder(
            engines: engines, templates: templates, readiness: readiness,
            options: APIOptions(corsOrigins: ["https://a.example"]))
    }

    /// The responder's answer: made now, or by its work for later, waited for on this thread.
    func respond(to request: Request) -> Response {
        let work: @Sendable () async -> Response
        switch responder.respond(to: request) {
        case .now(let response): return response
        case .later(let later): work = later
        }
        let answer = Mutex<Response?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let response = await work()
            answer.withLock { $0 = response }
            done.signal()
        }
        done.wait()
        return answer.withLock { $0! }
    }
}

private let harness = Harness()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequests(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard bytes.count >= 3 else { return 0 }
    let created = harness.respond(
        to: Request(
            method: .post, path: "/v1/sessions", headers: [.contentType: "application/json"],
            body: Array(#"{"template": "mall"}"#.utf8)))
    guard case .bytes(let createdBody) = created.body, let id = (try? JSONParser.parse(createdBody))?["id"]?.stringValue
    else { fatalError("cannot create a session") }
    defer { _ = harness.respond(to: Request(method: .delete, path: "/v1/sessions/\(id)")) }

    let method = methods[Int(bytes[0]) % methods.count]
    let path = paths[Int(bytes[1]) % paths.count].replacingOccurrences(of: "{S}", with: id)
    let flags = bytes[2]
    var headers = HTTPFields()
    if flags & 1 == 0 { headers[.contentType] = "application/json" }
    if flags & 2 != 0 { headers[.ifMatch] = flags & 4 != 0 ? "\"1\"" : "\"2\", W/\"x\"" }
    if flags & 8 != 0 { headers[.origin] = "https://a.example" }
    if flags & 16 != 0 { headers[.ifNoneMatch] = "\"1\"" }
    let query: [(name: String, value: String)] = flags & 32 != 0 ? [(name: "to", value: "root")] : []
    let request = Request(method: method, path: path, query: query, headers: headers, body: Array(bytes[3...]))
    let response = harness.respond(to: request)
    precondition(documented.contains(response.status.code), "\(method) \(path) answered \(response.status)")
    if case .bytes(let body) = response.body, response.headers[.contentType]?.contains("json") == true {
        precondition((try? JSONParser.parse(body)) != nil, "\(method) \(path) answered JSON that does not parse")
    }
    return 0
}

/// The entry point SwiftPM links as `main`: libFuzzer's driver, on this target's callback.
@_cdecl("FuzzRequests_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv) { data, size in fuzzRequests(data, size) }
}
