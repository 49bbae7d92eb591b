import Foundation
import TransitSupport

/// The options every command takes, wherever they stand on the line.
package enum GlobalOptions {
    package static let specs: [OptionSpec] = [
        OptionSpec("format", value: "FMT", "output format: table, tsv, csv, json, geojson or parquet (default: table on a terminal, else tsv)",
                   choices: OutputFormat.allCases.map(\.rawValue)),
        OptionSpec("header", "print a header row in tsv/csv (csv has one by default)"),
        OptionSpec("no-header", "no header row in tsv/csv"),
        OptionSpec("offline", "answer from recorded responses, never the network (also TRANSIT_OFFLINE=1)"),
        OptionSpec("fixtures", value: "DIR", "recorded responses for --offline (default $TRANSIT_FIXTURES, else ./Fixtures)",
                   source: .directories),
        OptionSpec("record", value: "DIR", "save every live response under DIR, replayable with --offline --fixtures DIR",
                   source: .directories),
        OptionSpec("no-cache", "neither read nor write the on-disk cache"),
        OptionSpec("timeout", value: "SECONDS", "per-request timeout", default: "15"),
        OptionSpec("verbose", short: "v", "one line per HTTP request on stderr"),
        OptionSpec("quiet", short: "q", "no progress indicator and no notices on stderr"),
        OptionSpec("help", short: "h", "show help for the level it follows"),
        OptionSpec("man", "with help: the whole manual page in roff (transit help --man | man -l -)"),
        OptionSpec("version", "print the version"),
    ]
}

/// A provider's key as the environment gave it, and what to say when it is missing.
package struct Credentials: Sendable, Equatable {
    package var provider: String
    package var variable: String
    package var whereToGet: String
    /// From the environment, else the provider's public key; nil when neither.
    package var value: String?
}

