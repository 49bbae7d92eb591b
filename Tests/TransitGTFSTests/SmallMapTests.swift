import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

/// Issue 43's bad maps, through the binary, each imported over a feed imported before on the
/// river map (`StreetWalkTests`): a map whose every stop falls on islands or beyond 100 m is
/// refused with one line and the feed answers as before; a platform way of one node, an area with
/// no gate, a self-intersecting and an unclosed "area", a way of 100,000 nodes and tags with empty
/// values each import with the import's one line of counts, and the feed answers.
@Suite struct MapBadInputTests {
    typealias P = Protowire
    typealias B = PBFReaderTests

    struct Way {
        var refs: [Int64]
        var tags: [(String, String)] = [("highway", "residential")]
    }

    /// A map of these nodes and ways, each way with its own tags.
    static func map(_ nodes: [(Int64, Double, Double)], _ ways: [Way]) -> Data {
        var strings = [""], index: [String: Int] = ["": 0]
        func id(_ text: String) -> UInt64 {
            if let known = index[text] { return UInt64(known) }
            index[text] = strings.count
            strings.append(text)
            return UInt64(strings.count - 1)
        }
        let wayFields = ways.enumerated().flatMap { k, way -> [UInt8] in
            var previous: Int64 = 0
            let deltas = way.refs.map { ref -> UInt64 in defer { previous = ref }; return B.zigzag(ref - previous) }
            return P.field(3, P.field(1, UInt64(100 + k)) + P.field(2, B.packed(way.tags.map { id($0.0) })) + P.field(3, B.packed(way.tags.map { id($0.1) }))
                              + P.field(8, B.packed(deltas)))
        }
        let nodeFields = nodes.flatMap { id, lat, lon in
            P.field(1, P.field(1, B.zigzag(id)) + P.field(8, B.zigzag(Int64((lat * 1e7).rounded()))) + P.field(9, B.zigzag(Int64((lon * 1e7).rounded()))))
        }
        let table = P.field(1, strings.flatMap { P.field(1, $0) })
        return B.file([("OSMHeader", B.raw(B.header())), ("OSMData", B.raw(table + P.field(2, nodeFields + wayFields)))])
    }

    /// A street of `count` nodes from (lat, lon) eastward, `step` degrees apart, ids from `first`.
    static func street(_ first: Int64, _ count: Int, lat: Double, lon: Double, step: Double = 0.0001) -> [(Int64, Double, Double)] {
        (0..<count).map { (first + Int64($0), lat, lon + step * Double($0)) }
    }

    /// The river map's streets (each 41 nodes: no island), north and south of the river, and the bridge.
    static let river: (nodes: [(Int64, Double, Double)], ways: [Way]) = {
        let north = street(1, 41, lat: 41.0005, lon: -87.002, step: 0.0001), south = street(101, 41, lat: 41.0, lon: -87.002, step: 0.0001)
        return (north + south, [Way(refs: north.map(\.0)), Way(refs: south.map(\.0)), Way(refs: [41, 141])])
    }()

