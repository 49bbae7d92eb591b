import Foundation
import TransitSupport

/// The `transit bart …` commands: fetch through `BARTClient`, lay typed rows out in columns.
struct BARTCommands {
    let context: Context
    let client: BARTClient

    init(_ context: Context) throws(TransitError) {
        self.context = context
        let settings = context.settings
        client = BARTClient(http: context.http, baseURL: settings.baseURL("bart", default: BART.defaultBaseURL), key: try settings.key())
    }

    /// Shell completion of a station: codes and names from the cached station list (the
    /// recordings with `--offline`); nothing when it was never fetched.
    static func completionValues(_ query: Completion.Query, _ context: Context) async -> [String] {
        guard let commands = try? BARTCommands(context), let stations = try? await commands.client.stations() else { return [] }
        return stations.map(\.abbr) + stations.map(\.name)
    }

    /// Resolves what the user typed against the station list: code, name, or a did-you-mean.
    static func matcher(_ stations: [BARTStation]) -> NameMatcher<BARTStation> {
        NameMatcher(kind: BARTCommandLine.stationWord, candidates: stations.map { .init(code: $0.abbr, names: [$0.name], value: $0) })
    }

    /// `--from` and `--to` resolved; the same station twice is a usage error.
    static func pair(_ stations: [BARTStation], _ from: String, _ to: String) throws(TransitError) -> (BARTStation, BARTStation) {
        let matcher = matcher(stations)
        let origin = try matcher.match(from), destination = try matcher.match(to)
        if origin.abbr == destination.abbr { throw .usage("--from and --to are both \(origin.abbr) (\(origin.name))") }
        return (origin, destination)
    }

    // MARK: stations

    struct NearStation {
        var station: BARTStation
        var meters: Double?
    }

    func stations(near: Coordinate?, limit: Int?) async throws(TransitError) -> Output {
        var rows = try await client.stations().map { NearStation(station: $0, meters: nil) }
        if let near {
            for i in rows.indices {
                guard let lat = rows[i].station.latitude, let lon = rows[i].station.longitude else { continue }
                rows[i].meters = near.meters(to: Coordinate(latitude: lat, longitude: lon))
            }
            rows = rows.filter { $0.meters != nil }.sorted { ($0.meters ?? 0, $0.station.abbr) < ($1.meters ?? 0, $1.station.abbr) }
            rows = Array(rows.prefix(limit ?? rows.count))
        }
        var data: [Column<NearStation>] = [
            Column("abbr") { .string($0.station.abbr) }, Column("name") { .string($0.station.name) },
            Column("city") { .string($0.station.city) }, Column("latitude") { .coordinate($0.station.latitude) },
            Column("longitude") { .coordinate($0.station.longitude) },
        ]
        var table = data
        if near != nil {
            let distance = Column<NearStation>("distance_km", "KM") { $0.meters.map { .double(Numbers.round($0 / 1000, 2)) } ?? .null }
            data.append(distance)
            table.insert(distance, at: 0)
        }
        return Output(rows, data: data, table: table)
    }

    // MARK: routes

    func routes(_ date: LocalDate?) async throws(TransitError) -> Output {
        let routes = try await client.routes(date: date)
        let data: [Column<BARTRoute>] = [
            Column("number") { .int($0.number) }, Column("name") { .string($0.name) }, Column("abbr") { .string($0.abbr) },
            Column("color") { .string($0.lineName) }, Column("hex_color") { .optional($0.hexColor) },
            Column("origin") { .string($0.origin) }, Column("destination") { .string($0.destination) },
            Column("direction") { .optional($0.direction) }, Column("stations") { .list($0.stations.map(Value.string)) },
        ]
        let table: [Column<BARTRoute>] = [
            data[0].titled("ROUTE"), data[3].titled("LINE"), data[1], data[5].titled("FROM"), data[6].titled("TO"),
            Column("stops", "STOPS") { .int($0.stations.count) },
        ]
        return Output(routes, data: data, table: table)
    }

    // MARK: trips

