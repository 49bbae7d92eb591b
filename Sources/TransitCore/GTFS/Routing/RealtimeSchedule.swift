import Foundation

/// One service day's timetable with GTFS-Realtime trip updates laid over it: the second
/// implementation of the `Schedule` seam. Patterns no update touches are the day's own, read
/// in place. A pattern with an updated, canceled or hidden run is replaced by new patterns built
/// from its runs as they now stand: canceled and hidden runs left out, skipped calls neither
/// boarding nor alighting (a flag of the pattern, so such a run gets a pattern of its own), and
/// runs that now overtake another split off, since a pattern scan rides the first run it can
/// catch. Added trips are patterns of their own. The compiled file is untouched.
struct RealtimeSchedule: Schedule {
    let base: DaySchedule
    let baseCount: Int
    /// Base patterns whose runs moved to new patterns (they have no runs here).
    private let replaced: [Bool]
    private let extra: Storage
    /// Per stop, its calls: all patterns' (pattern, position) pairs.
    private let callStart: Packed<Int32>
    private let callPairs: Packed<Int32>

    /// The new patterns, laid out as the compiled timetable lays out its own.
    final class Storage {
        var stopStart = Packed<Int32>([0])
        var stops = Packed<Int32>()
        var flags = Packed<UInt8>()
        var runStart = Packed<Int32>([0])
        /// Per run: where its (arrival, departure) pairs begin in `times` (and in `planned`).
        var runTimes = Packed<Int32>()
        var runTrips = Packed<Int32>()
        /// Per run: its index among the updates' instances, or -1 for a run as planned.
        var runInstance = Packed<Int32>()
        var times = Packed<Int32>()
        var planned = Packed<Int32>()
    }

    /// A run as it now stands, before it is placed in a pattern.
    private struct Run {
        var trip: Int32
        var instance: Int32
        var stops: [Int32]
        var flags: [UInt8]
        /// (arrival, departure) per call, predicted and planned.
        var times: [Int32]
        var planned: [Int32]
        /// Which runs may share a pattern: the base pattern, or an added trip's route.
        var group: Int
    }

    init(_ t: Timetable, day: Int, updates: TripUpdates) {
        let base = DaySchedule(t, day: day), baseCount = base.patternCount
        self.base = base
        self.baseCount = baseCount
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
            for r in 0..<base.runCount(q) {
                let trip = base.trip(q, r)
                let times = Array(base.times(of: q, r))
                guard let index = updates.byRun[TripUpdates.RunKey(trip: Int32(trip), day: Int32(day), start: base.departure(q, r, 0))] else {
                    runs.append(Run(trip: Int32(trip), instance: -1, stops: stops, flags: flags, times: times, planned: times, group: q))
                    continue
                }
                let instance = updates.instances[index]
                guard instance.status == .updated, instance.calls.count == length else { continue }
                var run = Run(trip: Int32(trip), instance: Int32(index), stops: stops, flags: flags, times: times, planned: times, group: q)
                for (i, call) in instance.calls.enumerated() {
                    run.stops[i] = Int32(call.stop)
                    run.times[2 * i] = Int32(clamping: call.arrival)
                    run.times[2 * i + 1] = Int32(clamping: call.departure)
                    if call.status == .skipped { run.flags[i] = Timetable.noPickup | Timetable.noDropOff }
                }
                runs.append(run)
            }
        }
        for index in updates.added(on: day) {
            let instance = updates.instances[index]
            var times: [Int32] = []
            for call in instance.calls { times += [Int32(clamping: call.arrival), Int32(clamping: call.departure)] }
            runs.append(Run(trip: Int32(instance.trip), instance: Int32(index), stops: instance.calls.map { Int32($0.stop) },
                            flags: instance.calls.map(\.flags), times: times, planned: times, group: -2 - instance.route))
        }
        let extra = Self.layOut(runs)
        self.extra = extra
        self.replaced = replaced
        // Every stop's calls, over the base patterns kept and the new ones.
        let stopCount = t.stopCount, extraCount = extra.stopStart.count - 1
        var count = [Int32](repeating: 0, count: stopCount + 1)
        func each(_ body: (Int, Int, Int) -> Void) {
            for q in 0..<baseCount where !replaced[q] {
                for (i, s) in base.stops(of: q).enumerated() { body(q, i, Int(s)) }
            }
            for e in 0..<extraCount {
                for i in Int(extra.stopStart[e])..<Int(extra.stopStart[e + 1]) {
                    body(baseCount + e, i - Int(extra.stopStart[e]), Int(extra.stops[i]))
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
        callStart = Packed(count)
        callPairs = Packed(pairs)
    }

    /// Runs into patterns: those of one group with the same stops and flags, by first
    /// departure, split wherever one would overtake another (as the compiler splits).
    private static func layOut(_ runs: [Run]) -> Storage {
        struct Key: Hashable { var group: Int; var stops: [Int32]; var flags: [UInt8] }
        var order: [Key] = []
        var byKey: [Key: [Run]] = [:]
        for run in runs {
            let key = Key(group: run.group, stops: run.stops, flags: run.flags)
            if byKey[key] == nil { order.append(key) }
            byKey[key, default: []].append(run)
        }
        let out = Storage()
        for key in order {
            let length = key.stops.count
            let sorted = (byKey[key] ?? []).sorted { ($0.times[1], $0.trip) < ($1.times[1], $1.trip) }
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
                }
                out.stopStart.append(Int32(out.stops.count))
                for run in chain {
                    out.runTimes.append(Int32(out.times.count))
                    out.runTrips.append(run.trip)
                    out.runInstance.append(run.instance)
                    for v in run.times { out.times.append(v) }
                    for v in run.planned { out.planned.append(v) }
                }
                out.runStart.append(Int32(out.runTrips.count))
            }
        }
        return out
    }