    @Test func badMapsImportWithTheirCountsOrAreRefusedWithOneLine() async throws {
        let cache = Paths.temporary(), env = Run.environment(["TRANSIT_CACHE_DIR": cache]), feed = StreetWalkTests.feed()
        func write(_ data: Data) throws -> String {
            let path = Paths.temporary() + "/map.osm.pbf"
            try data.write(to: URL(fileURLWithPath: path))
            return path
        }
        let good = try write(Self.map(Self.river.nodes, Self.river.ways))
        #expect(try await Run.transit(["gtfs", "import", feed, "--name", "f", "--streets", good], env: env).status == 0)
        let before = try await StreetWalkTests.journey(cache, "f")

        // Refused: islands only (two streets of 39 nodes by the stops), or streets 2 km away.
        let islands = Self.map(Self.street(1, 39, lat: 41.0005, lon: -87.002) + Self.street(101, 39, lat: 41.0, lon: -87.002),
                               [Way(refs: Array(1...39)), Way(refs: Array(101...139))])
        let far = Self.map(Self.street(1, 60, lat: 41.02, lon: -87.002), [Way(refs: Array(1...60))])
        for (name, map) in [("islands", islands), ("far", far)] {
            let run = try await Run.transit(["gtfs", "import", feed, "--name", "f", "--streets", try write(map)], env: env)
            #expect(run.status == 2 && run.stderrLines.count == 1 && run.stderr.contains("does the map cover the feed?"), "\(name): \(run.status) \(run.stderr)")
            let after = try await StreetWalkTests.journey(cache, "f")
            #expect(after.arrival == before.arrival && after.walk == before.walk, "\(name)")
        }

        // Imported, with the streets' line: each odd shape beside the river map's streets.
        let extra: [(String, [(Int64, Double, Double)], [Way])] = [
            ("a platform way of one node", [(900, 41.0003, -87.0)], [Way(refs: [900], tags: [("railway", "platform")])]),
            ("an area with no gate", [(901, 41.0002, -87.0015), (902, 41.0002, -87.0012), (903, 41.0003, -87.0012)],
             [Way(refs: [901, 902, 903, 901], tags: [("highway", "pedestrian"), ("area", "yes")])]),
            ("a self-intersecting area", [(904, 41.0001, -87.001), (905, 41.0004, -86.999), (906, 41.0001, -86.999), (907, 41.0004, -87.001)],
             [Way(refs: [904, 905, 906, 907, 904, 20], tags: [("highway", "pedestrian"), ("area", "yes")])]),
            ("an unclosed area", [(908, 41.0002, -86.9985), (909, 41.0003, -86.9983)],
             [Way(refs: [908, 909, 141], tags: [("highway", "footway"), ("area", "yes")])]),
            ("a way of 100,000 nodes", Self.street(10_000, 100_000, lat: 41.0008, lon: -87.002, step: 0.000001),
             [Way(refs: Array(10_000..<110_000)), Way(refs: [10_000, 1])]),
            ("tags with empty values", [(910, 41.00025, -87.002), (911, 41.00025, -86.998)],
             [Way(refs: [910, 911], tags: [("highway", ""), ("foot", ""), ("area", "")]), Way(refs: [910, 1], tags: [("", "")])]),
        ]
        for (name, nodes, ways) in extra {
            let map = Self.map(Self.river.nodes + nodes, Self.river.ways + ways)
            let run = try await Run.transit(["gtfs", "import", feed, "--name", "f", "--streets", try write(map)], env: env)
            #expect(run.status == 0 && run.stderrLines.last?.hasPrefix("GTFS: streets: ") == true, "\(name): \(run.status) \(run.stderr)")
            let after = try await Run.transit(["gtfs", "trips", "--feed", "f", "--from", "Xville", "--to", "Yton", "--date", "2026-11-23", "--format", "json"], env: env)
            let journeys = try after.records()
            #expect(after.status == 0 && !journeys.isEmpty, "\(name): \(after.stderr)")
        }
    }
}

/// Two clauses of walk rule 2 that need a map's tags, on small maps made here (`MapBadInputTests.map`)
/// and imported through the binary, every distance worked out from the map's coordinates by the
/// README's measure: a join's straight piece on the plane at the place's latitude (Δlat × 110,574
/// m), and along the way each segment's great circle (R = 6,371,008.8 m). Two stops 0.0010° of
/// longitude apart at 41° N stand 0.00018° of latitude (19.90 m) or 0.00009° (9.95 m) from the way.
@Suite struct RuleClauseMapTests {
    typealias Way = MapBadInputTests.Way

    /// Stops P and Q at (lat, -87.0000) and (lat, -86.9990), on a route that calls at both.
    static func feed(lat: Double) -> String {
        TestFeed([
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nP,Platform West,\(lat),-87.0000\nQ,Platform East,\(lat),-86.9990\n",
            "trips.txt": "route_id,service_id,trip_id\nR,S,t1\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nt1,08:00:00,08:00:00,P,1\nt1,08:05:00,08:05:00,Q,2\n",
        ], zone: "America/Chicago").directory
    }

