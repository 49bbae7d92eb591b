import Foundation
import TransitSupport

/// The places within some minutes of an origin, drawn: `transit gtfs isochrone`'s question and
/// the library's. A cell of a 100 m grid around the origin takes the travel time a matrix gives
/// from the origin to a point at the cell's centre (`TravelTimeQuery`: the percentile, over the
/// window's minutes of departure, of the earliest arrival less the minute, whole minutes); each
/// cutoff's contour is traced through the cells' times.
public struct IsochroneQuery: Sendable, Equatable {
    public var from: JourneyQuery.Place
    /// Minutes, ascending, each once: one contour each, each inside the next.
    public var cutoffs: [Int]
    public var day: JourneyQuery.Day = .inProgress
    /// The window's first minute (nil: now on today's service day, else the start of the day).
    public var after: ServiceTime?
    public var windowMinutes = 60
    public var percentile = 50
    public var now = Date()
    public var zone: String?
    public var rules = JourneyQuery.Rules()
    public var needs = RiderNeeds()

    public init(from: JourneyQuery.Place, cutoffs: [Int], day: JourneyQuery.Day = .inProgress, after: ServiceTime? = nil, windowMinutes: Int = 60,
                percentile: Int = 50, now: Date = Date(), rules: JourneyQuery.Rules = JourneyQuery.Rules(), needs: RiderNeeds = RiderNeeds()) {
        (self.from, self.cutoffs, self.day, self.after, self.windowMinutes) = (from, cutoffs, day, after, windowMinutes)
        (self.percentile, self.now, self.rules, self.needs) = (percentile, now, rules, needs)
    }

    /// Cutoffs are whole minutes up to four hours: a 100 m grid wider than that is a continent.
    public static let cutoffRange = 1...240
    /// At most this many cutoffs (R5's limit too): their contours stay apart by more than the
    /// six decimals of GeoJSON's coordinates round away.
    public static let maxCutoffs = 12
    /// The grid's side.
    public static let cellMeters = 100.0
    /// The most cells a surface holds (400 × 400 km at 100 m; a few hundred MB of working memory).
    public static let maxCells = 16_000_000

    /// The matrix query whose cells the surface's are: from the origin, to points at cells' centres.
    var matrixQuery: TravelTimeQuery {
        var q = TravelTimeQuery(origins: [TravelTimeQuery.Point(id: "origin", place: from)], destinations: [], day: day, after: after,
                                windowMinutes: windowMinutes, percentiles: [percentile], maxMinutes: cutoffs.last ?? 1, now: now, rules: rules, needs: needs)
        q.zone = zone
        return q
    }
}

/// Travel times on a grid of square cells, on a flat plane around `anchor` (walk rule 2's:
/// meters per degree of longitude times the cosine of the anchor's latitude, and of latitude):
/// cell (column, row)'s centre is `cellMeters` × (`firstColumn` + column, `firstRow` + row)
/// meters east and north of the anchor, row 0 southernmost.
public struct TravelTimeSurface: Sendable, Equatable {
    public let anchor: Coordinate
    public let cellMeters: Double
    public let firstColumn: Int
    public let firstRow: Int
    public let columns: Int
    public let rows: Int
    /// Row by row from the south: each cell's whole minutes, -1 beyond the query's last cutoff.
    public let minutes: [Int32]

    public func minutes(column: Int, row: Int) -> Int? {
        guard column >= 0, column < columns, row >= 0, row < rows else { return nil }
        let m = minutes[row * columns + column]
        return m < 0 ? nil : Int(m)
    }

    /// The place at `x`, `y` meters east and north of the anchor.
    public func coordinate(x: Double, y: Double) -> Coordinate {
        let scale = max(cos(anchor.latitude * .pi / 180), 0.01)
        return Coordinate(latitude: anchor.latitude + y / StreetNetwork.metersPerDegreeLatitude,
                          longitude: anchor.longitude + x / (scale * StreetNetwork.metersPerDegreeLongitude))
    }

    /// Meters east and north of the anchor.
    public func plane(_ at: Coordinate) -> (x: Double, y: Double) {
        let scale = cos(anchor.latitude * .pi / 180)
        return ((at.longitude - anchor.longitude) * scale * StreetNetwork.metersPerDegreeLongitude,
                (at.latitude - anchor.latitude) * StreetNetwork.metersPerDegreeLatitude)
    }

    public func centre(column: Int, row: Int) -> Coordinate {
        coordinate(x: Double(firstColumn + column) * cellMeters, y: Double(firstRow + row) * cellMeters)
    }
}

/// An isochrone: the surface and a contour per cutoff.
public struct Isochrone: Sendable {
    public struct Contour: Sendable {
        public let cutoff: Int
        public let percentile: Int
        /// A MultiPolygon: polygons, each its outer ring (counter-clockwise) then its holes
        /// (clockwise), every ring closed (its first place again at the end).
        public let polygons: [[[Coordinate]]]
        /// On the surface's plane.
        public let areaSquareMeters: Double
        /// The stops a vehicle calls at inside the contour.
        public let stops: Int
    }

    public let query: IsochroneQuery
    public let surface: TravelTimeSurface
    public let contours: [Contour]
    public let notices: [String]
}

extension GTFSFeed {
    /// The isochrone of `q`: the surface worked out by one range search from the origin, then
    /// each cutoff's contour. `realtime`: data laid over the timetable (none: as planned).
    public func isochrone(_ q: IsochroneQuery, realtime: Realtime? = nil) throws(TransitError) -> Isochrone {
        try IsochroneBuilder(self, q, updates: { realtime?.updates(on: $0) }).isochrone()
    }

    /// The same with trip updates already applied to this feed (the command line's sources).
    package func isochrone(_ q: IsochroneQuery, updates: TripUpdates?) throws(TransitError) -> Isochrone {
        try IsochroneBuilder(self, q, updates: { _ in updates }).isochrone()
    }
}
