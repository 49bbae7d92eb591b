import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport
import TransitTestSupport

/// `gtfs trips --earliest` (issue 47, item 3) through the built binary: the journey arriving
/// first, of those the fewest changes, then the latest to leave; `--limit N` the N arriving first.
/// The random feeds' differential checks the same against the whole answer at every query
/// (`DifferentialCase.routed`); these are worked out by hand and on real feeds.
@Suite struct EarliestArrivalTests {
    func env(_ cache: String) -> [String: String] { Run.environment(["TRANSIT_CACHE_DIR": cache]) }

    /// The first journeys of a JSON answer: (departure, arrival, changes, trip_ids joined).
    func journeys(_ run: Run) throws -> [String] {
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], "\(run.stdout) \(run.stderr)")
        return rows.map { row in
            let trips = (row["legs"] as? [[String: Any]] ?? []).compactMap { $0["trip_id"] as? String }.filter { !$0.isEmpty }
            return "\(row["departure"] as? String ?? "?") \(row["arrival"] as? String ?? "?") \(row["transfers"] as? Int ?? -1) \(trips.joined(separator: ">"))"
        }
    }

    /// A to C. After 07:30 the first arrival is 08:50, three ways: `slow` direct leaving 08:05,
    /// `late` direct leaving 08:07 (the same changes, later: the answer), and `feeder` then
    /// `link` leaving 08:10 with a change (later still, but a change more: second with --limit).
    /// `early` (07:00) is before the window; `direct` (08:00, arriving 09:00) arrives later.
    @Test func theFirstToArriveWithFewestChangesThenLatestToLeave() async throws {
        let feed = TestFeed([
            "stops.txt": TestFeed.stops(["A", "B", "C"]),
            "trips.txt": "route_id,service_id,trip_id\nR,S,early\nR,S,direct\nR,S,slow\nR,S,late\nQ,S,feeder\nQ,S,link\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
                + "early,07:00:00,07:00:00,A,1\nearly,07:50:00,07:50:00,C,2\n"
                + "direct,08:00:00,08:00:00,A,1\ndirect,09:00:00,09:00:00,C,2\n"
                + "slow,08:05:00,08:05:00,A,1\nslow,08:50:00,08:50:00,C,2\n"
                + "late,08:07:00,08:07:00,A,1\nlate,08:50:00,08:50:00,C,2\n"
                + "feeder,08:10:00,08:10:00,A,1\nfeeder,08:20:00,08:20:00,B,2\n"
                + "link,08:30:00,08:30:00,B,1\nlink,08:50:00,08:50:00,C,2\n",
        ])
        let cache = Paths.temporary()
        let base = ["--format", "json", "gtfs", "trips", "--feed", feed.directory, "--from", "A", "--to", "C", "--date", "2026-11-23"]
        let first = try await Run.transit(base + ["--after", "07:30", "--earliest"], env: env(cache))
        #expect(first.status == 0 && first.stderr.isEmpty, "\(first.stderr)")
        #expect(try journeys(first) == ["2026-11-23T08:07:00-08:00 2026-11-23T08:50:00-08:00 0 late"])
        let two = try await Run.transit(base + ["--after", "07:30", "--earliest", "--limit", "2"], env: env(cache))
        #expect(try journeys(two) == ["2026-11-23T08:07:00-08:00 2026-11-23T08:50:00-08:00 0 late",
                                      "2026-11-23T08:10:00-08:00 2026-11-23T08:50:00-08:00 1 feeder>link"])
        // From the start of the day, the early trip; leaving by 08:06, the slow one.
        let day = try await Run.transit(base + ["--earliest"], env: env(cache))
        #expect(try journeys(day) == ["2026-11-23T07:00:00-08:00 2026-11-23T07:50:00-08:00 0 early"])
        let by = try await Run.transit(base + ["--after", "07:30", "--before", "08:06", "--earliest"], env: env(cache))
        #expect(try journeys(by) == ["2026-11-23T08:05:00-08:00 2026-11-23T08:50:00-08:00 0 slow"])
        // Leaving by 08:01 the first arrival is 09:00; none leaves in 09:01-10:00.
        let slower = try await Run.transit(base + ["--after", "07:30", "--before", "08:01", "--earliest"], env: env(cache))
        #expect(try journeys(slower) == ["2026-11-23T08:00:00-08:00 2026-11-23T09:00:00-08:00 0 direct"])
        let none = try await Run.transit(base + ["--after", "09:01", "--before", "10:00", "--earliest"], env: env(cache))
        #expect(none.status == 0 && none.stdout == "[]\n" && none.stderr.contains("No journey"), "\(none.stdout) \(none.stderr)")
    }

    /// On real feeds, the journeys --earliest gives are the first to arrive of the whole
    /// window's answer (by arrival, changes, later departure), through a change between two
    /// feeds (BART then Caltrain, the bay pairs) as in one (Caltrain 2016).
    @Test func onRealFeedsTheFirstToArriveOfTheWholeAnswer() async throws {
        let cache = Paths.temporary()
        var queries: [[String]] = []
        for (source, name) in [("pairs/bay/bart", "bart"), ("pairs/bay/caltrain", "caltrain")] {
            let imported = try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/" + source, "--name", name], env: env(cache))
            #expect(imported.status == 0, "\(imported.stderr)")
        }
        for after in ["05:00", "07:40", "17:10", "23:30"] {
            queries.append(["--feed", "bart", "--feed", "caltrain", "--from", "Embarcadero", "--to", "Palo Alto", "--date", "2026-11-23", "--after", after])
        }
        let caltrain = Reference.feed("caltrain-20160406/caltrain_20160406.zip")
        if FileManager.default.fileExists(atPath: caltrain) {
            let imported = try await Run.transit(["gtfs", "import", caltrain, "--name", "caltrain16"], env: env(cache))
            #expect(imported.status == 0, "\(imported.stderr)")
            for (from, to, after) in [("San Francisco Caltrain", "San Jose Diridon Caltrain", "06:00"), ("San Jose Diridon Caltrain", "San Francisco Caltrain", "16:45"),
                                     ("22nd St Caltrain", "Santa Clara Caltrain", "12:00")] {
                queries.append(["--feed", "caltrain16", "--from", from, "--to", to, "--date", "2016-04-06", "--after", after])
            }
        }
        for query in queries {
            let whole = try await Run.transit(["--format", "json", "gtfs", "trips"] + query, env: env(cache))
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(whole.stdout.utf8)) as? [[String: Any]], "\(whole.stderr)")
            let key = { (row: [String: Any]) in (row["arrival"] as? String ?? "", row["transfers"] as? Int ?? 0) }
            let order = rows.indices.sorted { a, b in
                let (x, y) = (key(rows[a]), key(rows[b]))
                // Later departure first among equals: rows come sorted by departure.
                return x != y ? x < y : a > b
            }
            let all = try journeys(whole)
            for count in [1, 3] {
                let earliest = try await Run.transit(["--format", "json", "gtfs", "trips"] + query + ["--earliest", "--limit", "\(count)"], env: env(cache))
                #expect(earliest.status == 0, "\(earliest.stderr)")
                #expect(try journeys(earliest) == order.prefix(count).map { all[$0] }, "\(query)")
            }
        }
    }

    @Test func askingForTwoThingsAtOnceIsRefusedInOneLine() async throws {
        let feed = ["--feed", Paths.fixtures + "/gtfs/lakeport", "--from", "Harbor", "--to", "Stadium"]
        for (extra, says) in [(["--fastest"], "--earliest and --fastest"), (["--arrive-by", "09:00"], "--earliest and --arrive-by")] {
            let run = try await Run.transit(["gtfs", "trips"] + feed + ["--earliest"] + extra, env: env(Paths.temporary()))
            #expect(run.status == 2 && run.stdout.isEmpty && run.stderr.split(separator: "\n").count == 1 && run.stderr.contains(says), "\(run.stderr)")
        }
    }
}
