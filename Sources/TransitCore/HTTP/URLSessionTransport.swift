import Foundation
import TransitSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTP over URLSession, read as it arrives: the body is counted (after any gzip decoding)
/// and cut off past the request's limit, progress is reported per chunk, redirects are
/// followed only on the same host, and the deadline cancels the request however fast bytes
/// come.
public struct URLSessionTransport: HTTPTransport {
    let userAgent: String
    /// nil: the process-wide session, made on the first request (not at start-up).
    let session: TransportSession?

    /// `session` defaults to the process-wide one; tests give each client its own, so a fault
    /// one test provokes cannot stall another test's requests.
    public init(userAgent: String = "transit/\(TransitVersion.current)", session: TransportSession? = nil) {
        self.userAgent = userAgent
        self.session = session
    }

    /// Same-host redirects followed before giving up.
    public static let maxRedirects = 5

    public func send(_ request: HTTPRequest, timeout: TimeInterval) async throws(TransitError) -> HTTPResponse {
        try await send(request, timeout: timeout, events: TransferEvents())
    }

    public func send(_ request: HTTPRequest, timeout: TimeInterval, events: TransferEvents) async throws(TransitError) -> HTTPResponse {
        guard let url = URL(string: request.url), url.scheme == "http" || url.scheme == "https", let host = url.host else {
            throw .usage("not an http(s) URL: \(request.redactedURL)", hint: "check \(request.baseURLVariable)")
        }
        let headers = request.headers.merging(["User-Agent": userAgent]) { mine, _ in mine }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = "GET"
        // URLSession on Linux rounds this idle timeout down to whole seconds (0.5 s fails at
        // once); the deadline below is the real one, and this only a backstop a minute later
        // (far enough that a test can tell the two apart on a busy machine).
        urlRequest.timeoutInterval = timeout + 60
        for (name, value) in headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let shown = request.redactedURL
        let session = self.session ?? TransportSession.shared
        let outcome: Result<HTTPResponse, TransitError> = await withCheckedContinuation { continuation in
            let exchange = Exchange(request: request, shown: shown, host: host, port: url.port, headers: headers,
                                    timeout: timeout, events: events, finish: { continuation.resume(returning: $0) })
            session.start(urlRequest, exchange)
        }
        return try outcome.get()
    }

    /// One request's state, fed by the session's delegate on its queue; the deadline cancels
    /// the task from a dispatch timer, outside any Swift task's cancellation.
    final class Exchange: @unchecked Sendable {
        struct State {
            var body = Data()
            var response: HTTPURLResponse?
            var failure: TransitError?
            var hops = 0
            var finished = false
            /// The caller has its outcome (it may come before the task ends: a deadline or a
            /// refusal answers at once, whatever is still queued on the delegate's queue).
            var resolved = false
            var task: URLSessionDataTask?
            /// When the task was started (uptime nanoseconds): past the deadline, a failure is a timeout.
            var started: UInt64 = 0
        }

        let request: HTTPRequest
        let shown: String
        let host: String
        let port: Int?
        let headers: [String: String]
        let timeout: TimeInterval
        let events: TransferEvents
        let finish: @Sendable (Result<HTTPResponse, TransitError>) -> Void
        let state = Locked(State())

        /// Deadlines and cancels run on a serial queue of their own: it targets libdispatch's
        /// overcommitting pool, which adds a thread when its threads are busy, where the global
        /// concurrent queue (as many threads as cores) can leave a deadline waiting for seconds.
        static let timers = DispatchQueue(label: "transit.http.deadlines")

        init(request: HTTPRequest, shown: String, host: String, port: Int?, headers: [String: String], timeout: TimeInterval,
             events: TransferEvents, finish: @escaping @Sendable (Result<HTTPResponse, TransitError>) -> Void) {
            self.request = request
            self.shown = shown
            self.host = host
            self.port = port
            self.headers = headers
            self.timeout = timeout
            self.events = events
            self.finish = finish
        }

        func start(_ task: URLSessionDataTask) {
            state.withLock {
                $0.task = task
                $0.started = DispatchTime.now().uptimeNanoseconds
            }
            Self.timers.asyncAfter(deadline: .now() + timeout) { [self] in
                giveUp(state.withLock { overdue($0) }, unlessAnswered: false)
            }
            // No answer begun by the first-byte deadline (a source that refuses is told at once;
            // one that accepts and says nothing is given up here).
            if let first = request.firstByteDeadline, first < timeout {
                Self.timers.asyncAfter(deadline: .now() + first) { [self] in
                    giveUp(.timeout(url: shown, seconds: first), unlessAnswered: true)
                }
            }
            task.resume()
        }

