import Foundation
import TransitSupport

/// The compiler's second half: each trip's calls, once read, laid out into patterns (trips with
/// the same stops and pickup/drop-off rules, split so that no trip overtakes another), their
/// times, and the index from each trip to its runs.
extension GTFSCompiler {
    /// One run of a trip: the trip, its times (arrival, departure per call) and a shift.
    package struct Run {
        package var trip: Int32
        package var times: Int
        package var shift: Int32
    }

    /// A pattern's stops and pickup/drop-off flags, hashed once.
    package struct PatternKey: Hashable {
        package let values: [Int32]
        package let hash: Int

        package init(_ values: [Int32]) {
            self.values = values
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            for v in values { h = (h ^ UInt64(UInt32(bitPattern: v))) &* 0x0000_0100_0000_01B3 }
            hash = Int(truncatingIfNeeded: h)
        }

        package func hash(into hasher: inout Hasher) { hasher.combine(hash) }
        package static func == (a: PatternKey, b: PatternKey) -> Bool { a.hash == b.hash && a.values == b.values }
    }

    /// One trip's rows (in any order): into call order, untimed calls filled in, its times kept
    /// and its runs added to its pattern.
    package mutating func finishTrip(_ trip: Int, _ unsorted: [Row]) {
        let n = unsorted.count
        guard n >= 2 else { if n == 1 { untimedTrips += 1 }; return }
        var sorted = true
        for k in 1..<n where unsorted[k - 1].sequence >= unsorted[k].sequence { sorted = false; break }
        let rows = sorted ? unsorted : unsorted.sorted { $0.sequence < $1.sequence }
        let base = timeStore.count
        // Static, so that no copy of `self` shares timeStore's storage while it grows.
        if let reason = Self.interpolate(rows, into: &timeStore) {
            skippedTrips.append("trip \(t.tripIDs[trip]) skipped: \(reason)")
            timeStore.removeSubrange(base...)
            return
        }
        let times = timeStore[base...]
        // Stops, their pickup/drop-off flags, the route, and the trip itself when a transfers.txt
        // row names it as from_trip_id. A pattern scan rides the earliest run it can catch, which
        // is right only when its later runs change no better: so a pattern is one route's (a row
        // by route decides alike for all its runs; R5's TripPattern is per route too), and a trip
        // with rules of its own is a pattern of its own.
        // Its stop_sequence values too: GTFS-Realtime names a call by them, and a pattern keeps one
        // list (trips numbered alike, as nearly every feed numbers them, share it).
        var values = [Int32](repeating: 0, count: n * 3 + 2)
        for (k, row) in rows.enumerated() {
            values[k] = row.stop
            values[n + k] = Int32(row.flags)
            values[2 * n + k] = row.sequence
        }
        values[3 * n] = t.tripRoute[trip]
        values[3 * n + 1] = tripsNamedFrom.contains(Int32(trip)) ? Int32(trip) : -1
        let key = PatternKey(values)
        let p: Int
        if let known = patternOf[key] { p = known } else {
            p = patternKeys.count
            patternOf[key] = p
            patternKeys.append(values)
            patternRuns.append([])
        }
        if let windows = frequencies[trip] {
            // The template itself does not run: one run per departure of each window. Counted
            // first, against the bounds for the whole feed (the compiler refuses the feed after).
            let runs = windows.reduce(0) { $0 + max(0, (Int($1.end) - Int($1.start) + Int($1.headway) - 1) / max(1, Int($1.headway))) }
            frequencyRuns += runs
            frequencyCalls += runs * n
            guard frequencyRuns <= Self.maxFrequencyRuns, frequencyCalls <= Self.maxFrequencyCalls else {
                frequenciesTooMany = true
                return
            }
            let first = times[base + 1]
            for w in windows {
                var departure = w.start
                while departure < w.end {
                    patternRuns[p].append(Run(trip: Int32(trip), times: base, shift: departure - first))
                    departure += w.headway
                }
            }
        } else {
            patternRuns[p].append(Run(trip: Int32(trip), times: base, shift: 0))
        }
    }

