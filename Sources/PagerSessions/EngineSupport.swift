public import PagerModel

/// A source of the current time in seconds, injected so expiry can be tested without sleeping.
public protocol EngineClock: Sendable {
    /// Seconds since an arbitrary fixed origin; never decreases.
    func now() -> Double
}

/// The process's monotonic clock.
public struct SystemEngineClock: EngineClock {
    private let origin = ContinuousClock.now

    /// Creates a clock whose origin is now.
    public init() {}

    public func now() -> Double {
        let elapsed = ContinuousClock.now - origin
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}

/// Session ids: 16 random bytes as unpadded base64url (22 characters, 128 random bits).
public enum SessionID {
    /// A new id from the system's cryptographically secure generator.
    public static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// A new id from `generator`.
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for _ in 0..<2 {
            let word = generator.next()
            for shift in stride(from: 0, to: 64, by: 8) {
                bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
            }
        }
        return base64URL(bytes)
    }

    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func base64URL(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        var index = 0
        while index + 3 <= bytes.count {
            let n = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            for shift in [18, 12, 6, 0] { output.append(alphabet[Int((n >> UInt32(shift)) & 63)]) }
            index += 3
        }
        let rest = bytes.count - index
        if rest > 0 {
            var n = UInt32(bytes[index]) << 16
            if rest == 2 { n |= UInt32(bytes[index + 1]) << 8 }
            let characters = rest == 1 ? [18, 12] : [18, 12, 6]
            for shift in characters { output.append(alphabet[Int((n >> UInt32(shift)) & 63)]) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Whether `text` has the form of a session id; anything else cannot name a session.
    public static func isWellFormed(_ text: String) -> Bool {
        (22...64).contains(text.utf8.count) && text.utf8.allSatisfy { alphabet.contains($0) }
    }
}

/// The engine's limits.
public struct EngineLimits: Sendable, Equatable {
    /// Live sessions at once.
    public var maxSessions: Int
    /// Seconds without a request after which a session is evicted.
    public var idleTTL: Double
    /// Limits on each pager.
    public var pager: PagerLimits
    /// Event-stream subscribers at once, across all sessions.
    public var maxSubscribers: Int
    /// Event-stream subscribers of one session at once.
    public var maxSubscribersPerSession: Int
    /// Event-stream subscribers from one client address at once.
    public var maxSubscribersPerAddress: Int
    /// The most session data all sessions together may hold, as ``Pager/storedBytes`` counts it.
    public var memoryBudgetBytes: Int

    /// The default ``memoryBudgetBytes``: 512 MiB.
    public static let defaultMemoryBudgetBytes = 512 << 20

    /// Creates limits; the defaults are the spec's.
    public init(
        maxSessions: Int = 100_000, idleTTL: Double = 1800, pager: PagerLimits = PagerLimits(),
        maxSubscribers: Int = 512,
        maxSubscribersPerSession: Int = 32, maxSubscribersPerAddress: Int = 32,
        memoryBudgetBytes: Int = EngineLimits.defaultMemoryBudgetBytes
    ) {
        self.maxSessions = maxSessions
        self.idleTTL = idleTTL
        self.pager = pager
        self.maxSubscribers = maxSubscribers
        self.maxSubscribersPerSession = maxSubscribersPerSession
        self.maxSubscribersPerAddress = maxSubscribersPerAddress
        self.memoryBudgetBytes = memoryBudgetBytes
    }
}

/// Which versions a conditional request accepts (from `If-Match`).
public enum VersionPrecondition: Sendable, Equatable {
    /// `*`: any current version.
    case any
    /// One of these versions; an empty list matches nothing.
    case oneOf([Int])

    /// Whether `version` satisfies the precondition.
    public func accepts(_ version: Int) -> Bool {
        switch self {
        case .any: true
        case .oneOf(let versions): versions.contains(version)
        }
    }
}

/// Why the engine refused a request. Nothing changes when one is thrown.
public enum EngineError: Error, Sendable, Equatable {
    /// No live session has this id.
    case sessionNotFound
    /// No template has this name.
    case templateNotFound(String)
    /// The session limit is reached.
    case atCapacity(limit: Int)
    /// A subscriber limit is reached: of the server, of the session or of the client's address.
    case tooManySubscribers(limit: Int, scope: SubscriberScope)
    /// Storing the change would take all sessions' data past the memory budget.
    case memoryBudgetExceeded(limit: Int)
    /// `If-Match` named another version; the current one is given.
    case versionMismatch(current: Int)
    /// The pager refused the definition or command.
    case pager(PagerError)
}

/// What a subscriber limit counts.
public enum SubscriberScope: String, Sendable, Equatable {
    /// Every subscriber of the server.
    case server
    /// The subscribers of one session.
    case session
    /// The subscribers from one client address.
    case address
}