        /// The overall deadline passed: a timeout, or where the answer had begun to flow, a
        /// transfer too slow, with how much of it came.
        func overdue(_ s: State) -> TransitError {
            guard s.response != nil, !s.body.isEmpty else { return .timeout(url: shown, seconds: timeout) }
            let announced = s.response?.expectedContentLength ?? -1
            return .slow(url: shown, seconds: timeout, received: s.body.count, expected: announced > 0 ? Int(clamping: announced) : nil)
        }

        /// A deadline passed: `failure` is the outcome, kept and given before the task is
        /// cancelled, since the cancelled task's own ending ("cancelled") reaches `completed`
        /// on the delegate's queue and, given first, would race it to the caller.
        func giveUp(_ failure: TransitError, unlessAnswered: Bool) {
            let pending: URLSessionDataTask? = state.withLock {
                guard !$0.finished, !(unlessAnswered && $0.response != nil), let task = $0.task else { return nil }
                if $0.failure == nil { $0.failure = failure }
                return task
            }
            guard let pending else { return }
            resolve(.failure(failure))
            pending.cancel()
        }

        /// Gives the caller its outcome, once; the body is released.
        func resolve(_ result: Result<HTTPResponse, TransitError>) {
            let first: Bool = state.withLock {
                guard !$0.resolved else { return false }
                $0.resolved = true
                $0.body = Data()
                return true
            }
            if first { finish(result) }
        }

        /// Keeps `failure` as the outcome without stopping the task (inside the redirect
        /// callback: cancelling there crashes FoundationNetworking; declining ends the task).
        func decline(_ failure: TransitError) {
            state.withLock { if $0.failure == nil { $0.failure = failure } }
        }

        /// Stops the transfer with `failure` as its outcome.
        func refuse(_ failure: TransitError) {
            let task: URLSessionDataTask? = state.withLock {
                if $0.failure == nil { $0.failure = failure }
                return $0.task
            }
            // The caller has its answer first; the cancel goes through another queue, since
            // cancelling from inside a delegate callback can stall FoundationNetworking for
            // over a minute (seen here, about one run in five).
            resolve(.failure(failure))
            if let task { Self.timers.async { task.cancel() } }
        }

        func received(_ response: URLResponse) -> Bool {
            let http = response as? HTTPURLResponse
            state.withLock { $0.response = http }
            let announced = response.expectedContentLength
            if announced > Int64(request.maxBodyBytes) && http?.value(forHTTPHeaderField: "Content-Encoding") == nil {
                refuse(tooLarge)
                return false
            }
            events.progress?(0, announced > 0 ? announced : nil)
            return true
        }

        func received(_ data: Data) {
            let (total, over, expected): (Int, Bool, Int64?) = state.withLock {
                guard $0.failure == nil, !$0.resolved else { return (0, false, nil) }
                if $0.body.count + data.count > request.maxBodyBytes { return ($0.body.count, true, nil) }
                $0.body.append(data)
                let announced = $0.response?.expectedContentLength ?? -1
                return ($0.body.count, false, announced > 0 ? announced : nil)
            }
            if over { refuse(tooLarge) } else if total > 0 { events.progress?(Int64(total), expected) }
        }

        var tooLarge: TransitError {
            .refused("the answer from \(shown) is larger than \(Self.megabytes(request.maxBodyBytes))",
                     hint: nil)
        }

        static func megabytes(_ bytes: Int) -> String { "\(bytes / 1_048_576) MB" }

        /// Same host (and port): follow, at most `maxRedirects` times, with the same headers.
        /// Another host: refused, so that no key or token goes where it was not meant to.
        func redirect(_ response: HTTPURLResponse, to next: URLRequest) -> URLRequest? {
            guard let target = next.url else { decline(.refused("\(shown) redirects to an address that is not a URL", hint: nil)); return nil }
            let hop = state.withLock { $0.hops += 1; return $0.hops }
            let shownTarget = Redaction.url(target.absoluteString)
            events.log?("redirect \(response.statusCode) from \(shown) to \(sanitizedQuery(shownTarget))")
            guard target.host?.lowercased() == host.lowercased(), target.port == port,
                  target.scheme == "http" || target.scheme == "https" else {
                decline(.refused("\(shown) redirects to another host, \(target.host ?? "?"); not followed",
                                hint: "to use that host, set \(request.baseURLVariable)"))
                return nil
            }
            guard hop <= URLSessionTransport.maxRedirects else {
                decline(.refused("\(shown) redirected more than \(URLSessionTransport.maxRedirects) times; not followed", hint: nil))
                return nil
            }
            var follow = URLRequest(url: target)
            follow.httpMethod = "GET"
            follow.timeoutInterval = next.timeoutInterval
            for (name, value) in headers { follow.setValue(value, forHTTPHeaderField: name) }
            return follow
        }

