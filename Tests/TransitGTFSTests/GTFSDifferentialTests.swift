import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

extension CPUBound {
    /// The router against the brute-force reference (Tests/Shared/Reference) on random
    /// feeds: the same Pareto set of (departure, arrival, changes), and every journey rideable.
    /// CI asks 300 queries from a fixed seed; `scripts/differential N [SEED]` asks more, with
    /// TRANSIT_DIFFERENTIAL_QUERIES and TRANSIT_DIFFERENTIAL_SEED.
    @Suite struct GTFSDifferentialTests {
        @Test func theRouterFindsWhatTheReferenceFinds() throws {
            let dump = ProcessInfo.processInfo.environment["TRANSIT_DIFFERENTIAL_DUMP"]
            // `scripts/same-output --differential N`: each feed written, each query as a command
            // line for the binary, to compare two builds' answers byte for byte.
            let commands = ProcessInfo.processInfo.environment["TRANSIT_DIFFERENTIAL_COMMANDS"]
            var lines: [String] = []
            // Journeys that start or end with a walk from or to a stop named (issue 43): the
            // walks at the ends were tried.
            var walked = 0
            // Answers holding a journey on foot, and queries asked again with twice the walk (issue 65).
            var onFoot = 0, doubled = 0
            // Journeys the same-ride rule boarded or left elsewhere than the search found them (issue 66).
            var moved = 0
            let sweep = try DifferentialSweep(queries: 300, seed: 20_261_123, salt: 31) { test, g in
                let q = test.query(&g)
                walked += Self.walkingAtTheEnds(test, q)
                if let commands {
                    let directory = commands + "/seed-\(test.seed)"
                    if !FileManager.default.fileExists(atPath: directory) {
                        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                        try test.feed.write(to: directory)
                    }
                    if let line = test.commandLine(q, feed: "differential/seed-\(test.seed)") { lines.append(line) }
                }
                let expected = ReferenceRouter(test.feed, q).answer()
                var (got, problems) = test.routed(q)
                if let walk = q.walkMeters, walk > 0 {
                    // More walking never arrives later: the whole answer's first arrival.
                    var more = q
                    more.walkMeters = walk * 2
                    let first = got.map(\.arrival).min(), then = Router(test.timetable, test.routerQuery(more)).journeys().map(\.arrival).min()
                    if let first, (then ?? Int.max) > first { problems.append("twice the walk arrives at \(then.map(Trip.clock) ?? "none"), not by \(Trip.clock(first))") }
                    doubled += 1
                }
                if test.routerQuery(q).onFoot != nil { onFoot += 1 }
                var found = test.routerQuery(q)
                found.walksLeast = false
                let searched = Router(test.timetable, found).journeys()
                moved += Router(test.timetable, test.routerQuery(q)).journeys().filter { j in !searched.contains { $0.legs == j.legs } }.count
                guard got != expected || !problems.isEmpty else { return (expected.count, nil) }
                // The feed, for a look with the binary: `transit gtfs trips --feed DIR/seed-N …`.
                if let dump {
                    let directory = dump + "/seed-\(test.seed)"
                    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                    try test.feed.write(to: directory)
                }
                let missing = expected.filter { !got.contains($0) }, extra = got.filter { !expected.contains($0) }
                return (expected.count, "query \(q.describe(test.feed)): missing \(missing), extra \(extra), problems \(problems)")
            }
            if let commands { try (lines.joined(separator: "\n") + "\n").write(toFile: commands + "/commands", atomically: true, encoding: .utf8) }
            if !sweep.differences.isEmpty {
                print("differential: \(sweep.differences.count) of \(sweep.asked) queries differ; seeds \(sweep.seeds)")
                for line in sweep.differences.prefix(20) { print("differential: " + line) }
            } else {
                print("differential: \(sweep.asked) queries on seeds \(sweep.seeds), \(sweep.compared) journeys (\(walked) walk at an end), "
                      + "\(onFoot) answers with a journey on foot, \(doubled) asked again with twice the walk, "
                      + "\(moved) journeys the same ride walking less, no difference")
            }
            #expect(sweep.asked < 100 || moved > 0, "no journey is the same ride walking less")
            #expect(sweep.asked < 100 || onFoot > 0, "no answer holds a journey on foot")
            #expect(sweep.asked < 100 || walked > sweep.asked / 10, "only \(walked) journeys walk at an end")
            #expect(sweep.differences.isEmpty, "\(sweep.differences.count) of \(sweep.asked) queries differ: \(sweep.differences.prefix(3))")
            // The queries must find journeys, or the comparison says little.
            #expect(sweep.asked < 100 || sweep.compared > sweep.asked / 2)
        }

