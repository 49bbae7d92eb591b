/// What the command line accepts: providers, commands, options and their help. The parser,
/// `--help` and the README's reference are all read from here.
public struct OptionSpec: Sendable {
    public var name: String
    public var short: Character?
    /// The value's placeholder (`STN`); nil for a flag.
    public var value: String?
    public var help: String

    public init(_ name: String, short: Character? = nil, value: String? = nil, _ help: String) {
        self.name = name
        self.short = short
        self.value = value
        self.help = help
    }
}

public struct CommandSpec: Sendable {
    public var provider: String
    public var name: String
    public var summary: String
    public var usage: String
    public var examples: [String]
    public var options: [OptionSpec]
    /// Extra paragraphs under the options (output fields, notes).
    public var notes: [String]
    public var geoJSON: Bool = false
    /// A positional argument's placeholder (`TRAIN`), if the command takes one.
    public var positional: String? = nil
}

public struct ProviderSpec: Sendable {
    public var name: String
    public var summary: String
    public var zone: String
    public var commands: [CommandSpec]
    /// The command run when none is named (`transit weather --city X`).
    public var defaultCommand: String? = nil
}

public enum Specs {
    public static let global: [OptionSpec] = [
        OptionSpec("format", value: "FMT", "table|tsv|csv|json|geojson (default: table on a terminal, else tsv)"),
        OptionSpec("header", "print a header row in tsv/csv (csv has one by default)"),
        OptionSpec("no-header", "no header row in tsv/csv"),
        OptionSpec("offline", "answer from recorded responses, never the network (also TRANSIT_OFFLINE=1)"),
        OptionSpec("fixtures", value: "DIR", "recorded responses for --offline (default $TRANSIT_FIXTURES, else ./Fixtures)"),
        OptionSpec("record", value: "DIR", "save every live response under DIR, replayable with --offline --fixtures DIR"),
        OptionSpec("no-cache", "neither read nor write the on-disk cache"),
        OptionSpec("timeout", value: "SECONDS", "per-request timeout (default 15)"),
        OptionSpec("verbose", short: "v", "one line per HTTP request on stderr"),
        OptionSpec("quiet", short: "q", "no progress indicator and no notices on stderr"),
        OptionSpec("help", short: "h", "show help for the level it follows"),
        OptionSpec("version", "print the version"),
    ]

    static let date = OptionSpec("date", value: "DATE", "service day: YYYY-MM-DD, today or tomorrow (default today, in Pacific time)")

