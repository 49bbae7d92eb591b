import Foundation
import TransitSupport

/// What a provider's answers are written in.
public enum BodyKind: String, Sendable {
    case xml = "XML", json = "JSON", javaScript = "JavaScript", html = "HTML", zip = "a zip file", csv = "CSV"
    case protobuf = "a GTFS-Realtime protobuf message"

    /// A binary body: recorded byte for byte (a secret in it cannot be scrubbed without
    /// corrupting it), and never searched for an HTML page beyond its first byte.
    public var isBinary: Bool { self == .zip || self == .protobuf }
}

/// One GET to a provider, described independently of where the answer comes from
/// (network, cache or a recording).
public struct HTTPRequest: Sendable {
    public struct QueryItem: Sendable, Hashable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Provider id (`bart`, `cta`…): the folder of its recordings and cache entries.
    public var provider: String
    public var baseURL: String
    /// Path under the base URL, without a leading slash: `stn.aspx`, `x-departures/a/b/2026-12-19`.
    public var path: String
    public var query: [QueryItem]
    public var headers: [String: String]
    /// It asks whether something changed since (If-None-Match, If-Modified-Since): a 304 answers.
    public var isConditional: Bool { headers.keys.contains { ["if-none-match", "if-modified-since"].contains($0.lowercased()) } }
    /// Query parameters and headers whose values are secrets: never printed, recorded or cached.
    public var secretNames: Set<String>
    /// How long a good answer may be served from the on-disk cache; nil means never cached.
    public var cacheTTL: TimeInterval?
    /// What the body should be, for the message when an HTML page comes instead.
    public var expects: BodyKind
    /// What is being fetched, in words, for the progress line (`BART stations`).
    public var label: String?
    /// The largest body accepted, counted after decoding; past it the request fails.
    public var maxBodyBytes: Int
    /// Seconds in which the server must connect and send its first byte (nil: `timeout` alone);
    /// once bytes flow, the whole transfer may take the client's `timeout`. Real-time sources
    /// have one of their own, so that a dead source never makes a query wait.
    public var firstByteDeadline: TimeInterval?
    /// Attempts in all (nil: the client's retry policy). A real-time source is tried once.
    public var attempts: Int?

    public static let defaultMaxBodyBytes = 64 << 20

    public init(provider: String, baseURL: String, path: String, query: [QueryItem] = [],
                headers: [String: String] = [:], secretNames: Set<String> = [], cacheTTL: TimeInterval? = nil,
                expects: BodyKind = .xml, label: String? = nil, maxBodyBytes: Int = HTTPRequest.defaultMaxBodyBytes) {
        self.expects = expects
        self.maxBodyBytes = maxBodyBytes
        self.label = label
        self.provider = provider
        self.baseURL = baseURL
        self.path = path
        self.query = query
        self.headers = headers
        self.secretNames = secretNames
        self.cacheTTL = cacheTTL
    }

    /// The variable that points this provider somewhere else.
    public var baseURLVariable: String { "TRANSIT_\(provider.uppercased())_BASE_URL" }

    /// The URL actually requested, secrets included.
    public var url: String { compose(secrets: .keep) }
    /// The URL to show people: secret values replaced by `REDACTED`.
    public var redactedURL: String { Redaction.url(compose(secrets: .redact)) }

    /// Non-secret query items, sorted: what identifies the request for the cache and recordings.
    public var identifyingQuery: [QueryItem] {
        query.filter { !secretNames.contains($0.name) }.sorted { ($0.name, $0.value) < ($1.name, $1.value) }
    }

    enum SecretHandling { case keep, redact }

    func compose(secrets: SecretHandling) -> String {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        var text = path.isEmpty ? base : base + "/" + path
        if !query.isEmpty {
            text += "?" + query.map { item in
                let value = secrets == .redact && secretNames.contains(item.name) ? "REDACTED" : item.value
                return Self.encode(item.name) + "=" + Self.encode(value)
            }.joined(separator: "&")
        }
        return text
    }

    /// Percent-encodes every UTF-8 byte outside ASCII letters, digits and `-._~:/,`. By hand:
    /// Foundation's `addingPercentEncoding` goes through CFString and a CharacterSet, which
    /// costs more at start-up than the whole command line.
    static func encode(_ text: String) -> String {
        func kept(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
            case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: ","): return true
            default: return false
            }
        }
        if text.utf8.allSatisfy(kept) { return text }
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if kept(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether a source as typed (a feed, a real-time source) is fetched over HTTP rather than
    /// read as a file: it starts `http://` or `https://`, in any case.
    public static func isURL(_ source: String) -> Bool {
        let lowered = source.lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }
}

/// What came back. Header names are lower-cased.
public struct HTTPResponse: Sendable {
    public enum Source: String, Sendable { case network, cache, recording }

    public var status: Int
    public var headers: [String: String]
    public var body: Data
    public var source: Source

    public init(status: Int, headers: [String: String] = [:], body: Data, source: Source = .network) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
        self.body = body
        self.source = source
    }

    public var contentType: String { headers["content-type"] ?? "" }

    /// The first ~160 characters of the body on one line, for error messages.
    public var excerpt: String {
        let text = String(decoding: body.prefix(400), as: UTF8.self)
        let oneLine = text.split(whereSeparator: \.isNewline).map { $0.trimmedSpace(newlines: false) }
            .filter { !$0.isEmpty }.joined(separator: " ")
        return oneLine.count > 160 ? String(oneLine.prefix(160)) + "…" : oneLine
    }

    /// True when the body is an HTML page (an error page, a login wall, a throttle notice).
    public var looksLikeHTML: Bool {
        let head = String(decoding: body.prefix(512), as: UTF8.self).trimmedSpace().lowercased()
        if head.hasPrefix("<!doctype html") || head.hasPrefix("<html") { return true }
        if head.hasPrefix("<?xml") || head.hasPrefix("{") || head.hasPrefix("[") { return false }
        return head.containsBytes(Array("<html".utf8))
    }
}
