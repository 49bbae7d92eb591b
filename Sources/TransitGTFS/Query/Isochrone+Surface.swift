import Foundation
import TransitSupport

/// Works out an isochrone: one range search from the origin read at each minute of the window
/// (every stop's earliest arrival by a ride), then each cell's time as a matrix has it for a
/// point at the cell's centre: the journey on foot from the origin, or a stop within `--radius`
/// plus the walk from it (on the map's streets where the feed has one; the walks are
/// undirected, so one street search from each stop reached measures its walks to every cell
/// around it), the percentile over the window. The contours are then traced through the cells.
struct IsochroneBuilder {
    let feed: GTFSFeed
    let query: IsochroneQuery
    let matrix: TravelTimeMatrix

    init(_ feed: GTFSFeed, _ q: IsochroneQuery, updates: (Timetable) -> TripUpdates?) throws(TransitError) {
        guard !q.cutoffs.isEmpty, q.cutoffs.count <= IsochroneQuery.maxCutoffs, q.cutoffs.allSatisfy(IsochroneQuery.cutoffRange.contains),
              q.cutoffs == Array(Set(q.cutoffs)).sorted() else {
            throw .usage("cutoffs are 1 to 12 of 1 to 240 minutes, ascending, each once")
        }
        guard TravelTimeQuery.percentileRange.contains(q.percentile) else { throw .usage("the percentile is 1 to 99") }
        (self.feed, query) = (feed, q)
        matrix = try TravelTimeMatrix(feed, q.matrixQuery, updates: updates)
    }

    func isochrone() throws(TransitError) -> Isochrone {
        let surface = try self.surface()
        let beyond = Double((query.cutoffs.last ?? 0) + 1)
        let values = surface.minutes.map { $0 < 0 ? beyond : Double($0) }
        let t = feed.timetable
        // The stops a vehicle calls at, in grid units (a node at each cell's centre).
        let stops: [Contours.Point] = (0..<t.stopCount).compactMap { stop in
            guard t.isCalledAt(stop), !t.stopLat[stop].isNaN, !t.stopLon[stop].isNaN else { return nil }
            let p = surface.plane(t.coordinate(ofStop: stop))
            return (p.x / surface.cellMeters - Double(surface.firstColumn), p.y / surface.cellMeters - Double(surface.firstRow))
        }
        // A side of the grid from a cell inside a cutoff to one outside is crossed as far as the
        // minutes left walk, in a straight line from the centre (half a minute counted for the
        // seconds a whole minute rounds away); at most 90 to 99 % along, the higher cutoffs
        // reaching farther, so that no two contours touch.
        let reach = 60 * query.needs.walking.speed / surface.cellMeters, count = Double(query.cutoffs.count)
        let contours = query.cutoffs.enumerated().map { k, cutoff in
            let rings = Contours.rings(values, columns: surface.columns, rows: surface.rows, threshold: Double(cutoff) + 0.5, beyond: beyond,
                                       reach: reach, farthest: 0.9 + 0.09 * Double(k + 1) / count)
            let polygons = Contours.polygons(rings)
            let area = rings.reduce(0) { $0 + Contours.doubleArea($1) / 2 } * surface.cellMeters * surface.cellMeters
            // Each polygon's box first: most stops are far from most polygons.
            let boxes = polygons.map { polygon in
                let outer = polygon.first ?? []
                return (outer.map(\.x).min() ?? 0, outer.map(\.x).max() ?? 0, outer.map(\.y).min() ?? 0, outer.map(\.y).max() ?? 0)
            }
            let inside = stops.filter { p in
                zip(polygons, boxes).contains { polygon, box in
                    box.0 <= p.x && p.x <= box.1 && box.2 <= p.y && p.y <= box.3
                        && polygon.enumerated().allSatisfy { k, ring in Contours.contains(ring, p) == (k == 0) }
                }
            }.count
            let places = polygons.map { polygon in
                polygon.map { ring in
                    ring.map { surface.coordinate(x: (Double(surface.firstColumn) + $0.x) * surface.cellMeters, y: (Double(surface.firstRow) + $0.y) * surface.cellMeters) }
                }
            }
            return Isochrone.Contour(cutoff: cutoff, percentile: query.percentile, polygons: places, areaSquareMeters: area, stops: inside)
        }
        var notices = matrix.notices
        if matrix.origins.first?.stops.isEmpty ?? true {
            // The matrix's notice counts points; the isochrone has one.
            notices = [String](notices.dropFirst())
            notices.insert("no stop within \(Int(query.rules.radiusMeters)) m of the origin (--radius): the isochrone is the walk alone", at: 0)
        }
        return Isochrone(query: query, surface: surface, contours: contours, notices: notices)
    }

