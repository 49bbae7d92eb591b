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
