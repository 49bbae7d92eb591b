import Foundation
import TransitSupport

/// When to try again, and how long to wait.
public struct RetryPolicy: Sendable {
    /// Attempts in all, the first included.
    public var maxAttempts: Int
    /// The wait before the second attempt; it doubles after each attempt.
    public var baseDelay: TimeInterval
    /// The longest `Retry-After` honoured; a longer one fails at once.
    public var maxRetryAfter: TimeInterval

    public init(maxAttempts: Int = 3, baseDelay: TimeInterval = 0.5, maxRetryAfter: TimeInterval = 10) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxRetryAfter = maxRetryAfter
    }

    public static let none = RetryPolicy(maxAttempts: 1)
}

/// The HTTP path every provider uses: cache, transport, retries, recording, verbose log.
///
/// A response reaches the cache only after the provider's decoder accepted it, so an error
/// that came with HTTP 200 is never served again from disk.
public final class HTTPClient: Sendable {
    public struct Options: Sendable {
        public var timeout: TimeInterval = 15
        public var retry = RetryPolicy()
        /// nil: no cache (`--no-cache`, or `--offline`).
        public var cacheDirectory: String?
        /// `--record DIR`.
        public var recordDirectory: String?
        /// Serve a cached answer however old it is (completion: stale names beat none).
        public var staleCache = false
        public var now: @Sendable () -> Date = { Date() }
        /// The wait before another attempt, in seconds. Tests see the waits asked for here, so
        /// they need not read a wall clock that a busy machine moves.
        public var sleep: @Sendable (TimeInterval) async throws -> Void = { seconds in
            try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
        }
        /// `--verbose`: one line per request.
        public var log: (@Sendable (String) -> Void)?
        /// Progress for people: what is being fetched (a spinner on a terminal).
        public var progress: (@Sendable (String) -> Void)?
        /// Bytes of a labelled request so far, and the announced total (a progress bar).
        public var transferred: (@Sendable (String, Int64, Int64?) -> Void)?
        public init() {}
    }

    public let transport: HTTPTransport
    public let options: Options

    public init(transport: HTTPTransport, options: Options = Options()) {
        self.transport = transport
        self.options = options
    }

    /// Requests that went to the transport (network or recording), not the cache.

    /// Fetches `request` and decodes it. `interpretError` may turn a non-2xx answer into a
    /// provider-specific error; otherwise it becomes `.http`.
    public func get<T>(_ request: HTTPRequest,
                       interpretError: ((HTTPResponse) -> TransitError?)? = nil,
                       decode: (HTTPResponse) throws(TransitError) -> T) async throws(TransitError) -> T {
        let cachePath = cacheFile(for: request)
        if let cachePath, let cached = readCache(cachePath, request: request) {
            if let value = try? decode(cached) {
                log(request, cached, milliseconds: 0, note: "cache hit")
                return value
            }
        }
        let response = try await fetch(request, interpretError: interpretError)
        let value = try decode(response)
        if let cachePath, let ttl = request.cacheTTL {
            let expires = options.now().addingTimeInterval(ttl).timeIntervalSince1970
            let recording = Recording(notes: ["GET " + request.redactedURL], response: response,
                                      extra: [("x-cache-key", cacheKey(request)), ("x-expires", String(Int(expires)))])
            try? AtomicFile.write(recording.encoded(), to: cachePath)
        }
        return value
    }