    public static let bart = ProviderSpec(
        name: "bart", summary: "BART (San Francisco Bay Area Rapid Transit)", zone: "America/Los_Angeles",
        commands: [
            CommandSpec(provider: "bart", name: "trips", summary: "every train between two stations on a service day",
                        usage: "transit bart trips --from STN --to STN [--date D] [--after T] [--before T] [--limit N] [--transfers 0|1] [--min-transfer MIN]",
                        examples: ["transit bart trips --from 24TH --to MLBR --date 2026-11-23",
                                   "transit bart trips --from \"24th St Mission\" --to millbrae --after 17:00 --limit 5",
                                   "transit bart trips --from 24TH --to FRMT --transfers 1 --format json"],
                        options: [
                            OptionSpec("from", value: "STN", "origin: a code in any case (24th) or a name (\"24th St Mission\")"),
                            OptionSpec("to", value: "STN", "destination, as --from"),
                            date,
                            OptionSpec("after", value: "T", "only trips leaving at or after T (HH:MM or h:mm am|pm)"),
                            OptionSpec("before", value: "T", "only trips leaving at or before T; times before 03:00 are the end of the service day"),
                            OptionSpec("limit", value: "N", "keep the first N trips"),
                            OptionSpec("transfers", value: "0|1", "1 adds trips with one change of train (default 0)"),
                            OptionSpec("min-transfer", value: "MIN", "minutes needed to change trains (default 3)"),
                        ],
                        notes: ["Fields: origin, destination, departure, arrival, duration_minutes, transfers, legs (route, line, origin, destination, departure, arrival, head_station). Times are Pacific, with their offset in tsv and json."]),
            CommandSpec(provider: "bart", name: "trip", summary: "the trip leaving at a time, with legs and fares (BART's trip planner)",
                        usage: "transit bart trip --from STN --to STN --time T [--date D]",
                        examples: ["transit bart trip --from 24TH --to SFIA --time 8:15am",
                                   "transit bart trip --from embarcadero --to ashby --date tomorrow --time 17:30 --format json"],
                        options: [
                            OptionSpec("from", value: "STN", "origin station (code or name)"),
                            OptionSpec("to", value: "STN", "destination station (code or name)"),
                            OptionSpec("time", value: "T", "departure time, HH:MM or h:mm am|pm"),
                            OptionSpec("date", value: "DATE", "YYYY-MM-DD, today or tomorrow; BART plans 10 days back to 8 weeks ahead"),
                        ],
                        notes: ["Fields: origin, destination, departure, arrival, duration_minutes, transfers, fare, fares (name, class, amount), legs (order, route, origin, destination, departure, arrival, train_head_station, bikes)."]),
            CommandSpec(provider: "bart", name: "departures", summary: "live departures from a station",
                        usage: "transit bart departures --station STN [--platform N | --direction n|s]",
                        examples: ["transit bart departures --station 24TH", "transit bart departures --station powell --direction s --format json"],
                        options: [
                            OptionSpec("station", value: "STN", "station code or name"),
                            OptionSpec("platform", value: "N", "only platform N (1-4)"),
                            OptionSpec("direction", value: "n|s", "only northbound (n) or southbound (s) trains"),
                        ],
                        notes: ["Fields: station, destination, destination_code, minutes (0 = leaving), platform, direction, cars, line, hex_color, delay_seconds, cancelled, bikes. Never cached."]),
            CommandSpec(provider: "bart", name: "advisories", summary: "current service advisories",
                        usage: "transit bart advisories", examples: ["transit bart advisories"], options: [],
                        notes: ["Fields: id, station, type, description, posted, expires. Never cached."]),
            CommandSpec(provider: "bart", name: "stations", summary: "all stations",
                        usage: "transit bart stations", examples: ["transit bart stations", "transit --format json bart stations"],
                        options: [], notes: ["Fields: abbr, name, city, latitude, longitude. Cached for a day."]),
            CommandSpec(provider: "bart", name: "routes", summary: "all routes with their stations in travel order",
                        usage: "transit bart routes [--date D]", examples: ["transit bart routes", "transit bart routes --format json"],
                        options: [date], notes: ["Fields: number, name, abbr, color, hex_color, origin, destination, direction, stations. Cached for a day."]),
        ])

