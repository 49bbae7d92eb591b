import Foundation

/// The `transit bart …` commands: fetch through `BARTClient`, shape records for the renderer.
struct BARTCommands {
    let context: Context
    let client: BARTClient

    init(_ context: Context) {
        self.context = context
        let settings = context.settings
        client = BARTClient(http: context.http,
                            baseURL: settings.baseURL("bart", default: BART.defaultBaseURL),
                            key: settings.key("bart") ?? BART.publicKey)
    }

    func run(_ command: Command) async throws(TransitError) -> Output {
        switch command {
        case .bartStations: return try await stations()
        case .bartRoutes(let date): return try await routes(date)
        case .bartTrips(let options): return try await trips(options)
        case .bartTrip(let options): return try await trip(options)
        case .bartDepartures(let station, let platform, let direction):
            return try await departures(station, platform: platform, direction: direction)
        case .bartAdvisories: return try await advisories()
        default: throw .usage("not a BART command")
        }
    }

    func stationList() async throws(TransitError) -> [Station] {
        context.spinner.start("fetching BART stations")
        return try await client.stations()
    }

    /// Resolves what the user typed against the station list: code, name, or a did-you-mean.
    static func matcher(_ stations: [Station]) -> NameMatcher<Station> {
        NameMatcher(kind: "BART station", candidates: stations.map { .init(code: $0.abbr, names: [$0.name], value: $0) })
    }

    /// `--from` and `--to` resolved; the same station twice is a usage error.
    static func pair(_ stations: [Station], _ from: String, _ to: String) throws(TransitError) -> (Station, Station) {
        let matcher = matcher(stations)
        let origin = try matcher.match(from), destination = try matcher.match(to)
        if origin.abbr == destination.abbr { throw .usage("--from and --to are both \(origin.abbr) (\(origin.name))") }
        return (origin, destination)
    }

    func stations() async throws(TransitError) -> Output {
        let list = try await stationList()
        let records = list.map { s in
            Record([("abbr", .string(s.abbr)), ("name", .string(s.name)), ("city", .string(s.city)),
                    ("latitude", .optional(s.latitude)), ("longitude", .optional(s.longitude))])
        }
        return Output(records: records, table: [Column("abbr"), Column("name"), Column("city"), Column("latitude"), Column("longitude")])
    }

    func routes(_ date: LocalDate?) async throws(TransitError) -> Output {
        context.spinner.start("fetching BART routes")
        let routes = try await client.routes(date: date)
        let records = routes.map { r in
            Record([("number", .int(r.number)), ("name", .string(r.name)), ("abbr", .string(r.abbr)),
                    ("color", .string(r.lineName)), ("hex_color", .optional(r.hexColor)),
                    ("origin", .string(r.origin)), ("destination", .string(r.destination)),
                    ("direction", .optional(r.direction)), ("stations", .list(r.stations.map(Value.string)))])
        }
        let count = Column("stations", "STOPS") { record in
            if case .list(let items)? = record["stations"] { return .int(items.count) }
            return .null
        }
        return Output(records: records,
                      table: [Column("number", "ROUTE"), Column("color", "LINE"), Column("name"), Column("origin", "FROM"),
                              Column("destination", "TO"), count],
                      flat: [Column("number"), Column("name"), Column("abbr"), Column("color"), Column("hex_color"),
                             Column("origin"), Column("destination"), Column("direction"), Column("stations")])
    }

