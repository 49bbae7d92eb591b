import Foundation
import TransitSupport

/// What a lower bound by straight lines needs (issue 47), measured once at import: a search of
/// one departure across a country cannot afford the Dijkstra of `TargetBounds` (it reads every run
/// of the day), but no journey can cover the straight line to its destination faster than the
/// fastest any ride covers the straight line between two calls, plus what its changes jump for
/// free. Straight lines are chords (through the earth, between points on the unit sphere): a true
/// distance, so the triangle inequality holds, and no longer than any way on the ground.
package enum StraightLines {
    /// The earth's radius the chords are measured on, in meters.
    static let radius = 6_371_000.0
    /// A stop's point on the unit sphere, each coordinate times 2^30 (a few millimeters on the ground).
    static let scale = Double(1 << 30)
    /// No ride is taken to be slower than this (m/s), so that a walk (1.2 m/s at most, a map's
    /// way no shorter than the straight line) never outruns the bound.
    static let slowest = 1.5

    /// (x, y, z) per stop, the unit sphere times 2^30; (0, 0, 0) for a stop without coordinates.
    package static func points(latitudes: Packed<Double>, longitudes: Packed<Double>) -> Packed<Int32> {
        var out = Packed<Int32>()
        out.reserveCapacity(latitudes.count * 3)
        for (lat, lon) in zip(latitudes, longitudes) {
            guard lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180 else {
                for _ in 0..<3 { out.append(0) }
                continue
            }
            let phi = lat * .pi / 180, lambda = lon * .pi / 180
            out.append(Int32((cos(phi) * cos(lambda) * scale).rounded()))
            out.append(Int32((cos(phi) * sin(lambda) * scale).rounded()))
            out.append(Int32((sin(phi) * scale).rounded()))
        }
        return out
    }

    /// The chord between two stops' points, in meters (nil where either has none).
    @inline(__always) static func meters(_ p: Packed<Int32>, _ a: Int, _ b: Int) -> Double? {
        guard a >= 0, b >= 0, 3 * a + 2 < p.count, 3 * b + 2 < p.count else { return nil }
        let ax = Double(p[3 * a]), ay = Double(p[3 * a + 1]), az = Double(p[3 * a + 2])
        let bx = Double(p[3 * b]), by = Double(p[3 * b + 1]), bz = Double(p[3 * b + 2])
        guard ax != 0 || ay != 0 || az != 0, bx != 0 || by != 0 || bz != 0 else { return nil }
        let dx = ax - bx, dy = ay - by, dz = az - bz
        return (dx * dx + dy * dy + dz * dz).squareRoot() / scale * radius
    }

    /// The fastest a ride covers the chord between two of its calls (mm/s), and the most a change
    /// covers beyond what that speed would in its least time (mm): 0 for the speed where there is
    /// no bound (a call without coordinates, times that do not rise (`leastHops` nil), a hop of
    /// no time between two places). `leastHops`: `BoundGraph.leastHops`, each hop's least time. A change's least time: a transfers.txt row of type 2 its min_transfer_time,
    /// any other row, and the platforms of one station, none (`--min-transfer 0`); walks are
    /// slower than `slowest`.
    package static func measure(_ t: Timetable, leastHops: [Int32]?) -> (speed: Int64, changeGain: Int64) {
        guard let leastHops, leastHops.count == t.patternStops.count else { return (0, 0) }
        let p = t.stopPoints
        var fastest = slowest
        for q in 0..<t.patternCount {
            guard let calls = t.callRange(ofPattern: q), calls.count > 1 else { continue }
            // Per hop, its chord; its least time over the pattern's runs is `leastHops`'.
            guard let chord = chords(p, along: t.stops(ofPattern: q)) else { return (0, 0) }
            // The fastest hop bounds every ride: one of several hops covers no more than the sum of
            // their chords, in no less than the sum of their times.
            for i in 0..<(calls.count - 1) where chord[i] > 0 {
                let least = leastHops[calls.lowerBound + i]
                // A pattern without runs bounds nothing.
                guard least != .max else { continue }
                guard least > 0 else { return (0, 0) }
                fastest = max(fastest, chord[i] / Double(least))
            }
        }
        var gain = 0.0
        // A pair where a vehicle calls at both (a change is between such stops); false where one
        // has no place.
        func change(_ a: Int, _ b: Int, seconds: Double) -> Bool {
            guard a != b, t.isCalledAt(a), t.isCalledAt(b) else { return true }
            guard let m = meters(p, a, b) else { return false }
            gain = max(gain, m - fastest * seconds)
            return true
        }
        let neighbours = t.neighbours
        for station in 0..<t.stopCount {
            let children = neighbours.children(ofStation: station)
            for a in children {
                for b in children where !change(Int(a), Int(b), seconds: 0) { return (0, 0) }
            }
        }
        // A row names stops or their stations: each pair of stops it may stand for.
        func stops(_ s: Int32) -> [Int] {
            let children = neighbours.children(ofStation: Int(s))
            return children.isEmpty ? [Int(s)] : children.map { Int($0) }
        }
        for rule in t.transfers where rule.type != 3 && rule.fromStop >= 0 && rule.toStop >= 0 {
            let seconds = rule.type == 2 ? Double(max(0, rule.minTime)) : 0
            for a in stops(rule.fromStop) {
                for b in stops(rule.toStop) where !change(a, b, seconds: seconds) { return (0, 0) }
            }
        }
        return (Int64(fastest * 1000) + 1, Int64(gain * 1000) + 1)
    }

    /// The chord of each hop along `stops`, in meters; nil where a stop has no place.
    static func chords(_ p: Packed<Int32>, along stops: UnsafeBufferPointer<Int32>) -> [Double]? {
        var out: [Double] = []
        out.reserveCapacity(max(0, stops.count - 1))
        for i in 0..<max(0, stops.count - 1) {
            guard let m = meters(p, Int(stops[i]), Int(stops[i + 1])) else { return nil }
            out.append(m)
        }
        return out
    }

    /// Whether a run's (arrival, departure) pairs at its `n` calls rise: each departure no
    /// earlier than its arrival, each arrival no earlier than the departure before.
    static func rises(_ times: UnsafeBufferPointer<Int32>, calls n: Int) -> Bool {
        guard times.count >= 2 * n else { return false }
        for i in 0..<n {
            guard times[2 * i + 1] >= times[2 * i] else { return false }
            if i + 1 < n, times[2 * i + 2] < times[2 * i + 1] { return false }
        }
        return true
    }

    /// Feeds searched as one: the fastest of their rides, the most any of their changes gains
    /// (between feeds a change is a walk); no bound where a feed has none.
    static func combine(_ out: inout Timetable, _ parts: [Timetable]) {
        let bounded = parts.allSatisfy { $0.straightLineSpeed > 0 }
        out.straightLineSpeed = bounded ? parts.map(\.straightLineSpeed).max() ?? 0 : 0
        out.straightLineChangeGain = parts.map(\.straightLineChangeGain).max() ?? 0
    }
}
