import Foundation
import TransitSupport
import TransitCore

extension LoopbackServer {
    /// Serves the recordings of a fixtures directory by the request's path and query, the way
    /// `--offline` finds them, and answers 404 "no fixture …" to anything else: a double that
    /// refuses to guess. `prefix` is the base URL's path (`/api/` for BART).
    public static func recordings(in directory: String, provider: String = "bart", prefix: String = "/api/")
        -> @Sendable (Request) -> Behavior {
        return { request in
            let path = request.path.hasPrefix(prefix) ? String(request.path.dropFirst(prefix.count)) : request.path
            let http = HTTPRequest(provider: provider, baseURL: "", path: path,
                                   query: request.query.map { HTTPRequest.QueryItem($0.name, $0.value) }, secretNames: ["key", "appid"])
            let file = Recording.path(for: http, in: directory)
            guard let data = FileManager.default.contents(atPath: file),
                  let recording = Recording.decode(data, source: .recording) else {
                return .status(404, "no fixture \(file)")
            }
            return .respond(status: recording.response.status, headers: ["Content-Type": recording.response.contentType],
                            body: recording.response.body, delay: 0)
        }
    }
}