    /// The same commands for every BusTime agency.
    public static func busTime(_ agency: BusTimeAgency) -> ProviderSpec {
        let p = agency.id, rt = agency.exampleRoute, stop = agency.exampleStop
        let zoneName = agency.zone.identifier
        let watch = [OptionSpec("watch", value: "SECONDS", "refresh every SECONDS (10 or more): redrawn on a terminal, one block per fetch when piped"),
                     OptionSpec("count", value: "N", "with --watch: stop after N refreshes")]
        return ProviderSpec(
            name: p, summary: "\(agency.name) (BusTime; needs \(agency.keyVariable))", zone: zoneName,
            commands: [
                CommandSpec(provider: p, name: "predictions", summary: "when the next buses reach stops, with alerts",
                            usage: "transit \(p) predictions --stop STOP[,STOP…] [--route RT[,RT…]] [--top N] [--watch SECONDS [--count N]]",
                            examples: ["transit \(p) predictions --route \(rt) --stop \(stop)",
                                       "transit \(p) predictions --stop \(stop) --top 3 --format json"],
                            options: [
                                OptionSpec("stop", value: "STOP", "up to 10 stop ids, comma-separated; a stop name works with --route"),
                                OptionSpec("route", value: "RT", "only these routes (up to 10; ids or names)"),
                                OptionSpec("top", value: "N", "at most N predictions"),
                            ] + watch,
                            notes: ["Fields: route, direction, stop_id, stop_name, destination, vehicle, predicted, minutes (DUE = 0, counted against now), delayed, type (arrival|departure). Sorted by predicted time. JSON is {\"predictions\": [...], \"alerts\": [...]}; the table prints high-priority alerts above and the others below; tsv and csv carry predictions only. Never cached."]),
                CommandSpec(provider: p, name: "vehicles", summary: "where the buses of routes are now",
                            usage: "transit \(p) vehicles --route RT[,RT…] [--watch SECONDS [--count N]]",
                            examples: ["transit \(p) vehicles --route \(rt)", "transit --format geojson \(p) vehicles --route \(rt) > buses.geojson"],
                            options: [OptionSpec("route", value: "RT", "up to 10 routes, comma-separated (ids or names)")] + watch,
                            notes: ["Fields: vehicle, route, latitude, longitude, heading, pattern_id, pattern_distance (feet), destination, delayed, timestamp. Never cached. --format geojson gives a FeatureCollection of Points."],
                            geoJSON: true),
                CommandSpec(provider: p, name: "eta", summary: "when each bus reaches a stop, placed on its route, against BusTime's own prediction",
                            usage: "transit \(p) eta --stop STOP [--route RT[,RT…]] [--method along-route|straight-line] [--speed N[mph|kmh]] [--dwell SECONDS] [--calibrate] [--watch SECONDS [--count N]]",
                            examples: ["transit \(p) eta --stop \(stop)", "transit \(p) eta --stop \(stop) --method straight-line",
                                       "transit \(p) eta --stop \(stop) --speed 20kmh --dwell 30 --format json"],
                            options: [
                                OptionSpec("stop", value: "STOP", "the stop id (or a name with --route)"),
                                OptionSpec("route", value: "RT", "only buses of these routes (default: the routes BusTime predicts at the stop)"),
                                OptionSpec("method", value: "M", "along-route (default): distance along the bus's pattern; straight-line: the old tracker's great-circle method"),
                                OptionSpec("speed", value: "N", "average speed, mph (12mph, default 12) or km/h (20kmh)"),
                                OptionSpec("dwell", value: "SECONDS", "seconds a bus stands at each stop it passes (default 20)"),
                                OptionSpec("calibrate", "fit speed and dwell to BusTime's predictions at the stop first (needs 3 or more)"),
                            ] + watch,
                            notes: ["Fields: vehicle, route, destination, pattern_id, latitude, longitude, distance_miles, distance_km, stops_between, estimate_minutes, bustime_minutes (null where BusTime has none), bustime_predicted, difference_minutes, method. Nearest first."],
                            geoJSON: true),
                CommandSpec(provider: p, name: "stops", summary: "the stops of a route in one direction, in route order",
                            usage: "transit \(p) stops --route RT --direction DIR",
                            examples: ["transit \(p) stops --route \(rt) --direction \(agency.id == "cta" ? "Northbound" : "NORTHBOUND")"],
                            options: [OptionSpec("route", value: "RT", "route id or name"),
                                      OptionSpec("direction", value: "DIR", "direction id or name (see 'directions')")],
                            notes: ["Fields: seq, stop_id, stop_name, latitude, longitude. Ordered along the direction's longest pattern (getstops itself is alphabetical); a notice says which order you got. --format geojson adds the pattern as a LineString."],
                            geoJSON: true),
                CommandSpec(provider: p, name: "directions", summary: "the directions of a route",
                            usage: "transit \(p) directions --route RT", examples: ["transit \(p) directions --route \(rt)"],
                            options: [OptionSpec("route", value: "RT", "route id or name")], notes: ["Fields: id, name."]),
                CommandSpec(provider: p, name: "alerts", summary: "service bulletins for a route",
                            usage: "transit \(p) alerts --route RT [--stop STOP]", examples: ["transit \(p) alerts --route \(rt)"],
                            options: [OptionSpec("route", value: "RT", "route id or name"), OptionSpec("stop", value: "STOP", "only alerts for this stop or the whole route")],
                            notes: ["Fields: priority, title, detail, routes, stops. High priority first."]),
                CommandSpec(provider: p, name: "routes", summary: "all routes", usage: "transit \(p) routes",
                            examples: ["transit \(p) routes"], options: [], notes: ["Fields: route, name, color, designator. Cached for a day."]),
            ])
    }

    public static let busbud = ProviderSpec(
        name: "busbud", summary: "Busbud intercity bus search (needs TRANSIT_BUSBUD_TOKEN)", zone: "each departure's own",
        commands: [
            CommandSpec(provider: "busbud", name: "search", summary: "departures between two cities on a date, with prices",
                        usage: "transit busbud search [--from PLACE] [--to PLACE] --date D [--adults N] [--children N] [--seniors N] [--currency XXX] [--lang xx] [--max-wait S] [--poll-interval S]",
                        examples: ["transit busbud search --date 2026-12-19 --currency USD",
                                   "transit busbud search --from Toronto --to Montréal --date tomorrow --adults 2 --format json",
                                   "transit busbud search --from dr5reg --to f25dvk --date 2026-12-19 --max-wait 20"],
                        options: [
                            OptionSpec("from", value: "PLACE", "origin: a geohash or a city (New York, Montréal, Québec, Boston, Toronto, …); default New York"),
                            OptionSpec("to", value: "PLACE", "destination, as --from; default Montréal"),
                            OptionSpec("date", value: "DATE", "YYYY-MM-DD, today or tomorrow (not in the past)"),
                            OptionSpec("adults", value: "N", "adult passengers (default 1)"),
                            OptionSpec("children", value: "N", "child passengers (default 0)"),
                            OptionSpec("seniors", value: "N", "senior passengers (default 0)"),
                            OptionSpec("currency", value: "XXX", "ISO 4217 currency of prices (default USD)"),
                            OptionSpec("lang", value: "xx", "language of names, ISO 639-1 (default en)"),
                            OptionSpec("max-wait", value: "SECONDS", "give up polling after this long and print what arrived (default 60)"),
                            OptionSpec("poll-interval", value: "SECONDS", "seconds between polls (default: Busbud's metadata.interval, else 2)"),
                        ],
                        notes: ["Fields: id, departure, arrival (each in its own zone), duration_minutes, origin and destination ({id, name, city}), operator, class, available_seats, price ({total, currency}; total in minor units). Sorted by departure."]),
        ])

