import OpenAPIRuntime

/// Why a call of ``PagerClient`` failed: every method throws this and nothing else.
public enum PagerClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// pagerd refused the request with a problem document (docs/api.md, «Errors»).
    case problem(PagerProblem)
    /// An answer that is not one of pagerd's: a status the contract does not list for the
    /// operation, or a body that does not decode (a proxy's error page, say).
    case unexpectedResponse(status: Int, detail: String)
    /// No answer: the connection could not be made or was lost.
    case transport(detail: String)
    /// The client holds no session yet: create or open one first.
    case noSession
    /// The calling task was cancelled.
    case cancelled
    /// ``PagerClient/predictScroll(_:)`` was called on a client made without a predictor, or
    /// found the session's settings changed again after each of three reads.
    case predictionUnavailable

    /// The HTTP status of a refusal or an unexpected answer.
    public var status: Int? {
        switch self {
        case .problem(let problem): problem.status
        case .unexpectedResponse(let status, _): status
        default: nil
        }
    }

    /// The problem's stable code (`version_mismatch`, `invalid_request`, …), for a refusal.
    public var code: String? {
        if case .problem(let problem) = self { problem.code } else { nil }
    }

    /// The request member at fault (`tabBar.indicator.style`), when the problem names one.
    public var field: String? {
        if case .problem(let problem) = self { problem.field } else { nil }
    }

    /// The seconds a refusal asked to wait before trying again (its `Retry-After`; pagerd's
    /// 503s send one).
    public var retryAfter: Int? {
        if case .problem(let problem) = self { problem.retryAfter } else { nil }
    }

    /// One line for people.
    public var description: String {
        switch self {
        case .problem(let problem):
            "\(problem.status) \(problem.code)\(problem.field.map { " (\($0))" } ?? ""): \(problem.detail)"
        case .unexpectedResponse(let status, let detail): "unexpected answer \(status): \(detail)"
        case .transport(let detail): "no answer: \(detail)"
        case .noSession: "the client holds no session: create or open one first"
        case .cancelled: "cancelled"
        case .predictionUnavailable: "the client has no scroll predictor"
        }
    }

    /// The error any failure of a call becomes: a problem the middleware decoded, a
    /// cancellation, or the transport's or decoder's error described.
    static func from(_ error: any Error) -> PagerClientError {
        switch error {
        case let error as PagerClientError: return error
        case let error as ClientError:
            if error.underlyingError is ClientError { return .transport(detail: error.causeDescription) }
            return from(error.underlyingError)
        case is CancellationError: return .cancelled
        case is DecodingError: return .unexpectedResponse(status: 200, detail: "\(error)")
        case is EncodingError:
            // A value JSON cannot carry (a NaN or infinite number): refused here, as pagerd would.
            return .problem(
                PagerProblem(
                    status: 400, code: ProblemCode.invalidRequest.rawValue,
                    detail: "The request was not sent: a value JSON cannot carry (\(error))."))
        default: return Task.isCancelled ? .cancelled : .transport(detail: "\(error)")
        }
    }
}

/// A refusal by pagerd: its RFC 9457 problem document.
public struct PagerProblem: Sendable, Hashable, Decodable {
    /// The HTTP status.
    public var status: Int
    /// The stable code to match on (`version_mismatch`); see ``knownCode``.
    public var code: String
    /// The request member at fault, as a path into the body, when one member is.
    public var field: String?
    /// A sentence for people; it may change between versions.
    public var detail: String
    /// The version the session is at, from the `ETag` of a `412 version_mismatch`.
    public var currentVersion: Int?
    /// The seconds to wait before trying again, from the answer's `Retry-After` (in seconds; a
    /// date there is not read).
    public var retryAfter: Int?

    /// Creates a problem.
    public init(
        status: Int, code: String, field: String? = nil, detail: String, currentVersion: Int? = nil,
        retryAfter: Int? = nil
    ) {
        self.status = status
        self.code = code
        self.field = field
        self.detail = detail
        self.currentVersion = currentVersion
        self.retryAfter = retryAfter
    }

    /// The code as the contract's enumeration; nil for a code newer than this client.
    public var knownCode: ProblemCode? { ProblemCode(rawValue: code) }

    private enum CodingKeys: String, CodingKey {
        case status, code, field, detail
    }

    /// Decodes the members of a problem document that the client uses; a code the contract does
    /// not list yet is kept as its text.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        status = try container.decode(Int.self, forKey: .status)
        code = try container.decode(String.self, forKey: .code)
        field = try container.decodeIfPresent(String.self, forKey: .field)
        detail = try container.decodeIfPresent(String.self, forKey: .detail) ?? ""
        currentVersion = nil
        retryAfter = nil
    }
}
