import Foundation
import PagerAccess
import PagerdClient
import TestSupport
import Testing

/// Access tokens through the client: the tokens a create answers, minting, a watch token's
/// limits, and an event stream whose token expires.
@Suite struct AccessTests {
    static let authToken = "client-tests-admin-token"
    static let keys = #"[{"kid": "k1", "alg": "HS256", "secret": "c2VjcmV0LWZvci10aGUtY2xpZW50LXRlc3RzLTMyLWJ5dGVz"}]"#

    static func server() async throws -> Server {
        try await Server(environment: ["PAGERD_AUTH_TOKEN": authToken, "PAGERD_ACCESS_KEYS": keys])
    }

    @Test func createAnswersTokensAndAControlTokenMintsLesserOnes() async throws {
        let server = try await Self.server()
        let admin = server.client(token: Self.authToken)
        let state = try await admin.createSession(template: "mall")
        let access = try #require(await admin.access)
        let now = Int(Date().timeIntervalSince1970)
        #expect(abs(access.control.expiresAt - (now + 86_400)) <= 5)  // accessTokenMaxLifetime
        #expect(abs(access.watch.expiresAt - (now + 86_400)) <= 5)

        let minted = try await admin.mintToken(scope: .drive, ttl: 120)
        #expect(minted.scope == .drive && minted.sessionId == state.id)
        #expect(abs(minted.expiresAt - (now + 120)) <= 5)

        let controller = server.client(token: access.control.token)
        try await controller.open(sessionID: state.id)
        let remote = try await controller.mintToken(scope: .drive)
        let presenter = server.client(token: remote.token)
        try await presenter.open(sessionID: state.id)
        #expect(try await presenter.next().index == 1)
        let notControl = await refusal { try await controller.mintToken(scope: .control) }
        #expect(notControl?.status == 403 && notControl?.code == "forbidden")

        let watcher = server.client(token: access.watch.token)
        #expect(try await watcher.open(sessionID: state.id).index == 1)
        let moved = await refusal { try await watcher.next() }
        #expect(moved?.status == 403 && moved?.code == "forbidden")
        let minting = await refusal { try await watcher.mintToken(scope: .watch) }
        #expect(minting?.status == 403)
        let stranger = server.client()
        let unauthorized = await refusal { try await stranger.createSession(template: "mall") }
        #expect(unauthorized?.status == 401 && unauthorized?.code == "unauthorized")
        #expect(await stranger.access == nil)

        let opened = server.client(token: Self.authToken)
        try await opened.open(sessionID: state.id)
        #expect(await opened.access == nil)  // tokens come with a create only
    }

    /// A token accepted for nine to ten more seconds (until 30 s after its `exp`), time enough to
    /// open both streams on a busy machine: the
    /// stream ends with `expired`; the follower that set a new token carries on without a gap,
    /// the one that did not ends with 401.
    @Test func aStreamWhoseTokenExpiresContinuesWithTheTokenSetSince() async throws {
        let server = try await Self.server()
        let admin = server.client(token: Self.authToken)
        let state = try await admin.createSession(template: "mall")
        let fresh = try await admin.mintToken(scope: .watch)

        let definitions = try AccessKeyDefinition.parse(text: Self.keys)
        let verifier = AccessVerifier(
            keys: try await AccessKeys.make(definitions), audience: "pagerd", maxLifetime: 86_400)
        let now = Int(Date().timeIntervalSince1970)
        let expiring = try #require(verifier.mint(.watch, for: state.id, issuedAt: now - 80, expiresAt: now - 20))

        let renewed = server.client(token: expiring)
        try await renewed.open(sessionID: state.id)
        let stale = server.client(token: expiring)
        try await stale.open(sessionID: state.id)

        let staleEnd = Task {
            var versions: [Int] = []
            do {
                for try await event in try await stale.events(after: nil) { versions.append(event.state.version) }
                return (versions, nil as PagerClientError?)
            } catch let error as PagerClientError {
                return (versions, error)
            } catch {
                Issue.record("expected a PagerClientError, got \(error)")
                return (versions, nil)
            }
        }

        let renewedEvents = Task {
            var seen: [String] = []
            for try await event in try await renewed.events(after: nil) {
                seen.append("\(event.state.version) \(event.kind.rawValue)")
                if event.state.version == 4 { break }
            }
            return seen
        }
        // Both streams open with the expiring token; then the renewed follower gets a new one.
        await waitUntil("both streams are open") { (try? await server.metric("pagerd_event_subscribers")) == 2 }
        renewed.setToken(fresh.token)
        _ = try await admin.next()
        // The stale follower ends once its token expired and its new connection was refused.
        let (versions, error) = await staleEnd.value
        #expect(versions == [1, 2])
        #expect(error?.status == 401 && error?.code == "unauthorized")
        // The renewed follower's stream expired at the same instant; wait for its new connection.
        await waitUntil("the renewed follower is connected again") {
            (try? await server.metric("pagerd_event_subscribers")) == 1
        }
        _ = try await admin.next()
        _ = try await admin.next()
        #expect(try await renewedEvents.value == ["1 state", "2 pageChanged", "3 pageChanged", "4 pageChanged"])
    }