    /// How many groups a run of a pattern is tried against before it starts one of its own.
    package static let triedGroups = 16

    package mutating func layOutPatterns() {
        if !skippedTrips.isEmpty {
            warnings += skippedTrips.prefix(5)
            if skippedTrips.count > 5 { warnings.append("… and \(skippedTrips.count - 5) more trips skipped") }
        }
        if untimedTrips > 0 { warnings.append("\(untimedTrips) trips with a single stop_times row were skipped") }
        patternOf = [:]
        // Each pattern's runs by first departure, split wherever one would overtake another.
        // The times go straight into the timetable's own buffer (40 MB for 5 million stop_times: no second copy).
        var times = Packed<Int32>(), patternStops: [Int32] = [], patternFlags: [UInt8] = [], patternTrips: [Int32] = []
        var patternSequences: [Int32] = [], rowBlocks: [Int32] = []
        // A group's blocks of times by a hash of their values (`sameTimes`).
        var blockOf: [UInt64: Int32] = [:]
        times.reserveCapacity(zip(patternKeys, patternRuns).reduce(0) { $0 + $1.0.count * $1.1.count })
        var stopLists = [[Int32]](repeating: [], count: stops.count)
        // Every run's trip, (pattern, row) and start, for the index from trip to runs.
        var runTrip: [Int32] = [], runPlace: [Int32] = [], runStartTime: [Int32] = []
        for (p, key) in patternKeys.enumerated() {
            let length = (key.count - 2) / 3  // stops, flags, stop_sequences, then the route and the named trip
            let runs = patternRuns[p].sorted {
                let a = timeStore[$0.times + 1] + $0.shift, b = timeStore[$1.times + 1] + $1.shift
                return a != b ? a < b : $0.trip < $1.trip
            }
            // First fit: each run joins the first group whose last run it does not overtake. The
            // groups' last arrivals are in a tree, so only groups it might follow are tried (a
            // run that arrives before a group's last one overtakes it), at most `triedGroups` of
            // them: 80,000 trips that each overtake the others took 20 s when every group was tried.
            var groups: [[Run]] = []
            var lastArrivals = MinimumTree(capacity: runs.count)
            for run in runs {
                let arrival = timeStore[run.times + 2 * (length - 1)] + run.shift
                var chosen: Int?, from = 0, tried = 0
                while tried < Self.triedGroups, let g = lastArrivals.first(atMost: arrival, from: from) {
                    tried += 1
                    groupTrials += 1
                    from = g + 1
                    guard let last = groups[g].last else { continue }
                    var overtakes = false
                    for i in 0..<length {
                        let a = timeStore[run.times + 2 * i] + run.shift, la = timeStore[last.times + 2 * i] + last.shift
                        let d = timeStore[run.times + 2 * i + 1] + run.shift, ld = timeStore[last.times + 2 * i + 1] + last.shift
                        if a < la || d < ld { overtakes = true; break }
                    }
                    if !overtakes { chosen = g; break }
                }
                if let g = chosen {
                    groups[g].append(run)
                    lastArrivals.set(g, arrival)
                } else {
                    lastArrivals.set(groups.count, arrival)
                    groups.append([run])
                }
            }
            for group in groups {
                let q = t.patternTimeStart.count, firstTime = times.count
                t.patternTimeStart.append(Int64(firstTime))
                blockOf.removeAll(keepingCapacity: true)
                for i in 0..<length {
                    patternStops.append(key[i])
                    patternFlags.append(UInt8(key[length + i]))
                    patternSequences.append(key[2 * length + i])
                    stopLists[Int(key[i])].append(Int32(q))
                    stopLists[Int(key[i])].append(Int32(i))
                }
                t.patternStopStart.append(Int32(patternStops.count))
                for (row, run) in group.enumerated() {
                    runTrip.append(run.trip)
                    runPlace.append(Int32(q))
                    runPlace.append(Int32(row))
                    runStartTime.append(timeStore[run.times + 1] + run.shift)
                    patternTrips.append(run.trip)
                    // A run whose times an earlier row of the group wrote reads that block.
                    let (hash, known) = sameTimes(run, length: length, blocks: blockOf, in: times, from: firstTime)
                    if let known {
                        rowBlocks.append(known)
                        continue
                    }
                    let block = Int32((times.count - firstTime) / (2 * length))
                    if blockOf[hash] == nil { blockOf[hash] = block }
                    rowBlocks.append(block)
                    if run.shift == 0 {
                        timeStore.withUnsafeBufferPointer { times.append(contentsOf: UnsafeBufferPointer(rebasing: $0[run.times..<(run.times + 2 * length)])) }
                    } else {
                        for i in 0..<(2 * length) { times.append(timeStore[run.times + i] + run.shift) }
                    }
                }
                t.patternTripStart.append(Int32(patternTrips.count))
            }
        }
        indexTripRuns(runTrip, runPlace, runStartTime)
        timeStore = []
        t.times = times
        times = Packed()
        t.patternStops = Packed(patternStops)
        t.patternFlags = Packed(patternFlags)
        t.patternSequences = Packed(patternSequences)
        t.patternTrips = Packed(patternTrips)
        t.rowBlocks = Packed(rowBlocks)
        var stopPatterns: [Int32] = []
        for list in stopLists {
            stopPatterns += list
            t.stopPatternStart.append(Int32(stopPatterns.count))
        }
        t.stopPatterns = Packed(stopPatterns)
        patternKeys = []
        patternRuns = []
    }

