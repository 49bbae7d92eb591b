import Foundation
import TransitSupport

/// The alerts an answer shows, bounded: a board or a day of journeys may hold 20,000 rows and a
/// message 10,000 alerts naming their route, and every row listing every alert was 200 million
/// ids (a whole-day board aborted at 3.2 GB; issue 62). So:
/// - alerts saying the same thing (cause, effect, severity and texts) are one, by its first id;
/// - a row's alerts are matched once per distinct (route, stops, trip where an alert names it),
///   and the rows sharing it share one list;
/// - the answer shows the first `shownLimit` distinct alerts its rows meet, in row order; each
///   row lists those of them that apply, and `more` counts the rest, which `gtfs alerts` lists.
package struct AlertSelection: Sendable {
    /// The most distinct alerts an answer shows (its rows' lists and the notices).
    package static let shownLimit = 10

    /// What an alert applies to, on a row: a call at a stop, or a ride between two.
    package struct Row: Sendable {
        package var route: Int
        package var trip: Int
        package var tripID: String?
        package var stops: [Int?]

        package init(route: Int, trip: Int, tripID: String?, stops: [Int?]) {
            (self.route, self.trip, self.tripID, self.stops) = (route, trip, tripID, stops)
        }
    }

    /// Rows with the same key have the same alerts: a selector names a trip, else it cannot
    /// tell two trips of a route apart (`ServiceAlert.Index`).
    private struct Key: Hashable {
        var route: Int
        var stops: [Int]
        var trip: String?
    }

    /// The alerts shown (indices of `TripUpdates.alerts`), in the order the rows first meet them.
    package private(set) var shown: [Int] = []
    /// Distinct alerts that apply to some row but are not shown.
    package private(set) var more = 0
    private var ids: [Key: [String]] = [:]
    private let keyOf: @Sendable (Row) -> Key

    package init(_ updates: TripUpdates?, _ t: Timetable, rows: [Row]) {
        guard let updates, updates.hasActiveAlerts else {
            keyOf = { Key(route: $0.route, stops: [], trip: nil) }
            return
        }
        keyOf = { row in
            let id = row.tripID ?? (row.trip >= 0 && row.trip < t.tripCount ? t.tripIDs[row.trip] : nil)
            return Key(route: row.route, stops: row.stops.map { $0 ?? -1 }, trip: id.flatMap { updates.namesTrip($0) ? $0 : nil })
        }
        // Each key's alerts once, in the order the rows first meet the keys.
        var order: [Key] = [], found: [Key: [Int]] = [:]
        for row in rows {
            let key = keyOf(row)
            guard found[key] == nil else { continue }
            found[key] = updates.alertIndices(t, route: row.route, trip: row.trip, tripID: row.tripID, at: row.stops)
            order.append(key)
        }
        var shownSet = Set<Int>(), every = Set<Int>()
        for key in order {
            for k in found[key] ?? [] {
                every.insert(k)
                if shownSet.count < Self.shownLimit, shownSet.insert(k).inserted { shown.append(k) }
            }
        }
        more = every.count - shown.count
        for key in order {
            ids[key] = (found[key] ?? []).filter(shownSet.contains).map { updates.alerts[$0].id }
        }
    }

    /// The ids of the shown alerts that apply to `row` (one of those the selection was made of).
    package func ids(_ row: Row) -> [String] {
        ids.isEmpty ? [] : ids[keyOf(row)] ?? []
    }
}
