import Foundation
import TransitCore
@testable import TransitSupport
import TransitTestSupport

// What TransitCore's tests share beside Tests/Shared: the loopback server over the recordings,
// in-process HTTP clients, BART's clock.

func fixtureHandler(_ directory: String = Paths.fixtures) -> @Sendable (LoopbackServer.Request) -> LoopbackServer.Behavior {
    LoopbackServer.recordings(in: directory)
}

/// An HTTP client for in-process tests: real URLSession over loopback, its own cache.
func makeClient(cache: String? = nil, record: String? = nil, timeout: Double = 5, retryDelay: Double = 0.01,
                now: @escaping @Sendable () -> Date = { Date() }, waits: Locked<[TimeInterval]>? = nil) -> HTTPClient {
    var options = HTTPClient.Options()
    options.timeout = timeout
    options.retry = RetryPolicy(maxAttempts: 3, baseDelay: retryDelay, maxRetryAfter: 2)
    options.cacheDirectory = cache
    options.recordDirectory = record
    options.now = now
    if let waits {
        let sleep = options.sleep
        options.sleep = { seconds in
            waits.withLock { $0.append(seconds) }
            // A wait a test would hang on fails at once instead: the recorded wait says why.
            if seconds > 5 { throw CancellationError() }
            try await sleep(seconds)
        }
    }
    return HTTPClient(transport: URLSessionTransport(session: Sessions.fresh()), options: options)
}

/// One URLSession per in-process client, kept for the life of the test process: short-lived
/// sessions crash on Linux (PITFALLS.md), and a shared one lets a fault in one test (a hung or
/// cut connection) stall the requests of another for seconds (seen here).
enum Sessions {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var kept: [TransportSession] = []

    static func fresh() -> TransportSession {
        let session = TransportSession()
        lock.withLock { kept.append(session) }
        return session
    }
}

/// The schedule-day instant of `h:mm` on `date` in Pacific time, for expectations.
func pacific(_ date: LocalDate, _ hour: Int, _ minute: Int) -> Date {
    date.instant(minutes: hour * 60 + minute, in: BART.zone)
}