/// Global options, the environment and the clock, resolved once: flag, then environment,
/// then default. Commands read these typed values, never the environment.
package struct Settings: Sendable, Equatable {
    package var format: OutputFormat
    package var header: Bool?
    package var offline: Bool
    package var fixtures: String
    package var record: String?
    package var noCache: Bool
    package var timeout: Double
    package var verbose: Bool
    package var quiet: Bool
    package var color: Bool
    package var stderrIsTerminal: Bool
    package var cacheDirectory: String
    /// The clock: `TRANSIT_NOW` (ISO 8601) pins it for tests and reproducible bug reports.
    package var now: Date
    package var clockPinned: Bool
    /// `--watch SECONDS [--count N]`.
    package var watch: Watch?
    /// `TRANSIT_RETRY_DELAY_MS` in seconds, when set.
    package var retryDelay: Double?
    /// `TRANSIT_<P>_BASE_URL` values of the command's provider, by variable name.
    package var baseURLs: [String: String]
    package var credentials: Credentials?
    /// The provider's own variables (its `variables` in the spec), when set.
    package var variables: [String: String] = [:]
    /// The whole environment, for variables named only at run time (`$KEY` in a real-time URL).
    package var environment = RunEnvironment(.process)
    /// The width a table must fit: `COLUMNS`, else the terminal's; nil when stdout is piped.
    package var tableWidth: Int? = nil

    /// `TRANSIT_<NAME>_BASE_URL`, else `fallback`.
    package func baseURL(_ name: String, default fallback: String) -> String {
        baseURLs["TRANSIT_\(name.uppercased())_BASE_URL"] ?? fallback
    }

    /// Where answers are cached: nowhere with `--offline` or `--no-cache`.
    package var httpCacheDirectory: String? { offline || noCache ? nil : cacheDirectory }

    /// What requests go through: the recordings with `--offline`, else `network`.
    package func transport(network: @autoclosure () -> HTTPTransport) -> HTTPTransport {
        offline ? ReplayTransport(directory: fixtures) : network()
    }

    /// The provider's key. Missing is an error, except offline, where recordings are found
    /// without it. The one place the missing-key message is written.
    package func key() throws(TransitError) -> String {
        guard let credentials else { return "" }
        if let value = credentials.value { return value }
        if offline { return "" }
        throw .missingKey(variable: credentials.variable, provider: credentials.provider, whereToGet: credentials.whereToGet)
    }

    /// The retry policy, with `TRANSIT_RETRY_DELAY_MS` applied.
    package var retry: RetryPolicy {
        var policy = RetryPolicy()
        if let retryDelay { policy.baseDelay = retryDelay }
        return policy
    }

    static func resolve(values: [String: String], flags: Set<String>, environment env: Environment, terminal: Terminal,
                        now clock: Date, command spec: CommandSpec, provider: ProviderSpec) throws(TransitError) -> Settings {
        var format: OutputFormat = spec.defaultFormat ?? (terminal.stdout ? .table : .tsv)
        if let text = values["format"] {
            guard let f = OutputFormat(rawValue: text.lowercased()) else {
                throw .usage("unknown format '\(text)'", hint: "use one of: table, tsv, csv, json, geojson, parquet")
            }
            guard f != .geojson || spec.geoJSON else {
                throw .usage("--format geojson is only for commands that return places (stops, vehicles)")
            }
            guard f != .parquet || spec.parquet else { throw .usage("--format parquet is not for transit \(spec.provider) \(spec.name): only a travel-time matrix is written as Parquet, with --output FILE") }
            format = f
        }
        var header: Bool?
        if flags.contains("header") { header = true }
        if flags.contains("no-header") {
            guard header == nil else { throw .usage("--header and --no-header contradict each other") }
            header = false
        }
        var timeout = 15.0
        if let text = values["timeout"] {
            guard let t = Double(text), t.isFinite, t > 0, t <= 600 else {
                throw .usage("--timeout takes seconds between 0 and 600, not '\(text)'")
            }
            timeout = t
        }
        let offlineEnv = env["TRANSIT_OFFLINE"].map { !["", "0", "false", "no"].contains($0.lowercased()) } ?? false
        let offline = flags.contains("offline") || offlineEnv
        let fixtures = values["fixtures"] ?? nonEmpty(env["TRANSIT_FIXTURES"]) ?? "Fixtures"
        if let record = values["record"], record.isEmpty { throw .usage("--record needs a directory") }
        if values["record"] != nil && offline { throw .usage("--record and --offline together would record nothing") }
        let home = nonEmpty(env["HOME"]) ?? NSHomeDirectory()
        // Set and empty is a mistake (a variable not filled in), not a wish for the default.
        if let given = env["TRANSIT_CACHE_DIR"], given.trimmedSpace(newlines: false).isEmpty {
            throw .usage("TRANSIT_CACHE_DIR is set but empty: give it a directory, or unset it for the default ($XDG_CACHE_HOME/transit, else ~/.cache/transit)")
        }
        let cache = nonEmpty(env["TRANSIT_CACHE_DIR"]) ?? nonEmpty(env["XDG_CACHE_HOME"]).map { $0 + "/transit" } ?? home + "/.cache/transit"
        let color = terminal.stdout && env["NO_COLOR"] == nil && (env["TERM"] ?? "") != "dumb"
        var now = clock
        let pinned = nonEmpty(env["TRANSIT_NOW"])
        if let pinned {
            guard let date = ClockTime.parseISO8601(pinned) else {
                throw .usage("TRANSIT_NOW must be ISO 8601 with an offset, like 2026-11-22T12:00:00Z")
            }
            now = date
        }
        var retryDelay: Double?
        if let text = nonEmpty(env["TRANSIT_RETRY_DELAY_MS"]) {
            guard let ms = Double(text), ms.isFinite, (0...60_000).contains(ms) else {
                throw .usage("TRANSIT_RETRY_DELAY_MS takes milliseconds from 0 to 60000, not '\(text)'")
            }
            retryDelay = ms / 1000
        }
        var baseURLs: [String: String] = [:]
        for (variable, _) in provider.baseURLs {
            if let url = nonEmpty(env[variable]) { baseURLs[variable] = try checkedBaseURL(url, variable: variable) }
        }
        let credentials = provider.key.map { key in
            Credentials(provider: provider.displayName, variable: key.variable, whereToGet: key.whereToGet,
                        value: ([key.variable] + key.aliases).lazy.compactMap { nonEmpty(env[$0]?.trimmedSpace(newlines: false)) }.first
                            ?? key.publicDefault)
        }
        let tableWidth = Self.tableWidth(env, terminal)
        if let secret = credentials?.value { Redaction.register(secret) }
        for url in baseURLs.values { if let password = Redaction.password(inURL: url) { Redaction.register(password) } }
        var variables: [String: String] = [:]
        for (variable, _) in provider.variables { variables[variable] = nonEmpty(env[variable]) }
        var settings = Settings(format: format, header: header, offline: offline, fixtures: fixtures, record: values["record"],
                        noCache: flags.contains("no-cache"), timeout: timeout, verbose: flags.contains("verbose"),
                        quiet: flags.contains("quiet"), color: color, stderrIsTerminal: terminal.stderr, cacheDirectory: cache,
                        now: now, clockPinned: pinned != nil, watch: try watch(values, env: env), retryDelay: retryDelay,
                        baseURLs: baseURLs, credentials: credentials, variables: variables, tableWidth: tableWidth)
        settings.environment = RunEnvironment(env)
        return settings
    }

    /// The width a table, and help, must fit: `COLUMNS` (10 to 10,000), else the terminal's;
    /// nil when stdout is piped.
    static func tableWidth(_ env: Environment, _ terminal: Terminal) -> Int? {
        guard terminal.stdout else { return nil }
        return nonEmpty(env["COLUMNS"]).flatMap { Int($0) }.flatMap { (10...10_000).contains($0) ? $0 : nil } ?? Self.terminalWidth(1)
    }

    /// The columns of the terminal on `descriptor` (TIOCGWINSZ; stdout for tables, stderr for
    /// the progress line), when it says and has 10 or more.
    static func terminalWidth(_ descriptor: Int32) -> Int? {
        terminalColumns(descriptor).flatMap { $0 >= 10 ? $0 : nil }
    }

    /// The columns it says it has, however few.
    static func terminalColumns(_ descriptor: Int32) -> Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Whether a progress line fits the terminal on stderr: one narrower than 10 columns draws
    /// none (a line cut to one column wrapped into 41 rows a frame; issue 62).
    static var progressFits: Bool { terminalColumns(2).map { $0 >= 10 } ?? true }

    /// A base URL from the environment: http(s), a host, a port in range.
    static func checkedBaseURL(_ text: String, variable: String) throws(TransitError) -> String {
        guard let parts = URLComponents(string: text), let scheme = parts.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = parts.host, !host.isEmpty else {
            throw .usage("\(variable) must be an http(s) URL like https://host/path, not '\(Redaction.url(text))'")
        }
        if let port = parts.port, !(1...65535).contains(port) {
            throw .usage("\(variable) has port \(port), outside 1–65535")
        }
        return text
    }

    static func watch(_ values: [String: String], env: Environment) throws(TransitError) -> Watch? {
        guard let text = values["watch"] else {
            if values["count"] != nil { throw .usage("--count goes with --watch") }
            return nil
        }
        guard let seconds = Double(text), seconds >= Watch.minimum, seconds <= 86400 else {
            throw .usage("--watch takes seconds, at least \(Int(Watch.minimum)), not '\(text)'",
                         hint: "every refresh counts against the key's daily quota")
        }
        var watch = Watch(seconds: seconds)
        if let count = values["count"] {
            guard let n = Int(count), (1...1_000_000).contains(n) else {
                throw .usage("--count takes a whole number from 1 to 1000000, not '\(count)'")
            }
            watch.count = n
        }
        // Test-only: how many milliseconds a watch "second" lasts.
        if let unit = env["TRANSIT_WATCH_UNIT_MS"].flatMap(Double.init), unit.isFinite, unit > 0 { watch.unit = unit / 1000 }
        return watch
    }

    static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}

package struct Terminal: Sendable, Equatable {
    package var stdout: Bool
    package var stderr: Bool
    package init(stdout: Bool, stderr: Bool) {
        self.stdout = stdout
        self.stderr = stderr
    }
}

/// `--watch`: refresh every `seconds`, `count` times (nil: until Ctrl-C).
package struct Watch: Sendable, Equatable {
    package static let minimum = 10.0
    package var seconds: Double
    package var count: Int?
    /// Wall time of one "second" of `--watch`: 1 s, except in tests (`TRANSIT_WATCH_UNIT_MS`).
    package var unit: Double = 1
}
