import Foundation
import TransitSupport

/// `bart trips` as typed: station names or codes, resolved against the station list later.
@dynamicMemberLookup
package struct BARTTripsRequest: Sendable, Equatable {
    package var from: String
    package var to: String
    package var window: TripFinder.Window

    package subscript<T>(dynamicMember path: WritableKeyPath<TripFinder.Window, T>) -> T {
        get { window[keyPath: path] }
        set { window[keyPath: path] = newValue }
    }
}

package struct BARTTripRequest: Sendable, Equatable {
    package var from: String
    package var to: String
    package var date: LocalDate
    /// Minutes after midnight.
    package var minutes: Int
}

/// `transit bart …`: its spec, options and defaults, and its commands, one type each.
enum BARTCommandLine {
    static let date = OptionSpec("date", value: "DATE", "service day: YYYY-MM-DD, today or tomorrow; before 03:00 the service day in progress is yesterday's")
    static let stationWord = "BART station"

    /// Every `bart` command, in the order help lists them.
    static let commands: [any SpecifiedCommand.Type] = [
        BARTTripsCommand.self, BARTTripCommand.self, BARTDeparturesCommand.self, BARTAdvisoriesCommand.self, BARTStationsCommand.self, BARTRoutesCommand.self,
    ]

    static let spec = ProviderSpec(
        name: "bart", displayName: "BART", summary: "BART (San Francisco Bay Area Rapid Transit)", zoneName: "America/Los_Angeles",
        commands: commands.map { $0.spec },
        baseURLs: [("TRANSIT_BART_BASE_URL", BART.defaultBaseURL)],
        key: KeySpec(variable: "TRANSIT_BART_KEY", publicDefault: BART.publicKey, whereToGet: "BART's public key is the default"))
}

/// `transit bart trips`: every train between two stations on a service day (BART's schedules, intersected).
struct BARTTripsCommand: SpecifiedCommand {
    static let spec = CommandSpec(provider: "bart", name: "trips", summary: "every train between two stations on a service day",
                examples: ["transit bart trips --from 24TH --to MLBR --date 2026-11-23",
                           "transit bart trips --from \"24th St Mission\" --to millbrae --after 17:00 --limit 5",
                           "transit bart trips --from 24TH --to FRMT --transfers 1 --format json"],
                options: [
                    OptionSpec("from", value: "STN", "origin: a code in any case (24th) or a name (\"24th St Mission\")", required: true, source: .cached),
                    OptionSpec("to", value: "STN", "destination, as --from", required: true, source: .cached),
                    BARTCommandLine.date,
                    OptionSpec("after", value: "T", "only trips leaving at or after T: HH:MM, 5pm, 17, now or +30m; before 03:00 is the night after (default: now on today's service day, else the start of the day)"),
                    OptionSpec("before", value: "T", "only trips leaving at or before T; times before 03:00 are the end of the service day"),
                    OptionSpec("arrive-by", value: "T", "only trips arriving at or before T, the latest to leave first"),
                    OptionSpec("limit", value: "N", "keep the first N trips"),
                    OptionSpec("transfers", value: "0|1", "at most this many changes of train, as in gtfs trips; BART's trip finder intersects its lines, so one is the most it plans (gtfs trips plans up to 7, default 2)", default: "0", choices: ["0", "1"]),
                    OptionSpec("min-transfer", value: "MIN", "minutes a change needs, as in gtfs trips; one more than gtfs trips' default (2): BART's API gives no transfer times to go by", default: "3"),
                ],
                notes: ["Fields: origin, destination, departure, arrival, duration_minutes, transfers, legs (route, line, origin, destination, departure, arrival, head_station). Times are Pacific, with their offset in tsv and json. tsv/csv add line and toward (legs joined with >), and change_at with --transfers 1."])

    var request: BARTTripsRequest

    init(_ request: BARTTripsRequest) { self.request = request }

    init(_ args: Arguments) throws(TransitError) {
        let (from, to) = try args.distinctPair(what: "station")
        let date = try args.date(zone: BART.zone) ?? LocalDate.serviceDay(at: args.now, in: BART.zone, cutoff: BART.serviceDayCutoff)
        let window = try args.serviceWindow(on: ServiceClock(day: date, zone: BART.zone))
        var finder = TripFinder.Window(
            date: date, after: window.after.map { $0 / 60 }, before: window.before.map { $0 / 60 }, arriveBy: window.arriveBy.map { $0 / 60 },
            limit: try args.int("limit", in: 1...10_000),
            transfers: try args.intValue("transfers", in: 0...1), minTransfer: try args.intValue("min-transfer", in: 0...60))
        finder.startsNow = window.startsNow
        request = BARTTripsRequest(from: from, to: to, window: finder)
    }

    var zone: TimeZone { BART.zone }
    func run(_ context: Context) async throws(TransitError) -> Output { try await BARTCommands(context).trips(request) }
}

/// `transit bart trip`: the trip leaving at a time, with legs and fares (BART's trip planner).
struct BARTTripCommand: SpecifiedCommand {
    static let spec = CommandSpec(provider: "bart", name: "trip", summary: "the trip leaving at a time, with legs and fares (BART's trip planner)",
                examples: ["transit bart trip --from 24TH --to SFIA --time 8:15am",
                           "transit bart trip --from embarcadero --to ashby --date tomorrow --time 17:30 --format json"],
                options: [
                    OptionSpec("from", value: "STN", "origin station (code or name)", required: true, source: .cached),
                    OptionSpec("to", value: "STN", "destination station (code or name)", required: true, source: .cached),
                    OptionSpec("time", value: "T", "departure time, HH:MM or h:mm am|pm", required: true),
                    OptionSpec("date", value: "DATE", "YYYY-MM-DD, today or tomorrow; BART plans 10 days back to 8 weeks ahead", default: "today"),
                ],
                notes: ["Fields: origin, destination, departure, arrival, duration_minutes, transfers, fare, fares (name, class, amount), legs (order, route, origin, destination, departure, arrival, train_head_station, bikes). The table shows one row per leg, fares under it."])