    var stopCount: Int { base.stopCount }
    var patternCount: Int { baseCount + extra.stopStart.count - 1 }

    @inline(__always) func length(_ q: Int) -> Int {
        q < baseCount ? base.length(q) : Int(extra.stopStart[q - baseCount + 1] - extra.stopStart[q - baseCount])
    }

    @inline(__always) func stop(_ q: Int, _ i: Int) -> Int { Int(stops(of: q)[i]) }
    @inline(__always) func canBoard(_ q: Int, _ i: Int) -> Bool { Timetable.canBoard(flags(of: q)[i]) }
    @inline(__always) func canAlight(_ q: Int, _ i: Int) -> Bool { Timetable.canAlight(flags(of: q)[i]) }

    @inline(__always) func runCount(_ q: Int) -> Int {
        if q < baseCount { return replaced[q] ? 0 : base.runCount(q) }
        return Int(extra.runStart[q - baseCount + 1] - extra.runStart[q - baseCount])
    }

    @inline(__always) private func runIndex(_ q: Int, _ run: Int) -> Int { Int(extra.runStart[q - baseCount]) + run }

    @inline(__always) func departure(_ q: Int, _ run: Int, _ i: Int) -> Int32 { times(of: q, run)[2 * i + 1] }
    @inline(__always) func arrival(_ q: Int, _ run: Int, _ i: Int) -> Int32 { times(of: q, run)[2 * i] }
    @inline(__always) func trip(_ q: Int, _ run: Int) -> Int { q < baseCount ? base.trip(q, run) : Int(extra.runTrips[runIndex(q, run)]) }

    @inline(__always) func stops(of q: Int) -> UnsafeBufferPointer<Int32> {
        guard q >= baseCount else { return base.stops(of: q) }
        let e = q - baseCount
        return UnsafeBufferPointer(rebasing: extra.stops.buffer[Int(extra.stopStart[e])..<Int(extra.stopStart[e + 1])])
    }

    @inline(__always) func flags(of q: Int) -> UnsafeBufferPointer<UInt8> {
        guard q >= baseCount else { return base.flags(of: q) }
        let e = q - baseCount
        return UnsafeBufferPointer(rebasing: extra.flags.buffer[Int(extra.stopStart[e])..<Int(extra.stopStart[e + 1])])
    }

    @inline(__always) func times(of q: Int, _ run: Int) -> UnsafeBufferPointer<Int32> {
        guard q >= baseCount else { return base.times(of: q, run) }
        let start = Int(extra.runTimes[runIndex(q, run)])
        return UnsafeBufferPointer(rebasing: extra.times.buffer[start..<(start + 2 * length(q))])
    }

    @inline(__always) func calls(at stop: Int) -> Range<Int> {
        guard stop >= 0, stop + 1 < callStart.count else { return 0..<0 }
        return Int(callStart[stop])..<Int(callStart[stop + 1])
    }

    @inline(__always) func call(_ index: Int) -> (pattern: Int, position: Int) { (Int(callPairs[2 * index]), Int(callPairs[2 * index + 1])) }

    func planned(_ q: Int, _ run: Int, _ i: Int) -> (arrival: Int32, departure: Int32) {
        guard q >= baseCount else { return (base.arrival(q, run, i), base.departure(q, run, i)) }
        let start = Int(extra.runTimes[runIndex(q, run)])
        return (extra.planned[start + 2 * i], extra.planned[start + 2 * i + 1])
    }

    func instance(_ q: Int, _ run: Int) -> Int { q < baseCount ? -1 : Int(extra.runInstance[runIndex(q, run)]) }
}
