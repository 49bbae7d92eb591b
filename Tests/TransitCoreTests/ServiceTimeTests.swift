import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport

/// `--after`, `--before` and `--arrive-by`: the spellings people type, from now by default,
/// and the two readings of a time before 03:00.
@Suite struct ServiceTimeTests {
    @Test func theSpellingsPeopleType() {
        #expect(ServiceTime.parse("now") == .now)
        #expect(ServiceTime.parse("+30m") == .fromNow(seconds: 1800))
        #expect(ServiceTime.parse("+1h15m") == .fromNow(seconds: 4500))
        #expect(ServiceTime.parse("+2h") == .fromNow(seconds: 7200))
        #expect(ServiceTime.parse("5pm") == .clock(minutes: 17 * 60))
        #expect(ServiceTime.parse("5 PM") == .clock(minutes: 17 * 60))
        #expect(ServiceTime.parse("12am") == .clock(minutes: 0))
        #expect(ServiceTime.parse("5:30pm") == .clock(minutes: 17 * 60 + 30))
        #expect(ServiceTime.parse("17") == .clock(minutes: 17 * 60))
        #expect(ServiceTime.parse("17:05") == .clock(minutes: 17 * 60 + 5))
        #expect(ServiceTime.parse("00:00") == .clock(minutes: 0))
        // The feed's own hours: with seconds, or past 24.
        #expect(ServiceTime.parse("0:00:00") == .asWritten(seconds: 0))
        #expect(ServiceTime.parse("25:30") == .asWritten(seconds: 25 * 3600 + 1800))
        #expect(ServiceTime.parse("25:10:30") == .asWritten(seconds: 25 * 3600 + 630))
        for bad in ["", "+", "+5x", "+30", "+99999m", "+2d", "24", "13pm", "0pm", "48:00", "47:60", "7:5", "noon", "17:05:7", "1:2:3:4", "１７"] {
            #expect(ServiceTime.parse(bad) == nil, "\(bad)")
        }
    }

    @Test func nowAndFromNowNeedTodaysServiceDay() throws {
        let zone = try #require(TimeZone(identifier: "America/Chicago"))
        let now = try #require(ISO8601DateFormatter().date(from: "2026-11-23T20:00:00Z"))  // 14:00 in Chicago
        let today = ServiceClock(day: LocalDate(year: 2026, month: 11, day: 23), zone: zone)
        #expect(try ServiceTime.now.seconds(on: today, now: now, option: "after") == 14 * 3600)
        #expect(try ServiceTime.fromNow(seconds: 1800).seconds(on: today, now: now, option: "after") == 14 * 3600 + 1800)
        #expect(try ServiceTime.clock(minutes: 30).seconds(on: today, now: now, option: "after") == 24 * 3600 + 1800)
        let tomorrow = ServiceClock(day: LocalDate(year: 2026, month: 11, day: 24), zone: zone)
        #expect(throws: TransitError.self) { try ServiceTime.now.seconds(on: tomorrow, now: now, option: "after") }
        // With no time given, today's window starts now and another day's at its start.
        let window = try ServiceWindow().seconds(on: today, now: now)
        #expect(window.after == 14 * 3600 && window.startsNow)
        #expect(try ServiceWindow().seconds(on: tomorrow, now: now) == ServiceWindow.Seconds())
        // Without --after, --before and --arrive-by start now too (issue 44): 09:00 has passed.
        let passed = try ServiceWindow(before: .clock(minutes: 9 * 60)).seconds(on: today, now: now)
        #expect(passed.after == 14 * 3600 && passed.startsNow && passed.hasPassed)
        #expect(try ServiceWindow(after: .clock(minutes: 6 * 60), arriveBy: .clock(minutes: 9 * 60)).seconds(on: today, now: now).after == 6 * 3600)
    }

    func env(_ cache: String) -> [String: String] {
        Run.environment(["TRANSIT_CACHE_DIR": cache, "TRANSIT_NOW": "2026-11-23T20:00:00Z"], [:])
    }

