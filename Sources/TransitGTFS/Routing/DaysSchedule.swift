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
/// accessors (`departure`, `arrival`, `planned`) add it themselves. Pattern `k * P + p` is
/// pattern `p` of day `k` (P patterns a day); call `c * K + k` is call `c` of day `k`, so that a
/// stop's calls over every day stay one range.
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
    private let perDay: Int
    private let count: Int
    private let callsPerDay: Int

    /// `days` with their `offsets` from the query's day (one of them 0) and `shifts` in seconds.
    package init(_ days: [Day], offsets: [Int], shifts: [Int32]) {
        held = Held(days)
        day0 = held.days
        self.offsets = offsets
        self.shifts = shifts
        perDay = days.first?.patternCount ?? 0
        callsPerDay = days.first?.callCount ?? 0
        count = days.count
    }

    /// Owns the days' memory.
    private final class Held {
        let days: UnsafeMutablePointer<Day>
        let count: Int

        init(_ days: [Day]) {
            count = days.count
            self.days = UnsafeMutablePointer<Day>.allocate(capacity: max(1, days.count))
            self.days.initialize(from: days, count: days.count)
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

    @inline(__always) private func day(_ q: Int) -> Int { perDay > 0 ? q / perDay : 0 }
    @inline(__always) private func base(_ q: Int) -> Int { perDay > 0 ? q % perDay : q }

    package var stopCount: Int { (count > 0 ? day0[0].stopCount : 0) }
    package var patternCount: Int { perDay * count }
    package var callCount: Int { callsPerDay * count }
    @inline(__always) package func length(_ q: Int) -> Int { day0[day(q)].length(base(q)) }
    @inline(__always) package func firstCall(_ q: Int) -> Int { day(q) * callsPerDay + day0[day(q)].firstCall(base(q)) }
    @inline(__always) package func stop(_ q: Int, _ i: Int) -> Int { day0[day(q)].stop(base(q), i) }
    @inline(__always) package func canBoard(_ q: Int, _ i: Int) -> Bool { day0[day(q)].canBoard(base(q), i) }
    @inline(__always) package func canAlight(_ q: Int, _ i: Int) -> Bool { day0[day(q)].canAlight(base(q), i) }
    @inline(__always) package func runCount(_ q: Int) -> Int { day0[day(q)].runCount(base(q)) }
    @inline(__always) package func departure(_ q: Int, _ run: Int, _ i: Int) -> Int32 { day0[day(q)].departure(base(q), run, i) &+ shifts[day(q)] }
    @inline(__always) package func arrival(_ q: Int, _ run: Int, _ i: Int) -> Int32 { day0[day(q)].arrival(base(q), run, i) &+ shifts[day(q)] }
    @inline(__always) package func trip(_ q: Int, _ run: Int) -> Int { day0[day(q)].trip(base(q), run) }
    @inline(__always) package func stops(of q: Int) -> UnsafeBufferPointer<Int32> { day0[day(q)].stops(of: base(q)) }
    @inline(__always) package func flags(of q: Int) -> UnsafeBufferPointer<UInt8> { day0[day(q)].flags(of: base(q)) }
    /// The day's own times: add `timeShift(q)`.
    @inline(__always) package func times(of q: Int, _ run: Int) -> UnsafeBufferPointer<Int32> { day0[day(q)].times(of: base(q), run) }
    @inline(__always) package func timeShift(_ q: Int) -> Int32 { shifts[day(q)] &+ day0[day(q)].timeShift(base(q)) }
    @inline(__always) package func dayOffset(_ q: Int) -> Int { offsets[day(q)] + day0[day(q)].dayOffset(base(q)) }

    @inline(__always) package func calls(at stop: Int) -> Range<Int> {
        let own = count > 0 ? day0[0].calls(at: stop) : 0..<0, k = count
        return own.lowerBound * k..<own.upperBound * k
    }

    @inline(__always) package func call(_ index: Int) -> (pattern: Int, position: Int) {
        let k = count, (q, i) = day0[index % k].call(index / k)
        return ((index % k) * perDay + q, i)
    }

    package func planned(_ q: Int, _ run: Int, _ i: Int) -> (arrival: Int32, departure: Int32) {
        let (a, d) = day0[day(q)].planned(base(q), run, i), shift = shifts[day(q)]
        return (a &+ shift, d &+ shift)
    }

    package func instance(_ q: Int, _ run: Int) -> Int { day0[day(q)].instance(base(q), run) }
    package func status(_ q: Int, _ run: Int, _ i: Int) -> RealtimeStatus { day0[day(q)].status(base(q), run, i) }
    package func plannedFlags(of q: Int) -> UnsafeBufferPointer<UInt8> { day0[day(q)].plannedFlags(of: base(q)) }

    package func targetBounds(edges: TransferEdges, destinations: [(stop: Int, start: Int32)]) -> TargetBounds {
        TargetBounds(days: self, edges: edges, destinations: destinations)
    }

    /// Bounds by straight lines and on the import's graph hold whatever the day: the first day's.
    package func straightLineBounds(destinations: [Int], changes: Int) -> TargetBounds {
        count > 0 ? day0[0].straightLineBounds(destinations: destinations, changes: changes) : .none
    }

    package func graphBounds(edges: TransferEdges, destinations: [(stop: Int, start: Int32)], within limit: Int64) -> TargetBounds? {
        count > 0 ? day0[0].graphBounds(edges: edges, destinations: destinations, within: limit) : nil
    }
}
