import Foundation

/// Everything that can go wrong, with enough context for the CLI to say it in one line.
///
/// `exitStatus` follows the contract: 2 for usage (including an unknown station the tool can
/// tell is unknown), 1 for work that failed.
public enum TransitError: Error, Sendable, Equatable {
    /// A bad flag, value or command. `hint` is the optional second line.
    case usage(String, hint: String? = nil)
    /// A station, stop or route the tool can tell is unknown.
    case notFound(kind: String, query: String, suggestions: [String])
    /// Several candidates match a name equally well.
    case ambiguous(kind: String, query: String, candidates: [String])
    /// The connection failed (refused, reset, DNS, body cut short).
    case network(url: String, reason: String)
    /// No complete answer within the per-request timeout.
    case timeout(url: String, seconds: Double)
    /// An answer that flowed, but too slowly to end within the timeout: `received` bytes of
    /// `expected` (where the server said) when it was given up.
    case slow(url: String, seconds: Double, received: Int, expected: Int?)
    /// A non-2xx answer; `excerpt` is the first line or so of the body.
    case http(status: Int, url: String, excerpt: String)
    /// The body is not what the API speaks (an HTML page where XML or JSON was expected).
    case unexpectedContent(url: String, expected: String, found: String)
    /// The API itself reported an error (often with HTTP 200).
    case api(provider: String, message: String, details: String?)
    /// A body that cannot be parsed.
    case parse(what: String, reason: String)
    /// A file that cannot be written (a full or read-only disk): `could not write …`, not read.
    case write(what: String, path: String, reason: String)
    /// A key or token is required and not set.
    case missingKey(variable: String, provider: String, whereToGet: String)
    /// `--offline` and no recording exists for the request.
    /// `recorded`: what the same endpoint has recordings for (`date=11-23-2026`), to say.
    case noRecording(path: String, request: String, recorded: [String] = [])
    /// An answer transit will not take: too large, or a redirect elsewhere. Never retried.
    case refused(String, hint: String?)
    /// `gtfs journey`: the journey no longer holds as far as the real-time data says (exit 3).
    case doesNotHold(String)

    public var exitStatus: Int32 {
        switch self {
        case .usage, .notFound, .ambiguous: return 2
        case .doesNotHold: return 3
        default: return 1
        }
    }

    /// The one-line message, without the `transit: ` prefix.
    public var message: String {
        switch self {
        case .usage(let text, _): return text
        case .notFound(let kind, let query, let suggestions):
            if suggestions.isEmpty { return "unknown \(kind) '\(query)'" }
            return "unknown \(kind) '\(query)'; did you mean \(Self.orList(suggestions))?"
        case .ambiguous(let kind, let query, let candidates):
            return "\(kind) '\(query)' is ambiguous: \(Self.orList(candidates))"
        case .network(let url, let reason): return "could not reach \(url): \(reason)"
        case .timeout(let url, let seconds):
            return "no answer from \(url) within \(Self.seconds(seconds)) s"
        case .slow(let url, let seconds, let received, let expected):
            // Without a length, a slow answer and an endless one look alike: say what is known.
            guard let expected else { return "the answer from \(url) did not end within \(Self.seconds(seconds)) s (\(Self.bytes(received)) read, no length given)" }
            return "\(url) answered too slowly: \(Self.bytes(received)) of \(Self.bytes(expected)) read in \(Self.seconds(seconds)) s"
        case .http(let status, let url, let excerpt):
            let tail = excerpt.isEmpty ? "" : ": \(excerpt)"
            let reason = Self.reasons[status].map { " \($0)" } ?? ""
            return "HTTP \(status)\(reason) from \(url)\(tail)"
        case .unexpectedContent(let url, let expected, let found):
            return "expected \(expected) from \(url) but got \(found)"
        case .api(let provider, let message, let details):
            if let details, !details.isEmpty, details != message { return "\(provider): \(message): \(details)" }
            return "\(provider): \(message)"
        case .parse(let what, let reason): return "could not read \(what): \(reason)"
        case .write(let what, let path, let reason): return "could not write \(what) to \(path): \(reason)"
        case .missingKey(let variable, let provider, _): return "\(provider) needs an API key: set \(variable)"
        case .noRecording(let path, let request, _): return "no recording for \(request) (looked for \(path))"
        case .refused(let text, _): return text
        case .doesNotHold(let text): return text
        }
    }

    /// At most one more line saying what to do.
    public var hint: String? {
        switch self {
        case .usage(_, let hint): return hint
        case .refused(_, let hint): return hint
        case .timeout, .slow: return "try again, or raise --timeout"
        case .missingKey(_, _, let whereToGet): return whereToGet
        case .noRecording(_, _, let recorded):
            let have = recorded.isEmpty ? "" : "recorded there: \(recorded.joined(separator: ", ")); "
            return have + "record it first (transit --record DIR <the same command>), or say where recordings are: --fixtures DIR or TRANSIT_FIXTURES"
        case .unexpectedContent(_, _, let found) where found.contains("HTML"):
            return "the service may be down or throttling; try again later"
        default: return nil
        }
    }

    package static let reasons: [Int: String] = [
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 408: "Request Timeout",
        429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway",
        503: "Service Unavailable", 504: "Gateway Timeout",
    ]

    package static func orList(_ items: [String]) -> String {
        switch items.count {
        case 0: return ""
        case 1: return items[0]
        default: return items.dropLast().joined(separator: ", ") + " or " + (items.last ?? "")
        }
    }

    /// A size in words: `850 bytes`, `12 KB`, `3.4 MB` (1,024 based, rounded down).
    package static func bytes(_ count: Int) -> String {
        if count < 1024 { return "\(count) bytes" }
        if count < 1_048_576 { return "\(count / 1024) KB" }
        let tenths = count / 104_858
        return "\(tenths / 10).\(tenths % 10) MB"
    }

    package static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

extension Result where Failure == TransitError {
    /// Runs `body` and keeps its typed error, for `async let` (which would erase it).
    package static func catching(_ body: () async throws(TransitError) -> Success) async -> Result {
        do { return .success(try await body()) } catch { return .failure(error) }
    }
}
