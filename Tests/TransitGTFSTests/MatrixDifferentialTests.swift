import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

extension CPUBound {
    /// A matrix's search (`Router.byMinutes`) against the brute-force reference on random feeds:
    /// at each minute of windows of 1 to 30 minutes, every stop's earliest arrival by a ride
    /// leaving the origin at or after that minute and arriving by the cap, as the minute profile
    /// reads it, equals the least arrival of the reference's journeys to that stop (one stop at a
    /// time) leaving then or later. The reference is asked once per stop, the window whole.
    @Suite struct MatrixDifferentialTests {
        @Test(arguments: [false, true]) func theMinuteProfileIsTheReferencesEarliestAtEachMinute(pairs: Bool) throws {
            var cells = 0
            let sweep = try DifferentialSweep(queries: 150, seed: 20_261_207, scale: 4, perFeed: 2, salt: 70, pairs: pairs) { test, g in
                var q = test.query(&g)
                let after = g.int(5 * 12...16 * 12) * 300, window = g.int(1...30), maxMinutes = [30, 60, 120][g.int(0...2)]
                let cap = after + (window - 1) * 60 + (maxMinutes + 1) * 60 - 1
                (q.after, q.before, q.walksToDestinations) = (after, cap, false)
                var alone = q
                alone.destinations = []
                let walked = ReferenceRouter(test.feed, alone).query.access
                // The router: one search, read at each minute.
                var query = test.routerQuery(q)
                query.destinations = []
                let router = Router(test.timetable, query)
                let minutes = (0..<window).map { Int32(after + $0 * 60) }
                let stops = test.timetable.stopCount
                var best = [Int32](repeating: SearchState.unreached, count: stops), profile: [[Int32]] = Array(repeating: [], count: window)
                router.byMinutes(origins: router.query.origins.filter { !router.query.accessFrom.keys.contains($0) }, access: nil, accessMeters: nil,
                                 cap: cap, minutes: minutes, improved: { changed, state in
                    for stop in changed { best[stop] = min(best[stop], state.earliestArrival(stop)) }
                }, minute: { k in profile[k] = best })
                // The reference, one stop at a time: the least arrival of its journeys leaving at
                // or after each minute.
                var problems: [String] = []
                for stop in test.feed.boardable where !q.origins.contains(stop) && walked[stop] == nil {
                    guard let index = test.stopIndex(test.feed.stops[stop].id) else { continue }
                    var one = q
                    one.destinations = [stop]
                    let journeys = ReferenceRouter(test.feed, one).journeys().filter { $0.arrival <= cap }
                    for (k, minute) in minutes.enumerated() {
                        let expected = journeys.filter { $0.departure >= Int(minute) }.map(\.arrival).min()
                        let got = profile[k][index] == SearchState.unreached ? nil : Optional(Int(profile[k][index]))
                        cells += 1
                        if got != expected { problems.append("\(test.feed.stops[stop].id) at minute \(k): router \(String(describing: got)) reference \(String(describing: expected))") }
                    }
                }
                return (minutes.count, problems.isEmpty ? nil : "\(q.describe(test.feed)) window \(window) max \(maxMinutes): \(problems.prefix(4))")
            }
            print("matrix differential\(pairs ? " over two feeds" : ""): \(sweep.asked) origins, \(cells) stop-minutes, \(sweep.differences.count) differ")
            for line in sweep.differences.prefix(10) { print("matrix differential: " + line) }
            #expect(sweep.differences.isEmpty, "\(sweep.differences.count) of \(sweep.asked) differ: \(sweep.differences.prefix(3))")
            #expect(cells > sweep.asked * 5, "\(cells) stop-minutes compared")
        }
    }
}
