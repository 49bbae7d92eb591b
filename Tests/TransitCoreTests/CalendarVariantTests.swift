import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport
import TransitTestSupport

/// Trips that differ only in their calendar (issue 47, item 4): a feed writes a school-holiday
/// variant as a trip of its own, with its twin's times. The compiled file stores their times
/// once (`Timetable.rowBlocks`), and each keeps its row: its own id in legs and `gtfs trip`, its
/// own real-time updates (SEMANTICS.md rule 7: a trip is named by its id and its day), and fares.
///
/// `term` runs on school days, `hol` on the holiday (2026-12-24, a Thursday), both A 08:00,
/// B 08:10, C 08:20 on route R; `later` (term days) an hour later. America/Los_Angeles.
@Suite struct CalendarVariantTests {
    static let feed = TestFeed([
        "stops.txt": TestFeed.stops(["A", "B", "C"]),
        "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
            + "TERM,1,1,1,1,1,0,0,20261201,20261231\nHOL,0,0,0,0,0,0,0,20261201,20261231\n",
        "calendar_dates.txt": "service_id,date,exception_type\nTERM,20261224,2\nHOL,20261224,1\n",
        "trips.txt": "route_id,service_id,trip_id\nR,TERM,term\nR,HOL,hol\nR,TERM,later\n",
        "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
            + "term,08:00:00,08:00:00,A,1\nterm,08:10:00,08:10:00,B,2\nterm,08:20:00,08:20:00,C,3\n"
            + "hol,08:00:00,08:00:00,A,1\nhol,08:10:00,08:10:00,B,2\nhol,08:20:00,08:20:00,C,3\n"
            + "later,09:00:00,09:00:00,A,1\nlater,09:12:00,09:12:00,B,2\nlater,09:25:00,09:25:00,C,3\n",
        "fare_attributes.txt": "fare_id,price,currency_type,payment_method,transfers\nride,2.50,USD,0,0\n",
        "fare_rules.txt": "fare_id,route_id\nride,R\n",
    ])
    /// 2026-12-24 07:30 PST.
    static let now = 1_798_126_200

