public import PagerAccess

/// What authorised a request that passed the checks, which the route may need (to mint within
/// its limits, or to end an event stream when its token does).
public enum Authorization: Sendable, Equatable {
    /// Nothing is asked for: neither `authToken` nor access keys are configured.
    case open
    /// The operator's `authToken`, which allows everything.
    case authToken
    /// An access token, with what it grants.
    case token(AccessGrant)

    /// The access token's grant, if an access token authorised the request.
    public var grant: AccessGrant? {
        if case .token(let grant) = self { return grant }
        return nil
    }
}