    /// The cells' times.
    func surface() throws(TransitError) -> TravelTimeSurface {
        let t = feed.timetable
        guard let origin = matrix.origins.first else { throw .usage("an isochrone needs an origin") }
        guard let anchor = origin.place.point?.at ?? origin.coordinates.first else {
            throw .usage("the origin has no coordinates in the feed: an isochrone needs a place")
        }
        let walker = try feed.map?.walker(query.needs.walking)
        let minutes = matrix.minutes, width = minutes.count
        let profile = StopProfile(stopCount: t.stopCount, width: width)
        if let setup = matrix.setup, !origin.stops.isEmpty {
            let router = Router(setup.timetable, setup.query, children: setup.children, updates: setup.updates, streets: walker)
            router.byMinutes(origins: origin.stops, access: origin.walks, accessMeters: origin.meters, cap: matrix.cap, minutes: minutes,
                             improved: { stops, state in profile.improve(stops, state) }, minute: { k in profile.keep(k) })
        }
        let radius = query.rules.radiusMeters, speed = query.needs.walking.speed, cell = IsochroneQuery.cellMeters
        let detour = walker == nil ? 1 : SearchDefaults.streetDetour
        // The journey on foot, as a matrix's between the origin and a point (`MatrixWorker.onFoot`).
        let walkMeters = query.rules.walkMeters ?? 0
        let footReach = walkMeters > 0 ? max(origin.isPoint ? radius : walkMeters, radius) : 0
        let footFrom: [(stop: Int, at: Coordinate)] = origin.place.point.map { [(-1, $0.at)] }
            ?? origin.stops.filter { $0 >= 0 && $0 < t.stopCount && !t.stopLat[$0].isNaN && !t.stopLon[$0].isNaN }.map { ($0, t.coordinate(ofStop: $0)) }
        // The stops reached, a point's walk not being from one of the origin's own (`QueryEnds`).
        let own = Set(origin.stops)
        // (A stop without coordinates, in a damaged feed, has no cells.)
        let reached = profile.stops.enumerated().filter { !own.contains($0.element) && t.isCalledAt($0.element) && !t.stopLat[$0.element].isNaN && !t.stopLon[$0.element].isNaN }
        // The grid: every cell within --radius of a stop reached, or within the walk's reach of the origin.
        let plane = TravelTimeSurface(anchor: anchor, cellMeters: cell, firstColumn: 0, firstRow: 0, columns: 0, rows: 0, minutes: [])
        /// The cells (as plane indices) of a box around `at` that holds every place within
        /// `reach` of it in a straight line: with a margin, since the plane's meters east are the
        /// anchor's, and a place far north or south of it has fewer to the degree (the distances
        /// themselves are the great circle's, as a matrix measures them).
        func span(_ at: Coordinate, _ reach: Double) -> (x0: Int, x1: Int, y0: Int, y1: Int) {
            let p = plane.plane(at), r = reach * 1.25 + cell
            return (Int(((p.x - r) / cell).rounded(.down)), Int(((p.x + r) / cell).rounded(.up)),
                    Int(((p.y - r) / cell).rounded(.down)), Int(((p.y + r) / cell).rounded(.up)))
        }
        var box = (x0: Int.max, x1: Int.min, y0: Int.max, y1: Int.min)
        func include(_ at: Coordinate, _ reach: Double) {
            let s = span(at, reach)
            box = (min(box.x0, s.x0), max(box.x1, s.x1), min(box.y0, s.y0), max(box.y1, s.y1))
        }
        include(anchor, 0)
        for place in footFrom { include(place.at, footReach) }
        for (_, stop) in reached { include(t.coordinate(ofStop: stop), radius) }
        let columns = box.x1 - box.x0 + 1, rows = box.y1 - box.y0 + 1
        guard columns > 0, rows > 0, columns <= IsochroneQuery.maxCells / rows else {
            throw .usage("the isochrone would cover \(columns) × \(rows) cells of 100 m: more than \(IsochroneQuery.maxCells)", hint: "lower the cutoffs")
        }
        let grid = TravelTimeSurface(anchor: anchor, cellMeters: cell, firstColumn: box.x0, firstRow: box.y0, columns: columns, rows: rows, minutes: [])
        /// The cells whose centres are within `reach` of `at` in a straight line, with the distance.
        func cells(near at: Coordinate, _ reach: Double) -> [(cell: Int, meters: Double)] {
            let s = span(at, reach)
            let i0 = max(0, s.x0 - box.x0), i1 = min(columns - 1, s.x1 - box.x0), j0 = max(0, s.y0 - box.y0), j1 = min(rows - 1, s.y1 - box.y0)
            guard i0 <= i1, j0 <= j1 else { return [] }
            var out: [(cell: Int, meters: Double)] = []
            for j in j0...j1 {
                for i in i0...i1 {
                    let d = grid.centre(column: i, row: j).meters(to: at)
                    if d.isFinite && d <= reach { out.append((j * columns + i, d)) }
                }
            }
            return out
        }
        var joinsOf: [Int: [StreetNetwork.Join]] = [:]
        func joins(_ cells: [(cell: Int, meters: Double)]) -> [[StreetNetwork.Join]] {
            guard let walker else { return [] }
            return cells.map { c in
                if let known = joinsOf[c.cell] { return known }
                let found = walker.joins(point: grid.centre(column: c.cell % columns, row: c.cell / columns))
                joinsOf[c.cell] = found
                return found
            }
        }
        // The walk on foot from the origin to each cell within its reach.
        var foot = [Int32](repeating: -1, count: columns * rows)
        if footReach > 0 {
            for place in footFrom {
                let near = cells(near: place.at, footReach)
                let places = joins(near)
                let streets: [Double?]
                if let walker {
                    streets = place.stop >= 0 ? walker.meters(fromStop: place.stop, toPlaces: places, limit: footReach * detour, in: t)
                        : walker.meters(fromJoins: walker.joins(point: place.at), toPlaces: places, limit: footReach * detour)
                } else {
                    streets = near.map { _ in nil }
                }
                for (k, c) in near.enumerated() {
                    let d = (k < streets.count ? streets[k] : nil) ?? c.meters
                    guard d.isFinite, d <= footReach * detour else { continue }
                    let seconds = Int32(clamping: Int((d / speed).rounded(.up)))
                    if foot[c.cell] < 0 || seconds < foot[c.cell] { foot[c.cell] = seconds }
                }
            }
        }
        // Each stop's walks to the cells within --radius of it, as a point there walks to the stop.
        var walks: [(cell: Int32, stop: Int32, seconds: Int32)] = []
        for (c, stop) in reached {
            let near = cells(near: t.coordinate(ofStop: stop), radius)
            let streets = walker.map { $0.meters(fromStop: stop, toPlaces: joins(near), limit: radius * SearchDefaults.streetDetour, in: t) } ?? []
            for (k, place) in near.enumerated() {
                let d = (k < streets.count ? streets[k] : nil) ?? place.meters
                guard d.isFinite, d <= radius * SearchDefaults.streetDetour else { continue }
                walks.append((Int32(place.cell), Int32(c), Int32(clamping: Int((d / speed).rounded(.up)))))
            }
        }
        walks.sort { $0.cell < $1.cell }
        // Each cell's minutes at each minute of the window, then the percentile.
        let rank = max(1, (query.percentile * width + 99) / 100) - 1, limit = query.cutoffs.last ?? 0
        var times = [Int32](repeating: -1, count: columns * rows), values = [Int](repeating: 0, count: width)
        let arrivals = profile.arrivals, unreached = SearchState.unreached
        var k = 0
        for cellIndex in 0..<(columns * rows) {
            let lo = k
            while k < walks.count && Int(walks[k].cell) == cellIndex { k += 1 }
            let f = foot[cellIndex]
            guard lo < k || f >= 0 else { continue }
            for m in 0..<width {
                let leave = Int(minutes[m])
                var best = f >= 0 ? leave + Int(f) : Int.max
                for w in walks[lo..<k] {
                    let a = arrivals[Int(w.stop) * width + m]
                    if a != unreached { best = min(best, Int(a) + Int(w.seconds)) }
                }
                let whole = best == Int.max ? Int.max : max(0, best - leave) / 60
                values[m] = whole <= limit ? whole : Int.max
            }
            values.sort()
            if values[rank] != Int.max { times[cellIndex] = Int32(values[rank]) }
        }
        // The cell at a point origin is the origin: 0, as a matrix has a place to itself.
        if origin.isPoint, box.x0 <= 0, box.y0 <= 0 { times[(-box.y0) * columns - box.x0] = 0 }
        return TravelTimeSurface(anchor: anchor, cellMeters: cell, firstColumn: box.x0, firstRow: box.y0, columns: columns, rows: rows, minutes: times)
    }
}

