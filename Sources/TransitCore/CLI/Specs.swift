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
}

public struct ProviderSpec: Sendable {
    public var name: String
    public var summary: String
    public var zone: String
    public var commands: [CommandSpec]
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

    public static let providers: [ProviderSpec] = [bart]

    /// Options the parser needs to know the arity of, wherever they stand on the line.
    static let allOptions: [OptionSpec] = global + providers.flatMap { $0.commands.flatMap(\.options) }

    public static func provider(_ name: String) -> ProviderSpec? { providers.first { $0.name == name } }
}