    @Test func boardsAndJourneysStartNowOnTodaysServiceDay() async throws {
        let cache = Paths.temporary()
        let imported = try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/lakeport"], env: env(cache))
        #expect(imported.status == 0, "\(imported.stderr)")
        func firstDeparture(_ extra: [String]) async throws -> String? {
            let run = try await Run.transit(["gtfs", "departures", "--stop", "Harbor", "--limit", "1"] + extra, env: env(cache))
            #expect(run.status == 0, "\(extra): \(run.stderr)")
            return run.stdoutLines.first.map { String($0.prefix(25)) }
        }
        // 14:00 in Chicago: the Shore Line leaves Harbor every 30 minutes.
        #expect(try await firstDeparture([]) == "2026-11-23T14:00:00-06:00")
        #expect(try await firstDeparture(["--after", "now"]) == "2026-11-23T14:00:00-06:00")
        #expect(try await firstDeparture(["--after", "+30m"]) == "2026-11-23T14:30:00-06:00")
        #expect(try await firstDeparture(["--after", "5pm"]) == "2026-11-23T17:00:00-06:00")
        #expect(try await firstDeparture(["--after", "17"]) == "2026-11-23T17:00:00-06:00")
        #expect(try await firstDeparture(["--date", "2026-11-24"]) == "2026-11-24T06:00:00-06:00")
        let refused = try await Run.transit(["gtfs", "departures", "--stop", "Harbor", "--date", "2026-11-24", "--after", "+30m"], env: env(cache))
        #expect(refused.status == 2 && refused.stdout.isEmpty)
        #expect(refused.stderrLines == ["transit: --after now and +N count from now: they need today's service day (2026-11-23), not --date 2026-11-24"])

        let trips = try await Run.transit(["gtfs", "trips", "--from", "Harbor", "--to", "Stadium", "--limit", "1"], env: env(cache))
        #expect(trips.stdoutLines.first?.hasPrefix("HBR2\tM_STA\t2026-11-23T14:00:00-06:00") == true, "\(trips.stdout)")
        // Arriving by 08:00 (from 06:00: at 14:00 today's 08:00 has passed): the latest to leave first.
        let arriving = try await Run.transit(["gtfs", "trips", "--from", "Harbor", "--to", "Stadium", "--date", "2026-11-23", "--after", "06:00",
                                              "--arrive-by", "08:00", "--limit", "2"], env: env(cache))
        #expect(arriving.stdoutLines.map { $0.split(separator: "\t")[2] } == ["2026-11-23T07:30:00-06:00", "2026-11-23T07:00:00-06:00"])
    }

    /// A feed whose service day starts at midnight: `--after 00:00` is the night after (nothing),
    /// and the notice shows how to ask for the feed's own 00:00.
    @Test func midnightAsTheFeedWritesIt() async throws {
        let feed = TestFeed([
            "stops.txt": TestFeed.stops(["A", "B"]),
            "trips.txt": "route_id,service_id,trip_id\nR,S,early\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nearly,00:05:00,00:05:00,A,1\nearly,00:25:00,00:25:00,B,2\n",
        ])
        let cache = Paths.temporary()
        // 00:00 is the night after: nothing is left of the 24th's service then, and the board goes
        // on into the 25th's, whose 00:05 is the moment asked for plus five minutes.
        let night = try await Run.transit(["gtfs", "departures", "--feed", feed.directory, "--stop", "A", "--date", "2026-11-24", "--after", "00:00"], env: env(cache))
        #expect(night.status == 0 && night.stdoutLines.first?.hasPrefix("2026-11-25T00:05:00") == true, "\(night.stdout) \(night.stderr)")
        #expect(night.stderrLines.contains("no more departures on 2026-11-24; these are 2026-11-25's"), "\(night.stderr)")
        // A window with an end does not go on: empty, it says how to ask for the feed's own hours.
        let closed = try await Run.transit(["gtfs", "departures", "--feed", feed.directory, "--stop", "A", "--date", "2026-11-24", "--after", "00:00",
                                            "--before", "00:30"], env: env(cache))
        #expect(closed.status == 0 && closed.stdout.isEmpty)
        #expect(closed.stderr.contains("a time before 03:00 is read as the night after (00:30 is 24:30); for the feed's own hours ask --after 0:00:00"), "\(closed.stderr)")
        let own = try await Run.transit(["gtfs", "departures", "--feed", feed.directory, "--stop", "A", "--date", "2026-11-24", "--after", "0:00:00"], env: env(cache))
        #expect(own.stdoutLines.first?.hasPrefix("2026-11-24T00:05:00") == true, "\(own.stdout) \(own.stderr)")
        let trips = try await Run.transit(["gtfs", "trips", "--feed", feed.directory, "--from", "A", "--to", "B", "--date", "2026-11-24",
                                           "--after", "00:00"], env: env(cache))
        #expect(trips.stdoutLines.first?.contains("2026-11-25T00:05:00") == true && trips.stderr.contains("these are 2026-11-25's"), "\(trips.stdout) \(trips.stderr)")
        let closedTrips = try await Run.transit(["gtfs", "trips", "--feed", feed.directory, "--from", "A", "--to", "B", "--date", "2026-11-24",
                                                 "--after", "00:00", "--before", "00:30"], env: env(cache))
        #expect(closedTrips.stdout.isEmpty && closedTrips.stderr.contains("ask --after 0:00:00 --before 0:30:00"), "\(closedTrips.stderr)")
        let ownTrips = try await Run.transit(["gtfs", "trips", "--feed", feed.directory, "--from", "A", "--to", "B", "--date", "2026-11-24",
                                              "--after", "0:00:00"], env: env(cache))
        #expect(ownTrips.stdoutLines.count == 1)
    }

