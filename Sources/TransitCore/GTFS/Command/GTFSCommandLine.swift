import Foundation

/// `transit gtfs …`: any agency's static feed, imported once and queried offline.
public enum GTFSCommand: Sendable, Equatable {
    /// `realtime`: URLs remembered for every query of the feed, with `headers` (`Name: value`), as typed.
    case importFeed(source: String, name: String?, realtime: [String], headers: [String])
    /// The imported feeds; with `feeds`, those only, and what their combination should know.
    case feeds(feeds: [String])
    case remove(name: String)
    case update(name: String?)
    case stops(feeds: [String], name: String?, near: Coordinate?, radius: Double)
    case routes(feeds: [String])
    case departures(GTFSDeparturesRequest)
    case trips(GTFSTripsRequest)
    /// One trip's calls on a service day; `start` (seconds) picks a frequencies.txt run.
    case trip(feeds: [String], tripID: String, date: String?, start: Int?, realtime: [String], noRealtime: Bool)
    /// Where the vehicles are (GTFS-Realtime VehiclePositions), on one route or all.
    case vehicles(feeds: [String], route: String?, realtime: [String])
    /// Every stop reachable from one within some minutes.
    case reach(GTFSReachRequest)
    /// The service alerts in force (GTFS-Realtime Alerts), for a route, a stop or all.
    case alerts(feeds: [String], route: String?, stop: String?, realtime: [String])
}

public struct GTFSDeparturesRequest: Sendable, Equatable {
    /// `--feed`, as given (several: a combination; `all`: every imported feed; none: the default).
    public var feeds: [String] = []
    public var stop: String
    /// As typed (`2016-04-06`, `today`): read in the feed's zone once the feed is open.
    public var date: String?
    /// As typed; resolved on the service day (default: now, for today's service day).
    public var after: ServiceTime?
    public var limit: Int?
    /// GTFS-Realtime sources: URLs or files.
    public var realtime: [String] = []
    /// `--no-realtime`: the feed's remembered sources are not read.
    public var noRealtime = false
}

public struct GTFSReachRequest: Sendable, Equatable {
    /// `--feed`, as given (several: a combination; `all`: every imported feed; none: the default).
    public var feeds: [String] = []
    public var from: String
    public var date: String?
    public var after: ServiceTime?
    public var minutes: Int
    public var transfers: Int
    /// Seconds.
    public var minTransfer: Int
    public var walkMeters: Double?
    public var realtime: [String] = []
    public var noRealtime = false
    /// Meters around an origin given as LAT,LON.
    public var radius: Double = 1000
    /// Over several feeds: meters within which stops of different feeds are linked.
    public var link: Double = 300
    /// `--tz`: the zone `--date` and the window are read in (default: the origin's feed's).
    public var zone: String?
}

public struct GTFSTripsRequest: Sendable, Equatable {
    /// `--feed`, as given (several: a combination; `all`: every imported feed; none: the default).
    public var feeds: [String] = []
    public var from: String
    public var to: String
    public var date: String?
    /// `--after`, `--before` (both inclusive) and `--arrive-by`, as typed; resolved on the service day.
    public var window: ServiceWindow
    public var transfers: Int
    /// Seconds.
    public var minTransfer: Int
    public var walkMeters: Double?
    public var limit: Int?
    /// The Pareto set over departure and arrival only: a journey with fewer changes that arrives later goes.
    public var fastest = false
    /// Show in the table the journeys it hides (see `JourneyLayout.unlikely`).
    public var all = false
    /// GTFS-Realtime sources: URLs or files.
    public var realtime: [String] = []
    public var noRealtime = false
    /// Meters around an end given as LAT,LON.
    public var radius: Double = 1000
    /// Over several feeds: meters within which stops of different feeds are linked.
    public var link: Double = 300
    /// `--tz`: the zone `--date` and the window are read in (default: the origin's feed's).
    public var zone: String?
}

