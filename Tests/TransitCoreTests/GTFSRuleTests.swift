import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport

/// Each point of "what every journey means", on a hand-made feed that isolates it.
@Suite struct GTFSRuleTests {
    let trips2 = "route_id,service_id,trip_id\nR,S,t1\nR,S,t2\n"

    // MARK: service day

    @Test func calendarWeekdaysRangeAndExceptions() throws {
        let feed = try TestFeed([
            "stops.txt": TestFeed.stops(["A", "B"]),
            "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,0,0,20261101,20261130\nSA,0,0,0,0,0,1,0,20261101,20261130\n",
            "calendar_dates.txt": "service_id,date,exception_type\nWK,20261126,2\nSA,20261126,1\n",
            "trips.txt": "route_id,service_id,trip_id\nR,WK,weekday\nR,SA,saturday\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nweekday,08:00:00,08:00:00,A,1\nweekday,08:10:00,08:10:00,B,2\nsaturday,09:00:00,09:00:00,A,1\nsaturday,09:10:00,09:10:00,B,2\n",
        ]).timetable()
        // Monday the 23rd: the weekday service; Saturday the 28th: the Saturday one.
        #expect(try journeys(feed, from: ["A"], to: ["B"], day: "2026-11-23").map(\.trips) == [["weekday"]])
        #expect(try journeys(feed, from: ["A"], to: ["B"], day: "2026-11-28").map(\.trips) == [["saturday"]])
        // Thanksgiving (Thursday the 26th): weekday removed (2), Saturday added (1).
        #expect(try journeys(feed, from: ["A"], to: ["B"], day: "2026-11-26").map(\.trips) == [["saturday"]])
        // Outside start_date..end_date: nothing.
        #expect(try journeys(feed, from: ["A"], to: ["B"], day: "2026-12-01").isEmpty)
    }

    @Test func aFeedWithOnlyCalendarDates() throws {
        let feed = try TestFeed([
            "stops.txt": TestFeed.stops(["A", "B"]),
            "calendar_dates.txt": "date,service_id,exception_type\n20261123,X,1\n",
            "trips.txt": "route_id,service_id,trip_id\nR,X,only\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nonly,08:00:00,08:00:00,A,1\nonly,08:10:00,08:10:00,B,2\n",
        ]).timetable()
        #expect(try journeys(feed, from: ["A"], to: ["B"], day: "2026-11-23").map(\.trips) == [["only"]])
        #expect(try journeys(feed, from: ["A"], to: ["B"], day: "2026-11-24").isEmpty)
    }

    // MARK: times and the window

    @Test func callsPast24AndTheNightAfterWindow() throws {
        let feed = try TestFeed([
            "stops.txt": TestFeed.stops(["A", "B"]),
            "trips.txt": "route_id,service_id,trip_id\nR,S,late\nR,S,early\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nlate,24:30:00,24:30:00,A,1\nlate,25:05:00,25:05:00,B,2\nearly,06:00:00,06:00:00,A,1\nearly,06:20:00,06:20:00,B,2\n",
        ]).timetable()
        #expect(try journeys(feed, from: ["A"], to: ["B"]).map(\.description) == ["06:00-06:20 x0 early", "24:30-25:05 x0 late"])
        // The feed's own 24:30; both bounds inclusive.
        #expect(try journeys(feed, from: ["A"], to: ["B"], after: "24:30").map(\.trips) == [["late"]])
        #expect(try journeys(feed, from: ["A"], to: ["B"], before: "06:00").map(\.trips) == [["early"]])
        #expect(try journeys(feed, from: ["A"], to: ["B"], after: "06:01", before: "24:29").isEmpty)
        let args = try CommandLineParser.parse(["gtfs", "trips", "--from", "A", "--to", "B", "--after", "00:30", "--before", "25:15"],
                                               environment: ["HOME": "/h"], terminal: Terminal(stdout: false, stderr: false))
        guard case .run(_, let command) = args, let request = command.command as? GTFSTripsCommand else { Issue.record("not trips"); return }
        #expect(request.window == ServiceWindow(after: .clock(minutes: 30), before: .asWritten(seconds: 25 * 3600 + 900)))
        // A GTFS query reads `00:30` as a moment of the date asked (issue 64): the 4th's 00:30,
        // reached by the 3rd's runs past 24:00 and the 4th's own; 25:15 is the feed's own hours.
        let (clock, window) = try request.window.moments(on: LocalDate(year: 2026, month: 3, day: 4), in: try #require(TimeZone(identifier: "America/Chicago")),
                                                         now: Date(timeIntervalSince1970: 0))
        #expect(clock.day == LocalDate(year: 2026, month: 3, day: 4))
        #expect(window.after == 1800 && window.before == 25 * 3600 + 900 && !window.startsNow)
    }

