import Foundation
import TransitSupport

/// What a table, a completion or a journey's text reads of a stop, a route or a trip, by index.
/// The command layer reads these and never the timetable's arrays (EngineLayerTests checks it),
/// so that how the model lays its values out stays the model's. An index out of range reads as
/// an empty record, as the checked accessors do.
extension Timetable {
    /// A stop as stops.txt gave it; `parent` is its station (nil: none).
    package struct StopRecord: Sendable, Equatable {
        package var id = "", code = "", name = "", platform = ""
        package var coordinate = Coordinate(latitude: 0, longitude: 0)
        package var parent: Int?
    }

    package func stop(_ s: Int) -> StopRecord {
        guard s >= 0, s < stopCount else { return StopRecord() }
        let p = parent(of: s)
        return StopRecord(id: stopIDs[s], code: stopCodes[s], name: stopNames[s], platform: stopPlatforms[s],
                          coordinate: coordinate(ofStop: s), parent: p >= 0 ? p : nil)
    }

    /// A stop's stop_id alone ("" out of range): a whole day's answer lists 16,000, and the
    /// record reads four strings and a place for each.
    package func stopID(_ s: Int) -> String { s >= 0 && s < stopCount ? stopIDs[s] : "" }

    /// A stop's platform_code and stop_code alone ("" out of range or where the feed gives none).
    package func stopPlatform(_ s: Int) -> String { s >= 0 && s < stopCount ? stopPlatforms[s] : "" }
    package func stopCode(_ s: Int) -> String { s >= 0 && s < stopCount ? stopCodes[s] : "" }

    /// A stop's place alone, without its record's names ((0, 0) out of range, as the record's).
    package func coordinate(ofStop s: Int) -> Coordinate {
        s >= 0 && s < stopCount ? Coordinate(latitude: stopLat[s], longitude: stopLon[s]) : Coordinate(latitude: 0, longitude: 0)
    }

    /// The straight line from stop `x` to stop `y`, as the stored walks were found
    /// (`TimetableCombination.findLinks`); NaN where either has no place.
    package func straightMeters(_ x: Int, _ y: Int) -> Double {
        guard x >= 0, y >= 0, x < stopCount, y < stopCount else { return .nan }
        return Coordinate(latitude: stopLat[x], longitude: stopLon[x]).meters(to: Coordinate(latitude: stopLat[y], longitude: stopLon[y]))
    }

    /// A stop's name, or its station's where it has one (what a rider looks for on the signs).
    package func stationName(ofStop s: Int) -> String {
        let p = parent(of: s)
        return p >= 0 ? stopNames[p] : stopNames[s]
    }

    /// A route as routes.txt gave it; `type` is route_type's number.
    package struct RouteRecord: Sendable, Equatable {
        package var id = "", agency = "", shortName = "", longName = "", color = ""
        package var type = 0
    }

    /// A route's route_id alone ("" out of range).
    package func routeID(_ r: Int) -> String { r >= 0 && r < routeCount ? routeIDs[r] : "" }

    package func route(_ r: Int) -> RouteRecord {
        guard r >= 0, r < routeCount else { return RouteRecord() }
        return RouteRecord(id: routeIDs[r], agency: routeAgency[r], shortName: routeShortName[r], longName: routeLongName[r],
                           color: routeColor[r], type: Int(routeType[r]))
    }

    /// The routes whose id, short or long name is `text`, ignoring case.
    package func routes(named text: String) -> [Int] {
        let wanted = text.lowercased()
        return (0..<routeCount).filter { r in [routeIDs[r], routeShortName[r], routeLongName[r]].contains { $0.lowercased() == wanted } }
    }

    /// A trip's trip_id ("" out of range).
    package func tripID(_ k: Int) -> String { tripIDs[k] }

    /// The trip whose trip_id is `id` (ids are unique; a combination's read `feed:id`).
    package func trip(id: String) -> Int? { tripIDs.firstIndex(of: id) }

    /// Is the trip one run of a frequencies.txt window (told apart by its start time)?
    package func isFrequency(trip k: Int) -> Bool { k >= 0 && k < tripIsFrequency.count && tripIsFrequency[k] != 0 }

    /// Does the feed price journeys (fare_attributes.txt, or Fares v2's leg rules)?
    package var hasFares: Bool { !fares.fareIDs.isEmpty || !fares.legRules.isEmpty }

    /// The rider categories of Fares v2 (rider_categories.txt), in the file's order.
    package var riderCategories: [(id: String, name: String)] {
        (0..<fares.riderCategoryIDs.count).map { (fares.riderCategoryIDs[$0], fares.riderCategoryNames[$0]) }
    }

    /// A combination's feed's zone as its feed_info or agency named it.
    package func zoneName(ofFeed f: Int) -> String { feedZones.isEmpty ? timeZone : feedZones[f] }

    /// The days feed `f`'s services run on, as bits over the combination's calendar (bit d:
    /// `firstDay + d`); a single feed's every service.
    package func days(ofFeed f: Int) -> [UInt64] {
        let words = Int(serviceWords)
        let services = isCombination && f + 1 < feedServiceStart.count ? Int(feedServiceStart[f])..<Int(feedServiceStart[f + 1]) : 0..<serviceCount
        return services.reduce(into: [UInt64](repeating: 0, count: words)) { bits, service in
            for w in 0..<words where service * words + w < serviceDays.count { bits[w] |= serviceDays[service * words + w] }
        }
    }

    /// The first and last day a set of day bits (`days(ofFeed:)`) marks; nil: none.
    package func span(ofDays days: [UInt64]) -> (first: LocalDate, last: LocalDate)? {
        let set = (0..<days.count * 64).filter { days[$0 / 64] & (1 << UInt64($0 % 64)) != 0 }
        guard let first = set.first, let last = set.last else { return nil }
        return (LocalDate(dayNumber: Int(firstDay) + first), LocalDate(dayNumber: Int(firstDay) + last))
    }
}
