public import MicroHTTP

extension HTTPResponder {
    /// The response to `request` as the server would send it: the answer made now, or the one
    /// the work for later makes.
    public func answer(_ request: Request) async -> Response {
        switch respond(to: request) {
        case .now(let response): response
        case .later(let work): await work()
        }
    }
}