        /// Two random feeds on the same ground, ids clashing, searched as one: links between them
        /// within a random `--link`, each feed's transfers.txt rows and services its own.
        @Test func overTwoFeedsTheRouterFindsWhatTheReferenceFinds() throws {
            var crossing = 0, walked = 0
            let sweep = try DifferentialSweep(queries: 300, seed: 20_261_124, salt: 37, pairs: true) { test, g in
                let q = test.query(&g)
                walked += Self.walkingAtTheEnds(test, q)
                let expected = ReferenceRouter(test.feed, q).answer()
                var (got, problems) = test.routed(q)
                // A longer --link never arrives later (issue 65): the whole answer's first arrival.
                var wider = q
                wider.linkMeters = q.linkMeters * 2
                if let first = got.map(\.arrival).min(), let then = Optional(Router(test.timetable, test.routerQuery(wider)).journeys().map(\.arrival).min()),
                   (then ?? Int.max) > first {
                    problems.append("twice the link arrives at \(then.map(Trip.clock) ?? "none"), not by \(Trip.clock(first))")
                }
                // Journeys that ride both feeds: the links were tried.
                let t = test.timetable
                crossing += Router(t, test.routerQuery(q)).journeys().filter { j in Set(j.legs.filter(\.isRide).map { t.feed(ofStop: $0.from) }).count > 1 }.count
                guard got != expected || !problems.isEmpty else { return (expected.count, nil) }
                let missing = expected.filter { !got.contains($0) }, extra = got.filter { !expected.contains($0) }
                return (expected.count, "query \(q.describe(test.feed)) link \(Int(q.linkMeters)): missing \(missing), extra \(extra), problems \(problems)")
            }
            print("differential over two feeds: \(sweep.asked) queries on seeds \(sweep.seeds), \(sweep.compared) journeys (\(crossing) ride both feeds, \(walked) walk at an end), \(sweep.differences.count) differ")
            #expect(sweep.differences.isEmpty, "\(sweep.differences.count) of \(sweep.asked) queries differ: \(sweep.differences.prefix(3))")
            #expect(sweep.asked < 100 || sweep.compared > sweep.asked / 2)
            #expect(sweep.asked < 100 || crossing > sweep.asked / 10, "only \(crossing) journeys ride both feeds")
        }

        /// The rider's needs (issue 46) drawn at random into every query, one feed and two: step-free,
        /// bikes, modes, a route avoided, a margin at every change, up to two vias with stays. The
        /// answers must be the reference's, and the needs must have changed many of them.
        @Test(arguments: [false, true]) func theRouterHonoursTheRidersNeeds(pairs: Bool) throws {
            var changed = 0, through = 0
            let sweep = try DifferentialSweep(queries: 300, seed: 20_261_128, salt: 43, pairs: pairs) { test, g in
                var q = test.query(&g)
                test.drawNeeds(&q, &g)
                let expected = ReferenceRouter(test.feed, q).answer()
                var plain = q
                plain.needs = .init()
                if ReferenceRouter(test.feed, plain).answer() != expected { changed += 1 }
                if !q.needs.vias.isEmpty && !expected.isEmpty { through += 1 }
                let (got, problems) = test.routed(q)
                return test.outcome(q, expected: expected, got: got, problems: problems)
            }
            print("differential with rider's needs\(pairs ? " over two feeds" : ""): \(sweep.asked) queries on seeds \(sweep.seeds), \(sweep.compared) journeys, "
                  + "\(changed) answers changed by the needs, \(through) through vias, \(sweep.differences.count) differ")
            for line in sweep.differences.prefix(20) { print("differential: " + line) }
            #expect(sweep.differences.isEmpty, "\(sweep.differences.count) of \(sweep.asked) queries differ: \(sweep.differences.prefix(3))")
            #expect(sweep.asked < 100 || changed > sweep.asked / 8, "the needs changed \(changed) answers")
            #expect(sweep.asked < 100 || through > sweep.asked / 40, "only \(through) queries through vias found journeys")
        }

