import Foundation
import TransitSupport

/// Per round and stop, the arrival by vehicle and the leg that made it, in slots for the stops a
/// search reaches: a query touches a few hundred stops of a feed's hundred thousand, and a
/// process answers one query, so it should not pay to fill arrays for all of them (the slot
/// memory is reserved for every stop but written, and so paged in, only as slots are made).
/// Labels are never reset between departures: what a later departure reaches, an earlier one
/// reaches too. The search's per-stop and per-pattern scratch lives here as well.
///
/// A class of fixed buffers, not arrays in a struct: the hot loops write them millions of
/// times, and an array in a struct pays a uniqueness check (and risks a copy) at each write.
/// Every index is a stop or pattern of the validated timetable, or a slot made here.
package final class SearchState {
    /// The leg that set a label: the run, where it was boarded, and the stop it came from.
    package struct Label {
        package var pattern: Int32 = -1
        package var run: Int32 = -1
        package var boardPosition: Int32 = -1
        package var alightPosition: Int32 = -1
        package var fromStop: Int32 = -1
        /// Rides in the journey this label ends (0: the origin).
        package var legs: Int32 = 0
        /// The class arrival at `fromStop` it boarded from (see `RangeSearch.Arrival`); -1: the
        /// stop's label itself.
        package var fromArrival: Int32 = -1
    }

    package static let unreached = Int32.max

    /// Entries per slot: rounds 0 ... rounds.
    package let stride: Int
    package let slotOf: UnsafeMutableBufferPointer<Int32>
    private var slotCount = 0
    package let arrivals: UnsafeMutableBufferPointer<Int32>
    /// The earliest time each stop was ready for boarding, per round, over every departure so far.
    package let bestReady: UnsafeMutableBufferPointer<Int32>
    package let labels: UnsafeMutableBufferPointer<Label>

    // Per stop: where its boardings of this round start (linked entries, -1: none) and its one
    // exact-change entry; stamps that keep the marked lists free of repeats; the query's ends.
    package let head: UnsafeMutableBufferPointer<Int32>
    package let exactEntryAt: UnsafeMutableBufferPointer<Int32>
    package let markedStamp: UnsafeMutableBufferPointer<Int32>
    package let changedStamp: UnsafeMutableBufferPointer<Int32>
    package let isOrigin: UnsafeMutableBufferPointer<Bool>
    package let isDestination: UnsafeMutableBufferPointer<Bool>
    // Per pattern: queued from this position (-1: not queued), and its last position with a boarding.
    package let queued: UnsafeMutableBufferPointer<Int32>
    package let queuedLast: UnsafeMutableBufferPointer<Int32>
    /// Per stop: its first class arrival (-1: none), and whether its changes depend on the trip
    /// arrived on (0 not known yet, 1 no, 2 yes).
    package let arrivalHead: UnsafeMutableBufferPointer<Int32>
    package let fromRules: UnsafeMutableBufferPointer<UInt8>

    package init(stops: Int, patterns: Int, rounds: Int) {
        stride = rounds + 1
        func filled<T>(_ count: Int, _ value: T) -> UnsafeMutableBufferPointer<T> {
            let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: max(1, count))
            buffer.initialize(repeating: value)
            return buffer
        }
        slotOf = filled(stops, -1)
        // Reserved, not written: `slot` writes a stop's entries when it is first reached.
        arrivals = .allocate(capacity: max(1, stops * stride))
        bestReady = .allocate(capacity: max(1, stops * stride))
        labels = .allocate(capacity: max(1, stops * stride))
        head = filled(stops, -1)
        exactEntryAt = filled(stops, -1)
        markedStamp = filled(stops, -1)
        changedStamp = filled(stops, -1)
        isOrigin = filled(stops, false)
        isDestination = filled(stops, false)
        queued = filled(patterns, -1)
        queuedLast = filled(patterns, -1)
        arrivalHead = filled(stops, -1)
        fromRules = filled(stops, 0)
    }

    deinit {
        for buffer in [slotOf, arrivals, bestReady, head, exactEntryAt, markedStamp, changedStamp, queued, queuedLast, arrivalHead] { buffer.deallocate() }
        fromRules.deallocate()
        labels.deallocate()
        isOrigin.deallocate()
        isDestination.deallocate()
    }

    /// The first entry of `stop`'s slot, made on first use.
    package func slot(_ stop: Int) -> Int {
        let known = Int(slotOf[stop])
        if known >= 0 { return known }
        let new = slotCount * stride
        slotCount += 1
        slotOf[stop] = Int32(new)
        for k in new..<(new + stride) {
            arrivals.initializeElement(at: k, to: Self.unreached)
            bestReady.initializeElement(at: k, to: Self.unreached)
            labels.initializeElement(at: k, to: Label())
        }
        return new
    }

    package func arrival(_ stop: Int, _ round: Int) -> Int32 {
        let s = Int(slotOf[stop])
        return s < 0 ? Self.unreached : arrivals[s + round]
    }
}

/// Per call of every pattern, a run index (see `RangeSearch.runHint`).
package final class RunHints {
    package let start: [Int]
    package let runs: UnsafeMutableBufferPointer<Int32>

    package init<S: Schedule>(_ schedule: S) {
        var start = [Int](repeating: 0, count: schedule.patternCount + 1)
        for q in 0..<schedule.patternCount { start[q + 1] = start[q] + schedule.length(q) }
        self.start = start
        runs = .allocate(capacity: max(1, start[schedule.patternCount]))
        runs.initialize(repeating: -1)
    }

    deinit { runs.deallocate() }
}
