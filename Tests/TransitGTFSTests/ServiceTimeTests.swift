import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

/// `--after`, `--before` and `--arrive-by`: the spellings people type, from now by default;
/// GTFS reads a date and a time as a moment, BART a time before 03:00 as the night after.
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

    /// A GTFS query's date and time mean a moment (issue 64's table), on the service day of its
    /// calendar date: 14:00 in Chicago on Monday 2026-11-23 is the clock here.
    @Test func aDateAndATimeMeanAMoment() throws {
        let zone = try #require(TimeZone(identifier: "America/Chicago"))
        let at = { (iso: String) in try #require(ISO8601DateFormatter().date(from: iso)) }
        let d23 = LocalDate(year: 2026, month: 11, day: 23), d24 = d23.adding(days: 1), d22 = d23.adding(days: -1)
        func read(_ w: ServiceWindow, on date: LocalDate? = nil, now: String = "2026-11-23T20:00:00Z") throws -> (LocalDate, Int?, Int?, Int?) {
            let (clock, s) = try w.moments(on: date, in: zone, now: try at(now))
            return (clock.day, s.after, s.before, s.arriveBy)
        }
        // HH:MM at or after 03:00, no --date: that moment of today's calendar date, even past
        // 03:00 of a night whose service day is still yesterday's.
        #expect(try read(ServiceWindow(after: .clock(minutes: 8 * 60))) == (d23, 8 * 3600, nil, nil))
        #expect(try read(ServiceWindow(after: .clock(minutes: 8 * 60)), now: "2026-11-24T07:00:00Z") == (d24, 8 * 3600, nil, nil))  // 01:00 on the 24th
        // Before 03:00, no --date: the next such moment from now, on its calendar day's clock.
        #expect(try read(ServiceWindow(after: .clock(minutes: 90))) == (d24, 5400, nil, nil))
        #expect(try read(ServiceWindow(after: .clock(minutes: 90)), now: "2026-11-24T07:00:00Z") == (d24, 5400, nil, nil))
        #expect(try read(ServiceWindow(after: .clock(minutes: 90)), now: "2026-11-24T08:00:00Z") == (d24.adding(days: 1), 5400, nil, nil))  // 02:00
        // With --date D: that moment of calendar day D, whatever the hour.
        #expect(try read(ServiceWindow(after: .clock(minutes: 90)), on: d22) == (d22, 5400, nil, nil))
        #expect(try read(ServiceWindow(after: .clock(minutes: 23 * 60 + 55)), on: d22) == (d22, 86_100, nil, nil))
        // The feed's own hours: the clock of D, else of the service day in progress.
        #expect(try read(ServiceWindow(after: .asWritten(seconds: 25 * 3600)), on: d22) == (d22, 90_000, nil, nil))
        #expect(try read(ServiceWindow(after: .asWritten(seconds: 25 * 3600)), now: "2026-11-24T07:00:00Z") == (d23, 90_000, nil, nil))
        // An end earlier than the start is the next calendar day's.
        #expect(try read(ServiceWindow(after: .clock(minutes: 22 * 60), before: .clock(minutes: 60)), on: d22) == (d22, 79_200, 90_000, nil))
        #expect(try read(ServiceWindow(after: .clock(minutes: 6 * 60), arriveBy: .clock(minutes: 9 * 60)), on: d22) == (d22, 21_600, nil, 32_400))
        // Without --after, today's starts now; a --before already past today is tomorrow's.
        #expect(try read(ServiceWindow(before: .clock(minutes: 9 * 60))) == (d23, 14 * 3600, 33 * 3600, nil))
        #expect(try read(ServiceWindow(), on: d24) == (d24, nil, nil, nil))
        // Days of a clock change count from noon minus 12 h: 00:30 is 1:30:00 of 2026-03-08 (the
        // day began at 23:00 the evening before) and -0:30:00 of 2026-11-01 (it began at 01:00).
        #expect(try read(ServiceWindow(after: .clock(minutes: 30)), on: LocalDate(year: 2026, month: 3, day: 8)).1 == 5400)
        #expect(try read(ServiceWindow(after: .clock(minutes: 30)), on: LocalDate(year: 2026, month: 11, day: 1)).1 == -1800)
    }

    /// A feed whose service day starts at midnight, and a run of the day before past 24:00:
    /// `--date D --after 00:00` is D's first moment, which both serve.
    @Test func midnightIsTheDaysFirstMoment() async throws {
        let feed = TestFeed([
            "stops.txt": TestFeed.stops(["A", "B"]),
            "trips.txt": "route_id,service_id,trip_id\nR,S,early\nR,S,late\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nearly,00:05:00,00:05:00,A,1\nearly,00:25:00,00:25:00,B,2\n"
                + "late,24:10:00,24:10:00,A,1\nlate,24:40:00,24:40:00,B,2\n",
        ])
        let cache = Paths.temporary()
        let board = try await Run.transit(["gtfs", "departures", "--feed", feed.directory, "--stop", "A", "--date", "2026-11-24", "--after", "00:00",
                                           "--before", "00:30"], env: env(cache))
        #expect(board.status == 0, "\(board.stderr)")
        #expect(board.stdoutLines.map { String($0.prefix(19)) + " " + String($0.split(separator: "\t")[2]) }
                == ["2026-11-24T00:05:00 early", "2026-11-24T00:10:00 late"], "\(board.stdout)")
        let trips = try await Run.transit(["gtfs", "trips", "--feed", feed.directory, "--from", "A", "--to", "B", "--date", "2026-11-24",
                                           "--after", "00:00", "--before", "00:30"], env: env(cache))
        let rows = trips.stdoutLines.map { $0.components(separatedBy: "\t") }
        #expect(rows.map { $0[2] } == ["2026-11-24T00:05:00-08:00", "2026-11-24T00:10:00-08:00"], "\(trips.stdout) \(trips.stderr)")
        // The run of the day before is named with its service day, and boarded on its clock (trip_ids, boarding).
        #expect(rows.map { [$0[8], $0[11]] } == [["early", "A@00:05:00"], ["late@2026-11-23", "A@24:10:00"]], "\(trips.stdout)")
        // The rest of the day: to the 24th's own last run, 24:10, the 25th's 00:05 among them.
        let rest = try await Run.transit(["gtfs", "trips", "--feed", feed.directory, "--from", "A", "--to", "B", "--date", "2026-11-24",
                                          "--after", "00:00"], env: env(cache))
        #expect(rest.stdoutLines.map { $0.components(separatedBy: "\t")[8] } == ["early", "late@2026-11-23", "early@2026-11-25", "late"],
                "\(rest.stdout)")
        // Without --date (it is 12:00 on the 23rd): the next 00:00 is the 24th's.
        let next = try await Run.transit(["gtfs", "trips", "--feed", feed.directory, "--from", "A", "--to", "B", "--after", "00:00", "--limit", "1"],
                                         env: env(cache))
        #expect(next.stdoutLines.first?.contains("\t2026-11-24T00:05:00-08:00\t") == true, "\(next.stdout) \(next.stderr)")
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
