import Foundation

/// Stops bucketed by a square grid of `cell` meters, for the walking pairs: the walks a
/// combination compiles, and a `--walk` or `--link` longer than those stored.
package struct StopGrid {
    package var cells: [Int64: [Int]] = [:]
    package let latStep: Double
    package let lonStep: Double

    /// `calledAtOnly`: only the stops a vehicle calls at (a matrix's points board there).
    package init(_ t: Timetable, cell: Double, calledAtOnly: Bool = false) {
        latStep = max(cell / 111_000, 1e-6)
        let maxLat = t.stopLat.filter { !$0.isNaN }.map(abs).max() ?? 0
        lonStep = latStep / max(cos(min(maxLat, 85) * .pi / 180), 0.05)
        for stop in 0..<t.stopCount where !t.stopLat[stop].isNaN && !t.stopLon[stop].isNaN && (!calledAtOnly || t.isCalledAt(stop)) {
            cells[key(t.stopLat[stop], t.stopLon[stop]), default: []].append(stop)
        }
    }

    package func key(_ lat: Double, _ lon: Double) -> Int64 {
        let a = Int64(Int(saturating: lat / latStep)), b = Int64(Int(saturating: lon / lonStep))
        return a &* 1_000_003 &+ b
    }

    /// How many stops `near` would list, without listing them.
    package func count(near stop: Int, _ t: Timetable) -> Int {
        let lat = t.stopLat[stop], lon = t.stopLon[stop]
        var n = 0
        for dy in -1...1 {
            for dx in -1...1 { n += cells[key(lat + Double(dy) * latStep, lon + Double(dx) * lonStep)]?.count ?? 0 }
        }
        return n
    }

    package func near(_ stop: Int, _ t: Timetable) -> [Int] {
        let lat = t.stopLat[stop], lon = t.stopLon[stop]
        var out: [Int] = []
        for dy in -1...1 {
            for dx in -1...1 { out += cells[key(lat + Double(dy) * latStep, lon + Double(dx) * lonStep)] ?? [] }
        }
        return out
    }

    /// The stops in the nine cells around `point`, each with its distance from it: every stop
    /// within one cell's width (in a straight line) is among them.
    package func near(_ point: Coordinate, _ t: Timetable) -> [(stop: Int, meters: Double)] {
        var out: [(stop: Int, meters: Double)] = []
        for dy in -1...1 {
            for dx in -1...1 {
                for stop in cells[key(point.latitude + Double(dy) * latStep, point.longitude + Double(dx) * lonStep)] ?? [] {
                    let d = point.meters(to: Coordinate(latitude: t.stopLat[stop], longitude: t.stopLon[stop]))
                    if d.isFinite { out.append((stop, d)) }
                }
            }
        }
        return out.sorted { ($0.stop) < ($1.stop) }
    }
}
