import Foundation
import TransitSupport

/// shapes.txt, compiled: the points of the shapes trips name, and each pattern's stops placed
/// along its shape, so that a ride draws the line its vehicle runs (issue 45, item 2).
extension GTFSCompiler {
    /// The most shape points a feed may have (all shapes together): past it shapes.txt is left
    /// out whole, with a notice, rather than a shape cut part-way. Real feeds have a few million.
    package static let maxShapePoints = 10_000_000
    /// How many segments near a stop are its candidate places on a shape.
    static let candidatesPerStop = 8

    /// Reads shapes.txt (nil: the feed has none) and places each pattern's stops along the shape
    /// of its first trip that has one. Where a stop lies along a shape is not read from
    /// `shape_dist_traveled`: feeds give it in units that disagree between stop_times.txt and
    /// shapes.txt (BART 2022: feet and about 3 m), so each stop takes one of its nearest points
    /// on the shape, chosen for all the pattern's stops together: in order along the shape, the
    /// least distance in all (`place`), which a shape that loops or doubles back needs.
    package mutating func readShapes(_ r: CSVReader?) throws(TransitError) {
        var patternShape = [Int32](repeating: -1, count: t.patternCount), patternShapeAt = [Int32](repeating: 0, count: t.patternStops.count)
        defer {
            t.patternShape = Packed(patternShape)
            t.patternShapeAt = Packed(patternShapeAt)
        }
        guard let r, shapes.count > 0 else { return }
        let c = try columns(r, ["shape_id", "shape_pt_lat", "shape_pt_lon", "shape_pt_sequence"])
        var rows: [(shape: Int32, sequence: Int32, lat: Int32, lon: Int32)] = []
        var unnamed = 0, unusable = 0
        while try r.next() {
            guard let shape = shapes.find(r.bytes(c[0])) else { unnamed += 1; continue }
            guard rows.count < Self.maxShapePoints else {
                warnings.append("shapes.txt has more than \(Self.maxShapePoints) points (the bound; see docs/gtfs.md): left out, rides are drawn stop to stop")
                return
            }
            guard let lat = FieldBytes.double(r.bytes(c[1])), let lon = FieldBytes.double(r.bytes(c[2])), (-90...90).contains(lat),
                  (-180...180).contains(lon), let sequence = FieldBytes.int(r.bytes(c[3])), (0...Int(Int32.max)).contains(sequence) else {
                unusable += 1
                continue
            }
            rows.append((Int32(shape), Int32(sequence), Int32((lat * 1e7).rounded()), Int32((lon * 1e7).rounded())))
        }
        // Each shape's points in shape_pt_sequence order (the file may list them in any), a
        // point the same as the one before it kept once.
        rows.sort { ($0.shape, $0.sequence) < ($1.shape, $1.sequence) }
        var start = [Int32](repeating: 0, count: shapes.count + 1), lat: [Int32] = [], lon: [Int32] = []
        lat.reserveCapacity(rows.count)
        lon.reserveCapacity(rows.count)
        var k = 0
        for s in 0..<shapes.count {
            start[s] = Int32(lat.count)
            let first = lat.count
            while k < rows.count && Int(rows[k].shape) == s {
                if lat.count == first || lat[lat.count - 1] != rows[k].lat || lon[lon.count - 1] != rows[k].lon {
                    lat.append(rows[k].lat)
                    lon.append(rows[k].lon)
                }
                k += 1
            }
        }
        start[shapes.count] = Int32(lat.count)
        t.shapePointStart = Packed(start)
        t.shapeLat = Packed(lat)
        t.shapeLon = Packed(lon)
        // Trips naming a shape with fewer than two points (none, in shapes.txt) ride stop to stop.
        let drawable = (0..<shapes.count).map { start[$0 + 1] - start[$0] >= 2 }
        let missing = tripShape.filter { $0 >= 0 && !drawable[Int($0)] }.count
        var places = ShapePlaces(t)
        let timetable = t, tripShape = self.tripShape
        for q in 0..<timetable.patternCount {
            let rowsOfPattern = Int(timetable.patternTripStart[q])..<Int(timetable.patternTripStart[q + 1])
            var found: Int?
            for row in rowsOfPattern {
                let trip = Int(timetable.patternTrips[row]), s = trip < tripShape.count ? Int(tripShape[trip]) : -1
                if s >= 0 && drawable[s] { found = s; break }
            }
            guard let shape = found else { continue }
            let calls = Int(timetable.patternStopStart[q])..<Int(timetable.patternStopStart[q + 1])
            let at = places.place(calls.map { Int(timetable.patternStops[$0]) }, on: shape)
            patternShape[q] = Int32(shape)
            for (i, position) in zip(calls, at) { patternShapeAt[i] = Int32(clamping: Int((position * Double(Timetable.shapeScale)).rounded(.down))) }
        }
        if unusable > 0 {
            warnings.append("\(unusable) \(unusable == 1 ? "row" : "rows") of shapes.txt \(unusable == 1 ? "has" : "have") no usable point (a latitude, longitude or sequence missing or out of range): left out")
        }
        if missing > 0 {
            warnings.append("\(missing) \(missing == 1 ? "trip names a shape" : "trips name shapes") with fewer than two points in shapes.txt: drawn stop to stop")
        }
        if unnamed > 0 {
            warnings.append("\(unnamed) \(unnamed == 1 ? "point" : "points") of shapes.txt \(unnamed == 1 ? "is of a shape" : "are of shapes") no trip names: left out")
        }
    }
}

