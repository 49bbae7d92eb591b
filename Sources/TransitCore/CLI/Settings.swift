import Foundation

/// Global options resolved against the environment: flag, then environment, then default.
public struct Settings: Sendable, Equatable {
    public var format: OutputFormat
    public var header: Bool?
    public var offline: Bool
    public var fixtures: String
    public var record: String?
    public var noCache: Bool
    public var timeout: Double
    public var verbose: Bool
    public var quiet: Bool
    public var color: Bool
    public var stderrIsTerminal: Bool
    public var cacheDirectory: String
    public var environment: [String: String]
    /// The clock: `TRANSIT_NOW` (ISO 8601) pins it for tests and reproducible bug reports.
    public var now: Date
    /// `--watch SECONDS [--count N]`.
    public var watch: Watch?

    /// `TRANSIT_<P>_BASE_URL`, else the provider's default.
    public func baseURL(_ provider: String, default fallback: String) -> String {
        let value = environment["TRANSIT_\(provider.uppercased())_BASE_URL"] ?? ""
        return value.isEmpty ? fallback : value
    }

    /// `TRANSIT_<P>_KEY`, else nil.
    public func key(_ provider: String) -> String? {
        let value = environment["TRANSIT_\(provider.uppercased())_KEY"]?.trimmingCharacters(in: .whitespaces) ?? ""
        return value.isEmpty ? nil : value
    }

    /// The retry pause; `TRANSIT_RETRY_DELAY_MS` shortens it (tests) or lengthens it.
    public var retry: RetryPolicy {
        var policy = RetryPolicy()
        if let ms = environment["TRANSIT_RETRY_DELAY_MS"].flatMap(Double.init), ms >= 0 { policy.baseDelay = ms / 1000 }
        return policy
    }
}

public struct Terminal: Sendable, Equatable {
    public var stdout: Bool
    public var stderr: Bool
    public init(stdout: Bool, stderr: Bool) {
        self.stdout = stdout
        self.stderr = stderr
    }
}

/// `--watch`: refresh every `seconds`, `count` times (nil: until Ctrl-C).
public struct Watch: Sendable, Equatable {
    public static let minimum = 10.0
    public var seconds: Double
    public var count: Int?
    /// Wall time of one "second" of `--watch`: 1 s, except in tests (`TRANSIT_WATCH_UNIT_MS`).
    public var unit: Double = 1
}
