import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

/// The walking network read from a map: on a map written here, where every distance is known
/// by construction, and on Beatty's extract against an independent reference in Python
/// (scripts/osm-walk-reference.py: pyosmium, a dict graph, heapq).
@Suite struct StreetNetworkTests {
    typealias P = Protowire
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

    /// The search on a handful of nodes (an island by rule 2: the grid here is built without the
    /// island rule, which `theIslandRule…` and the maps' tests check).
    @Test func aRiverIsCrossedAtItsBridge() throws {
        let network = try Self.network(Self.riverMap())
        // Six nodes; north street 2 segments, south 2, the bridge 1; the motorway, the foot=no
        // path and the cut way (two one-node pieces) add none.
        #expect(network.nodeCount == 6 && network.segmentCount == 5 && network.ways == 4 && network.pieces == 3, "\(network.nodeCount) \(network.segmentCount) \(network.ways) \(network.pieces)")
        let grid = try #require(network.grid(islandNodes: 0))
        func c(_ lat: Double, _ lon: Double) -> Coordinate { Coordinate(latitude: lat, longitude: lon) }
        func gc(_ a: Coordinate, _ b: Coordinate) -> Double { a.meters(to: b, radius: Coordinate.meanEarthRadiusMeters) }
        // A: 11 m north of the north street's west end; B: 11 m north of the south street's.
        let a = try #require(network.nearestJoin(c(41.0011, -87.0), within: 100, grid: grid))
        let b = try #require(network.nearestJoin(c(41.0001, -87.0), within: 100, grid: grid))
        let north = gc(c(41.001, -87.0), c(41.001, -86.995)) + gc(c(41.001, -86.995), c(41.001, -86.99))
        let south = gc(c(41.0, -87.0), c(41.0, -86.995)) + gc(c(41.0, -86.995), c(41.0, -86.99))
        let bridge = gc(c(41.001, -86.99), c(41.0, -86.99))
        let expected = a.distance + north + bridge + south + b.distance
        let search = StreetSearch(network)
        search.run(from: [a], limit: 5_000)
        let walked = try #require(search.meters(to: [b]))
        // 0.0001° of latitude on rule 2's plane: 11.06 m (110,574 m a degree).
        #expect(abs(a.distance - 11.057) < 0.01 && abs(walked - expected) < 1e-6 && walked > 1_800, "\(walked) vs \(expected)")
        // Within a limit below the walk: no answer (never the straight line).
        search.run(from: [a], limit: 1_000)
        #expect(search.meters(to: [b]) == nil)
        // Two points on one segment: along it.
        let p = try #require(network.nearestJoin(c(41.0012, -86.999), within: 100, grid: grid))
        let q = try #require(network.nearestJoin(c(41.0008, -86.998), within: 100, grid: grid))
        search.run(from: [p], limit: 5_000)
        let along = try #require(search.meters(to: [q]))
        // Its line: the two joins, nothing between.
        #expect(search.path(to: [q])?.count == 2)
        // Across the bridge (the search runs from a again): a's join (at node 1), then 2, 3, the
        // bridge to 6, 5, 4, and b's join (at node 4).
        search.run(from: [a], limit: 5_000)
        let line = try #require(search.path(to: [b]))
        let nodes = [(41.001, -87.0), (41.001, -86.995), (41.001, -86.99), (41.0, -86.99), (41.0, -86.995), (41.0, -87.0), (41.0, -87.0)]
            .map { c($0.0, $0.1) }
        #expect(line.count == 7 && zip(line, nodes).allSatisfy { gc($0, $1) < 0.01 }, "\(line)")
        #expect(abs(along - (p.distance + gc(c(41.001, -86.999), c(41.001, -86.998)) + q.distance)) < 0.2, "\(along)")
        // Nothing within 100 m of a point in the river's middle far west? The streets are 55 m away.
        #expect(network.nearestJoin(c(41.0005, -87.001), within: 50, grid: grid) == nil)
    }

