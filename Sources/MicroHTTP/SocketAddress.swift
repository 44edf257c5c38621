#if canImport(Glibc)
    import Glibc
#endif

/// An IPv4 or IPv6 socket address parsed from a literal host.
struct SocketAddress {
    private var storage = sockaddr_storage()
    /// Whether the address is IPv6.
    let isIPv6: Bool

    /// Parses `host` (an IP literal, or `localhost` for 127.0.0.1) with `port`; nil if unparsable.
    init?(host: String, port: Int) {
        guard (0...65535).contains(port) else { return nil }
        let literal = host == "localhost" ? "127.0.0.1" : host
        let unbracketed =
            literal.hasPrefix("[") && literal.hasSuffix("]") ? String(literal.dropFirst().dropLast()) : literal
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, unbracketed, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(UInt16(port).bigEndian)
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: v4, as: sockaddr_in.self) }
            isIPv6 = false
            return
        }
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET6, unbracketed, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(UInt16(port).bigEndian)
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: v6, as: sockaddr_in6.self) }
            isIPv6 = true
            return
        }
        return nil
    }

    /// Calls `body` with a pointer to the address, valid only during the call.
    mutating func withSockaddr<R>(_ body: (UnsafeMutableRawPointer) -> R) -> R {
        withUnsafeMutableBytes(of: &storage) { body($0.baseAddress!) }
    }
}

/// A client's IP address, copied from its socket address when a request arrives (a few bytes,
/// no allocation) and written as text only when asked for.
public struct PeerAddress: Sendable, Hashable {
    private var family: Int32 = 0
    private var bytes: (UInt64, UInt64) = (0, 0)

    /// No address (as for requests made in-process).
    public init() {}

    /// The address of a `sockaddr`, valid only during the call.
    init(_ address: UnsafeRawPointer) {
        // sa_family is the first member of every socket address.
        switch Int32(address.loadUnaligned(as: sa_family_t.self)) {
        case AF_INET:
            family = AF_INET
            let v4 = address.loadUnaligned(as: sockaddr_in.self)
            bytes.0 = UInt64(v4.sin_addr.s_addr)
        case AF_INET6:
            let v6 = address.loadUnaligned(as: sockaddr_in6.self)
            withUnsafeBytes(of: v6.sin6_addr) { raw in
                // ::ffff:0:0/96: ten zero bytes, then two of 0xFF.
                let mapped =
                    raw.loadUnaligned(as: UInt64.self) == 0
                    && raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self) == UInt32(0x0000_FFFF).bigEndian
                if mapped {
                    // An IPv4 client of a dual-stack socket (::ffff:a.b.c.d) is that IPv4 client.
                    family = AF_INET
                    bytes.0 = UInt64(raw.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
                } else {
                    family = AF_INET6
                    bytes = (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                }
            }
        default:
            break
        }
    }

    public static func == (lhs: PeerAddress, rhs: PeerAddress) -> Bool {
        lhs.family == rhs.family && lhs.bytes == rhs.bytes
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(family)
        hasher.combine(bytes.0)
        hasher.combine(bytes.1)
    }

    /// The address of `text` (an IPv4 or IPv6 literal); nil when it is neither.
    public init?(text: String) {
        guard var address = SocketAddress(host: text, port: 0), text != "localhost" else { return nil }
        self = address.withSockaddr { PeerAddress(UnsafeRawPointer($0)) }
    }

    /// The network a client is counted by: an IPv4 address, or an IPv6 address's /64 (one host
    /// or home usually holds a whole /64, and could otherwise rotate through it).
    public var network: PeerAddress {
        var network = self
        if family == AF_INET6 { network.bytes.1 = 0 }
        return network
    }

    /// ``network`` as text: `192.0.2.7`, or `2001:db8:0:1::/64`; empty when there is no address.
    public var networkText: String {
        family == AF_INET6 ? network.text + "/64" : text
    }

    /// The address as text (`127.0.0.1`, `2001:db8::1`); empty when there is none.
    public var text: String {
        guard family == AF_INET || family == AF_INET6 else { return "" }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        var source = bytes
        let written = withUnsafeBytes(of: &source) { raw in
            inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count))
        }
        guard written != nil else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
