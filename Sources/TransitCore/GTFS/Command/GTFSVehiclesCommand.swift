import Foundation
import TransitSupport
import TransitGTFS

/// `transit gtfs vehicles`: where the vehicles are, from GTFS-Realtime vehicle positions.
struct GTFSVehiclesCommand: GTFSSubcommand {
    static let spec = CommandSpec(
        provider: "gtfs", name: "vehicles", summary: "where the vehicles are now, from GTFS-Realtime vehicle positions",
        examples: ["transit gtfs vehicles --realtime https://example.org/gtfs-rt/vehicle-positions",
                   "transit gtfs vehicles --route SL --realtime positions.pb --format geojson > vehicles.geojson"],
        options: [OptionSpec("route", value: "ROUTE", "only this route: its route_id or name", source: .cached),
                  OptionSpec("realtime", value: "SOURCE", "GTFS-Realtime vehicle positions: an http(s) URL or a .pb file (repeatable; default the feed's remembered sources)", source: .files, repeatable: true),
                  GTFSCommandLine.realtimeTimeout,
                  GTFSCommandLine.feed] + OptionSpec.watch,
        notes: ["Fields: id, label, trip_id, route, route_id, latitude, longitude, bearing (degrees), speed (m/s), stop_id, stop_name (the stop it is at or heading to), status (incoming_at, stopped_at, in_transit_to; null without a stop), occupancy, timestamp, age_seconds; JSON also stop_derived (the feed named no stop: the stop and status are worked out from the position along the vehicle's trip, stopped_at within 50 m; `~` before the status in the table). A position more than 5 minutes older than its feed is left out. --format geojson: a Point per vehicle with a position."],
        geoJSON: true)

    var feeds: [String] = []
    var route: String?
    var realtime: [String] = []
    /// `--realtime-timeout`.
    var deadline = RealtimeSource.defaultDeadline

    init(_ args: Arguments) throws(TransitError) {
        feeds = try args.strings("feed")
        route = try args.string("route")
        realtime = try args.strings("realtime")
        deadline = try GTFSCommandLine.RealtimeChoice.deadline(args)
    }

    func run(_ gtfs: GTFSContext) async throws(TransitError) -> Output {
        let (feed, sources, routes) = try gtfs.realtimeOnly(feeds, sources: realtime, route: route, command: "vehicles")
        let t = feed.timetable
        let (messages, readNotices) = try await gtfs.messages(sources, deadline: deadline)
        var (rows, notices) = VehiclePositions.rows(messages, t)
        if let routes { rows = rows.filter { routes.contains($0.route) } }
        rows.sort { (StopIndex.routeName(t, $0.route), $0.id) < (StopIndex.routeName(t, $1.route), $1.id) }
        let zone = GTFSContext.zone(of: sources, t)
        let data: [Column<VehicleRow>] = [
            Column("id", "VEHICLE") { .string($0.id) }, Column("label") { .optional($0.label) }, Column("trip_id", "TRIP") { .optional($0.tripID) }.shrinkingFirst(),
            Column("route") { $0.route >= 0 ? .string(StopIndex.routeName(t, $0.route)) : .null }.wrapping(), Column("route_id") { .optional($0.routeID) },
            Column("latitude") { .coordinate($0.latitude) }, Column("longitude") { .coordinate($0.longitude) },
            Column("bearing", "HDG") { $0.bearing.map { .int(Int($0.rounded())) } ?? .null }, Column("speed") { .optional($0.speed) },
            Column("stop_id", "STOP") { .optional($0.stop.map { t.stopID($0) }) }, Column("stop_name") { .optional($0.stop.map { t.stop($0).name }) }.wrapping(),
            Column("status") { .optional($0.status) }, Column("stop_derived", in: .json) { .bool($0.stopDerived) },
            Column("occupancy") { .optional($0.occupancy) }.shrinkingFirst(),
            Column("timestamp", "SEEN") { $0.timestamp.map { .time(Date(timeIntervalSince1970: TimeInterval($0)), zone) } ?? .null },
            Column("age_seconds", "AGE") { .optional($0.age) },
        ]
        notices = feed.notices + readNotices + notices
        if rows.isEmpty { notices.append("No vehicles" + (route.map { " on route \($0)" } ?? "") + " in " + sources.flatMap(\.sources).map(Redaction.url).joined(separator: ", ")) }
        // The table says where each vehicle is, as LAT,LON (to 5 decimals, about a meter).
        let position = Column<VehicleRow>("position", "POSITION") { row in
            guard let lat = row.latitude, let lon = row.longitude else { return .string("") }
            return .string(Self.degrees(lat) + "," + Self.degrees(lon))
        }.whole()
        // A stop worked out from the position (the feed named none) is marked `~`.
        let status = Column<VehicleRow>("status", "STATUS") { row in row.status.map { .string(row.stopDerived ? "~" + $0 : $0) } ?? .null }.whole()
        let named = { (key: String) in data.filter { $0.key == key } }
        // In a narrow table the trip and the occupancy give way first; the route and the stop's
        // name wrap, and the position (which --from takes back) is never cut.
        // OCCUPANCY only where the feed says any (most say `no_data_available` of every vehicle).
        let occupancy = rows.contains { $0.occupancy.map { !$0.isEmpty && $0 != "no_data_available" } ?? false } ? named("occupancy") : []
        let table = named("id") + named("route") + named("trip_id") + [position] + named("stop_name") + [status] + occupancy + named("age_seconds")
        var output = Output(rows, data: data, table: table, notices: notices)
        output.geoJSON { GeoJSON.points($0) }
        return output
    }

    /// Degrees to 5 decimals, trailing zeros dropped (`44.81045`, `-63.5`).
    static func degrees(_ value: Double) -> String {
        var text = String(format: "%.5f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
