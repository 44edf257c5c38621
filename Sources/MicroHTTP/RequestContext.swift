import Synchronization

/// The server's state for one request, from its first header callback to its completion.
///
/// Fields without a lock are touched only by the server thread that owns the connection; the
/// hand-off from the responder's task back to that thread goes through `handoff`.
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
        /// The responder is working; the connection is suspended.
        case waiting
        case ready(HTTPResponse)
        case delivered
    }

    let method: String
    let path: String
    var query: [(name: String, value: String)] = []
    var headers = HTTPHeaders()
    var body: [UInt8] = []
    var bodyOverflow = false
    var phase = Phase.receiving
    /// The streamed body being sent, if any; read by `stop()` from another thread.
    var stream: HTTPResponseStream? {
        get { streamSlot.withLock { $0 } }
        set { streamSlot.withLock { $0 = newValue } }
    }
    private let streamSlot = Mutex<HTTPResponseStream?>(nil)
    var connection: ConnectionBox?
    let handoff = Mutex(Handoff.receiving)

    init(method: String, path: String) {
        self.method = method
        self.path = path
    }

    /// The request value handed to the responder.
    func makeRequest() -> HTTPRequest {
        HTTPRequest(method: method, path: path, query: query, headers: headers, body: body)
    }

    /// Stores the response unless one was already stored; returns whether this call stored it.
    func offer(_ response: HTTPResponse) -> Bool {
        handoff.withLock { handoff in
            guard case .waiting = handoff else { return false }
            handoff = .ready(response)
            return true
        }
    }

    /// Whether the request has not been answered yet (still arriving, or with the responder).
    var isAwaitingResponse: Bool {
        handoff.withLock {
            switch $0 {
            case .receiving, .waiting: true
            case .ready, .delivered: false
            }
        }
    }

    /// Marks the body complete and the responder at work.
    func startWaiting() {
        handoff.withLock { $0 = .waiting }
    }

    /// Marks the request answered without the responder (a refusal queued directly).
    func markAnswered() {
        phase = .answered
        handoff.withLock { $0 = .delivered }
    }

    /// Takes the stored response, if the responder has produced one.
    func takeResponse() -> HTTPResponse? {
        handoff.withLock { handoff in
            guard case .ready(let response) = handoff else { return nil }
            handoff = .delivered
            return response
        }
    }
}

/// Checks the framing headers of a request before any of its body is read.
enum RequestFraming {
    /// The refusal a request's headers call for, or nil when its framing is sound.
    static func refusal(for headers: HTTPHeaders, maxBodyBytes: Int) -> HTTPRefusal? {
        let lengths = headers.values(for: "Content-Length")
        let encodings = headers.values(for: "Transfer-Encoding")
        if !lengths.isEmpty && !encodings.isEmpty {
            return .ambiguousFraming(reason: "Content-Length and Transfer-Encoding were both sent")
        }
        if lengths.count > 1 {
            return .ambiguousFraming(reason: "Content-Length was sent more than once")
        }
        if encodings.count > 1 {
            return .ambiguousFraming(reason: "Transfer-Encoding was sent more than once")
        }
        if let encoding = encodings.first {
            let coding = encoding.trimmingASCIISpaces()
            guard coding.caseInsensitiveEquals("chunked") else {
                return .ambiguousFraming(reason: "Transfer-Encoding '\(coding)' is not supported; only chunked is")
            }
            return .lengthRequired
        }
        if let length = lengths.first {
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

extension String {
    func trimmingASCIISpaces() -> String {
        let bytes = Array(utf8)
        var start = 0, end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
