import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport

/// SEMANTICS.md's rules that no capture in the pack shows, each on a hand-made message applied to
/// a small feed: one trip t1 calling A, B, C, D at 08:00, 08:10, 08:20, 08:30 (stop_sequence 10,
/// 20, 30, 40) on route R, and t2 an hour later, in America/Los_Angeles on 2026-11-23.
@Suite struct RealtimeRuleTests {
    static let feed = TestFeed([
        "stops.txt": TestFeed.stops(["A", "B", "C", "D"]),
        "trips.txt": "route_id,service_id,trip_id\nR,S,t1\nR,S,t2\n",
        "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
            + "t1,08:00:00,08:00:00,A,10\nt1,08:10:00,08:10:00,B,20\nt1,08:20:00,08:20:00,C,30\nt1,08:30:00,08:30:00,D,40\n"
            + "t2,09:00:00,09:00:00,A,10\nt2,09:10:00,09:10:00,B,20\nt2,09:20:00,09:20:00,C,30\nt2,09:30:00,09:30:00,D,40\n",
    ])
    static let day = LocalDate(year: 2026, month: 11, day: 23)
    /// 2026-11-23 08:05 PST.
    static let now = 1_795_449_900

    typealias STU = FeedMessage.StopTimeUpdate

    static func trip(id: String? = "t1", date: String? = "20261123", relationship: UInt64? = nil, route: String? = nil,
                     start: String? = nil, _ stus: [STU] = [], delay: Int32? = nil) -> FeedMessage.FeedEntity {
        FeedMessage.FeedEntity(id: id, tripUpdate: FeedMessage.TripUpdate(
            trip: FeedMessage.TripDescriptor(tripID: id, routeID: route, startTime: start, startDate: date, scheduleRelationship: relationship),
            stopTimeUpdates: stus, delay: delay))
    }

    static func stu(_ sequence: UInt64?, stop: String? = nil, arrival: Int32? = nil, departure: Int32? = nil, relationship: UInt64? = nil) -> STU {
        STU(stopSequence: sequence, stopID: stop, arrival: arrival.map { FeedMessage.StopTimeEvent(delay: $0) },
            departure: departure.map { FeedMessage.StopTimeEvent(delay: $0) }, scheduleRelationship: relationship)
    }

    static func apply(_ entities: [FeedMessage.FeedEntity], timestamp: UInt64? = UInt64(now), incrementality: UInt64? = nil) throws -> (TripUpdates, Timetable) {
        let t = try feed.timetable()
        let message = FeedMessage(header: FeedMessage.FeedHeader(version: "2.0", incrementality: incrementality, timestamp: timestamp), entities: entities)
        return (TripUpdateApplier.apply(message, to: t, now: now, source: "rt"), t)
    }

    /// t1's calls as "status departure-delay-in-minutes", or nil when the data leaves it as planned.
    static func calls(_ updates: TripUpdates, _ t: Timetable, trip id: String = "t1") -> [String]? {
        guard let trip = t.tripIDs.indices(of: id).first, let run = t.runs(ofTrip: trip).first,
              let instance = updates.instance(trip: trip, day: day.dayNumber, start: t.runStart(pattern: run.pattern, row: run.row)) else { return nil }
        if instance.status != .updated { return [instance.status.rawValue] }
        return instance.calls.map { "\($0.status.rawValue) \(($0.departure - ($0.plannedDeparture ?? 0)) / 60)" }
    }

    @Test func delaysCarryForwardNoDataStopsThemAndAnEmptyUpdateMeansOnTime() throws {
        // Rule 14: a delay at B carries to C and D; upstream A keeps its schedule (rule 15).
        var (u, t) = try Self.apply([Self.trip([Self.stu(20, departure: 300)])])
        #expect(Self.calls(u, t) == ["scheduled 0", "updated 5", "updated 5", "updated 5"])
        // NO_DATA at C: the schedule from there, not real-time, until the next update.
        (u, t) = try Self.apply([Self.trip([Self.stu(20, departure: 300), Self.stu(30, relationship: 2)])])
        #expect(Self.calls(u, t) == ["scheduled 0", "updated 5", "scheduled 0", "scheduled 0"])
        // The spec's empty update (no events, SCHEDULED): on time from that call on.
        (u, t) = try Self.apply([Self.trip([Self.stu(20, departure: 300), Self.stu(30)])])
        #expect(Self.calls(u, t) == ["scheduled 0", "updated 5", "updated 0", "updated 0"])
        // Rule 22: a trip-level delay for a trip with no stop updates.
        (u, t) = try Self.apply([Self.trip(delay: 120)])
        #expect(Self.calls(u, t) == ["updated 2", "updated 2", "updated 2", "updated 2"])
        // `delay: 0` is present and on time: realtime, not scheduled.
        (u, t) = try Self.apply([Self.trip([Self.stu(10, departure: 0)])])
        #expect(Self.calls(u, t) == ["updated 0", "updated 0", "updated 0", "updated 0"])
    }

