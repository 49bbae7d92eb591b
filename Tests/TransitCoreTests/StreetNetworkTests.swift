import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

/// The walking network read from a map: on a map written here, where every distance is known
/// by construction, and on Beatty's extract against an independent reference in Python
/// (scripts/osm-walk-reference.py: pyosmium, a dict graph, heapq).
@Suite struct StreetNetworkTests {
    typealias P = ExtremeValueTests
    typealias B = PBFReaderTests

    /// A river between two streets (41.0010° and 41.0000° north), crossed by a footbridge at the
    /// east end only; a motorway and a `foot=no` path cross it further west, and do not count.
    static func riverMap() -> Data {
        let strings = ["", "highway", "residential", "footway", "motorway", "foot", "no"].flatMap { P.field(1, $0) }
        let places: [(Int64, Int64, Int64)] = [(1, 410_010_000, -870_000_000), (2, 410_010_000, -869_950_000), (3, 410_010_000, -869_900_000),
                                               (4, 410_000_000, -870_000_000), (5, 410_000_000, -869_950_000), (6, 410_000_000, -869_900_000)]
        // Granularity 100 (the default): values in 1e-7 degrees.
        let nodes = places.flatMap { id, lat, lon in P.field(1, P.field(1, B.zigzag(id)) + P.field(8, B.zigzag(lat)) + P.field(9, B.zigzag(lon))) }
        func way(_ id: UInt64, _ refs: [Int64], _ tags: [(UInt64, UInt64)]) -> [UInt8] {
            var previous: Int64 = 0
            let deltas = refs.map { ref -> UInt64 in defer { previous = ref }; return B.zigzag(ref - previous) }
            return P.field(3, P.field(1, id) + P.field(2, B.packed(tags.map(\.0))) + P.field(3, B.packed(tags.map(\.1))) + P.field(8, B.packed(deltas)))
        }
        let ways = way(10, [1, 2, 3], [(1, 2)]) + way(11, [4, 5, 6], [(1, 2)]) + way(12, [3, 6], [(1, 3)])
            + way(13, [1, 4], [(1, 4)]) + way(14, [2, 5], [(1, 3), (5, 6)])
            // A way whose middle node the file lacks (99): two pieces, nothing across the gap.
            + way(15, [4, 99, 1], [(1, 3)])
        let block = P.field(1, strings) + P.field(2, nodes + ways)
        return B.file([("OSMHeader", B.raw(B.header())), ("OSMData", B.raw(block))])
    }

    static func network(_ data: Data) throws -> StreetNetwork {
        let path = Paths.temporary() + ".osm.pbf"
        try data.write(to: URL(fileURLWithPath: path))
        return try StreetNetwork.read(path)
    }

    @Test func aRiverIsCrossedAtItsBridge() throws {
        let network = try Self.network(Self.riverMap())
        // Six nodes; north street 2 segments, south 2, the bridge 1; the motorway, the foot=no
        // path and the cut way (two one-node pieces) add none.
        #expect(network.nodeCount == 6 && network.segmentCount == 5 && network.ways == 4 && network.pieces == 3, "\(network.nodeCount) \(network.segmentCount) \(network.ways) \(network.pieces)")
        let grid = network.grid()
        func c(_ lat: Double, _ lon: Double) -> Coordinate { Coordinate(latitude: lat, longitude: lon) }
        func gc(_ a: Coordinate, _ b: Coordinate) -> Double { a.meters(to: b, radius: Coordinate.meanEarthRadiusMeters) }
        // A: 11 m north of the north street's west end; B: 11 m north of the south street's.
        let a = try #require(network.join(c(41.0011, -87.0), within: 100, grid: grid))
        let b = try #require(network.join(c(41.0001, -87.0), within: 100, grid: grid))
        let north = gc(c(41.001, -87.0), c(41.001, -86.995)) + gc(c(41.001, -86.995), c(41.001, -86.99))
        let south = gc(c(41.0, -87.0), c(41.0, -86.995)) + gc(c(41.0, -86.995), c(41.0, -86.99))
        let bridge = gc(c(41.001, -86.99), c(41.0, -86.99))
        let expected = a.distance + north + bridge + south + b.distance
        let walked = try #require(network.meters(from: a, network.distances(from: a, limit: 5_000), to: b))
        #expect(abs(a.distance - 11.12) < 0.05 && abs(walked - expected) < 1e-6 && walked > 1_800, "\(walked) vs \(expected)")
        // Within a limit below the walk: no answer (never the straight line).
        #expect(network.meters(from: a, network.distances(from: a, limit: 1_000), to: b) == nil)
        // Two points on one segment: along it.
        let p = try #require(network.join(c(41.0012, -86.999), within: 100, grid: grid))
        let q = try #require(network.join(c(41.0008, -86.998), within: 100, grid: grid))
        let along = try #require(network.meters(from: p, network.distances(from: p, limit: 5_000), to: q))
        #expect(abs(along - (p.distance + gc(c(41.001, -86.999), c(41.001, -86.998)) + q.distance)) < 0.2, "\(along)")
        // Nothing within 100 m of a point in the river's middle far west? The streets are 55 m away.
        #expect(network.join(c(41.0005, -87.001), within: 50, grid: grid) == nil)
    }