/// Where stops lie along shapes: each stop's nearest segments of a shape (found once per stop
/// and shape, as patterns share both), and the places of a pattern's stops chosen together.
struct ShapePlaces {
    let t: Timetable
    /// (shape, stop) → candidate places along the shape: (point index + fraction, meters away).
    private var candidates: [Int64: [(at: Double, meters: Double)]] = [:]

    init(_ t: Timetable) { self.t = t }

    /// A shape's points in meters on a plane tangent at its first point (enough for the few
    /// hundred meters a stop is from its line).
    private func plane(_ shape: Int) -> (x: [Double], y: [Double], kx: Double) {
        let range = Int(t.shapePointStart[shape])..<Int(t.shapePointStart[shape + 1])
        let lat0 = Double(t.shapeLat[range.lowerBound]) / 1e7
        let kx = cos(lat0 * .pi / 180) * 111_320
        return (range.map { Double(t.shapeLon[$0]) / 1e7 * kx }, range.map { Double(t.shapeLat[$0]) / 1e7 * 110_574 }, kx)
    }

    /// The `GTFSCompiler.candidatesPerStop` nearest places of `stop` on the segments of `shape`.
    private mutating func near(_ stop: Int, _ shape: Int, _ line: (x: [Double], y: [Double], kx: Double)) -> [(at: Double, meters: Double)] {
        let key = Int64(shape) << 32 | Int64(stop)
        if let known = candidates[key] { return known }
        let sx = t.stopLon[stop] * line.kx, sy = t.stopLat[stop] * 110_574
        var best: [(at: Double, meters: Double)] = []
        guard sx.isFinite && sy.isFinite else { return [] }
        for j in 0..<(line.x.count - 1) {
            let ax = line.x[j], ay = line.y[j], vx = line.x[j + 1] - ax, vy = line.y[j + 1] - ay
            let length = vx * vx + vy * vy
            let f = length > 0 ? min(1, max(0, ((sx - ax) * vx + (sy - ay) * vy) / length)) : 0
            let dx = ax + f * vx - sx, dy = ay + f * vy - sy
            let meters = (dx * dx + dy * dy).squareRoot()
            if best.count < GTFSCompiler.candidatesPerStop || meters < best[best.count - 1].meters {
                let place = (at: Double(j) + f, meters: meters)
                let index = best.firstIndex { $0.meters > meters } ?? best.count
                best.insert(place, at: index)
                if best.count > GTFSCompiler.candidatesPerStop { best.removeLast() }
            }
        }
        candidates[key] = best
        return best
    }

    /// Each of `stops`' places along `shape` (point index + fraction), in order along it, the
    /// least distance in all: a stop may take any of its nearest places that does not come
    /// before the place of the stop before it (dynamic programming over the candidates; a stop
    /// with none that fits takes its nearest, at a cost that makes it the last resort).
    mutating func place(_ stops: [Int], on shape: Int) -> [Double] {
        // The shape's plane, made only where some stop's candidates are not known yet (patterns
        // share shapes: most find every stop's).
        var line: (x: [Double], y: [Double], kx: Double)?
        var options: [[(at: Double, meters: Double)]] = []
        for stop in stops {
            if let known = candidates[Int64(shape) << 32 | Int64(stop)] {
                options.append(known)
                continue
            }
            let plane = line ?? self.plane(shape)
            line = plane
            guard plane.x.count >= 2 else { return stops.map { _ in 0 } }
            options.append(near(stop, shape, plane))
        }
        // cost[i][c]: the least total distance of stops 0...i with stop i at its candidate c.
        var cost: [[Double]] = [], from: [[Int]] = []
        for (i, here) in options.enumerated() {
            var row: [Double] = [], back: [Int] = []
            for candidate in here {
                guard i > 0, !options[i - 1].isEmpty else {
                    row.append(candidate.meters)
                    back.append(-1)
                    continue
                }
                var best = Double.infinity, which = -1, fallback = Double.infinity, fallbackWhich = -1
                for (p, previous) in options[i - 1].enumerated() {
                    let total = cost[i - 1][p]
                    if previous.at <= candidate.at + 1e-9 && total < best { (best, which) = (total, p) }
                    if total < fallback { (fallback, fallbackWhich) = (total, p) }
                }
                if which < 0 { (best, which) = (fallback + 1_000_000, fallbackWhich) }
                row.append(best + candidate.meters)
                back.append(which)
            }
            cost.append(row)
            from.append(back)
        }
        // Back from the last stop's best place; a stop without candidates (no coordinates) takes
        // the place of the stop before it.
        var at = [Double](repeating: 0, count: stops.count)
        var pick = cost.last.flatMap { row in row.indices.min { row[$0] < row[$1] } } ?? -1
        for i in stride(from: stops.count - 1, through: 0, by: -1) {
            if pick >= 0 && pick < options[i].count {
                at[i] = options[i][pick].at
                pick = from[i][pick]
            } else {
                pick = -1
            }
        }
        for i in at.indices.dropFirst() where options[i].isEmpty { at[i] = at[i - 1] }
        return at
    }
}
