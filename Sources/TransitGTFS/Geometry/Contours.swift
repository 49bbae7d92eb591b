import Foundation

/// Contour lines of a grid of values (marching squares): the region where the value is below a
/// threshold, as rings. One fixed saddle rule (an ambiguous square's two inside corners are kept
/// apart), and a crossing placed along a square's side from its inside node by what the value
/// left below the threshold allows (for travel times: as far as the minutes left walk), so that
/// for two thresholds the lower's crossings lie nearer the inside nodes and its region inside the
/// higher's, square by square: contours of increasing thresholds are nested by construction.
package enum Contours {
    /// A point in grid units: x the column, y the row (row 0 south), a node at each integer pair.
    package typealias Point = (x: Double, y: Double)

    /// The rings around the nodes whose value is below `threshold`, on a grid of `columns × rows`
    /// values (row-major, row 0 first), every node beyond the grid reading `beyond`. Each ring is
    /// closed (its first point again at the end), simple, and meets no other; the region is on its
    /// left: outer rings run counter-clockwise, holes clockwise. A side from an inside node of
    /// value v to an outside one is crossed `reach` × (threshold − v) of the way along, at least
    /// 5 % and at most `farthest` (below 1): no two points of the rings come nearer than a
    /// twentieth of a side, and two thresholds' crossings of one side differ where `farthest` does.
    package static func rings(_ values: [Double], columns: Int, rows: Int, threshold: Double, beyond: Double, reach: Double, farthest: Double) -> [[Point]] {
        guard columns > 0, rows > 0, values.count == columns * rows else { return [] }
        // Nodes -1 ... columns (and rows): a border beyond the grid, so that every ring closes.
        let width = columns + 2
        func value(_ i: Int, _ j: Int) -> Double {
            guard i >= 0, i < columns, j >= 0, j < rows else { return beyond }
            return values[j * columns + i]
        }
        func inside(_ i: Int, _ j: Int) -> Bool { value(i, j) < threshold }
        // A side's id: from node (i, j) east (even) or north (odd), nodes counted from the border.
        func side(_ i: Int, _ j: Int, north: Bool) -> Int { 2 * ((j + 1) * width + (i + 1)) + (north ? 1 : 0) }
        var next: [Int: Int] = [:], points: [Int: Point] = [:]
        /// The crossing on the side from node a to node b (one inside, one not).
        func crossing(_ id: Int, _ a: (Int, Int), _ b: (Int, Int)) {
            guard points[id] == nil else { return }
            let (p, q) = inside(a.0, a.1) ? (a, b) : (b, a)
            let f = min(max(farthest, 0.05), max(0.05, (threshold - value(p.0, p.1)) * reach))
            points[id] = (Double(p.0) + f * Double(q.0 - p.0), Double(p.1) + f * Double(q.1 - p.1))
        }
        // Which nodes are inside, worked out once (a border of outside nodes around).
        var insideNode = [Bool](repeating: false, count: width * (rows + 2))
        for j in 0..<rows {
            for i in 0..<columns where values[j * columns + i] < threshold { insideNode[(j + 1) * width + i + 1] = true }
        }
        for j in -1..<rows {
            for i in -1..<columns {
                // The square's corners counter-clockwise from the south-west.
                let sw = insideNode[(j + 1) * width + i + 1], se = insideNode[(j + 1) * width + i + 2]
                let ne = insideNode[(j + 2) * width + i + 2], nw = insideNode[(j + 2) * width + i + 1]
                if sw == se && se == ne && ne == nw { continue }
                // Its sides in that order, each (from corner, to corner) with the side's id.
                var found: [(side: Int, leaving: Bool)] = []
                found.reserveCapacity(4)
                func look(_ a: (Int, Int), _ ina: Bool, _ b: (Int, Int), _ inb: Bool, _ id: Int) {
                    guard ina != inb else { return }
                    crossing(id, a, b)
                    found.append((id, ina))
                }
                look((i, j), sw, (i + 1, j), se, side(i, j, north: false))
                look((i + 1, j), se, (i + 1, j + 1), ne, side(i + 1, j, north: true))
                look((i + 1, j + 1), ne, (i, j + 1), nw, side(i, j + 1, north: false))
                look((i, j + 1), nw, (i, j), sw, side(i, j, north: true))
                // Each side leaving the region (going round counter-clockwise) joins the side that
                // entered it before: the region is on the segment's left. In a saddle that keeps
                // the two inside corners apart.
                let n = found.count
                for k in 0..<n where found[k].leaving { next[found[k].side] = found[(k + n - 1) % n].side }
            }
        }
        var rings: [[Point]] = []
        var done = Set<Int>()
        for start in next.keys.sorted() where !done.contains(start) {
            var ring: [Point] = [], at = start
            // Each side is entered once and left once, so the walk comes back to its start.
            while !done.contains(at), let point = points[at], let following = next[at] {
                done.insert(at)
                ring.append(point)
                at = following
            }
            guard ring.count >= 3, at == start else { continue }
            ring.append(ring[0])
            rings.append(ring)
        }
        return rings
    }

    /// Twice the signed area of a closed ring (positive: counter-clockwise).
    package static func doubleArea(_ ring: [Point]) -> Double {
        var sum = 0.0
        for k in 0..<max(0, ring.count - 1) { sum += ring[k].x * ring[k + 1].y - ring[k + 1].x * ring[k].y }
        return sum
    }

    /// Is `p` inside the closed ring (even-odd; a point on it either way)?
    package static func contains(_ ring: [Point], _ p: Point) -> Bool {
        var inside = false
        var k = 0
        while k + 1 < ring.count {
            let a = ring[k], b = ring[k + 1]
            if (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) { inside.toggle() }
            k += 1
        }
        return inside
    }

    /// Rings (from `rings`) as polygons: each outer ring followed by the holes directly inside it
    /// (a hole belongs to the smallest outer ring around it). Rings meet nowhere, so one point
    /// of a hole tells which rings it is in.
    package static func polygons(_ rings: [[Point]]) -> [[[Point]]] {
        var outers: [(ring: [Point], area: Double, box: (Double, Double, Double, Double))] = []
        var holes: [[Point]] = []
        for ring in rings {
            let area = doubleArea(ring)
            if area > 0 {
                let xs = ring.map(\.x), ys = ring.map(\.y)
                outers.append((ring, area, (xs.min() ?? 0, xs.max() ?? 0, ys.min() ?? 0, ys.max() ?? 0)))
            } else if area < 0 {
                holes.append(ring)
            }
        }
        var polygons: [[[Point]]] = outers.map { [$0.ring] }
        for hole in holes {
            guard let p = hole.first else { continue }
            var best: (index: Int, area: Double)?
            for (k, outer) in outers.enumerated() where outer.box.0 <= p.x && p.x <= outer.box.1 && outer.box.2 <= p.y && p.y <= outer.box.3 {
                guard outer.area < (best?.area ?? .infinity), contains(outer.ring, p) else { continue }
                best = (k, outer.area)
            }
            if let best { polygons[best.index].append(hole) }
        }
        return polygons
    }
}
