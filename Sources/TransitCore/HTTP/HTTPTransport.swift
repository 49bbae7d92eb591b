import Foundation

/// The transport seam: one request in, one response out. URLSession in production, a
/// recording directory with `--offline`, a stub in unit tests.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest, timeout: TimeInterval) async throws(TransitError) -> HTTPResponse
}
