import JSON
import Locking
import PagerAPI
import PagerAccess
import PagerSessions
import TestSupport

/// A wall clock tests move by hand.
final class ManualWallClock: AccessClock {
    private let seconds: Locked<Double>

    init(_ start: Double) { seconds = Locked(start) }

    func now() -> Double { seconds.withLock { $0 } }

    func advance(by delta: Double) { seconds.withLock { $0 += delta } }
}

/// An API tester with access keys (``AccessTestKeys/standard``, so `hs` signs), `authToken`
/// `operator-token`, a manual wall clock, and a forge for tokens.
struct AccessTester {
    static let start = 1_700_000_000.0
    static let authToken = "operator-token"

    let api: APITester
    let clock: ManualWallClock
    let forge: TokenForge
    let verifier: AccessVerifier

    init(
        keys: String = AccessTestKeys.standard, maxLifetime: Int = 86_400, authToken: String? = AccessTester.authToken,
        limits: EngineLimits = EngineLimits()
    ) async throws {
        clock = ManualWallClock(Self.start)
        verifier = AccessVerifier(
            keys: try await AccessTestKeys.keys(keys), audience: "pagerd", maxLifetime: maxLifetime)
        forge = try await TokenForge.make()
        api = try APITester(
            limits: limits,
            options: APIOptions(authToken: authToken, accessVerifier: verifier, accessClock: clock))
    }

    /// A token signed with `hs` for `scope` on `sub`, living `seconds` from now.
    func token(_ scope: String, _ sub: String? = "*", for seconds: Double = 600) -> String {
        forge.token(scope: scope, sub: sub, exp: clock.now() + seconds)
    }

    /// `Authorization: Bearer <token>`.
    static func bearer(_ token: String) -> [(String, String)] { [("Authorization", "Bearer " + token)] }

    /// Creates a session with `authToken` and returns its id.
    func create(_ json: String = #"{"template": "media"}"#) async throws -> String {
        let reply = await api.send("POST", "/v1/sessions", json: json, headers: Self.bearer(Self.authToken))
        guard reply.status == 201, let id = reply["id"]?.stringValue else {
            throw RawHTTPError.malformed(
                "create failed: \(reply.status) \(String(decoding: reply.body, as: UTF8.self))")
        }
        return id
    }
}