enum GTFSCommandLine {
    /// A downloaded feed is held in memory before it is compiled: the largest accepted (the
    /// biggest published feeds, whole countries, are a few hundred MB zipped).
    static let maxFeedBytes = 512 << 20
    static let feed = OptionSpec("feed", value: "NAME|PATH", "an imported feed, a GTFS zip or directory (compiled on first use), or all; repeatable: several feeds are searched as one, their ids written feed:id; default $TRANSIT_GTFS_FEED (comma-separated), else the one imported feed", source: .cached, repeatable: true)
    static let link = OptionSpec("link", value: "METERS", "over several feeds: a change between stops of different feeds this close, needing --min-transfer plus the walk at 1.2 m/s (1 to 5000)", default: "300")
    static let zone = OptionSpec("tz", value: "ZONE", "read --date, --after and --before in this IANA zone (default: the zone of the origin's feed)")
    static let realtime = OptionSpec("realtime", value: "SOURCE", "GTFS-Realtime trip updates to apply: an http(s) URL or a .pb file (repeatable; over several feeds FEED=SOURCE; default the feeds' remembered sources)", source: .files, repeatable: true)
    static let radius = OptionSpec("radius", value: "METERS", "with LAT,LON: the stops within this distance are reached on foot at 1.2 m/s (1 to 5000)", default: "1000")
    static let noRealtime = OptionSpec("no-realtime", "ignore the feed's remembered real-time sources: the timetable as planned")
    static let date = OptionSpec("date", value: "DATE", "service day: YYYY-MM-DD, today or tomorrow in the feed's zone; before 03:00 the day in progress is yesterday's")