        /// A redirect target with the request's secret query values hidden.
        func sanitizedQuery(_ text: String) -> String {
            var out = text
            for item in request.query where request.secretNames.contains(item.name) && !item.value.isEmpty {
                out = out.replacingOccurrences(of: HTTPRequest.encode(item.value), with: "REDACTED")
            }
            return out
        }

        func completed(_ error: Error?) {
            let s: State = state.withLock {
                $0.finished = true
                $0.task = nil
                return $0
            }
            let result: Result<HTTPResponse, TransitError>
            if let failure = s.failure {
                result = .failure(failure)
            } else if let error = error as? URLError {
                // The deadline is the real one: a connection lost after it passed (its timer ran late
                // on a busy machine, and the server gave up first) is a timeout, not a failure to retry.
                let late = Double(DispatchTime.now().uptimeNanoseconds - s.started) / 1e9 >= timeout
                result = .failure(error.code == .timedOut || late ? overdue(s)
                                                                  : .network(url: shown, reason: URLSessionTransport.describe(error)))
            } else if let error {
                result = .failure(.network(url: shown, reason: error.localizedDescription))
            } else if let http = s.response {
                var fields: [String: String] = [:]
                for (key, value) in http.allHeaderFields {
                    if let k = key as? String, let v = value as? String { fields[k.lowercased()] = v }
                }
                result = .success(HTTPResponse(status: http.statusCode, headers: fields, body: s.body))
            } else {
                result = .failure(.network(url: shown, reason: "not an HTTP response"))
            }
            resolve(result)
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
        case .httpTooManyRedirects: return "too many redirects"
        default:
            let text = error.localizedDescription
            return text.isEmpty ? "error \(error.code.rawValue)" : text
        }
    }
}

/// What a transfer reports while it runs: bytes so far (and the announced total), and hops.
public struct TransferEvents: Sendable {
    public var progress: (@Sendable (Int64, Int64?) -> Void)?
    public var log: (@Sendable (String) -> Void)?
    public init(progress: (@Sendable (Int64, Int64?) -> Void)? = nil, log: (@Sendable (String) -> Void)? = nil) {
        self.progress = progress
        self.log = log
    }
}

/// One URLSession and the delegate that hands each task's events to its exchange. Keep it for
/// the life of the process: short-lived sessions crash on Linux (PITFALLS.md §1).
public final class TransportSession: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// Made on first use, so that commands that never fetch never pay for URLSession.
    public static let shared = TransportSession()

    private let exchanges = Locked([Int: URLSessionTransport.Exchange]())
    private let queue = OperationQueue()
    /// A serial dispatch queue of our own under the delegate queue (held here: the operation
    /// queue does not own it): the global concurrent pool, as many threads as cores, can leave
    /// callbacks waiting for seconds on a busy machine.
    private let dispatchQueue = DispatchQueue(label: "transit.http.delegate")
    private var session: URLSession?

    /// Where Foundation may write what a URLSession configuration makes on Linux (the shared URL
    /// cache's and cookie store's directories, under `XDG_CACHE_HOME` and `XDG_DATA_HOME`, else
    /// `$HOME`): inside transit's cache, never in the user's home. Set before the first request.
    public static let foundationDirectory = Locked<String?>(nil)

    public override init() {
        super.init()
        // swift-corelibs-foundation reads these when the configuration touches its shared cache
        // and cookie store, which every configuration does; nothing else of transit reads them
        // after start-up (Settings has resolved the cache directory).
        if let directory = Self.foundationDirectory.current {
            setenv("XDG_CACHE_HOME", directory, 1)
            setenv("XDG_DATA_HOME", directory, 1)
        }
        queue.maxConcurrentOperationCount = 1
        queue.underlyingQueue = dispatchQueue
        let config = URLSessionConfiguration.ephemeral
        config.requestCachePolicy = .reloadIgnoringLocalCacheData
        config.urlCache = nil
        config.httpMaximumConnectionsPerHost = 16
        config.timeoutIntervalForRequest = 60
        session = URLSession(configuration: config, delegate: self, delegateQueue: queue)
    }

    func start(_ request: URLRequest, _ exchange: URLSessionTransport.Exchange) {
        guard let session else { exchange.completed(URLError(.unknown)); return }
        let task = session.dataTask(with: request)
        exchanges.withLock { $0[task.taskIdentifier] = exchange }
        exchange.start(task)
    }

    private func exchange(_ task: URLSessionTask) -> URLSessionTransport.Exchange? {
        exchanges.withLock { $0[task.taskIdentifier] }
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                           completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let go = exchange(dataTask)?.received(response) ?? false
        completionHandler(go ? .allow : .cancel)
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange(dataTask)?.received(data)
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                           newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(exchange(task)?.redirect(response, to: request))
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let done = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        done?.completed(error)
    }
}