    struct NoToken: Error {}

    /// A refreshToken that counts its calls and answers `token`, or fails when `token` is nil.
    actor Refresher {
        let token: String?
        private(set) var calls = 0
        init(token: String?) { self.token = token }
        func refresh() throws -> String {
            calls += 1
            guard let token else { throw NoToken() }
            return token
        }
    }

    /// A refreshToken that answers `answers` in turn, and counts its calls.
    actor ScriptedRefresher {
        private var answers: [Result<String, PagerClientError>]
        private(set) var calls = 0
        init(_ answers: [Result<String, PagerClientError>]) { self.answers = answers }
        func refresh() throws(PagerClientError) -> String {
            calls += 1
            return try answers.removeFirst().get()
        }
    }

    static func verifier() async throws -> AccessVerifier {
        AccessVerifier(
            keys: try await AccessKeys.make(try AccessKeyDefinition.parse(text: Self.keys)), audience: "pagerd",
            maxLifetime: 86_400)
    }

    /// A token already refused (more than 30 s past its `exp`) when the stream connects: the 401
    /// asks refreshToken once, and the stream opens with its token; a refreshToken that fails, or
    /// answers a token refused too, ends the sequence with 401; one that got no answer is asked
    /// again after the backoff, and one that throws a PagerClientError ends it with that error.
    @Test func aStreamRefused401AsksRefreshTokenOnce() async throws {
        let server = try await Self.server()
        let admin = server.client(token: Self.authToken)
        let state = try await admin.createSession(template: "mall")
        let fresh = try await admin.mintToken(scope: .watch)
        let now = Int(Date().timeIntervalSince1970)
        let refused = try #require(
            try await Self.verifier().mint(.watch, for: state.id, issuedAt: now - 100, expiresAt: now - 40))

        let renewing = Refresher(token: fresh.token)
        let follower = PagerClient(
            baseURL: server.url, token: fresh.token, refreshToken: { try await renewing.refresh() })
        try await follower.open(sessionID: state.id)
        follower.setToken(refused)
        var kinds: [String] = []
        for try await event in try await follower.events() {
            kinds.append("\(event.state.version) \(event.kind.rawValue)")
            break
        }
        #expect(kinds == ["1 state"])
        #expect(await renewing.calls == 1)

        let failing = Refresher(token: nil)
        let stale = PagerClient(baseURL: server.url, token: fresh.token, refreshToken: { try await failing.refresh() })
        try await stale.open(sessionID: state.id)
        stale.setToken(refused)
        let ended = await refusal { for try await _ in try await stale.events() {} }
        #expect(ended?.status == 401 && ended?.code == "unauthorized")
        #expect(ended.map { "\($0)".contains("refreshToken") } == true)
        #expect(await failing.calls == 1)

