import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport
import TransitTestSupport

/// Which environment variables a real-time source reads, and where (issue 41, items 12 and 13):
/// only those the user chose (typed, `--realtime-key`, `TRANSIT_KEY_…`), only in the query string
/// or a header, and never in a recording's file name. Lakeport's trip updates served by the
/// loopback server, asked through the binary.
@Suite struct RealtimeKeyTests {
    static let lakeport = Paths.fixtures + "/gtfs/lakeport"
    static let secret = "aws-secret-value-8f3k"

    static func serving() throws -> LoopbackServer {
        let updates = try Data(contentsOf: URL(fileURLWithPath: Paths.fixtures + "/gtfs/lakeport-realtime/trip-updates.pb"))
        return try LoopbackServer { _ in .respond(status: 200, headers: ["Content-Type": "application/x-protobuf"], body: updates, delay: 0) }
    }

    static func env(_ cache: String, _ extra: [String: String] = [:]) -> [String: String] {
        Run.environment(["TRANSIT_CACHE_DIR": cache, "TRANSIT_NOW": "2026-11-23T13:58:00Z", "AWS_SECRET_ACCESS_KEY": secret], extra)
    }

    static let board = ["gtfs", "departures", "--stop", "Market", "--date", "2026-11-23", "--after", "07:50", "--limit", "4"]

    /// Whether any request the server saw carried `value`, in its target or a header.
    static func carried(_ server: LoopbackServer, _ value: String) -> Bool {
        server.requests.contains { $0.target.contains(value) || $0.headers.values.contains { $0.contains(value) } }
    }

    /// A feed imported before issue 41 remembers a URL that reads `$AWS_SECRET_ACCESS_KEY` (a
    /// catalog row named it): the board answers as planned with one line saying how to choose the
    /// key, and nothing is sent. Importing it again with `--realtime-key` alone keeps the source and
    /// chooses the key; then it is read.
    @Test func aRememberedSourceReadsNoVariableItsImportDidNotChoose() async throws {
        let server = try Self.serving()
        defer { server.stop() }
        let cache = Paths.temporary()
        let url = server.baseURL + "/rt?AWS_SECRET_ACCESS_KEY=$AWS_SECRET_ACCESS_KEY"
        // What an older import wrote: the source, and no chosen keys.
        let store = FeedStore(cacheDirectory: cache)
        _ = try store.install(try FeedFiles.open(Self.lakeport), name: "lakeport", source: Self.lakeport, realtime: .init(sources: [url]))
        let planned = try await Run.transit(Self.board + ["--no-realtime"], env: Self.env(cache))
        let run = try await Run.transit(Self.board, env: Self.env(cache))
        // The planned rows, with the real-time columns of an answer that tried (its status "scheduled").
        #expect(run.status == 0 && run.stdoutLines.count == planned.stdoutLines.count && !run.stdout.isEmpty, "\(run.stderr)")
        #expect(zip(run.stdoutLines, planned.stdoutLines).allSatisfy { $0.hasPrefix($1 + "\t") && $0.contains("\tfalse\tscheduled") }, "\(run.stdout)")
        #expect(run.stderrLines == ["lakeport's remembered real-time source reads $AWS_SECRET_ACCESS_KEY, which its import did not choose: not read, the times are as planned; import it again with --realtime-key AWS_SECRET_ACCESS_KEY, or name the variable TRANSIT_KEY_…"], "\(run.stderr)")
        #expect(server.requests.isEmpty)
        // A command that reads real-time data only fails with the same words.
        let vehicles = try await Run.transit(["gtfs", "vehicles"], env: Self.env(cache))
        #expect(vehicles.status == 2 && vehicles.stderrLines.count == 1 && vehicles.stderr.contains("--realtime-key AWS_SECRET_ACCESS_KEY"), "\(vehicles.stderr)")
        #expect(server.requests.isEmpty)

        let chosen = try await Run.transit(["gtfs", "import", Self.lakeport, "--realtime-key", "AWS_SECRET_ACCESS_KEY"], env: Self.env(cache))
        #expect(chosen.status == 0, "\(chosen.stderr)")
        let live = try await Run.transit(Self.board, env: Self.env(cache))
        #expect(live.status == 0 && live.stderr.isEmpty && live.stdout.contains("\t240\ttrue\tupdated"), "\(live.stderr)")
        #expect(Self.carried(server, Self.secret))
    }

