import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

/// `gtfs walks --dropped` (issue 66), through the binary: on a map of two banks of a river, a
/// street that loops 550 m east before it comes back, and a street reached from its neighbour by
/// steps alone, every pair of stops within 300 m that keeps no walk is listed once with why, and
/// the import's line counts them; a pair within 300 m in a straight line keeps its street walk up
/// to 600 m, which `--walk` allows up to twice itself.
@Suite struct DroppedWalkTests {
    typealias Map = StreetWalkTests

    /// North bank: street N at 41.0005° (87.0000° to 86.9980° W), street N2 at 41.0015° reached
    /// from N's west end by steps (and so, step-free, an island: nothing joins it). South bank: street S at 41.0000° running east to 86.9900° W,
    /// down to S2 at 40.9995° and back west to 86.9980° W. No bridge.
    static let map = Map.map([(1, 41.0005, -87.0), (2, 41.0005, -86.998), (5, 41.0015, -87.0), (6, 41.0015, -86.998),
                              (3, 41.0, -87.0), (4, 41.0, -86.99), (9, 40.9995, -86.99), (10, 40.9995, -86.998)],
                             [[1, 2], [5, 6], [1, 5], [3, 4], [4, 9], [9, 10]], steps: [2])

    /// A, F on the north bank (A by N, F by N2: 5.5 m from each, F 105 m from N); B, D by S; E by S2.
    static func feed() -> String {
        TestFeed([
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nA,North,41.00045,-86.9985\nF,Upper North,41.00145,-86.9995\n"
                + "B,South,41.00005,-86.9985\nD,South East,41.00005,-86.9965\nE,Loop,40.99945,-86.9965\n",
            "routes.txt": "route_id,route_short_name,route_type\nR1,R1,3\n",
            "trips.txt": "route_id,service_id,trip_id\nR1,S,t1\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nt1,08:00:00,08:00:00,A,1\nt1,08:10:00,08:10:00,B,2\n"
                + "t1,08:20:00,08:20:00,D,3\nt1,08:30:00,08:30:00,E,4\nt1,08:40:00,08:40:00,F,5\n",
        ], zone: "America/Chicago").directory
    }

    @Test func everyPairWithoutAWalkIsListedWithWhy() async throws {
        let cache = Paths.temporary(), mapPath = cache + ".osm.pbf"
        try Self.map.write(to: URL(fileURLWithPath: mapPath))
        let env = Run.environment(["TRANSIT_CACHE_DIR": cache])
        let imported = try await Run.transit(["gtfs", "import", Self.feed(), "--name", "banks", "--streets", mapPath], env: env)
        #expect(imported.status == 0 && imported.stderr.contains("; 7 pairs of stops within 300 m keep no walk, more than 600 m apart on it or not connected (gtfs walks --dropped lists them)")
                    && imported.stderr.contains("; 1 pair keeps a walk that has no way without steps within 600 m (none for --wheelchair)"), "\(imported.stderr)")
        let run = try await Run.transit(["--format", "json", "gtfs", "walks", "--feed", "banks", "--dropped"], env: env)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        var listed: [String: (straight: Double, street: Double?)] = [:]
        for row in try run.records() {
            let from = try #require(row["from"] as? String), to = try #require(row["to"] as? String), reason = try #require(row["reason"] as? String)
            let key = [from, to].sorted().joined(separator: "-") + " " + reason
            #expect(listed[key] == nil, "\(key) twice")
            listed[key] = (try #require(row["straight_meters"] as? Double), row["street_meters"] as? Double)
        }
        // The river parts the banks; the loop makes D–E and B–E long; F reaches A by steps only.
        #expect(Set(listed.keys) == ["A-B not_connected", "A-D not_connected", "A-E not_connected", "B-F not_connected", "D-F not_connected",
                                     "D-E longer", "B-E longer", "A-F steps_only"], "\(listed)")
        let c = { (lat: Double, lon: Double) in Coordinate(latitude: lat, longitude: lon) }
        let piece = 0.00005 * StreetNetwork.metersPerDegreeLatitude
        // D to E by hand: to S, east to the loop, down, back west, to E.
        let loop = piece + c(41.0, -86.9965).meters(to: c(41.0, -86.99)) + c(41.0, -86.99).meters(to: c(40.9995, -86.99))
            + c(40.9995, -86.99).meters(to: c(40.9995, -86.9965)) + piece
        #expect(listed["D-E longer"].map { abs(($0.street ?? 0) - loop) <= 0.06 && abs($0.straight - c(41.00005, -86.9965).meters(to: c(40.99945, -86.9965))) <= 0.06 } == true,
                "\(String(describing: listed["D-E longer"])), by hand \(loop)")
        // A to F on foot: to N, west, up the steps, east along N2, to F.
        let stepsWay = piece + c(41.0005, -86.9985).meters(to: c(41.0005, -87.0)) + c(41.0005, -87.0).meters(to: c(41.0015, -87.0))
            + c(41.0015, -87.0).meters(to: c(41.0015, -86.9995)) + piece
        #expect(listed["A-F steps_only"].map { abs(($0.street ?? 0) - stepsWay) <= 0.06 } == true, "\(String(describing: listed["A-F steps_only"])), by hand \(stepsWay)")
        #expect(listed.filter { $0.key.hasSuffix("not_connected") }.allSatisfy { $0.value.street == nil && $0.value.straight <= 300 })
        // The pairs of one stop.
        let ofD = try await Run.transit(["--format", "tsv", "gtfs", "walks", "--feed", "banks", "--dropped", "--stop", "D"], env: env)
        let rows: [[String]] = ofD.stdoutLines.map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        let pairs = Set(rows.map { (row: [String]) -> String in row.count == 7 ? [row[0], row[2]].sorted().joined(separator: "-") + " " + row[6] : row.joined() })
        #expect(pairs == ["A-D not_connected", "D-F not_connected", "D-E longer"], "\(ofD.stdout)")
        // The steps-only walk is kept on foot, not for a wheelchair.
        let walks = try await Run.transit(["--format", "tsv", "gtfs", "walks", "--feed", "banks", "--stop", "F"], env: env)
        #expect(walks.stdoutLines.contains { $0.hasPrefix("F\tUpper North\tA\tNorth\t") }, "\(walks.stdout)")
    }

    /// Without a map nothing is dropped, and the notice says why the list is empty.
    @Test func aFeedWithoutAMapDropsNone() async throws {
        let cache = Paths.temporary(), env = Run.environment(["TRANSIT_CACHE_DIR": cache])
        #expect(try await Run.transit(["gtfs", "import", Self.feed(), "--name", "plain"], env: env).status == 0)
        let run = try await Run.transit(["gtfs", "walks", "--feed", "plain", "--dropped"], env: env)
        #expect(run.status == 0 && run.stdout.isEmpty && run.stderr.contains("No walk dropped: the feed was imported without --streets"), "\(run.stdout) \(run.stderr)")
    }
}
