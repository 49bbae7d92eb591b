import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

/// Changes on foot measured on a map's streets (`gtfs import --streets`), through the binary: a
/// river between two platforms 67 m apart makes that change a walk of 400 m (none within the
/// default 300), and the platform by the bridge, 180 m away in a straight line, 234 m on foot
/// (rule 2: the pieces from a place to its street measured on the README's plane).
@Suite struct StreetWalkTests {
    typealias P = Protowire
    typealias B = PBFReaderTests

    func env(_ cache: String) -> [String: String] { Run.environment(["TRANSIT_CACHE_DIR": cache]) }

    /// A map of plain nodes (1e-7 degrees) and ways (all `highway=residential` unless said).
    /// `tails`: from the first node of each connected piece's first way, a street of 40 nodes
    /// running 320 m west, so that each piece holds 40 nodes or more (rule 2's islands hold fewer)
    /// while the ways drawn stay single segments (a place joins every segment within its nearest
    /// plus 25 m: a street drawn in many short segments offers diagonal joins a long one does not).
    /// The maps here start each piece at its west end, so a tail leads away from the stops.
    /// `steps`: the ways (by index) tagged `highway=steps` (walked on foot, not step-free).
    static func map(_ given: [(Int64, Double, Double)], _ givenWays: [[Int64]], tails: Bool = true, steps: Set<Int> = []) -> Data {
        var nodes = given, ways = givenWays
        if tails {
            let place = Dictionary(given.map { ($0.0, ($0.1, $0.2)) }, uniquingKeysWith: { a, _ in a })
            // Pieces by a union of the ways' nodes.
            var root: [Int64: Int64] = [:]
            func find(_ x: Int64) -> Int64 {
                var x = x
                while let up = root[x], up != x { x = up }
                return x
            }
            for refs in givenWays {
                for ref in refs where root[ref] == nil { root[ref] = ref }
                for (u, v) in zip(refs, refs.dropFirst()) { root[find(u)] = find(v) }
            }
            var tailed = Set<Int64>(), next: Int64 = 1_000_000
            for refs in givenWays {
                guard let first = refs.first, let (lat, lon) = place[first], tailed.insert(find(first)).inserted else { continue }
                var tail = [first]
                for k in 1...40 {
                    nodes.append((next, lat, lon - 0.0001 * Double(k)))
                    tail.append(next)
                    next += 1
                }
                ways.append(tail)
            }
        }
        let strings = ["", "highway", "residential", "steps"].flatMap { P.field(1, $0) }
        let nodeFields = nodes.flatMap { id, lat, lon in
            P.field(1, P.field(1, B.zigzag(id)) + P.field(8, B.zigzag(Int64((lat * 1e7).rounded()))) + P.field(9, B.zigzag(Int64((lon * 1e7).rounded()))))
        }
        let wayFields = ways.enumerated().flatMap { k, refs -> [UInt8] in
            var previous: Int64 = 0
            let deltas = refs.map { ref -> UInt64 in defer { previous = ref }; return B.zigzag(ref - previous) }
            return P.field(3, P.field(1, UInt64(100 + k)) + P.field(2, B.packed([1])) + P.field(3, B.packed([steps.contains(k) ? 3 : 2])) + P.field(8, B.packed(deltas)))
        }
        return B.file([("OSMHeader", B.raw(B.header())), ("OSMData", B.raw(P.field(1, strings) + P.field(2, nodeFields + wayFields)))])
    }

    /// North street at 41.0005°, south street at 41.0000°, from 87.0000° W to 86.9980° W; the
    /// bridge at the east end.
    static let river = map([(1, 41.0005, -87.0), (2, 41.0005, -86.998), (3, 41.0, -87.0), (4, 41.0, -86.998)], [[1, 2], [3, 4], [2, 4]])

    /// X → A (north bank) by R1; B (south bank, across from A) → Y by R2, 5 minutes sooner than C
    /// (south bank, by the bridge) → Y by R3.
    static func feed() -> String {
        TestFeed([
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nX,Xville,41.0100,-87.0000\nA,North Bank,41.00055,-87.0000\n"
                + "B,South Bank,40.99995,-87.0000\nC,Bridge South,40.99995,-86.9980\nY,Yton,40.9900,-87.0000\n",
            "routes.txt": "route_id,route_short_name,route_type\nR1,R1,3\nR2,R2,3\nR3,R3,3\n",
            "trips.txt": "route_id,service_id,trip_id\nR1,S,t1\nR2,S,t2\nR3,S,t3\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nt1,08:00:00,08:00:00,X,1\nt1,08:10:00,08:10:00,A,2\n"
                + "t2,08:15:00,08:15:00,B,1\nt2,08:30:00,08:30:00,Y,2\nt3,08:20:00,08:20:00,C,1\nt3,08:40:00,08:40:00,Y,2\n",
        ], zone: "America/Chicago").directory
    }

