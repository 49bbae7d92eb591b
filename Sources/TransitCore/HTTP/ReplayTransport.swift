import Foundation

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
            throw .noRecording(path: URL(fileURLWithPath: path).standardizedFileURL.path, request: request.redactedURL)
        }
        guard let recording = Recording.decode(data, source: .recording) else {
            throw .parse(what: "recording \(path)", reason: "expected '# notes', 'status: N', a blank line, then the body")
        }
        return recording.response
    }
}
