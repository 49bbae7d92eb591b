import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

extension CPUBound {
    /// The router on realtime data against the brute-force reference: random feeds, random trip
    /// updates (cancellations, delays early and late at any call, skipped calls), applied on one
    /// side by `TripUpdateApplier` and `RealtimeSchedule`, and on the other written straight into
    /// the reference's runs from docs/realtime.md's rules as this file restates them:
    /// - CANCELED: the run is gone.
    /// - a delay `d` at call k (departure only): calls k… move by `d` (rules 13, 14); calls before
    ///   k keep their times, except that one that would leave after the next call arrives (or at
    ///   that instant, where the schedule has them apart) moves by `d` too (rule 15, revised).
    /// - SKIPPED at call j: neither boarding nor alighting there; its times move with the delay.
    /// Same Pareto set, and every journey rideable on the changed runs.
    @Suite struct RealtimeDifferentialTests {
        /// One query on `test` with random updates (`disturb`) laid over both sides: how many
        /// journeys the reference found, and the difference, if any (`DifferentialSweep`'s ask).
        static func compare(_ test: DifferentialCase, _ q: ReferenceRouter.Query, changed: inout Int, _ g: inout SeededGenerator) -> (compared: Int, difference: String?) {
            var reference = ReferenceRouter(test.feed, q)
            let (message, runs, count) = disturb(reference.runs, test.feed, day: q.day, &g)
            reference.runs = runs
            changed += count
            return compare(test, q, message, reference)
        }

        /// The router on `message` applied against `reference`, whose runs have the same changes made.
        static func compare(_ test: DifferentialCase, _ q: ReferenceRouter.Query, _ message: FeedMessage, _ reference: ReferenceRouter) -> (compared: Int, difference: String?) {
            let updates = TripUpdateApplier.apply(message, to: test.timetable, now: q.day * 86_400, source: "test")
            let expected = reference.answer()
            let (got, problems) = test.routed(q, updates: updates, reference: reference)
            guard got != expected || !problems.isEmpty || !updates.notices.isEmpty else { return (expected.count, nil) }
            let missing = expected.filter { !got.contains($0) }, extra = got.filter { !expected.contains($0) }
            return (expected.count, "query \(q.describe(test.feed)) over days \(q.days): missing \(missing), extra \(extra), problems \(problems), notices \(updates.notices)")
        }

        /// On one random feed, and on two at once (the updates name the combination's `feed:` ids).
        @Test(arguments: [false, true]) func onRealtimeDataTheRouterFindsWhatTheReferenceFinds(pairs: Bool) throws {
            var changed = 0
            let sweep = try DifferentialSweep(queries: 200, seed: 20_261_124, salt: 37, pairs: pairs) { test, g in
                let q = test.query(&g)
                return Self.compare(test, q, changed: &changed, &g)
            }
            print("realtime differential\(pairs ? " over two feeds" : ""): \(sweep.asked) queries, \(sweep.compared) journeys, \(changed) runs changed, \(sweep.differences.count) differ")
            for line in sweep.differences.prefix(10) { print("realtime differential: " + line) }
            #expect(sweep.differences.isEmpty, "\(sweep.differences.count) of \(sweep.asked) queries differ: \(sweep.differences.prefix(3))")
            // The updates must change runs and the queries find journeys, or the comparison says little.
            // (Over two feeds most queries go from one feed to the other, and fewer find a journey.)
            #expect(sweep.asked < 100 || (sweep.compared > sweep.asked / (pairs ? 4 : 2) && changed > sweep.asked))
        }