    func trip(_ t: Timetable, _ id: String) throws -> Int { try #require(t.tripIDs.indices(of: id).first, "trip \(id)") }

    @Test func twinsShareTheirTimesAndKeepTheirRows() throws {
        let (t, warnings) = try Self.feed.compile()
        #expect(warnings.isEmpty, "\(warnings)")
        let term = try t.runs(ofTrip: trip(t, "term")), hol = try t.runs(ofTrip: trip(t, "hol")), later = try t.runs(ofTrip: trip(t, "later"))
        #expect(term.count == 1 && hol.count == 1 && later.count == 1)
        // One pattern of three rows, two blocks of times: the twins read the same one.
        #expect(t.patternCount == 1 && t.patternTrips.count == 3 && t.times.count == 2 * 3 * 2)
        let at = { (run: (pattern: Int, row: Int)) in t.timeIndex(pattern: run.pattern, row: run.row, position: 0) }
        #expect(term[0].row != hol[0].row && at(term[0]) == at(hol[0]) && at(later[0]) != at(term[0]))
        #expect(t.blockCount(ofPattern: 0) == 2 && t.damage.damagedField == nil)
    }

    /// Each day's journey rides that day's twin, by its own id; `gtfs trip` shows each on its
    /// days and not on the other's; the fare is the route's either way.
    @Test func eachTwinIsItsOwnTripInTheAnswers() async throws {
        let env = Run.environment(["TRANSIT_CACHE_DIR": Paths.temporary()])
        let base = ["--format", "json", "gtfs", "trips", "--feed", Self.feed.directory, "--from", "A", "--to", "C", "--after", "07:30", "--limit", "1"]
        for (date, id) in [("2026-12-23", "term"), ("2026-12-24", "hol")] {
            let run = try await Run.transit(base + ["--date", date], env: env)
            let rows = try run.records()
            let legs = rows.first?["legs"] as? [[String: Any]] ?? []
            #expect(run.status == 0 && rows.count == 1 && legs.compactMap { $0["trip_id"] as? String } == [id], "\(date): \(run.stdout) \(run.stderr)")
            #expect(rows.first?["departure"] as? String == "\(date)T08:00:00-08:00" && rows.first?["arrival"] as? String == "\(date)T08:20:00-08:00")
            let fare = rows.first?["fare"] as? [String: Any]
            #expect(fare?["total"] as? Double == 2.5 && (fare?["legs"] as? [[String: Any]])?.first?["fare_id"] as? String == "ride", "\(run.stdout)")
            let other = id == "term" ? "hol" : "term"
            let shown = try await Run.transit(["--format", "json", "gtfs", "trip", id, "--feed", Self.feed.directory, "--date", date], env: env)
            let stops = try shown.records().map { $0["stop_id"] as? String ?? "?" }
            #expect(shown.status == 0 && stops == ["A", "B", "C"], "\(shown.stdout) \(shown.stderr)")
            let none = try await Run.transit(["gtfs", "trip", other, "--feed", Self.feed.directory, "--date", date], env: env)
            #expect(none.status == 0 && none.stdout.isEmpty && none.stderr == "Trip \(other) does not run on \(date)\n", "\(other) on \(date): \(none.stderr)")
        }
    }

    /// A delay to the holiday twin moves it on its day and leaves its term-time twin, which reads
    /// the same stored times, as planned; a delay naming the term twin on the holiday (when it
    /// does not run) changes nothing.
    @Test func anUpdateToOneTwinLeavesTheOther() throws {
        let t = try Self.feed.timetable()
        func update(_ id: String, date: String, now: Int = Self.now) -> FeedMessage {
            let stu = FeedMessage.StopTimeUpdate(stopSequence: 2, stopID: nil, arrival: nil, departure: FeedMessage.StopTimeEvent(delay: 300), scheduleRelationship: nil)
            let entity = FeedMessage.FeedEntity(id: id, tripUpdate: FeedMessage.TripUpdate(
                trip: FeedMessage.TripDescriptor(tripID: id, routeID: nil, startTime: nil, startDate: date, scheduleRelationship: nil), stopTimeUpdates: [stu], delay: nil))
            return FeedMessage(header: FeedMessage.FeedHeader(version: "2.0", incrementality: nil, timestamp: UInt64(now)), entities: [entity])
        }
        func first(_ updates: TripUpdates, day: String) throws -> String {
            let query = Router.Query(origins: [try #require(t.stopIDs.indices(of: "A").first)], destinations: [try #require(t.stopIDs.indices(of: "C").first)],
                                     day: try #require(LocalDate(iso: day)).dayNumber, after: 7 * 3600 + 1800, maxTransfers: 0, minTransfer: 0)
            let j = try #require(Router(t, query, updates: updates).journeys().first)
            return "\(Trip.clock(j.departure))-\(Trip.clock(j.arrival)) " + j.legs.compactMap { $0.trip.map { t.tripIDs[$0] } }.joined(separator: ">")
        }
        let hol = TripUpdateApplier.apply(update("hol", date: "20261224"), to: t, now: Self.now, source: "rt")
        #expect(hol.notices.isEmpty, "\(hol.notices)")
        #expect(try first(hol, day: "2026-12-24") == "08:00-08:25 hol")
        #expect(try first(hol, day: "2026-12-23") == "08:00-08:20 term")
        let term = TripUpdateApplier.apply(update("term", date: "20261224"), to: t, now: Self.now, source: "rt")
        #expect(try first(term, day: "2026-12-24") == "08:00-08:20 hol")
        // And the other way: the term twin delayed on a school day, the holiday's as planned.
        let school = TripUpdateApplier.apply(update("term", date: "20261223", now: Self.now - 86_400), to: t, now: Self.now - 86_400, source: "rt")
        #expect(try first(school, day: "2026-12-23") == "08:00-08:25 term")
        #expect(try first(school, day: "2026-12-24") == "08:00-08:20 hol")
        // The stored times are the same as before any update.
        let again = try Self.feed.timetable()
        #expect(Array(t.times.buffer) == Array(again.times.buffer))
    }
}
