import Foundation
import Testing
// The library as a program embedding it sees it: no @testable import, no TransitCore.
import TransitGTFS

/// TransitGTFS through its public API alone (what `Examples/Embedding` builds against from
/// outside the package): journeys with their legs, reach, a board and one trip's calls, on the
/// bundled Lakeport with its real-time recording, each the same as the command line prints.
@Suite struct EmbeddingTests {
    static let day = LocalDate(year: 2026, month: 11, day: 23)
    static let realtimeFile = Paths.fixtures + "/gtfs/lakeport-realtime/trip-updates.pb"

    static func iso(_ date: Date?, _ zone: TimeZone) -> String? {
        guard let date else { return nil }
        let f = ISO8601DateFormatter()
        f.timeZone = zone
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: date)
    }

    /// The CLI's JSON for the same question, on a cache of its own.
    static func cli(_ args: [String]) async throws -> [[String: Any]] {
        let cache = Paths.temporary()
        // The clock unpinned (Run.environment pins it): a recording is read at its own time.
        let env = Run.environment(["TRANSIT_CACHE_DIR": cache, "TRANSIT_NOW": ""])
        let imported = try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/lakeport"], env: env)
        #expect(imported.status == 0, "\(imported.stderr)")
        let run = try await Run.transit(["--format", "json", "gtfs"] + args + ["--realtime", realtimeFile], env: env)
        #expect(run.status == 0, "\(run.stderr)")
        return try run.records()
    }

    @Test func journeysWithTheirLegsAsTheCommandLineHasThem() async throws {
        let feed = try GTFSFeed.compile(Paths.fixtures + "/gtfs/lakeport"), zone = feed.timeZone
        let live = try feed.realtime(try Data(contentsOf: URL(fileURLWithPath: Self.realtimeFile)))
        let journeys = try feed.journeys(JourneyQuery(from: "Harbor", to: "Stadium", date: Self.day, after: 7 * 3600 + 55 * 60, limit: 3),
                                         realtime: live)
        let cli = try await Self.cli(["trips", "--from", "Harbor", "--to", "Stadium", "--date", "2026-11-23", "--after", "07:55", "--limit", "3"])
        #expect(journeys.count == cli.count && journeys.count == 3)
        for (journey, row) in zip(journeys, cli) {
            #expect(Self.iso(journey.departure, zone) == row["departure"] as? String && Self.iso(journey.arrival, zone) == row["arrival"] as? String)
            #expect(journey.transfers == row["transfers"] as? Int)
            let legs = row["legs"] as? [[String: Any]] ?? []
            #expect(journey.legs.count == legs.count)
            for (leg, expected) in zip(journey.legs, legs) {
                #expect(leg.tripID == expected["trip_id"] as? String && leg.from?.id == expected["from"] as? String && leg.to?.id == expected["to"] as? String)
                #expect(Self.iso(leg.departure.predicted, zone) == expected["departure"] as? String)
                #expect(Self.iso(leg.arrival.predicted, zone) == expected["arrival"] as? String)
                if leg.tripID != nil {
                    #expect(leg.status.rawValue == expected["status"] as? String && leg.route == expected["route"] as? String)
                    #expect(Self.iso(leg.departure.planned, zone) == expected["planned_departure"] as? String)
                }
            }
        }
        // The first rides the late SL: planned 08:00, predicted 08:04 (README).
        #expect(journeys.first?.legs.first.map { (Self.iso($0.departure.planned, zone), Self.iso($0.departure.predicted, zone), $0.status) }
                .map { $0 == ("2026-11-23T08:00:00-06:00", "2026-11-23T08:04:00-06:00", .updated) } == true)
    }

    /// Two feeds as one network with a real-time message of each, through the library alone
    /// (`GTFSFeed.realtime` over a combination, issue 42): BART's 2019 capture and Lakeport's
    /// recording, each applied on its own feed's clock; a journey of each feed the same as
    /// `gtfs trips --feed bart --feed lakeport --realtime bart=… --realtime lakeport=…` prints.
    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func aJourneyOverTwoFeedsWithAMessageOfEach() async throws {
        let cache = Paths.temporary()
        let env = Run.environment(["TRANSIT_CACHE_DIR": cache, "TRANSIT_NOW": ""])
        let bartRT = Reference.path("gtfs-rt/feeds/transitland-bart/bart-trip-updates.pb")
        for (source, name) in [(Reference.path("gtfs-rt/feeds/transitland-bart/bart-rt.zip"), "bart"), (Paths.fixtures + "/gtfs/lakeport", "lakeport")] {
            #expect(try await Run.transit(["gtfs", "import", source, "--name", name], env: env).status == 0)
        }
        let feed = try GTFSFeed.imported(["bart", "lakeport"], cacheDirectory: cache)
        let live = try feed.realtime([(feed: "bart", message: try Data(contentsOf: URL(fileURLWithPath: bartRT))),
                                      (feed: "lakeport", message: try Data(contentsOf: URL(fileURLWithPath: Self.realtimeFile)))])
        #expect(throws: TransitError.self) { try feed.realtime([(feed: "muni", message: Data())]) }
        for (from, to, date, after, zone) in [("bart:DALY", "bart:EMBR", "2019-08-07", "10:50", "America/Los_Angeles"),
                                              ("Harbor", "Stadium", "2026-11-23", "07:55", "America/Chicago")] {
            let day = try #require(LocalDate(iso: date)), minutes = try #require(ClockTime.minutes(after))
            let journeys = try feed.journeys(JourneyQuery(from: from, to: to, date: day, after: minutes * 60, limit: 2), realtime: live)
            let run = try await Run.transit(["--format", "json", "gtfs", "trips", "--feed", "bart", "--feed", "lakeport", "--from", from, "--to", to, "--date", date,
                                             "--after", after, "--limit", "2", "--realtime", "bart=" + bartRT, "--realtime", "lakeport=" + Self.realtimeFile], env: env)
            let cli = try run.records()
            #expect(journeys.count == cli.count && !journeys.isEmpty, "\(from): \(run.stderr)")
            let tz = try #require(TimeZone(identifier: zone))
            for (journey, row) in zip(journeys, cli) {
                let legs = row["legs"] as? [[String: Any]] ?? []
                #expect(journey.legs.map { Self.iso($0.departure.predicted, tz) } == legs.map { $0["departure"] as? String })
                #expect(journey.legs.map { $0.status.rawValue } == legs.map { $0["status"] as? String ?? "scheduled" })
            }
            // Each feed's message reaches its own rides: the first journey's first ride runs late.
            #expect(journeys.first?.legs.first { $0.tripID != nil }?.status == .updated, "\(from)")
        }
        // One trip's calls over the combination, planned and live, at the instants the command
        // line prints (before: a run without real-time data was read off the file on its own
        // feed's clock and given on the combination's, two hours off).
        let day = try #require(LocalDate(iso: "2026-11-23")), chicago = try #require(TimeZone(identifier: "America/Chicago"))
        let query = JourneyQuery(from: "Harbor", to: "Stadium", date: day, after: 7 * 3600 + 55 * 60, limit: 1)
        let planned = try #require(try feed.journeys(query, realtime: nil).first?.legs.first { $0.tripID != nil }?.tripID)
        let updated = try #require(try feed.journeys(query, realtime: live).first?.legs.first { $0.tripID != nil }?.tripID)
        for (trip, realtime) in [(planned, nil), (updated, live)] {
            let calls = try feed.trip(trip, date: day, realtime: realtime)
            let cli = try await Run.transit(["--format", "json", "gtfs", "trip", trip, "--feed", "bart", "--feed", "lakeport", "--date", "2026-11-23"]
                                            + (realtime == nil ? ["--no-realtime"] : ["--realtime", "lakeport=" + Self.realtimeFile]), env: env).records()
            #expect(calls.count == cli.count && calls.count > 2, "\(trip)")
            for (k, (call, row)) in zip(calls, cli).enumerated() where k > 0 {
                #expect(Self.iso(call.arrival.predicted, chicago) == row["arrival"] as? String, "\(trip) \(k)")
                #expect(call.status.rawValue == row["status"] as? String, "\(trip) \(k)")
            }
        }
    }

    @Test func aBoardATripAndReachAsTheCommandLineHasThem() async throws {
        let feed = try GTFSFeed.compile(Paths.fixtures + "/gtfs/lakeport"), zone = feed.timeZone
        let live = try feed.realtime(try Data(contentsOf: URL(fileURLWithPath: Self.realtimeFile)))
        let board = try feed.departures(at: "Harbor", date: Self.day, after: 7 * 3600 + 55 * 60, realtime: live)
        let cliBoard = try await Self.cli(["departures", "--stop", "Harbor", "--date", "2026-11-23", "--after", "07:55"])
        #expect(board.count == cliBoard.count && board.count > 10)
        for (call, row) in zip(board, cliBoard) {
            #expect(call.tripID == row["trip_id"] as? String && call.stop.id == row["platform"] as? String && call.status.rawValue == row["status"] as? String)
            #expect(Self.iso(call.time.predicted, zone) == row["time"] as? String && Self.iso(call.time.planned, zone) == row["planned_time"] as? String)
        }
        #expect(Set(board.map(\.status)).isSuperset(of: [.scheduled, .updated, .canceled, .added]))

        let trip = try #require(board.first { $0.status == .updated }?.tripID)
        let calls = try feed.trip(trip, date: Self.day, realtime: live)
        let cliCalls = try await Self.cli(["trip", trip, "--date", "2026-11-23"])
        #expect(calls.map(\.stop.id) == cliCalls.map { $0["stop_id"] as? String ?? "" } && !calls.isEmpty)
        #expect(calls.map { $0.status.rawValue } == cliCalls.map { $0["status"] as? String ?? "" })
        // The CLI prints no arrival at the first call and no departure at the last.
        for (k, (call, row)) in zip(calls, cliCalls).enumerated() where k > 0 && k < calls.count - 1 {
            #expect(Self.iso(call.arrival.predicted, zone) == row["arrival"] as? String && Self.iso(call.departure.predicted, zone) == row["departure"] as? String)
        }

        let reached = try feed.reach(ReachQuery(from: .stop("Harbor"), day: .on(Self.day), after: .asWritten(seconds: 8 * 3600), minutes: 30), realtime: live)
        let cliReach = try await Self.cli(["reach", "--from", "Harbor", "--date", "2026-11-23", "--after", "08:00", "--minutes", "30"])
        #expect(reached.map(\.stop.id) == cliReach.map { $0["stop_id"] as? String ?? "" } && !reached.isEmpty)
        #expect(reached.map { Self.iso($0.arrival, zone) } == cliReach.map { $0["arrival"] as? String })
        // A stop reached on foot (Harbor Terminal, within --walk of Harbor) has no changes: null.
        #expect(reached.map(\.transfers) == cliReach.map { $0["transfers"] as? Int } && reached.contains { $0.transfers == nil })
    }
}
