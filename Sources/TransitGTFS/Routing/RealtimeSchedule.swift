import Foundation
import TransitSupport

/// One service day's timetable with GTFS-Realtime trip updates laid over it: the second
/// implementation of the `Schedule` seam, and the one path by which every answer reads
/// real-time data (journeys and reach through the router, boards and one trip's calls through
/// the same accessors). Patterns no update touches are the day's own, read in place. A pattern
/// with an updated, canceled or hidden run is replaced by new patterns built from its runs as
/// they now stand: skipped calls neither boarding nor alighting (a flag of the pattern, so such
/// a run gets a pattern of its own), canceled and hidden runs boarding nowhere (kept, so that a
/// board can show them canceled), and runs that now overtake another split off, since a pattern
/// scan rides the first run it can catch. Added trips are patterns of their own. Each call's
/// status is `TripUpdates.status(ofInstance:position:)`'s. The compiled file is untouched.
package struct RealtimeSchedule: Schedule {
    /// Everything, the base day included, behind one reference: the search copies its schedule
    /// where it reads it from a `mutating` method, and a reference copies in a word where the
    /// base and two dozen buffers took a memcpy each time (seen as a third of a search's time).
    private let overlay: Overlay

    /// The new patterns and the calls index, read in place through buffers that `storage` keeps
    /// alive (`let`s of a final class: no exclusivity checks on the hot path).
    package final class Overlay {
        package let base: DaySchedule
        package let baseCount: Int
        package let storage: Storage
        /// Base patterns whose runs moved to new patterns (they have no runs here): 1.
        package let replaced: UnsafeBufferPointer<UInt8>
        package let stopStart: UnsafeBufferPointer<Int32>
        package let stops: UnsafeBufferPointer<Int32>
        package let flags: UnsafeBufferPointer<UInt8>
        package let plannedFlags: UnsafeBufferPointer<UInt8>
        /// Per new pattern: 0 where its runs are DELETED ones, which no stop lists.
        package let listed: UnsafeBufferPointer<UInt8>
        package let runStart: UnsafeBufferPointer<Int32>
        package let runTimes: UnsafeBufferPointer<Int32>
        package let runTrips: UnsafeBufferPointer<Int32>
        package let runInstance: UnsafeBufferPointer<Int32>
        package let times: UnsafeBufferPointer<Int32>
        package let planned: UnsafeBufferPointer<Int32>
        /// Per stop, its calls: all patterns' (pattern, position) pairs.
        package let callStart: UnsafeBufferPointer<Int32>
        package let callPairs: UnsafeBufferPointer<Int32>
        /// false where no update touched the day: its calls are the base's (a day of a search
        /// across days that the data does not speak of costs no index).
        package let indexed: Bool

        package init(_ s: Storage, base: DaySchedule, indexed: Bool) {
            self.base = base
            self.indexed = indexed
            baseCount = base.patternCount
            storage = s
            replaced = s.replaced.buffer
            stopStart = s.stopStart.buffer
            stops = s.stops.buffer
            flags = s.flags.buffer
            plannedFlags = s.plannedFlags.buffer
            listed = s.listed.buffer
            runStart = s.runStart.buffer
            runTimes = s.runTimes.buffer
            runTrips = s.runTrips.buffer
            runInstance = s.runInstance.buffer
            times = s.times.buffer
            planned = s.planned.buffer
            callStart = s.callStart.buffer
            callPairs = s.callPairs.buffer
        }
    }

    /// The new patterns, laid out as the compiled timetable lays out its own.
    package final class Storage {
        package var replaced = Packed<UInt8>()
        package var callStart = Packed<Int32>()
        package var callPairs = Packed<Int32>()
        package var stopStart = Packed<Int32>([0])
        package var stops = Packed<Int32>()
        package var flags = Packed<UInt8>()
        package var plannedFlags = Packed<UInt8>()
        /// Per new pattern: 1 where a board or a search may find it at its stops.
        package var listed = Packed<UInt8>()
        package var runStart = Packed<Int32>([0])
        /// Per run: where its (arrival, departure) pairs begin in `times` (and in `planned`).
        package var runTimes = Packed<Int32>()
        package var runTrips = Packed<Int32>()
        /// Per run: its index among the updates' instances, or -1 for a run as planned.
        package var runInstance = Packed<Int32>()
        package var times = Packed<Int32>()
        package var planned = Packed<Int32>()
        /// Per run and position, as `times` has a pair.
        package var status: [RealtimeStatus] = []
    }

    /// A run as it now stands, before it is placed in a pattern.
    private struct Run {
        package var trip: Int32
        package var instance: Int32
        package var stops: [Int32]
        package var flags: [UInt8]
        package var plannedFlags: [UInt8]
        /// (arrival, departure) per call, predicted and planned.
        package var times: [Int32]
        package var planned: [Int32]
        package var status: [RealtimeStatus]
        /// Which runs may share a pattern: the base pattern, or an added trip's route.
        package var group: Int
        /// false for a DELETED run: kept (one trip's calls show it canceled), listed at no stop,
        /// so that no board shows it and no search meets it.
        package var listed = true
    }

    /// `base`: the day's schedule as planned, when the caller has it already.
    package init(_ t: Timetable, day: Int, updates: TripUpdates, base given: DaySchedule? = nil) {
        let base = given ?? DaySchedule(t, day: day), baseCount = base.patternCount
        var replaced = [Bool](repeating: false, count: baseCount)
        // The base patterns with a run the updates speak of.
        var touched = Set<Int>()
        for (key, index) in updates.byRun where Int(key.day) == day {
            if let run = updates.instances[index].run, run.pattern < baseCount { touched.insert(run.pattern) }
        }
        var runs: [Run] = []
        for q in touched.sorted() {
            replaced[q] = true
            let length = base.length(q)
            let stops = (0..<length).map { Int32(base.stop(q, $0)) }, flags = Array(base.flags(of: q))
            let scheduled = [RealtimeStatus](repeating: .scheduled, count: length)
            for r in 0..<base.runCount(q) {
                let trip = base.trip(q, r)
                let times = Array(base.times(of: q, r))
                var run = Run(trip: Int32(trip), instance: -1, stops: stops, flags: flags, plannedFlags: flags, times: times, planned: times,
                              status: scheduled, group: q)
                guard let index = updates.index(trip: trip, day: day, start: Int(base.departure(q, r, 0))) else {
                    runs.append(run)
                    continue
                }
                let instance = updates.instances[index]
                // A run replaced by an added one is that one; an update that does not fit the run rides nowhere.
                guard instance.status != .added, instance.status != .updated || instance.calls.count == length else { continue }
                run.instance = Int32(index)
                run.listed = instance.status != .hidden
                run.status = (0..<length).map { updates.status(ofInstance: index, position: $0) }
                for (i, call) in instance.calls.enumerated() {
                    run.stops[i] = Int32(call.stop)
                    run.times[2 * i] = Int32(clamping: call.arrival)
                    run.times[2 * i + 1] = Int32(clamping: call.departure)
                }
                for i in 0..<length where !run.status[i].calls { run.flags[i] = Timetable.noPickup | Timetable.noDropOff }
                runs.append(run)
            }
        }
        for index in updates.added(on: day) {
            let instance = updates.instances[index]
            var times: [Int32] = []
            for call in instance.calls { times += [Int32(clamping: call.arrival), Int32(clamping: call.departure)] }
            let flags = instance.calls.map(\.flags)
            runs.append(Run(trip: Int32(instance.trip), instance: Int32(index), stops: instance.calls.map { Int32($0.stop) },
                            flags: flags, plannedFlags: flags, times: times, planned: times,
                            status: instance.calls.indices.map { updates.status(ofInstance: index, position: $0) }, group: -2 - instance.route))
        }
        let extra = Self.layOut(runs)
        guard !runs.isEmpty else {
            extra.replaced = Packed([UInt8](repeating: 0, count: baseCount))
            overlay = Overlay(extra, base: base, indexed: false)
            return
        }
        // Every stop's calls, over the base patterns kept and the new ones.
        let stopCount = t.stopCount, extraCount = extra.stopStart.count - 1
        let newStart = extra.stopStart.buffer, newStops = extra.stops.buffer
        var count = [Int32](repeating: 0, count: stopCount + 1)
        func each(_ body: (Int, Int, Int) -> Void) {
            for q in 0..<baseCount where !replaced[q] {
                for (i, s) in base.stops(of: q).enumerated() { body(q, i, Int(s)) }
            }
            for e in 0..<extraCount where extra.listed[e] != 0 {
                for i in Int(newStart[e])..<Int(newStart[e + 1]) {
                    body(baseCount + e, i - Int(newStart[e]), Int(newStops[i]))
                }
            }
        }
        each { _, _, s in if s >= 0 && s < stopCount { count[s + 1] += 1 } }
        for s in 0..<stopCount { count[s + 1] += count[s] }
        var fill = count
        var pairs = [Int32](repeating: 0, count: 2 * Int(count[stopCount]))
        each { q, i, s in
            guard s >= 0 && s < stopCount else { return }
            pairs[2 * Int(fill[s])] = Int32(q)
            pairs[2 * Int(fill[s]) + 1] = Int32(i)
            fill[s] += 1
        }
        extra.callStart = Packed(count)
        extra.callPairs = Packed(pairs)
        extra.replaced = Packed(replaced.map { $0 ? 1 : 0 })
        overlay = Overlay(extra, base: base, indexed: true)
    }

    /// Runs into patterns: those of one group with the same stops and flags, by first
    /// departure, split wherever one would overtake another (as the compiler splits).
    private static func layOut(_ runs: [Run]) -> Storage {
        // Runs by group, then by stops and flags: a group has one or a few such variants, so a
        // run is compared with them in turn rather than hashed.
        struct Variant { var stops: [Int32]; var flags: [UInt8]; var plannedFlags: [UInt8]; var listed: Bool; var runs: [Run] }
        var groups: [Int: [Variant]] = [:], order: [(group: Int, variant: Int)] = []
        for run in runs {
            var variants = groups.removeValue(forKey: run.group) ?? []  // taken out, so that appending copies nothing
            if let v = variants.firstIndex(where: { $0.stops == run.stops && $0.flags == run.flags && $0.plannedFlags == run.plannedFlags && $0.listed == run.listed }) {
                variants[v].runs.append(run)
            } else {
                order.append((run.group, variants.count))
                variants.append(Variant(stops: run.stops, flags: run.flags, plannedFlags: run.plannedFlags, listed: run.listed, runs: [run]))
            }
            groups[run.group] = variants
        }
        let out = Storage()
        for (group, v) in order {
            guard let key = groups[group]?[v] else { continue }
            let length = key.stops.count
            let sorted = key.runs.sorted { ($0.times[1], $0.trip) < ($1.times[1], $1.trip) }
            var chains: [[Run]] = []
            for run in sorted {
                let fits = chains.firstIndex { chain in
                    guard let last = chain.last else { return true }
                    return (0..<(2 * length)).allSatisfy { run.times[$0] >= last.times[$0] }
                }
                if let fits { chains[fits].append(run) } else { chains.append([run]) }
            }
            for chain in chains {
                for i in 0..<length {
                    out.stops.append(key.stops[i])
                    out.flags.append(key.flags[i])
                    out.plannedFlags.append(key.plannedFlags[i])
                }
                out.stopStart.append(Int32(out.stops.count))
                out.listed.append(key.listed ? 1 : 0)
                for run in chain {
                    out.runTimes.append(Int32(out.times.count))
                    out.runTrips.append(run.trip)
                    out.runInstance.append(run.instance)
                    for v in run.times { out.times.append(v) }
                    for v in run.planned { out.planned.append(v) }
                    out.status += run.status
                }
                out.runStart.append(Int32(out.runTrips.count))
            }
        }
        return out
    }

    package var stopCount: Int { overlay.base.stopCount }
    package var patternCount: Int { overlay.baseCount + overlay.stopStart.count - 1 }
    /// The base's calls, then the new patterns'.
    package var callCount: Int { overlay.base.callCount + overlay.stops.count }

    @inline(__always) package func firstCall(_ q: Int) -> Int {
        q < overlay.baseCount ? overlay.base.firstCall(q) : overlay.base.callCount + Int(overlay.stopStart[q - overlay.baseCount])
    }

    @inline(__always) package func length(_ q: Int) -> Int {
        q < overlay.baseCount ? overlay.base.length(q) : Int(overlay.stopStart[q - overlay.baseCount + 1] - overlay.stopStart[q - overlay.baseCount])
    }

    @inline(__always) package func stop(_ q: Int, _ i: Int) -> Int { q < overlay.baseCount ? overlay.base.stop(q, i) : Int(stops(of: q)[i]) }
    @inline(__always) package func canBoard(_ q: Int, _ i: Int) -> Bool { Timetable.canBoard(flags(of: q)[i]) }
    @inline(__always) package func canAlight(_ q: Int, _ i: Int) -> Bool { Timetable.canAlight(flags(of: q)[i]) }

    @inline(__always) package func runCount(_ q: Int) -> Int {
        if q < overlay.baseCount { return overlay.replaced[q] != 0 ? 0 : overlay.base.runCount(q) }
        return Int(overlay.runStart[q - overlay.baseCount + 1] - overlay.runStart[q - overlay.baseCount])
    }

    @inline(__always) private func runIndex(_ q: Int, _ run: Int) -> Int { Int(overlay.runStart[q - overlay.baseCount]) + run }

    @inline(__always) package func departure(_ q: Int, _ run: Int, _ i: Int) -> Int32 {
        q < overlay.baseCount ? overlay.base.departure(q, run, i) : overlay.times[Int(overlay.runTimes[runIndex(q, run)]) + 2 * i + 1]
    }

    @inline(__always) package func arrival(_ q: Int, _ run: Int, _ i: Int) -> Int32 {
        q < overlay.baseCount ? overlay.base.arrival(q, run, i) : overlay.times[Int(overlay.runTimes[runIndex(q, run)]) + 2 * i]
    }

    @inline(__always) package func trip(_ q: Int, _ run: Int) -> Int { q < overlay.baseCount ? overlay.base.trip(q, run) : Int(overlay.runTrips[runIndex(q, run)]) }

    @inline(__always) package func stops(of q: Int) -> UnsafeBufferPointer<Int32> {
        guard q >= overlay.baseCount else { return overlay.base.stops(of: q) }
        let e = q - overlay.baseCount
        return UnsafeBufferPointer(rebasing: overlay.stops[Int(overlay.stopStart[e])..<Int(overlay.stopStart[e + 1])])
    }

    @inline(__always) package func flags(of q: Int) -> UnsafeBufferPointer<UInt8> {
        guard q >= overlay.baseCount else { return overlay.base.flags(of: q) }
        let e = q - overlay.baseCount
        return UnsafeBufferPointer(rebasing: overlay.flags[Int(overlay.stopStart[e])..<Int(overlay.stopStart[e + 1])])
    }

    @inline(__always) package func times(of q: Int, _ run: Int) -> UnsafeBufferPointer<Int32> {
        guard q >= overlay.baseCount else { return overlay.base.times(of: q, run) }
        let start = Int(overlay.runTimes[runIndex(q, run)])
        return UnsafeBufferPointer(rebasing: overlay.times[start..<(start + 2 * length(q))])
    }

    @inline(__always) package func calls(at stop: Int) -> Range<Int> {
        guard overlay.indexed else { return overlay.base.calls(at: stop) }
        guard stop >= 0, stop + 1 < overlay.callStart.count else { return 0..<0 }
        return Int(overlay.callStart[stop])..<Int(overlay.callStart[stop + 1])
    }

    @inline(__always) package func call(_ index: Int) -> (pattern: Int, position: Int) {
        guard overlay.indexed else { return overlay.base.call(index) }
        return (Int(overlay.callPairs[2 * index]), Int(overlay.callPairs[2 * index + 1]))
    }

    package func planned(_ q: Int, _ run: Int, _ i: Int) -> (arrival: Int32, departure: Int32) {
        guard q >= overlay.baseCount else { return (overlay.base.arrival(q, run, i), overlay.base.departure(q, run, i)) }
        let start = Int(overlay.runTimes[runIndex(q, run)])
        return (overlay.planned[start + 2 * i], overlay.planned[start + 2 * i + 1])
    }

    package func instance(_ q: Int, _ run: Int) -> Int { q < overlay.baseCount ? -1 : Int(overlay.runInstance[runIndex(q, run)]) }

    package func status(_ q: Int, _ run: Int, _ i: Int) -> RealtimeStatus {
        guard q >= overlay.baseCount else { return .scheduled }
        let k = Int(overlay.runTimes[runIndex(q, run)]) / 2 + i
        return k < overlay.storage.status.count ? overlay.storage.status[k] : .scheduled
    }

    package func plannedFlags(of q: Int) -> UnsafeBufferPointer<UInt8> {
        guard q >= overlay.baseCount else { return overlay.base.flags(of: q) }
        let e = q - overlay.baseCount
        return UnsafeBufferPointer(rebasing: overlay.plannedFlags[Int(overlay.stopStart[e])..<Int(overlay.stopStart[e + 1])])
    }

    /// The day as planned, under the overlay.
    package var base: DaySchedule { overlay.base }

    /// The import's graph of least hops, where every run realtime data laid out anew keeps to it.
    package func graphBounds(edges: TransferEdges, destinations: [(stop: Int, start: Int32)], within limit: Int64) -> TargetBounds? {
        guard keepsToBoundGraph else { return nil }
        return overlay.base.graphBounds(edges: edges, destinations: destinations, within: limit)
    }

    /// The timetable's straight lines, where every run realtime data laid out anew keeps to them
    /// (with the source down or no update touching a run, all of them): a delay that makes a ride
    /// faster than the fastest planned, or times that fall, leave the search without.
    package func straightLineBounds(destinations: [Int], changes: Int) -> TargetBounds {
        guard keepsToStraightLines else { return .none }
        return overlay.base.straightLineBounds(destinations: destinations, changes: changes)
    }

    /// The day's as planned, or a run the data makes leave earlier.
    package var earliestDeparture: Int32 { min(overlay.base.earliestDeparture, overlay.times.min() ?? .max) }
    package var keepsToStraightLines: Bool { overlay.base.keepsStraightLines(self, from: overlay.baseCount) }
    package var keepsToBoundGraph: Bool { overlay.base.keepsBoundGraph(self, from: overlay.baseCount) }

    /// Where run `run` of base pattern `q` (a run of `base`) now stands: the same where no update
    /// touched its pattern, else the new pattern's run holding it; nil where it rides nowhere (a
    /// REPLACEMENT took it, or an update did not fit it). A DELETED run is found, canceled.
    package func run(ofBase q: Int, _ run: Int) -> (pattern: Int, run: Int)? {
        guard q >= 0, q < overlay.baseCount else { return nil }
        guard overlay.replaced[q] != 0 else { return (q, run) }
        let trip = Int32(overlay.base.trip(q, run)), start = overlay.base.departure(q, run, 0)
        for e in 0..<(overlay.stopStart.count - 1) {
            for r in Int(overlay.runStart[e])..<Int(overlay.runStart[e + 1]) where overlay.runTrips[r] == trip {
                let k = r - Int(overlay.runStart[e])
                if planned(overlay.baseCount + e, k, 0).departure == start { return (overlay.baseCount + e, k) }
            }
        }
        return nil
    }

    /// Where the run that real-time instance `index` stands for is (its pattern and run), if
    /// this day has it (a DELETED one too, though no stop lists it).
    package func run(ofInstance index: Int) -> (pattern: Int, run: Int)? {
        let extra = overlay.stopStart.count - 1
        for e in 0..<extra {
            for r in Int(overlay.runStart[e])..<Int(overlay.runStart[e + 1]) where Int(overlay.runInstance[r]) == index {
                return (overlay.baseCount + e, r - Int(overlay.runStart[e]))
            }
        }
        return nil
    }
}
