import Foundation
import HTTPTypes
import Synchronization

/// The server's state for one request, from its first header callback to its completion.
///
/// Fields without a lock are touched only by the server thread that owns the connection; the
/// hand-off from the responder's task back to that thread goes through `shared`.
final class RequestContext: @unchecked Sendable {
    enum Phase {
        /// Collecting the body.
        case receiving
        /// Waiting for the responder; the connection is suspended.
        case processing
        /// A response has been queued.
        case answered
    }

    enum Handoff {
        /// Headers or body still arriving.
        case receiving
        /// The responder is running and the connection is not suspended (the access handler is
        /// still on the stack, waiting to see whether the answer comes inline).
        case waiting
        /// The responder is running and the connection is suspended.
        case suspended
        /// The answer is stored, not yet queued.
        case ready(Response)
        /// The answer has been queued.
        case delivered
    }

    let method: HTTPRequest.Method
    let path: String
    var peer = PeerAddress()
    var query: [(name: String, value: String)] = []
    var headers = HTTPFields()
    var body: [UInt8] = []
    var bodyOverflow = false
    var phase = Phase.receiving
    /// Whether the request is in the server's `active` table; read and written only on the
    /// server thread that serves the connection (and in the completion callback, which runs there
    /// too or after that thread has ended).
    var isTracked = false
    /// The streamed body being sent, if any; read by `stop()` from another thread.
    var stream: HTTPResponseStream? {
        get { withShared { $0.stream } }
        set { withShared { $0.stream = newValue } }
    }
    var connection: ConnectionBox?

    /// What other threads read or write, only while holding `lock`.
    private struct Shared {
        var handoff = Handoff.receiving
        var stream: HTTPResponseStream?
    }
    private var shared = Shared()
    /// Guards `shared`; borrowed from the server's ``LockStripes``, so other requests may hold
    /// the same lock at other times.
    private let lock: NSLock

    /// Runs `body` on the shared state under the lock.
    private func withShared<Result>(_ body: (inout Shared) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&shared)
    }

    /// Runs `body` on the hand-off state under the lock.
    private func withHandoff<Result>(_ body: (inout Handoff) -> Result) -> Result {
        withShared { body(&$0.handoff) }
    }

    init(method: HTTPRequest.Method, path: String, lock: NSLock) {
        self.method = method
        self.path = path
        self.lock = lock
    }

    /// The request value handed to the responder.
    func makeRequest() -> Request {
        Request(
            method: method, path: path, query: query, headers: headers, body: body, peer: peer)
    }

    /// Stores the response unless one was already stored, and returns whether it did. When the
    /// connection was suspended waiting for it, `resume` is called, under the same lock, so once
    /// anyone has seen the answer stored the connection has been resumed.
    func offer(_ response: Response, resume: () -> Void) -> Bool {
        withHandoff { handoff in
            switch handoff {
            case .waiting:
                handoff = .ready(response)
                return true
            case .suspended:
                handoff = .ready(response)
                resume()
                return true
            case .receiving, .ready, .delivered:
                return false
            }
        }
    }

    /// Called by the access handler once the responder's task has run as far as it could inline:
    /// takes the answer if it is already there, otherwise suspends the connection (under the
    /// lock, so an answer arriving concurrently always finds it suspended and resumes it).
    func takeResponseOrSuspend(_ suspend: () -> Void) -> Response? {
        withHandoff { handoff in
            switch handoff {
            case .ready(let response):
                handoff = .delivered
                return response
            case .waiting:
                suspend()
                handoff = .suspended
                return nil
            case .receiving, .suspended, .delivered:
                return nil
            }
        }
    }

    /// Takes the stored response after a resume.
    func takeResponse() -> Response? {
        withHandoff { handoff in
            guard case .ready(let response) = handoff else { return nil }
            handoff = .delivered
            return response
        }
    }

    /// Whether the request has not been answered yet (still arriving, or with the responder).
    var isAwaitingResponse: Bool {
        withHandoff {
            switch $0 {
            case .receiving, .waiting, .suspended: true
            case .ready, .delivered: false
            }
        }
    }

    /// Marks the body complete and the responder at work.
    func startWaiting() {
        withHandoff { $0 = .waiting }
    }

    /// Whether the connection is suspended waiting for the responder.
    var isSuspendedForResponse: Bool {
        withHandoff { if case .suspended = $0 { true } else { false } }
    }

    /// Marks the request answered without the responder (a refusal queued directly).
    func markAnswered() {
        phase = .answered
        withHandoff { $0 = .delivered }
    }

}

/// Checks the framing headers of a request before any of its body is read.
enum RequestFraming {
    /// The refusal a request's headers call for, or nil when its framing is sound.
    static func refusal(for headers: HTTPFields, maxBodyBytes: Int) -> HTTPRefusal? {
        // One pass over the fields, keeping the first of each and a count, with no lists made.
        var lengthCount = 0
        var encodingCount = 0
        var length: String?
        var encoding: String?
        for field in headers {
            if field.name == .contentLength {
                lengthCount += 1
                if length == nil { length = field.value }
            } else if field.name == .transferEncoding {
                encodingCount += 1
                if encoding == nil { encoding = field.value }
            }
        }
        if lengthCount > 0 && encodingCount > 0 {
            return .ambiguousFraming(reason: "Content-Length and Transfer-Encoding were both sent")
        }
        if lengthCount > 1 {
            return .ambiguousFraming(reason: "Content-Length was sent more than once")
        }
        if encodingCount > 1 {
            return .ambiguousFraming(reason: "Transfer-Encoding was sent more than once")
        }
        if let encoding {
            let coding = encoding.trimmingASCIISpaces()
            guard coding.lowercased() == "chunked" else {
                return .ambiguousFraming(reason: "Transfer-Encoding '\(coding)' is not supported; only chunked is")
            }
            return .lengthRequired
        }
        if let length {
            let digits = length.trimmingASCIISpaces()
            guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                return .ambiguousFraming(reason: "Content-Length '\(digits)' is not a decimal number")
            }
            // A length too large for Int is certainly over the cap.
            if Int(digits).map({ $0 > maxBodyBytes }) ?? true {
                return .bodyTooLarge(limit: maxBodyBytes)
            }
        }
        return nil
    }
}