    func trips(_ request: BARTTripsRequest) async throws(TransitError) -> Output {
        // Stations (to read the names) and route info in one network round; schedules in the next.
        let client = self.client
        async let routeList = Result.catching { () async throws(TransitError) -> [BARTRoute] in try await client.routes(date: request.date) }
        let stations = try await client.stations()
        let (origin, destination) = try Self.pair(stations, request.from, request.to)
        let routes = try await routeList.get()
        let query = TripFinder.Query(origin: origin.abbr, destination: destination.abbr, window: request.window)
        let trips = try await client.trips(query, routes: routes)
        let names = Dictionary(stations.map { ($0.abbr, $0.name) }, uniquingKeysWith: { a, _ in a })
        var notices: [String] = []
        if trips.isEmpty {
            var notice = "No trains from \(origin.abbr) to \(destination.abbr) on \(request.date.iso)"
            if request.startsNow, let after = request.after {
                // The day's last trains have left: say so, and how to see the day's trains.
                notice += " from now (\(ClockTime.hhmm(request.date.instant(minutes: after, in: BART.zone), zone: BART.zone))); --after 5am shows the day's trains"
            } else {
                if request.after != nil || request.before != nil { notice += " in that time window" }
                if request.transfers == 0 { notice += " without a change; try --transfers 1" }
            }
            notices.append(notice)
        }
        let zone = BART.zone
        let leg: [Column<BARTLeg>] = [
            Column("route") { .int($0.route) }, Column("line") { .string($0.line) },
            Column("origin") { .string($0.origin) }, Column("destination") { .string($0.destination) },
            Column("departure") { .time($0.departure, zone) }, Column("arrival") { .time($0.arrival, zone) },
            Column("head_station") { .string($0.headStation) },
        ]
        let lines = Column<BARTTrip>("line", in: .flat) { .string($0.legs.map(\.line).joined(separator: " > ")) }
        let toward = Column<BARTTrip>("toward", in: .flat) { .string($0.legs.map { names[$0.headStation] ?? $0.headStation }.joined(separator: " > ")) }
        let change = Column<BARTTrip>("change_at", "CHANGE AT", in: .flat) { .string($0.legs.dropFirst().map(\.origin).joined(separator: ",")) }
        let departure = Column<BARTTrip>("departure") { .time($0.departure, zone) }, arrival = Column<BARTTrip>("arrival") { .time($0.arrival, zone) }
        let duration = Column<BARTTrip>("duration_minutes") { .int($0.durationMinutes) }
        var data: [Column<BARTTrip>] = [
            Column("origin") { .string($0.origin) }, Column("destination") { .string($0.destination) },
            departure, arrival, duration, Column("transfers") { .int($0.transfers) },
            Column("legs", in: .json) { trip in .list(trip.legs.map { .object(Record(leg, $0)) }) },
            lines, toward,
        ]
        // A person reads where and when to change: the station's name and the time the next train leaves.
        let changeAt = Column<BARTTrip>("change_at", "CHANGE AT") { trip in
            .string(trip.legs.dropFirst().map { "\(names[$0.origin] ?? $0.origin) \(ClockTime.hhmm($0.departure, zone: zone))" }.joined(separator: ", "))
        }
        // The table marks a time on a later calendar day than the service day (`00:40+1`).
        let day = request.date
        let depart = Column<BARTTrip>("departure", "DEPART") { .string(ClockTime.hhmm($0.departure, zone: zone, on: day)) }
        let arrive = Column<BARTTrip>("arrival", "ARRIVE") { .string(ClockTime.hhmm($0.arrival, zone: zone, on: day)) }
        var table = [depart, arrive, duration.titled("MIN"), lines, toward]
        if request.transfers > 0 {
            table.insert(changeAt, at: 3)
            data.append(change)
        }
        return Output(trips, data: data, table: table, notices: notices)
    }

    // MARK: trip planner

