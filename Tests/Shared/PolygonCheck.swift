import Foundation

/// A check of MultiPolygons that shares nothing with the code that traces them (issue 71): each
/// ring closed, outer rings counter-clockwise and holes clockwise, no two segments crossing or
/// touching (but a ring's neighbours at their shared end), each hole inside its outer ring, no
/// polygon inside another; and one MultiPolygon inside another (an isochrone's cutoffs).
enum PolygonCheck {
    typealias Point = (x: Double, y: Double)
    typealias Polygons = [[[Point]]]

    /// Twice the signed area (positive: counter-clockwise).
    static func doubleArea(_ ring: [Point]) -> Double {
        guard ring.count > 1 else { return 0 }
        return (0..<(ring.count - 1)).reduce(0) { $0 + ring[$1].x * ring[$1 + 1].y - ring[$1 + 1].x * ring[$1].y }
    }

    /// Even-odd, on a closed ring.
    static func inRing(_ ring: [Point], _ p: Point) -> Bool {
        var inside = false
        for k in 0..<max(0, ring.count - 1) {
            let a = ring[k], b = ring[k + 1]
            if (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) { inside.toggle() }
        }
        return inside
    }

    /// Inside a polygon's outer ring and none of its holes.
    static func contains(_ polygons: Polygons, _ p: Point) -> Bool {
        polygons.contains { polygon in
            guard let outer = polygon.first, inRing(outer, p) else { return false }
            return !polygon.dropFirst().contains { inRing($0, p) }
        }
    }

    /// What is wrong with `polygons` (empty: a valid MultiPolygon).
    static func problems(_ polygons: Polygons) -> [String] {
        var out: [String] = []
        for (n, polygon) in polygons.enumerated() {
            guard !polygon.isEmpty else { out.append("polygon \(n) has no ring"); continue }
            for (k, ring) in polygon.enumerated() {
                guard ring.count >= 4 else { out.append("polygon \(n) ring \(k) has \(ring.count) points"); continue }
                if ring[0] != ring[ring.count - 1] { out.append("polygon \(n) ring \(k) is not closed") }
                let area = doubleArea(ring)
                if k == 0 && !(area > 0) { out.append("polygon \(n)'s outer ring is not counter-clockwise") }
                if k > 0 && !(area < 0) { out.append("polygon \(n) hole \(k) is not clockwise") }
                if k > 0, let p = ring.first, !inRing(polygon[0], p) { out.append("polygon \(n) hole \(k) is outside its outer ring") }
            }
        }
        for (n, polygon) in polygons.enumerated() {
            guard let p = polygon.first?.first else { continue }
            for (m, other) in polygons.enumerated() where m != n && contains([other], p) { out.append("polygon \(n) lies inside polygon \(m)") }
        }
        return out + crossings(polygons.flatMap { $0 })
    }

    /// Every point of `inner` inside `outer`, and no segment of one meeting one of the other.
    static func problems(nested inner: Polygons, in outer: Polygons) -> [String] {
        var out: [String] = []
        let points = inner.flatMap { $0.flatMap { $0 } }
        if let p = points.first(where: { !contains(outer, $0) }) { out.append("point \(p) is not inside the next contour") }
        return out + crossings(inner.flatMap { $0 } + outer.flatMap { $0 })
    }