    @Test func stopsAreFoundBySequenceOrByAStopThatOccursOnce() throws {
        // stop_id alone; stop_sequence alone; both agreeing.
        for update in [Self.stu(nil, stop: "C", departure: 60), Self.stu(30, departure: 60), Self.stu(30, stop: "C", departure: 60)] {
            let (u, t) = try Self.apply([Self.trip([update])])
            #expect(Self.calls(u, t) == ["scheduled 0", "scheduled 0", "updated 1", "updated 1"], "\(update)")
        }
        // Neither, or a sequence the trip does not have with no stop: dropped and counted.
        let (u, t) = try Self.apply([Self.trip([Self.stu(nil, departure: 60), Self.stu(35, departure: 60)])])
        #expect(Self.calls(u, t) == nil && u.notices == ["rt: 2 stop updates name no call of their trip (dropped)"])
    }

    @Test func updatesOutOfOrderOrGoingBackwardsAreRejectedWhole() throws {
        // Rule 12: C listed before B.
        var (u, t) = try Self.apply([Self.trip([Self.stu(30, departure: 60), Self.stu(20, departure: 60)])])
        #expect(Self.calls(u, t) == nil && u.notices == ["rt: 1 trip updates list their stops out of order (rejected; those trips keep their schedule)"])
        // Rule 16: an explicit time at C earlier than B's explicit time.
        (u, t) = try Self.apply([Self.trip([Self.stu(20, departure: 900), Self.stu(30, arrival: -300)])])
        #expect(Self.calls(u, t) == nil && u.notices == ["rt: 1 trip updates have times that go backwards (rejected; those trips keep their schedule)"])
        // Rule 15 (revised 2026-11-25): running 15 minutes early at C (08:05) moves B (planned to
        // leave at 08:10, after it) 15 minutes earlier too, and then A (08:00, after B's new 07:55),
        // never C; before, B was lowered onto C's instant.
        (u, t) = try Self.apply([Self.trip([Self.stu(30, arrival: -900, departure: -900)])])
        #expect(Self.calls(u, t) == ["updated -15", "updated -15", "updated -15", "updated -15"])
    }

    @Test func whichTripAndWhichDay() throws {
        // Rule 9: no trip_id; route, date and start time name t2 alone.
        var (u, t) = try Self.apply([Self.trip(id: nil, route: "R", start: "09:00:00", [Self.stu(20, departure: 60)])])
        #expect(Self.calls(u, t, trip: "t2") == ["scheduled 0", "updated 1", "updated 1", "updated 1"])
        // A route_id that contradicts trips.txt: skipped, counted.
        (u, t) = try Self.apply([Self.trip(route: "Q", [Self.stu(20, departure: 60)])])
        #expect(Self.calls(u, t) == nil && u.notices == ["rt: 1 trip updates name a route their trip does not have (skipped)"])
        // Without start_date: the instance under way around now (08:05, today's t1).
        (u, t) = try Self.apply([Self.trip(date: nil, [Self.stu(20, departure: 60)])])
        #expect(Self.calls(u, t) == ["scheduled 0", "updated 1", "updated 1", "updated 1"])
        // Two updates for one instance: the later wins, counted (rule 10). An unknown trip: counted.
        (u, t) = try Self.apply([Self.trip([Self.stu(20, departure: 60)]), Self.trip([Self.stu(20, departure: 180)]), Self.trip(id: "ghost")])
        #expect(Self.calls(u, t) == ["scheduled 0", "updated 3", "updated 3", "updated 3"])
        #expect(u.notices == ["rt: 1 of 3 trip updates matched no trip of the timetable (skipped)", "rt: 1 trip updates repeat a trip instance (the later in the feed wins)"])
    }

