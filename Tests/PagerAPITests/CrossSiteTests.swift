import HTTPTypes
import JSON
import PagerAPI
import TestSupport
import Testing

/// Requests a browser sends across sites without a preflight: a form's POST (text/plain,
/// url-encoded or multipart, possibly with no body) from a page of any origin.
@Suite("Cross-site changes: Origin and media type")
struct CrossSiteTests {
    @Test(
        "a change from an origin outside corsOrigins is 403 forbidden and changes nothing",
        arguments: ["POST /next", "POST /previous", "POST /scroll", "PATCH ", "DELETE "])
    func foreignOrigin(_ route: String) async throws {
        let api = try APITester(options: APIOptions(corsOrigins: ["https://app.example"]))
        let id = try await api.create(#"{"template": "media"}"#)
        let parts = route.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        let json: String? = route.hasPrefix("POST /scroll") ? #"{"progress": 0.3}"# : (parts[0] == "PATCH" ? "{}" : nil)
        let refused = await api.send(
            String(parts[0]), "/v1/sessions/\(id)\(parts[1])", json: json,
            headers: [("Origin", "https://evil.example")])
        #expect(refused.status == 403 && refused.code == "forbidden")
        let state = await api.send("GET", "/v1/sessions/\(id)")
        #expect(state.status == 200 && state["version"] == 1 && state["index"] == 0)
        // The allowed origin, and no Origin at all (a client that is not a web page), may.
        let allowed = await api.send(
            "POST", "/v1/sessions/\(id)/next", headers: [("Origin", "https://app.example")])
        #expect(allowed.status == 200 && allowed["index"] == 1)
        #expect(await api.send("POST", "/v1/sessions/\(id)/next").status == 200)
        // Reads are not changes.
        let read = await api.send("GET", "/v1/sessions/\(id)", headers: [("Origin", "https://evil.example")])
        #expect(read.status == 200 && read.headers["Access-Control-Allow-Origin"] == nil)
    }

    @Test(
        "a body-less command declaring a non-JSON media type is 415 and changes nothing, whatever the origins",
        arguments: ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"])
    func formMediaTypes(_ contentType: String) async throws {
        let api = try APITester()  // corsOrigins "*": every origin may, so only the media type protects
        let id = try await api.create(#"{"template": "media"}"#)
        for command in ["next", "previous", "autoAdvance"] {
            let reply = await api.send(
                "POST", "/v1/sessions/\(id)/\(command)",
                headers: [
                    ("Content-Type", contentType), ("Origin", "https://evil.example"),
                ])
            #expect(reply.status == 415 && reply.code == "unsupported_media_type", "\(command)")
        }
        #expect(await api.send("GET", "/v1/sessions/\(id)")["version"] == 1)
        // No media type, or JSON's, with no body: the command applies (curl -X POST …/next).
        #expect(await api.send("POST", "/v1/sessions/\(id)/next")["index"] == 1)
        let json = await api.send(
            "POST", "/v1/sessions/\(id)/next", headers: [("Content-Type", "application/json; charset=utf-8")])
        #expect(json.status == 200 && json["index"] == 2)
    }
}
