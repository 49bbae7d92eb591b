import Foundation
import TransitSupport

/// The transport seam: one request in, one response out. URLSession in production, a
/// recording directory with `--offline`, a stub in unit tests.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest, timeout: TimeInterval) async throws(TransitError) -> HTTPResponse
    /// The same, reporting bytes received and redirect hops as they happen.
    func send(_ request: HTTPRequest, timeout: TimeInterval, events: TransferEvents) async throws(TransitError) -> HTTPResponse
}

extension HTTPTransport {
    public func send(_ request: HTTPRequest, timeout: TimeInterval, events: TransferEvents) async throws(TransitError) -> HTTPResponse {
        try await send(request, timeout: timeout)
    }
}

/// A transport that never sends: what is not in the cache is not known (shell completion).
public struct CacheOnlyTransport: HTTPTransport {
    public init() {}

    public func send(_ request: HTTPRequest, timeout: TimeInterval) async throws(TransitError) -> HTTPResponse {
        throw .network(url: request.redactedURL, reason: "not in the cache, and completion never asks the network")
    }
}
