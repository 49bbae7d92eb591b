import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

extension CPUBound {
    /// `gtfs reach` against the brute-force reference on random feeds: for every stop, the earliest
    /// arrival of any journey leaving the origin in [T, T + M] and arriving by T + M, and the fewest
    /// rides among those that arrive then. The reference is asked one stop at a time, with that stop
    /// as its destination; the router answers all stops from one search.
    @Suite struct ReachDifferentialTests {
        /// On one random feed, and on two at once (`pairs`: ids clashing, links between them).
        @Test(arguments: [false, true]) func reachFindsWhatTheReferenceFinds(pairs: Bool) throws {
            var stops = 0
            let sweep = try DifferentialSweep(queries: 60, seed: 20_261_125, scale: 4, perFeed: 3, salt: 41, pairs: pairs) { test, g in
                var q = test.query(&g)
                let after = q.after ?? g.int(5 * 12...16 * 12) * 300, minutes = g.int(4...24) * 15, end = after + minutes * 60
                q.after = after
                q.before = end
                // reach has no destination to walk to; the origin's walks are listed, reached on
                // foot at T (an origin is never alighted at).
                q.walksToDestinations = false
                var alone = q
                alone.destinations = []
                let walked = ReferenceRouter(test.feed, alone).query.access
                // The reference, one destination at a time.
                var expected: [String: [Int]] = [:]
                for stop in test.feed.boardable where !q.origins.contains(stop) {
                    if let seconds = walked[stop] {
                        if after + seconds <= end { expected[test.feed.stops[stop].id] = [after + seconds, 0] }
                        continue
                    }
                    var one = q
                    one.destinations = [stop]
                    let best = ReferenceRouter(test.feed, one).journeys().filter { $0.arrival <= end }
                        .min { ($0.arrival, $0.transfers) < ($1.arrival, $1.transfers) }
                    if let best { expected[test.feed.stops[stop].id] = [best.arrival, best.transfers + 1] }
                }
                // The router, every stop at once.
                var query = test.routerQuery(q)
                query.destinations = []
                var got: [String: [Int]] = [:]
                for r in Router(test.timetable, query).reach() where r.arrival <= end { got[test.timetable.stopIDs[r.stop]] = [r.arrival, r.rides] }
                stops += expected.count
                guard got != expected else { return (expected.count, nil) }
                let keys = Set(got.keys).union(expected.keys).filter { got[$0] != expected[$0] }.sorted()
                return (expected.count, "\(q.describe(test.feed)) within \(minutes) min: "
                        + keys.prefix(4).map { "\($0) router \(got[$0] ?? []) reference \(expected[$0] ?? [])" }.joined(separator: "; "))
            }
            print("reach differential\(pairs ? " over two feeds" : ""): \(sweep.asked) queries, \(stops) stops reached, \(sweep.differences.count) differ")
            for line in sweep.differences.prefix(10) { print("reach differential: " + line) }
            #expect(sweep.differences.isEmpty, "\(sweep.differences.count) of \(sweep.asked) reach queries differ: \(sweep.differences.prefix(3))")
            #expect(sweep.asked < 20 || stops > sweep.asked / 2, "the queries reached \(stops) stops in all")
        }
    }
}