    /// The walk P → Q stored at import on `map` (street meters; nil: none kept).
    static func storedWalk(_ feed: String, _ map: Data) async throws -> Double? {
        let env = Run.environment(["TRANSIT_CACHE_DIR": Paths.temporary()]), path = Paths.temporary() + "/map.osm.pbf"
        try map.write(to: URL(fileURLWithPath: path))
        let imported = try await Run.transit(["gtfs", "import", feed, "--name", "m", "--streets", path], env: env)
        #expect(imported.status == 0, "\(imported.stderr)")
        let walks = try await Run.transit(["--format", "json", "gtfs", "walks", "--feed", "m", "--stop", "P"], env: env).records()
        return walks.first { $0["to"] as? String == "Q" }?["street_meters"] as? Double
    }

    /// A way at `lat` drawn as one segment from -87.0000 to -86.9990 (under the stops: each joins
    /// it at an end, and a way of many short segments would offer shorter diagonal joins), with a
    /// tail of 40 nodes running west (a piece of fewer than 40 nodes is an island). Node ids from
    /// `first`.
    static func way(_ first: Int64, lat: Double, tags: [(String, String)] = [("highway", "residential")]) -> (nodes: [(Int64, Double, Double)], way: Way) {
        let nodes = [(first, lat, -87.0), (first + 1, lat, -86.999)] + (1...40).map { (first + 1 + Int64($0), lat, -87.0 - 0.0001 * Double($0)) }
        return (nodes, Way(refs: [first + 1, first] + (1...40).map { first + 1 + Int64($0) }, tags: tags))
    }

    /// The one segment's great circle at `lat`.
    static func along(_ lat: Double) -> Double {
        Coordinate(latitude: lat, longitude: -87.0).meters(to: Coordinate(latitude: lat, longitude: -86.999), radius: Coordinate.meanEarthRadiusMeters)
    }

    /// A tram platform drawn apart from the pavement: the platform way (two nodes, under the
    /// stops) and a cut-off ramp 8.8 m north (three nodes) are islands, so the stops join the
    /// pavement 19.90 m south and walk along it: 19.90 + 83.9 + 19.90 m (rule 1 joined the
    /// platform and walked 84 m along an island nothing else reaches).
    @Test func aPlatformDrawnApartFromThePavementReachesIt() async throws {
        let lat = 41.0, pavement = Self.way(1, lat: lat - 0.00018, tags: [("highway", "footway")])
        let nodes = pavement.nodes + [(500, lat, -87.0002), (501, lat, -86.9988)]
            + [(600, lat + 0.00008, -87.0003), (601, lat + 0.00008, -86.9995), (602, lat + 0.00008, -86.9987)]
        let ways = [pavement.way, Way(refs: [500, 501], tags: [("railway", "platform")]), Way(refs: [600, 601, 602], tags: [("highway", "trunk_link")])]
        let walked = try #require(try await Self.storedWalk(Self.feed(lat: lat), MapBadInputTests.map(nodes, ways)))
        let byHand = 2 * 0.00018 * 110_574 + Self.along(lat - 0.00018)
        #expect(abs(walked - byHand) <= 0.06, "\(walked) m, by hand \(byHand) m")
    }

    /// A cycleway with foot=designated is walked: the stops, 9.95 m north of it, join it and walk
    /// 9.95 + 83.9 + 9.95 m. Without the tag it is no walk, and they join the street 80.7 m north
    /// instead (within the 100 m): 78.5 + 83.9 + 78.5 m.
    @Test func aCyclewayWithFootDesignatedIsWalked() async throws {
        let lat = 41.00009, cycleway = 41.0, street = 41.0008
        for (tags, joined) in [([("highway", "cycleway"), ("foot", "designated")], cycleway), ([("highway", "cycleway")], street)] {
            let a = Self.way(1, lat: cycleway, tags: tags), b = Self.way(101, lat: street)
            let walked = try #require(try await Self.storedWalk(Self.feed(lat: lat), MapBadInputTests.map(a.nodes + b.nodes, [a.way, b.way])))
            let byHand = 2 * abs(lat - joined) * 110_574 + Self.along(joined)
            #expect(abs(walked - byHand) <= 0.06, "\(tags): \(walked) m, by hand \(byHand) m")
        }
    }
}