        let offline = ScriptedRefresher([.failure(.transport(detail: "offline")), .success(fresh.token)])
        let patient = PagerClient(
            baseURL: server.url, token: fresh.token, refreshToken: { try await offline.refresh() })
        try await patient.open(sessionID: state.id)
        patient.setToken(refused)
        for try await event in try await patient.events() {
            #expect(event.state.version == 1 && event.kind == .state)
            break
        }
        #expect(await offline.calls == 2)

        let signedOut = PagerClientError.problem(PagerProblem(status: 403, code: "forbidden", detail: "signed out"))
        let refusing = ScriptedRefresher([.failure(signedOut)])
        let signedOff = PagerClient(
            baseURL: server.url, token: fresh.token, refreshToken: { try await refusing.refresh() })
        try await signedOff.open(sessionID: state.id)
        signedOff.setToken(refused)
        #expect(await refusal { for try await _ in try await signedOff.events() {} } == signedOut)
        #expect(await refusing.calls == 1)

        // A token refreshToken answers that is refused too ends the sequence with that 401.
        let same = Refresher(token: refused)
        let refusedAgain = PagerClient(
            baseURL: server.url, token: fresh.token, refreshToken: { try await same.refresh() })
        try await refusedAgain.open(sessionID: state.id)
        refusedAgain.setToken(refused)
        let again = await refusal { for try await _ in try await refusedAgain.events() {} }
        #expect(again?.status == 401 && again?.code == "unauthorized")
        #expect(await same.calls == 1)
    }

    /// A token accepted for nine to ten more seconds (time enough to connect on a busy machine):
    /// the streams end with `expired`; refreshToken answers a new token, and that follower
    /// carries on from the version reached, nothing missed; a follower whose refreshToken answers
    /// a token refused too ends with that 401, having asked once.
    @Test func anExpiredStreamResumesWithRefreshTokensToken() async throws {
        let server = try await Self.server()
        let admin = server.client(token: Self.authToken)
        let state = try await admin.createSession(template: "mall")
        let fresh = try await admin.mintToken(scope: .watch)
        let verifier = try await Self.verifier()
        let now = Int(Date().timeIntervalSince1970)
        let expiring = try #require(
            verifier.mint(.watch, for: state.id, issuedAt: now - 100, expiresAt: now - 20))
        let refused = try #require(verifier.mint(.watch, for: state.id, issuedAt: now - 100, expiresAt: now - 40))

        let renewing = Refresher(token: fresh.token)
        let follower = PagerClient(baseURL: server.url, token: expiring, refreshToken: { try await renewing.refresh() })
        try await follower.open(sessionID: state.id)
        let following = Task {
            var seen: [(version: Int, kind: String)] = []
            for try await event in try await follower.events() {
                seen.append((event.state.version, event.kind.rawValue))
                if event.state.version == 4 { break }
            }
            return seen
        }
        let refusing = Refresher(token: refused)
        let stale = PagerClient(baseURL: server.url, token: expiring, refreshToken: { try await refusing.refresh() })
        try await stale.open(sessionID: state.id)
        let staleEnd = Task { await refusal { for try await _ in try await stale.events() {} } }

        await waitUntil("both streams are open") { (try? await server.metric("pagerd_event_subscribers")) == 2 }
        #expect(await renewing.calls == 0)  // opened with the expiring token, not a refreshed one
        _ = try await admin.next()
        // The streams expire within ten seconds; each follower asks for a token and connects
        // again: the stale one is refused.
        let ended = await staleEnd.value
        #expect(ended?.status == 401 && ended?.code == "unauthorized")
        #expect(await refusing.calls == 1)
        await waitUntil("the renewed follower asked for its token") { await renewing.calls == 1 }
        await waitUntil("the renewed follower is connected again") {
            (try? await server.metric("pagerd_event_subscribers")) == 1
        }
        _ = try await admin.next()
        _ = try await admin.next()
        let seen = try await following.value
        // Every version, once; a change made while the stream was down may come as the state.
        #expect(seen.map(\.version) == [1, 2, 3, 4])
        #expect(seen.prefix(2).map(\.kind) == ["state", "pageChanged"])
        #expect(await renewing.calls == 1)
    }
}