/// `gtfs reach` through the binary, on the bundled feed.
@Suite struct ReachCommandTests {
    @Test func reachFromHarborOnTheBundledFeed() async throws {
        let env = Run.environment(["TRANSIT_CACHE_DIR": Paths.temporary()])
        #expect(try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/lakeport"], env: env).status == 0)
        let query = ["gtfs", "reach", "--from", "Harbor", "--date", "2026-11-23", "--after", "08:00", "--minutes", "30"]
        let run = try await Run.transit(query + ["--format", "json"], env: env)
        #expect(run.status == 0, "\(run.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        func row(_ id: String) -> [String: Any]? { rows.first { $0["stop_id"] as? String == id } }
        // The Shore Line of 08:00 (Market 08:03, Riverside 08:21), the M1 at Market's timed change (Stadium 08:12).
        #expect(row("MKT2")?["arrival"] as? String == "2026-11-23T08:03:00-06:00" && row("MKT2")?["transfers"] as? Int == 0)
        #expect(row("RVS2")?["minutes"] as? Int == 21 && row("M_STA")?["minutes"] as? Int == 12 && row("M_STA")?["transfers"] as? Int == 1)
        #expect(row("HBR2") == nil && row("HBR1") == nil, "the origin's own stops are not listed")
        // Harbor Terminal, 67–73 m from Harbor's stops, on foot: at T plus the walk, no changes.
        #expect(row("B_HBR")?["arrival"] as? String == "2026-11-23T08:01:02-06:00" && row("B_HBR")?["transfers"] is NSNull, "\(String(describing: row("B_HBR")))")
        let minutes = rows.compactMap { $0["minutes"] as? Int }
        #expect(minutes == minutes.sorted() && minutes.allSatisfy { (0...30).contains($0) } && rows.count == minutes.count)
        // Fewer changes allowed, fewer stops; GeoJSON Points at the stops.
        let direct = try #require(try JSONSerialization.jsonObject(with: Data(try await Run.transit(query + ["--transfers", "0", "--format", "json"], env: env).stdout.utf8)) as? [[String: Any]])
        #expect(direct.count < rows.count && direct.allSatisfy { $0["transfers"] as? Int == 0 || $0["stop_id"] as? String == "B_HBR" })
        let geo = try await Run.transit(query + ["--format", "geojson"], env: env)
        let features = try #require((try JSONSerialization.jsonObject(with: Data(geo.stdout.utf8)) as? [String: Any])?["features"] as? [[String: Any]])
        #expect(features.count == rows.count)
        // In the night only the walk: Harbor Terminal; without it nothing, said with exit 0; an
        // unknown stop: exit 2.
        let nightQuery = ["gtfs", "reach", "--from", "Harbor", "--date", "2026-11-23", "--after", "2:30:00", "--minutes", "20"]
        let night = try await Run.transit(nightQuery, env: env)
        #expect(night.status == 0 && night.stdout.split(separator: "\n").map { $0.split(separator: "\t").first } == ["B_HBR"], "\(night.stdout)")
        let still = try await Run.transit(nightQuery + ["--walk", "0"], env: env)
        #expect(still.status == 0 && still.stdout.isEmpty && still.stderr.contains("Nothing reachable from Harbor within 20 minutes"), "\(still.stderr)")
        let unknown = try await Run.transit(["gtfs", "reach", "--from", "Atlantis", "--date", "2026-11-23"], env: env)
        #expect(unknown.status == 2)
        let zero = try await Run.transit(query.dropLast(2) + ["--minutes", "0"], env: env)
        #expect(zero.status == 2 && zero.stderr.contains("--minutes"))
    }
}

extension CPUBound {
    /// Coordinates as the ends of `gtfs trips` against the brute force: a point near the random
    /// feed's stops at each end, every boardable stop within a radius reached on foot at 1.2 m/s
    /// (⌈d / 1.2⌉ s, no change time), the journey leaving the point and arriving at the other.
    @Suite struct CoordinateDifferentialTests {
        /// On one random feed, and on two at once: every boardable stop of either feed near a point.
        @Test(arguments: [false, true]) func journeysBetweenPointsAreWhatTheReferenceFinds(pairs: Bool) throws {
            var onFoot = 0, doubled = 0
            let sweep = try DifferentialSweep(queries: 200, seed: 20_261_126, salt: 43, pairs: pairs) { test, g in
                let base = test.query(&g)
                /// A point near a random stop, and a random radius.
                func point() -> (at: Coordinate, radius: Double) {
                    let near = test.feed.stops[g.int(0...test.feed.stops.count - 1)]
                    let here = Coordinate(latitude: near.latitude + Double(g.int(-20...20)) * 0.0001, longitude: near.longitude + Double(g.int(-20...20)) * 0.0001)
                    return (here, Double(g.int(1...8) * 250))
                }
                /// The boardable stops within `radius` of the point, and the seconds on foot to each.
                func walks(_ p: (at: Coordinate, radius: Double)) -> [Int: Int] {
                    var walks: [Int: Int] = [:]
                    for stop in test.feed.boardable {
                        let d = p.at.meters(to: Coordinate(latitude: test.feed.stops[stop].latitude, longitude: test.feed.stops[stop].longitude))
                        if d <= p.radius { walks[stop] = Int((d / Router.walkingSpeed).rounded(.up)) }
                    }
                    return walks
                }
                /// The query between the two points, each radius times `scale`; the journey on foot
                /// within the larger radius (issue 65).
                func between(_ from: (at: Coordinate, radius: Double), _ to: (at: Coordinate, radius: Double), scale: Double) -> ReferenceRouter.Query {
                    var q = base
                    q.access = walks((from.at, from.radius * scale))
                    q.egress = walks((to.at, to.radius * scale)).filter { q.access[$0.key] == nil }
                    q.origins = Set(q.access.keys)
                    q.destinations = Set(q.egress.keys)
                    q.points = .init(from: (from.at.latitude, from.at.longitude), to: (to.at.latitude, to.at.longitude), reach: max(from.radius, to.radius) * scale)
                    return q
                }
                let from = point(), to = point(), q = between(from, to, scale: 1)
                guard !q.origins.isEmpty, !q.destinations.isEmpty else { return nil }
                let expected = ReferenceRouter(test.feed, q).answer()
                var (got, problems) = test.routed(q)
                if test.routerQuery(q).onFoot != nil { onFoot += 1 }
                // A larger radius never arrives later (issue 65): the whole answer's first arrival.
                let wider = between(from, to, scale: 2)
                if let first = got.map(\.arrival).min() {
                    doubled += 1
                    let then = Router(test.timetable, test.routerQuery(wider)).journeys().map(\.arrival).min()
                    if (then ?? Int.max) > first { problems.append("twice the radius arrives at \(then.map(Trip.clock) ?? "none"), not by \(Trip.clock(first))") }
                }
                return test.outcome(q, expected: expected, got: got, problems: problems)
            }
            print("coordinate differential\(pairs ? " over two feeds" : ""): \(sweep.asked) queries, \(sweep.compared) journeys, "
                  + "\(onFoot) with a journey on foot, \(doubled) asked again with twice the radius, \(sweep.differences.count) differ")
            for line in sweep.differences.prefix(10) { print("coordinate differential: " + line) }
            #expect(sweep.differences.isEmpty, "\(sweep.differences.count) of \(sweep.asked) queries differ: \(sweep.differences.prefix(3))")
            #expect(sweep.asked < 100 || sweep.compared > sweep.asked / 2)
            #expect(sweep.asked < 100 || onFoot > 0, "no answer holds a journey on foot")
        }
    }
}

