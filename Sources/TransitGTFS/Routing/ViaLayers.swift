import Foundation
import TransitSupport

/// Journeys through stops (`--via`), searched by the same range search on a layered network, as
/// nigiri keeps a label per number of vias reached: each stop and pattern once per layer, layer
/// v holding the journeys that have called at the first v vias. A ride advances from layer v to
/// v + 1 at a call of via v where it picks up or sets down (the rider stays seated), or, where
/// the via asks for a stay, where the rider alights: at a stop of its own ("arrived for the
/// stay"), whose changes lead into the next layer the stay later. A change that ends at a via's
/// stop advances too (with its stay). Origins are in layer 0, destinations in the last; each
/// layer's lower bound runs through the vias still to call at (`TargetBounds.init(layered:)`).
///
/// Layered stop `l × S + s` is stop s in layer l; after the layers come the stay stops. Pattern
/// `c × P + q` is pattern q as a ride boarded in layer c sees it.
package final class ViaLayers {
    package let stopCount: Int
    package let patternCount: Int
    package let callCount: Int
    package let vias: [RiderNeeds.Via]
    /// Per base stop: the via it is a stop of (-1: none). Vias' stops never overlap.
    private let viaOf: [Int8]
    /// Per stay stop (from `layers × stopCount`): its base stop and via.
    private var stayStop: [(stop: Int32, via: Int32)] = []
    /// (via, base stop) → stay stop.
    private var stayIndex: [Int64: Int32] = [:]

    package var layers: Int { vias.count + 1 }
    /// Every layered stop, stay stops included.
    package var layeredStops: Int { layers * stopCount + stayStop.count }

    package init(stops: Int, patterns: Int, calls: Int, vias: [RiderNeeds.Via]) {
        stopCount = stops
        patternCount = patterns
        callCount = calls
        self.vias = vias
        var viaOf = [Int8](repeating: -1, count: stops)
        for (v, via) in vias.enumerated() {
            for s in via.stops where s >= 0 && s < stops && viaOf[s] < 0 { viaOf[s] = Int8(v) }
        }
        self.viaOf = viaOf
        for (v, via) in vias.enumerated() where via.staySeconds > 0 {
            for s in via.stops where s >= 0 && s < stops && viaOf[s] == Int8(v) && stayIndex[Self.key(v, s)] == nil {
                stayIndex[Self.key(v, s)] = Int32(stayStop.count)
                stayStop.append((Int32(s), Int32(v)))
            }
        }
    }

    private static func key(_ v: Int, _ s: Int) -> Int64 { Int64(v) << 32 | Int64(s) }

    /// The base stop of a layered one.
    @inline(__always) package func base(_ y: Int) -> Int {
        if y < stopCount { return y }
        let plain = layers * stopCount
        if y < plain { return y % stopCount }
        let k = y - plain
        return k < stayStop.count ? Int(stayStop[k].stop) : 0
    }

    /// Stop s in layer l.
    @inline(__always) package func stop(_ s: Int, layer l: Int) -> Int { l * stopCount + s }

    /// The via `s` is a stop of, if it is the next one from layer `l`.
    @inline(__always) func nextVia(_ s: Int, layer l: Int) -> Int? {
        guard l < vias.count, s >= 0, s < viaOf.count, Int(viaOf[s]) == l else { return nil }
        return l
    }

    /// Where a change that ends at base stop `s`, in layer `l`, leaves the rider: the next layer
    /// (its stay added) where `s` is the next via's, else the same.
    func arrive(_ s: Int, layer l: Int) -> (stop: Int, extra: Int) {
        if let v = nextVia(s, layer: l) { return (stop(s, layer: v + 1), vias[v].staySeconds) }
        return (stop(s, layer: l), 0)
    }

    /// Where the changes out of layered stop `x` start: its base stop, its layer, and the
    /// seconds they take on top (a stay stop's: the stay, into the next layer).
    func changesStart(_ x: Int) -> (base: Int, layer: Int, extra: Int) {
        let plain = layers * stopCount
        if x < plain { return (x % stopCount, x / stopCount, 0) }
        let k = x - plain
        guard k < stayStop.count else { return (0, layers - 1, 0) }
        let v = Int(stayStop[k].via)
        return (Int(stayStop[k].stop), v + 1, vias[v].staySeconds)
    }

    /// Layered stops of base pattern `q`'s calls (`stops`, with `canStop` per position: it picks
    /// up or sets down) for rides boarded in layer `c` after position `after` (the positions up
    /// to it are out: neither boarded nor alighted at), and the positions that may not pick up
    /// (out, or a stay stop, which only sets down).
    func layered(_ stops: UnsafeBufferPointer<Int32>, canStop: (Int) -> Bool, layer c: Int, after: Int,
                 into out: inout [Int32], noPickup: inout [Bool], out dead: inout [Bool]) {
        var l = c
        for i in stops.indices {
            let s = Int(stops[i])
            if i <= after {
                out.append(Int32(stop(s, layer: c)))
                noPickup.append(true)
                dead.append(true)
                continue
            }
            dead.append(false)
            if let v = nextVia(s, layer: l), canStop(i) {
                if vias[v].staySeconds > 0 {
                    out.append(Int32(layers * stopCount + Int(stayIndex[Self.key(v, s)] ?? 0)))
                    noPickup.append(true)
                    continue
                }
                l = v + 1
            }
            out.append(Int32(stop(s, layer: l)))
            noPickup.append(false)
        }
    }

    /// The rides a pattern needs copies for: from its start in each layer, and, in the layer
    /// before a via without a stay, from just after each call where it would pass that via
    /// (a ride boarded there has not, and reaches the next layer only at a later call).
    func copies(_ stops: UnsafeBufferPointer<Int32>, canStop: (Int) -> Bool) -> [(layer: Int, after: Int)] {
        var out = (0..<layers).map { (layer: $0, after: -1) }
        for i in stops.indices where canStop(i) && i < stops.count - 1 {
            let s = Int(stops[i])
            guard s >= 0, s < viaOf.count, viaOf[s] >= 0 else { continue }
            let v = Int(viaOf[s])
            if vias[v].staySeconds == 0 { out.append((v, i)) }
        }
        return out
    }

    /// The query on the layered network: origins in layer 0 (their own indices), destinations and
    /// the walks from them in the last.
    package func layered(_ query: Router.Query) -> Router.Query {
        var q = query
        let last = layers - 1
        q.destinations = query.destinations.map { stop($0, layer: last) }
        q.egress = Dictionary(uniqueKeysWithValues: query.egress.map { (stop($0.key, layer: last), $0.value) })
        q.egressMeters = Dictionary(uniqueKeysWithValues: query.egressMeters.map { (stop($0.key, layer: last), $0.value) })
        q.egressTo = Dictionary(uniqueKeysWithValues: query.egressTo.map { (stop($0.key, layer: last), $0.value) })
        return q
    }

    /// Every copy of the origins: a journey never alights at one, in any layer.
    package func everyLayer(_ stops: [Int]) -> [Int] { (0..<layers).flatMap { l in stops.map { stop($0, layer: l) } } }

    /// A journey found on the layered network, in base stops and patterns (`basePattern`): a stay
    /// shows as the change it is (the walk from a stay stop to its own stop is no walk).
    package func unlayered(_ journey: Router.Journey, basePattern: (Int) -> Int) -> Router.Journey {
        var j = journey
        j.legs = journey.legs.compactMap { leg in
            var leg = leg
            leg.from = leg.from >= 0 ? base(leg.from) : leg.from
            leg.to = leg.to >= 0 ? base(leg.to) : leg.to
            leg.calls = leg.calls.map(base)
            if case .ride(let trip, let pattern, let run, let from, let to) = leg.mode {
                leg.mode = .ride(trip: trip, pattern: basePattern(pattern), run: run, fromPosition: from, toPosition: to)
            }
            if case .walk = leg.mode, leg.from == leg.to, leg.from >= 0 { return nil }
            return leg
        }
        return j
    }
}

