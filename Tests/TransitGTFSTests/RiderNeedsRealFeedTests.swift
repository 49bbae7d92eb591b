import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

extension CPUBound {
    /// `--avoid` on a real feed (issue 46): BART 2022, every route avoided in turn, between
    /// stations across the network, a whole morning each: no journey rides a trip of the route
    /// avoided, and the answers that rode it before find their way without it.
    @Suite struct RiderNeedsRealFeedTests {
        @Test(.enabled(if: Reference.isPresent, Reference.absent)) func anAvoidedRouteIsInNoJourneyOfBART() throws {
            let t = try GTFSCompiler.compile(try FeedFiles.open(Reference.path("realdata/bart_gtfs/gtfs-lite_2022/unz"))).0
            func stops(_ station: String) -> [Int] { (0..<t.stopCount).filter { t.stop($0, isNamed: station) && t.isCalledAt($0) } }
            let pairs = [("24TH", "MLBR"), ("RICH", "FRMT"), ("ANTC", "SFIA"), ("DUBL", "EMBR"), ("PITT", "DALY"), ("BERY", "OAKL")]
            let day = LocalDate(year: 2022, month: 11, day: 22).dayNumber
            var queries = 0, changed = 0, found = 0, pairsChanged = Set<String>()
            let asked = pairs.map { from, to in
                Router.Query(origins: stops(from), destinations: stops(to), day: day, after: 6 * 3600, before: 9 * 3600,
                             maxTransfers: 3, minTransfer: SearchDefaults.minTransferSeconds, walkMeters: nil)
            }
            let plains = asked.map { Router(t, $0).journeys() }
            for route in 0..<t.routeCount {
                for ((from, to), (given, plain)) in zip(pairs, zip(asked, plains)) {
                    #expect(!given.origins.isEmpty && !given.destinations.isEmpty, "\(from) \(to)")
                    var query = given
                    query.needs.avoidRoutes = [route]
                    let avoiding = Router(t, query).journeys()
                    queries += 1
                    found += avoiding.count
                    let rode = { (journeys: [Router.Journey]) in journeys.contains { $0.legs.contains { $0.trip.map(t.route(ofTrip:)) == route } } }
                    #expect(!rode(avoiding), "\(t.routeIDs[route]) ridden from \(from) to \(to)")
                    if rode(plain) {
                        changed += 1
                        pairsChanged.insert(from + to)
                    }
                }
            }
            print("--avoid on BART 2022: \(t.routeCount) routes × \(pairs.count) pairs, \(queries) queries, \(found) journeys, \(changed) answers that rode the route avoided")
            // Every pair's answer rides some route, which avoided changes it.
            #expect(pairsChanged.count == pairs.count, "the routes avoided were ridden between \(pairsChanged.count) pairs only")
            #expect(found > queries * 5)
        }
    }
}
