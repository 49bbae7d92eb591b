import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

/// Walk rule 2 of ../shared/reference/osm/README.md, a clause at a time, on small networks made
/// here, every distance known by construction: which ways are walkable, islands, a closed
/// pedestrian area crossed between its gates, and a stop beside a cut-off ramp.
@Suite struct WalkRuleTests {
    typealias Tags = PBFReader.WayTags

    /// `count` nodes from (lat, lon) eastward, 0.0001° of longitude apart, ids from `first`.
    static func street(_ first: Int64, _ count: Int, lat: Double, lon: Double) -> [(Int64, Double, Double)] {
        (0..<count).map { (k: Int) -> (Int64, Double, Double) in (first + Int64(k), lat, lon + 0.0001 * Double(k)) }
    }

    /// The network of these nodes and ways (`areas`: which ways are areas), as a map's reading builds it.
    static func network(_ nodes: [(Int64, Double, Double)], _ ways: [[Int64]], areas: [Bool] = []) -> StreetNetwork {
        let sorted = nodes.sorted { $0.0 < $1.0 }
        var refs: [Int64] = [], ends: [Int] = []
        for way in ways {
            refs += way
            ends.append(refs.count)
        }
        return StreetNetwork.build(ids: sorted.map(\.0), lats: sorted.map { Int32(($0.1 * 1e7).rounded()) },
                                   lons: sorted.map { Int32(($0.2 * 1e7).rounded()) }, refs: refs, wayEnds: ends, areas: areas)
    }

    static func c(_ lat: Double, _ lon: Double) -> Coordinate { Coordinate(latitude: lat, longitude: lon) }

