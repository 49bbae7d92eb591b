import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport

/// Retry, cache and record decisions of the HTTP path, against a scripted transport: no
/// sockets, no waiting. The loopback tests keep what only a socket shows.
@Suite struct HTTPDecisionTests {
    /// Answers from a script, one per call; the last answer repeats.
    final class StubTransport: HTTPTransport {
        let script: [Result<HTTPResponse, TransitError>]
        let calls = Locked(0)

        init(_ script: [Result<HTTPResponse, TransitError>]) {
            self.script = script
        }

        var count: Int { calls.current }

        func send(_ request: HTTPRequest, timeout: TimeInterval) async throws(TransitError) -> HTTPResponse {
            let n = calls.withLock { $0 += 1; return $0 }
            guard let last = script.last else { throw .network(url: request.redactedURL, reason: "empty script") }
            return try (n <= script.count ? script[n - 1] : last).get()
        }
    }

    static func ok(_ body: String = "<root/>") -> Result<HTTPResponse, TransitError> { .success(HTTPResponse(status: 200, body: Data(body.utf8))) }
    static func status(_ code: Int, _ headers: [String: String] = [:]) -> Result<HTTPResponse, TransitError> {
        .success(HTTPResponse(status: code, headers: headers, body: Data("no".utf8)))
    }
    static let refused: Result<HTTPResponse, TransitError> = .failure(.network(url: "u", reason: "connection refused"))

    let request = HTTPRequest(provider: "p", baseURL: "http://h/api", path: "x.aspx", query: [.init("cmd", "a"), .init("key", "SECRET")],
                              secretNames: ["key"], cacheTTL: 60)

    func client(_ transport: StubTransport, cache: String? = nil, record: String? = nil) -> HTTPClient {
        var options = HTTPClient.Options()
        options.retry = RetryPolicy(maxAttempts: 3, baseDelay: 0, maxRetryAfter: 10)
        options.cacheDirectory = cache
        options.recordDirectory = record
        return HTTPClient(transport: transport, options: options)
    }

    func text(_ r: HTTPResponse) -> String { String(decoding: r.body, as: UTF8.self) }

    @Test func serverErrorsAndRefusalsAreRetriedUpToThreeAttempts() async throws {
        let flaky = StubTransport([Self.status(503), Self.refused, Self.ok()])
        #expect(try await client(flaky).get(request) { text($0) } == "<root/>")
        #expect(flaky.count == 3)
        let down = StubTransport([Self.status(500)])
        #expect(await asyncErrorKind { try await client(down).get(request) { text($0) } } == "http")
        #expect(down.count == 3)
    }

    @Test func clientErrorsTimeoutsAndLongRetryAfterAreNotRetried() async throws {
        for script in [[Self.status(404)], [Self.status(429, ["Retry-After": "3600"])],
                       [Result<HTTPResponse, TransitError>.failure(.timeout(url: "u", seconds: 1))]] {
            let stub = StubTransport(script)
            #expect(await asyncErrorKind { try await client(stub).get(request) { text($0) } } != nil)
            #expect(stub.count == 1)
        }
        let patient = StubTransport([Self.status(429, ["Retry-After": "0"]), Self.ok()])
        #expect(try await client(patient).get(request) { text($0) } == "<root/>")
        #expect(patient.count == 2)
    }

    @Test func aGoodAnswerIsCachedAndARejectedOneIsNot() async throws {
        let cache = Paths.temporary()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let stub = StubTransport([Self.ok("<a/>")])
        for _ in 0..<3 { #expect(try await client(stub, cache: cache).get(request) { text($0) } == "<a/>") }
        #expect(stub.count == 1)
        // The decoder refuses the body (an API error with HTTP 200): every call goes out again.
        var other = request
        other.query = [.init("cmd", "b")]
        let refusing = StubTransport([Self.ok("<error/>")])
        for _ in 0..<2 {
            let kind = await asyncErrorKind {
                try await client(refusing, cache: cache).get(other) { (r: HTTPResponse) throws(TransitError) -> String in
                    throw .api(provider: "p", message: "Invalid key", details: nil)
                }
            }
            #expect(kind == "api")
        }
        #expect(refusing.count == 2)
        // A request without a lifetime is never cached.
        var live = request
        live.cacheTTL = nil
        let liveStub = StubTransport([Self.ok()])
        for _ in 0..<2 { _ = try await client(liveStub, cache: cache).get(live) { text($0) } }
        #expect(liveStub.count == 2)
    }

    @Test func networkAnswersAreRecordedWithoutTheKey() async throws {
        let dir = Paths.temporary()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try await client(StubTransport([Self.ok("<b/>")]), record: dir).get(request) { text($0) }
        let path = Recording.path(for: request, in: dir)
        #expect(path == dir + "/p/x.aspx/cmd=a.http")
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        #expect(saved.contains("GET http://h/api/x.aspx?cmd=a&key=REDACTED") && !saved.contains("SECRET") && saved.hasSuffix("<b/>"))
        // Served from a recording (--offline): nothing is recorded again.
        let replay = StubTransport([.success(HTTPResponse(status: 200, body: Data("<c/>".utf8), source: .recording))])
        var other = request
        other.query = [.init("cmd", "c")]
        _ = try await client(replay, record: dir).get(other) { text($0) }
        #expect(!FileManager.default.fileExists(atPath: Recording.path(for: other, in: dir)))
    }
}
