import Foundation
import Testing
// The library as a program embedding it sees it: no @testable import, no TransitCore.
import TransitGTFS

/// One question, one answer (issue 63): the library's `JourneyQuery` with a rider's needs, a via
/// with a stay, an avoided route, and a point walked on a map's streets, answered field by field
/// as `transit gtfs trips --format json` answers the same question: each journey's departure,
/// arrival and changes; each leg's trip_id, from, to, departure, arrival, planned times, status
/// and walk_meters.
@Suite struct EmbeddedNeedsTests {
    static let lakeport = Paths.fixtures + "/gtfs/lakeport"
    static let day = LocalDate(year: 2026, month: 11, day: 23)

    static func iso(_ date: Date?, _ zone: TimeZone) -> String? { EmbeddingTests.iso(date, zone) }

    /// The binary's journeys for `args` (after `gtfs trips`), as JSON records.
    static func cli(_ args: [String], cache: String = Paths.temporary()) async throws -> [[String: Any]] {
        let run = try await Run.transit(["--format", "json", "gtfs", "trips"] + args, env: Run.environment(["TRANSIT_CACHE_DIR": cache]))
        #expect(run.status == 0, "\(args): \(run.stderr)")
        return try run.records()
    }

    /// The library's journeys and the binary's, field by field. `points`: what the binary names
    /// the ends given as points by (the library's leg has no stop there).
    static func expectSame(_ journeys: [GTFSFeed.Journey], _ cli: [[String: Any]], zone: TimeZone, points: (from: String?, to: String?) = (nil, nil),
                           _ what: String) {
        #expect(journeys.count == cli.count && !journeys.isEmpty, "\(what): the library found \(journeys.count), transit \(cli.count)")
        for (k, (journey, row)) in zip(journeys, cli).enumerated() {
            let at = "\(what), journey \(k)"
            #expect(iso(journey.departure, zone) == row["departure"] as? String, "\(at): departure")
            #expect(iso(journey.arrival, zone) == row["arrival"] as? String, "\(at): arrival")
            #expect(journey.transfers == row["transfers"] as? Int, "\(at): transfers")
            let legs = row["legs"] as? [[String: Any]] ?? []
            #expect(journey.legs.count == legs.count, "\(at): \(journey.legs.count) legs against \(legs.count)")
            for (n, (leg, expected)) in zip(journey.legs, legs).enumerated() {
                let at = "\(at), leg \(n)"
                #expect(leg.tripID == expected["trip_id"] as? String, "\(at): trip_id")
                #expect((leg.from?.id ?? points.from) == expected["from"] as? String && (leg.to?.id ?? points.to) == expected["to"] as? String, "\(at): from, to")
                #expect(iso(leg.departure.predicted, zone) == expected["departure"] as? String, "\(at): departure")
                #expect(iso(leg.arrival.predicted, zone) == expected["arrival"] as? String, "\(at): arrival")
                #expect(leg.walkMeters.map { Int($0.rounded()) } == expected["walk_meters"] as? Int, "\(at): walk_meters")
                #expect(leg.serviceDay?.iso == expected["service_day"] as? String, "\(at): service_day")
                guard leg.tripID != nil else { continue }
                #expect(iso(leg.departure.planned, zone) == expected["planned_departure"] as? String, "\(at): planned_departure")
                #expect(iso(leg.arrival.planned, zone) == expected["planned_arrival"] as? String, "\(at): planned_arrival")
                #expect(leg.status.rawValue == expected["status"] as? String, "\(at): status")
            }
        }
    }

    /// Step-free, and through a stop with minutes there: Lakeport's Shore Line runs on the hour
    /// are step-free (wheelchair_accessible=1) and those at half past are not.
    @Test func aWheelchairAndAViaWithAStayAsTheBinaryHasThem() async throws {
        let feed = try GTFSFeed.compile(Self.lakeport)
        var stepFree = JourneyQuery(from: "Harbor", to: "Stadium", date: Self.day, after: 7 * 3600 + 55 * 60, limit: 4, needs: RiderNeeds(wheelchair: true))
        let plain = try feed.journeys(JourneyQuery(from: "Harbor", to: "Stadium", date: Self.day, after: 7 * 3600 + 55 * 60, limit: 4))
        let base = ["--feed", Self.lakeport, "--from", "Harbor", "--to", "Stadium", "--date", "2026-11-23", "--after", "07:55", "--limit", "4"]
        let wheelchair = try feed.journeys(stepFree)
        Self.expectSame(wheelchair, try await Self.cli(base + ["--wheelchair"]), zone: feed.timeZone, "--wheelchair")
        // It asks something: the rides at half past are left out.
        #expect(Set(wheelchair.map(\.departure)) != Set(plain.map(\.departure)) && wheelchair.count == 4)

        stepFree.vias = [JourneyQuery.Via("Riverside", staySeconds: 5 * 60)]
        let through = try feed.journeys(stepFree)
        Self.expectSame(through, try await Self.cli(base + ["--wheelchair", "--via", "Riverside", "--via-stay", "5"]), zone: feed.timeZone, "a via with a stay")
        #expect(through.allSatisfy { $0.legs.contains { $0.to?.name == "Riverside" } && $0.transfers == 2 })
    }

