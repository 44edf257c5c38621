public import HTTPTypes

/// One HTTP request, copied out of the server's C memory before it is handed to a responder.
/// Method and header fields are swift-http-types values.
public struct Request: Sendable {
    /// The request method, for example `.get`.
    public var method: HTTPRequest.Method
    /// The decoded path, without the query string, for example `/v1/sessions`.
    public var path: String
    /// The decoded query arguments, in order; a key without `=` has an empty value.
    public var query: [(name: String, value: String)]
    /// The header fields, in the order received; names compare case-insensitively.
    public var headers: HTTPFields
    /// The complete body; empty when the request had none.
    public var body: [UInt8]
    /// The client's IP address (the peer of the socket; a proxy's address behind one).
    public var peer: PeerAddress

    /// The client's IP address as text, written when asked for.
    public var remoteAddress: String { peer.text }

    /// Creates a request value; tests use it to call a responder without a socket.
    public init(
        method: HTTPRequest.Method,
        path: String,
        query: [(name: String, value: String)] = [],
        headers: HTTPFields = [:],
        body: [UInt8] = [],
        peer: PeerAddress = PeerAddress()
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.peer = peer
    }

    /// The first value of the query argument `name`, if present.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }
}
