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
    /// no bound (a call without coordinates, times that do not rise, a hop of no time between
    /// two places). A change's least time: a transfers.txt row of type 2 its min_transfer_time,
    /// any other row, and the platforms of one station, none (`--min-transfer 0`); walks are
    /// slower than `slowest`.
    package static func measure(_ t: Timetable) -> (speed: Int64, changeGain: Int64) {
        let p = t.stopPoints
        var fastest = slowest
        for q in 0..<t.patternCount {
            guard let calls = t.callRange(ofPattern: q), let rows = t.rowRange(ofPattern: q), calls.count > 1, t.isLaidOut(pattern: q) else { continue }
            let n = calls.count
            // Per hop, its chord and its least time over the pattern's runs.
            var chord = [Double](repeating: 0, count: n - 1), least = [Int64](repeating: .max, count: n - 1)
            for i in 0..<(n - 1) {
                guard let m = meters(p, Int(t.patternStops[calls.lowerBound + i]), Int(t.patternStops[calls.lowerBound + i + 1])) else { return (0, 0) }
                chord[i] = m
            }
            for row in 0..<rows.count {
                let start = t.timeIndex(pattern: q, row: row, position: 0)
                guard start >= 0, start + 2 * n <= t.times.count else { return (0, 0) }
                for i in 0..<n {
                    let arrival = Int64(t.times[start + 2 * i]), departure = Int64(t.times[start + 2 * i + 1])
                    guard arrival >= 0, departure >= arrival else { return (0, 0) }
                    if i + 1 < n {
                        let next = Int64(t.times[start + 2 * i + 2])
                        guard next >= departure else { return (0, 0) }
                        least[i] = min(least[i], next - departure)
                    }
                }
            }
            // The fastest hop bounds every ride: one of several hops covers no more than the sum of
            // their chords, in no less than the sum of their times.
            for i in 0..<(n - 1) where chord[i] > 0 {
                guard least[i] > 0 else { return (0, 0) }
                fastest = max(fastest, chord[i] / Double(least[i]))
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
        for station in 0..<t.stopCount where t.stationChildStart.count == t.stopCount + 1 {
            let children = Int(t.stationChildStart[station])..<Int(t.stationChildStart[station + 1])
            guard children.lowerBound >= 0, children.upperBound <= t.stationChildren.count else { return (0, 0) }
            for a in children {
                for b in children where !change(Int(t.stationChildren[a]), Int(t.stationChildren[b]), seconds: 0) { return (0, 0) }
            }
        }
        // A row names stops or their stations: each pair of stops it may stand for.
        func stops(_ s: Int32) -> [Int] {
            let stop = Int(s)
            guard stop >= 0, stop + 1 < t.stationChildStart.count else { return stop >= 0 ? [stop] : [] }
            let children = Int(t.stationChildStart[stop])..<Int(t.stationChildStart[stop + 1])
            guard !children.isEmpty, children.lowerBound >= 0, children.upperBound <= t.stationChildren.count else { return [stop] }
            return children.map { Int(t.stationChildren[$0]) }
        }
        for rule in t.transfers where rule.type != 3 && rule.fromStop >= 0 && rule.toStop >= 0 {
            let seconds = rule.type == 2 ? Double(max(0, rule.minTime)) : 0
            for a in stops(rule.fromStop) {
                for b in stops(rule.toStop) where !change(a, b, seconds: seconds) { return (0, 0) }
            }
        }
        return (Int64(fastest * 1000) + 1, Int64(gain * 1000) + 1)
    }

    /// Feeds searched as one: the fastest of their rides, the most any of their changes gains
    /// (between feeds a change is a walk); no bound where a feed has none.
    static func combine(_ out: inout Timetable, _ parts: [Timetable]) {
        let bounded = parts.allSatisfy { $0.straightLineSpeed > 0 }
        out.straightLineSpeed = bounded ? parts.map(\.straightLineSpeed).max() ?? 0 : 0
        out.straightLineChangeGain = parts.map(\.straightLineChangeGain).max() ?? 0
    }
}