    static let hasPyosmium: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import osmium"]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    /// Beatty's walks between the sample feed's town stops and points around them: the same as
    /// the Python reference's, to the centimetre.
    @Test(.enabled(if: Reference.isPresent && hasPyosmium, "needs ../shared/reference and Python's osmium (scripts/setup installs it)"))
    func beattysWalksAreTheReferencesWalks() async throws {
        let map = Reference.path("osm/beatty/beatty.osm.pbf")
        let network = try StreetNetwork.read(map)
        let grid = network.grid()
        var points = [(36.914893, -116.76821), (36.914944, -116.761472), (36.909489, -116.768242), (36.905697, -116.76218), (36.915682, -116.751677)]
        var random = SplitMix(seed: 31)
        for _ in 0..<10 { points.append((36.902 + Double(random.next() % 1500) / 100_000, -116.772 + Double(random.next() % 2000) / 100_000)) }
        var pairs: [(Int, Int)] = []
        for i in points.indices { for j in points.indices where i != j && (i + j) % 3 == 0 { pairs.append((i, j)) } }
        let input = pairs.map { "\(points[$0.0].0),\(points[$0.0].1) \(points[$0.1].0),\(points[$0.1].1)" }.joined(separator: "\n") + "\n"
        let inputPath = Paths.temporary() + "/pairs.txt"
        try input.write(toFile: inputPath, atomically: true, encoding: .utf8)
        let run = try await Run.transitLike(["/bin/sh", "-c", "python3 '\(Paths.root.path)/scripts/osm-walk-reference.py' '\(map)' 100 < '\(inputPath)'"], env: ProcessInfo.processInfo.environment)
        let expected = run.stdoutLines
        #expect(expected.count == pairs.count, "\(run.stderr)")
        var compared = 0
        for (k, (i, j)) in pairs.enumerated() where k < expected.count {
            let a = network.join(Coordinate(latitude: points[i].0, longitude: points[i].1), within: 100, grid: grid)
            let b = network.join(Coordinate(latitude: points[j].0, longitude: points[j].1), within: 100, grid: grid)
            let ours = a.flatMap { a in b.flatMap { b in network.meters(from: a, network.distances(from: a, limit: 50_000), to: b) } }
            if expected[k] == "none" {
                #expect(ours == nil, "\(points[i]) → \(points[j]): \(String(describing: ours)), the reference none")
            } else {
                let theirs = try #require(Double(expected[k]))
                #expect(ours.map { abs($0 - theirs) < 0.01 } == true, "\(points[i]) → \(points[j]): \(String(describing: ours)) vs \(theirs)")
                compared += 1
            }
        }
        #expect(compared >= pairs.count / 2, "\(compared) of \(pairs.count) pairs had a walk")
    }
}
