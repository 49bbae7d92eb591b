import Foundation
import Testing
@testable import TransitGTFS

/// Issue 71's contours on random grids, checked by `PolygonCheck` (which shares no code with
/// them): valid MultiPolygons, each threshold's inside the next's, and each grid node inside
/// exactly when its value is below the threshold.
extension CPUBound {
struct ContourTests {
    static func check(_ values: [Double], columns: Int, rows: Int, thresholds: [Double], beyond: Double, reach: Double = 0.3) -> [String] {
        var problems: [String] = []
        var previous: PolygonCheck.Polygons?
        for (k, threshold) in thresholds.enumerated() {
            let farthest = 0.9 + 0.09 * Double(k + 1) / Double(thresholds.count)
            let polygons = Contours.polygons(Contours.rings(values, columns: columns, rows: rows, threshold: threshold, beyond: beyond, reach: reach, farthest: farthest))
            let shapes: PolygonCheck.Polygons = polygons.map { $0.map { $0.map { (x: $0.x, y: $0.y) } } }
            problems += PolygonCheck.problems(shapes).map { "threshold \(threshold): \($0)" }
            for j in 0..<rows {
                for i in 0..<columns where PolygonCheck.contains(shapes, (Double(i), Double(j))) != (values[j * columns + i] < threshold) {
                    problems.append("threshold \(threshold): node \(i),\(j) (value \(values[j * columns + i])) on the wrong side")
                }
            }
            if let previous { problems += PolygonCheck.problems(nested: previous, in: shapes).map { "threshold \(threshold): \($0)" } }
            previous = shapes
        }
        return problems
    }

    @Test func randomGridsGiveValidNestedContoursAroundTheirInsideNodes() {
        var g = SplitMix(seed: 71)
        var failures: [String] = []
        for round in 0..<150 {
            let columns = 1 + Int(g.next() % 24), rows = 1 + Int(g.next() % 24)
            // Smooth-ish surfaces (distance from a few centres) and noise, some nodes beyond.
            let centres = (0..<(1 + Int(g.next() % 3))).map { _ in (Double(g.next() % 24), Double(g.next() % 24)) }
            let noise = round % 3 == 0
            let values: [Double] = (0..<(columns * rows)).map { k in
                if g.next() % 10 == 0 { return 21 }
                if noise { return Double(g.next() % 21) }
                let (i, j) = (Double(k % columns), Double(k / columns))
                return min(20, centres.map { (($0.0 - i) * ($0.0 - i) + ($0.1 - j) * ($0.1 - j)).squareRoot() }.min() ?? 0).rounded()
            }
            // A side's share per unit of value: a twentieth (most crossings near the inside node) to two (all at the farthest).
            let reach = [0.05, 0.3, 2][round % 3]
            let problems = Self.check(values, columns: columns, rows: rows, thresholds: [2.5, 5.5, 10.5, 15.5, 20.5], beyond: 21, reach: reach)
            if !problems.isEmpty { failures.append("round \(round) (\(columns) × \(rows)): \(problems.prefix(3))") }
        }
        #expect(failures.isEmpty, "\(failures.prefix(3))")
    }

    /// The saddle: two inside corners across a square stay apart, at every threshold.
    @Test func aSaddleKeepsItsInsideCornersApart() {
        let values: [Double] = [0, 9, 9, 0]
        let rings = Contours.rings(values, columns: 2, rows: 2, threshold: 0.5, beyond: 9, reach: 0.3, farthest: 0.95)
        #expect(rings.count == 2)
        #expect(Self.check(values, columns: 2, rows: 2, thresholds: [0.5, 4.5, 8.5], beyond: 9).isEmpty)
        // A hole: a ring of inside nodes around one beyond.
        let ring: [Double] = [0, 0, 0, 0, 9, 0, 0, 0, 0]
        let polygons = Contours.polygons(Contours.rings(ring, columns: 3, rows: 3, threshold: 0.5, beyond: 9, reach: 0.3, farthest: 0.95))
        #expect(polygons.count == 1 && polygons.first?.count == 2, "one polygon with a hole")
    }

    /// The checker itself finds what it is for.
    @Test func theCheckFindsCrossingsOrientationAndOpenRings() {
        let square: [PolygonCheck.Point] = [(0, 0), (1, 0), (1, 1), (0, 1), (0, 0)]
        #expect(PolygonCheck.problems([[square]]).isEmpty)
        #expect(!PolygonCheck.problems([[square.reversed()]]).isEmpty, "clockwise outer ring")
        #expect(!PolygonCheck.problems([[Array(square.dropLast())]]).isEmpty, "open ring")
        let bow: [PolygonCheck.Point] = [(0, 0), (1, 1), (1, 0), (0, 1), (0, 0)]
        #expect(!PolygonCheck.problems([[bow]]).isEmpty, "a bow tie crosses itself")
        let big: [PolygonCheck.Point] = [(-1, -1), (2, -1), (2, 2), (-1, 2), (-1, -1)]
        #expect(PolygonCheck.problems(nested: [[square]], in: [[big]]).isEmpty)
        #expect(!PolygonCheck.problems(nested: [[big]], in: [[square]]).isEmpty)
    }
}
}
