import Foundation
import Testing
@testable import TransitCore
@testable import TransitSupport
import TransitTestSupport

/// A real-time source that is down, hangs, never ends or sends garbage never changes the exit
/// status of a board or a journey query: through the loopback server, each fault many times,
/// on the bundled Lakeport, the answer is exit 0 and the timetable (issue 29). 12 runs of each
/// fault in CI; `TRANSIT_FAULT_RUNS=100` for more.
@Suite struct SourceFaultTests {
    static let runs = ProcessInfo.processInfo.environment["TRANSIT_FAULT_RUNS"].flatMap(Int.init) ?? 12

    @Test func noSourceFaultChangesTheExitStatus() async throws {
        let good = try Data(contentsOf: URL(fileURLWithPath: Paths.fixtures + "/gtfs/lakeport-realtime/trip-updates.pb"))
        var generator = SplitMix(seed: 20_261_125)
        // Garbage: the recording cut, flipped or replaced by noise, chosen per request.
        let garbage = Locked([Data]())
        for _ in 0..<Self.runs {
            var bytes = good
            switch Int.random(in: 0...2, using: &generator) {
            case 0: bytes = bytes.prefix(Int.random(in: 0..<bytes.count, using: &generator))
            case 1: for _ in 0..<8 { bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            default: bytes = Data((0..<Int.random(in: 1...4096, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) })
            }
            garbage.withLock { $0.append(bytes) }
        }
        let served = Locked(0)
        let server = try LoopbackServer { request in
            switch request.path {
            case "/down.pb": return .close
            case "/hung.pb": return .hang
            case "/endless.pb": return .endless(status: 200, headers: [:], chunk: Data(repeating: 0x0A, count: 1 << 16))
            case "/error.pb": return .status(503, "<html>busy</html>")
            default:
                let k = served.withLock { $0 += 1; return $0 - 1 }
                let body = garbage.withLock { $0.isEmpty ? Data() : $0[k % $0.count] }
                return .respond(status: 200, headers: ["Content-Type": "application/x-protobuf"], body: body, delay: 0)
            }
        }
        defer { server.stop() }
        let cache = Paths.temporary(), env = Run.environment(["TRANSIT_CACHE_DIR": cache])
        let imported = try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/lakeport"], env: env)
        #expect(imported.status == 0, "\(imported.stderr)")
        let queries = [["departures", "--stop", "Harbor", "--limit", "3"], ["trips", "--from", "Harbor", "--to", "Stadium", "--limit", "2"]]
        var counted: [String: Int] = [:]
        for fault in ["down", "hung", "endless", "error", "garbage"] {
            for run in 0..<Self.runs {
                let query = queries[run % queries.count]
                let source = server.baseURL + "/" + fault + ".pb"
                let args = ["--timeout", "0.5", "gtfs"] + query + ["--date", "2026-11-23", "--after", "07:55", "--realtime", source]
                let result = try await Run.transit(args, env: env)
                #expect(result.status == 0 && !result.stdout.isEmpty, "\(fault) \(run) \(query[0]): \(result.status) \(result.stderr)")
                counted[fault, default: 0] += 1
            }
        }
        print("source faults: \(counted.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")) runs, every one exit 0")
        #expect(counted.values.allSatisfy { $0 == Self.runs })
    }

    /// Issue 68: a source that answers, but at 20 KB/s, is cut at its deadline and called slow,
    /// with the bytes read of the total, not "no answer": as a real-time source of a board
    /// (exit 0, the times as planned) and as a feed to import (exit 1, nothing imported).
    @Test func aSlowTransferIsCalledSlowWithWhatCame() async throws {
        let body = Data(repeating: 0x0A, count: 200 * 1024)
        let server = try LoopbackServer { _ in .slow(status: 200, headers: ["Content-Type": "application/octet-stream"], body: body, bytesPerSecond: 20 * 1024) }
        defer { server.stop() }
        let cache = Paths.temporary(), env = Run.environment(["TRANSIT_CACHE_DIR": cache])
        let imported = try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/lakeport"], env: env)
        #expect(imported.status == 0, "\(imported.stderr)")
        let source = server.baseURL + "/slow.pb"
        // (--realtime-timeout is how long an answer may take to begin; --timeout ends the transfer.)
        let board = try await Run.transit(["--timeout", "1", "gtfs", "departures", "--stop", "Harbor", "--limit", "2", "--date", "2026-11-23", "--after", "07:55",
                                           "--realtime", source], env: env)
        #expect(board.status == 0 && !board.stdout.isEmpty, "\(board.stderr)")
        let slow = #/^not live: .*/slow\.pb answered too slowly: ([0-9]+) KB of 200 KB read in 1 s; the times are as planned$/#.anchorsMatchLineEndings()
        let match = try #require(board.stderr.firstMatch(of: slow), "\(board.stderr)")
        #expect((1..<200).contains(Int(match.1) ?? 0), "\(board.stderr)")
        #expect(!board.stderr.contains("no answer"), "\(board.stderr)")

        let fetched = try await Run.transit(["--timeout", "1", "gtfs", "import", server.baseURL + "/feed.zip", "--name", "slow"], env: env)
        #expect(fetched.status == 1, "\(fetched.stderr)")
        #expect(fetched.stderr.firstMatch(of: #/^transit: .*/feed\.zip answered too slowly: [0-9]+ KB of 200 KB read in 1 s\n/#) != nil, "\(fetched.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cache + "/gtfs/slow.timetable"))
    }
}
