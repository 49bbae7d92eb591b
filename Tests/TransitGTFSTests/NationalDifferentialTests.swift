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
                guard got != expected || !problems.isEmpty else { return (expected.count, nil) }
                let missing = expected.filter { !got.contains($0) }, extra = got.filter { !expected.contains($0) }
                return (expected.count, "query \(q.describe(test.feed)): missing \(missing), extra \(extra), problems \(problems)")
            }
            print("differential on national networks: \(sweep.asked) queries on seeds \(sweep.seeds), \(sweep.compared) journeys "
                  + "(\(changing) of 2 changes or more), \(acrossTowns) answered between towns, \(withNeeds) with needs, \(sweep.differences.count) differ")
            for line in sweep.differences.prefix(20) { print("differential: " + line) }
            #expect(sweep.differences.isEmpty, "\(sweep.differences.count) of \(sweep.asked) queries differ: \(sweep.differences.prefix(3))")
            #expect(sweep.compared > sweep.asked && changing > sweep.asked / 8 && acrossTowns > sweep.asked / 10,
                    "\(sweep.compared) journeys, \(changing) of 2 changes or more, \(acrossTowns) between towns")
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
