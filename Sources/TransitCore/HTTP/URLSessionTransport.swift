import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTP over URLSession. One long-lived session for the whole process: short-lived sessions
/// crash on Linux (PITFALLS.md §1).
public struct URLSessionTransport: HTTPTransport {
    static let session: URLSession = {
        let config = URLSessionConfiguration.ephemeral
        config.requestCachePolicy = .reloadIgnoringLocalCacheData
        config.urlCache = nil
        config.httpMaximumConnectionsPerHost = 16
        config.timeoutIntervalForRequest = 60
        return URLSession(configuration: config)
    }()

    let userAgent: String

    public init(userAgent: String = "transit/\(TransitVersion.current)") {
        self.userAgent = userAgent
    }

    public func send(_ request: HTTPRequest, timeout: TimeInterval) async throws(TransitError) -> HTTPResponse {
        guard let url = URL(string: request.url), url.scheme == "http" || url.scheme == "https" else {
            throw .usage("not an http(s) URL: \(request.redactedURL)", hint: "check TRANSIT_\(request.provider.uppercased())_BASE_URL")
        }
        let headers = request.headers.merging(["User-Agent": userAgent]) { mine, _ in mine }
        let shown = request.redactedURL
        do {
            // timeoutInterval is an idle timeout; race the whole exchange against the clock so
            // a server that trickles bytes cannot hold us past --timeout either.
            let (data, response) = try await withThrowingTaskGroup(of: (Data, URLResponse)?.self) { group in
                group.addTask {
                    var urlRequest = URLRequest(url: url)
                    urlRequest.httpMethod = "GET"
                    // URLSession on Linux rounds this idle timeout down to whole seconds (0.5 s
                    // fails at once); the race below enforces the real deadline.
                    urlRequest.timeoutInterval = timeout + 5
                    for (name, value) in headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
                    return try await Self.session.data(for: urlRequest)
                }
                group.addTask {
                    try await Task.sleep(nanoseconds: UInt64(timeout * 1_000_000_000))
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let result = first else {
                    throw URLError(.timedOut)
                }
                return result
            }
            guard let http = response as? HTTPURLResponse else {
                throw TransitError.network(url: shown, reason: "not an HTTP response")
            }
            var headers: [String: String] = [:]
            for (key, value) in http.allHeaderFields {
                if let k = key as? String, let v = value as? String { headers[k.lowercased()] = v }
            }
            return HTTPResponse(status: http.statusCode, headers: headers, body: data)
        } catch let error as TransitError {
            throw error
        } catch let error as URLError {
            if error.code == .timedOut { throw .timeout(url: shown, seconds: timeout) }
            throw .network(url: shown, reason: Self.describe(error))
        } catch is CancellationError {
            throw .network(url: shown, reason: "cancelled")
        } catch {
            throw .network(url: shown, reason: String(describing: error))
        }
    }

    static func describe(_ error: URLError) -> String {
        switch error.code {
        case .cannotConnectToHost: return "connection refused"
        case .cannotFindHost, .dnsLookupFailed: return "host not found"
        case .networkConnectionLost: return "connection lost before the answer was complete"
        case .notConnectedToInternet: return "no network"
        case .badServerResponse: return "the server's answer is not valid HTTP"
        case .cancelled: return "cancelled"
        default:
            let text = error.localizedDescription
            return text.isEmpty ? "error \(error.code.rawValue)" : text
        }
    }
}

public enum TransitVersion {
    public static let current = "0.1.0"
}