    @Test func bartTripsStartNowAndArriveBy() async throws {
        let env = Run.environment(["TRANSIT_NOW": "2026-11-23T20:00:00Z"], [:])  // 12:00 in the Bay Area
        let now = try await Run.transit(["--offline", "bart", "trips", "--from", "24TH", "--to", "MLBR", "--limit", "1"], env: env)
        #expect(now.status == 0, "\(now.stderr)")
        #expect(now.stdoutLines.first?.split(separator: "\t")[2] == "2026-11-23T12:07:00-08:00")
        // At 01:45, after the service day's last train: say so, not "try --transfers 1".
        let late = try await Run.transit(["--offline", "bart", "trips", "--from", "24TH", "--to", "MLBR", "--date", "2026-11-23"],
                                         env: Run.environment(["TRANSIT_NOW": "2026-11-24T09:45:00Z"]))
        #expect(late.status == 0 && late.stdout.isEmpty
                && late.stderrLines == ["No trains from 24TH to MLBR on 2026-11-23 from now (01:45); --after 5am shows the day's trains"], "\(late.stderr)")
        // Arriving by 8 am, from 5 am (at noon today, 8 am has passed: none without --after).
        let by = try await Run.transit(["--offline", "bart", "trips", "--from", "24TH", "--to", "MLBR", "--date", "2026-11-23", "--after", "5am",
                                        "--arrive-by", "8am", "--limit", "2"], env: env)
        #expect(by.stdoutLines.map { $0.split(separator: "\t")[3] } == ["2026-11-23T07:52:00-08:00", "2026-11-23T07:48:00-08:00"])
    }

    /// The table hides a journey that leaves at most 5 minutes after another and arrives at least
    /// 10 minutes later with no fewer changes (a notice says so; `--all` and tsv show it);
    /// `--fastest` keeps the Pareto set over departure and arrival only.
    @Test func unlikelyJourneysAndTheFastest() async throws {
        let feed = TestFeed([
            "stops.txt": TestFeed.stops(["X", "M", "Y"]),
            "trips.txt": "route_id,service_id,trip_id\nR,S,fast\nR,S,slow\nR,S,direct\nR,S,first\nR,S,second\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
                + "fast,07:00:00,07:00:00,X,1\nfast,07:30:00,07:30:00,Y,2\nslow,07:02:00,07:02:00,X,1\nslow,07:55:00,07:55:00,Y,2\n"
                + "direct,06:00:00,06:00:00,X,1\ndirect,06:40:00,06:40:00,Y,2\n"
                + "first,06:00:00,06:00:00,X,1\nfirst,06:10:00,06:10:00,M,2\nsecond,06:15:00,06:15:00,M,1\nsecond,06:30:00,06:30:00,Y,2\n",
        ])
        let cache = Paths.temporary()
        let base = ["gtfs", "trips", "--feed", feed.directory, "--from", "X", "--to", "Y", "--date", "2026-11-24", "--min-transfer", "0"]
        let tsv = try await Run.transit(base, env: env(cache))
        #expect(tsv.stdoutLines.map { $0.split(separator: "\t")[2].dropFirst(11).prefix(5) } == ["06:00", "06:00", "07:00", "07:02"], "\(tsv.stdout)")
        let table = try await Run.transit(base + ["--format", "table"], env: env(cache))
        #expect(table.stdoutLines.count == 4 && !table.stdout.contains("07:02"), "\(table.stdout)")
        #expect(table.stderrLines == ["1 journey hidden: another leaves at most 5 minutes earlier, arrives at least 10 minutes earlier and changes no more; --all shows them"],
                "\(table.stderr)")
        let all = try await Run.transit(base + ["--format", "table", "--all"], env: env(cache))
        #expect(all.stdoutLines.count == 5 && all.stdout.contains("07:02") && all.stderr.isEmpty)
        let fastest = try await Run.transit(base + ["--fastest"], env: env(cache))
        #expect(fastest.stdoutLines.map { $0.split(separator: "\t")[3].dropFirst(11).prefix(5) } == ["06:30", "07:30", "07:55"], "\(fastest.stdout)")
    }

    /// A table marks a time on the calendar day after the service day, as timetables do.
    @Test func timesPastMidnightAreMarkedInTables() async throws {
        let cache = Paths.temporary()
        let night = try await Run.transit(["gtfs", "trips", "--feed", Paths.fixtures + "/gtfs/lakeport", "--from", "Harbor Terminal",
                                           "--to", "Riverside Bus Bay", "--date", "2026-11-23", "--after", "23:00", "--format", "table"], env: env(cache))
        // No journey changes: no CHANGE AT column (issue 44).
        #expect(night.stdoutLines == ["DEPART   ARRIVE   MIN  CHG  FROM             JOURNEY",
                                      "23:10    23:40     30    0  Harbor Terminal  N toward Riverside",
                                      "00:10+1  00:40+1   30    0  Harbor Terminal  N toward Riverside",
                                      "01:10+1  01:40+1   30    0  Harbor Terminal  N toward Riverside"], "\(night.stdout)")
        let bart = try await Run.transit(["--offline", "bart", "trips", "--from", "24TH", "--to", "MLBR", "--date", "2026-11-23",
                                          "--after", "23:50", "--limit", "2", "--format", "table"], env: env(cache))
        #expect(bart.stdoutLines == ["DEPART   ARRIVE   MIN  LINE    TOWARD", "23:51    00:23+1   32  Yellow  Millbrae",
                                     "00:07+1  00:37+1   30  Red     Millbrae"], "\(bart.stdout)")
    }
}