    static let spec = ProviderSpec(
        name: "gtfs", displayName: "GTFS", summary: "any agency's GTFS static feed: imported once, every journey of a day offline",
        zoneName: "the feed's agency_timezone",
        commands: [
            CommandSpec(provider: "gtfs", name: "trips", summary: "every Pareto-optimal journey of a service day between two stops, with changes",
                        examples: ["transit gtfs trips --from Harbor --to Stadium --date 2026-11-23",
                                   "transit gtfs trips --from HBR --to M_STA --date 2026-11-23 --after 17:00 --before 19:00 --format json",
                                   "transit gtfs trips --feed ./feed.zip --from A --to B --transfers 1 --walk 300"],
                        options: [
                            OptionSpec("from", value: "STOP", "origin: a stop_id, a stop_code or a name (a station or a shared name means all its stops), or LAT,LON (every stop within --radius, on foot)", required: true, source: .cached),
                            OptionSpec("to", value: "STOP", "destination, as --from", required: true, source: .cached),
                            radius,
                            date,
                            OptionSpec("after", value: "T", "only journeys leaving at or after T: HH:MM, 5pm, 17, now or +30m; before 03:00 is the night after, H:MM:SS the feed's own hours (default: now on today's service day, else the start of the day)"),
                            OptionSpec("before", value: "T", "only journeys leaving at or before T"),
                            OptionSpec("arrive-by", value: "T", "only journeys arriving at or before T, the latest to leave first"),
                            OptionSpec("fastest", "only the fastest: a journey goes when another leaves no earlier and arrives no later, whatever its changes"),
                            OptionSpec("all", "the table shows every journey, also those another beats clearly (hidden by default; JSON and tsv always have them)"),
                            OptionSpec("transfers", value: "K", "at most K changes (0 to 5)", default: "2"),
                            OptionSpec("min-transfer", value: "MIN", "minutes a change needs where transfers.txt does not say", default: "2"),
                            OptionSpec("walk", value: "METERS", "also change between stops this close: --min-transfer plus the walk at 1.2 m/s"),
                            OptionSpec("limit", value: "N", "keep the first N journeys"),
                            link, zone, realtime, noRealtime, feed,
                        ],
                        notes: ["Fields: origin, destination, departure, arrival, duration_minutes, transfers, legs (route, route_id, trip_id, headsign, from, from_name, from_platform, to, to_name, to_platform, departure, arrival (predicted with --realtime), planned_departure, planned_arrival, departure_delay_seconds, arrival_delay_seconds, realtime, status (scheduled, updated, added) for a ride; trip_start for a frequencies.txt run; walk_meters for a walk; a platform is the stop's platform_code, else its stop_code). tsv/csv add routes and change_at (the stations where each change boards, joined with >); the table shows CHANGE AT (station and time) before the JOURNEY. Journeys are the Pareto set over departure (later is better), arrival (earlier) and changes (fewer), sorted by departure, arrival, changes. --format geojson: a FeatureCollection, each journey a LineString through the stops it calls at (stop coordinates; shapes.txt is not read), its fields and legs as properties."],
                        geoJSON: true),
            CommandSpec(provider: "gtfs", name: "departures", summary: "a station board: the trips leaving a stop on a service day",
                        examples: ["transit gtfs departures --stop \"Old Town\" --date 2026-11-23 --after 08:00 --limit 10"],
                        options: [
                            OptionSpec("stop", value: "STOP", "a stop_id, a stop_code or a name", required: true, source: .cached),
                            date,
                            OptionSpec("after", value: "T", "only departures at or after T: HH:MM, 5pm, 17, now or +30m; before 03:00 is the night after, H:MM:SS the feed's own hours (default: now on today's service day, else the start of the day)"),
                            OptionSpec("limit", value: "N", "keep the first N"),
                            realtime, noRealtime, feed,
                        ] + OptionSpec.watch,
                        notes: ["Fields: time (the time to plan on: predicted with --realtime, else planned; null when canceled or skipped), route, headsign, trip_id, platform (the stop id), service_day (the day the trip belongs to: calls past 24:00 of the day before appear in the morning); JSON also trip_start (a frequencies.txt run's start, HH:MM:SS; null for other trips), planned_time, delay_seconds (null without real-time data for the trip), realtime, status (scheduled, updated, canceled, skipped, added); tsv/csv add those four with --realtime. The table shows planned and predicted side by side (16:02 → 16:05 +3) and a STATUS column with --realtime. Real-time rules: docs/realtime.md."]),
            CommandSpec(provider: "gtfs", name: "reach", summary: "every stop reachable from one within some minutes, with its earliest arrival",
                        examples: ["transit gtfs reach --from Harbor --date 2026-11-23 --after 08:00 --minutes 30",
                                   "transit gtfs reach --from Harbor --date 2026-11-23 --after 08:00 --format geojson > reach.geojson"],
                        options: [
                            OptionSpec("from", value: "STOP", "the origin: a stop_id, a stop_code or a name (a station means all its stops), or LAT,LON (every stop within --radius, on foot)", required: true, source: .cached),
                            radius,
                            date,
                            OptionSpec("after", value: "T", "leaving at or after T: HH:MM, 5pm, 17, now or +30m (default: now on today's service day, else the start of the day)"),
                            OptionSpec("minutes", value: "M", "arriving within M minutes of T (1 to 1440)", default: "60"),
                            OptionSpec("transfers", value: "K", "at most K changes (0 to 5)", default: "2"),
                            OptionSpec("min-transfer", value: "MIN", "minutes a change needs where transfers.txt does not say", default: "2"),
                            OptionSpec("walk", value: "METERS", "also change between stops this close: --min-transfer plus the walk at 1.2 m/s"),
                            link, zone, realtime, noRealtime, feed,
                        ],
                        notes: ["Fields: stop_id, stop_name, arrival (the earliest, leaving the origin at or after T), minutes (from T), transfers (the fewest changes that arrive then), latitude, longitude; sorted by arrival. A stop counts when a ride arrives there (a stop reached only on foot is not listed). --format geojson: a Point per stop with those properties. One range search of the same router as trips."],
                        geoJSON: true),
            CommandSpec(provider: "gtfs", name: "vehicles", summary: "where the vehicles are now, from GTFS-Realtime vehicle positions",
                        examples: ["transit gtfs vehicles --realtime https://example.org/gtfs-rt/vehicle-positions",
                                   "transit gtfs vehicles --route SL --realtime positions.pb --format geojson > vehicles.geojson"],
                        options: [OptionSpec("route", value: "ROUTE", "only this route: its route_id or name"),
                                  OptionSpec("realtime", value: "SOURCE", "GTFS-Realtime vehicle positions: an http(s) URL or a .pb file (repeatable; default the feed's remembered sources)", source: .files, repeatable: true),
                                  feed] + OptionSpec.watch,
                        notes: ["Fields: id, label, trip_id, route, route_id, latitude, longitude, bearing (degrees), speed (m/s), stop_id, stop_name (the stop it is at or heading to), status (incoming_at, stopped_at, in_transit_to; null without a stop), occupancy, timestamp, age_seconds. A position more than 5 minutes older than its feed is left out. --format geojson: a Point per vehicle with a position."],
                        geoJSON: true),
            CommandSpec(provider: "gtfs", name: "alerts", summary: "the service alerts in force now, from GTFS-Realtime",
                        examples: ["transit gtfs alerts --realtime https://example.org/gtfs-rt/alerts",
                                   "transit gtfs alerts --route SL --stop Market --realtime alerts.pb --format json"],
                        options: [OptionSpec("route", value: "ROUTE", "only alerts that can apply to this route: its route_id or name"),
                                  OptionSpec("stop", value: "STOP", "only alerts that can apply to this stop (or its station)", source: .cached),
                                  OptionSpec("realtime", value: "SOURCE", "GTFS-Realtime alerts: an http(s) URL or a .pb file (repeatable; default the feed's remembered sources)", source: .files, repeatable: true),
                                  feed],
                        notes: ["Fields: id, cause, effect, severity, header, description, url (each in $LANG's language, else English, else the untagged text), active_periods (start and end, null when open), applies_to (what each informed_entity names, in words). An alert is in force with no active period or when now lies in one; the others are counted in a notice. Departures and journey legs read with --realtime carry the ids of the alerts that apply to them (JSON field alerts), and the table a notice per alert."]),
            CommandSpec(provider: "gtfs", name: "stops", summary: "the feed's stops, by name or near a place",
                        examples: ["transit gtfs stops --name market", "transit gtfs stops --near 41.8631,-87.6244 --radius 500 --format geojson"],
                        options: [
                            OptionSpec("name", value: "TEXT", "stops whose name holds TEXT (any case, accents ignored)"),
                            OptionSpec("near", value: "LAT,LON", "stops within --radius, nearest first"),
                            OptionSpec("radius", value: "METERS", "with --near", default: "1000"),
                            feed,
                        ],
                        notes: ["Fields: id, code, name, latitude, longitude, parent_station, routes; with --near also distance_meters."],
                        geoJSON: true),
            CommandSpec(provider: "gtfs", name: "routes", summary: "the feed's routes",
                        examples: ["transit gtfs routes"], options: [feed],
                        notes: ["Fields: id, agency, short_name, long_name, type (tram, subway, rail, bus, ferry, …), color."]),
            CommandSpec(provider: "gtfs", name: "import", summary: "check a feed and compile it for offline queries",
                        examples: ["transit gtfs import Fixtures/gtfs/lakeport",
                                   "transit gtfs import ./unzipped-feed --name metro", "transit gtfs import https://example.org/gtfs.zip --name city"],
                        options: [OptionSpec("name", value: "NAME", "the feed's name (default: the file name without .zip)"),
                                  OptionSpec("realtime", value: "URL", "a GTFS-Realtime URL every query of the feed reads (repeatable); $NAME or ${NAME} in it is read from the environment at each fetch, and kept as a name", repeatable: true),
                                  OptionSpec("realtime-header", value: "\"NAME: VALUE\"", "a header sent with the real-time URLs (repeatable), e.g. \"x-api-key: $KEY\"", repeatable: true)],
                        notes: ["SOURCE is a .zip, an unzipped directory or an http(s) URL (fetched through the HTTP path: --timeout, retries, --record, --offline). The compiled feed goes to $TRANSIT_CACHE_DIR/gtfs/NAME.timetable; importing again replaces it atomically, and a failed import leaves the old one. Prints: name, agencies, time_zone, first_date, last_date, stops, routes, trips, stop_times, patterns, compiled_bytes, compile_ms."],
                        positional: "SOURCE", positionalSource: .files),
            CommandSpec(provider: "gtfs", name: "feeds", summary: "the imported feeds and the dates they cover",
                        examples: ["transit gtfs feeds", "transit gtfs feeds --feed bart --feed caltrain"],
                        options: [OptionSpec("feed", value: "NAME|PATH", "only these feeds (repeatable, or all), with what their combination should know: feeds in different zones, feeds that share no service day", source: .cached, repeatable: true)],
                        notes: ["Fields: name, agencies, time_zone, first_date, last_date, stops, routes, trips, stop_times, source; JSON also realtime (the remembered real-time URLs, as typed). A notice says when today is outside a feed's dates."]),
            CommandSpec(provider: "gtfs", name: "trip", summary: "one trip's calls on a service day: the stops between a journey's ends",
                        examples: ["transit gtfs trip SL-WK-N03 --date 2026-11-23", "transit gtfs trip M1-WK-E --date 2026-11-23 --start 08:00:00 --format json"],
                        options: [date,
                                  OptionSpec("start", value: "HH:MM:SS", "which run of a frequencies.txt trip: its first departure, as trip_start says on boards and legs"),
                                  realtime, noRealtime, feed],
                        notes: ["Fields: sequence (the call's place in the trip, from 1), stop_id, stop_name, platform, arrival, departure, planned_arrival, planned_departure, delay_seconds (null: no real-time data), realtime, status (scheduled, updated, skipped, canceled, added); arrival and departure are the predicted times with --realtime, null when skipped or canceled. A trip only the real-time data has (ADDED, NEW) is found by its trip_id too. A trip that runs several times a day (frequencies.txt) needs --start, or the next run from now is shown, with a notice."],
                        positional: "TRIP_ID"),
            {
                var update = CommandSpec(provider: "gtfs", name: "update", summary: "import feeds again from their sources, where they changed",
                                         examples: ["transit gtfs update", "transit gtfs update lakeport"],
                                         notes: ["NAME: one imported feed (default: every one). A file or directory is read again when its size or time changed; a URL is asked with the ETag and Last-Modified of the last import (a 304 leaves it). Fields: name, status (unchanged, updated), first_date, last_date, trips, stop_times, changes (what differs from before)."],
                                         positional: "NAME", positionalSource: .cached)
                update.positionalOptional = true
                return update
            }(),
            CommandSpec(provider: "gtfs", name: "remove", summary: "forget an imported feed (its compiled file is deleted)",
                        examples: ["transit gtfs remove lakeport"],
                        notes: ["Prints the name removed. An unknown name exits 2 with the imported ones."],
                        positional: "NAME", positionalSource: .cached),
        ],
        variables: [("TRANSIT_GTFS_FEED", "the default --feed of gtfs: an imported feed's name, a path, all, or several, comma-separated (searched as one)")],
        files: [("$TRANSIT_CACHE_DIR/gtfs/NAME.timetable", "an imported GTFS feed, compiled for routing; replaced atomically by a new import"),
                ("$TRANSIT_CACHE_DIR/gtfs/.combined/", "several feeds combined (--feed a --feed b), compiled on first use, compiled again when one of them changes")])

