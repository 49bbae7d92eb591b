import Foundation
import Testing
import TransitSupport

/// What a rider reads is right at a glance (issue 44, item 3), through the binary: nothing
/// already gone, and `--limit N` N rows where N exist.
@Suite struct NothingGoneTests {
    /// `--arrive-by` for today starts now, as `--after` does (the clock pinned at 14:00 in
    /// Chicago, Sunday 2026-11-22): no journey leaves before it; one already past is tomorrow's.
    @Test func arriveByTodayListsNoTrainAlreadyGone() async throws {
        let env = Run.environment(["TRANSIT_CACHE_DIR": Paths.temporary()])
        #expect(try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/lakeport"], env: env).status == 0)
        let query = ["gtfs", "trips", "--from", "Harbor", "--to", "Stadium", "--format", "json"]
        let later = try await Run.transit(query + ["--arrive-by", "18:00"], env: env).records()
        let departures = later.compactMap { $0["departure"] as? String }
        #expect(!departures.isEmpty && departures.allSatisfy { $0 >= "2026-11-22T14:00:00-06:00" }, "\(departures)")
        #expect(later.allSatisfy { ($0["arrival"] as? String ?? "") <= "2026-11-22T18:00:00-06:00" })
        // An explicit --after wins.
        let morning = try await Run.transit(query + ["--after", "07:00", "--arrive-by", "09:00"], env: env).records()
        #expect(!morning.isEmpty && morning.allSatisfy { ($0["departure"] as? String ?? "") < "2026-11-22T09:00:00-06:00" })
        // A time already past today is the next one (issue 64: a date and a time mean a moment):
        // arriving by tomorrow's 09:00, the latest to leave first, none leaving before now.
        let tomorrow = try await Run.transit(query + ["--arrive-by", "09:00"], env: env).records()
        let leaving = tomorrow.compactMap { $0["departure"] as? String }, arriving = tomorrow.compactMap { $0["arrival"] as? String }
        #expect(leaving.first?.hasPrefix("2026-11-23T08:") == true && leaving == leaving.sorted(by: >), "\(leaving)")
        #expect(leaving.allSatisfy { $0 >= "2026-11-22T14:00:00-06:00" } && arriving.allSatisfy { $0 <= "2026-11-23T09:00:00-06:00" })
        // --before alone starts now too.
        let before = try await Run.transit(query + ["--before", "16:00"], env: env).records()
        #expect(!before.isEmpty && before.allSatisfy { ($0["departure"] as? String ?? "") >= "2026-11-22T14:00:00-06:00" })
    }

    /// A direct train every 30 minutes, and after each first one a slow one 2 minutes later that
    /// arrives 20 minutes after it (Pareto-optimal: it leaves later; the table hides it). `--limit
    /// 4` prints four rows, and says how many it hid among them.
    @Test func limitCountsTheRowsTheTablePrints() async throws {
        var trips = "route_id,service_id,trip_id\n", times = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        for k in 0..<6 {
            let start = 8 * 60 + 30 * k, slow = k % 2 == 0
            for (id, leaves, takes) in [("fast\(k)", start, 20)] + (slow ? [("slow\(k)", start + 2, 38)] : []) {
                trips += "R,S,\(id)\n"
                func clock(_ m: Int) -> String { String(format: "%02d:%02d:00", m / 60, m % 60) }
                times += "\(id),\(clock(leaves)),\(clock(leaves)),A,1\n\(id),\(clock(leaves + takes)),\(clock(leaves + takes)),B,2\n"
            }
        }
        let feed = TestFeed(["stops.txt": TestFeed.stops(["A", "B"]), "trips.txt": trips, "stop_times.txt": times]).directory
        let query = ["gtfs", "trips", "--feed", feed, "--from", "A", "--to", "B", "--date", "2026-11-23", "--after", "07:00", "--limit", "4"]
        let table = try await Run.transit(query + ["--format", "table"], env: Run.environment())
        let rows = table.stdout.split(separator: "\n").dropFirst().map { String($0.prefix(5)) }
        #expect(rows == ["08:00", "08:30", "09:00", "09:30"], "\(table.stdout)")
        #expect(table.stderrLines.first?.hasPrefix("2 journeys hidden:") == true, "\(table.stderr)")
        // JSON keeps the Pareto set: its first four, the slow ones among them.
        let json = try await Run.transit(query + ["--format", "json"], env: Run.environment()).records()
        #expect(json.compactMap { ($0["departure"] as? String)?.dropFirst(11).prefix(5) } == ["08:00", "08:02", "08:30", "09:00"])
    }

