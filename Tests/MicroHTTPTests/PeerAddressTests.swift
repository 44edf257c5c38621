import Glibc
import HTTPTypes
import TestSupport
import Testing

@testable import MicroHTTP

@Suite("Peer addresses: copied as bytes, written as text on demand")
struct PeerAddressTests {
    @Test("IPv4 and IPv6 addresses read back as their text", arguments: ["127.0.0.2", "::1", "2001:db8::5", "fe80::1"])
    func roundTrip(text: String) throws {
        let address = try #require(SocketAddress(host: text, port: 80))
        var copy = address
        let peer = copy.withSockaddr { PeerAddress(UnsafeRawPointer($0)) }
        #expect(peer.text == text)
        #expect(PeerAddress().text == "")
    }
}