    /// A run's times hashed, and the block of the group (its times from `from` in `times`) that
    /// holds the same values, if the block first written with that hash does: trips that differ
    /// only in their calendar (a feed writes a school-holiday variant as a trip of its own) are
    /// stored once. A clash of hashes only stores a block twice.
    package func sameTimes(_ run: Run, length: Int, blocks: [UInt64: Int32], in times: Packed<Int32>, from: Int) -> (UInt64, Int32?) {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for i in 0..<(2 * length) { h = (h ^ UInt64(UInt32(bitPattern: timeStore[run.times + i] &+ run.shift))) &* 0x0000_0100_0000_01B3 }
        guard let block = blocks[h] else { return (h, nil) }
        let start = from + Int(block) * 2 * length
        for i in 0..<(2 * length) where times[start + i] != timeStore[run.times + i] &+ run.shift { return (h, nil) }
        return (h, block)
    }

    /// The index from each trip to its runs, earliest start first: a counting sort by trip.
    package mutating func indexTripRuns(_ runTrip: [Int32], _ runPlace: [Int32], _ runStartTime: [Int32]) {
        let tripCount = trips.count
        var start = [Int32](repeating: 0, count: tripCount + 1)
        for trip in runTrip { start[Int(trip) + 1] += 1 }
        for k in 0..<tripCount { start[k + 1] += start[k] }
        var fill = start
        var order = [Int](repeating: 0, count: runTrip.count)
        for (run, trip) in runTrip.enumerated() {
            order[Int(fill[Int(trip)])] = run
            fill[Int(trip)] += 1
        }
        var places = [Int32](repeating: 0, count: runPlace.count)
        for trip in 0..<tripCount {
            var runs = Array(order[Int(start[trip])..<Int(start[trip + 1])])
            if runs.count > 1 { runs.sort { (runStartTime[$0], $0) < (runStartTime[$1], $1) } }
            for (j, run) in runs.enumerated() {
                places[2 * (Int(start[trip]) + j)] = runPlace[2 * run]
                places[2 * (Int(start[trip]) + j) + 1] = runPlace[2 * run + 1]
            }
        }
        t.tripRunStart = Packed(start)
        t.tripRuns = Packed(places)
        t.tripIsFrequency = Packed((0..<tripCount).map { frequencies[$0] == nil ? 0 : 1 })
    }

