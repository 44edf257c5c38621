public import OpenAPIRuntime

#if canImport(Darwin)
    import OpenAPIURLSession
#else
    import AsyncHTTPClient
    import NIOCore
    import OpenAPIAsyncHTTPClient
#endif

extension PagerClient {
    /// The transport a client uses unless it is given one: URLSession on Apple platforms (the
    /// system's own HTTP stack: its proxy settings, HTTP/3, no extra code in the app), and
    /// AsyncHTTPClient elsewhere (it streams event bodies on Linux, where URLSession's transport
    /// does not). docs/swift-client.md, «The transport», says why.
    ///
    /// With AsyncHTTPClient every client shares one `HTTPClient` (``sharedHTTPClient``).
    public static func defaultTransport() -> any ClientTransport {
        #if canImport(Darwin)
            URLSessionTransport()
        #else
            AsyncHTTPClientTransport(configuration: .init(client: sharedHTTPClient, timeout: .seconds(60)))
        #endif
    }

    #if !canImport(Darwin)
        /// The `HTTPClient` behind the default transport, made once and never shut down (like
        /// AsyncHTTPClient's own `shared`), with the settings of `shared` but these: a connection
        /// that cannot be made fails at once rather than being tried again until the request's
        /// deadline (so an event stream's own backoff decides when to try again), within 10 s;
        /// and a connection silent for 45 s (three of pagerd's heartbeats) is closed, so an event
        /// stream whose peer vanished connects again. A request must have its answer's head
        /// within 60 s; an event stream's body then runs for as long as it is read. Up to 256
        /// connections to one server (AsyncHTTPClient's default is 8): each event stream holds
        /// one for as long as it is followed, and requests must not queue behind them.
        static let sharedHTTPClient: HTTPClient = {
            var configuration = HTTPClient.Configuration.singletonConfiguration
            configuration.timeout = .init(connect: .seconds(10), read: .seconds(45))
            configuration.connectionPool.retryConnectionEstablishment = false
            configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 256
            return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        }()
    #endif
}
