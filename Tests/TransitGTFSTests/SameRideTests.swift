import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

/// The journey a rider would take (issue 66): of journeys that are the same ride, the one that
/// walks least at the ends, whatever its departure. Through the binary, on a feed written from
/// these facts (Chicago's zone, 41° N, where 0.001° of longitude is about 84 m):
/// - a point O (41.0, -87.0); N 0.0021° east of it (about 176 m), F 0.0152° east (about 1,276 m),
///   D 0.05° east (beyond a walk from F); A, a stop no vehicle calls at, at O.
/// - tram t5 calls at N 08:03, F 08:21, D 08:40. From O with a reach of 1,500 m, boarding at F
///   leaves O at 08:03:17 and boarding at N at 08:00:33: the Pareto set keeps only the later, the
///   1,276 m walk; a rider takes the same tram 176 m away.
@Suite struct SameRideTests {
    static let date = "2026-11-23"

    static func feed() -> String {
        TestFeed([
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nA,Origin,41.0,-87.0\nN,Near,41.0,-86.9979\nF,Far,41.0,-86.9848\nD,Downtown,41.0,-86.95\n",
            "routes.txt": "route_id,route_short_name,route_type\nT5,5,0\n",
            "trips.txt": "route_id,service_id,trip_id\nT5,S,t5\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nt5,08:03:00,08:03:00,N,1\nt5,08:21:00,08:21:00,F,2\n"
                + "t5,08:40:00,08:40:00,D,3\n",
        ], zone: "America/Chicago").directory
    }

    static func meters(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
        Coordinate(latitude: a.0, longitude: a.1).meters(to: Coordinate(latitude: b.0, longitude: b.1))
    }

    /// The departure of a journey walking `meters` to a stop the tram leaves at `time` (seconds).
    static func leaving(_ time: Int, walking meters: Double) -> String {
        let at = time - Int((meters / 1.2).rounded(.up))
        return String(format: "2026-11-23T%02d:%02d:%02d-06:00", at / 3600, at / 60 % 60, at % 60)
    }

    /// From the point and from the stop A named, by departure and `--earliest`: the tram
    /// boarded at N after the short walk, leaving when that walk leaves; the walk to F never.
    @Test func theShortWalkToTheSameRideIsTheJourney() async throws {
        let feed = Self.feed(), near = Self.meters((41.0, -87.0), (41.0, -86.9979)), far = Self.meters((41.0, -87.0), (41.0, -86.9848))
        #expect(near < 200 && far > 1200 && far < 1500)
        let ends: [[String]] = [["--from", "41.0,-87.0", "--radius", "1500"], ["--from", "A", "--walk", "1500"]]
        for from in ends {
            for order in [[], ["--earliest"]] {
                let run = try await Run.transit(["gtfs", "trips", "--feed", feed, "--date", Self.date, "--to", "D", "--after", "07:50",
                                                 "--format", "json"] + from + order)
                #expect(run.status == 0, "\(run.stderr)")
                let records = try run.records()
                let journey = try #require(records.first, "\(from) \(order): \(run.stdout) \(run.stderr)")
                let legs = journey["legs"] as? [[String: Any]] ?? []
                #expect(records.count == 1 && journey["departure"] as? String == Self.leaving(8 * 3600 + 180, walking: near)
                        && journey["arrival"] as? String == "2026-11-23T08:40:00-06:00", "\(from) \(order): \(records)")
                #expect(legs.map { $0["mode"] as? String ?? "" } == ["walk", "ride"] && legs.last?["from"] as? String == "N"
                        && legs.first?["walk_meters"] as? Int == Int(near.rounded()), "\(from) \(order): \(legs)")
            }
        }
    }

    /// `--limit N` is the first N of the whole answer when a journey moves before them: buses
    /// b1 A 06:30 → D 06:50 and b2 A 06:55 → D 06:58, and the tram at N 06:50, F 07:30, D 08:00.
    /// The first hour's search holds b1 and b2, both arriving within it; the whole window's
    /// tram boarded at F (leaving 07:12) is the same ride as at N (leaving 06:47), which comes
    /// second. The searched span grows by the most a boarding can move (`sameRideAdvance`).
    @Test func aLimitIsTheFirstOfTheWholeAnswer() async throws {
        let feed = TestFeed([
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nA,Origin,41.0,-87.0\nN,Near,41.0,-86.9979\nF,Far,41.0,-86.9848\nD,Downtown,41.0,-86.95\n",
            "routes.txt": "route_id,route_short_name,route_type\nT5,5,0\nB,9,3\n",
            "trips.txt": "route_id,service_id,trip_id\nT5,S,t5\nB,S,b1\nB,S,b2\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nt5,06:50:00,06:50:00,N,1\nt5,07:30:00,07:30:00,F,2\n"
                + "t5,08:00:00,08:00:00,D,3\nb1,06:30:00,06:30:00,A,1\nb1,06:50:00,06:50:00,D,2\nb2,06:55:00,06:55:00,A,1\nb2,06:58:00,06:58:00,D,2\n",
        ], zone: "America/Chicago").directory
        let near = Self.meters((41.0, -87.0), (41.0, -86.9979))
        func departures(_ extra: [String]) async throws -> [String] {
            let run = try await Run.transit(["gtfs", "trips", "--feed", feed, "--date", Self.date, "--from", "A", "--to", "D", "--after", "06:00",
                                             "--walk", "1500", "--transfers", "2", "--format", "json"] + extra)
            #expect(run.status == 0, "\(run.stderr)")
            return try run.records().map { $0["departure"] as? String ?? "" }
        }
        let whole = try await departures([])
        #expect(whole == ["2026-11-23T06:30:00-06:00", Self.leaving(6 * 3600 + 50 * 60, walking: near), "2026-11-23T06:55:00-06:00"], "\(whole)")
        for n in [1, 2, 3] {
            #expect(try await departures(["--limit", String(n)]) == Array(whole.prefix(n)), "--limit \(n)")
        }
    }
}