/// Coordinates as ends through the binary, on the bundled feed.
@Suite struct CoordinateCommandTests {
    @Test func journeysAndReachFromAPoint() async throws {
        let env = Run.environment(["TRANSIT_CACHE_DIR": Paths.temporary()])
        #expect(try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/lakeport"], env: env).status == 0)
        // A street corner near Old Town, and one near Stadium.
        let from = "41.8650,-87.6150", to = "41.8745,-87.5950"
        let run = try await Run.transit(["gtfs", "trips", "--from", from, "--to", to, "--date", "2026-11-23", "--after", "08:00", "--limit", "1",
                                         "--format", "json"], env: env)
        #expect(run.status == 0, "\(run.stderr)")
        let journey = try #require((try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])?.first)
        let legs = try #require(journey["legs"] as? [[String: Any]])
        #expect(journey["origin"] as? String == from && journey["destination"] as? String == to)
        #expect(legs.first?["mode"] as? String == "walk" && legs.first?["from"] as? String == from && legs.last?["to"] as? String == to
                && legs.last?["mode"] as? String == "walk" && legs.dropFirst().first?["mode"] as? String == "ride")
        #expect(journey["departure"] as? String == legs.first?["departure"] as? String && journey["arrival"] as? String == legs.last?["arrival"] as? String)
        // The walk is the great-circle distance, at 1.2 m/s: Old Town (41.8668, -87.6141) is 214 m from the first corner.
        let first = try #require(legs.first), meters = try #require(first["walk_meters"] as? Int)
        let expected = Coordinate(latitude: 41.8650, longitude: -87.6150).meters(to: Coordinate(latitude: 41.8668, longitude: -87.6141))
        #expect(first["to"] as? String == "M_OLD" && meters == Int(expected.rounded()))
        // Far from every stop: exit 2, naming the nearest; a radius out of range: exit 2.
        let far = try await Run.transit(["gtfs", "trips", "--from", "40.0,-87.6", "--to", "Stadium", "--date", "2026-11-23"], env: env)
        #expect(far.status == 2 && far.stderrLines.first?.contains("no stop within 1000 m of 40.0,-87.6; the nearest is Harbor Terminal (B_HBR)") == true, "\(far.stderr)")
        let radius = try await Run.transit(["gtfs", "trips", "--from", from, "--to", to, "--radius", "0"], env: env)
        #expect(radius.status == 2 && radius.stderr.contains("--radius"))
        // reach from the first corner: the M1's stops beyond Old Town, with no change.
        let reach = try await Run.transit(["gtfs", "reach", "--from", from, "--date", "2026-11-23", "--after", "08:00", "--minutes", "15", "--format", "json"], env: env)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(reach.stdout.utf8)) as? [[String: Any]])
        #expect(rows.contains { $0["stop_id"] as? String == "M_STA" && $0["transfers"] as? Int == 0 }, "\(reach.stdout)")
    }
}