    /// Pairs of segments of `rings` that meet, other than a ring's consecutive segments at their
    /// shared end: segments bucketed by a grid over their bounding boxes, each pair in a bucket tested.
    static func crossings(_ rings: [[Point]]) -> [String] {
        struct Segment { var a: Point; var b: Point; var ring: Int; var index: Int; var count: Int }
        var segments: [Segment] = []
        for (r, ring) in rings.enumerated() where ring.count >= 2 {
            for k in 0..<(ring.count - 1) { segments.append(Segment(a: ring[k], b: ring[k + 1], ring: r, index: k, count: ring.count - 1)) }
        }
        guard !segments.isEmpty else { return [] }
        let mean = segments.reduce(0) { $0 + abs($1.a.x - $1.b.x) + abs($1.a.y - $1.b.y) } / Double(segments.count)
        let size = max(mean * 2, 1e-9)
        var buckets: [Int64: [Int]] = [:]
        for (s, segment) in segments.enumerated() {
            let x0 = Int64((min(segment.a.x, segment.b.x) / size).rounded(.down)), x1 = Int64((max(segment.a.x, segment.b.x) / size).rounded(.down))
            let y0 = Int64((min(segment.a.y, segment.b.y) / size).rounded(.down)), y1 = Int64((max(segment.a.y, segment.b.y) / size).rounded(.down))
            guard x1 - x0 < 1000, y1 - y0 < 1000 else { return ["a segment spans more than 1000 buckets"] }
            for x in x0...x1 { for y in y0...y1 { buckets[x &* 1_000_003 &+ y, default: []].append(s) } }
        }
        func orient(_ p: Point, _ q: Point, _ r: Point) -> Double { (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x) }
        func onSegment(_ p: Point, _ q: Point, _ r: Point) -> Bool {
            min(p.x, q.x) <= r.x && r.x <= max(p.x, q.x) && min(p.y, q.y) <= r.y && r.y <= max(p.y, q.y)
        }
        func meet(_ s: Segment, _ t: Segment) -> Bool {
            let d1 = orient(t.a, t.b, s.a), d2 = orient(t.a, t.b, s.b), d3 = orient(s.a, s.b, t.a), d4 = orient(s.a, s.b, t.b)
            if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) { return true }
            return (d1 == 0 && onSegment(t.a, t.b, s.a)) || (d2 == 0 && onSegment(t.a, t.b, s.b))
                || (d3 == 0 && onSegment(s.a, s.b, t.a)) || (d4 == 0 && onSegment(s.a, s.b, t.b))
        }
        var out: [String] = [], seen = Set<Int64>()
        for (_, members) in buckets {
            for i in 0..<members.count {
                for j in (i + 1)..<members.count {
                    let (s, t) = (segments[members[i]], segments[members[j]])
                    // A ring's consecutive segments share an end (the last and the first too).
                    if s.ring == t.ring && (abs(s.index - t.index) == 1 || abs(s.index - t.index) == s.count - 1) {
                        // Only a fold back along the same line is wrong there.
                        let first = s.index + 1 == t.index || (t.index == 0 && s.index == s.count - 1)
                        let (before, after) = first ? (s, t) : (t, s)
                        let (p, q, r) = (before.a, before.b, after.b)
                        if orient(p, q, r) == 0 && (p.x - q.x) * (r.x - q.x) + (p.y - q.y) * (r.y - q.y) > 0 { out.append("ring \(s.ring) folds back at \(q)") }
                        continue
                    }
                    let key = Int64(min(members[i], members[j])) &* 10_000_019 &+ Int64(max(members[i], members[j]))
                    guard !seen.contains(key), meet(s, t) else { continue }
                    seen.insert(key)
                    out.append("segments of rings \(s.ring) and \(t.ring) meet near \(s.a)")
                    if out.count >= 5 { return out }
                }
            }
        }
        return out
    }

    /// A GeoJSON FeatureCollection's MultiPolygons, [longitude, latitude] as (x, y), with each
    /// feature's properties.
    static func features(_ json: String) -> [(properties: [String: Any], polygons: Polygons)] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
              let features = object["features"] as? [[String: Any]] else { return [] }
        return features.compactMap { feature in
            guard let geometry = feature["geometry"] as? [String: Any], geometry["type"] as? String == "MultiPolygon",
                  let coordinates = geometry["coordinates"] as? [[[[Double]]]] else { return nil }
            let polygons = coordinates.map { $0.map { $0.map { (x: $0.first ?? .nan, y: $0.count > 1 ? $0[1] : .nan) } } }
            return (feature["properties"] as? [String: Any] ?? [:], polygons)
        }
    }
}
