import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

/// More walking never arrives later, and a journey on foot when walking is the journey (issue
/// 65), through the binary, on a feed written from these facts (Chicago's zone, 41° N):
/// - S0, X 0.0085° east of it (about 713 m), S1 0.0013° farther (about 109 m from X; about 822 m
///   from S0). t1 rides S0 06:40 → X 06:55; t2 S0 19:00 → S1 19:16, the slow way.
/// - P, and Q 0.0063° north of it (about 701 m); t3 rides P 08:00 → Q 08:40, a 40-minute bus.
@Suite struct JourneyOnFootTests {
    static let date = "2026-11-23"

    static func feed() -> String {
        TestFeed([
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS0,Start,41.0,-87.0\nX,Crossing,41.0,-86.9915\nS1,Finish,41.0,-86.9902\n"
                + "P,Parkside,41.05,-87.0\nQ,Quayside,41.0563,-87.0\n",
            "trips.txt": "route_id,service_id,trip_id\nR,S,t1\nR,S,t2\nQ,S,t3\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nt1,06:40:00,06:40:00,S0,1\nt1,06:55:00,06:55:00,X,2\n"
                + "t2,19:00:00,19:00:00,S0,1\nt2,19:16:00,19:16:00,S1,2\nt3,08:00:00,08:00:00,P,1\nt3,08:40:00,08:40:00,Q,2\n",
        ], zone: "America/Chicago").directory
    }

    static func trips(_ feed: String, _ args: [String], format: String = "json") async throws -> Run {
        try await Run.transit(["gtfs", "trips", "--feed", feed, "--date", date, "--transfers", "2", "--format", format] + args)
    }

    static func meters(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
        Coordinate(latitude: a.0, longitude: a.1).meters(to: Coordinate(latitude: b.0, longitude: b.1))
    }

    /// The case: with `--walk 400` the ride to X and the walk on to S1 arrive 06:56:31;
    /// with `--walk 800` X is a stop walked to from S0, and it is still alighted at (before
    /// issue 65 an origin was not: the answer was the 19:16).
    @Test func moreWalkingNeverArrivesLater() async throws {
        let feed = Self.feed()
        let onward = Self.meters((41.0, -86.9915), (41.0, -86.9902)), seconds = Int((onward / 1.2).rounded(.up))
        #expect(Self.meters((41.0, -87.0), (41.0, -86.9915)) < 800 && Self.meters((41.0, -87.0), (41.0, -86.9902)) > 800)
        var arrivals: [String] = []
        for walk in ["400", "800"] {
            let run = try await Self.trips(feed, ["--from", "S0", "--to", "S1", "--after", "06:00", "--earliest", "--walk", walk])
            #expect(run.status == 0, "\(run.stderr)")
            let first = try #require(try run.records().first, "--walk \(walk): \(run.stdout) \(run.stderr)")
            arrivals.append(first["arrival"] as? String ?? "")
            let legs = first["legs"] as? [[String: Any]] ?? []
            #expect(legs.map { $0["mode"] as? String ?? "" } == ["ride", "walk"] && legs.last?["from"] as? String == "X", "--walk \(walk): \(legs)")
        }
        let expected = String(format: "2026-11-23T06:%02d:%02d-06:00", 55 + seconds / 60, seconds % 60)
        #expect(arrivals == [expected, expected], "\(arrivals)")
    }