    /// The river map written to a file of its own, for `--streets`: inside a fresh directory, as
    /// a test sets its date back (`Paths`' sweep of old runs reads dates, and each test target's
    /// copy of `Paths` sweeps once, whenever its first directory is made).
    static func riverFile() throws -> String {
        let path = Paths.temporary() + "/river.osm.pbf"
        try river.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A fresh cache with the feed imported as `streets` on the river map.
    func importedOnTheRiver() async throws -> (cache: String, map: String) {
        let cache = Paths.temporary(), map = try Self.riverFile()
        let imported = try await Run.transit(["gtfs", "import", Self.feed(), "--name", "streets", "--streets", map], env: env(cache))
        #expect(imported.status == 0, "\(imported.stderr)")
        return (cache, map)
    }

    static func journey(_ cache: String, _ feed: String) async throws -> (arrival: String, walk: Int?, seconds: Int?) {
        let run = try await Run.transit(["gtfs", "trips", "--feed", feed, "--from", "Xville", "--to", "Yton", "--date", "2026-11-23",
                                         "--after", "07:59", "--format", "json"], env: Run.environment(["TRANSIT_CACHE_DIR": cache]))
        let first = try #require(try run.records().first, "\(run.stderr)")
        let legs = first["legs"] as? [[String: Any]] ?? []
        let walk = legs.first { $0["mode"] as? String == "walk" }
        return ((first["arrival"] as? String) ?? "", walk?["walk_meters"] as? Int, walk?["walk_seconds"] as? Int)
    }

    @Test func aRiverMakesTheChangeTheBridgesWay() async throws {
        let cache = Paths.temporary(), feed = Self.feed()
        let mapPath = try Self.riverFile()
        // Straight lines: across the river, 67 m.
        let plain = try await Run.transit(["gtfs", "import", feed, "--name", "plain"], env: env(cache))
        #expect(plain.status == 0, "\(plain.stderr)")
        let straight = try await Self.journey(cache, "plain")
        #expect(straight.arrival == "2026-11-23T08:30:00-06:00" && straight.walk == 67, "\(straight)")
        // On the streets: the bridge, 234 m (5.53 + 167.84 + 55.60 + 5.53 by hand: see the map; a
        // place's piece to its street is measured on rule 2's plane, 110,574 m a degree of latitude).
        let streets = try await Run.transit(["gtfs", "import", feed, "--name", "streets", "--streets", mapPath, "--format", "json"], env: env(cache))
        #expect(streets.status == 0 && streets.stderr.contains("2 of 5 stops are more than 100 m from a walkable street"), "\(streets.stderr)")
        let onStreets = try await Self.journey(cache, "streets")
        let c = { (lat: Double, lon: Double) in Coordinate(latitude: lat, longitude: lon) }
        let piece = 0.00005 * StreetNetwork.metersPerDegreeLatitude
        let byHand = piece + c(41.0005, -87.0).meters(to: c(41.0005, -86.998)) + c(41.0005, -86.998).meters(to: c(41.0, -86.998)) + piece
        #expect(onStreets.arrival == "2026-11-23T08:40:00-06:00" && onStreets.walk == Int(byHand.rounded()), "\(onStreets), by hand \(byHand)")
        #expect(onStreets.seconds == Int((byHand / 1.2).rounded(.up)), "\(onStreets)")
        let feeds = try await Run.transit(["gtfs", "feeds", "--format", "json"], env: env(cache))
        #expect(try feeds.records().first { $0["name"] as? String == "streets" }?["streets"] as? String == mapPath)
        // `--walk 0`: no change on foot at all.
        let none = try await Run.transit(["gtfs", "trips", "--feed", "streets", "--from", "Xville", "--to", "Yton", "--date", "2026-11-23",
                                          "--after", "07:59", "--walk", "0"], env: env(cache))
        #expect(none.status == 0 && none.stdout.isEmpty, "\(none.stdout)")
        // A map of somewhere else: refused, one line, the feed imported before unchanged.
        let elsewhere = Paths.temporary() + ".osm.pbf"
        try Self.map([(1, 10.0, 10.0), (2, 10.001, 10.0)], [[1, 2]]).write(to: URL(fileURLWithPath: elsewhere))
        let refused = try await Run.transit(["gtfs", "import", feed, "--name", "streets", "--streets", elsewhere], env: env(cache))
        #expect(refused.status == 2 && refused.stderrLines.count == 1 && refused.stderr.contains("does the map cover the feed?"), "\(refused.stderr)")
        #expect(try await Self.journey(cache, "streets").walk == onStreets.walk)
        // The map changes (a footbridge straight across): `update` measures again, source unchanged.
        try Self.map([(1, 41.0005, -87.0), (2, 41.0005, -86.998), (3, 41.0, -87.0), (4, 41.0, -86.998)], [[1, 2], [3, 4], [2, 4], [1, 3]])
            .write(to: URL(fileURLWithPath: mapPath))
        let update = try await Run.transit(["gtfs", "update", "streets", "--format", "tsv"], env: env(cache))
        #expect(update.stdoutLines.first?.hasPrefix("streets\tupdated") == true, "\(update.stdout) \(update.stderr)")
        let bridged = try await Self.journey(cache, "streets")
        #expect(bridged.arrival == "2026-11-23T08:30:00-06:00" && (bridged.walk ?? 0) > 60 && (bridged.walk ?? 0) < 70, "\(bridged)")
    }

    /// Issue 65: a journey on foot between the banks, on the map the bridge's way (east along the
    /// north street, across, back west: 402 m, within twice `--walk`'s 300 m), drawn along the
    /// streets; without the map, 67 m straight across.
    @Test func theJourneyOnFootFollowsTheStreets() async throws {
        let (cache, _) = try await importedOnTheRiver()
        let plain = try await Run.transit(["gtfs", "import", Self.feed(), "--name", "plain"], env: env(cache))
        #expect(plain.status == 0, "\(plain.stderr)")
        var walked: [Int] = []
        for feed in ["streets", "plain"] {
            let run = try await Run.transit(["gtfs", "trips", "--feed", feed, "--from", "North Bank", "--to", "South Bank", "--date", "2026-11-23",
                                             "--after", "07:59", "--transfers", "2", "--format", "json"], env: env(cache))
            let first = try #require(try run.records().first, "\(feed): \(run.stdout) \(run.stderr)")
            let legs = first["legs"] as? [[String: Any]] ?? []
            #expect(first["any_time"] as? Bool == true && legs.count == 1, "\(feed): \(first)")
            walked.append(legs.first?["walk_meters"] as? Int ?? 0)
        }
        let c = { (lat: Double, lon: Double) in Coordinate(latitude: lat, longitude: lon) }
        let piece = 0.00005 * StreetNetwork.metersPerDegreeLatitude, street = c(41.0005, -87.0).meters(to: c(41.0005, -86.998))
        let byHand = piece + street + c(41.0005, -86.998).meters(to: c(41.0, -86.998)) + street + 0.00005 * StreetNetwork.metersPerDegreeLatitude
        #expect(walked == [Int(byHand.rounded()), 67], "\(walked), by hand \(byHand)")
        let drawn = try await Run.transit(["gtfs", "trips", "--feed", "streets", "--from", "North Bank", "--to", "South Bank", "--date", "2026-11-23",
                                           "--after", "07:59", "--transfers", "2", "--format", "geojson"], env: env(cache))
        let collection = try #require(try JSONSerialization.jsonObject(with: Data(drawn.stdout.utf8)) as? [String: Any], "\(drawn.stderr)")
        let geometry = (collection["features"] as? [[String: Any]])?.first?["geometry"] as? [String: Any]
        let lines = try #require(geometry?["coordinates"] as? [[[Double]]], "\(drawn.stdout)")
        // Along the north street to the bridge and back along the south one: more than the two ends.
        #expect(lines.count == 1 && (lines.first?.count ?? 0) >= 4, "\(lines)")
    }

    /// The `.network` files of a cache.
    static func networks(_ cache: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cache + "/gtfs/.streets")) ?? []).filter { $0.hasSuffix(".network") }
    }

    /// Issue 41, items 6 and 11: a map replaced by another of the same size and modification
    /// time (the bridge moved from the east end to the west: the same bytes but two) is another
    /// map: `update` measures again and queries walk on the new one. A network no feed names is
    /// removed: the one measured before, a refused map's, a removed feed's.
    @Test func aMapIsKnownByItsBytesAndItsNetworkGoesWithIt() async throws {
        // A time of whole seconds, which setting it back keeps exactly.
        let time = Date(timeIntervalSince1970: 1_795_000_000)
        let cache = Paths.temporary(), mapPath = try Self.riverFile()
        try FileManager.default.setAttributes([.modificationDate: time], ofItemAtPath: mapPath)
        let imported = try await Run.transit(["gtfs", "import", Self.feed(), "--name", "streets", "--streets", mapPath], env: env(cache))
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try await Self.journey(cache, "streets").walk == 234)
        let before = try FileManager.default.attributesOfItem(atPath: mapPath)
        let west = Self.map([(1, 41.0005, -87.0), (2, 41.0005, -86.998), (3, 41.0, -87.0), (4, 41.0, -86.998)], [[1, 2], [3, 4], [1, 3]])
        #expect(west.count == Self.river.count && west != Self.river)
        try west.write(to: URL(fileURLWithPath: mapPath))
        try FileManager.default.setAttributes([.modificationDate: time], ofItemAtPath: mapPath)
        let after = try FileManager.default.attributesOfItem(atPath: mapPath)
        #expect(after[.size] as? Int == before[.size] as? Int && after[.modificationDate] as? Date == before[.modificationDate] as? Date)
        let update = try await Run.transit(["gtfs", "update", "streets", "--format", "tsv"], env: env(cache))
        #expect(update.stdoutLines.first?.hasPrefix("streets\tupdated") == true, "\(update.stdout) \(update.stderr)")
        let across = try await Self.journey(cache, "streets")
        #expect(across.arrival == "2026-11-23T08:30:00-06:00" && (across.walk ?? 0) < 70, "\(across)")
        #expect(Self.networks(cache).count == 1, "\(Self.networks(cache))")
        // A map refused at import leaves no network behind.
        let elsewhere = Paths.temporary() + ".osm.pbf"
        try Self.map([(1, 10.0, 10.0), (2, 10.001, 10.0)], [[1, 2]]).write(to: URL(fileURLWithPath: elsewhere))
        let refused = try await Run.transit(["gtfs", "import", Self.feed(), "--name", "other", "--streets", elsewhere], env: env(cache))
        #expect(refused.status == 2 && Self.networks(cache).count == 1, "\(refused.stderr) \(Self.networks(cache))")
        let removed = try await Run.transit(["gtfs", "remove", "streets"], env: env(cache))
        #expect(removed.status == 0 && Self.networks(cache).isEmpty, "\(removed.stderr) \(Self.networks(cache))")
    }

    /// Issue 41, item 1: one way running 100,000 times between two nodes 7 km apart (the audit's
    /// 377-byte map, here raw) made 100,000 segments each filed under 65 × 65 cells: 4.3 GB asked
    /// for, exit 134. One segment once, filed under the cells it crosses: imported under a 1 GB
    /// address space, its network file small, a query from a point answers.
    @Test func aWayRunningBackAndForthIsOneSegment() async throws {
        let refs = (0..<100_000).map { Int64(1 + $0 % 2) }
        let bomb = Self.map([(1, 41.0005, -87.0), (2, 41.0635, -87.0)], [refs] + [[3, 4], [3, 5]], tails: false)
        let network = try bomb.withUnsafeBytes { bytes throws(TransitError) in try StreetNetwork.read(bytes, what: "map") }
        #expect(network.segmentCount == 1, "\(network.segmentCount)")
        let grid = try #require(network.grid(islandNodes: 0))
        // 7 km north: the cells of one column of longitude, about 63 of them (plus an edge's).
        #expect((60...70).contains(grid.keys.count) && grid.entries.count == 2 * grid.keys.count, "\(grid.keys.count)")
        // Imported beside a street of 45 nodes along the stops (the way alone is an island by rule 2).
        let street: [(Int64, Double, Double)] = (0..<45).map { (k: Int) -> (Int64, Double, Double) in (Int64(10 + k), 41.0, -87.001 + Double(k) * 0.0001) }
        let map = Self.map([(1, 41.0005, -87.0), (2, 41.0635, -87.0)] + street, [refs] + [[3, 4], [3, 5], street.map(\.0)], tails: false)
        let path = Paths.temporary() + ".osm.pbf"
        try map.write(to: URL(fileURLWithPath: path))
        let cache = Paths.temporary()
        // Before: 16 s of processor time for 30,000 repeats, an abort for 100,000.
        let run = try await Run.transit(["gtfs", "import", Self.feed(), "--name", "f", "--streets", path], env: env(cache), addressSpace: 1 << 30, cpuSeconds: 10)
        #expect(run.status == 0, "\(run.status) \(run.stderr)")
        let files = Self.networks(cache).map { cache + "/gtfs/.streets/" + $0 }
        let size = try files.map { try FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int ?? 0 }.reduce(0, +)
        #expect(files.count == 1 && size < 100_000, "\(files) \(size)")
        let trip = try await Run.transit(["gtfs", "trips", "--feed", "f", "--from", "41.01,-87.0", "--to", "Yton", "--date", "2026-11-23",
                                          "--after", "07:59", "--limit", "1"], env: env(cache), addressSpace: 1 << 30)
        #expect(trip.status == 0 && !trip.stdout.isEmpty, "\(trip.status) \(trip.stderr)")
    }

    /// A map of 20,000 distinct segments each 13 km long would file 4.8 million grid entries for
    /// its 0.5 MB: past the cap (4 a byte and a million), refused in one line, nothing kept.
    @Test func aMapWhoseGridOutgrowsItIsRefused() async throws {
        let nodes: [(Int64, Double, Double)] = (0..<20_000).map { (k: Int) -> (Int64, Double, Double) in
            (Int64(k + 1), 41.0 + Double(k % 2) * 0.12, -87.0 + Double(k) * 1e-6)
        }
        let map = Self.map(nodes, [nodes.map { $0.0 }])
        let path = Paths.temporary() + ".osm.pbf"
        try map.write(to: URL(fileURLWithPath: path))
        let cache = Paths.temporary()
        let run = try await Run.transit(["gtfs", "import", Self.feed(), "--name", "f", "--streets", path], env: env(cache), addressSpace: 1 << 30)
        #expect(run.status == 2 && run.stderrLines.count == 1 && run.stderr.contains("is it a map of streets?"), "\(map.count): \(run.status) \(run.stderr)")
        #expect(Self.networks(cache).isEmpty)
    }

    /// Issue 41, item 2: 16,000 stops at one place (the audit's 42 KB zip) made every pair a
    /// stored walk, 256 million of them: the import aborted under 2 GB. Each keeps its nearest
    /// (ties by index): 20, as a stop of a crowded neighbourhood (issue 62); the import says so,
    /// and the feed answers; under a 1 GB address space.
    @Test func stopsAtOnePlaceKeepTheirNearestWalks() async throws {
        let feed = TestFeed.atOnePlace(16_000)
        let cache = Paths.temporary()
        let started = Date()
        let run = try await Run.transit(["gtfs", "import", feed.directory, "--name", "crowd"], env: env(cache), addressSpace: 1 << 30)
        let seconds = Date().timeIntervalSince(started)
        #expect(run.status == 0 && run.stderr.contains("16000 stops are among more than 2,000 stops within a few hundred metres: their 20 nearest"), "\(run.status) \(run.stderr)")
        let t = try FeedStore.load(FeedStore(cacheDirectory: cache).path(of: "crowd")).1
        #expect(t.storedWalks(0).count == 20 && t.storedWalks(0).map(\.stop) == (1...20).map(Int32.init), "\(t.storedWalks(0).prefix(5))")
        #expect(t.storedWalks(15_999).map(\.stop) == (0..<20).map(Int32.init))
        let trip = try await Run.transit(["gtfs", "trips", "--feed", "crowd", "--from", "S0", "--to", "S1", "--date", "2026-11-23"], env: env(cache), addressSpace: 1 << 30)
        #expect(trip.status == 0 && !trip.stdout.isEmpty, "\(trip.stderr)")
        print("16,000 stops at one place: imported in \(String(format: "%.2f", seconds)) s")
    }

    /// The k-d tree (`NearestStops`, what a crowded neighbourhood is looked through) keeps the
    /// same nearest as a look at every pair: random stops in clumps, many at one place, some on
    /// one line, each asked for its nearest 1, 5 and 200 within 300 m.
    @Test func theTreeFindsTheNearestAsEveryPairDoes() throws {
        var g = SystemRandomNumberGenerator()
        for _ in 0..<6 {
            var stops = "stop_id,stop_name,stop_lat,stop_lon\n"
            for k in 0..<600 {
                let clump = Double(Int.random(in: 0..<4, using: &g)) * 0.002
                let (lat, lon): (Double, Double) = switch Int.random(in: 0..<3, using: &g) {
                case 0: (41.0, -87.0)  // one place
                case 1: (41.0 + clump, -87.0 + Double(Int.random(in: 0..<50, using: &g)) * 0.0001)  // a line
                default: (41.0 + clump + Double.random(in: 0...0.003, using: &g), -87.0 + Double.random(in: 0...0.004, using: &g))
                }
                stops += "S\(k),S\(k),\(lat),\(lon)\n"
            }
            let t = try TestFeed(["stops.txt": stops, "trips.txt": "route_id,service_id,trip_id\nR,S,t1\n",
                                  "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nt1,08:00:00,08:00:00,S0,1\nt1,08:10:00,08:10:00,S1,2\n"]).timetable()
            let tree = NearestStops(t)
            func place(_ s: Int) -> Coordinate { Coordinate(latitude: t.stopLat[s], longitude: t.stopLon[s]) }
            for x in (0..<t.stopCount).shuffled(using: &g).prefix(60) {
                let every = (0..<t.stopCount).filter { $0 != x }.map { (stop: $0, meters: place(x).meters(to: place($0))) }
                    .filter { $0.meters <= 300 }.sorted(by: NearestStops.WorstFirst.before)
                for limit in [1, 5, 200] {
                    let found = tree.near(x, within: 300, limit: limit, t)
                    #expect(found.map(\.stop) == every.prefix(limit).map(\.stop), "stop \(x), limit \(limit)")
                }
            }
        }
    }

    /// Segments are found by a point near any part of them, not only near their ends: random
    /// segments, each point at a random place along one, joined within 100 m, against a join
    /// that looks at every segment.
    @Test func aSegmentIsFiledUnderEveryCellItCrosses() throws {
        var generator = SystemRandomNumberGenerator()
        var network = StreetNetwork()
        var edges: [(Int32, Int32, Double)] = []
        for k in 0..<200 {
            let lat = 41 + Double.random(in: 0...0.05, using: &generator), lon = -87 + Double.random(in: 0...0.05, using: &generator)
            network.latitude += [lat, lat + Double.random(in: -0.03...0.03, using: &generator)]
            network.longitude += [lon, lon + Double.random(in: -0.03...0.03, using: &generator)]
            edges.append((Int32(2 * k), Int32(2 * k + 1), network.coordinate(2 * k).meters(to: network.coordinate(2 * k + 1))))
        }
        network.start = (0...network.nodeCount).map { Int32($0) }
        network.targets = (0..<network.nodeCount).map { Int32($0 ^ 1) }
        network.meters = (0..<network.nodeCount).map { edges[$0 / 2].2 }
        let grid = try #require(network.grid(islandNodes: 0))
        var everything = StreetNetwork.SegmentGrid(cell: 10, lonCell: 10)
        everything.keys = [StreetNetwork.SegmentGrid.pack(4, -9)]
        everything.entries = (0..<200).flatMap { [Int32(2 * $0), Int32(2 * $0)] }
        everything.starts = [0, Int32(everything.entries.count)]
        for _ in 0..<500 {
            let k = Int.random(in: 0..<200, using: &generator), t = Double.random(in: 0...1, using: &generator)
            let a = network.coordinate(2 * k), b = network.coordinate(2 * k + 1)
            let point = Coordinate(latitude: a.latitude + (b.latitude - a.latitude) * t + 0.0003, longitude: a.longitude + (b.longitude - a.longitude) * t)
            let found = network.nearestJoin(point, within: 100, grid: grid), truth = network.nearestJoin(point, within: 100, grid: everything)
            #expect(found?.distance == truth?.distance, "\(point): \(String(describing: found)) against \(String(describing: truth))")
        }
    }

    /// A map cut short, one that is not PBF, one that needs lzma: one line, exit 1, and the feed
    /// imported before still answers as it did.
    @Test func aBrokenMapLeavesTheFeedAsItWas() async throws {
        let cache = Paths.temporary(), feed = Self.feed()
        let good = try Self.riverFile()
        let imported = try await Run.transit(["gtfs", "import", feed, "--name", "f", "--streets", good], env: env(cache))
        #expect(imported.status == 0, "\(imported.stderr)")
        let before = try await Self.journey(cache, "f")
        let lzma = PBFWriter.file([("OSMHeader", Protowire.field(4, [UInt8](repeating: 1, count: 9)) + Protowire.field(2, UInt64(9)))])
        for (bytes, words) in [(Self.river.prefix(Self.river.count - 7), "ends inside"), (Data("<osm version='0.6'/>".utf8), "OpenStreetMap .osm.pbf"),
                               (lzma, "packed with lzma")] {
            let bad = Paths.temporary() + ".osm.pbf"
            try bytes.write(to: URL(fileURLWithPath: bad))
            let run = try await Run.transit(["gtfs", "import", feed, "--name", "f", "--streets", bad], env: env(cache))
            #expect(run.status == 1 && run.stderrLines.count == 1 && run.stderr.contains(words), "\(words): \(run.status) \(run.stderr)")
            let after = try await Self.journey(cache, "f")
            #expect(after.arrival == before.arrival && after.walk == before.walk)
        }
    }

    /// The last walk, to a point across the river from the stop the ride ends at: 72 m in a
    /// straight line, 408 m by the bridge (by hand: 5.6 + 168.8 + 55.6 + 168.8 + 11.1), with a
    /// map; the network is compiled once into the cache and read from there.
    @Test func aWalkToAPointFollowsTheStreets() async throws {
        let cache = Paths.temporary(), feed = Self.feed()
        let mapPath = try Self.riverFile()
        for (name, extra) in [("plain", [String]()), ("streets", ["--streets", mapPath])] {
            let run = try await Run.transit(["gtfs", "import", feed, "--name", name] + extra, env: env(cache))
            #expect(run.status == 0, "\(run.stderr)")
        }
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: cache + "/gtfs/.streets")) ?? []).filter { $0.hasSuffix(".network") }.count == 1)
        let c = { (lat: Double, lon: Double) in Coordinate(latitude: lat, longitude: lon) }
        // Each place's piece to its street on rule 2's plane (110,574 m a degree of latitude).
        let byHand = 0.00005 * StreetNetwork.metersPerDegreeLatitude + c(41.0005, -87.0).meters(to: c(41.0005, -86.998))
            + c(41.0005, -86.998).meters(to: c(41.0, -86.998)) + c(41.0, -86.998).meters(to: c(41.0, -87.0)) + 0.0001 * StreetNetwork.metersPerDegreeLatitude
        var walks: [String: (arrival: String, meters: Int?, seconds: Int?)] = [:]
        for name in ["plain", "streets"] {
            let run = try await Run.transit(["gtfs", "trips", "--feed", name, "--from", "Xville", "--to", "40.99990,-87.0", "--date", "2026-11-23",
                                             "--after", "07:59", "--limit", "1", "--format", "json"], env: env(cache))
            let journey = try #require(try run.records().first, "\(name): \(run.stderr)")
            let last = (journey["legs"] as? [[String: Any]])?.last
            walks[name] = ((journey["arrival"] as? String) ?? "", last?["walk_meters"] as? Int, last?["walk_seconds"] as? Int)
        }
        // The ride ends at A at 08:10:00; the walk's seconds follow.
        func arrival(_ seconds: Int) -> String { String(format: "2026-11-23T08:%02d:%02d-06:00", 10 + seconds / 60, seconds % 60) }
        #expect(walks["plain"]?.meters == 72 && walks["plain"]?.seconds == 61 && walks["plain"]?.arrival == arrival(61), "\(walks)")
        let seconds = Int((byHand / 1.2).rounded(.up))
        #expect(walks["streets"]?.meters == Int(byHand.rounded()) && walks["streets"]?.seconds == seconds
                    && walks["streets"]?.arrival == arrival(seconds), "\(walks), by hand \(byHand)")
    }

    /// A `--walk` longer than the stored walks is looked for at query time, and measured on the
    /// same streets by the same rule: across the river is still 400 m (out of reach at 08:15),
    /// so the change is still by the bridge, 234 m, never the straight 67 m. A shorter `--walk`
    /// bounds the straight line, and the street walk at twice it.
    @Test func aLongerWalkIsMeasuredOnTheStreetsToo() async throws {
        let (cache, _) = try await importedOnTheRiver()
        var found: [String: (String, Int?)] = [:]
        for walk in ["300", "301", "1000"] {
            let run = try await Run.transit(["gtfs", "trips", "--feed", "streets", "--from", "Xville", "--to", "Yton", "--date", "2026-11-23",
                                             "--after", "07:59", "--walk", walk, "--limit", "1", "--format", "json"], env: env(cache))
            let first = try #require(try run.records().first, "\(walk): \(run.stderr)")
            let legs = first["legs"] as? [[String: Any]] ?? []
            found[walk] = ((first["arrival"] as? String) ?? "", legs.first { $0["mode"] as? String == "walk" }?["walk_meters"] as? Int)
        }
        #expect(Set(found.values.map { "\($0.0) \($0.1 ?? -1)" }) == ["2026-11-23T08:40:00-06:00 234"], "\(found)")
        // `--walk` bounds the straight line (180 m) and allows twice it on the streets: 230 m
        // keeps the bridge's 234 m; 179 m (the straight line past it) and 116 m (the street
        // walk past twice it) keep no change there.
        let within = try await Run.transit(["gtfs", "trips", "--feed", "streets", "--from", "Xville", "--to", "Yton", "--date", "2026-11-23",
                                            "--after", "07:59", "--walk", "230", "--limit", "1", "--format", "json"], env: env(cache))
        let legs = try #require(try within.records().first?["legs"] as? [[String: Any]], "\(within.stderr)")
        #expect(legs.first { $0["mode"] as? String == "walk" }?["walk_meters"] as? Int == 234, "\(legs)")
        for walk in ["179", "116"] {
            let short = try await Run.transit(["gtfs", "trips", "--feed", "streets", "--from", "Xville", "--to", "Yton", "--date", "2026-11-23",
                                               "--after", "07:59", "--walk", walk], env: env(cache))
            #expect(short.status == 0 && short.stdout.isEmpty, "\(walk): \(short.stdout)")
        }
    }

    /// Two feeds imported on one map: the link between them (the walk from A, the first feed's,
    /// to C, the second's) is measured on the streets, stored with the combination or looked for
    /// with a longer `--link`; on no map, the straight line across the river.
    @Test func linksBetweenFeedsOnOneMapFollowTheStreets() async throws {
        let cache = Paths.temporary()
        let mapPath = try Self.riverFile()
        let north = TestFeed([
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nX,Xville,41.0100,-87.0000\nA,North Bank,41.00055,-87.0000\n",
            "routes.txt": "route_id,route_short_name,route_type\nR1,R1,3\n",
            "trips.txt": "route_id,service_id,trip_id\nR1,S,t1\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nt1,08:00:00,08:00:00,X,1\nt1,08:10:00,08:10:00,A,2\n",
        ], zone: "America/Chicago").directory
        let south = TestFeed([
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nB,South Bank,40.99995,-87.0000\nC,Bridge South,40.99995,-86.9980\nY,Yton,40.9900,-87.0000\n",
            "routes.txt": "route_id,route_short_name,route_type\nR2,R2,3\nR3,R3,3\n",
            "trips.txt": "route_id,service_id,trip_id\nR2,S,t2\nR3,S,t3\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
                + "t2,08:15:00,08:15:00,B,1\nt2,08:30:00,08:30:00,Y,2\nt3,08:20:00,08:20:00,C,1\nt3,08:40:00,08:40:00,Y,2\n",
        ], zone: "America/Chicago").directory
        func journey(_ feeds: String, _ extra: [String] = []) async throws -> String {
            let run = try await Run.transit(["gtfs", "trips", "--feed", feeds, "--from", "Xville", "--to", "Yton", "--date", "2026-11-23",
                                             "--after", "07:59", "--limit", "1", "--format", "json"] + extra, env: env(cache))
            let first = try #require(try run.records().first, "\(feeds): \(run.stderr)")
            let walk = (first["legs"] as? [[String: Any]] ?? []).first { $0["mode"] as? String == "walk" }
            return "\((first["arrival"] as? String) ?? "") \((walk?["walk_meters"] as? Int) ?? -1)"
        }
        for (name, dir, map) in [("n", north, true), ("s", south, true), ("n0", north, false), ("s0", south, false)] {
            let run = try await Run.transit(["gtfs", "import", dir, "--name", name] + (map ? ["--streets", mapPath] : []), env: env(cache))
            #expect(run.status == 0, "\(run.stderr)")
        }
        #expect(try await journey("n,s") == "2026-11-23T08:40:00-06:00 234")
        #expect(try await journey("n,s", ["--link", "1000"]) == "2026-11-23T08:40:00-06:00 234")
        #expect(try await journey("n0,s0") == "2026-11-23T08:30:00-06:00 67")
        // One of them on no map: straight lines between the feeds.
        #expect(try await journey("n,s0") == "2026-11-23T08:30:00-06:00 67")
        let feeds = try await Run.transit(["gtfs", "feeds", "--feed", "n,s", "--format", "json"], env: env(cache))
        #expect(feeds.status == 0, "\(feeds.stderr)")
    }

    /// `--format geojson` draws a walk along the streets it follows: from A by the bridge's two
    /// ends to C, a line as long as the walk's meters.
    @Test func geoJSONDrawsTheWalkAlongTheStreets() async throws {
        let (cache, _) = try await importedOnTheRiver()
        let run = try await Run.transit(["gtfs", "trips", "--feed", "streets", "--from", "Xville", "--to", "Yton", "--date", "2026-11-23",
                                         "--after", "07:59", "--limit", "1", "--format", "geojson"], env: env(cache))
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let feature = try #require((object?["features"] as? [[String: Any]])?.first, "\(run.stdout) \(run.stderr)")
        // A line a leg (a MultiLineString): the walk's is the one from A to C.
        let lines = ((feature["geometry"] as? [String: Any])?["coordinates"] as? [[[Double]]] ?? []).map { $0.map { Coordinate(latitude: $0[1], longitude: $0[0]) } }
        let walk = try #require(lines.first { line in
            guard let a = line.first, let c = line.last else { return false }
            return abs(a.latitude - 41.00055) < 1e-9 && abs(a.longitude + 87.0) < 1e-9 && abs(c.latitude - 40.99995) < 1e-9 && abs(c.longitude + 86.998) < 1e-9
        }, "\(lines)")
        let length = zip(walk, walk.dropFirst()).reduce(0.0) { $0 + $1.0.meters(to: $1.1) }
        let meters = ((feature["properties"] as? [String: Any])?["legs"] as? [[String: Any]])?.compactMap { $0["walk_meters"] as? Int }.first
        // A, the north street's west end (where A joins), the bridge's two ends (the south one
        // where C joins), C.
        let bridge = [(41.0005, -87.0), (41.0005, -86.998), (41.0, -86.998)].map { Coordinate(latitude: $0.0, longitude: $0.1) }
        let onBridge = walk.count == 5 && zip(walk[1...3], bridge).allSatisfy { $0.meters(to: $1) < 0.01 }
        #expect(onBridge && meters == 234 && abs(length - 234.5) < 1, "\(walk) \(length) \(String(describing: meters))")
    }
}