    public static let rail12306 = ProviderSpec(
        name: "rail12306", summary: "China Railway 12306: stations, train numbers, timetables", zone: "Asia/Shanghai",
        commands: [
            CommandSpec(provider: "rail12306", name: "schedule", summary: "a train's stops and times",
                        usage: "transit rail12306 schedule TRAIN [--date D]",
                        examples: ["transit rail12306 schedule G1", "transit rail12306 schedule G129 --date 2026-12-01 --format json"],
                        options: [OptionSpec("date", value: "DATE", "YYYY-MM-DD, today or tomorrow (default today in Beijing)")],
                        notes: ["Fields: sequence, station, telecode, arrival, departure (null where 12306 says ----), dwell_minutes, day (1 on the day the train leaves). Times +08:00."],
                        positional: "TRAIN"),
            CommandSpec(provider: "rail12306", name: "trains", summary: "train numbers that start with some text",
                        usage: "transit rail12306 trains --search TEXT [--date D]",
                        examples: ["transit rail12306 trains --search G1", "transit rail12306 trains --search D31 --date tomorrow"],
                        options: [OptionSpec("search", value: "TEXT", "the start of a train number (G, D1, G12…)"),
                                  OptionSpec("date", value: "DATE", "YYYY-MM-DD, today or tomorrow (default today in Beijing)")],
                        notes: ["Fields: train, train_no, from, to, stops."]),
            CommandSpec(provider: "rail12306", name: "stations", summary: "the station dictionary, or the stations matching a search",
                        usage: "transit rail12306 stations [--search TEXT]",
                        examples: ["transit rail12306 stations --search 北京", "transit rail12306 stations --search shanghai", "transit rail12306 stations --search VNP"],
                        options: [OptionSpec("search", value: "TEXT", "Chinese name (contains), full pinyin or initials (starts with), or telecode")],
                        notes: ["Fields: name, telecode, pinyin, initials, city (11-field dictionaries only). Cached for a week."]),
        ])

    public static let weather = ProviderSpec(
        name: "weather", summary: "current weather from OpenWeatherMap (needs TRANSIT_OWM_KEY)", zone: "the city's own",
        commands: [
            CommandSpec(provider: "weather", name: "current", summary: "the weather now in a city, at a place, or where a 12306 station is",
                        usage: "transit weather (--city NAME | --lat L --lon L | --station NAME) [--units metric|imperial]",
                        examples: ["transit weather --city Beijing", "transit weather --station 上海虹桥 --units imperial",
                                   "transit weather --lat 37.75 --lon -122.42 --format json"],
                        options: [OptionSpec("city", value: "NAME", "a city name (Beijing, London,GB)"),
                                  OptionSpec("lat", value: "L", "latitude, with --lon"), OptionSpec("lon", value: "L", "longitude, with --lat"),
                                  OptionSpec("station", value: "NAME", "a 12306 station: the weather of its city"),
                                  OptionSpec("units", value: "U", "metric (default) or imperial")],
                        notes: ["Fields: city, country, description, temperature, minimum, maximum, feels_like, temperature_unit, humidity, wind_speed, wind_unit, wind_direction, observed_at (the city's offset). Cached ten minutes."]),
        ],
        defaultCommand: "current")

    public static let providers: [ProviderSpec] = [bart] + BusTimeAgency.all.map(busTime) + [busbud, rail12306, weather]

    /// Options the parser needs to know the arity of, wherever they stand on the line.
    static let allOptions: [OptionSpec] = global + providers.flatMap { $0.commands.flatMap(\.options) }

    public static func provider(_ name: String) -> ProviderSpec? { providers.first { $0.name == name } }
}