    /// After the last train (issue 64): Lakeport's Shore Line from Harbor after 23:55 asked for
    /// three, the library goes on into the next day's first as the binary does.
    @Test func afterTheLastTrainTheNextDaysAsTheBinaryHasThem() async throws {
        let feed = try GTFSFeed.compile(Self.lakeport)
        let journeys = try feed.journeys(JourneyQuery(from: "Harbor", to: "Riverside", date: Self.day, after: 23 * 3600 + 55 * 60, limit: 3))
        let cli = try await Self.cli(["--feed", Self.lakeport, "--from", "Harbor", "--to", "Riverside", "--date", "2026-11-23", "--after", "23:55",
                                      "--limit", "3"])
        Self.expectSame(journeys, cli, zone: feed.timeZone, "after the last train")
        #expect(journeys.contains { $0.legs.contains { $0.serviceDay?.iso == "2026-11-24" } }, "\(journeys.map(\.departure))")
    }

    /// MMRI 3d (OpenTripPlanner's ExcludedRoutesTest): route 3d|1 avoided, by its id or its name
    /// (no walking: the stops are 111 m apart, and the journey on foot would beat bus 2).
    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func anAvoidedRouteAsTheBinaryHasIt() async throws {
        let path = Reference.feed("mmri-3d"), feed = try GTFSFeed.compile(path)
        let date = try #require(LocalDate(iso: "2014-01-01"))
        for avoid in ["3d|1", "BUS 1"] {
            let q = JourneyQuery(from: "3d1", to: "3d2", date: date, after: 60, limit: 1, rules: JourneyQuery.Rules(minTransferSeconds: 0, walkMeters: 0),
                                 needs: RiderNeeds(avoid: [avoid]))
            let journeys = try feed.journeys(q)
            Self.expectSame(journeys, try await Self.cli(["--feed", path, "--from", "3d1", "--to", "3d2", "--date", "2014-01-01", "--after", "0:01:00",
                                                          "--min-transfer", "0", "--limit", "1", "--avoid", avoid, "--walk", "0"]),
                            zone: feed.timeZone, "--avoid \(avoid)")
            #expect(journeys.first?.legs.first?.tripID == "3d|2")
        }
        // An unknown route is a usage error naming it.
        #expect(throws: TransitError.usage("no route 'NOPE' in feed given; 'transit gtfs routes' lists them")) {
            try feed.journeys(JourneyQuery(from: "3d1", to: "3d2", date: date, needs: RiderNeeds(avoid: ["NOPE"])))
        }
    }

    /// A point as an end on a feed imported with a map: the library walks the map's streets as
    /// the binary does (836 m in a straight line to the first stop is 1,389 m on foot). Before,
    /// `GTFSFeed` passed no streets and walked the straight line.
    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func aPointIsWalkedOnTheMapsStreetsAsTheBinaryWalksIt() async throws {
        let cache = Paths.temporary(), env = Run.environment(["TRANSIT_CACHE_DIR": cache])
        let imported = try await Run.transit(["gtfs", "import", Reference.feed("r5-terre-haute"), "--name", "th",
                                              "--streets", Reference.path("osm/r5/terre-haute.osm.pbf")], env: env)
        #expect(imported.status == 0, "\(imported.stderr)")
        let feed = try GTFSFeed.imported("th", cacheDirectory: cache)
        let (from, to) = ("39.46183,-87.34191", "39.43793,-87.34351"), date = try #require(LocalDate(iso: "2016-06-15"))
        let journeys = try feed.journeys(JourneyQuery(from: from, to: to, date: date, after: 8 * 3600, limit: 3))
        let cli = try await Self.cli(["--feed", "th", "--from", from, "--to", to, "--date", "2016-06-15", "--after", "08:00", "--limit", "3"], cache: cache)
        Self.expectSame(journeys, cli, zone: feed.timeZone, points: (from, to), "a point on terre-haute's streets")
        let walk = try #require(journeys.first?.legs.first)
        #expect(walk.to?.id == "782648" && walk.walkMeters.map { Int($0.rounded()) } == 1389, "\(walk)")
    }
}
