import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTP over URLSession. One long-lived session for the whole process: short-lived sessions
/// crash on Linux (PITFALLS.md §1).
public struct URLSessionTransport: HTTPTransport {
    public static let shared: URLSession = makeSession()

    /// A session configured as transit wants it. Keep it for the life of the process.
    public static func makeSession() -> URLSession {
        let config = URLSessionConfiguration.ephemeral
        config.requestCachePolicy = .reloadIgnoringLocalCacheData
        config.urlCache = nil
        config.httpMaximumConnectionsPerHost = 16
        config.timeoutIntervalForRequest = 60
        return URLSession(configuration: config)
    }

    let userAgent: String
    let session: URLSession

    /// `session` defaults to the process-wide one; tests give each client its own, so a fault
    /// one test provokes cannot stall another test's requests.
    public init(userAgent: String = "transit/\(TransitVersion.current)", session: URLSession = URLSessionTransport.shared) {
        self.userAgent = userAgent
        self.session = session
    }

    public func send(_ request: HTTPRequest, timeout: TimeInterval) async throws(TransitError) -> HTTPResponse {
        guard let url = URL(string: request.url), url.scheme == "http" || url.scheme == "https" else {
            throw .usage("not an http(s) URL: \(request.redactedURL)", hint: "check TRANSIT_\(request.provider.uppercased())_BASE_URL")
        }
        let headers = request.headers.merging(["User-Agent": userAgent]) { mine, _ in mine }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = "GET"
        // URLSession on Linux rounds this idle timeout down to whole seconds (0.5 s fails at
        // once); the deadline below is the real one.
        urlRequest.timeoutInterval = timeout + 5
        for (name, value) in headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let shown = request.redactedURL
        let exchange = Exchange()
        let outcome: Result<HTTPResponse, TransitError> = await withCheckedContinuation { continuation in
            // The completion-handler API, not `data(for:)`: cancelling that one from a Swift
            // task can deadlock the concurrency runtime against URLSession's queue on Linux
            // (seen here: `async let` cancelled mid-request hung the process).
            let task = session.dataTask(with: urlRequest) { data, response, error in
                let result: Result<HTTPResponse, TransitError>
                if exchange.timedOut {
                    result = .failure(.timeout(url: shown, seconds: timeout))
                } else if let error = error as? URLError {
                    result = .failure(error.code == .timedOut ? .timeout(url: shown, seconds: timeout)
                                                              : .network(url: shown, reason: Self.describe(error)))
                } else if let error {
                    result = .failure(.network(url: shown, reason: error.localizedDescription))
                } else if let http = response as? HTTPURLResponse {
                    var fields: [String: String] = [:]
                    for (key, value) in http.allHeaderFields {
                        if let k = key as? String, let v = value as? String { fields[k.lowercased()] = v }
                    }
                    result = .success(HTTPResponse(status: http.statusCode, headers: fields, body: data ?? Data()))
                } else {
                    result = .failure(.network(url: shown, reason: "not an HTTP response"))
                }
                continuation.resume(returning: result)
            }
            exchange.start(task, deadline: timeout)
        }
        return try outcome.get()
    }

    /// One request's state: the task, and whether its deadline passed. The deadline cancels the
    /// URLSession task from a dispatch timer, outside any Swift task's cancellation.
    final class Exchange: @unchecked Sendable {
        private let state = Locked((expired: false, task: URLSessionDataTask?.none))

        var timedOut: Bool { state.current.expired }

        func start(_ task: URLSessionDataTask, deadline seconds: TimeInterval) {
            state.withLock { $0.task = task }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [state] in
                let pending: URLSessionDataTask? = state.withLock {
                    guard let task = $0.task, task.state == .running else { return nil }
                    $0.expired = true
                    return task
                }
                pending?.cancel()
            }
            task.resume()
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