    /// The street search against a brute force that is slow and obviously right (Bellman–Ford:
    /// relax every segment until nothing changes), on random networks: one search object run
    /// again and again from random points with random limits, so that what one run leaves in its
    /// buffers is seen to be reset. Exact to the last bit is not asked (sums in another order).
    /// A search stopped once its targets' walks are known gives the whole search's, to the bit.
    @Test func theStreetSearchIsBellmanFord() throws {
        var random = SplitMix(seed: 3131)
        var compared = 0, unreached = 0
        for _ in 0..<150 {
            let n = 3 + Int(random.next() % 40)
            let ids = (1...n).map(Int64.init)
            // Within about 600 m of 41° N 87° W, in 1e-7 degrees.
            let lats = ids.map { _ in Int32(410_000_000 + Int(random.next() % 54_000)) }
            let lons = ids.map { _ in Int32(-870_000_000 + Int(random.next() % 72_000)) }
            var refs: [Int64] = [], ends: [Int] = []
            for _ in 0..<(1 + Int(random.next() % UInt64(n))) {
                refs += (0..<(2 + Int(random.next() % 4))).map { _ in Int64(1 + random.next() % UInt64(n)) }
                ends.append(refs.count)
            }
            let network = StreetNetwork.build(ids: ids, lats: lats, lons: lons, refs: refs, wayEnds: ends)
            guard network.nodeCount > 1 else { continue }
            let grid = try #require(network.grid(islandNodes: 0)), search = StreetSearch(network)
            func point() -> Coordinate {
                Coordinate(latitude: 41.0 + Double(random.next() % 6_000) / 1_000_000, longitude: -87.0 + Double(random.next() % 8_000) / 1_000_000)
            }
            for _ in 0..<6 {
                guard let a = network.joins(point(), within: 300, grid: grid).first, let b = network.joins(point(), within: 300, grid: grid).first else { continue }
                let limit = Double(50 + random.next() % 1_500)
                search.run(from: [a], limit: limit)
                // The brute force: every node's distance from a's join, then b's ends and the
                // walk along a shared segment; beyond the limit, none.
                var d = [Double](repeating: .infinity, count: network.nodeCount)
                d[a.from] = min(d[a.from], a.distance + a.offset)
                d[a.to] = min(d[a.to], a.distance + a.meters - a.offset)
                var changed = true
                while changed {
                    changed = false
                    for x in 0..<network.nodeCount {
                        for slot in Int(network.start[x])..<Int(network.start[x + 1]) where d[x] + network.meters[slot] < d[Int(network.targets[slot])] {
                            d[Int(network.targets[slot])] = d[x] + network.meters[slot]
                            changed = true
                        }
                    }
                }
                // A node counts when its distance is within the limit; the piece from it to b's
                // join is added after (the caller compares the sum with what it allows).
                func via(_ node: Int, _ piece: Double) -> Double { d[node] <= limit ? d[node] + piece : .infinity }
                var want = min(via(b.from, b.offset + b.distance), via(b.to, b.meters - b.offset + b.distance))
                if a.from == b.from && a.to == b.to { want = min(want, a.distance + abs(a.offset - b.offset) + b.distance) }
                if a.from == b.to && a.to == b.from { want = min(want, a.distance + abs(a.offset - (b.meters - b.offset)) + b.distance) }
                let got = search.meters(to: [b])
                // Stopped as soon as b's walk and another place's are known: the same walk.
                let other = network.joins(Coordinate(latitude: 41.003, longitude: -87.004), within: 300, grid: grid)
                search.run(from: [a], limit: limit, until: [[b], other].filter { !$0.isEmpty })
                #expect(search.meters(to: [b]) == got, "stopped early: \(String(describing: search.meters(to: [b]))) vs \(String(describing: got))")
                if want.isFinite {
                    #expect(got.map { abs($0 - want) < 1e-6 } == true, "\(String(describing: got)) vs \(want)")
                    #expect(search.path(to: [b]) != nil)
                    compared += 1
                } else {
                    #expect(got == nil && search.path(to: [b]) == nil, "\(String(describing: got)), none within \(limit)")
                    unreached += 1
                }
            }
        }
        #expect(compared > 300 && unreached > 20, "\(compared) compared, \(unreached) beyond")
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

    /// Beatty's walks between the sample feed's town stops and points around them, by rule 2 (every
    /// join, islands, areas): the same as the Python reference's, to the centimetre.
    @Test(.enabled(if: Reference.isPresent && hasPyosmium, "needs ../shared/reference and Python's osmium (scripts/setup installs it)"))
    func beattysWalksAreTheReferencesWalks() async throws {
        let map = Reference.path("osm/beatty/beatty.osm.pbf")
        let network = try StreetNetwork.read(map)
        let walker = StreetWalker(network, try #require(network.grid()))
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
            let walk = walker.walk(from: Coordinate(latitude: points[i].0, longitude: points[i].1), to: Coordinate(latitude: points[j].0, longitude: points[j].1),
                                   limit: 50_000)
            let ours: Double? = if case .streets(let meters) = walk { meters } else { nil }
            if expected[k] == "none" || expected[k] == "unreachable" {
                #expect(ours == nil, "\(points[i]) → \(points[j]): \(String(describing: ours)), the reference \(expected[k])")
            } else {
                let theirs = try #require(Double(expected[k]))
                #expect(ours.map { abs($0 - theirs) < 0.01 } == true, "\(points[i]) → \(points[j]): \(String(describing: ours)) vs \(theirs)")
                compared += 1
            }
        }
        #expect(compared >= pairs.count / 2, "\(compared) of \(pairs.count) pairs had a walk")
    }

    /// The Google sample feed imported on Beatty's map: every walk of journeys between points in
    /// the town and the feed's stops (first and last walks, and changes within `--walk 2000`,
    /// measured at query time) is the reference's street distance by rule 2, or the straight
    /// line where an end is more than 100 m from any street (the reference's `none`).
    @Test(.enabled(if: Reference.isPresent && hasPyosmium, "needs ../shared/reference and Python's osmium (scripts/setup installs it)"))
    func beattysJourneysWalkOnTheStreets() async throws {
        let map = Reference.path("osm/beatty/beatty.osm.pbf"), feed = Reference.path("gtfs-multi/feeds/gh-sample-feed")
        let env = Run.environment(["TRANSIT_CACHE_DIR": Paths.temporary()])
        let imported = try await Run.transit(["gtfs", "import", feed, "--name", "sample", "--streets", map], env: env)
        #expect(imported.status == 0 && imported.stderr.contains("4 of 11 stops are more than 100 m"), "\(imported.stderr)")
        var places: [String: Coordinate] = [:]
        for line in try String(contentsOfFile: feed + "/stops.txt", encoding: .utf8).split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            if fields.count > 4, let lat = Double(fields[3]), let lon = Double(fields[4]) { places[String(fields[0])] = Coordinate(latitude: lat, longitude: lon) }
        }
        let town = ["36.9125,-116.7650", "36.9080,-116.7600", "36.9150,-116.7560", "36.9060,-116.7700"]
        var walks: [(from: Coordinate, to: Coordinate, meters: Int)] = []
        let away = ["BULLFROG", "36.8700,-116.7830", "BEATTY_AIRPORT"]
        for (from, to) in town.flatMap({ point in away.flatMap { [(point, $0), ($0, point)] } }) {
            do {
                let run = try await Run.transit(["gtfs", "trips", "--feed", "sample", "--from", from, "--to", to, "--date", "2008-06-04",
                                                 "--after", "06:00", "--before", "09:00", "--walk", "2000", "--format", "json"], env: env)
                #expect(run.status == 0, "\(from) → \(to): \(run.stderr)")
                for journey in try run.records() {
                    for leg in journey["legs"] as? [[String: Any]] ?? [] where leg["mode"] as? String == "walk" {
                        func at(_ end: String) -> Coordinate? { places[end] ?? Coordinate(parsing: end) }
                        let a = try #require(at(leg["from"] as? String ?? "")), b = try #require(at(leg["to"] as? String ?? ""))
                        walks.append((a, b, try #require(leg["walk_meters"] as? Int)))
                    }
                }
            }
        }
        let input = walks.map { "\($0.from.latitude),\($0.from.longitude) \($0.to.latitude),\($0.to.longitude)" }.joined(separator: "\n") + "\n"
        let inputPath = Paths.temporary() + "/walks.txt"
        try input.write(toFile: inputPath, atomically: true, encoding: .utf8)
        let reference = try await Run.transitLike(["/bin/sh", "-c", "python3 '\(Paths.root.path)/scripts/osm-walk-reference.py' '\(map)' 100 < '\(inputPath)'"],
                                                  env: ProcessInfo.processInfo.environment)
        let expected = reference.stdoutLines
        try #require(expected.count == walks.count, "\(reference.stderr)")
        var longerThanStraight = 0
        for (walk, theirs) in zip(walks, expected) {
            let straight = walk.from.meters(to: walk.to)
            let street = Double(theirs)
            let want = street ?? straight
            #expect(abs(Double(walk.meters) - want) <= 0.5 + 1e-6, "\(walk.from) → \(walk.to): \(walk.meters) m, the reference \(theirs), straight \(straight)")
            if let street, street > straight * 1.1 { longerThanStraight += 1 }
        }
        #expect(walks.count >= 40 && longerThanStraight >= 10, "\(walks.count) walks, \(longerThanStraight) longer than the straight line by a tenth")
    }
}

extension StreetNetwork {
    /// The nearest of a point's joins (the tests of the search on one join at a time).
    func nearestJoin(_ point: Coordinate, within radius: Double, grid: SegmentGrid) -> Join? {
        joins(point, within: radius, grid: grid).min { ($0.distance, $0.from, $0.to) < ($1.distance, $1.from, $1.to) }
    }
}