    func trip(_ request: BARTTripRequest) async throws(TransitError) -> Output {
        let (origin, destination) = try Self.pair(try await client.stations(), request.from, request.to)
        let planned = try await client.plan(from: origin.abbr, to: destination.abbr, date: request.date, minutes: request.minutes)
        let zone = BART.zone
        let fare: [Column<BARTPlannedTrip.Fare>] = [
            Column("name") { .string($0.name) }, Column("class") { .string($0.fareClass) }, Column("amount") { .double($0.amount) },
        ]
        let leg: [Column<BARTPlannedTrip.PlannedLeg>] = [
            Column("order") { .int($0.order) }, Column("route", "ROUTE") { .optional(Self.routeNumber($0.line)) },
            Column("origin", "FROM") { .string($0.origin) }, Column("destination", "TO") { .string($0.destination) },
            Column("departure", "DEPART") { .time($0.departure, zone) }, Column("arrival", "ARRIVE") { .time($0.arrival, zone) },
            Column("train_head_station", "TOWARD") { .string($0.trainHeadStation) }, Column("bikes") { $0.bikes.map(Value.bool) ?? .null },
        ]
        let data: [Column<BARTPlannedTrip>] = [
            Column("origin") { .string($0.origin) }, Column("destination") { .string($0.destination) },
            Column("departure") { .time($0.departure, zone) }, Column("arrival") { .time($0.arrival, zone) },
            Column("duration_minutes") { .int($0.tripMinutes ?? Int(($0.arrival.timeIntervalSince($0.departure) / 60).rounded())) },
            Column("transfers") { .int(max(0, $0.legs.count - 1)) }, Column("fare") { .optional($0.fare) },
            Column("fares", in: .json) { trip in .list(trip.fares.map { .object(Record(fare, $0)) }) },
            Column("legs", in: .json) { trip in .list(trip.legs.map { .object(Record(leg, $0)) }) },
        ]
        var output = Output(planned, data: data, table: [])
        // The terminal shows one row per leg, numbered by trip, fares under it.
        let legRows = planned.enumerated().flatMap { number, trip in trip.legs.map { (trip: number + 1, leg: $0) } }
        let tripColumn = Column<(trip: Int, leg: BARTPlannedTrip.PlannedLeg)>("trip") { .int($0.trip) }
        output.table = Grid(legRows, [tripColumn] + [leg[4], leg[2], leg[5], leg[3], leg[1], leg[6]].map { column in
            Column(column.key, column.header) { column.value($0.leg) }
        })
        if let fares = planned.first?.fares, !fares.isEmpty {
            output.tableAfter = ["Fares: " + fares.map { "\($0.name) $" + String(format: "%.2f", $0.amount) }.joined(separator: ", ")]
        }
        if planned.isEmpty { output.notices.append("BART's trip planner found no trip from \(origin.abbr) to \(destination.abbr) then") }
        return output
    }

    /// `ROUTE 7` → 7.
    static func routeNumber(_ line: String) -> Int? {
        Int(line.split(separator: " ").last.map(String.init) ?? "")
    }

    // MARK: live

    func departures(_ query: String, filter: BARTDepartureFilter?) async throws(TransitError) -> Output {
        let station = try Self.matcher(try await client.stations()).match(query)
        let list = try await client.departures(station: station.abbr, filter: filter)
            .sorted { ($0.minutes, $0.destination) < ($1.minutes, $1.destination) }
        let data: [Column<BARTDeparture>] = [
            Column("station") { .string($0.station) }, Column("destination") { .string($0.destination) },
            Column("destination_code") { .string($0.destinationCode) }, Column("minutes", "MIN") { .int($0.minutes) },
            Column("platform", "PLAT") { .optional($0.platform) }, Column("direction", "DIR") { .string($0.direction) },
            Column("cars") { .optional($0.cars) }, Column("line") { .string($0.line.prefix(1).uppercased() + $0.line.dropFirst().lowercased()) },
            Column("hex_color") { .optional($0.hexColor) }, Column("delay_seconds") { .int($0.delaySeconds) },
            Column("cancelled") { .bool($0.cancelled) }, Column("bikes") { $0.bikes.map(Value.bool) ?? .null },
        ]
        let delay = Column<BARTDeparture>("delay", "DELAY") { $0.delaySeconds > 0 ? .string("+\(($0.delaySeconds + 59) / 60) min") : .string("") }
        let notices = list.isEmpty ? ["No departures from \(station.abbr) (\(station.name)) right now"] : []
        return Output(list, data: data, table: [data[3], data[1], data[4], data[5], data[6], data[7], delay], notices: notices)
    }

    func advisories() async throws(TransitError) -> Output {
        let list = try await client.advisories()
        // BART says "No delays reported." as an advisory with no type or station.
        let real = list.filter { !($0.type == nil && ($0.station ?? "").isEmpty && $0.description.lowercased().hasPrefix("no delays")) }
        let data: [Column<BARTAdvisory>] = [
            Column("id") { .optional($0.id) }, Column("station") { .optional($0.station) }, Column("type") { .optional($0.type) },
            Column("description") { .string($0.description) }, Column("posted") { .optional($0.posted) }, Column("expires") { .optional($0.expires) },
        ]
        let notices = real.isEmpty ? [list.first?.description ?? "No advisories"] : []
        return Output(real, data: data, table: [data[2], data[1], data[4], data[3]], notices: notices)
    }
}
