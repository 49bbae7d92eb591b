import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport
import TransitTestSupport

/// Servers that try to hurt the client: endless bodies, gzip bombs, redirects elsewhere or in
/// a loop. Each ends in one failure, with the right error, and nothing leaks. One at a time:
/// a server pumping bytes at full speed takes both cores of a small machine while it runs.
@Suite(.serialized) struct HostileServerTests {
    func request(_ server: LoopbackServer, path: String = "stn.aspx", limit: Int = HTTPRequest.defaultMaxBodyBytes) -> HTTPRequest {
        HTTPRequest(provider: "bart", baseURL: server.baseURL, path: path, query: [.init("key", "SECRET-KEY")],
                    headers: ["X-Token": "TOKEN-1"], secretNames: ["key", "X-Token"], maxBodyBytes: limit)
    }

    func failure(_ client: HTTPClient, _ request: HTTPRequest) async -> TransitError? {
        do { _ = try await client.get(request) { $0.body }; return nil } catch { return error }
    }

    @Test func anEndlessBodyStopsAtTheLimit() async throws {
        let server = try LoopbackServer { _ in .endless(status: 200, headers: ["Content-Type": "text/xml"], chunk: Data(repeating: 32, count: 65536)) }
        defer { server.stop() }
        let error = await failure(makeClient(timeout: 30), request(server, limit: 4 << 20))
        #expect(error == .refused("the answer from \(server.baseURL)/stn.aspx?key=REDACTED is larger than 4 MB", hint: nil))
        #expect(server.requests.count == 1)  // refused, not retried
    }

