import Foundation
import Testing
import TransitSupport

/// Issue 45, item 4: `gtfs journey` checks a journey again with the real-time data, through the
/// binary on Lakeport and its real-time fixture (07:58 on 2026-11-23): exit 0 when it holds, 3
/// when a change is lost or a ride canceled, with what to take instead; without data, the
/// timetable and a notice, exit 0.
@Suite struct JourneyCheckTests {
    static let feed = Paths.fixtures + "/gtfs/lakeport", realtime = Paths.fixtures + "/gtfs/lakeport-realtime/trip-updates.pb"

    static func check(_ trips: String, to: String = "Stadium", _ extra: [String] = [], live: Bool = true) async throws -> Run {
        try await Run.transit(["gtfs", "journey", trips, "--feed", feed, "--from", "Harbor", "--to", to, "--date", "2026-11-23"]
                              + (live ? ["--realtime", realtime] : []) + extra, env: Run.environment(["TRANSIT_NOW": "2026-11-23T13:59:00Z"]))
    }

    static func json(_ run: Run) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stderr)")
    }

    /// The 08:00 Shore Line leaves 4 minutes late, and the M1 of 08:06 waits 2: the timed change
    /// at Market holds, a minute to spare. The journey is the one tsv printed (trip_ids, a
    /// frequencies.txt run as trip_id@start), passed on through a shell.
    @Test func aJourneyThatHoldsExitsZero() async throws {
        let script = "\"$0\" gtfs trips --feed \"$1\" --from Harbor --to Stadium --date 2026-11-23 --after 07:55 --limit 1 | cut -f9"
        let tsv = try await Run.transitLike(["/bin/sh", "-c", script, Run.binary, Self.feed], env: Run.environment())
        #expect(tsv.stdout == "SL-WK-N05 > M1-WK-E@08:06:00\n", "\(tsv.stdout)\(tsv.stderr)")
        let run = try await Self.check(tsv.stdout.trimmingCharacters(in: .whitespacesAndNewlines), ["--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        let answer = try Self.json(run)
        #expect(answer["holds"] as? Bool == true && answer["realtime"] as? Bool == true)
        let legs = try #require(answer["legs"] as? [[String: Any]]), changes = try #require(answer["changes"] as? [[String: Any]])
        #expect(legs.map { $0["departure"] as? String } == ["2026-11-23T08:04:00-06:00", "2026-11-23T08:08:00-06:00"])
        #expect(legs.map { $0["planned_departure"] as? String } == ["2026-11-23T08:00:00-06:00", "2026-11-23T08:06:00-06:00"])
        #expect(legs.map { $0["status"] as? String } == ["updated", "updated"])
        #expect(changes.count == 1 && changes.first?["at"] as? String == "Market" && changes.first?["margin_minutes"] as? Int == 1
                && changes.first?["needs_minutes"] as? Int == 0 && changes.first?["holds"] as? Bool == true, "\(changes)")
        #expect((answer["instead"] as? [Any])?.isEmpty == true)
        let table = try await Self.check("SL-WK-N05 > M1-WK-E@08:06:00", ["--format", "table"])
        #expect(table.status == 0 && table.stdoutLines.last == "Change at Market: 1 min to spare (a timed change)", "\(table.stdout)")
    }

    /// The 09:30 Shore Line leaves 5 minutes late and no M1 waits: the change to the 09:36 is lost
    /// by 2 minutes. Exit 3, one line on stderr, and the journeys from Market once the train is in
    /// (the M1 runs of 09:42 and 09:48).
    @Test func aChangeTheDelayBreaksExitsThree() async throws {
        let run = try await Self.check("SL-WK-N08 > M1-WK-E@09:36:00", ["--format", "json"])
        #expect(run.status == 3 && run.stderrLines == ["transit: the change at Market to the 09:36 M1 is lost by 2 min (a timed change)"], "\(run.stderr)")
        let answer = try Self.json(run)
        #expect(answer["holds"] as? Bool == false)
        let change = try #require((answer["changes"] as? [[String: Any]])?.first)
        #expect(change["margin_minutes"] as? Int == -2 && change["holds"] as? Bool == false, "\(change)")
        let instead = try #require(answer["instead"] as? [[String: Any]])
        #expect(instead.map { $0["departure"] as? String } == ["2026-11-23T09:42:00-06:00", "2026-11-23T09:48:00-06:00"], "\(instead)")
        #expect(instead.allSatisfy { ($0["legs"] as? [[String: Any]])?.first?["route"] as? String == "M1" })
        let table = try await Self.check("SL-WK-N08 > M1-WK-E@09:36:00", ["--format", "table"])
        #expect(table.status == 3 && table.stdoutLines.contains("Change at Market: lost by 2 min (a timed change)")
                && table.stdoutLines.contains { $0.hasPrefix("Instead: 09:42 → 09:48 M1") }, "\(table.stdout)")
    }

    /// The 08:30 Shore Line is canceled: exit 3, and the journeys from Harbor instead.
    @Test func aCanceledRideExitsThree() async throws {
        let run = try await Self.check("SL-WK-N06 > M1-WK-E@08:36:00", ["--format", "json"])
        #expect(run.status == 3 && run.stderrLines == ["transit: the 08:30 SL is canceled"], "\(run.stderr)")
        let answer = try Self.json(run)
        #expect((answer["legs"] as? [[String: Any]])?.first?["status"] as? String == "canceled")
        let instead = try #require(answer["instead"] as? [[String: Any]])
        #expect(!instead.isEmpty && instead.allSatisfy { ($0["legs"] as? [[String: Any]] ?? []).allSatisfy { $0["trip_id"] as? String != "SL-WK-N06" } })
    }

    /// Bus 22-WK-03 skips Hillcrest: a journey that leaves it there no longer holds (exit 3), and
    /// stderr names the stop and why.
    @Test func aSkippedStopExitsThree() async throws {
        let run = try await Self.check("SL-WK-N04 > 22-WK-03", to: "B_HIL", ["--format", "json"])
        #expect(run.status == 3 && run.stderrLines == ["transit: the 08:00 22 no longer stops at Hillcrest (skipped)"], "\(run.stderr)")
        let answer = try Self.json(run)
        #expect(answer["holds"] as? Bool == false && (answer["legs"] as? [[String: Any]])?.last?["status"] as? String == "skipped at Hillcrest")
        #expect((answer["instead"] as? [[String: Any]])?.isEmpty == false)
    }

    /// No real-time data: the journey as planned, a notice, JSON realtime false, exit 0 (0 means
    /// it holds as far as known).
    @Test func withoutLiveDataTheTimetableAnswers() async throws {
        let run = try await Self.check("SL-WK-N08 > M1-WK-E@09:36:00", ["--format", "json"], live: false)
        #expect(run.status == 0 && run.stderrLines == ["No real-time data: the journey is checked against the timetable (exit 0 means it holds as planned)"],
                "\(run.stderr)")
        let answer = try Self.json(run)
        #expect(answer["holds"] as? Bool == true && answer["realtime"] as? Bool == false)
        #expect((answer["changes"] as? [[String: Any]])?.first?["margin_minutes"] as? Int == 3)
    }

    /// Bad input is one line and exit 2.
    @Test func badJourneysAreUsageErrors() async throws {
        let cases: [(String, [String], String)] = [
            ("NOPE > M1-WK-E@08:06:00", [], "unknown trip_id 'NOPE'"),
            ("SL-WK-N05 > M1-WK-E", [], "trip M1-WK-E runs 164 times a day"),
            ("SL-WK-N05 > M1-WK-E@08:07:00", [], "trip M1-WK-E has no run starting at 08:07:00"),
            ("SL-WK-N05 > M1-WK-E@8h", [], "'M1-WK-E@8h': a ride is trip_id, trip_id@YYYY-MM-DD (a run of another service day), and for a run of a frequencies.txt trip @HH:MM:SS"),
            ("SL-WK-N05@2026-11-23@2026-11-24", [], "'SL-WK-N05@2026-11-23@2026-11-24': a ride is trip_id"),
            ("SL-WK-N05@2026-11-22", [], "trip SL-WK-N05 does not run on 2026-11-22"),
            ("SL-WK-N05 > M1-WK-E@08:06:00", ["--change-at", "Market>Stadium"], "--change-at names where each change boards: 1 for 2 rides"),
            ("SL-WK-N05 > M1-WK-E@08:06:00", ["--change-at", "Riverside"], "trips SL-WK-N05 and M1-WK-E do not meet at Riverside"),
            ("M1-WK-E@08:06:00", [], "trip M1-WK-E does not stop at Harbor"),
        ]
        for (trips, extra, message) in cases {
            let run = try await Self.check(trips, extra)
            #expect(run.status == 2 && run.stdout.isEmpty && run.stderrLines.first?.hasPrefix("transit: " + message) == true, "\(trips): \(run.stderr)")
        }
    }
}