        /// Across days (issue 64): each day's runs disturbed on their own, their updates naming
        /// their service day (start_date, SEMANTICS.md rule 8), one message for all; the router
        /// reads each day's with its runs (`Router.realtimeDays`), the reference the disturbed runs
        /// moved onto the query's clock. Late runs (to 46:00) and windows from 00:00 to 30:00, so
        /// that the day before's delayed runs and the next day's canceled or early ones decide.
        @Test func acrossDaysOnRealtimeDataTheRouterFindsWhatTheReferenceFinds() throws {
            var changed = 0, otherDays = 0
            let sweep = try DifferentialSweep(queries: 200, seed: 20_261_207, salt: 65, lateRuns: true) { test, g in
                // (Vias too, at times: the layered network over days of their own layouts.)
                let q = AcrossDaysDifferentialTests.query(test, &g)
                var reference = ReferenceRouter(test.feed, q)
                var message = FeedMessage(header: FeedMessage.FeedHeader(version: "2.0")), runs: [ReferenceRouter.Run] = []
                for offset in q.days {
                    var own = q
                    (own.day, own.days) = (q.day + offset, 0...0)
                    let (part, disturbed, count) = Self.disturb(ReferenceRouter(test.feed, own).runs, test.feed, day: own.day, &g)
                    let moved = ReferenceRouter.dayStart(own.day, zone: test.feed.zone) - ReferenceRouter.dayStart(q.day, zone: test.feed.zone)
                    runs += disturbed.map { ReferenceRouter.Run(trip: $0.trip, calls: ReferenceRouter.moved($0.calls, by: moved)) }
                    for var entity in part.entities {
                        entity.id = "\(message.entities.count)"
                        message.entities.append(entity)
                    }
                    changed += count
                    if offset != 0 { otherDays += count }
                }
                reference.runs = runs
                return Self.compare(test, q, message, reference)
            }
            print("realtime differential across days: \(sweep.asked) queries, \(sweep.compared) journeys, \(changed) runs changed (\(otherDays) of other days than the query's), \(sweep.differences.count) differ")
            for line in sweep.differences.prefix(10) { print("realtime differential across days: " + line) }
            #expect(sweep.differences.isEmpty, "\(sweep.differences.count) of \(sweep.asked) queries differ: \(sweep.differences.prefix(3))")
            #expect(sweep.asked < 100 || (sweep.compared > sweep.asked / 2 && otherDays > sweep.asked))
        }

        /// Every trip the applier leaves updated keeps its order (rules 15 and 16, revised
        /// 2026-11-25): predicted times never decrease along the trip, and two different stops the
        /// schedule has apart never share one instant (no ride of 0 s). On messier updates than the
        /// reference restates: one to four stop updates a trip, each an explicit time or a delay,
        /// early or late, on arrival, departure or both, some SKIPPED; what cannot be laid out so is
        /// rejected whole, and counted.
        @Test func appliedTripsNeverRunBackwardsNorShareAnInstant() throws {
            var trips = 0, rejected = 0
            let sweep = try DifferentialSweep(queries: 300, seed: 20_261_125, salt: 43) { test, g in
                let q = test.query(&g)
                let runs = ReferenceRouter(test.feed, q).runs
                var message = FeedMessage(header: FeedMessage.FeedHeader(version: "2.0"))
                let date = LocalDate(dayNumber: q.day).iso.replacingOccurrences(of: "-", with: "")
                let origin = ServiceClock(day: LocalDate(dayNumber: q.day), zone: test.timetable.zone)
                for run in runs where g.int(0...2) > 0 {
                    let trip = test.feed.trips[run.trip], n = run.calls.count
                    var descriptor = FeedMessage.TripDescriptor(tripID: trip.id, startDate: date)
                    if !trip.windows.isEmpty { descriptor.startTime = ClockTime.gtfs(run.calls[0].departure) }
                    let positions = Set((0..<g.int(1...4)).map { _ in g.int(0...n - 1) }).sorted()
                    var update = FeedMessage.TripUpdate(trip: descriptor)
                    update.stopTimeUpdates = positions.map { k in
                        var stu = FeedMessage.StopTimeUpdate(stopSequence: UInt64(test.feed.stopSequence(k)))
                        if g.int(0...9) == 0 { stu.scheduleRelationship = 1; return stu }
                        func event(_ planned: Int) -> FeedMessage.StopTimeEvent {
                            let shift = g.int(-900...1800)
                            if g.int(0...1) == 0 { return FeedMessage.StopTimeEvent(delay: Int32(shift)) }
                            return FeedMessage.StopTimeEvent(time: Int64(origin.instant(planned + shift).timeIntervalSince1970))
                        }
                        switch g.int(0...2) {
                        case 0: stu.arrival = event(run.calls[k].arrival)
                        case 1: stu.departure = event(run.calls[k].departure)
                        default: (stu.arrival, stu.departure) = (event(run.calls[k].arrival), event(run.calls[k].departure))
                        }
                        return stu
                    }
                    message.entities.append(FeedMessage.FeedEntity(id: "\(message.entities.count)", tripUpdate: update))
                }
                let updates = TripUpdateApplier.apply(message, to: test.timetable, now: q.day * 86_400, source: "test")
                rejected += updates.notices.filter { $0.contains("go backwards") }.count
                for instance in updates.instances where instance.status == .updated {
                    trips += 1
                    let calls = instance.calls
                    for i in calls.indices {
                        guard calls[i].arrival <= calls[i].departure else { return (1, "\(instance.tripID): call \(i) leaves before it arrives") }
                        guard i + 1 < calls.count else { continue }
                        let leaves = calls[i].departure, next = calls[i + 1].arrival
                        if leaves > next { return (1, "\(instance.tripID): call \(i + 1) arrives before call \(i) leaves") }
                        if leaves == next && calls[i].stop != calls[i + 1].stop && calls[i].plannedDeparture != calls[i + 1].plannedArrival {
                            return (1, "\(instance.tripID): calls \(i) and \(i + 1) on one instant, planned apart")
                        }
                    }
                }
                return (1, nil)
            }
            print("realtime order: \(sweep.asked) queries' days, \(trips) trips updated, \(rejected) sources with trips rejected as going backwards, \(sweep.differences.count) violations")
            #expect(sweep.differences.isEmpty, "\(sweep.differences.prefix(3))")
            #expect(sweep.asked < 100 || trips > sweep.asked)
        }