    @Test func theDeadlineEndsAFastEndlessBody() async throws {
        // 32 MB/s, never a pause long enough for an idle timeout (the old way of ending a
        // request); a limit nothing reaches: only the deadline can end it.
        let server = try LoopbackServer { _ in .endless(status: 200, headers: [:], chunk: Data(repeating: 32, count: 65536), every: 0.002) }
        defer { server.stop() }
        let error = await failure(makeClient(timeout: 0.5), request(server, limit: Int.max))
        // It had begun: said with what came (issue 68), not as no answer.
        #expect(error?.kind == "slow" && error?.message.contains("did not end within 0.5 s (") == true && error?.message.hasSuffix(" read, no length given)") == true,
                "\(String(describing: error?.message))")
    }

    @Test func aGzipBombIsCountedAfterDecoding() async throws {
        let inflated = 32 << 20
        let bomb = try #require(gzip(Data(repeating: 0x20, count: inflated)))
        #expect(bomb.count < 100_000)
        let server = try LoopbackServer { _ in .respond(status: 200, headers: ["Content-Encoding": "gzip", "Content-Type": "text/xml"], body: bomb, delay: 0) }
        defer { server.stop() }
        let error = await failure(makeClient(timeout: 30), request(server, limit: 8 << 20))
        #expect(error?.kind == "refused" && error?.message.hasSuffix("is larger than 8 MB") == true)
    }

    @Test func aRedirectToAnotherHostIsRefusedAndCarriesNothing() async throws {
        let other = try LoopbackServer(host: "127.0.0.2") { _ in .ok("<root/>") }
        defer { other.stop() }
        let server = try LoopbackServer { _ in .redirect(status: 302, location: other.baseURL + "/stn.aspx?key=SECRET-KEY") }
        defer { server.stop() }
        let error = await failure(makeClient(), request(server))
        #expect(error == .refused("\(server.baseURL)/stn.aspx?key=REDACTED redirects to another host, 127.0.0.2; not followed",
                                  hint: "to use that host, set TRANSIT_BART_BASE_URL"))
        #expect(other.requests.isEmpty)
        #expect(server.requests.count == 1)
    }

    @Test func sameHostRedirectsAreFollowedWithTheirHeaders() async throws {
        let server = try LoopbackServer { request in
            request.path == "/final" ? .ok("<root/>") : .redirect(status: 301, location: "/final")
        }
        defer { server.stop() }
        let body = try await makeClient().get(request(server)) { $0.body }
        #expect(String(decoding: body, as: UTF8.self) == "<root/>")
        #expect(server.requests.map(\.path) == ["/stn.aspx", "/final"])
        #expect(server.requests.last?.headers["x-token"] == "TOKEN-1")
    }

    @Test func aRedirectLoopIsOneFailure() async throws {
        let server = try LoopbackServer { _ in .redirect(status: 302, location: "/stn.aspx") }
        defer { server.stop() }
        let error = await failure(makeClient(), request(server))
        #expect(error?.kind == "refused" && error?.message.contains("redirected more than 5 times") == true)
        #expect(server.requests.count == 1 + URLSessionTransport.maxRedirects)
    }

    /// Through the binary: exit 1, one line naming the host and the variable; `-v` shows the hop.
    @Test func theBinaryRefusesACrossHostRedirect() async throws {
        let other = try LoopbackServer(host: "127.0.0.2") { _ in .ok("<root/>") }
        defer { other.stop() }
        let server = try LoopbackServer { _ in .redirect(status: 302, location: other.baseURL + "/stn.aspx") }
        defer { server.stop() }
        let run = try await Run.transit(["-v", "bart", "stations"], env: Run.environment(["TRANSIT_BART_BASE_URL": server.baseURL]))
        #expect(run.status == 1)
        #expect(run.stderrLines.contains { $0.hasPrefix("transit: redirect 302 from \(server.baseURL)/stn.aspx?") && $0.hasSuffix("to \(other.baseURL)/stn.aspx") })
        #expect(run.stderrLines.contains { $0.hasPrefix("transit: \(server.baseURL)/stn.aspx?") && $0.hasSuffix("redirects to another host, 127.0.0.2; not followed") })
        #expect(run.stderr.contains("set TRANSIT_BART_BASE_URL"))
        #expect(!run.stderr.contains("MW9S-E7SL-26DU-VV8V"))
        #expect(other.requests.isEmpty)
    }

    @Test func theBinaryStopsAnEndlessBodyAt64MB() async throws {
        let server = try LoopbackServer { _ in .endless(status: 200, headers: ["Content-Type": "text/xml"], chunk: Data(repeating: 32, count: 1 << 18)) }
        defer { server.stop() }
        let run = try await Run.transit(["--timeout", "20", "bart", "stations"], env: Run.environment(["TRANSIT_BART_BASE_URL": server.baseURL]))
        #expect(run.status == 1)
        #expect(run.stderrLines.count == 1 && run.stderrLines.first?.hasSuffix("is larger than 64 MB") == true, "\(run.stderr)")
    }

    /// A server that echoes the key into its error (with HTTP 200, as BusTime does): the key
    /// is printed nowhere and recorded nowhere.
    @Test func anEchoedKeyIsNeitherPrintedNorRecorded() async throws {
        let server = try LoopbackServer { request in
            .ok(#"{"bustime-response":{"error":[{"msg":"Invalid API access key supplied: \#(request.value("key") ?? "")"}]}}"#, type: "application/json")
        }
        defer { server.stop() }
        let record = Paths.temporary()
        let run = try await Run.transit(["-v", "--record", record, "cta", "predictions", "--stop", "1836", "--route", "22"],
                                        env: Run.environment(["TRANSIT_CTA_BASE_URL": server.baseURL, "TRANSIT_CTA_KEY": "KEY-SECRET-42"]))
        #expect(run.status == 1)
        #expect(run.stderr.contains("Invalid API access key supplied: REDACTED"), "\(run.stderr)")
        #expect(!run.stderr.contains("KEY-SECRET-42") && !run.stdout.contains("KEY-SECRET-42"))
        #expect(server.requests.first?.value("key") == "KEY-SECRET-42")  // it was sent, just never shown
        let files = (FileManager.default.enumerator(atPath: record)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".http") }
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOfFile: record + "/" + file, encoding: .utf8)
            #expect(!text.contains("KEY-SECRET-42") && text.contains("Invalid API access key supplied: REDACTED"), "\(file)")
        }
    }

    /// Issue 12 item 8: an empty answer, in any of its shapes, is exit 0 with a notice.
    @Test func anEmptyAnswerIsNeverSilent() async throws {
        for body in [#"{"bustime-response":{}}"#, #"{"bustime-response":{"routes":null}}"#, #"{"bustime-response":{"routes":{}}}"#] {
            let server = try LoopbackServer { _ in .ok(body, type: "application/json") }
            defer { server.stop() }
            let run = try await Run.transit(["cta", "routes"], env: Run.environment(["TRANSIT_CTA_BASE_URL": server.baseURL, "TRANSIT_CTA_KEY": "K-1234"]))
            #expect(run.status == 0 && run.stdout == "", "\(body): \(run.stderr)")
            #expect(run.stderrLines.count == 1 && run.stderr.lowercased().contains("no route"), "\(body): \(run.stderr)")
        }
    }

    func gzip(_ data: Data) -> Data? { compress(data, format: .gzip) }
}
