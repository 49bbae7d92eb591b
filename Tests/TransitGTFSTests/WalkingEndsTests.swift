import Foundation
import Testing
import TransitSupport

/// Journeys start and end on foot (issue 43, item 2), through the binary: a named stop is also
/// every stop within `--walk` of it, each reached by a walk leg of the walk `gtfs walks` lists.
/// Lakeport with its map: University Gate is served only by bus 22, which runs on weekdays; on
/// a Saturday the Shore Line at University, about 100 m away in a straight line and 220–235 m on
/// the map's streets, still runs.
@Suite struct WalkingEndsTests {
    static let saturday = "2026-11-28"

    /// Lakeport imported with its map into a cache of its own.
    func imported() async throws -> [String: String] {
        let env = Run.environment(["TRANSIT_CACHE_DIR": Paths.temporary()])
        let run = try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/lakeport", "--streets", Paths.fixtures + "/osm/lakeport.osm.pbf"], env: env)
        #expect(run.status == 0, "\(run.stderr)")
        return env
    }

    @Test func aStopWhoseLineDoesNotRunStartsWithAWalkToOneThatDoes() async throws {
        let env = try await imported()
        let query = ["--format", "json", "gtfs", "trips", "--from", "University Gate", "--to", "Stadium", "--date", Self.saturday, "--after", "07:00", "--limit", "1"]
        let trips = try await Run.transit(query, env: env)
        #expect(trips.status == 0, "\(trips.stderr)")
        let legs = try #require(try trips.records().first?["legs"] as? [[String: Any]])
        let first = try #require(legs.first), ride = try #require(legs.dropFirst().first)
        #expect(first["mode"] as? String == "walk" && first["from"] as? String == "B_UNI")
        #expect(ride["mode"] as? String == "ride" && ride["route"] as? String == "SL" && ride["from"] as? String == first["to"] as? String)
        // The walk is the one stored on the map's streets, listed by `gtfs walks`.
        let walks = try await Run.transit(["--format", "json", "gtfs", "walks", "--stop", "University Gate"], env: env).records()
        let listed = try #require(walks.first { $0["to"] as? String == first["to"] as? String })
        let street = try #require(listed["street_meters"] as? Double), walked = try #require(first["walk_meters"] as? Double)
        #expect(abs(street - walked) <= 0.5, "walked \(walked) m, listed \(street) m")
        #expect(first["walk_seconds"] as? Int == listed["seconds"] as? Int)
        #expect(street > (listed["straight_meters"] as? Double ?? .infinity), "the walk follows the streets")
        // The walk ends where the ride boards, as it leaves.
        #expect(first["arrival"] as? String == ride["departure"] as? String)
        // A walk first: the table's DEPART says when to leave, FROM where and when the ride boards.
        let table = try await Run.transit(Array(query.dropFirst(2)) + ["--format", "table"], env: env)
        let row = try #require(table.stdoutLines.dropFirst().first)
        let boards = try #require((ride["departure"] as? String)?.dropFirst(11).prefix(5))
        #expect(row.hasPrefix((first["departure"] as? String)?.dropFirst(11).prefix(5) ?? "?") && row.contains("  University \(boards)  "), "\(table.stdout)")
        // --walk 0 turns walking ends off: the stop's own line does not run, and "No journey" says so (issue 66).
        let alone = try await Run.transit(query + ["--walk", "0"], env: env)
        #expect(alone.status == 0 && alone.stdout == "[]\n" && alone.stderrLines == ["No journey from University Gate to Stadium on \(Self.saturday) in that window: "
                    + "no run leaves from University Gate (--walk 0) on \(Self.saturday); the nearest that one does is University (UNI2), 86 m away"],
                "\(alone.stdout) \(alone.stderr)")
    }

    @Test func aJourneyEndsWithAWalkFromTheStopThatRuns() async throws {
        let env = try await imported()
        let trips = try await Run.transit(["--format", "json", "gtfs", "trips", "--from", "Stadium", "--to", "University Gate", "--date", Self.saturday,
                                           "--after", "07:00", "--limit", "1"], env: env)
        let legs = try #require(try trips.records().first?["legs"] as? [[String: Any]])
        let last = try #require(legs.last)
        #expect(last["mode"] as? String == "walk" && last["to"] as? String == "B_UNI" && ["UNI1", "UNI2"].contains(last["from"] as? String ?? ""))
        #expect(try trips.records().first?["destination"] as? String == "B_UNI")
    }

    @Test func reachListsTheStopsWalkedToAndABoardStaysTheStopsOwn() async throws {
        let env = try await imported()
        let reach = try await Run.transit(["--format", "json", "gtfs", "reach", "--from", "University Gate", "--date", Self.saturday, "--after", "07:00",
                                           "--minutes", "20"], env: env).records()
        let walked = reach.filter { $0["transfers"] is NSNull }.compactMap { $0["stop_id"] as? String }
        #expect(Set(walked) == ["UNI1", "UNI2"], "\(reach)")
        // Then by the Shore Line from there: Airport is one stop north.
        #expect(reach.contains { $0["stop_id"] as? String == "APT2" && $0["transfers"] as? Int == 0 })
        let table = try await Run.transit(["gtfs", "reach", "--from", "University Gate", "--date", Self.saturday, "--after", "07:00", "--minutes", "5",
                                           "--format", "table"], env: env)
        #expect(table.stdout.split(separator: "\n").dropFirst().allSatisfy { $0.hasSuffix("walk") }, "\(table.stdout)")
        let board = try await Run.transit(["gtfs", "departures", "--stop", "University Gate", "--date", Self.saturday], env: env)
        #expect(board.status == 0 && board.stdout.isEmpty && board.stderrLines == ["No departures from University Gate on \(Self.saturday)"])
    }
}
