import HTTPTypes
import JSON
import PagerAccess
import TestSupport
import Testing

@testable import MicroHTTP
@testable import PagerAPI

/// Tokens pagerd mints (the `access` member of a create, `POST …/tokens`), and event streams that
/// end when their token does.
@Suite("Access tokens: minted tokens and streams that expire")
struct AccessMintingTests {
    typealias T = AccessTester

    @Test("a create by authToken or a create token answers with control and watch tokens for the new session")
    func createAnswersAccess() async throws {
        let tester = try await T(maxLifetime: 7200)
        let now = Int(T.start)
        let byOperator = await tester.api.send(
            "POST", "/v1/sessions", json: #"{"template": "media"}"#, headers: T.bearer(T.authToken))
        let id = try #require(byOperator["id"]?.stringValue)
        let access = try #require(byOperator["access"]?.objectValue)
        #expect(access.keys == ["control", "watch"])
        for (name, scopes) in [("control", AccessScopes.control), ("watch", .watch)] {
            #expect(access[name]?["expiresAt"] == .number(Double(now + 7200)))
            let token = try #require(access[name]?["token"]?.stringValue)
            let grant = try tester.verifier.verify(token, now: T.start)
            #expect(grant == AccessGrant(scopes: scopes, subject: .session(id), expiresAt: Double(now + 7200)))
        }
        let control = try #require(access["control"]?["token"]?.stringValue)
        #expect(await tester.api.send("DELETE", "/v1/sessions/\(id)", headers: T.bearer(control)).status == 204)
        // A create token that expires sooner: the minted tokens expire with it.
        let creator = tester.token("create", nil, for: 300)
        let byToken = await tester.api.send(
            "POST", "/v1/sessions", json: #"{"template": "media"}"#, headers: T.bearer(creator))
        #expect(byToken.status == 201 && byToken["access"]?["watch"]?["expiresAt"] == .number(Double(now + 300)))
        #expect(byToken["access"]?["control"]?["expiresAt"] == .number(Double(now + 300)))
    }

    @Test("with verify-only keys a create answers no access member")
    func noSigningKey() async throws {
        let tester = try await T(
            keys: "[" + AccessTestKeys.key("es", "ES256", "publicKey", AccessTestKeys.es256Public) + "]")
        let reply = await tester.api.send(
            "POST", "/v1/sessions", json: #"{"template": "media"}"#, headers: T.bearer(T.authToken))
        #expect(reply.status == 201 && reply["access"] == nil)
        let id = try #require(reply["id"]?.stringValue)
        // 404 for a missing session comes first; then 409.
        let missing = await tester.api.send(
            "POST", "/v1/sessions/nope/tokens", json: #"{"scope": "watch"}"#, headers: T.bearer(T.authToken))
        #expect(missing.code == "session_not_found")
        let unsigned = await tester.api.send(
            "POST", "/v1/sessions/\(id)/tokens", json: #"{"scope": "watch"}"#, headers: T.bearer(T.authToken))
        #expect(unsigned.status == 409 && unsigned.code == "signing_unavailable")
    }

    @Test("authToken mints any scope; a control token mints watch and drive, never outliving itself")
    func mintingLimits() async throws {
        let tester = try await T()
        let api = tester.api
        let id = try await tester.create()
        let now = Int(T.start)
        func mint(_ body: String, with token: String) async -> APITester.Reply {
            await api.send("POST", "/v1/sessions/\(id)/tokens", json: body, headers: T.bearer(token))
        }
        let operatorControl = await mint(#"{"scope": "control", "ttl": 600}"#, with: T.authToken)
        #expect(operatorControl.status == 201 && operatorControl["scope"] == "control")
        #expect(
            operatorControl["sessionId"] == .string(id) && operatorControl["expiresAt"] == .number(Double(now + 600)))
        #expect(operatorControl.headers[.cacheControl] == "no-store")
        let fallback = await mint(#"{"scope": "watch"}"#, with: T.authToken)
        #expect(fallback["expiresAt"] == .number(Double(now + 3600)))

        let control = tester.token("control", id, for: 900)
        let watch = await mint(#"{"scope": "watch", "ttl": 86400}"#, with: control)
        #expect(watch.status == 201 && watch["expiresAt"] == .number(Double(now + 900)))
        let minted = try #require(watch["token"]?.stringValue)
        #expect(try tester.verifier.verify(minted, now: T.start).expiresAt == Double(now + 900))
        let drive = await mint(#"{"scope": "drive", "ttl": 120}"#, with: control)
        #expect(drive.status == 201 && drive["expiresAt"] == .number(Double(now + 120)))

        let escalate = await mint(#"{"scope": "control"}"#, with: control)
        #expect(escalate.status == 403 && escalate.code == "forbidden")
        // No scope covers minting control (authToken alone does): the challenge names none.
        #expect(escalate.headers[.wwwAuthenticate] == #"Bearer error="insufficient_scope""#)
        // The 403 comes before the rest of the body is looked at.
        for body in [#"{"scope": "control", "ttl": 1}"#, #"{"scope": "control", "extra": true}"#] {
            #expect(await mint(body, with: control).status == 403, "\(body)")
        }
        for scope in ["watch", "drive"] {
            let holder = tester.token(scope, id)
            let reply = await mint(#"{"scope": "watch"}"#, with: holder)
            #expect(reply.status == 403 && reply.headers[.wwwAuthenticate]?.contains(#"scope="control""#) == true)
        }
        // Minted for a session by a token for every session: `sub` is that session, never "*".
        let everywhere = tester.token("control", "*", for: 900)
        let named = await mint(#"{"scope": "watch"}"#, with: everywhere)
        let namedGrant = try tester.verifier.verify(try #require(named["token"]?.stringValue), now: T.start)
        #expect(namedGrant.subject == .session(id))
        // A maker in its last 30 s of leeway (past its exp) mints tokens with its exp, issued at
        // it: accepted as long as the maker is, and no longer.
        let ending = tester.forge.token(scope: "control", sub: id, exp: T.start - 10)
        let late = await mint(#"{"scope": "watch"}"#, with: ending)
        #expect(late.status == 201 && late["expiresAt"] == .number(T.start - 10))
        let lateToken = try #require(late["token"]?.stringValue)
        let claims = try JSONParser.parse(Base64URL.decode(String(lateToken.split(separator: ".")[1])) ?? [])
        #expect(claims["iat"] == .number(T.start - 10) && claims["exp"] == .number(T.start - 10))
        #expect(throws: Never.self) { try tester.verifier.verify(lateToken, now: T.start + 19) }
        #expect(throws: AccessRefusal.self) { try tester.verifier.verify(lateToken, now: T.start + 21) }
        // A minted watch token can mint nothing either.
        #expect(await mint(#"{"scope": "watch"}"#, with: minted).status == 403)
        for (body, field) in [
            (#"{"scope": "watch", "ttl": 59}"#, "ttl"), (#"{"scope": "watch", "ttl": 86401}"#, "ttl"),
            (#"{"scope": "create"}"#, "scope"), ("{}", "scope"), (#"{"scope": "watch", "sub": "x"}"#, "sub"),
        ] {
            let reply = await mint(body, with: T.authToken)
            #expect(reply.status == 400 && reply.field == field, "\(body)")
        }
    }

    /// The bytes a stream has buffered, read as the server would send them.
    static func drain(_ stream: HTTPResponseStream) -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let result = chunk.withUnsafeMutableBytes { stream.read(into: $0, suspend: {}) }
            guard case .bytes(let count) = result else { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test(
        "a stream opened with a token ends at its exp + 30 s with `expired` naming the version it reached; resuming works"
    )
    func streamExpires() async throws {
        let tester = try await T()
        let api = tester.api
        let id = try await tester.create()
        let token = tester.token("watch", id, for: 60)
        let reply = await api.send("GET", "/v1/sessions/\(id)/events", query: [("access_token", token)])
        guard case .stream(let stream) = reply.response.body else {
            Issue.record("expected a stream")
            return
        }
        let operatorStream = await api.send("GET", "/v1/sessions/\(id)/events", headers: T.bearer(T.authToken))
        // The same token in the header: that stream ends with it too; the operator's never does.
        let headerReply = await api.send("GET", "/v1/sessions/\(id)/events", headers: T.bearer(token))
        guard case .stream(let headerStream) = headerReply.response.body else {
            Issue.record("expected a stream")
            return
        }
        #expect(api.responder.expiry.count == 2)
        #expect(await api.send("POST", "/v1/sessions/\(id)/next", headers: T.bearer(T.authToken)).status == 200)
        var sent = Self.drain(stream)
        // Both streams' writers have written the change and recorded its version.
        await waitUntil("the change is written") {
            sent += Self.drain(stream)
            return sent.contains("id: 2\n") && api.responder.expiry.versionsReached == [2, 2]
        }
        tester.clock.advance(by: 60 + 29)
        #expect(api.responder.expiry.endDue() == 0)
        tester.clock.advance(by: 1)
        #expect(api.responder.expiry.endDue() == 2)
        let rest = Self.drain(stream)
        #expect(rest.hasSuffix("event: expired\ndata: {\"version\":2}\n\n"))
        #expect(Self.drain(headerStream).hasSuffix("event: expired\ndata: {\"version\":2}\n\n"))
        headerStream.close()
        #expect(stream.read(into: UnsafeMutableRawBufferPointer(start: nil, count: 0), suspend: {}) == .end)
        #expect(api.responder.expiry.count == 0)
        stream.close()
        // The token no longer opens a stream; a new one resumes from the version it had reached.
        #expect(await api.send("GET", "/v1/sessions/\(id)/events", query: [("access_token", token)]).status == 401)
        let fresh = tester.token("watch", id, for: 60)
        let resumed = await api.send(
            "GET", "/v1/sessions/\(id)/events", query: [("access_token", fresh), ("lastEventId", "2")])
        guard case .stream(let again) = resumed.response.body else {
            Issue.record("expected a stream")
            return
        }
        #expect(Self.drain(again) == "retry: 2000\n\n")
        again.close()
        if case .stream(let body) = operatorStream.response.body { body.close() }
    }
}