    /// Appends a trip's (arrival, departure) pairs to `store`, with untimed calls filled in: by
    /// shape_dist_traveled when every call has it, else by stop count; rounded to the nearest
    /// second, half up. Returns the reason the trip cannot run (its times go backwards, or its
    /// ends have no time), which the caller turns into a warning; nil when it can.
    package static func interpolate(_ rows: [Row], into store: inout [Int32]) -> String? {
        let o = store.count
        var untimed = false
        for row in rows {
            var a = row.arrival, d = row.departure
            if a < 0 { a = d }
            if d < 0 { d = a }
            if a < 0 { untimed = true }
            store.append(a)
            store.append(d)
        }
        if untimed {
            guard store[o] >= 0, store[store.count - 2] >= 0 else { return "its first or last stop has no time" }
            let byDistance = !rows.contains { $0.distance.isNaN }
            var a = 0
            while a < rows.count - 1 {
                var b = a + 1
                while store[o + 2 * b] < 0 { b += 1 }
                if b > a + 1 {
                    let ta = Double(store[o + 2 * a + 1]), tb = Double(store[o + 2 * b])
                    let da = Double(rows[a].distance), span = Double(rows[b].distance) - da
                    for k in (a + 1)..<b {
                        var fraction = byDistance && span > 0 ? (Double(rows[k].distance) - da) / span : Double(k - a) / Double(b - a)
                        if !fraction.isFinite { fraction = Double(k - a) / Double(b - a) }
                        // Half up; absurd distances cannot push a time outside its neighbours' range.
                        let raw = (ta + (tb - ta) * fraction + 0.5).rounded(.down)
                        let value = raw.isFinite ? Int32(clamping: Int(max(-2e9, min(2e9, raw)))) : Int32(clamping: Int(ta))
                        store[o + 2 * k] = value
                        store[o + 2 * k + 1] = value
                    }
                }
                a = b
            }
        }
        for k in rows.indices {
            let a = store[o + 2 * k], d = store[o + 2 * k + 1]
            if d < a || (k > 0 && (a < store[o + 2 * k - 1] || rows[k].sequence == rows[k - 1].sequence)) {
                return "its times go backwards at stop_sequence \(rows[k].sequence)"
            }
        }
        return nil
    }
}

/// The least of a growing list of values, over any range of it: `first(atMost:from:)` finds
/// the first index at or after `from` whose value is at most a bound, in O(log n).
package struct MinimumTree {
    private var leaves = 1
    private var tree: [Int32]

    package init(capacity: Int) {
        while leaves < max(1, capacity) { leaves *= 2 }
        tree = [Int32](repeating: .max, count: 2 * leaves)
    }

    package mutating func set(_ index: Int, _ value: Int32) {
        guard index >= 0, index < leaves else { return }
        var node = index + leaves
        tree[node] = value
        while node > 1 {
            node /= 2
            tree[node] = min(tree[2 * node], tree[2 * node + 1])
        }
    }

    package func first(atMost bound: Int32, from start: Int) -> Int? {
        guard start >= 0, start < leaves else { return nil }
        // Up from the leaf to the first subtree right of it holding a value at most `bound`:
        // a left child's right sibling covers what comes next.
        var node = start + leaves
        if tree[node] <= bound { return start }
        while true {
            if node <= 1 { return nil }
            if node % 2 == 0, tree[node + 1] <= bound { node += 1; break }
            node /= 2
        }
        // Down to the leftmost leaf at most `bound`.
        while node < leaves { node = tree[2 * node] <= bound ? 2 * node : 2 * node + 1 }
        return node - leaves
    }
}
