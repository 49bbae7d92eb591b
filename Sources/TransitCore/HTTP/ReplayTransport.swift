import Foundation
import TransitSupport

/// Serves recorded responses and never touches the network (`--offline`).
public struct ReplayTransport: HTTPTransport {
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    public func send(_ request: HTTPRequest, timeout: TimeInterval) async throws(TransitError) -> HTTPResponse {
        let path = Recording.path(for: request, in: directory)
        // Recordings made before spaces were %-encoded wrote them as `+`.
        let legacy = Recording.path(for: request, in: directory, legacy: true)
        guard let data = FileManager.default.contents(atPath: path) ?? FileManager.default.contents(atPath: legacy) else {
            // Said in full: run from elsewhere, a relative Fixtures/ is not where the user thinks.
            throw .noRecording(path: URL(fileURLWithPath: path).standardizedFileURL.path, request: request.redactedURL,
                               recorded: Self.recorded(beside: path, asked: request))
        }
        guard let recording = Recording.decode(data, source: .recording) else {
            throw .parse(what: "recording \(path)", reason: "expected '# notes', 'status: N', a blank line, then the body")
        }
        return recording.response
    }

    /// What the endpoint's other recordings were asked for, in the parameters this request sets
    /// to something else (a date, a city, a stop): at most six, for a hint.
    static func recorded(beside path: String, asked request: HTTPRequest) -> [String] {
        let folder = (path as NSString).deletingLastPathComponent
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".http") }.sorted()
        let asked = Dictionary(request.query.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
        var seen = Set<String>(), out: [String] = []
        for name in names {
            for pair in name.dropLast(5).split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, let mine = asked[parts[0]], mine != parts[1], !request.secretNames.contains(parts[0]) else { continue }
                let text = parts[0] + "=" + (parts[1].removingPercentEncoding ?? parts[1])
                if seen.insert(text).inserted { out.append(text) }
            }
        }
        return Array(out.prefix(6))
    }
}