    /// Feeds that do not cover today are one line, whatever their number (item 8), in every format.
    @Test func expiredFeedsAreOneLine() async throws {
        let env = Run.environment(["TRANSIT_CACHE_DIR": Paths.temporary()])
        let old = "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nS,1,1,1,1,1,1,1,20190101,20191231\n"
        for name in ["one", "two", "three"] {
            let feed = TestFeed(["stops.txt": TestFeed.stops(["A", "B"]), "calendar.txt": old, "trips.txt": "route_id,service_id,trip_id\nR,S,t\n",
                                 "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nt,08:00:00,08:00:00,A,1\nt,08:10:00,08:10:00,B,2\n"])
            #expect(try await Run.transit(["gtfs", "import", feed.directory, "--name", name], env: env).status == 0)
        }
        #expect(try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/lakeport"], env: env).status == 0)
        for format in ["table", "json"] {
            let feeds = try await Run.transit(["gtfs", "feeds", "--format", format], env: env)
            #expect(feeds.status == 0 && feeds.stderrLines == ["3 feeds do not cover today (one, three, two); transit gtfs update fetches their sources again"],
                    "\(format): \(feeds.stderr)")
        }
    }

    /// Stale is stale for alerts too (item 5; SEMANTICS.md rule 6): BART's alerts of 2019-08-07
    /// 17:45:42Z, one agency-wide alert with no active period. Read 20 minutes later, it is shown
    /// marked stale; read today, its data says nothing of now: left out, both said in words.
    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func staleAlertsAreMarkedOrLeftOut() async throws {
        let feed = Reference.path("gtfs-rt/feeds/transitland-bart/bart-rt.zip"), alerts = Reference.path("gtfs-rt/feeds/transitland-bart/bart-alerts.pb")
        func read(at now: String) async throws -> Run {
            try await Run.transit(["gtfs", "alerts", "--feed", feed, "--realtime", alerts, "--format", "json"], env: Run.environment(["TRANSIT_NOW": now]))
        }
        let later = try await read(at: "2019-08-07T18:05:42Z")
        #expect(try later.records().map { $0["stale"] as? Bool } == [true], "\(later.stdout)")
        #expect(later.stderrLines == ["\(alerts): the data is 20 min old: its alerts are stale"], "\(later.stderr)")
        let fresh = try await read(at: "2019-08-07T17:50:42Z")
        #expect(try fresh.records().map { $0["stale"] as? Bool } == [false] && fresh.stderr.isEmpty, "\(fresh.stderr)")
        let today = try await read(at: "2026-11-27T20:00:00Z")
        #expect(today.status == 0 && today.stdout == "[]\n")
        #expect(today.stderrLines == ["\(alerts): the data is 7 years old: its alerts are stale",
                                      "1 of 1 alerts left out: their data is over 30 minutes old (--stale shows them)",
                                      "No alerts in force"], "\(today.stderr)")
        // --stale shows what rule 6 left out, marked (the contract's option; issue 68).
        let shown = try await Run.transit(["gtfs", "alerts", "--feed", feed, "--realtime", alerts, "--format", "json", "--stale"],
                                          env: Run.environment(["TRANSIT_NOW": "2026-11-27T20:00:00Z"]))
        #expect(try shown.records().map { $0["stale"] as? Bool } == [true], "\(shown.stdout)")
        #expect(shown.stderrLines == ["\(alerts): the data is 7 years old: its alerts are stale",
                                      "1 of 1 alerts are of data over 30 minutes old: shown, marked stale, where their own periods hold now (--stale)"],
                "\(shown.stderr)")
        // Over 30 minutes old, an alert is left out whatever its period says: Halifax's of
        // 2025-11-06, whose periods run to the year 3000, listed 41 of 46 a year later.
        let halifax = "gtfs-rt/feeds/halifax-2025/"
        for (flag, rows) in [([String](), 0), (["--stale"], 41)] {
            let run = try await Run.transit(["gtfs", "alerts", "--feed", Reference.path(halifax + "google_transit.zip"), "--realtime",
                                             Reference.path(halifax + "Alerts.pb"), "--format", "json"] + flag,
                                            env: Run.environment(["TRANSIT_NOW": "2026-11-27T20:00:00Z"]))
            let records = try run.records()
            #expect(run.status == 0 && records.count == rows && records.allSatisfy { $0["stale"] as? Bool == true }, "\(flag): \(run.stderr)")
            #expect(run.stderrLines.contains { $0.hasPrefix("46 of 46 alerts") }, "\(run.stderr)")
        }
        // A file of trip updates has no alerts to be stale (issue 68): its age is not said here.
        let updates = Reference.path("gtfs-rt/feeds/transitland-bart/bart-trip-updates.pb")
        let none = try await Run.transit(["gtfs", "alerts", "--feed", feed, "--realtime", updates, "--format", "json"],
                                         env: Run.environment(["TRANSIT_NOW": "2026-11-27T20:00:00Z"]))
        #expect(none.status == 0 && none.stdout == "[]\n" && none.stderrLines == ["No alerts in force"], "\(none.stderr)")
    }

    /// And for vehicles (rule 6 as for trip updates): Halifax's positions of 2025-11-06 21:02:59Z,
    /// read 41 s later, fresh; 2 minutes later, said; today, not shown.
    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func staleVehiclesAreSaidAndOldOnesNotShown() async throws {
        let halifax = "gtfs-rt/feeds/halifax-2025/", positions = Reference.path(halifax + "VehiclePositions.pb")
        func read(at now: String) async throws -> Run {
            try await Run.transit(["gtfs", "vehicles", "--feed", Reference.path(halifax + "google_transit.zip"), "--realtime", positions, "--format", "json"],
                                  env: Run.environment(["TRANSIT_NOW": now]))
        }
        let fresh = try await read(at: "2025-11-06T21:03:40Z"), later = try await read(at: "2025-11-06T21:05:00Z"), today = try await read(at: "2026-11-27T20:00:00Z")
        #expect(try fresh.records().count == 291 && !fresh.stderr.contains("old"), "\(fresh.stderr)")
        #expect(try later.records().count == 291 && later.stderrLines.first == "\(positions): the data is 2 min old", "\(later.stderr)")
        #expect(today.status == 0 && today.stdout == "[]\n"
                && today.stderrLines.first == "\(positions): the data is 12 months old; its vehicles are not shown", "\(today.stderr)")
    }

    /// A notice is one line under 160 characters however many feeds a combination has (item 8;
    /// one of 780 named every feed's zone): nine feeds in three zones, four of them of 2019.
    @Test func aCombinationsNoticesAreShortLines() async throws {
        let env = Run.environment(["TRANSIT_CACHE_DIR": Paths.temporary()])
        let zones = ["America/Los_Angeles", "America/Los_Angeles", "America/Los_Angeles", "America/Los_Angeles", "America/Los_Angeles", "Europe/Madrid",
                     "Europe/Madrid", "Asia/Tokyo", "Asia/Tokyo"]
        for (k, zone) in zones.enumerated() {
            let year = k % 2 == 0 ? "2026" : "2019"
            let feed = TestFeed(["stops.txt": TestFeed.stops(["A\(k)", "B\(k)"]), "trips.txt": "route_id,service_id,trip_id\nR,S,t\n",
                                 "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nS,1,1,1,1,1,1,1,\(year)0101,\(year)1231\n",
                                 "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nt,08:00:00,08:00:00,A\(k),1\nt,08:10:00,08:10:00,B\(k),2\n"],
                                zone: zone)
            #expect(try await Run.transit(["gtfs", "import", feed.directory, "--name", "feed\(k)"], env: env).status == 0)
        }
        let run = try await Run.transit(["gtfs", "stops", "--feed", "all"], env: env)
        #expect(run.status == 0 && run.stderrLines.contains { $0.hasPrefix("Feeds in 3 zones (America/Los_Angeles ×5, Europe/Madrid ×2, Asia/Tokyo ×2)") }
                && run.stderrLines.contains { $0.hasPrefix("20 pairs of feeds share no service day") }, "\(run.stderr)")
        #expect(run.stderrLines.allSatisfy { $0.count <= 160 }, "\(run.stderrLines.map(\.count))")
    }
}