/// One origin's earliest arrival by a ride at every stop it reaches, at each minute of the
/// window (`Router.byMinutes`): the stops in the order first reached, and their arrivals in rows
/// of the window's width.
final class StopProfile {
    private let width: Int
    /// Per stop: its row (-1: not reached), and its earliest arrival so far.
    private var row: [Int32]
    private var best: [Int32]
    private(set) var stops: [Int] = []
    private(set) var arrivals: [Int32] = []

    init(stopCount: Int, width: Int) {
        self.width = width
        row = [Int32](repeating: -1, count: stopCount)
        best = [Int32](repeating: SearchState.unreached, count: stopCount)
    }

    func improve(_ improved: [Int], _ state: SearchState) {
        for stop in improved where stop >= 0 && stop < best.count {
            let b = state.earliestArrival(stop)
            guard b < best[stop] else { continue }
            if row[stop] < 0 {
                row[stop] = Int32(stops.count)
                stops.append(stop)
                arrivals += repeatElement(SearchState.unreached, count: width)
            }
            best[stop] = b
        }
    }

    /// Every minute from `k` on has been searched: the arrivals now are minute `k`'s.
    func keep(_ k: Int) {
        for (r, stop) in stops.enumerated() { arrivals[r * width + k] = best[stop] }
    }
}