        /// The cap on each stop's walks (issue 41, item 2), met: compiled with a cap of 1 (the
        /// compiler's is 200, which a feed of nine stops never meets), the router and the
        /// reference keep the same nearest, ties by index, and find the same journeys. Queries
        /// whose walks reach past the 300 m stored are skipped (the cap there is the compiler's).
        @Test func theRouterKeepsTheCapOnWalksAsTheReferenceDoes() throws {
            // Answers the cap changed: the reference without it finds other journeys.
            var changed = 0
            let sweep = try DifferentialSweep(queries: 200, seed: 20_261_127, salt: 41, walkLimit: 1) { test, g in
                let q = test.query(&g)
                guard max(q.walkMeters ?? 0, q.linkMeters) <= TimetableCombination.linkRadius, q.walkMeters != nil else { return nil }
                let expected = ReferenceRouter(test.feed, q).answer()
                var uncapped = test.feed
                uncapped.walkLimit = TimetableCombination.maxWalksPerStop
                if ReferenceRouter(uncapped, q).answer() != expected { changed += 1 }
                let (got, problems) = test.routed(q)
                return test.outcome(q, expected: expected, got: got, problems: problems)
            }
            print("differential with 1 walk a stop: \(sweep.asked) queries on seeds \(sweep.seeds), \(sweep.compared) journeys, \(changed) answers changed by the cap, \(sweep.differences.count) differ")
            #expect(sweep.differences.isEmpty, "\(sweep.differences.count) of \(sweep.asked) queries differ: \(sweep.differences.prefix(3))")
            #expect(changed >= 5, "the cap changed \(changed) of \(sweep.asked) answers")
        }

        /// How many of the router's journeys for `q` start or end with a walk from or to a stop.
        static func walkingAtTheEnds(_ test: DifferentialCase, _ q: ReferenceRouter.Query) -> Int {
            Router(test.timetable, test.routerQuery(q)).journeys().filter { j in
                guard let first = j.legs.first, let last = j.legs.last else { return false }
                return !first.isRide && first.from >= 0 || !last.isRide && last.to >= 0
            }.count
        }

        @Test func theTripIndexListsEveryRunOnceUnderItsTrip() throws {
            for seed in UInt64(1)...40 {
                let t = try DifferentialCase(seed: seed).timetable
                var seen = Set<[Int]>()
                for trip in 0..<t.tripCount {
                    let runs = t.runs(ofTrip: trip)
                    for run in runs {
                        #expect(t.trip(pattern: run.pattern, row: run.row) == trip, "seed \(seed)")
                        #expect(seen.insert([run.pattern, run.row]).inserted, "seed \(seed)")
                    }
                    let starts = runs.map { t.runStart(pattern: $0.pattern, row: $0.row) }
                    #expect(starts == starts.sorted(), "seed \(seed)")
                }
                #expect(seen.count == t.patternTrips.count, "seed \(seed): every run once")
            }
        }

        @Test func theReferenceKnowsTheRules() throws {
            // One case worked by hand: A→X on t1 (08:00–08:10), X→B on t2 (08:12–08:20) with a
            // 2-minute change, or t3 direct at 08:05–08:40.
            var feed = RandomFeed(seed: 1)
            feed.stops = ["A", "X", "B"].enumerated().map { .init(id: $1, parent: nil, isStation: false, latitude: 37 + Double($0) * 0.01, longitude: -122) }
            feed.routes = ["R"]
            feed.services = [.init(id: "S", weekdays: Array(repeating: true, count: 7), start: 0, end: 100_000, added: [], removed: [])]
            func call(_ stop: Int, _ minutes: Int) -> RandomFeed.Call {
                .init(stop: stop, arrival: minutes * 60, departure: minutes * 60, untimed: false, noPickup: false, noDropOff: false)
            }
            feed.trips = [.init(id: "t1", route: 0, service: 0, calls: [call(0, 480), call(1, 490)], windows: []),
                          .init(id: "t2", route: 0, service: 0, calls: [call(1, 492), call(2, 500)], windows: []),
                          .init(id: "t3", route: 0, service: 0, calls: [call(0, 485), call(2, 520)], windows: [])]
            feed.transfers = []
            func answer(_ minTransfer: Int, transfers: Int = 2) -> [String] {
                ReferenceRouter(feed, .init(origins: [0], destinations: [2], day: RandomFeed.days[0], maxTransfers: transfers, minTransfer: minTransfer))
                    .journeys().map(\.description)
            }
            #expect(answer(120) == ["08:00-08:20 x1", "08:05-08:40 x0"])
            #expect(answer(121) == ["08:05-08:40 x0"])
            #expect(answer(0, transfers: 0) == ["08:05-08:40 x0"])
            // A forbidding row by trips beats the stops-only row.
            feed.transfers = [.init(fromStop: 1, toStop: 1, type: 1), .init(fromStop: 1, toStop: 1, fromTrip: 0, toTrip: 1, type: 3)]
            #expect(answer(0) == ["08:05-08:40 x0"])
            // A frequency window: runs every 10 minutes from 09:00, the template itself not running.
            feed.trips[2].windows = [.init(start: 9 * 3600, end: 9 * 3600 + 1200, headway: 600, exact: 1)]
            #expect(answer(0) == ["09:00-09:35 x0", "09:10-09:45 x0"])
        }
    }
}
