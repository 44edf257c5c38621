import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Adds `Authorization: Bearer <token>` to every request while the client has a token, and
/// sends `If-Match` as the façade wrote it.
///
/// The generated code writes a header parameter as a URI component, so the entity tag `"7"`
/// would leave as `%227%22`, which names no version; this middleware decodes it back.
struct HeaderMiddleware: ClientMiddleware {
    let token: TokenBox

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if let value = token.value { request.headerFields[.authorization] = "Bearer \(value)" }
        if let tag = request.headerFields[.ifMatch], let decoded = tag.removingPercentEncoding {
            request.headerFields[.ifMatch] = decoded
        }
        return try await next(request, body, baseURL)
    }
}

/// Turns every answer of 400 or more into a thrown ``PagerClientError`` before the generated code
/// reads it: a problem document becomes `.problem` (with the current version from the `ETag` of a
/// 412, and the `Retry-After` of a 503), anything else `.unexpectedResponse`. A success that is not what the operation answers
/// (see ``checkSuccess(_:body:operationID:)``) is `.unexpectedResponse` too, with its status. The
/// generated operations then only ever see pagerd's successes, so the façade needs no switch over
/// each operation's statuses.
struct ProblemMiddleware: ClientMiddleware {
    /// The most of an error body read (pagerd's problems are a few hundred bytes).
    static let bodyLimit = 64 * 1024

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        guard response.status.code >= 400 else {
            try await Self.checkSuccess(response, body: responseBody, operationID: operationID)
            return (response, responseBody)
        }
        // A larger body (a proxy's page) is cut, not turned into a transport failure that would
        // hide the status.
        let bytes = try await Self.start(of: responseBody, limit: Self.bodyLimit)
        let mediaType = response.headerFields[.contentType] ?? ""
        guard mediaType.hasPrefix("application/problem+json"),
            var problem = try? JSONDecoder().decode(PagerProblem.self, from: bytes)
        else {
            let text = String(decoding: bytes.prefix(200), as: UTF8.self)
            throw PagerClientError.unexpectedResponse(status: response.status.code, detail: text)
        }
        problem.currentVersion = response.headerFields[.eTag].flatMap(Self.version(fromETag:))
        problem.retryAfter = response.headerFields[.retryAfter].flatMap(Self.seconds(fromRetryAfter:))
        throw PagerClientError.problem(problem)
    }

    /// The seconds a `Retry-After` in delta-seconds names (the form pagerd sends); nil for a date.
    static func seconds(fromRetryAfter value: String) -> Int? {
        let digits = value.trimmingCharacters(in: .whitespaces)
        guard (1...9).contains(digits.count), digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(digits)
    }

    /// The operations whose success is not a JSON document, and what it is instead.
    private static let otherSuccesses: [String: (status: Int, mediaType: String?)] = [
        "deleteSession": (204, nil), "streamEvents": (200, "text/event-stream"),
    ]

    /// Throws `.unexpectedResponse` for an answer below 400 that is not the operation's success: a
    /// 204 to a deletion, an event stream, else a JSON document with a body (so a proxy's 200
    /// page, a 204 or an empty body where pagerd sends a document, or a redirect not followed
    /// keeps its status, where the generated code would report no answer at all).
    static func checkSuccess(_ response: HTTPResponse, body: HTTPBody?, operationID: String) async throws {
        let status = response.status.code
        let mediaType = response.headerFields[.contentType] ?? ""
        let fits: Bool
        if let other = otherSuccesses[operationID] {
            fits = status == other.status && other.mediaType.map { mediaType.hasPrefix($0) } ?? true
        } else {
            let empty: Bool
            switch body?.length {
            case nil: empty = true
            case .known(let length): empty = length == 0
            case .unknown: empty = false
            }
            fits = (200..<300).contains(status) && status != 204 && mediaType.contains("json") && !empty
        }
        guard !fits else { return }
        let text = status == 204 ? "" : String(decoding: try await start(of: body, limit: 200), as: UTF8.self)
        let what = mediaType.isEmpty ? "no body" : mediaType
        throw PagerClientError.unexpectedResponse(
            status: status, detail: text.isEmpty ? "\(what), not pagerd's answer" : text)
    }

    /// The first `limit` bytes of `body` (none without one).
    static func start(of body: HTTPBody?, limit: Int) async throws -> Data {
        var bytes = Data()
        guard let body else { return bytes }
        for try await chunk in body {
            bytes.append(contentsOf: chunk.prefix(limit - bytes.count))
            if bytes.count >= limit { break }
        }
        return bytes
    }

    /// The version an `ETag` names: pagerd's tags are the version in quotes (`"7"`), which a
    /// proxy that compresses may have made weak (`W/"7"`).
    static func version(fromETag tag: String) -> Int? {
        let opaque = tag.hasPrefix("W/") ? tag.dropFirst(2) : Substring(tag)
        guard opaque.count >= 3, opaque.first == "\"", opaque.last == "\"" else { return nil }
        return Int(opaque.dropFirst().dropLast())
    }
}

/// The bearer token, shared by the client and its middleware, replaceable while requests run
/// (an access token expires and the app fetches a new one). A lock guards the one value.
final class TokenBox: @unchecked Sendable {
    // @unchecked: `stored` is read and written only under `lock`.
    private let lock = NSLock()
    private var stored: String?

    init(_ value: String?) { stored = value }

    var value: String? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
