import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

/// R5's Terre Haute feed on its map (the pack's pair), through the binary: every pair of its
/// stops within 300 m in a straight line keeps the walk the independent reference script
/// (scripts/osm-walk-reference.py, walk rule 2) measures, or keeps none where that walk is longer
/// than 300 m; `gtfs walks` lists them, and the import's line counts the close pairs dropped.
@Suite(.enabled(if: Reference.isPresent && StreetNetworkTests.hasPyosmium, "needs ../shared/reference and Python's osmium (scripts/setup installs it)"))
struct TerreHauteWalkTests {
    @Test func everyStoredWalkIsTheReferencesWalk() async throws {
        let map = Reference.path("osm/r5/terre-haute.osm.pbf"), cache = Paths.temporary()
        let env = Run.environment(["TRANSIT_CACHE_DIR": cache])
        let imported = try await Run.transit(["gtfs", "import", Reference.path("gtfs/feeds/r5-terre-haute"), "--name", "th", "--streets", map], env: env)
        #expect(imported.status == 0 && imported.stderr.contains("streets: 107 of 115 stops joined to the map"), "\(imported.stderr)")
        let walks = try await Run.transit(["--format", "json", "gtfs", "walks", "--feed", "th"], env: env).records()
        // The stops' places as the feed writes them (a table prints six decimals).
        let t = try GTFSCompiler.compile(try FeedFiles.open(Reference.path("gtfs/feeds/r5-terre-haute"))).0
        var place: [String: Coordinate] = [:]
        for stop in 0..<t.stopCount { place[t.stop(stop).id] = t.stop(stop).coordinate }
        var kept: [String: Double] = [:]
        for walk in walks {
            if let from = walk["from"] as? String, let to = walk["to"] as? String, let meters = walk["street_meters"] as? Double { kept[from + ">" + to] = meters }
        }
        // Every pair within 300 m in a straight line, each once, and the reference's walk for it.
        let ids = place.keys.sorted()
        var pairs: [(String, String)] = []
        for (k, a) in ids.enumerated() {
            for b in ids[(k + 1)...] where (place[a]?.meters(to: place[b] ?? Coordinate(latitude: 0, longitude: 0)) ?? .infinity) <= 300 { pairs.append((a, b)) }
        }
        let input = pairs.compactMap { a, b in place[a].flatMap { p in place[b].map { q in "\(p.latitude),\(p.longitude) \(q.latitude),\(q.longitude)" } } }
        let inputPath = Paths.temporary() + "/pairs.txt"
        try (input.joined(separator: "\n") + "\n").write(toFile: inputPath, atomically: true, encoding: .utf8)
        let reference = try await Run.transitLike(["/bin/sh", "-c", "python3 '\(Paths.root.path)/scripts/osm-walk-reference.py' '\(map)' 100 < '\(inputPath)'"],
                                                  env: ProcessInfo.processInfo.environment).stdoutLines
        #expect(pairs.count == 49 && reference.count == pairs.count, "\(pairs.count) pairs, \(reference.count) answers")
        var compared = 0, dropped = 0, straight = 0
        for ((a, b), theirs) in zip(pairs, reference) {
            let ours = kept[a + ">" + b], back = kept[b + ">" + a]
            #expect(ours == back, "\(a) ↔ \(b): \(String(describing: ours)) one way, \(String(describing: back)) the other")
            if theirs == "none" {
                // An end joins nothing: the walk is the straight line (listed with it), or the
                // map does not connect them (none).
                straight += 1
                continue
            }
            let meters = try #require(Double(theirs))
            if meters <= 300 {
                #expect(ours.map { abs($0 - meters) <= 0.06 } == true, "\(a) ↔ \(b): \(String(describing: ours)), the reference \(meters)")
                compared += 1
            } else {
                #expect(ours == nil, "\(a) ↔ \(b): kept \(String(describing: ours)) where the reference walks \(meters)")
                dropped += 1
            }
        }
        #expect(compared > 25 && dropped > 0, "\(compared) compared, \(dropped) dropped, \(straight) without a join")
    }

    /// A point 836 m from its nearest stop in a straight line and over 1000 m on the streets finds
    /// no stop within the radius on foot, and says both numbers (it said "836 m away" alone,
    /// against its own "no stop within 1000 m … on foot").
    @Test func aStopNearInAStraightLineAndFarOnFootSaysBoth() async throws {
        let cache = Paths.temporary(), env = Run.environment(["TRANSIT_CACHE_DIR": cache])
        let map = Reference.path("osm/r5/terre-haute.osm.pbf")
        #expect(try await Run.transit(["gtfs", "import", Reference.path("gtfs/feeds/r5-terre-haute"), "--name", "th", "--streets", map], env: env).status == 0)
        let run = try await Run.transit(["gtfs", "trips", "--feed", "th", "--from", "39.46183,-87.34191", "--to", "39.43793,-87.34351", "--date", "2016-06-15",
                                         "--after", "08:00"], env: env)
        #expect(run.status == 2 && run.stderrLines.first?.contains("Village Quarter Apts. (782648), 836 m away in a straight line and more than 1000 m on the streets") == true,
                "\(run.stderr)")
    }
}