    @Test func whichWaysAreWalkable() {
        #expect(Walkable.way(Tags(highway: "residential")) && Walkable.way(Tags(highway: "trunk")) && Walkable.way(Tags(highway: "steps")))
        #expect(!Walkable.way(Tags(highway: "motorway")) && !Walkable.way(Tags(highway: "motorway_link")) && !Walkable.way(Tags(highway: "cycleway")))
        // Platforms, by any of their three tags.
        #expect(Walkable.way(Tags(highway: "platform")) && Walkable.way(Tags(railway: "platform")) && Walkable.way(Tags(publicTransport: "platform")))
        // foot=yes|designated|permissive makes any such way walkable; foot=no none.
        #expect(Walkable.way(Tags(highway: "cycleway", foot: "designated")) && Walkable.way(Tags(highway: "motorway", foot: "yes"))
                && Walkable.way(Tags(highway: "service", access: "private", foot: "permissive")))
        #expect(!Walkable.way(Tags(highway: "footway", foot: "no")) && !Walkable.way(Tags(foot: "no", railway: "platform")))
        #expect(!Walkable.way(Tags(highway: "service", access: "no")) && !Walkable.way(Tags(highway: "service", service: "private")))
        // area=yes only as a pedestrian area or a platform, whatever foot says.
        #expect(Walkable.way(Tags(highway: "pedestrian", area: "yes")) && Walkable.way(Tags(area: "yes", railway: "platform")))
        #expect(!Walkable.way(Tags(highway: "service", area: "yes")) && !Walkable.way(Tags(highway: "service", area: "yes", foot: "yes")))
        #expect(Walkable.isArea(Tags(highway: "pedestrian", area: "yes")) && Walkable.isArea(Tags(highway: "platform"))
                && !Walkable.isArea(Tags(highway: "footway")))
        // No highway tag and no platform: no way at all.
        #expect(!Walkable.way(Tags(foot: "yes")))
    }

    /// A street of 39 nodes is an island (nothing joins it); one of 40 is not.
    @Test func aPieceOf39NodesIsAnIslandAndOneOf40IsNot() throws {
        let small = Self.street(1, 39, lat: 41.0, lon: -87.0), large = Self.street(100, 40, lat: 41.003, lon: -87.0)
        let network = Self.network(small + large, [small.map(\.0), large.map(\.0)])
        let grid = try #require(network.grid())
        #expect(network.joins(Self.c(41.00005, -86.999), within: 100, grid: grid).isEmpty)
        let joined = network.joins(Self.c(41.00305, -86.999), within: 100, grid: grid)
        #expect(!joined.isEmpty && joined.allSatisfy { $0.from >= 39 && $0.to >= 39 }, "\(joined)")
        // Without the rule the small street is joined (what the rule takes away).
        #expect(!network.joins(Self.c(41.00005, -86.999), within: 100, grid: try #require(network.grid(islandNodes: 0))).isEmpty)
    }

    /// A stop 8 m from a cut-off ramp (three nodes, an island) and 35 m from the pavement (one
    /// long segment past the stop, then 58 nodes on: a piece of 60) joins the pavement, and walks
    /// on it; by rule 1 it joined the ramp and went nowhere.
    @Test func aStopBesideACutOffRampReachesThePavement() throws {
        let pavement = [(Int64(1), 41.0, -87.0)] + Self.street(2, 59, lat: 41.0, lon: -86.99), ramp = Self.street(100, 3, lat: 41.00025, lon: -86.998)
        let network = Self.network(pavement + ramp, [pavement.map(\.0), ramp.map(\.0)])
        let walker = StreetWalker(network, try #require(network.grid()))
        let stop = Self.c(41.00032, -86.9979), along = Self.c(41.0, -86.996)
        let walk = walker.walk(from: stop, to: along, limit: 5_000)
        // 0.00032° north on the plane, then east along the pavement 0.0019°.
        let piece = 0.00032 * StreetNetwork.metersPerDegreeLatitude
        let east = Self.c(41.0, -86.9979).meters(to: along)
        guard case .streets(let meters) = walk else { Issue.record("\(walk)"); return }
        #expect(abs(meters - (piece + east)) < 0.5, "\(meters) against \(piece + east)")
    }

    /// A square (about 100 by 100 m) drawn as a closed pedestrian area, a footway meeting it at
    /// its south-west corner and one leaving from its north-east corner: crossed straight
    /// between the two gates; not an area, walked round its edges.
    @Test func aClosedPedestrianAreaIsCrossedBetweenItsGates() throws {
        let corners: [(Int64, Double, Double)] = [(1, 41.0, -87.0), (2, 41.0, -86.9988), (3, 41.0009, -86.9988), (4, 41.0009, -87.0)]
        let west = Self.street(100, 45, lat: 41.0, lon: -87.0045), east = Self.street(200, 45, lat: 41.0009, lon: -86.9988 + 0.0001)
        let ways = [[1, 2, 3, 4, 1], west.map(\.0) + [1], [3] + east.map(\.0)]
        let from = Self.c(41.0, -87.0010), to = Self.c(41.0009, -86.9980)
        let gc = { (a: Coordinate, b: Coordinate) in a.meters(to: b) }
        // From a node of the west footway to one of the east: along them to the corners, and
        // the square between.
        let footways = gc(from, Self.c(41.0, -87.0)) + gc(Self.c(41.0009, -86.9988), to)
        for (areas, between) in [([true, false, false], gc(Self.c(41.0, -87.0), Self.c(41.0009, -86.9988))),
                                 ([false, false, false], gc(Self.c(41.0, -87.0), Self.c(41.0, -86.9988)) + gc(Self.c(41.0, -86.9988), Self.c(41.0009, -86.9988)))] {
            let network = Self.network(corners + west + east, ways, areas: areas)
            let walker = StreetWalker(network, try #require(network.grid()))
            guard case .streets(let meters) = walker.walk(from: from, to: to, limit: 5_000) else { Issue.record("no walk"); continue }
            #expect(abs(meters - (footways + between)) < 0.01, "area \(areas[0]): \(meters) against \(footways + between)")
        }
    }

    /// Areas each touched at 100 gates make 4,950 crossings apiece: 300 of them (120 KB of refs)
    /// would make 1.5 million segments. The crossings stop at 4 a ref and a million more; the
    /// areas past it are walked round their outlines.
    @Test func crossingsAreBounded() {
        var nodes: [(Int64, Double, Double)] = [], ways: [[Int64]] = [], areas: [Bool] = []
        for area in 0..<300 {
            let ring = (0..<100).map { (k: Int) -> (Int64, Double, Double) in
                let angle = Double(k) / 100 * 2 * .pi
                return (Int64(area * 1_000 + k + 1), 41.0 + Double(area) * 0.001 + 0.0002 * sin(angle), -87.0 + 0.0002 * cos(angle))
            }
            nodes += ring
            ways.append(ring.map(\.0) + [ring[0].0])
            areas.append(true)
            // A path through every node of the ring: each is a gate.
            ways.append(ring.map(\.0))
            areas.append(false)
        }
        let network = Self.network(nodes, ways, areas: areas)
        let refs = ways.map(\.count).reduce(0, +), outline = 300 * 100
        #expect(network.segmentCount > outline + 4_950 && network.segmentCount <= outline + 4 * refs + (1 << 20), "\(network.segmentCount)")
    }
}