    func fetch(_ request: HTTPRequest, interpretError: ((HTTPResponse) -> TransitError?)?) async throws(TransitError) -> HTTPResponse {
        var attempt = 1
        while true {
            let started = DispatchTime.now().uptimeNanoseconds
            let response: HTTPResponse
            do {
                var events = TransferEvents()
                if let label = request.label {
                    options.progress?("fetching " + label)
                    if let transferred = options.transferred { events.progress = { transferred(label, $0, $1) } }
                }
                if let log = options.log { events.log = { log($0) } }
                response = try await transport.send(request, timeout: options.timeout, events: events)
            } catch {
                logFailure(request, error, started: started)
                if case .network = error, attempt < request.attempts ?? options.retry.maxAttempts {
                    try await pause(delay(after: attempt))
                    attempt += 1
                    continue
                }
                throw error
            }
            let ms = Int((DispatchTime.now().uptimeNanoseconds - started) / 1_000_000)
            log(request, response, milliseconds: ms, note: response.source == .recording ? "recording" : "cache miss")
            try record(request, response)
            let status = response.status
            // 304 answers a conditional GET (If-None-Match, If-Modified-Since): nothing changed.
            if (200..<300).contains(status) || (status == 304 && request.isConditional) {
                let html = request.expects.isBinary ? response.body.first == UInt8(ascii: "<") : response.looksLikeHTML
                if html && request.expects != .html {
                    throw .unexpectedContent(url: request.redactedURL, expected: request.expects.rawValue, found: "an HTML page")
                }
                return response
            }
            if (status == 429 || (500..<600).contains(status)) && attempt < request.attempts ?? options.retry.maxAttempts {
                var wait = delay(after: attempt)
                if let header = response.headers["retry-after"], let seconds = TimeInterval(header.trimmedSpace(newlines: false)) {
                    if seconds <= options.retry.maxRetryAfter { wait = max(0, seconds) } else { wait = -1 }
                }
                if wait >= 0 {
                    try await pause(wait)
                    attempt += 1
                    continue
                }
            }
            if let special = interpretError?(response) { throw special }
            if response.looksLikeHTML {
                throw .http(status: status, url: request.redactedURL, excerpt: "an HTML page")
            }
            throw .http(status: status, url: request.redactedURL, excerpt: response.excerpt)
        }
    }

    func delay(after attempt: Int) -> TimeInterval {
        options.retry.baseDelay * pow(2, Double(attempt - 1))
    }

    func pause(_ seconds: TimeInterval) async throws(TransitError) {
        do {
            try await options.sleep(seconds)
        } catch {
            throw .network(url: "", reason: "cancelled")
        }
    }

    // MARK: cache

    func cacheKey(_ request: HTTPRequest) -> String {
        var copy = request
        copy.query = request.identifyingQuery
        return "GET " + copy.url + " accept=" + (request.headers["Accept"] ?? "")
    }

    func cacheFile(for request: HTTPRequest) -> String? {
        guard let directory = options.cacheDirectory, request.cacheTTL != nil else { return nil }
        return directory + "/" + Recording.safe(request.provider) + "/" + FNV1a.hex(cacheKey(request)) + ".http"
    }

    /// A fresh entry for exactly this request, or nil (missing, expired, corrupt, another key).
    func readCache(_ path: String, request: HTTPRequest) -> HTTPResponse? {
        guard let data = FileManager.default.contents(atPath: path),
              let recording = Recording.decode(data, source: .cache),
              recording.field("x-cache-key") == cacheKey(request),
              let expires = recording.field("x-expires").flatMap(TimeInterval.init),
              options.staleCache || expires > options.now().timeIntervalSince1970,
              (200..<300).contains(recording.response.status) else { return nil }
        return recording.response
    }

    // MARK: record and log

    /// Writes the exchange under `--record`. A binary body is kept byte for byte; one holding a
    /// configured secret is refused, since scrubbing it would corrupt it.
    func record(_ request: HTTPRequest, _ response: HTTPResponse) throws(TransitError) {
        guard let directory = options.recordDirectory, response.source == .network else { return }
        let path = Recording.path(for: request, in: directory)
        if request.expects.isBinary && Redaction.contains(response.body) {
            throw .refused("not recording \(request.redactedURL): its body holds a configured secret, which cannot be scrubbed from \(request.expects.rawValue) without corrupting it",
                           hint: "record without the key set, or from a source that does not echo it")
        }
        let recording = Recording(notes: ["GET " + request.redactedURL,
                                          "recorded by transit \(TransitVersion.current) at \(ClockTime.iso8601(options.now(), zone: .utc))"],
                                  response: response)
        do {
            try AtomicFile.write(recording.encoded(binaryBody: request.expects.isBinary), to: path)
        } catch {
            options.log?("could not record \(path): \(error.localizedDescription)")
        }
    }

    func log(_ request: HTTPRequest, _ response: HTTPResponse, milliseconds: Int, note: String) {
        options.log?("GET \(request.redactedURL) \(response.status) \(response.body.count)B \(milliseconds)ms \(note)")
    }

    func logFailure(_ request: HTTPRequest, _ error: TransitError, started: UInt64) {
        let ms = Int((DispatchTime.now().uptimeNanoseconds - started) / 1_000_000)
        options.log?("GET \(request.redactedURL) failed \(ms)ms: \(error.message)")
    }
}