    static func parse(_ args: Arguments) throws(TransitError) -> GTFSCommand {
        let feeds = args.strings("feed")
        switch args.spec.name {
        case "import":
            let source = (args.positional ?? "").trimmingCharacters(in: .whitespaces)
            guard !source.isEmpty else { throw args.missing("SOURCE") }
            if let name = args.string("name"), !FeedStore.validName(name) {
                throw .usage("--name takes letters, digits, '.', '_' and '-' (not starting with '.'), not '\(name)'")
            }
            let realtime = args.strings("realtime"), headers = args.strings("realtime-header")
            for url in realtime where !GTFSCommands.isURL(url) {
                throw .usage("--realtime takes an http(s) URL to remember, not '\(url)' (a file is given to each query instead)")
            }
            for header in headers {
                guard let colon = header.firstIndex(of: ":"), !header[..<colon].trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw .usage("--realtime-header takes \"Name: value\", not '\(header)'")
                }
            }
            if !headers.isEmpty && realtime.isEmpty { throw .usage("--realtime-header goes with --realtime") }
            return .importFeed(source: source, name: args.string("name"), realtime: realtime, headers: headers)
        case "feeds": return .feeds(feeds: feeds)
        case "trip":
            let id = (args.positional ?? "").trimmingCharacters(in: .whitespaces)
            guard !id.isEmpty else { throw args.missing("TRIP_ID") }
            var start: Int?
            if let text = args.string("start") {
                guard case .asWritten(let seconds)? = ServiceTime.parse(text), text.split(separator: ":").count == 3 else {
                    throw .usage("--start takes a run's start as HH:MM:SS (08:00:00, or past 24 as 25:10:00), not '\(text)'")
                }
                start = seconds
            }
            try checkRealtime(args)
            return .trip(feeds: feeds, tripID: id, date: try checkedDate(args), start: start, realtime: args.strings("realtime"), noRealtime: args.flag("no-realtime"))
        case "update": return .update(name: args.positional.map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 })
        case "remove":
            let name = (args.positional ?? "").trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { throw args.missing("NAME") }
            return .remove(name: name)
        case "routes": return .routes(feeds: feeds)
        case "reach":
            try checkRealtime(args)
            guard let from = args.string("from") else { throw args.missing("from") }
            let date = try checkedDate(args), after = try args.serviceTime("after"), minutes = try args.intValue("minutes", in: 1...1440)
            let search = try Search(args)
            return .reach(GTFSReachRequest(feeds: feeds, from: from, date: date, after: after, minutes: minutes, transfers: search.transfers,
                                           minTransfer: search.minTransfer, walkMeters: search.walk,
                                           realtime: args.strings("realtime"), noRealtime: args.flag("no-realtime"),
                                           radius: search.radius, link: search.link, zone: search.zone))
        case "alerts": return .alerts(feeds: feeds, route: args.string("route"), stop: args.string("stop"), realtime: args.strings("realtime"))
        case "vehicles": return .vehicles(feeds: feeds, route: args.string("route"), realtime: args.strings("realtime"))
        case "stops":
            let near = try args.coordinates("near")
            guard near != nil || !args.given("radius") else { throw .usage("--radius goes with --near") }
            guard let radius = try args.double("radius", in: 1...100_000, what: "meters") else { throw args.missing("radius") }
            return .stops(feeds: feeds, name: args.string("name"), near: near, radius: radius)
        case "departures":
            try checkRealtime(args)
            return .departures(GTFSDeparturesRequest(feeds: feeds, stop: try args.required("stop"), date: try checkedDate(args),
                                                     after: try args.serviceTime("after"), limit: try args.int("limit", in: 1...100_000),
                                                     realtime: args.strings("realtime"), noRealtime: args.flag("no-realtime")))
        case "trips":
            try checkRealtime(args)
            let (from, to) = try args.distinctPair(what: "stop")
            let date = try checkedDate(args), window = try args.serviceTimes(), search = try Search(args)
            return .trips(GTFSTripsRequest(feeds: feeds, from: from, to: to, date: date, window: window,
                                           transfers: search.transfers, minTransfer: search.minTransfer, walkMeters: search.walk,
                                           limit: try args.int("limit", in: 1...100_000), fastest: args.flag("fastest"), all: args.flag("all"),
                                           realtime: args.strings("realtime"), noRealtime: args.flag("no-realtime"),
                                           radius: search.radius, link: search.link, zone: search.zone))
        default: throw args.unknownCommand()
        }
    }

    /// The options of a search that `trips` and `reach` share, read and bounded one way: changes,
    /// walking, a point's radius, links between feeds, and `--tz` (an IANA zone name).
    struct Search {
        var transfers: Int
        /// Seconds.
        var minTransfer: Int
        var walk: Double?
        var radius: Double
        var link: Double
        var zone: String?

        init(_ args: Arguments) throws(TransitError) {
            transfers = try args.intValue("transfers", in: 0...5)
            minTransfer = try args.intValue("min-transfer", in: 0...60) * 60
            walk = try args.double("walk", in: 0...5000, what: "meters")
            radius = try args.double("radius", in: 1...5000, what: "meters") ?? 1000
            link = try args.double("link", in: 1...5000, what: "meters") ?? 300
            zone = args.string("tz")
            if let zone, TimeZone(identifier: zone) == nil {
                throw .usage("--tz takes an IANA zone name (Europe/Madrid, America/Los_Angeles), not '\(zone)'")
            }
        }
    }

    static func checkRealtime(_ args: Arguments) throws(TransitError) {
        if args.flag("no-realtime") && !args.strings("realtime").isEmpty { throw .usage("--realtime and --no-realtime together say two things") }
    }

    /// The date as typed, checked now; read in the feed's zone once the feed is open.
    static func checkedDate(_ args: Arguments) throws(TransitError) -> String? {
        guard let text = args.string("date") else { return nil }
        _ = try Arguments.date(text, zone: TimeZone(secondsFromGMT: 0) ?? .current, now: args.now)
        return text
    }
}
