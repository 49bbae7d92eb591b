import Foundation
import TransitSupport

/// Where each vehicle is, from GTFS-Realtime VehiclePositions, matched to the timetable's trips
/// as trip updates are (docs/realtime.md, rule 23). For display only: positions never make delays.
package struct VehicleRow: Sendable {
    package var id: String
    package var label: String?
    package var tripID: String?
    /// The timetable's route (-1: none known).
    package var route: Int
    package var routeID: String?
    package var latitude: Double?
    package var longitude: Double?
    package var bearing: Double?
    /// Meters per second, as the feed gives it.
    package var speed: Double?
    /// The stop it is at or heading to, and how (only with a stop: rule 23).
    package var stop: Int?
    package var status: String?
    /// The feed names no stop: `stop` and `status` are worked out from the position along the
    /// vehicle's trip (`VehiclePositions.along`).
    package var stopDerived = false
    package var occupancy: String?
    /// POSIX seconds of the position, and its age against now.
    package var timestamp: Int?
    package var age: Int?
}

package enum VehiclePositions {
    /// How old a position may be against its feed's header before it is dropped.
    package static let maxAge = 5 * 60
    /// The fastest speed a vehicle is said to go, in m/s.
    package static let maxSpeed = 200.0

    package static let statuses = ["incoming_at", "stopped_at", "in_transit_to"]
    package static let occupancies = ["empty", "many_seats_available", "few_seats_available", "standing_room_only", "crushed_standing_room_only",
                              "full", "not_accepting_passengers", "no_data_available", "not_boardable"]

    /// Every vehicle of `messages`, matched to `t`; and one counted line per kind of trouble.
    package static func rows(_ messages: [RealtimeMessage], _ t: Timetable) -> (rows: [VehicleRow], notices: [String]) {
        var rows: [VehicleRow] = [], notices: [String] = []
        // The feed's ids by their bytes (no String per trip or stop of the feed).
        let trips = IDTable(indexing: t.tripIDs) ?? IDTable(), stops = IDTable(indexing: t.stopIDs) ?? IDTable()
        func stop(_ id: String) -> Int? { stops.find(id) }
        for m in messages {
            var old = 0, unmatched = 0, total = 0, ahead = 0, early = 0
            let header = m.message.headerSeconds
            // A feed dated ahead of the clock is refused as trip updates are (a server's clock
            // may run fast by minutes, not by a year).
            if let header, TripUpdateApplier.refuses(age: m.now - header), header > m.now {
                notices.append("\(m.source): the data is dated \(TripUpdateApplier.age(header - m.now)) ahead of the clock; its vehicles are not shown")
                continue
            }
            // Rule 6, as for trip updates (issue 44): past 90 s said, past 30 minutes not shown.
            if let header, m.now - header > TripUpdateApplier.staleAge {
                let age = TripUpdateApplier.age(m.now - header)
                if TripUpdateApplier.refuses(age: m.now - header) {
                    notices.append("\(m.source): the data is \(age) old; its vehicles are not shown")
                    continue
                }
                notices.append("\(m.source): the data is \(age) old")
            }
            for entity in m.message.entities where entity.isDeleted != true {
                guard let v = entity.vehicle else { continue }
                total += 1
                let stamp = v.timestamp.flatMap { FeedMessage.instant($0) }
                if let stamp, let header, header - stamp > maxAge { old += 1; continue }
                // A position dated ahead of the clock: within minutes, shown as just now; beyond, left out.
                if let stamp, stamp > m.now {
                    if stamp - m.now > TripUpdateApplier.aheadAge { ahead += 1; continue }
                    early += 1
                }
                var row = VehicleRow(id: v.vehicle?.id ?? entity.id ?? "", label: v.vehicle?.label, tripID: v.trip?.tripID, route: -1,
                                     routeID: v.trip?.routeID, timestamp: stamp, age: stamp.map { max(0, m.now - $0) })
                if let p = v.position, let lat = p.latitude, let lon = p.longitude, lat.isFinite, lon.isFinite,
                   (-90...90).contains(lat), (-180...180).contains(lon) {
                    row.latitude = lat
                    row.longitude = lon
                    // Degrees; anything else (a float32 can say 1e30) is no bearing.
                    row.bearing = p.bearing.flatMap { $0.isFinite && (-360...720).contains($0) ? $0 : nil }
                    // A float32 as the feed wrote it (2.2352, not 2.2351999282836914).
                    // m/s; below 0 or above 200 (720 km/h, past any train in service) is no speed.
                    row.speed = p.speed.flatMap { $0.isFinite && (0...maxSpeed).contains($0) ? Double(Float($0).description) : nil }
                }
                let trip = v.trip?.tripID.flatMap { trips.find($0) }
                if let trip {
                    row.route = t.route(ofTrip: trip)
                } else if let routeID = v.trip?.routeID, let route = t.routeIDs.firstIndex(of: routeID) {
                    row.route = route
                } else if v.trip != nil {
                    unmatched += 1
                }
                if row.route >= 0 { row.routeID = t.routeIDs[row.route] }
                // The stop: by id, else by the trip's stop_sequence.
                if let id = v.stopID {
                    row.stop = stop(id)
                } else if let sequence = v.currentStopSequence, let trip, let run = t.runs(ofTrip: trip).first {
                    let base = Int(t.patternStopStart[run.pattern]), stops = t.stops(ofPattern: run.pattern)
                    if let i = stops.indices.first(where: { UInt64(clamping: t.patternSequences[base + $0]) == sequence }) {
                        row.stop = Int(stops[i])
                    }
                }
                if row.stop != nil {
                    row.status = statuses[safe: Int(clamping: v.currentStatus ?? 2)]
                } else if v.stopID == nil, let trip, let lat = row.latitude, let lon = row.longitude, let run = t.runs(ofTrip: trip).first,
                          let (at, status) = along(run.pattern, Coordinate(latitude: lat, longitude: lon), t) {
                    // Caltrain's and Halifax's positions name a trip but no stop: where it is on that trip.
                    row.stop = at
                    row.status = status
                    row.stopDerived = true
                }
                row.occupancy = v.occupancyStatus.flatMap { occupancies[safe: Int(clamping: $0)] }
                rows.append(row)
            }
            if ahead > 0 { notices.append("\(m.source): \(ahead) of \(total) vehicle positions are dated more than \(TripUpdateApplier.aheadAge / 60) minutes ahead of the clock (left out)") }
            if early > 0 { notices.append("\(m.source): \(early) of \(total) vehicle positions are dated ahead of the clock (shown as 0 s old)") }
            if old > 0 { notices.append("\(m.source): \(old) of \(total) vehicle positions are more than \(maxAge / 60) minutes older than the feed (left out)") }
            if unmatched > 0 { notices.append("\(m.source): \(unmatched) vehicles name a trip or route the timetable does not have") }
        }
        return (rows, notices)
    }

    /// Where `point` is on `pattern`'s stops: the segment between two calls it lies nearest to;
    /// `stopped_at` a stop within 50 m of it, else `in_transit_to` the segment's end. nil for a
    /// pattern of fewer than two stops with places, or a point more than 2 km from the line.
    package static func along(_ pattern: Int, _ point: Coordinate, _ t: Timetable) -> (stop: Int, status: String)? {
        let stops = t.stops(ofPattern: pattern).map { Int($0) }, length = stops.count
        let places = stops.map { Coordinate(latitude: t.stopLat[$0], longitude: t.stopLon[$0]) }
        guard length >= 2 else { return nil }
        // Meters east and north of `point` (an equirectangular projection: exact enough within a few km).
        let scale = cos(point.latitude * .pi / 180) * 111_320
        func xy(_ c: Coordinate) -> (Double, Double) { ((c.longitude - point.longitude) * scale, (c.latitude - point.latitude) * 110_540) }
        var best: (distance: Double, segment: Int)?
        for k in 0..<(length - 1) {
            let (ax, ay) = xy(places[k]), (bx, by) = xy(places[k + 1])
            let dx = bx - ax, dy = by - ay, squared = dx * dx + dy * dy
            let u = squared > 0 ? min(1, max(0, -(ax * dx + ay * dy) / squared)) : 0
            let distance = ((ax + u * dx) * (ax + u * dx) + (ay + u * dy) * (ay + u * dy)).squareRoot()
            guard distance.isFinite else { continue }
            if best.map({ distance < $0.distance }) ?? true { best = (distance, k) }
        }
        guard let best, best.distance <= 2000 else { return nil }
        for k in [best.segment + 1, best.segment] {
            let d = point.meters(to: places[k])
            if d.isFinite && d <= 50 { return (stops[k], "stopped_at") }
        }
        return (stops[best.segment + 1], "in_transit_to")
    }
}

extension Array {
    /// The element at `index`, or nil outside the array.
    package subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