    func trips(_ options: TripFinder.Query) async throws(TransitError) -> Output {
        // Stations (to read the names) and route info in one network round; schedules in the next.
        context.spinner.start("fetching BART stations and routes for \(options.date.iso)")
        let client = self.client
        async let routeList = Result.catching { () async throws(TransitError) -> [Route] in try await client.routes(date: options.date) }
        let stations = try await client.stations()
        let (origin, destination) = try Self.pair(stations, options.origin, options.destination)
        let routes = try await routeList.get()
        var query = options
        query.origin = origin.abbr
        query.destination = destination.abbr
        context.spinner.update("fetching BART schedules for \(options.date.iso)")
        let trips = try await client.trips(query, routes: routes)
        let names = Dictionary(stations.map { ($0.abbr, $0.name) }, uniquingKeysWith: { a, _ in a })
        var notices: [String] = []
        if trips.isEmpty {
            var notice = "No trains from \(origin.abbr) to \(destination.abbr) on \(options.date.iso)"
            if options.after != nil || options.before != nil { notice += " in that time window" }
            if options.transfers == 0 { notice += " without a change; try --transfers 1" }
            notices.append(notice)
        }
        let records = trips.map { Self.record($0) }
        let lines = Column("line", "LINE") { record in
            .string(Self.legs(record).compactMap { if case .string(let s)? = $0["line"] { return s } else { return nil } }.joined(separator: " > "))
        }
        let toward = Column("toward", "TOWARD") { record in
            .string(Self.legs(record).compactMap { leg -> String? in
                guard case .string(let code)? = leg["head_station"] else { return nil }
                return names[code] ?? code
            }.joined(separator: " > "))
        }
        let change = Column("change_at", "CHANGE AT") { record in
            let legs = Self.legs(record)
            guard legs.count > 1 else { return .string("") }
            return .string(legs.dropFirst().compactMap { if case .string(let s)? = $0["origin"] { return s } else { return nil } }.joined(separator: ","))
        }
        var table = [Column("departure", "DEPART"), Column("arrival", "ARRIVE"), Column("duration_minutes", "MIN"), lines, toward]
        var flat = [Column("origin"), Column("destination"), Column("departure"), Column("arrival"),
                    Column("duration_minutes"), Column("transfers"), lines, toward]
        if options.transfers > 0 {
            table.insert(change, at: 3)
            flat.append(change)
        }
        return Output(records: records, table: table, flat: flat, notices: notices)
    }

    static func legs(_ record: Record) -> [Record] {
        guard case .list(let items)? = record["legs"] else { return [] }
        return items.compactMap { if case .object(let r) = $0 { return r } else { return nil } }
    }

    static func record(_ trip: Trip) -> Record {
        let zone = BART.zone
        return Record([
            ("origin", .string(trip.origin)), ("destination", .string(trip.destination)),
            ("departure", .time(trip.departure, zone)), ("arrival", .time(trip.arrival, zone)),
            ("duration_minutes", .int(trip.durationMinutes)), ("transfers", .int(trip.transfers)),
            ("legs", .list(trip.legs.map { leg in
                .object(Record([("route", .int(leg.route)), ("line", .string(leg.line)),
                                ("origin", .string(leg.origin)), ("destination", .string(leg.destination)),
                                ("departure", .time(leg.departure, zone)), ("arrival", .time(leg.arrival, zone)),
                                ("head_station", .string(leg.headStation))]))
            })),
        ])
    }