/// A schedule seen through `ViaLayers`: each pattern once per layer (and again from each call
/// that passes a via, `ViaLayers.copies`), its stops layered and its runs the base pattern's
/// (read in place).
package struct ViaSchedule<Base: Schedule>: Schedule {
    private final class Storage {
        let stops: Packed<Int32>
        let flags: Packed<UInt8>
        let callStart: Packed<Int32>
        let callPairs: Packed<Int32>
        /// Per layered pattern: its base pattern, and its first call (one more, the calls' count).
        let basePattern: Packed<Int32>
        let firstCall: Packed<Int32>
        init(stops: [Int32], flags: [UInt8], callStart: [Int32], callPairs: [Int32], basePattern: [Int32], firstCall: [Int32]) {
            (self.stops, self.flags, self.callStart, self.callPairs) = (Packed(stops), Packed(flags), Packed(callStart), Packed(callPairs))
            (self.basePattern, self.firstCall) = (Packed(basePattern), Packed(firstCall))
        }
    }

    package let base: Base
    package let layers: ViaLayers
    private let storage: Storage
    private let stopsBuffer: UnsafeBufferPointer<Int32>
    private let flagsBuffer: UnsafeBufferPointer<UInt8>
    private let callStart: UnsafeBufferPointer<Int32>
    private let callPairs: UnsafeBufferPointer<Int32>
    private let basePatterns: UnsafeBufferPointer<Int32>
    private let firstCalls: UnsafeBufferPointer<Int32>
    package let stopCount: Int
    package let patternCount: Int
    package let callCount: Int

    package init(_ base: Base, _ layers: ViaLayers) {
        self.base = base
        self.layers = layers
        var stops: [Int32] = [], flags: [UInt8] = [], basePattern: [Int32] = [], firstCall: [Int32] = [0]
        var pairs: [(stop: Int32, pattern: Int32, position: Int32)] = []
        var row: [Int32] = [], noPickup: [Bool] = [], dead: [Bool] = []
        for q in 0..<base.patternCount {
            let own = base.stops(of: q), ownFlags = base.flags(of: q)
            // A damaged pattern (no stops) is left out: it has no runs to ride.
            guard !own.isEmpty, ownFlags.count == own.count else { continue }
            let canStop = { (i: Int) in Timetable.canBoard(ownFlags[i]) || Timetable.canAlight(ownFlags[i]) }
            for copy in layers.copies(own, canStop: canStop) {
                (row, noPickup, dead) = ([], [], [])
                layers.layered(own, canStop: canStop, layer: copy.layer, after: copy.after, into: &row, noPickup: &noPickup, out: &dead)
                let pattern = Int32(basePattern.count)
                for i in own.indices {
                    if !dead[i] { pairs.append((row[i], pattern, Int32(i))) }
                    stops.append(row[i])
                    flags.append(dead[i] ? 3 : ownFlags[i] | (noPickup[i] ? 1 : 0))
                }
                basePattern.append(Int32(q))
                firstCall.append(Int32(stops.count))
            }
        }
        // Each layered stop's calls, grouped by stop (a counting sort).
        let n = layers.layeredStops
        var start = [Int32](repeating: 0, count: n + 1)
        for p in pairs { start[Int(p.stop) + 1] += 1 }
        for y in 0..<n { start[y + 1] += start[y] }
        var fill = start, flat = [Int32](repeating: 0, count: 2 * pairs.count)
        for p in pairs {
            let k = Int(fill[Int(p.stop)])
            flat[2 * k] = p.pattern
            flat[2 * k + 1] = p.position
            fill[Int(p.stop)] += 1
        }
        storage = Storage(stops: stops, flags: flags, callStart: start, callPairs: flat, basePattern: basePattern, firstCall: firstCall)
        stopsBuffer = storage.stops.buffer
        flagsBuffer = storage.flags.buffer
        callStart = storage.callStart.buffer
        callPairs = storage.callPairs.buffer
        basePatterns = storage.basePattern.buffer
        firstCalls = storage.firstCall.buffer
        stopCount = n
        patternCount = basePattern.count
        callCount = stops.count
    }

    /// The base pattern of layered pattern `q`.
    @inline(__always) package func basePattern(_ q: Int) -> Int { Int(basePatterns[q]) }

    // The accessors are inlined: a call to one copied the whole schedule (328 bytes over a day's)
    // first, a `memmove` at each run searched (12 % of a two-via query on dense81).
    @inline(__always) package func length(_ q: Int) -> Int { Int(firstCalls[q + 1] - firstCalls[q]) }
    @inline(__always) package func firstCall(_ q: Int) -> Int { Int(firstCalls[q]) }
    @inline(__always) package func stop(_ q: Int, _ i: Int) -> Int { Int(stopsBuffer[firstCall(q) + i]) }
    @inline(__always) package func canBoard(_ q: Int, _ i: Int) -> Bool { Timetable.canBoard(flagsBuffer[firstCall(q) + i]) }
    @inline(__always) package func canAlight(_ q: Int, _ i: Int) -> Bool { Timetable.canAlight(flagsBuffer[firstCall(q) + i]) }
    @inline(__always) package func runCount(_ q: Int) -> Int { base.runCount(basePattern(q)) }
    @inline(__always) package func departure(_ q: Int, _ run: Int, _ i: Int) -> Int32 { base.departure(basePattern(q), run, i) }
    @inline(__always) package func arrival(_ q: Int, _ run: Int, _ i: Int) -> Int32 { base.arrival(basePattern(q), run, i) }
    @inline(__always) package func trip(_ q: Int, _ run: Int) -> Int { base.trip(basePattern(q), run) }
    @inline(__always) package func times(of q: Int, _ run: Int) -> UnsafeBufferPointer<Int32> { base.times(of: basePattern(q), run) }
    @inline(__always) package func timeShift(_ q: Int) -> Int32 { base.timeShift(basePattern(q)) }
    @inline(__always) package func dayOffset(_ q: Int) -> Int { base.dayOffset(basePattern(q)) }
    @inline(__always) package func opens(_ q: Int) -> Int64 { base.opens(basePattern(q)) }
    @inline(__always) package func planned(_ q: Int, _ run: Int, _ i: Int) -> (arrival: Int32, departure: Int32) { base.planned(basePattern(q), run, i) }
    @inline(__always) package func instance(_ q: Int, _ run: Int) -> Int { base.instance(basePattern(q), run) }
    @inline(__always) package func status(_ q: Int, _ run: Int, _ i: Int) -> RealtimeStatus { base.status(basePattern(q), run, i) }
    @inline(__always) package func plannedFlags(of q: Int) -> UnsafeBufferPointer<UInt8> { flags(of: q) }

    @inline(__always) package func stops(of q: Int) -> UnsafeBufferPointer<Int32> {
        UnsafeBufferPointer(rebasing: stopsBuffer[Int(firstCalls[q])..<Int(firstCalls[q + 1])])
    }

    @inline(__always) package func flags(of q: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: flagsBuffer[Int(firstCalls[q])..<Int(firstCalls[q + 1])])
    }

    package func calls(at y: Int) -> Range<Int> {
        guard y >= 0, y < stopCount else { return 0..<0 }
        return Int(callStart[y])..<Int(callStart[y + 1])
    }

    package func call(_ index: Int) -> (pattern: Int, position: Int) { (Int(callPairs[2 * index]), Int(callPairs[2 * index + 1])) }

    /// Bounds per layer: to the next via, then on (`TargetBounds.init(layered:)`).
    package func targetBounds(edges: TransferEdges, destinations: [(stop: Int, start: Int32)]) -> TargetBounds {
        TargetBounds(layered: self, edges: edges, destinations: destinations)
    }
}