        /// Random trip updates for the runs of `day`, the message that says them, and the runs as
        /// they then are.
        static func disturb(_ runs: [ReferenceRouter.Run], _ feed: RandomFeed, day: Int,
                            _ g: inout SeededGenerator) -> (FeedMessage, [ReferenceRouter.Run], Int) {
            var message = FeedMessage(header: FeedMessage.FeedHeader(version: "2.0"))
            var out: [ReferenceRouter.Run] = []
            var changed = 0
            let date = LocalDate(dayNumber: day).iso.replacingOccurrences(of: "-", with: "")
            // Two runs of one trip starting at the same second (overlapping frequencies.txt windows)
            // are one instance to GTFS-Realtime, which cannot tell them apart: left as planned.
            var starts: [[Int]: Int] = [:]
            for run in runs { starts[[run.trip, run.calls[0].departure], default: 0] += 1 }
            for run in runs {
                let trip = feed.trips[run.trip]
                guard starts[[run.trip, run.calls[0].departure]] == 1 else {
                    out.append(run)
                    continue
                }
                var descriptor = FeedMessage.TripDescriptor(tripID: trip.id, startDate: date)
                if !trip.windows.isEmpty { descriptor.startTime = ClockTime.gtfs(run.calls[0].departure) }
                let n = run.calls.count
                var update = FeedMessage.TripUpdate(trip: descriptor)
                var calls = run.calls
                let roll = g.int(0...99)
                if roll < 10 {
                    update.trip?.scheduleRelationship = 3  // CANCELED
                    message.entities.append(FeedMessage.FeedEntity(id: "\(message.entities.count)", tripUpdate: update))
                    changed += 1
                    continue
                }
                var k: Int?, skip: Int?
                if roll < 55 { k = g.int(0...n - 1) }
                if roll >= 40 && roll < 70 && n >= 3 { skip = g.int(1...n - 2) }
                if let s = skip, let d = k, s == d { skip = nil }
                var stus: [FeedMessage.StopTimeUpdate] = []
                if let k {
                    let delay = g.int(-300...1200)
                    for i in k..<n {
                        calls[i].arrival += delay
                        calls[i].departure += delay
                    }
                    // Rule 15 (revised): back from k, a call that would leave after the next one
                    // arrives (or at that instant, where the schedule has them apart) moves by the
                    // same delay, and so on until one fits.
                    for i in stride(from: k - 1, through: 0, by: -1) {
                        let leaves = calls[i].departure, next = calls[i + 1].arrival
                        guard leaves > next || (leaves == next && run.calls[i].departure != run.calls[i + 1].arrival) else { break }
                        calls[i].arrival += delay
                        calls[i].departure += delay
                    }
                    var stu = FeedMessage.StopTimeUpdate(stopSequence: UInt64(feed.stopSequence(k)))
                    stu.departure = FeedMessage.StopTimeEvent(delay: Int32(delay))
                    stus.append(stu)
                }
                if let skip {
                    calls[skip].noPickup = true
                    calls[skip].noDropOff = true
                    stus.append(FeedMessage.StopTimeUpdate(stopSequence: UInt64(feed.stopSequence(skip)), scheduleRelationship: 1))
                }
                if !stus.isEmpty {
                    update.stopTimeUpdates = stus.sorted { ($0.stopSequence ?? 0) < ($1.stopSequence ?? 0) }
                    message.entities.append(FeedMessage.FeedEntity(id: "\(message.entities.count)", tripUpdate: update))
                    changed += 1
                }
                out.append(ReferenceRouter.Run(trip: run.trip, calls: calls))
            }
            return (message, out, changed)
        }
    }
}
