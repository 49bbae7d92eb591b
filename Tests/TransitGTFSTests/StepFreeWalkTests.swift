import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

/// `--wheelchair` walks on a map (issue 46, item 1), through the binary, worked out by hand: a
/// river between two streets, crossed by steps at the west (`highway=steps`, beside the platforms
/// A and B) and by a bridge without steps 167.8 m east of them (beside C). On foot, A → B is 67 m
/// over the steps; a wheelchair's way goes round by the bridge: A → B 402 m (within twice the
/// default 300 m, past twice `--walk 200`), A → C 234 m, at 0.8 m/s.
@Suite struct StepFreeWalkTests {
    typealias M = MapBadInputTests

    /// North street at 41.0005°, south street at 41.0000°, each from 87.002° W to 86.998° W in
    /// two long segments (a place joins every segment within its nearest plus 25 m: short ones
    /// would offer diagonal joins) and on westward as a lane of 40 nodes (no island); the steps
    /// at 87.000° W, the bridge at 86.998° W.
    static func map() throws -> String {
        let nodes: [(Int64, Double, Double)] = [(1, 41.0005, -87.002), (21, 41.0005, -87.0), (41, 41.0005, -86.998),
                                                (101, 41.0, -87.002), (121, 41.0, -87.0), (141, 41.0, -86.998)]
        let northLane = M.street(1001, 40, lat: 41.0005, lon: -87.006), southLane = M.street(2001, 40, lat: 41.0, lon: -87.006)
        let data = M.map(nodes + northLane + southLane,
                         [M.Way(refs: northLane.map(\.0) + [1, 21, 41]), M.Way(refs: southLane.map(\.0) + [101, 121, 141]), M.Way(refs: [41, 141]),
                          M.Way(refs: [21, 121], tags: [("highway", "steps")])])
        let path = Paths.temporary() + "/steps.osm.pbf"
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// X → A (north bank) by R1, arriving 08:10; B (south bank, across from A) → Y by R2 at 08:25,
    /// arriving 08:35; C (south bank, by the bridge) → Y by R3 at 08:20, arriving 08:40. Every stop
    /// and trip marked step-free.
    static func feed() -> String {
        TestFeed([
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon,wheelchair_boarding\nX,Xville,41.0100,-87.0000,1\nA,North Bank,41.00055,-87.0000,1\n"
                + "B,South Bank,40.99995,-87.0000,1\nC,Bridge South,40.99995,-86.9980,1\nY,Yton,40.9900,-87.0000,1\n",
            "routes.txt": "route_id,route_short_name,route_type\nR1,R1,3\nR2,R2,3\nR3,R3,3\n",
            "trips.txt": "route_id,service_id,trip_id,wheelchair_accessible\nR1,S,t1,1\nR2,S,t2,1\nR3,S,t3,1\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nt1,08:00:00,08:00:00,X,1\nt1,08:10:00,08:10:00,A,2\n"
                + "t2,08:25:00,08:25:00,B,1\nt2,08:35:00,08:35:00,Y,2\nt3,08:20:00,08:20:00,C,1\nt3,08:40:00,08:40:00,Y,2\n",
        ], zone: "America/Chicago").directory
    }

    struct Answer: Equatable {
        var arrival: String
        var walkTo: String?
        var meters: Int?
        var seconds: Int?
        var stepFree: [Bool?]
    }

    static func first(_ cache: String, _ options: [String]) async throws -> (Answer, Run) {
        let run = try await Run.transit(["gtfs", "trips", "--feed", "f", "--from", "Xville", "--to", "Yton", "--date", "2026-11-23",
                                         "--after", "07:59", "--format", "json"] + options, env: Run.environment(["TRANSIT_CACHE_DIR": cache]))
        let first = try #require(try run.records().first, "\(run.stderr)")
        let legs = first["legs"] as? [[String: Any]] ?? []
        let walk = legs.first { $0["mode"] as? String == "walk" }
        return (Answer(arrival: first["arrival"] as? String ?? "", walkTo: walk?["to"] as? String, meters: walk?["walk_meters"] as? Int,
                       seconds: walk?["walk_seconds"] as? Int, stepFree: legs.map { $0["step_free"] as? Bool }), run)
    }

    @Test func aWheelchairWalkTakesTheBridgeNotTheSteps() async throws {
        let cache = Paths.temporary(), env = Run.environment(["TRANSIT_CACHE_DIR": cache])
        let imported = try await Run.transit(["gtfs", "import", Self.feed(), "--name", "f", "--streets", try Self.map()], env: env)
        // A → B and B → A: kept on foot (67 m) and step-free by the bridge (402 m, within the
        // 600 m a pair within 300 m keeps): no pair is steps only.
        #expect(imported.status == 0 && !imported.stderr.contains("without steps"), "\(imported.stderr)")

        let c = { (lat: Double, lon: Double) in Coordinate(latitude: lat, longitude: lon) }
        // A place's piece to its street on rule 2's plane: 0.00005° of latitude.
        let piece = 0.00005 * StreetNetwork.metersPerDegreeLatitude
        let along = c(41.0005, -87.0).meters(to: c(41.0005, -86.998)), across = c(41.0005, -86.998).meters(to: c(41.0, -86.998))
        let steps = c(41.0005, -87.0).meters(to: c(41.0, -87.0))

        // On foot: over the steps to B, 67 m at 1.2 m/s, R2 at 08:25.
        let (foot, _) = try await Self.first(cache, [])
        let overSteps = piece + steps + piece
        #expect(foot.arrival == "2026-11-23T08:35:00-06:00" && foot.walkTo == "B" && foot.meters == Int(overSteps.rounded())
                && foot.seconds == Int((overSteps / 1.2).rounded(.up)), "\(foot), by hand \(overSteps)")

        // In a wheelchair with --walk 200: by the bridge to C (180 m in a straight line), 234 m at
        // 0.8 m/s (B is 402 m round, past twice 200), R3 at 08:20. Every leg step-free: rides
        // between stops marked 1, a walk on the map's step-free streets.
        let (wheelchair, run) = try await Self.first(cache, ["--wheelchair", "--walk", "200"])
        let byBridge = piece + along + across + piece
        #expect(wheelchair.arrival == "2026-11-23T08:40:00-06:00" && wheelchair.walkTo == "C" && wheelchair.meters == Int(byBridge.rounded())
                && wheelchair.seconds == Int((byBridge / 0.8).rounded(.up)), "\(wheelchair), by hand \(byBridge)")
        #expect(wheelchair.stepFree == [true, true, true], "\(wheelchair)")
        #expect(run.stderr.contains("on the map's streets without steps"), "\(run.stderr)")

