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
        // Each pattern's shape, then the patterns shape by shape: a shape's plane and segment
        // grid are made once for all the patterns on it (`ShapePlaces.line`).
        var onShape: [(pattern: Int, shape: Int)] = []
        for q in 0..<timetable.patternCount {
            let rowsOfPattern = Int(timetable.patternTripStart[q])..<Int(timetable.patternTripStart[q + 1])
            for row in rowsOfPattern {
                let trip = Int(timetable.patternTrips[row]), s = trip < tripShape.count ? Int(tripShape[trip]) : -1
                if s >= 0 && drawable[s] { onShape.append((q, s)); break }
            }
        }
        onShape.sort { ($0.shape, $0.pattern) < ($1.shape, $1.pattern) }
        for (q, shape) in onShape {
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
    /// The last shape's plane and segment grid (patterns are placed shape by shape).
    private var line: (shape: Int, plane: ShapeLine)?

    init(_ t: Timetable) { self.t = t }

    /// A shape's points in meters on a plane tangent at its first point (enough for the few
    /// hundred meters a stop is from its line), with a grid of its segments.
    private func plane(_ shape: Int) -> ShapeLine {
        let range = Int(t.shapePointStart[shape])..<Int(t.shapePointStart[shape + 1])
        let lat0 = Double(t.shapeLat[range.lowerBound]) / 1e7
        let kx = cos(lat0 * .pi / 180) * 111_320
        return ShapeLine(x: range.map { Double(t.shapeLon[$0]) / 1e7 * kx }, y: range.map { Double(t.shapeLat[$0]) / 1e7 * 110_574 }, kx: kx)
    }

    /// The `GTFSCompiler.candidatesPerStop` nearest places of `stop` on the segments of `shape`:
    /// the first of them by (meters, segment), looked for among the segments the grid says may
    /// be that near (every segment was stops × points: 2,000 patterns on a 500,000-point shape
    /// took 117 s to import; issue 62).
    private mutating func near(_ stop: Int, _ shape: Int, _ line: ShapeLine) -> [(at: Double, meters: Double)] {
        let key = Int64(shape) << 32 | Int64(stop)
        if let known = candidates[key] { return known }
        let sx = t.stopLon[stop] * line.kx, sy = t.stopLat[stop] * 110_574
        var best: [(at: Double, meters: Double)] = []
        guard sx.isFinite && sy.isFinite else { return [] }
        // In segment order, as a look at every segment takes them: ties go to the first.
        for j in line.segments(near: sx, sy, count: GTFSCompiler.candidatesPerStop) {
            let place = line.nearest(on: j, to: sx, sy), meters = place.meters
            if best.count < GTFSCompiler.candidatesPerStop || meters < best[best.count - 1].meters {
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
        var options: [[(at: Double, meters: Double)]] = []
        for stop in stops {
            if let known = candidates[Int64(shape) << 32 | Int64(stop)] {
                options.append(known)
                continue
            }
            let plane = line.flatMap { $0.shape == shape ? $0.plane : nil } ?? self.plane(shape)
            line = (shape, plane)
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

/// A shape on the plane, with its segments filed in a grid of square cells (about one segment a
/// cell), so that a stop looks at the segments near it, ring of cells by ring, not at all.
struct ShapeLine {
    let x: [Double], y: [Double], kx: Double
    /// Below this many points a look at every segment is as quick as the grid.
    static let gridded = 64
    /// A segment whose box crosses more cells than this is looked at by every stop.
    static let maxCellsPerSegment = 64
    private let minX: Double, minY: Double, side: Double, columns: Int, rows: Int
    /// The segments of each cell (CSR: `cellStart[c]..<cellStart[c + 1]` of `cellSegments`).
    private let cellStart: [Int32], cellSegments: [Int32]
    /// Segments too long to file: looked at by every stop.
    private let wide: [Int32]

    init(x: [Double], y: [Double], kx: Double) {
        (self.x, self.y, self.kx) = (x, y, kx)
        let n = x.count - 1
        guard n >= Self.gridded, let x0 = x.min(), let x1 = x.max(), let y0 = y.min(), let y1 = y.max(), (x1 - x0).isFinite, (y1 - y0).isFinite else {
            (minX, minY, side, columns, rows, cellStart, cellSegments, wide) = (0, 0, 1, 0, 0, [], [], [])
            return
        }
        let width = x1 - x0, height = y1 - y0
        // About one segment a cell, square, never under a metre nor more cells than segments a side.
        let side = max(1, (width * height / Double(n)).squareRoot(), max(width, height) / Double(n))
        let columns = Int(width / side) + 1, rows = Int(height / side) + 1
        (minX, minY, self.side, self.columns, self.rows) = (x0, y0, side, columns, rows)
        func cells(_ j: Int) -> (ClosedRange<Int>, ClosedRange<Int>) {
            let c0 = Int((min(x[j], x[j + 1]) - x0) / side), c1 = Int((max(x[j], x[j + 1]) - x0) / side)
            let r0 = Int((min(y[j], y[j + 1]) - y0) / side), r1 = Int((max(y[j], y[j + 1]) - y0) / side)
            return (max(0, c0)...min(columns - 1, max(0, c1)), max(0, r0)...min(rows - 1, max(0, r1)))
        }
        var counts = [Int32](repeating: 0, count: columns * rows + 1), wide: [Int32] = []
        for j in 0..<n {
            let (cs, rs) = cells(j)
            guard cs.count * rs.count <= Self.maxCellsPerSegment else { wide.append(Int32(j)); continue }
            for r in rs { for c in cs { counts[r * columns + c + 1] += 1 } }
        }
        for k in 1..<counts.count { counts[k] += counts[k - 1] }
        var fill = counts, segments = [Int32](repeating: 0, count: Int(counts[counts.count - 1]))
        for j in 0..<n {
            let (cs, rs) = cells(j)
            guard cs.count * rs.count <= Self.maxCellsPerSegment else { continue }
            for r in rs {
                for c in cs {
                    segments[Int(fill[r * columns + c])] = Int32(j)
                    fill[r * columns + c] += 1
                }
            }
        }
        (cellStart, cellSegments, self.wide) = (counts, segments, wide)
    }

    /// The point of segment `j` nearest (sx, sy): where along the shape (`j` + its fraction of
    /// the segment) and how far.
    func nearest(on j: Int, to sx: Double, _ sy: Double) -> (at: Double, meters: Double) {
        let ax = x[j], ay = y[j], vx = x[j + 1] - ax, vy = y[j + 1] - ay, length = vx * vx + vy * vy
        let f = length > 0 ? min(1, max(0, ((sx - ax) * vx + (sy - ay) * vy) / length)) : 0
        let dx = ax + f * vx - sx, dy = ay + f * vy - sy
        return (Double(j) + f, (dx * dx + dy * dy).squareRoot())
    }

    /// The segments that may be among the `count` nearest to (sx, sy), in segment order: every
    /// segment of the rings of cells around the point until a ring lies farther than the
    /// `count`-th nearest seen (no segment outside the rings is nearer), and the wide ones.
    func segments(near sx: Double, _ sy: Double, count: Int) -> [Int] {
        let n = x.count - 1
        guard columns > 0 else { return Array(0..<max(0, n)) }
        var seen = Set<Int32>(wide), nearest: [Double] = []
        func distance(_ j: Int) -> Double { self.nearest(on: j, to: sx, sy).meters }
        func note(_ meters: Double) {
            let k = nearest.firstIndex { $0 > meters } ?? nearest.count
            if k < count { nearest.insert(meters, at: k); if nearest.count > count { nearest.removeLast() } }
        }
        for j in wide { note(distance(Int(j))) }
        // The point's cell (it may lie outside the grid), and how far the grid is in rings.
        let pc = Int(((sx - minX) / side).rounded(.down).clamped(-1e9, 1e9)), pr = Int(((sy - minY) / side).rounded(.down).clamped(-1e9, 1e9))
        let first = max(0, -pc, pc - (columns - 1), -pr, pr - (rows - 1))
        let last = max(abs(pc), abs(pc - (columns - 1)), abs(pr), abs(pr - (rows - 1)))
        var ring = first
        while ring <= last {
            // Every cell of this ring lies at least (ring - 1) sides away.
            if nearest.count == count, let worst = nearest.last, Double(ring - 1) * side > worst + 1e-6 { break }
            let r0 = max(0, pr - ring), r1 = min(rows - 1, pr + ring), c0 = max(0, pc - ring), c1 = min(columns - 1, pc + ring)
            guard r0 <= r1, c0 <= c1 else { ring += 1; continue }
            for r in r0...r1 {
                let edge = r == pr - ring || r == pr + ring
                for c in c0...c1 where edge || c == pc - ring || c == pc + ring {
                    let cell = r * columns + c
                    for k in Int(cellStart[cell])..<Int(cellStart[cell + 1]) where seen.insert(cellSegments[k]).inserted {
                        note(distance(Int(cellSegments[k])))
                    }
                }
            }
            ring += 1
        }
        return seen.map(Int.init).sorted()
    }
}

private extension Double {
    func clamped(_ low: Double, _ high: Double) -> Double { isNaN ? 0 : Swift.min(high, Swift.max(low, self)) }
}
