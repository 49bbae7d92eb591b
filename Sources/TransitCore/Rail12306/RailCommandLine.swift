import Foundation
import TransitSupport

/// `transit rail12306 …`: its spec, options and defaults, and its commands, one type each.
enum RailCommandLine {
    static let date = OptionSpec("date", value: "DATE", "YYYY-MM-DD, today or tomorrow, in Beijing", default: "today")

    static let commands: [any SpecifiedCommand.Type] = [RailScheduleCommand.self, RailTrainsCommand.self, RailStationsCommand.self]

    static let spec = ProviderSpec(
        name: "rail12306", displayName: "12306", summary: "China Railway 12306: stations, train numbers, timetables", zoneName: "Asia/Shanghai",
        commands: commands.map { $0.spec },
        baseURLs: [("TRANSIT_RAIL12306_BASE_URL", Rail12306.defaultBaseURL), ("TRANSIT_RAIL12306_SEARCH_BASE_URL", Rail12306.defaultSearchBaseURL)])


    /// --date, else today in Beijing.
    static func day(_ args: Arguments) throws(TransitError) -> LocalDate {
        try args.date(zone: Rail12306.zone) ?? LocalDate(args.now, in: Rail12306.zone)
    }
}

/// `transit rail12306 schedule TRAIN`: a train's stops and times.
struct RailScheduleCommand: SpecifiedCommand {
    static let spec = CommandSpec(provider: "rail12306", name: "schedule", summary: "a train's stops and times",
                examples: ["transit rail12306 schedule G1", "transit rail12306 schedule G129 --date 2026-12-01 --format json"],
                options: [RailCommandLine.date],
                notes: ["Fields: sequence, station, telecode, arrival, departure (null where 12306 says ----), dwell_minutes, day (1 on the day the train leaves). Times +08:00."],
                positional: "TRAIN")

    var train: String
    var date: LocalDate

    init(_ args: Arguments) throws(TransitError) {
        let typed = args.positional ?? ""
        train = typed.trimmedSpace(newlines: false).uppercased()
        guard !train.isEmpty, train.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw .usage("TRAIN is a train number like G1 or K1511, not '\(typed)'")
        }
        date = try RailCommandLine.day(args)
    }

    var zone: TimeZone { Rail12306.zone }
    func run(_ context: Context) async throws(TransitError) -> Output { try await RailCommands(context).schedule(train, date) }
}

/// `transit rail12306 trains`: train numbers that start with some text.
struct RailTrainsCommand: SpecifiedCommand {
    static let spec = CommandSpec(provider: "rail12306", name: "trains", summary: "train numbers that start with some text",
                examples: ["transit rail12306 trains --search G1", "transit rail12306 trains --search D31 --date tomorrow"],
                options: [OptionSpec("search", value: "TEXT", "the start of a train number (G, D1, G12…)", required: true), RailCommandLine.date],
                notes: ["Fields: train, train_no, from, to, stops."])

    var keyword: String
    var date: LocalDate

    init(_ args: Arguments) throws(TransitError) {
        date = try RailCommandLine.day(args)
        keyword = try args.required("search").uppercased()
    }

    var zone: TimeZone { Rail12306.zone }
    func run(_ context: Context) async throws(TransitError) -> Output { try await RailCommands(context).trains(keyword, date) }
}

/// `transit rail12306 stations`: the station dictionary, or the stations matching a search.
struct RailStationsCommand: SpecifiedCommand {
    static let spec = CommandSpec(provider: "rail12306", name: "stations", summary: "the station dictionary, or the stations matching a search",
                examples: ["transit rail12306 stations --search 北京", "transit rail12306 stations --search shanghai", "transit rail12306 stations --search VNP"],
                options: [OptionSpec("search", value: "TEXT", "Chinese name (contains), full pinyin or initials (starts with), or telecode")],
                notes: ["Fields: name, telecode, pinyin, initials, city (11-field dictionaries only). Cached for a week."])

    var search: String?

    init(_ args: Arguments) throws(TransitError) {
        search = try args.string("search")
    }

    var zone: TimeZone { Rail12306.zone }
    func run(_ context: Context) async throws(TransitError) -> Output { try await RailCommands(context).stations(search) }
}