    func trip(_ options: BARTTripOptions) async throws(TransitError) -> Output {
        let (origin, destination) = try Self.pair(try await stationList(), options.from, options.to)
        context.spinner.update("asking BART's trip planner")
        let planned = try await client.plan(from: origin.abbr, to: destination.abbr, date: options.date, minutes: options.minutes)
        let zone = BART.zone
        var records: [Record] = []
        var rows: [Record] = []
        for (number, trip) in planned.enumerated() {
            let minutes = trip.tripMinutes ?? Int((trip.arrival.timeIntervalSince(trip.departure) / 60).rounded())
            records.append(Record([
                ("origin", .string(trip.origin)), ("destination", .string(trip.destination)),
                ("departure", .time(trip.departure, zone)), ("arrival", .time(trip.arrival, zone)),
                ("duration_minutes", .int(minutes)), ("transfers", .int(max(0, trip.legs.count - 1))),
                ("fare", .optional(trip.fare)),
                ("fares", .list(trip.fares.map { .object(Record([("name", .string($0.name)), ("class", .string($0.fareClass)), ("amount", .double($0.amount))])) })),
                ("legs", .list(trip.legs.map { leg in
                    .object(Record([("order", .int(leg.order)), ("route", .optional(Self.routeNumber(leg.line))),
                                    ("origin", .string(leg.origin)), ("destination", .string(leg.destination)),
                                    ("departure", .time(leg.departure, zone)), ("arrival", .time(leg.arrival, zone)),
                                    ("train_head_station", .string(leg.trainHeadStation)), ("bikes", leg.bikes.map(Value.bool) ?? .null)]))
                })),
            ]))
            for leg in trip.legs {
                rows.append(Record([("trip", .int(number + 1)), ("departure", .time(leg.departure, zone)), ("origin", .string(leg.origin)),
                                    ("arrival", .time(leg.arrival, zone)), ("destination", .string(leg.destination)),
                                    ("route", .optional(Self.routeNumber(leg.line))), ("toward", .string(leg.trainHeadStation))]))
            }
        }
        var output = Output(records: records,
                            table: [],
                            flat: [Column("origin"), Column("destination"), Column("departure"), Column("arrival"),
                                   Column("duration_minutes"), Column("transfers"), Column("fare")])
        if context.settings.format == .table {
            // The terminal shows one row per leg, fares under it.
            output.records = rows
            output.table = [Column("trip", "TRIP"), Column("departure", "DEPART"), Column("origin", "FROM"), Column("arrival", "ARRIVE"),
                            Column("destination", "TO"), Column("route", "ROUTE"), Column("toward", "TOWARD")]
            if let fares = planned.first?.fares, !fares.isEmpty {
                output.tableAfter = ["Fares: " + fares.map { "\($0.name) $" + String(format: "%.2f", $0.amount) }.joined(separator: ", ")]
            }
        }
        if planned.isEmpty { output.notices.append("BART's trip planner found no trip from \(origin.abbr) to \(destination.abbr) then") }
        return output
    }

    /// `ROUTE 7` → 7.
    static func routeNumber(_ line: String) -> Int? {
        Int(line.split(separator: " ").last.map(String.init) ?? "")
    }

    func departures(_ query: String, platform: Int?, direction: String?) async throws(TransitError) -> Output {
        let station = try Self.matcher(try await stationList()).match(query)
        context.spinner.update("fetching live departures at \(station.abbr)")
        let list = try await client.departures(station: station.abbr, platform: platform, direction: direction)
            .sorted { ($0.minutes, $0.destination) < ($1.minutes, $1.destination) }
        let records = list.map { d in
            Record([("station", .string(d.station)), ("destination", .string(d.destination)),
                    ("destination_code", .string(d.destinationCode)), ("minutes", .int(d.minutes)),
                    ("platform", .optional(d.platform)), ("direction", .string(d.direction)), ("cars", .optional(d.cars)),
                    ("line", .string(d.line.prefix(1).uppercased() + d.line.dropFirst().lowercased())),
                    ("hex_color", .optional(d.hexColor)), ("delay_seconds", .int(d.delaySeconds)),
                    ("cancelled", .bool(d.cancelled)), ("bikes", d.bikes.map(Value.bool) ?? .null)])
        }
        var notices: [String] = []
        if records.isEmpty { notices.append("No departures from \(station.abbr) (\(station.name)) right now") }
        let delay = Column("delay_seconds", "DELAY") { record in
            guard case .int(let s)? = record["delay_seconds"], s > 0 else { return .string("") }
            return .string("+\((s + 59) / 60) min")
        }
        return Output(records: records,
                      table: [Column("minutes", "MIN"), Column("destination"), Column("platform", "PLAT"), Column("direction", "DIR"),
                              Column("cars"), Column("line"), delay],
                      notices: notices)
    }

    func advisories() async throws(TransitError) -> Output {
        context.spinner.start("fetching BART advisories")
        let list = try await client.advisories()
        // BART says "No delays reported." as an advisory with no type or station.
        let real = list.filter { !($0.type == nil && ($0.station == nil || $0.station == "") && $0.description.lowercased().hasPrefix("no delays")) }
        var notices: [String] = []
        if real.isEmpty { notices.append(list.first?.description ?? "No advisories") }
        let records = real.map { a in
            Record([("id", .optional(a.id)), ("station", .optional(a.station)), ("type", .optional(a.type)),
                    ("description", .string(a.description)), ("posted", .optional(a.posted)), ("expires", .optional(a.expires))])
        }
        return Output(records: records, table: [Column("type"), Column("station"), Column("posted"), Column("description")],
                      notices: notices)
    }
}
