import Foundation
import TransitSupport

/// Reading the compiled shapes: the line a ride draws. Every value is checked where it is read
/// (a damaged file draws stop to stop, never traps).
extension Timetable {
    /// A stop's place along a shape is kept as (point index + fraction) × this.
    package static let shapeScale = 256

    package var shapeCount: Int { max(0, shapePointStart.count - 1) }

    /// The line a ride on pattern `q` draws from its position `from` to `to`: the boarding stop,
    /// its place on the shape, the shape's points between, the alighting stop's place on the
    /// shape, that stop. nil where the pattern has no shape (or its values do not hold).
    package func shapeLine(pattern q: Int, from: Int, to: Int) -> [Coordinate]? {
        guard q >= 0, q < patternShape.count, q + 1 < patternStopStart.count, from >= 0, from < to else { return nil }
        let s = Int(patternShape[q])
        guard s >= 0, s + 1 < shapePointStart.count else { return nil }
        let first = Int(shapePointStart[s]), end = Int(shapePointStart[s + 1])
        guard first >= 0, end <= shapeLat.count, end <= shapeLon.count, end - first >= 2 else { return nil }
        let base = Int(patternStopStart[q])
        guard base >= 0, base + to < Int(patternStopStart[q + 1]), base + to < patternShapeAt.count, base + to < patternStops.count else { return nil }
        let scale = Double(Self.shapeScale), last = Double(end - first - 1)
        let a = Double(patternShapeAt[base + from]) / scale, b = Double(patternShapeAt[base + to]) / scale
        guard a >= 0, a <= b, b <= last else { return nil }
        func vertex(_ k: Int) -> Coordinate {
            Coordinate(latitude: Double(shapeLat[first + k]) / 1e7, longitude: Double(shapeLon[first + k]) / 1e7)
        }
        func point(_ at: Double) -> Coordinate {
            let k = min(Int(at.rounded(.down)), end - first - 2), f = at - Double(k)
            let p = vertex(k), n = vertex(k + 1)
            return Coordinate(latitude: p.latitude + f * (n.latitude - p.latitude), longitude: p.longitude + f * (n.longitude - p.longitude))
        }
        func stop(_ i: Int) -> Coordinate? {
            let stop = Int(patternStops[base + i])
            return stop >= 0 && stop < stopCount ? coordinate(ofStop: stop) : nil
        }
        var line: [Coordinate] = []
        if let board = stop(from) { line.append(board) }
        line.append(point(a))
        let k0 = Int(a.rounded(.down)) + 1, k1 = Int(b.rounded(.down))
        if k0 <= k1 { for k in k0...k1 { line.append(vertex(k)) } }
        line.append(point(b))
        if let alight = stop(to) { line.append(alight) }
        return line
    }

    /// The pattern a trip's runs are laid out on (its first run's), where rides of the trip
    /// find their shape whatever schedule they were found on; -1 for none.
    package func basePattern(ofTrip trip: Int) -> Int {
        guard trip >= 0, trip + 1 < tripRunStart.count else { return -1 }
        let first = Int(tripRunStart[trip])
        guard first < Int(tripRunStart[trip + 1]), 2 * first < tripRuns.count else { return -1 }
        return Int(tripRuns[2 * first])
    }
}
