import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

extension CPUBound {
    /// The router against the brute-force reference on national networks of our own making at
    /// 1/500 size (issue 47): towns' buses, regional and intercity rail, stations of two
    /// platforms, calendar variants, read by the reference from the script's files. CI asks 60
    /// queries; `scripts/differential N [SEED]` asks N (TRANSIT_DIFFERENTIAL_QUERIES).
    @Suite struct NationalDifferentialTests {
        @Test func onNationalNetworksTheRouterFindsWhatTheReferenceFinds() throws {
            // Journeys of two changes or more, and queries between towns answered: the network's
            // shape was met, not only a stop's own line.
            var changing = 0, acrossTowns = 0, withNeeds = 0
            let sweep = try DifferentialSweep(queries: 60, seed: 20_261_128, perFeed: 20, salt: 47, national: true) { test, g in
                var q = test.nationalQuery(&g)
                if g.chance(0.25) {
                    test.drawNeeds(&q, &g)
                    // The script marks no trip step-free: a wheelchair would find nothing.
                    q.needs.wheelchair = false
                    withNeeds += 1
                }
                let expected = ReferenceRouter(test.feed, q).journeys()
                let (got, problems) = test.routed(q)
                changing += expected.filter { $0.transfers >= 2 }.count
                func town(_ stops: Set<Int>) -> Set<Substring> { Set(stops.compactMap { test.feed.stops[$0].id.split(separator: "_").first }) }
                if !expected.isEmpty && town(q.origins).isDisjoint(with: town(q.destinations)) { acrossTowns += 1 }
                return test.outcome(q, expected: expected, got: got, problems: problems)
            }
            print("differential on national networks: \(sweep.asked) queries on seeds \(sweep.seeds), \(sweep.compared) journeys "
                  + "(\(changing) of 2 changes or more), \(acrossTowns) answered between towns, \(withNeeds) with needs, \(sweep.differences.count) differ")
            for line in sweep.differences.prefix(20) { print("differential: " + line) }
            #expect(sweep.differences.isEmpty, "\(sweep.differences.count) of \(sweep.asked) queries differ: \(sweep.differences.prefix(3))")
            #expect(sweep.compared > sweep.asked && changing > sweep.asked / 8 && acrossTowns > sweep.asked / 10,
                    "\(sweep.compared) journeys, \(changing) of 2 changes or more, \(acrossTowns) between towns")
        }

        /// At 23:00 across days (issue 64): a journey leaving from 23:00 to 24:00 rides any run of
        /// the day before's past midnight, the day's and the next's (`Router.Query.days`); the
        /// same answers as the reference's, which expands each day's runs on the query's clock.
        /// CI asks 8 (the reference takes seconds a query over three days' runs).
        @Test func onNationalNetworksAt2300AcrossDaysTheRouterFindsWhatTheReferenceFinds() throws {
            var nextDay = 0, referenceSeconds = 0.0, routerSeconds = 0.0
            let sweep = try DifferentialSweep(queries: 8, seed: 20_261_206, perFeed: 4, salt: 64, national: true) { test, g in
                var q = test.nationalQuery(&g)
                (q.after, q.before, q.days) = (23 * 3600, 24 * 3600, -1...1)
                var start = Date()
                let expected = ReferenceRouter(test.feed, q).journeys()
                referenceSeconds += Date().timeIntervalSince(start)
                start = Date()
                let (got, problems) = test.routed(q)
                routerSeconds += Date().timeIntervalSince(start)
                nextDay += expected.filter { $0.departure >= 86_400 || $0.arrival >= 86_400 + 3 * 3600 }.count
                return test.outcome(q, expected: expected, got: got, problems: problems)
            }
            print("differential on national networks at 23:00 across days: \(sweep.asked) queries on seeds \(sweep.seeds), \(sweep.compared) journeys, "
                  + "\(nextDay) leaving or arriving on the next day, \(sweep.differences.count) differ (the reference \(Int(referenceSeconds)) s, the router \(Int(routerSeconds)) s)")
            for line in sweep.differences.prefix(10) { print("differential: " + line) }
            #expect(sweep.differences.isEmpty, "\(sweep.differences.count) of \(sweep.asked) queries differ: \(sweep.differences.prefix(3))")
            #expect(sweep.compared > sweep.asked / 2 && nextDay > sweep.asked / 4, "\(sweep.compared) journeys, \(nextDay) on the next day")
        }

        /// With realtime data too (`RealtimeDifferentialTests.disturb`: delays early and late,
        /// cancellations, skipped calls): a search keeps the straight lines only where no run laid
        /// out anew is faster than the fastest planned, and loses no journey either way. CI asks 30.
        @Test func onNationalNetworksWithRealtimeDataTheRouterFindsWhatTheReferenceFinds() throws {
            var changed = 0
            let sweep = try DifferentialSweep(queries: 30, seed: 20_261_129, perFeed: 10, salt: 53, national: true) { test, g in
                let q = test.nationalQuery(&g)
                return RealtimeDifferentialTests.compare(test, q, changed: &changed, &g)
            }
            print("realtime differential on national networks: \(sweep.asked) queries on seeds \(sweep.seeds), \(sweep.compared) journeys, \(changed) runs changed, \(sweep.differences.count) differ")
            for line in sweep.differences.prefix(10) { print("differential: " + line) }
            #expect(sweep.differences.isEmpty, "\(sweep.differences.count) of \(sweep.asked) queries differ: \(sweep.differences.prefix(3))")
            #expect(sweep.compared > sweep.asked / 2 && changed > sweep.asked, "\(sweep.compared) journeys, \(changed) runs changed")
        }
    }
}
