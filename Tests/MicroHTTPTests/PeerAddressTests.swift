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

    @Test(
        "a client is counted by its IPv4 address or its IPv6 /64; IPv4-mapped counts as IPv4",
        arguments: [
            ("127.0.0.1", "127.0.0.1", "127.0.0.1"),
            ("2001:db8:0:1::5", "2001:db8:0:1::5", "2001:db8:0:1::/64"),
            ("2001:0DB8:0000:0001:ffff:0:0:9", "2001:db8:0:1:ffff::9", "2001:db8:0:1::/64"),
            ("::1", "::1", "::/64"),
            ("fe80::1", "fe80::1", "fe80::/64"),
            ("::ffff:10.0.0.7", "10.0.0.7", "10.0.0.7"),
        ])
    func network(address: String, text: String, network: String) throws {
        let peer = try #require(PeerAddress(text: address))
        #expect(peer.text == text)
        #expect(peer.networkText == network)
        #expect(peer.network == PeerAddress(text: String(network.split(separator: "/")[0])))
    }

    @Test("no address, and text that is no address")
    func none() {
        #expect(PeerAddress().networkText == "")
        #expect(PeerAddress(text: "") == nil)
        #expect(PeerAddress(text: "example.com") == nil)
        #expect(PeerAddress(text: "localhost") == nil)
    }
}