    var request: BARTTripRequest

    init(_ request: BARTTripRequest) { self.request = request }

    init(_ args: Arguments) throws(TransitError) {
        let (from, to) = try args.distinctPair(what: "station")
        guard let minutes = try args.time("time") else { throw args.missing("time") }
        let today = LocalDate(args.now, in: BART.zone)
        let day = try args.date(zone: BART.zone) ?? today
        // BART plans 10 days back to 8 weeks ahead; a recording keeps its own date.
        if !args.offline && (day.dayNumber < today.dayNumber - 10 || day.dayNumber > today.dayNumber + 56) {
            throw .usage("--date \(day.iso) is outside BART's trip planner window (\(today.adding(days: -10).iso) to \(today.adding(days: 56).iso))")
        }
        request = BARTTripRequest(from: from, to: to, date: day, minutes: minutes)
    }

    var zone: TimeZone { BART.zone }
    func run(_ context: Context) async throws(TransitError) -> Output { try await BARTCommands(context).trip(request) }
}

/// `transit bart departures`: live departures from a station.
struct BARTDeparturesCommand: SpecifiedCommand {
    static let spec = CommandSpec(provider: "bart", name: "departures", summary: "live departures from a station",
                examples: ["transit bart departures --station 24TH", "transit bart departures --station powell --direction s --format json"],
                options: [
                    OptionSpec("station", value: "STN", "station code or name", required: true, source: .cached),
                    OptionSpec("platform", value: "N", "only platform N (1-4)"),
                    OptionSpec("direction", value: "n|s", "only northbound (n) or southbound (s) trains", choices: ["n", "s"]),
                ],
                notes: ["Fields: station, destination, destination_code, minutes (0 = leaving), platform, direction, cars, line, hex_color, delay_seconds, cancelled, bikes. Never cached."])

    var station: String
    var filter: BARTDepartureFilter?

    init(station: String, filter: BARTDepartureFilter?) {
        self.station = station
        self.filter = filter
    }

    init(_ args: Arguments) throws(TransitError) {
        station = try args.required("station")
        let platform = try args.int("platform", in: 1...4)
        let direction = try args.choice("direction", BARTDirection.self,
                                        aliases: ["north": .north, "northbound": .north, "south": .south, "southbound": .south])
        switch (platform, direction) {
        case (.some, .some): throw .usage("give --platform or --direction, not both (BART filters by one)")
        case (.some(let p), nil): filter = .platform(p)
        case (nil, .some(let d)): filter = .direction(d)
        case (nil, nil): filter = nil
        }
    }

    var zone: TimeZone { BART.zone }
    func run(_ context: Context) async throws(TransitError) -> Output { try await BARTCommands(context).departures(station, filter: filter) }
}

/// `transit bart advisories`: current service advisories.
struct BARTAdvisoriesCommand: SpecifiedCommand {
    static let spec = CommandSpec(provider: "bart", name: "advisories", summary: "current service advisories",
                examples: ["transit bart advisories"],
                notes: ["Fields: id, station, type, description, posted, expires. Never cached."])

    init(_ args: Arguments) throws(TransitError) {}

    var zone: TimeZone { BART.zone }
    func run(_ context: Context) async throws(TransitError) -> Output { try await BARTCommands(context).advisories() }
}

/// `transit bart stations`: all stations, or the nearest to a place.
struct BARTStationsCommand: SpecifiedCommand {
    static let spec = CommandSpec(provider: "bart", name: "stations", summary: "all stations, or the nearest to a place",
                examples: ["transit bart stations", "transit bart stations --near 37.7749,-122.4194 --limit 3",
                           "transit --format json bart stations"],
                options: [
                    OptionSpec("near", value: "LAT,LON", "nearest first, with the great-circle distance"),
                    OptionSpec("limit", value: "N", "with --near: the N nearest", default: "5"),
                ],
                notes: ["Fields: abbr, name, city, latitude, longitude; with --near also distance_km. Cached for a day."])

    var near: Coordinate?
    var limit: Int?

    init(near: Coordinate?, limit: Int?) {
        self.near = near
        self.limit = limit
    }

    init(_ args: Arguments) throws(TransitError) {
        near = try args.coordinates("near")
        let limited = try args.given("limit")
        guard near != nil || !limited else { throw .usage("--limit goes with --near") }
        limit = near == nil ? nil : try args.int("limit", in: 1...1000)
    }

    var zone: TimeZone { BART.zone }
    func run(_ context: Context) async throws(TransitError) -> Output { try await BARTCommands(context).stations(near: near, limit: limit) }
}

/// `transit bart routes`: all routes with their stations in travel order.
struct BARTRoutesCommand: SpecifiedCommand {
    static let spec = CommandSpec(provider: "bart", name: "routes", summary: "all routes with their stations in travel order",
                examples: ["transit bart routes", "transit bart routes --format json"],
                options: [OptionSpec("date", value: "DATE", "the routes in force on DATE: YYYY-MM-DD, today or tomorrow")],
                notes: ["Fields: number, name, abbr, color, hex_color, origin, destination, direction, stations. Cached for a day."])

    var date: LocalDate?

    init(_ args: Arguments) throws(TransitError) { date = try args.date(zone: BART.zone) }

    var zone: TimeZone { BART.zone }
    func run(_ context: Context) async throws(TransitError) -> Output { try await BARTCommands(context).routes(date) }
}