    @Test func theFeedAndItsClock() throws {
        // Rule 4: a header in milliseconds is read as such, and said once.
        var (u, t) = try Self.apply([Self.trip([Self.stu(20, departure: 60)])], timestamp: UInt64(Self.now) * 1000)
        #expect(Self.calls(u, t) != nil && u.notices == ["rt: times are in milliseconds, not seconds; read as such"])
        // Rule 5: DIFFERENTIAL is applied as a snapshot, with a warning; is_deleted entities are ignored.
        var deleted = Self.trip([Self.stu(20, departure: 600)])
        deleted.isDeleted = true
        (u, t) = try Self.apply([deleted], incrementality: 1)
        #expect(Self.calls(u, t) == nil && u.notices == ["rt: a DIFFERENTIAL feed, applied as a full snapshot"])
        // Rule 6: 2 minutes old is said; 31 minutes old is not applied.
        (u, t) = try Self.apply([Self.trip([Self.stu(20, departure: 60)])], timestamp: UInt64(Self.now - 120))
        #expect(Self.calls(u, t) != nil && u.notices == ["rt: the data is 2 min old"])
        (u, t) = try Self.apply([Self.trip([Self.stu(20, departure: 60)])], timestamp: UInt64(Self.now - 31 * 60))
        #expect(Self.calls(u, t) == nil && u.notices.first?.hasSuffix("not applied: times are as planned") == true)
        // Ages in words a rider reads at a glance (issue 44, item 5): 2019's capture read in 2026.
        #expect([45, 12 * 60, 3 * 3600 + 10 * 60, 4 * 86_400, 150 * 86_400, 1_795_737_600 - 1_565_199_921]
                    .map(TripUpdateApplier.age) == ["45 s", "12 min", "3 h 10 min", "4 days", "5 months", "7 years"])
        // UNSCHEDULED is not applied, and said.
        (u, t) = try Self.apply([Self.trip(relationship: 2)])
        #expect(u.notices == ["rt: 1 trip updates are UNSCHEDULED, which transit does not apply"])
    }

    @Test func canceledAndSkipped() throws {
        // CANCELED overrides its stop updates; every call skipped is canceled too (rule 19).
        var (u, t) = try Self.apply([Self.trip(relationship: 3, [Self.stu(20, departure: 60)])])
        #expect(Self.calls(u, t) == ["canceled"])
        (u, t) = try Self.apply([Self.trip((1...4).map { Self.stu(UInt64($0 * 10), relationship: 1) })])
        #expect(Self.calls(u, t) == ["canceled"])
        // A skipped call passes the delay on.
        (u, t) = try Self.apply([Self.trip([Self.stu(10, departure: 120), Self.stu(20, relationship: 1)])])
        #expect(Self.calls(u, t) == ["updated 2", "skipped 2", "updated 2", "updated 2"])
        // DELETED: gone without a trace.
        (u, t) = try Self.apply([Self.trip(relationship: 7)])
        #expect(Self.calls(u, t) == ["hidden"])
    }

    @Test func alertsInForceTheirLanguageAndWhatTheyApplyTo() throws {
        let t = try Self.feed.timetable()
        func translations(_ pairs: [(String, String?)]) -> [FeedMessage.Translation] { pairs.map { FeedMessage.Translation(text: $0.0, language: $0.1) } }
        // Rule 24's order: the reader's language, English, the untagged text, the first.
        let all = translations([("Bonjour", "fr-CA"), ("Hello", "en"), ("Plain", nil)])
        #expect(ServiceAlert.text(all, language: ServiceAlert.language("fr_CA.UTF-8")) == "Bonjour")
        #expect(ServiceAlert.text(all, language: ServiceAlert.language("de_DE.UTF-8")) == "Hello")
        #expect(ServiceAlert.text(translations([("Hallo", "de"), ("Plain", nil)]), language: "es") == "Plain")
        #expect(ServiceAlert.text(translations([("Hallo", "de"), ("Hej", "sv")]), language: "es") == "Hallo")
        #expect(ServiceAlert.language(nil) == "en" && ServiceAlert.language("C") == "en" && ServiceAlert.language("POSIX") == "en")
        // Periods [start, end); none: always. Selectors: AND within one, OR between them.
        func alert(_ periods: [FeedMessage.TimeRange], _ selectors: [FeedMessage.EntitySelector]) -> ServiceAlert? {
            let message = FeedMessage(header: FeedMessage.FeedHeader(version: "2.0", timestamp: UInt64(Self.now)),
                                      entities: [FeedMessage.FeedEntity(id: "a", alert: FeedMessage.Alert(activePeriods: periods, informedEntities: selectors))])
            return ServiceAlert.alerts([RealtimeSource.Message(source: "rt", message: message, now: Self.now)], language: "en").first
        }
        let now = UInt64(Self.now)
        #expect(alert([], [])?.active == true)
        #expect(alert([FeedMessage.TimeRange(start: now - 60, end: now + 60)], [])?.active == true)
        #expect(alert([FeedMessage.TimeRange(start: now - 60, end: now)], [])?.active == false)
        #expect(alert([FeedMessage.TimeRange(start: now + 1)], [])?.active == false)
        #expect(alert([FeedMessage.TimeRange(start: now - 60, end: 32_503_694_400)], [])?.active == true)  // an end in the year 3000
        let a = try #require(alert([], [FeedMessage.EntitySelector(routeID: "R", stopID: "B"), FeedMessage.EntitySelector(stopID: "D")]))
        let stop = { (id: String) in t.stopIDs.indices(of: id).first }
        let r = try #require(t.routeIDs.indices(of: "R").first), q = try #require(t.routeIDs.indices(of: "Q").first)
        #expect(a.applies(t, route: r, trip: 0, stop: stop("B")) && a.applies(t, route: q, trip: -1, stop: stop("D")))
        #expect(!a.applies(t, route: r, trip: 0, stop: stop("A")) && !a.applies(t, route: q, trip: -1, stop: stop("B")))
        #expect(a.cause == "unknown_cause" && a.effect == "unknown_effect" && a.severity == "unknown_severity")
        // An alert with no informed_entity applies to nothing (NYCT sends such), but is listed.
        #expect(alert([], [])?.applies(t, route: r, trip: 0, stop: stop("A")) == false)
    }
}
