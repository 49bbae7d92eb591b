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
        /// A stop's id, or a station's whose platforms `stops` are (nil: neither).
        static func name(_ stops: Set<Int>, _ feed: RandomFeed) -> String? {
            if stops.count == 1, let stop = stops.first { return feed.stops[stop].id }
            guard let station = stops.first.flatMap({ feed.stops[$0].parent }), Set(feed.children(station)) == stops else { return nil }
            return feed.stops[station].id
        }

        /// The matrix's one cell between stops named, as `gtfs matrix` asks it of the test's feed.
        static func cell(_ test: DifferentialCase, _ q: ReferenceRouter.Query, from: String, to: String, window: Int, percentiles: [Int], maxMinutes: Int,
                         after: ServiceTime? = nil, arriveBy: ServiceTime? = nil) throws -> [Int?] {
            let rules = JourneyQuery.Rules(transfers: q.maxTransfers, minTransferSeconds: q.minTransfer, walkMeters: q.walkMeters, linkMeters: q.linkMeters)
            var query = TravelTimeQuery(origins: [.init(id: "o", place: .stop(from))], destinations: [.init(id: "d", place: .stop(to))],
                                        day: .on(LocalDate(dayNumber: q.day)), after: after, windowMinutes: window, percentiles: percentiles,
                                        maxMinutes: maxMinutes, rules: rules)
            query.arriveBy = arriveBy
            var got = percentiles.map { _ -> Int? in nil }
            try GTFSFeed(timetable: test.timetable).travelTimeMatrix(query).rows(jobs: 1) { row in
                if let cell = row.cells.first { got = cell.minutes }
            }
            return got
        }

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
    

        /// The matrix itself between stops named (a stop or a station; walking at both ends where
        /// the query walks, the journey on foot between them), through `TravelTimeMatrix`: every
        /// percentile of windows of 1 to 20 minutes equals the one of the reference's earliest
        /// arrival at each minute (its rides leaving then or later, or the walk).
        @Test func theMatrixIsThePercentileOfTheReferencesEarliest() throws {
            var cells = 0, reached = 0, onFoot = 0
            let sweep = try DifferentialSweep(queries: 400, seed: 20_261_208, scale: 4, perFeed: 3, salt: 71) { test, g in
                var q = test.query(&g)
                guard let from = Self.name(q.origins, test.feed), let to = Self.name(q.destinations, test.feed) else { return nil }
                let after = g.int(5 * 12...16 * 12) * 300, window = g.int(1...20), maxMinutes = [30, 60, 120][g.int(0...2)]
                let cap = after + (window - 1) * 60 + (maxMinutes + 1) * 60 - 1
                (q.after, q.before) = (after, cap)
                let reference = ReferenceRouter(test.feed, q), rides = reference.journeys().filter { $0.arrival <= cap }
                let minutes: [Int?] = (0..<window).map { k in
                    let m = after + k * 60
                    let arrival = [rides.filter { $0.departure >= m }.map(\.arrival).min(), reference.onFootSeconds.map { m + $0 }].compactMap { $0 }.min()
                    return arrival.flatMap { ($0 - m) / 60 <= maxMinutes ? ($0 - m) / 60 : nil }
                }
                let percentiles = Array(1...99)
                let expected = percentiles.map { CPUBound.TravelTimeMatrixTests.percentile($0, minutes) }
                // The matrix, as `gtfs matrix` asks it.
                let got = try Self.cell(test, q, from: from, to: to, window: window, percentiles: percentiles, maxMinutes: maxMinutes, after: .asWritten(seconds: after))
                cells += 1
                if expected.contains(where: { $0 != nil }) { reached += 1 }
                if reference.onFootSeconds != nil { onFoot += 1 }
                guard got != expected else { return (1, nil) }
                return (1, "\(q.describe(test.feed)) window \(window) max \(maxMinutes): minutes \(minutes), matrix p1 \(String(describing: got[0])) p50 \(String(describing: got[49])) p99 \(String(describing: got[98]))")
            }
            print("matrix differential, the matrix itself: \(sweep.asked) pairs, \(reached) reached, \(onFoot) within a walk, \(sweep.differences.count) differ")
            for line in sweep.differences.prefix(10) { print("matrix differential: " + line) }
            #expect(sweep.differences.isEmpty, "\(sweep.differences.count) of \(sweep.asked) differ: \(sweep.differences.prefix(3))")
            #expect(sweep.asked >= 60 && reached > sweep.asked / 10 && onFoot > 0, "\(sweep.asked) pairs, \(reached) reached, \(onFoot) on foot")
        }

        /// Towards deadlines (`--arrive-by`), between stops named: every percentile of windows of
        /// 1 to 20 deadlines equals the one of the reference's: at each deadline, the deadline less
        /// the latest departure of its rides that arrives by it (or less the walk).
        @Test func towardsDeadlinesTheMatrixIsTheReferencesLatestDeparture() throws {
            var reached = 0, onFoot = 0
            let sweep = try DifferentialSweep(queries: 400, seed: 20_261_209, scale: 4, perFeed: 3, salt: 72) { test, g in
                var q = test.query(&g)
                guard let from = Self.name(q.origins, test.feed), let to = Self.name(q.destinations, test.feed) else { return nil }
                let deadline = g.int(6 * 12...17 * 12) * 300, window = g.int(1...20), maxMinutes = [30, 60, 120][g.int(0...2)]
                let first = deadline - (window - 1) * 60
                (q.after, q.before) = (max(0, first - (maxMinutes + 1) * 60 + 1), deadline)
                let reference = ReferenceRouter(test.feed, q), rides = reference.journeys().filter { $0.arrival <= deadline }
                let minutes: [Int?] = (0..<window).map { k in
                    let d = first + k * 60
                    let leave = [rides.filter { $0.arrival <= d }.map(\.departure).max(), reference.onFootSeconds.map { d - $0 }].compactMap { $0 }.max()
                    return leave.flatMap { (d - $0) / 60 <= maxMinutes ? (d - $0) / 60 : nil }
                }
                let percentiles = Array(1...99)
                let expected = percentiles.map { CPUBound.TravelTimeMatrixTests.percentile($0, minutes) }
                let got = try Self.cell(test, q, from: from, to: to, window: window, percentiles: percentiles, maxMinutes: maxMinutes, arriveBy: .asWritten(seconds: deadline))
                if expected.contains(where: { $0 != nil }) { reached += 1 }
                if reference.onFootSeconds != nil { onFoot += 1 }
                guard got != expected else { return (1, nil) }
                return (1, "\(q.describe(test.feed)) deadline \(deadline) window \(window) max \(maxMinutes): minutes \(minutes), matrix p1 \(String(describing: got[0])) p50 \(String(describing: got[49])) p99 \(String(describing: got[98]))")
            }
            print("matrix differential, towards deadlines: \(sweep.asked) pairs, \(reached) reached, \(onFoot) within a walk, \(sweep.differences.count) differ")
            for line in sweep.differences.prefix(10) { print("matrix differential: " + line) }
            #expect(sweep.differences.isEmpty, "\(sweep.differences.count) of \(sweep.asked) differ: \(sweep.differences.prefix(3))")
            #expect(sweep.asked >= 60 && reached > sweep.asked / 10 && onFoot > 0, "\(sweep.asked) pairs, \(reached) reached, \(onFoot) on foot")
        }
    }
}
