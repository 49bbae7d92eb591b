import Foundation
import Testing
import TransitSupport

/// `gtfs journey` checks the journey it was given (issue 66, item 3): the plan `gtfs trips`
/// printed, boarded where it boarded. Through the binary.
@Suite struct JourneyPlanTests {
    /// The columns by name, from csv's header (tsv has none; csv's lines end CRLF).
    static func rows(_ run: Run) -> [[String: String]] {
        let lines = run.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        guard let header = lines.first?.split(separator: ",", omittingEmptySubsequences: false).map(String.init) else { return [] }
        return lines.dropFirst().map { line in
            Dictionary(uniqueKeysWithValues: zip(header, line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)))
        }
    }

    static func boardings(_ run: Run) throws -> [String] {
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stderr)")
        return (answer["legs"] as? [[String: Any]] ?? []).map { "\($0["from"] as? String ?? "")@\($0["planned_departure"] as? String ?? "")" }
    }

    /// Halifax 2025 with its trip updates: the plan from Bridge Terminal to Mumford Terminal after
    /// 17:00 rides 3785471, walks to 7346 and boards 3787118 there. Its boarding column given back
    /// to `--board-at` holds (exit 0) and boards where the plan did; without `--board-at` too
    /// (before: the second ride was boarded at 7348, and the change found lost, exit 3).
    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func thePlanGivenIsThePlanChecked() async throws {
        let halifax = Reference.path("gtfs-rt/feeds/halifax-2025") + "/", env = Run.environment(["TRANSIT_NOW": "2025-11-06T21:03:30Z"])
        let common = ["--feed", halifax + "google_transit.zip", "--from", "Bridge Terminal", "--to", "Mumford Terminal", "--date", "2025-11-06",
                      "--realtime", halifax + "TripUpdates.pb"]
        let trips = try await Run.transit(["gtfs", "trips", "--after", "17:00", "--limit", "1", "--format", "csv"] + common, env: env)
        #expect(trips.status == 0, "\(trips.stderr)")
        let plan = try #require(Self.rows(trips).first, "\(trips.stdout)")
        #expect(plan["trip_ids"] == "3785471 > 3787118" && plan["boarding"] == "7605@16:45:00 > 7346@17:11:49"
                && plan["price"] == "" && plan["currency"] == "", "\(plan)")
        let planned = ["7605@2025-11-06T16:45:00-04:00", "7346@2025-11-06T17:11:49-04:00"]
        for boardAt in [["--board-at", plan["boarding"] ?? ""], ["--board-at", "7605@16:45:00>7346@17:11:49"], []] {
            let check = try await Run.transit(["gtfs", "journey", plan["trip_ids"] ?? "", "--format", "json"] + common + boardAt, env: env)
            #expect(check.status == 0, "\(boardAt): \(check.stderr)")
            #expect(try Self.boardings(check) == planned, "\(boardAt): \(check.stdout)")
        }
        // A boarding the run does not make is refused, saying when it leaves there.
        let wrong = try await Run.transit(["gtfs", "journey", "3785471>3787118", "--board-at", "7605@16:46:00>7346@17:11:49"] + common, env: env)
        #expect(wrong.status == 2 && wrong.stderrLines.last == "transit: trip 3785471 does not leave 7605 at 16:46:00 (--board-at): it leaves there at 16:45:00",
                "\(wrong.stderr)")
        let count = try await Run.transit(["gtfs", "journey", "3785471>3787118", "--board-at", "7605@16:45:00"] + common, env: env)
        #expect(count.status == 2 && count.stderr.contains("--board-at names where each ride boards: 2 for 2 rides"), "\(count.stderr)")
    }

    /// From a point on Lakeport (no real-time data): the plan's walk to the stop it boards at, and
    /// the check boards there too, its walk the plan's.
    @Test func aJourneyFromAPointChecksWithItsWalk() async throws {
        let feed = Paths.fixtures + "/gtfs/lakeport"
        let trips = try await Run.transit(["gtfs", "trips", "--feed", feed, "--from", "41.8410,-87.6130", "--to", "Stadium", "--date", "2026-11-23",
                                           "--after", "07:55", "--limit", "1", "--format", "json"])
        #expect(trips.status == 0, "\(trips.stderr)")
        let journey = try #require(try trips.records().first, "\(trips.stdout)")
        let legs = journey["legs"] as? [[String: Any]] ?? []
        #expect(legs.first?["mode"] as? String == "walk", "\(legs)")
        let rides = legs.filter { $0["mode"] as? String == "ride" }
        let ids = rides.map { ($0["trip_id"] as? String ?? "") + (($0["trip_start"] as? String).map { "@" + $0 } ?? "") }.joined(separator: ">")
        let check = try await Run.transit(["gtfs", "journey", ids, "--feed", feed, "--from", "41.8410,-87.6130", "--to", "Stadium",
                                           "--date", "2026-11-23", "--format", "json"])
        #expect(check.status == 0, "\(check.stderr)")
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any])
        let checked = (answer["legs"] as? [[String: Any]] ?? []).map { $0["from"] as? String ?? "" }
        #expect(checked == rides.map { $0["from"] as? String ?? "" }, "\(checked) \(rides)")
    }
}
