import Foundation
import TransitSupport

/// Several service days as one schedule, on the clock of one of them (the query's): the runs of
/// the day before that go on past its midnight, the day's own, and the days after, each day's
/// runs a copy of every pattern whose times are that day's moved by the seconds between the two
/// days' starts (noon minus 12 h of each: 23 or 25 hours across a clock change). A journey
/// leaving on the query's day may then ride any run of any of those days, as nigiri's search
/// over its interval does, and the search itself is unchanged: a pattern copy is a pattern.
///
/// The copies share their stops, flags and call lists with the day they copy; only times move.
/// Read in place, a copy's raw times (`times(of:_:)`) are its day's, and `timeShift` says what
/// to add: the one place the search reads raw times adds it (`RangeSearch.scanPatterns`); the
/// accessors (`departure`, `arrival`, `planned`) add it themselves. Where every day has the
/// same layout (`Day.sameLayoutEveryDay`: the timetable as planned), pattern `k * P + p` is
/// pattern `p` of day `k` (P patterns a day) and call `c * K + k` is call `c` of day `k`, so that
/// a stop's calls over every day stay one range. Days of real-time data each lay out their own
/// patterns (a delayed run moves to a new one): the days' patterns follow one another, and the
/// stops' calls over every day are merged once, when the days are put together.
package struct DaysSchedule<Day: Schedule>: Schedule {
    /// Each day's schedule, all of the same timetable (the same patterns and calls).
    package var days: [Day] { Array(UnsafeBufferPointer(start: held.days, count: held.count)) }
    /// The days, read in place: an array's element was copied out (a retain and a release of
    /// its timetable) at every call of the search's hottest loops.
    private let held: Held
    private let day0: UnsafeMutablePointer<Day>
    /// Seconds from the query's day's start to each day's.
    package let shifts: [Int32]
    /// Each day's number of days after the query's (−1 the day before).
    package let offsets: [Int]
    /// Each day's `earliestDeparture`, read in place (an array's retain at every copy of the
    /// schedule is what the search cannot afford).
    private let opening: UnsafeBufferPointer<Int32>
    private let perDay: Int
    private let count: Int
    /// `perDay` and `count` as divisors (`FastDivisor`: a pattern's or a call's index split at
    /// every read).
    private let patternsADay: FastDivisor
    private let dayCount: FastDivisor
    private let callsPerDay: Int
    /// Days of their own layouts: where each day's patterns and calls begin, and every stop's
    /// calls over all days (as `call(_:)` gives them), read in place (kept by `held`, so that
    /// the planned days' schedule, which never reads them, is copied no larger).
    private var patternStart: UnsafeBufferPointer<Int64> { held.patternStart.buffer }
    private var callStart: UnsafeBufferPointer<Int64> { held.callStart.buffer }
    private var stopCalls: UnsafeBufferPointer<Int32> { held.stopCalls.buffer }
    private var callPairs: UnsafeBufferPointer<Int32> { held.callPairs.buffer }

    /// `days` with their `offsets` from the query's day (one of them 0) and `shifts` in seconds.
    package init(_ days: [Day], offsets: [Int], shifts: [Int32]) {
        held = Held(days, merging: !Day.sameLayoutEveryDay)
        day0 = held.days
        self.offsets = offsets
        self.shifts = shifts
        perDay = days.first?.patternCount ?? 0
        callsPerDay = days.first?.callCount ?? 0
        count = days.count
        patternsADay = FastDivisor(max(1, perDay))
        dayCount = FastDivisor(max(1, days.count))
        opening = held.opening.buffer
    }

    /// Owns the days' memory, and where their layouts differ, the index over them.
    private final class Held {
        let days: UnsafeMutablePointer<Day>
        let count: Int
        let patternStart: Packed<Int64>
        let callStart: Packed<Int64>
        let stopCalls: Packed<Int32>
        let callPairs: Packed<Int32>
        let opening: Packed<Int32>

        init(_ days: [Day], merging: Bool) {
            count = days.count
            self.days = UnsafeMutablePointer<Day>.allocate(capacity: max(1, days.count))
            self.days.initialize(from: days, count: days.count)
            opening = Packed(days.map(\.earliestDeparture))
            var patterns: [Int64] = [0], calls: [Int64] = [0], start: [Int32] = [0], pairs: [Int32] = []
            if merging, let first = days.first {
                for day in days {
                    patterns.append((patterns.last ?? 0) + Int64(day.patternCount))
                    calls.append((calls.last ?? 0) + Int64(day.callCount))
                }
                // Every stop's calls, day after day: (pattern over all days, position) pairs.
                start = [Int32](repeating: 0, count: first.stopCount + 1)
                for y in 0..<first.stopCount {
                    for (k, day) in days.enumerated() {
                        let base = Int(patterns[k])
                        for c in day.calls(at: y) {
                            let (q, i) = day.call(c)
                            pairs.append(Int32(clamping: base + q))
                            pairs.append(Int32(clamping: i))
                        }
                    }
                    start[y + 1] = Int32(clamping: pairs.count / 2)
                }
            }
            (patternStart, callStart, stopCalls, callPairs) = (Packed(patterns), Packed(calls), Packed(start), Packed(pairs))
        }

        deinit {
            days.deinitialize(count: count)
            days.deallocate()
        }
    }

    /// The seconds between the start of service day `day` and the start of `day + offset`, in
    /// `zone`: 86,400 times the offset, less or more an hour across a clock change.
    package static func shift(from day: LocalDate, days offset: Int, in zone: TimeZone) -> Int32 {
        let a = ServiceClock(day: day, zone: zone).origin, b = ServiceClock(day: day.adding(days: offset), zone: zone).origin
        return Int32(clamping: Int(b.timeIntervalSince(a)))
    }

    /// The day pattern `q` is of (`Day.sameLayoutEveryDay` is known when the search is
    /// compiled: the planned timetable's arithmetic has no branch).
    @inline(__always) private func day(_ q: Int) -> Int {
        if Day.sameLayoutEveryDay { return perDay > 0 ? patternsADay.split(q).quotient : 0 }
        var k = 0
        while k + 2 < patternStart.count && Int(patternStart[k + 1]) <= q { k += 1 }
        return k
    }

    /// The day pattern `q` is of and its pattern that day, at once (one split where the layout
    /// is every day's).
    @inline(__always) private func split(_ q: Int) -> (day: Int, base: Int) {
        if Day.sameLayoutEveryDay {
            guard perDay > 0 else { return (0, q) }
            let (k, p) = patternsADay.split(q)
            return (k, p)
        }
        let k = day(q)
        return (k, q - Int(patternStart[k]))
    }

    package var stopCount: Int { (count > 0 ? day0[0].stopCount : 0) }
    package var patternCount: Int { Day.sameLayoutEveryDay ? perDay * count : Int(patternStart[patternStart.count - 1]) }
    package var callCount: Int { Day.sameLayoutEveryDay ? callsPerDay * count : Int(callStart[callStart.count - 1]) }
    @inline(__always) package func length(_ q: Int) -> Int { let (k, p) = split(q); return day0[k].length(p) }

    @inline(__always) package func firstCall(_ q: Int) -> Int {
        let (k, p) = split(q)
        return (Day.sameLayoutEveryDay ? k * callsPerDay : Int(callStart[k])) + day0[k].firstCall(p)
    }

    @inline(__always) package func stop(_ q: Int, _ i: Int) -> Int { let (k, p) = split(q); return day0[k].stop(p, i) }
    @inline(__always) package func canBoard(_ q: Int, _ i: Int) -> Bool { let (k, p) = split(q); return day0[k].canBoard(p, i) }
    @inline(__always) package func canAlight(_ q: Int, _ i: Int) -> Bool { let (k, p) = split(q); return day0[k].canAlight(p, i) }
    @inline(__always) package func runCount(_ q: Int) -> Int { let (k, p) = split(q); return day0[k].runCount(p) }
    @inline(__always) package func departure(_ q: Int, _ run: Int, _ i: Int) -> Int32 { let (k, p) = split(q); return day0[k].departure(p, run, i) &+ shifts[k] }
    @inline(__always) package func arrival(_ q: Int, _ run: Int, _ i: Int) -> Int32 { let (k, p) = split(q); return day0[k].arrival(p, run, i) &+ shifts[k] }
    @inline(__always) package func trip(_ q: Int, _ run: Int) -> Int { let (k, p) = split(q); return day0[k].trip(p, run) }
    @inline(__always) package func stops(of q: Int) -> UnsafeBufferPointer<Int32> { let (k, p) = split(q); return day0[k].stops(of: p) }
    @inline(__always) package func flags(of q: Int) -> UnsafeBufferPointer<UInt8> { let (k, p) = split(q); return day0[k].flags(of: p) }
    /// The day's own times: add `timeShift(q)`.
    @inline(__always) package func times(of q: Int, _ run: Int) -> UnsafeBufferPointer<Int32> { let (k, p) = split(q); return day0[k].times(of: p, run) }
    @inline(__always) package func timeShift(_ q: Int) -> Int32 { let (k, p) = split(q); return shifts[k] &+ day0[k].timeShift(p) }
    @inline(__always) package func opens(_ q: Int) -> Int64 { let k = day(q); return Int64(shifts[k]) + Int64(opening[k]) }
    @inline(__always) package func dayOffset(_ q: Int) -> Int { let (k, p) = split(q); return offsets[k] + day0[k].dayOffset(p) }

    @inline(__always) package func calls(at stop: Int) -> Range<Int> {
        guard Day.sameLayoutEveryDay else {
            guard stop >= 0, stop + 1 < stopCalls.count else { return 0..<0 }
            return Int(stopCalls[stop])..<Int(stopCalls[stop + 1])
        }
        let own = count > 0 ? day0[0].calls(at: stop) : 0..<0, k = count
        return own.lowerBound * k..<own.upperBound * k
    }

    @inline(__always) package func call(_ index: Int) -> (pattern: Int, position: Int) {
        guard Day.sameLayoutEveryDay else { return (Int(callPairs[2 * index]), Int(callPairs[2 * index + 1])) }
        let (c, k) = dayCount.split(index), (q, i) = day0[k].call(c)
        return (k * perDay + q, i)
    }

    package func planned(_ q: Int, _ run: Int, _ i: Int) -> (arrival: Int32, departure: Int32) {
        let (k, p) = split(q), (a, d) = day0[k].planned(p, run, i), shift = shifts[k]
        return (a &+ shift, d &+ shift)
    }

    package func instance(_ q: Int, _ run: Int) -> Int { let (k, p) = split(q); return day0[k].instance(p, run) }
    package func status(_ q: Int, _ run: Int, _ i: Int) -> RealtimeStatus { let (k, p) = split(q); return day0[k].status(p, run, i) }
    package func plannedFlags(of q: Int) -> UnsafeBufferPointer<UInt8> { let (k, p) = split(q); return day0[k].plannedFlags(of: p) }

    /// Days of one layout share one Dijkstra (`TargetBounds(days:)`); days of their own, one over
    /// every day's patterns.
    package func targetBounds(edges: TransferEdges, destinations: [(stop: Int, start: Int32)]) -> TargetBounds {
        Day.sameLayoutEveryDay ? TargetBounds(days: self, edges: edges, destinations: destinations)
            : TargetBounds(self, edges: edges, destinations: destinations)
    }

    /// Bounds by straight lines and on the import's graph are the timetable's, whatever the day:
    /// the first day's, where every day keeps to them.
    package func straightLineBounds(destinations: [Int], changes: Int) -> TargetBounds {
        count > 0 && days.allSatisfy(\.keepsToStraightLines) ? day0[0].straightLineBounds(destinations: destinations, changes: changes) : .none
    }

    package func graphBounds(edges: TransferEdges, destinations: [(stop: Int, start: Int32)], within limit: Int64) -> TargetBounds? {
        count > 0 && days.allSatisfy(\.keepsToBoundGraph) ? day0[0].graphBounds(edges: edges, destinations: destinations, within: limit) : nil
    }
}
