/// The key a client's subscriptions are counted under for `maxSubscribersPerAddress`: an IPv4
/// address as it is, and an IPv6 address by its /64 prefix, since one client commonly holds a
/// whole /64 and could otherwise rotate through it. IPv4-mapped IPv6 addresses count as IPv4.
enum ClientAddress {
    static func subscriberKey(for address: String) -> String {
        guard address.contains(":") else { return address }
        if address.lowercased().hasPrefix("::ffff:"), address.contains(".") {
            return String(address.dropFirst("::ffff:".count))
        }
        let halves = address.split(separator: "::", maxSplits: 1, omittingEmptySubsequences: false)
        let head = halves[0].split(separator: ":").map(String.init)
        let tail = halves.count > 1 ? halves[1].split(separator: ":").map(String.init) : []
        let missing = max(0, 8 - head.count - tail.count)
        let groups = head + Array(repeating: "0", count: halves.count > 1 ? missing : 0) + tail
        guard groups.count == 8 else { return address }  // not an IPv6 literal: count it as given
        let prefix = groups.prefix(4).map { group -> String in
            let trimmed = group.lowercased().drop { $0 == "0" }
            return trimmed.isEmpty ? "0" : String(trimmed)
        }
        return prefix.joined(separator: ":") + "::/64"
    }
}
