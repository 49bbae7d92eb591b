import Foundation
import TransitSupport

/// `transit rail12306 …`: its commands, options and defaults, and their parse.
public enum RailCommand: Sendable, Equatable {
    case stations(search: String?)
    case trains(keyword: String, date: LocalDate)
    case schedule(train: String, date: LocalDate)
}

enum RailCommandLine {
    static let date = OptionSpec("date", value: "DATE", "YYYY-MM-DD, today or tomorrow, in Beijing", default: "today")

    static let spec = ProviderSpec(
        name: "rail12306", displayName: "12306", summary: "China Railway 12306: stations, train numbers, timetables", zoneName: "Asia/Shanghai",
        commands: [
            CommandSpec(provider: "rail12306", name: "schedule", summary: "a train's stops and times",
                        examples: ["transit rail12306 schedule G1", "transit rail12306 schedule G129 --date 2026-12-01 --format json"],
                        options: [date],
                        notes: ["Fields: sequence, station, telecode, arrival, departure (null where 12306 says ----), dwell_minutes, day (1 on the day the train leaves). Times +08:00."],
                        positional: "TRAIN"),
            CommandSpec(provider: "rail12306", name: "trains", summary: "train numbers that start with some text",
                        examples: ["transit rail12306 trains --search G1", "transit rail12306 trains --search D31 --date tomorrow"],
                        options: [OptionSpec("search", value: "TEXT", "the start of a train number (G, D1, G12…)", required: true), date],
                        notes: ["Fields: train, train_no, from, to, stops."]),
            CommandSpec(provider: "rail12306", name: "stations", summary: "the station dictionary, or the stations matching a search",
                        examples: ["transit rail12306 stations --search 北京", "transit rail12306 stations --search shanghai", "transit rail12306 stations --search VNP"],
                        options: [OptionSpec("search", value: "TEXT", "Chinese name (contains), full pinyin or initials (starts with), or telecode")],
                        notes: ["Fields: name, telecode, pinyin, initials, city (11-field dictionaries only). Cached for a week."]),
        ],
        baseURLs: [("TRANSIT_RAIL12306_BASE_URL", Rail12306.defaultBaseURL), ("TRANSIT_RAIL12306_SEARCH_BASE_URL", Rail12306.defaultSearchBaseURL)])

    static func parse(_ args: Arguments) throws(TransitError) -> RailCommand {
        let day = try args.date(zone: Rail12306.zone) ?? LocalDate(args.now, in: Rail12306.zone)
        switch args.spec.name {
        case "stations": return .stations(search: args.string("search"))
        case "trains": return .trains(keyword: try args.required("search").uppercased(), date: day)
        case "schedule":
            let typed = args.positional ?? ""
            let train = typed.trimmingCharacters(in: .whitespaces).uppercased()
            guard !train.isEmpty, train.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                throw .usage("TRAIN is a train number like G1 or K1511, not '\(typed)'")
            }
            return .schedule(train: train, date: day)
        default: throw args.unknownCommand()
        }
    }
}