    /// Typed sources read the variables typed in them, and `TRANSIT_KEY_…` is always readable;
    /// a variable in a URL's path is refused where it is typed (import or query), before anything is sent.
    @Test func typedVariablesAreChosenAndPathsHoldNone() async throws {
        let server = try Self.serving()
        defer { server.stop() }
        let cache = Paths.temporary()
        let typed = try await Run.transit(["gtfs", "import", Self.lakeport, "--realtime", server.baseURL + "/rt?key=$MY_KEY"], env: Self.env(cache))
        #expect(typed.status == 0, "\(typed.stderr)")
        let run = try await Run.transit(Self.board, env: Self.env(cache, ["MY_KEY": "typed-key-value"]))
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        #expect(Self.carried(server, "key=typed-key-value"))

        for url in [server.baseURL + "/${HOME}/rt", server.baseURL + "/rt/$AWS_SECRET_ACCESS_KEY?x=1"] {
            let imported = try await Run.transit(["gtfs", "import", Self.lakeport, "--name", "other", "--realtime", url], env: Self.env(cache))
            #expect(imported.status == 2 && imported.stderrLines.count == 1 && imported.stderr.contains("never in the path"), "\(imported.stderr)")
            let asked = try await Run.transit(Self.board + ["--realtime", url], env: Self.env(cache))
            #expect(asked.status == 2 && asked.stderrLines.count == 1 && asked.stderr.contains("never in the path"), "\(asked.stderr)")
        }
        #expect(!Self.carried(server, Self.secret) && !server.requests.contains { $0.target.contains("/tmp") })

        // A remembered TRANSIT_KEY_ variable needs no choosing.
        let store = FeedStore(cacheDirectory: cache)
        _ = try store.install(try FeedFiles.open(Self.lakeport), name: "lakeport", source: Self.lakeport,
                              realtime: .init(sources: [server.baseURL + "/rt?k=$TRANSIT_KEY_LAKEPORT"]))
        let prefixed = try await Run.transit(Self.board, env: Self.env(cache, ["TRANSIT_KEY_LAKEPORT": "prefixed-key-value"]))
        #expect(prefixed.status == 0 && prefixed.stderr.isEmpty, "\(prefixed.stderr)")
        #expect(Self.carried(server, "k=prefixed-key-value"))
    }

    /// A recording's file name holds no registered secret, wherever the request carries it.
    @Test func aRecordingsNameHoldsNoSecret() {
        let secret = "path-secret-" + String(UInt32.random(in: 0...UInt32.max))
        Redaction.register(secret)
        let request = HTTPRequest(provider: "gtfs", baseURL: "http://127.0.0.1:9", path: "feeds/\(secret)/rt", query: [.init("agency", secret)])
        let path = Recording.path(for: request, in: "/tmp/rec")
        #expect(!path.contains(secret) && path.contains("REDACTED"), "\(path)")
    }

    /// A URL's fragment is the reader's: `--realtime 'http://h/x/y?k=1#top'` requested `/`
    /// (issue 62). The request is the path and query, nothing of the fragment.
    @Test func aFragmentIsNotSent() async throws {
        let server = try Self.serving()
        defer { server.stop() }
        let run = try await Run.transit(["gtfs", "departures", "--feed", Self.lakeport, "--stop", "Market", "--date", "2026-11-23", "--after", "07:50",
                                         "--limit", "1", "--realtime", server.baseURL + "/x/y?k=1#top"], env: Self.env(Paths.temporary()))
        #expect(run.status == 0 && server.requests.map(\.target) == ["/x/y?k=1"], "\(server.requests.map(\.target)) \(run.stderr)")
    }
}
