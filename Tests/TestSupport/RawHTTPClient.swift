import Foundation
public import HTTPTypes

#if canImport(Glibc)
    import Glibc
#endif

/// A response read off a socket by `RawHTTPConnection`.
public struct RawHTTPResponse: Sendable {
    public var status: Int
    public var headers: HTTPFields
    public var body: [UInt8]

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as a JSON object, or nil.
    public var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
    }
}

/// Errors of the raw test client.
public enum RawHTTPError: Error, CustomStringConvertible {
    case connectFailed(Int32)
    case closed
    /// No byte arrived within the connection's read timeout.
    case timedOut
    case malformed(String)

    public var description: String {
        switch self {
        case .connectFailed(let code): "connect failed: errno \(code)"
        case .closed: "the server closed the connection"
        case .timedOut: "no answer within the read timeout"
        case .malformed(let what): "malformed response: \(what)"
        }
    }
}

/// A blocking HTTP/1.1 client over one TCP connection, able to send anything byte for byte.
///
/// It blocks its thread: call it through `onThread` from async tests, never directly on a Swift
/// concurrency thread, or the server under test may have no thread to answer on.
public final class RawHTTPConnection: @unchecked Sendable {  // used by one thread at a time
    private let fd: Int32
    private var pending: [UInt8] = []

    /// Connects to 127.0.0.1:`port` from `source` (another loopback address such as 127.0.0.2,
    /// to act as a second client; by default the system's choice); reads time out after
    /// `timeout` seconds.
    public init(port: Int, from source: String? = nil, timeout: Int = 15) throws {
        // The descriptor is stored only once connected: were it stored before a failure, the
        // object's deinit would close it a second time, and by then the number may be another
        // test's socket.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var tv = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        if let source { try Self.call(bind, fd, address: source, port: 0) }
        try Self.call(connect, fd, address: "127.0.0.1", port: port)
        self.fd = fd
    }

    /// Calls `function` (`bind` or `connect`) on `fd` with the IPv4 `address` and `port`; on
    /// failure closes `fd` and throws.
    private static func call(
        _ function: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32, _ fd: Int32, address: String, port: Int
    ) throws {
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = in_port_t(UInt16(port).bigEndian)
        socketAddress.sin_addr.s_addr = inet_addr(address)
        let result = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                function(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if result != 0 {
            let code = errno
            Glibc.close(fd)
            throw RawHTTPError.connectFailed(code)
        }
    }

    deinit { Glibc.close(fd) }

    /// Sends raw bytes.
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { throw RawHTTPError.closed }
            offset += n
        }
    }

    /// Sends text as UTF-8.
    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Sends a request with a Content-Length (when it has a body) and reads the response.
    public func request(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) throws -> RawHTTPResponse {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        try send(Array(head.utf8) + (body ?? []))
        return try readResponse(method: method)
    }

    /// Reads one response: head, then a body framed by Content-Length, chunked, or the close.
    public func readResponse(method: String = "GET") throws -> RawHTTPResponse {
        let head = try readHead()
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw RawHTTPError.malformed(head) }
        var headers = HTTPFields()
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":"), let name = HTTPField.Name(String(line[..<colon])) else {
                throw RawHTTPError.malformed(line)
            }
            headers.append(
                HTTPField(
                    name: name, value: String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
        }
        var body: [UInt8] = []
        if method == "HEAD" || status == 204 || status == 304 || (100..<200).contains(status) {
            body = []
        } else if headers["Transfer-Encoding"]?.lowercased() == "chunked" {
            while true {
                let sizeLine = try readLine()
                guard let size = Int(sizeLine.split(separator: ";")[0], radix: 16) else {
                    throw RawHTTPError.malformed(sizeLine)
                }
                if size == 0 { _ = try readLine(); break }
                body += try readExactly(size)
                _ = try readExactly(2)
            }
        } else if let length = headers["Content-Length"].flatMap({ Int($0) }) {
            body = try readExactly(length)
        } else {
            body = try readToEnd()
        }
        return RawHTTPResponse(status: status, headers: headers, body: body)
    }

    /// Reads the head of a chunked response and returns its headers, leaving the body unread.
    public func readHeadOnly() throws -> (status: Int, headers: HTTPFields) {
        let head = try readHead()
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw RawHTTPError.malformed(head) }
        var headers = HTTPFields()
        for line in lines where !line.isEmpty {
            if let colon = line.firstIndex(of: ":"), let name = HTTPField.Name(String(line[..<colon])) {
                headers.append(
                    HTTPField(
                        name: name,
                        value: String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
            }
        }
        return (status, headers)
    }

    /// Reads one chunk of a chunked body; nil at the last chunk.
    public func readChunk() throws -> [UInt8]? {
        let sizeLine = try readLine()
        guard let size = Int(sizeLine.split(separator: ";")[0], radix: 16) else {
            throw RawHTTPError.malformed(sizeLine)
        }
        if size == 0 { _ = try readLine(); return nil }
        let chunk = try readExactly(size)
        _ = try readExactly(2)
        return chunk
    }

    /// Whether the server has closed its side: a read returns end of file.
    public func isClosedByServer() -> Bool {
        if !pending.isEmpty { return false }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, 0) == 0
    }

    private func fill() throws {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n < 0, errno == EAGAIN || errno == EWOULDBLOCK { throw RawHTTPError.timedOut }
        if n <= 0 { throw RawHTTPError.closed }
        pending += buffer[0..<n]
    }

    private func readHead() throws -> String {
        while true {
            if let end = pending.firstRange(of: [13, 10, 13, 10]) {
                let head = String(decoding: pending[..<end.lowerBound], as: UTF8.self)
                pending.removeSubrange(..<end.upperBound)
                return head
            }
            try fill()
        }
    }

    private func readLine() throws -> String {
        while true {
            if let end = pending.firstRange(of: [13, 10]) {
                let line = String(decoding: pending[..<end.lowerBound], as: UTF8.self)
                pending.removeSubrange(..<end.upperBound)
                return line
            }
            try fill()
        }
    }

    private func readExactly(_ count: Int) throws -> [UInt8] {
        while pending.count < count { try fill() }
        defer { pending.removeSubrange(..<count) }
        return Array(pending[..<count])
    }

    /// Every byte the server sends until it closes the connection (or the read times out).
    public func readAll() throws -> [UInt8] { try readToEnd() }

    private func readToEnd() throws -> [UInt8] {
        while true {
            do { try fill() } catch { break }
        }
        defer { pending = [] }
        return pending
    }
}

/// Runs blocking work on its own thread and awaits its result without tying up the caller's
/// concurrency thread.
public func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try work() })
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
}

extension HTTPFields {
    /// The value of the field named `name` as text (all its values joined by commas), for tests
    /// that name fields the way a client writes them.
    public subscript(_ name: String) -> String? {
        guard let fieldName = HTTPField.Name(name) else { return nil }
        return self[fieldName]
    }
}