    @Test func aDSTDayCountsFromNoonMinusTwelveHours() throws {
        let t = try TestFeed([
            "stops.txt": TestFeed.stops(["A", "B"]),
            "trips.txt": "route_id,service_id,trip_id\nR,S,night\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nnight,01:00:00,01:00:00,A,1\nnight,08:00:00,08:00:00,B,2\n",
        ], zone: "America/New_York").timetable()
        // 2026-03-08: clocks go from 02:00 EST to 03:00 EDT. Noon is EDT; noon − 12 h is 23:00 EST
        // the night before, so 01:00:00 is midnight EST and 08:00:00 is 08:00 EDT.
        let day = try #require(LocalDate(iso: "2026-03-08"))
        let clock = ServiceClock(day: day, zone: t.zone)
        #expect(ClockTime.iso8601(clock.instant(3600), zone: t.zone) == "2026-03-08T00:00:00-05:00")
        #expect(ClockTime.iso8601(clock.instant(8 * 3600), zone: t.zone) == "2026-03-08T08:00:00-04:00")
        let journey = try #require(Router(t, Router.Query(origins: [0], destinations: [1], day: day.dayNumber, maxTransfers: 0, minTransfer: 120)).journeys().first)
        let json = JSONWriter.write(JourneyLayout(t, clock: clock).output([journey], notices: []).records.first.map(Value.object) ?? .null)
        #expect(json.contains("\"departure\": \"2026-03-08T00:00:00-05:00\"") && json.contains("\"arrival\": \"2026-03-08T08:00:00-04:00\""))
        // An ordinary day: noon − 12 h is midnight.
        let plain = ServiceClock(day: try #require(LocalDate(iso: "2026-03-09")), zone: t.zone)
        #expect(ClockTime.iso8601(plain.instant(3600), zone: t.zone) == "2026-03-09T01:00:00-04:00")
    }

    // MARK: frequencies

    @Test func frequencyWindowsExpandAndTheTemplateDoesNotRun() throws {
        for exact in ["0", "1"] {
            let feed = try TestFeed([
                "stops.txt": TestFeed.stops(["A", "B", "C"]),
                "trips.txt": "route_id,service_id,trip_id\nR,S,f\n",
                "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nf,05:00:00,05:00:00,A,1\nf,05:07:00,05:08:00,B,2\nf,05:20:00,05:20:00,C,3\n",
                "frequencies.txt": "trip_id,start_time,end_time,headway_secs,exact_times\nf,08:00:00,09:00:00,1800,\(exact)\n",
            ]).timetable()
            // 08:00 and 08:30 (09:00 is the end, not a departure); 05:00 (the template) never.
            #expect(try journeys(feed, from: ["A"], to: ["C"]).map(\.description) == ["08:00-08:20 x0 f", "08:30-08:50 x0 f"], "exact_times \(exact)")
            #expect(try journeys(feed, from: ["B"], to: ["C"]).map(\.description) == ["08:08-08:20 x0 f", "08:38-08:50 x0 f"])
        }
    }

    @Test func aJourneyRidesTwoRunsOfOneTemplateAroundALoop() throws {
        // The loop A, X, D, B, X calls at X twice, every 10 minutes from 08:00. From B to D: run
        // 08:00 from B (08:20) to X (08:25), then a later run from X to D. Runs are trips of their
        // own: riding one never stands for having ridden the next.
        for exact in ["0", "1"] {
            let feed = try TestFeed([
                "stops.txt": TestFeed.stops(["A", "X", "D", "B"]),
                "trips.txt": "route_id,service_id,trip_id\nR,S,loop\n",
                "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nloop,08:00:00,08:00:00,A,1\nloop,08:05:00,08:05:00,X,2\n"
                    + "loop,08:10:00,08:10:00,D,3\nloop,08:20:00,08:20:00,B,4\nloop,08:25:00,08:25:00,X,5\n",
                "frequencies.txt": "trip_id,start_time,end_time,headway_secs,exact_times\nloop,08:00:00,09:00:00,600,\(exact)\n",
            ]).timetable()
            // 08:25 at X; the run leaving X at 08:35 (started 08:30) reaches D at 08:40 with a 2-minute change.
            #expect(try journeys(feed, from: ["B"], to: ["D"], before: "08:30").map(\.description) == ["08:20-08:40 x1 loop>loop", "08:30-08:50 x1 loop>loop"])
            // With no change time, the run started 08:20 leaves X at 08:25, the moment the first arrives.
            #expect(try journeys(feed, from: ["B"], to: ["D"], before: "08:20", minTransfer: 0).map(\.description) == ["08:20-08:30 x1 loop>loop"])
            // Without a change the answer is none: one run never goes from B back to D.
            #expect(try journeys(feed, from: ["B"], to: ["D"], transfers: 0).isEmpty)
            // The trip index (what realtime looks a TripUpdate up in): six runs, told apart by start.
            let loop = try #require((0..<feed.tripCount).first { feed.tripIDs[$0] == "loop" })
            #expect(feed.runs(ofTrip: loop).map { Trip.clock(feed.runStart(pattern: $0.pattern, row: $0.row)) }
                    == ["08:00", "08:10", "08:20", "08:30", "08:40", "08:50"])
            #expect(feed.tripIsFrequency[loop] == 1)
            // Each leg names its run: trip_id and trip_start.
            let query = Router.Query(origins: [3], destinations: [2], day: try #require(LocalDate(iso: "2026-11-23")).dayNumber,
                                     before: 8 * 3600 + 20 * 60, maxTransfers: 2, minTransfer: 120)
            let journey = try #require(Router(feed, query).journeys().first)
            let clock = ServiceClock(day: try #require(LocalDate(iso: "2026-11-23")), zone: feed.zone)
            let legs = JourneyLayout(feed, clock: clock, journeys: [journey]).output([journey], notices: []).records.first.map { JSONWriter.write(.object($0)) } ?? ""
            #expect(legs.contains("\"trip_start\": \"08:00:00\"") && legs.contains("\"trip_start\": \"08:30:00\""), "\(legs)")
        }
    }

    @Test func anExpressOvertakingALocalIsFound() throws {
        // One stop list, two trips: the local leaves A first, the express overtakes it before M.
        // The compiler splits them into two patterns, so that the first trip found is the first to leave.
        let t = try TestFeed([
            "stops.txt": TestFeed.stops(["A", "M", "B", "C"]),
            "trips.txt": "route_id,service_id,trip_id\nR,S,local\nR,S,express\nQ,S,feeder\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
                + "local,08:00:00,08:00:00,A,1\nlocal,08:20:00,08:20:00,M,2\nlocal,08:40:00,08:40:00,B,3\n"
                + "express,08:05:00,08:05:00,A,1\nexpress,08:15:00,08:15:00,M,2\nexpress,08:25:00,08:25:00,B,3\n"
                + "feeder,08:00:00,08:00:00,C,1\nfeeder,08:12:00,08:12:00,M,2\n",
        ]).timetable()
        #expect(t.patternCount == 3)
        #expect(try journeys(t, from: ["A"], to: ["B"]).map(\.description) == ["08:05-08:25 x0 express"])
        #expect(try journeys(t, from: ["M"], to: ["B"]).map(\.description) == ["08:15-08:25 x0 express", "08:20-08:40 x0 local"])
        // Changing at M (08:12, 2 minutes): the express at 08:15, not the local that left A first.
        #expect(try journeys(t, from: ["C"], to: ["B"]).map(\.description) == ["08:00-08:25 x1 feeder>express"])
    }

    // MARK: untimed stops

    @Test func untimedStopsByDistanceOrByCountHalfUp() throws {
        let byDistance = try TestFeed([
            "stops.txt": TestFeed.stops(["A", "B", "C"]),
            "trips.txt": "route_id,service_id,trip_id\nR,S,d\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled\nd,08:00:00,08:00:00,A,1,0\nd,,,B,2,1\nd,08:10:00,08:10:00,C,3,4\n",
        ]).timetable()
        // B is a quarter of the way: 08:02:30.
        #expect(try journeys(byDistance, from: ["B"], to: ["C"]).first?.departure == "08:02")
        #expect(byDistance.times[2] == 8 * 3600 + 150)
        let byCount = try TestFeed([
            "stops.txt": TestFeed.stops(["A", "B", "C", "D"]),
            "trips.txt": "route_id,service_id,trip_id\nR,S,c\n",
            // One row lacks shape_dist_traveled, so count: 100 s over 3 gaps → 33.3, 66.7 → 33, 67.
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled\nc,08:00:00,08:00:00,A,1,0\nc,,,B,2,\nc,,,C,3,3\nc,08:01:40,08:01:40,D,4,4\n",
        ]).timetable()
        #expect(Array(byCount.times) == [28800, 28800, 28833, 28833, 28867, 28867, 28900, 28900])
        let half = try TestFeed([
            "stops.txt": TestFeed.stops(["A", "B", "C"]),
            "trips.txt": "route_id,service_id,trip_id\nR,S,h\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nh,08:00:00,08:00:00,A,1\nh,,,B,2\nh,08:00:01,08:00:01,C,3\n",
        ]).timetable()
        // 0.5 s rounds up.
        #expect(half.times[2] == 28801)
    }

    @Test func aTripWhoseTimesGoBackwardsIsSkippedWithAWarning() throws {
        let (t, warnings) = try TestFeed([
            "stops.txt": TestFeed.stops(["A", "B"]),
            "trips.txt": trips2,
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nt1,08:00:00,08:00:00,A,1\nt1,07:50:00,07:50:00,B,2\nt2,09:00:00,09:00:00,A,1\nt2,09:10:00,09:10:00,B,2\n",
        ]).compile()
        #expect(warnings == ["trip t1 skipped: its times go backwards at stop_sequence 2"])
        #expect(try journeys(t, from: ["A"], to: ["B"]).map(\.trips) == [["t2"]])
    }

    // MARK: legs

    @Test func pickupAndDropOffTypes() throws {
        let t = try TestFeed([
            "stops.txt": TestFeed.stops(["A", "B", "C"]),
            "trips.txt": trips2,
            // t1 lets nobody off at B; t2 takes nobody on at B.
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type,drop_off_type\nt1,08:00:00,08:00:00,A,1,0,0\nt1,08:10:00,08:10:00,B,2,0,1\nt1,08:20:00,08:20:00,C,3,0,0\nt2,09:00:00,09:00:00,A,1,0,0\nt2,09:10:00,09:10:00,B,2,1,0\nt2,09:20:00,09:20:00,C,3,0,0\n",
        ]).timetable()
        #expect(try journeys(t, from: ["A"], to: ["B"]).map(\.trips) == [["t2"]])
        #expect(try journeys(t, from: ["B"], to: ["C"]).map(\.trips) == [["t1"]])
    }

    @Test func aTripCallingTwiceCanBeUsedFromEitherCall() throws {
        // A loop: X → L → Y → L → Z. From L, Z is reached from the second call; from X, Y from the first.
        let t = try TestFeed([
            "stops.txt": TestFeed.stops(["X", "L", "Y", "Z"]),
            "trips.txt": "route_id,service_id,trip_id\nR,S,loop\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nloop,08:00:00,08:00:00,X,1\nloop,08:05:00,08:06:00,L,2\nloop,08:10:00,08:10:00,Y,3\nloop,08:15:00,08:16:00,L,4\nloop,08:20:00,08:20:00,Z,5\n",
        ]).timetable()
        #expect(try journeys(t, from: ["X"], to: ["L"]).map(\.description) == ["08:00-08:05 x0 loop"])
        #expect(try journeys(t, from: ["Y"], to: ["L"]).map(\.description) == ["08:10-08:15 x0 loop"])
        // The later boarding at L (08:16) is Pareto-better than the earlier (08:06): same arrival.
        #expect(try journeys(t, from: ["L"], to: ["Z"]).map(\.description) == ["08:16-08:20 x0 loop"])
    }

    // MARK: changes

    /// Two trips meeting at stops: t1 A → X (arrives 08:10), t2 Y → B (leaves `leave`).
    func changeFeed(x: String = "X", y: String = "Y", leave: String, transfers: String? = nil, parents: [String: String] = [:],
                    extraStops: String = "", routes: (String, String) = ("R", "R")) throws -> Timetable {
        var files = [
            "stops.txt": TestFeed.stops(Array(Set(["A", x, y, "B"])).sorted(), parents: parents, extra: extraStops),
            "trips.txt": "route_id,service_id,trip_id\n\(routes.0),S,t1\n\(routes.1),S,t2\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nt1,08:00:00,08:00:00,A,1\nt1,08:10:00,08:10:00,\(x),2\nt2,\(leave),\(leave),\(y),1\nt2,09:00:00,09:00:00,B,2\n",
        ]
        if let transfers { files["transfers.txt"] = "from_stop_id,to_stop_id,from_route_id,to_route_id,from_trip_id,to_trip_id,transfer_type,min_transfer_time\n" + transfers }
        return try TestFeed(files).timetable()
    }

    func changes(_ t: Timetable, minTransfer: Int = 120, walk: Double? = nil) throws -> [String] {
        try journeys(t, from: ["A"], to: ["B"], minTransfer: minTransfer, walk: walk).map(\.description)
    }

    @Test func theSameStopNeedsTheDefaultMinimum() throws {
        #expect(try changes(changeFeed(y: "X", leave: "08:12:00")) == ["08:00-09:00 x1 t1>t2"])
        #expect(try changes(changeFeed(y: "X", leave: "08:11:00")).isEmpty)
        #expect(try changes(changeFeed(y: "X", leave: "08:11:00"), minTransfer: 60) == ["08:00-09:00 x1 t1>t2"])
    }

    @Test func stopsOfOneStationAreAChangeOtherStopsAreNot() throws {
        let station = "P,Station P,37.5,-122.0,,1\n"
        #expect(try changes(changeFeed(leave: "08:12:00", parents: ["X": "P", "Y": "P"], extraStops: station)) == ["08:00-09:00 x1 t1>walk:Y>t2"])
        #expect(try changes(changeFeed(leave: "08:12:00")).isEmpty)
    }

    @Test func transfersListsAPairAndAStationStandsForItsStops() throws {
        #expect(try changes(changeFeed(leave: "08:12:00", transfers: "X,Y,,,,,0,\n")) == ["08:00-09:00 x1 t1>walk:Y>t2"])
        let station = "P,Station P,37.5,-122.0,,1\n"
        // A row naming the station P matches its stop X.
        #expect(try changes(changeFeed(leave: "08:10:00", transfers: "P,Y,,,,,1,\n", parents: ["X": "P"], extraStops: station)) == ["08:00-09:00 x1 t1>walk:Y>t2"])
    }

    @Test func transferTypesDecideTheTime() throws {
        // type 1: 0 s; type 2: min_transfer_time (empty = 0); type 3: never; type 0/4/5: --min-transfer.
        #expect(try changes(changeFeed(y: "X", leave: "08:10:00", transfers: "X,X,,,,,1,\n")) == ["08:00-09:00 x1 t1>t2"])
        #expect(try changes(changeFeed(y: "X", leave: "08:14:00", transfers: "X,X,,,,,2,300\n")).isEmpty)
        #expect(try changes(changeFeed(y: "X", leave: "08:15:00", transfers: "X,X,,,,,2,300\n")) == ["08:00-09:00 x1 t1>t2"])
        #expect(try changes(changeFeed(y: "X", leave: "08:10:00", transfers: "X,X,,,,,2,\n")) == ["08:00-09:00 x1 t1>t2"])
        #expect(try changes(changeFeed(y: "X", leave: "08:30:00", transfers: "X,X,,,,,3,\n")).isEmpty)
        for type in ["0", "4", "5"] {
            #expect(try changes(changeFeed(y: "X", leave: "08:11:00", transfers: "X,X,,,,,\(type),\n")).isEmpty, "type \(type)")
            #expect(try changes(changeFeed(y: "X", leave: "08:12:00", transfers: "X,X,,,,,\(type),\n")) == ["08:00-09:00 x1 t1>t2"], "type \(type)")
        }
    }

    @Test func theMostSpecificRowDecides() throws {
        // A trip pair beats a route pair beats stops only, whatever their order in the file.
        let rows = "X,X,,,,,3,\nX,X,R,Q,,,2,600\nX,X,,,t1,t2,1,\n"
        #expect(try changes(changeFeed(y: "X", leave: "08:10:00", transfers: rows, routes: ("R", "Q"))) == ["08:00-09:00 x1 t1>t2"])
        // Without the trip row, the route pair (600 s) decides over the stop-only type 3.
        #expect(try changes(changeFeed(y: "X", leave: "08:19:00", transfers: "X,X,,,,,3,\nX,X,R,Q,,,2,600\n", routes: ("R", "Q"))).isEmpty)
        #expect(try changes(changeFeed(y: "X", leave: "08:20:00", transfers: "X,X,,,,,3,\nX,X,R,Q,,,2,600\n", routes: ("R", "Q"))) == ["08:00-09:00 x1 t1>t2"])
        // A trip and a route beat one trip: rank 2 (600 s) over rank 3 (type 1).
        let mixed = "X,X,,,t1,,1,\nX,X,,Q,t1,,2,600\n"
        #expect(try changes(changeFeed(y: "X", leave: "08:15:00", transfers: mixed, routes: ("R", "Q"))).isEmpty)
        #expect(try changes(changeFeed(y: "X", leave: "08:20:00", transfers: mixed, routes: ("R", "Q"))) == ["08:00-09:00 x1 t1>t2"])
        // One route (rank 5) beats stops only (rank 6).
        #expect(try changes(changeFeed(y: "X", leave: "08:10:00", transfers: "X,X,,,,,3,\nX,X,R,,,,1,\n")) == ["08:00-09:00 x1 t1>t2"])
        // Rows for other trips or routes do not match: the default minimum applies.
        #expect(try changes(changeFeed(y: "X", leave: "08:11:00", transfers: "X,X,,,t2,,1,\n")).isEmpty)
    }

    @Test func aLaterArrivalByAnotherRouteMayChangeWhereTheEarlierMayNot() throws {
        // Both leave A at 08:00; R reaches X at 08:10, Q at 08:12. From R, a change at X needs
        // 10 minutes (transfers.txt by route); from Q the default minute. Only Q makes the 08:13
        // to B: the earliest arrival at X is not the one that matters, so X keeps both.
        /// `fast` reaches X at 08:10 and `slow` at 08:12 (both from A at 08:00); `onward` leaves X for B.
        func feed(slowRoute: String, onwardLeaves: String, transfers: String) throws -> Timetable {
            try TestFeed([
                "stops.txt": TestFeed.stops(["A", "X", "B"]),
                "trips.txt": "route_id,service_id,trip_id\nR,S,fast\n\(slowRoute),S,slow\nR,S,onward\n",
                "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
                    + "fast,08:00:00,08:00:00,A,1\nfast,08:10:00,08:10:00,X,2\nslow,08:00:00,08:00:00,A,1\nslow,08:12:00,08:12:00,X,2\n"
                    + "onward,\(onwardLeaves),\(onwardLeaves),X,1\nonward,08:30:00,08:30:00,B,2\n",
                "transfers.txt": transfers,
            ]).timetable()
        }
        let t = try feed(slowRoute: "Q", onwardLeaves: "08:13:00",
                         transfers: "from_stop_id,to_stop_id,from_route_id,transfer_type,min_transfer_time\nX,X,R,2,600\n")
        #expect(try journeys(t, from: ["A"], to: ["B"], minTransfer: 60).map(\.description) == ["08:00-08:30 x1 slow>onward"])
        // A rule forbidding the change from one trip works the same way (one route: the scan of
        // the pattern would ride only the earlier run).
        let forbidden = try feed(slowRoute: "R", onwardLeaves: "08:20:00",
                                 transfers: "from_stop_id,to_stop_id,from_trip_id,transfer_type\nX,X,fast,3\n")
        #expect(try journeys(forbidden, from: ["A"], to: ["B"], minTransfer: 60).map(\.description) == ["08:00-08:30 x1 slow>onward"])
    }

    @Test func exactStopsBeatStationsAndTiesGoToTheMostRestrictive() throws {
        let station = "P,Station P,37.5,-122.0,,1\n"
        // (P, Y) says type 1; the exact (X, Y) says type 3: exact wins.
        #expect(try changes(changeFeed(leave: "08:30:00", transfers: "P,Y,,,,,1,\nX,Y,,,,,3,\n", parents: ["X": "P"], extraStops: station)).isEmpty)
        // Two rows of the same rank and exactness: the more restrictive (600 s over 60 s).
        let tie = "X,X,,,,,2,60\nX,X,,,,,2,600\n"
        #expect(try changes(changeFeed(y: "X", leave: "08:15:00", transfers: tie)).isEmpty)
        #expect(try changes(changeFeed(y: "X", leave: "08:20:00", transfers: tie)) == ["08:00-09:00 x1 t1>t2"])
        #expect(try changes(changeFeed(y: "X", leave: "08:40:00", transfers: "X,X,,,,,2,60\nX,X,,,,,3,\n")).isEmpty)
    }

    @Test func walkingAddsPairsButNeverOverridesTypeThree() throws {
        // X and Y are 0.01° of latitude apart (1,112 m): 927 s at 1.2 m/s, and a walking change
        // needs --min-transfer (120 s) on top, as a change at one stop does.
        #expect(try changes(changeFeed(leave: "08:30:00")).isEmpty)
        #expect(try changes(changeFeed(leave: "08:30:00"), walk: 1000).isEmpty)
        // 08:10:00 + 120 s + 927 s = 08:27:27: one second earlier is too early.
        #expect(try changes(changeFeed(leave: "08:27:26"), walk: 1200).isEmpty)
        #expect(try changes(changeFeed(leave: "08:27:27"), walk: 1200) == ["08:00-09:00 x1 t1>walk:Y>t2"])
        #expect(try changes(changeFeed(leave: "08:25:27"), minTransfer: 0, walk: 1200) == ["08:00-09:00 x1 t1>walk:Y>t2"])
        let t = try changeFeed(leave: "08:27:27")
        let day = try #require(LocalDate(iso: "2026-11-23")).dayNumber
        let found = Router(t, Router.Query(origins: [0], destinations: [1], day: day, maxTransfers: 2, minTransfer: 120, walkMeters: 1200)).journeys()
        let leg = try #require(found.first?.legs[1])
        guard case .walk(let meters) = leg.mode else { Issue.record("no walk"); return }
        #expect(leg.arrival.planned - leg.departure.planned == Int((meters / 1.2).rounded(.up)) && abs(meters - 1112) < 2)
        #expect(try changes(changeFeed(leave: "08:59:00", transfers: "X,Y,,,,,3,\n"), walk: 5000).isEmpty)
    }

    // MARK: the answer

    @Test func theParetoSetSortedAndEqualTriplesOnce() throws {
        // slow: A 08:00 → B 09:00; fast: A 08:10 → B 08:40 dominates slow; two 08:20 → 08:50
        // trips (one on each of two platforms of a station) are one journey; a change that
        // arrives earlier than any direct trip stays beside them.
        let t = try TestFeed([
            "stops.txt": TestFeed.stops(["A1", "A2", "M", "B"], parents: ["A1": "A", "A2": "A"], extra: "A,Station A,37.0,-122.0,,1\n"),
            "trips.txt": "route_id,service_id,trip_id\nR,S,slow\nR,S,fast\nR,S,twin1\nR,S,twin2\nR,S,hop1\nR,S,hop2\n",
            "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            slow,08:00:00,08:00:00,A1,1
            slow,09:00:00,09:00:00,B,2
            fast,08:10:00,08:10:00,A1,1
            fast,08:40:00,08:40:00,B,2
            twin1,08:20:00,08:20:00,A1,1
            twin1,08:50:00,08:50:00,B,2
            twin2,08:20:00,08:20:00,A2,1
            twin2,08:50:00,08:50:00,B,2
            hop1,08:30:00,08:30:00,A2,1
            hop1,08:35:00,08:35:00,M,2
            hop2,08:37:00,08:37:00,M,1
            hop2,08:45:00,08:45:00,B,2
            """,
        ]).timetable()
        let found = try journeys(t, from: ["A1", "A2"], to: ["B"])
        #expect(found.map(\.description).filter { !$0.contains("twin") } == ["08:10-08:40 x0 fast", "08:30-08:45 x1 hop1>hop2"])
        #expect(found.count == 3 && found[1].departure == "08:20" && found[1].transfers == 0)
        // With no change allowed, the hop is gone.
        #expect(try journeys(t, from: ["A1", "A2"], to: ["B"], transfers: 0).map(\.departure) == ["08:10", "08:20"])
    }

    @Test func atMostKChanges() throws {
        var stopTimes = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        var trips = "route_id,service_id,trip_id\n"
        let stops = ["S0", "S1", "S2", "S3", "S4"]
        for i in 0..<4 {
            trips += "R,S,h\(i)\n"
            let hour = String(format: "%02d", 8 + i)
            stopTimes += "h\(i),\(hour):00:00,\(hour):00:00,\(stops[i]),1\nh\(i),\(hour):30:00,\(hour):30:00,\(stops[i + 1]),2\n"
        }
        let t = try TestFeed(["stops.txt": TestFeed.stops(stops), "trips.txt": trips, "stop_times.txt": stopTimes]).timetable()
        #expect(try journeys(t, from: ["S0"], to: ["S4"], transfers: 3).map(\.description) == ["08:00-11:30 x3 h0>h1>h2>h3"])
        #expect(try journeys(t, from: ["S0"], to: ["S4"], transfers: 2).isEmpty)
    }
}