    /// Ends 700 m apart: `--walk 800` lists the journey on foot first (any time, 700 m, the
    /// 40-minute bus it beats left out and said); `--walk 500` and `--walk 0` do not.
    @Test func endsWithinTheWalkListTheJourneyOnFootFirst() async throws {
        let feed = Self.feed(), apart = Self.meters((41.05, -87.0), (41.0563, -87.0)), seconds = Int((apart / 1.2).rounded(.up))
        let run = try await Self.trips(feed, ["--from", "P", "--to", "Q", "--after", "07:30", "--walk", "800"])
        #expect(run.status == 0, "\(run.stderr)")
        let records = try run.records()
        let walk = try #require(records.first)
        #expect(walk["any_time"] as? Bool == true && walk["transfers"] as? Int == 0 && walk["fare"] == nil, "\(walk)")
        #expect(walk["departure"] as? String == "2026-11-23T07:30:00-06:00" && walk["duration_minutes"] as? Int == seconds / 60, "\(walk)")
        let legs = try #require(walk["legs"] as? [[String: Any]])
        #expect(legs.count == 1 && legs[0]["mode"] as? String == "walk" && legs[0]["walk_meters"] as? Int == Int(apart.rounded())
                && legs[0]["walk_seconds"] as? Int == seconds && legs[0]["from"] as? String == "P" && legs[0]["to"] as? String == "Q", "\(legs)")
        // The bus leaves at 08:00 and arrives 08:40: the walk leaving then arrives at 08:10.
        #expect(records.count == 1 && run.stderrLines == ["1 journey left out: walking there (\(Int(apart.rounded())) m, \(seconds / 60) min) arrives sooner, leaving when it leaves"], "\(records) \(run.stderr)")
        // The table: DEPART any, no ARRIVE, MIN the walk's, JOURNEY the walk.
        let table = try await Self.trips(feed, ["--from", "P", "--to", "Q", "--after", "07:30", "--walk", "800"], format: "table")
        let row = try #require(table.stdoutLines.dropFirst().first)
        #expect(row.hasPrefix("any ") && row.hasSuffix("walk \(Int(apart.rounded())) m") && row.contains(" \(seconds / 60) "), "\(table.stdout)")
        // --limit counts it as a row; --earliest gives it where it arrives first.
        let limited = try await Self.trips(feed, ["--from", "P", "--to", "Q", "--after", "07:30", "--walk", "800", "--limit", "1"])
        #expect(try limited.records().map { $0["any_time"] as? Bool } == [true])
        let earliest = try await Self.trips(feed, ["--from", "P", "--to", "Q", "--after", "07:30", "--walk", "800", "--earliest"])
        #expect(try earliest.records().map { $0["any_time"] as? Bool } == [true])
        for walk in ["500", "0"] {
            let without = try await Self.trips(feed, ["--from", "P", "--to", "Q", "--after", "07:30", "--walk", walk])
            let rows = try without.records()
            #expect(rows.count == 1 && rows.first?["any_time"] as? Bool == false && rows.first?["arrival"] as? String == "2026-11-23T08:40:00-06:00",
                    "--walk \(walk): \(rows)")
        }
        // Never with --via.
        let via = try await Self.trips(feed, ["--from", "P", "--to", "Q", "--after", "07:30", "--walk", "800", "--via", "S0"])
        #expect(try via.records().allSatisfy { $0["any_time"] as? Bool == false }, "\(via.stdout)")
    }

    /// A point 300 m east of Q: the journey on foot to it (within the point's radius), the bus
    /// from P (762 m from the point) beaten.
    @Test func aPointNearItsDestinationGetsTheJourneyOnFoot() async throws {
        let feed = Self.feed(), point = (41.0563, -86.99643)
        let apart = Self.meters(point, (41.0563, -87.0))
        #expect(abs(apart - 300) < 2)
        let run = try await Self.trips(feed, ["--from", "\(point.0),\(point.1)", "--to", "Q", "--after", "07:30"])
        #expect(run.status == 0, "\(run.stderr)")
        let first = try #require(try run.records().first)
        let legs = first["legs"] as? [[String: Any]] ?? []
        #expect(first["any_time"] as? Bool == true && legs.count == 1 && legs.first?["walk_meters"] as? Int == Int(apart.rounded())
                && legs.first?["to"] as? String == "Q", "\(first)")
        // The other way: from Q to the point.
        let back = try await Self.trips(feed, ["--from", "Q", "--to", "\(point.0),\(point.1)", "--after", "07:30"])
        #expect(try back.records().first?["any_time"] as? Bool == true, "\(back.stdout) \(back.stderr)")
        // Two points with the same stops within their radius (P and Q): the walk between them is
        // the answer (before: a usage error); without walking, still one.
        let west = (41.0563, -87.0018), apartPoints = Self.meters(point, west)
        let between = try await Self.trips(feed, ["--from", "\(point.0),\(point.1)", "--to", "\(west.0),\(west.1)", "--after", "07:30"])
        let only = try between.records()
        #expect(between.status == 0 && only.count == 1 && (only.first?["legs"] as? [[String: Any]])?.first?["walk_meters"] as? Int == Int(apartPoints.rounded()),
                "\(between.stdout) \(between.stderr)")
        let refused = try await Self.trips(feed, ["--from", "\(point.0),\(point.1)", "--to", "\(west.0),\(west.1)", "--after", "07:30", "--walk", "0"])
        #expect(refused.status == 2 && refused.stderrLines == ["transit: every stop near --to is near --from too: walk"], "\(refused.stderr)")
    }
}