        // The default 300 m (B 67 m away in a straight line: the stored step-free walk), and
        // 500 m (measured at query time on the map's step-free network): round to B, 402 m (503 s
        // and the 2-minute change: 08:20:23), in time for R2 at 08:25.
        let round = piece + along + across + along + piece
        for walk in [[], ["--walk", "500"]] {
            let (longer, _) = try await Self.first(cache, ["--wheelchair"] + walk)
            #expect(longer.arrival == "2026-11-23T08:35:00-06:00" && longer.walkTo == "B" && longer.meters == Int(round.rounded())
                    && longer.seconds == Int((round / 0.8).rounded(.up)), "\(walk): \(longer), by hand \(round)")
        }
        // On foot the same walks are over the steps.
        let (footLonger, _) = try await Self.first(cache, ["--walk", "500"])
        #expect(footLonger.walkTo == "B" && footLonger.meters == Int(overSteps.rounded()), "\(footLonger)")
    }

    /// A feed imported without a map: walks are straight lines for a wheelchair too, said.
    @Test func withoutAMapAWheelchairWalkIsAStraightLineAndSaysSo() async throws {
        let cache = Paths.temporary()
        let imported = try await Run.transit(["gtfs", "import", Self.feed(), "--name", "f"], env: Run.environment(["TRANSIT_CACHE_DIR": cache]))
        #expect(imported.status == 0, "\(imported.stderr)")
        let (answer, run) = try await Self.first(cache, ["--wheelchair"])
        #expect(answer.walkTo == "B" && answer.meters == 67 && answer.stepFree == [true, nil, true], "\(answer)")
        #expect(run.stderr.contains("without a map (gtfs import --streets) steps on the way cannot be avoided"), "\(run.stderr)")
    }
}
