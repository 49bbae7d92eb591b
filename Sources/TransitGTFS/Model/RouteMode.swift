import Foundation

/// What kind of vehicle a route runs, in the words `gtfs routes` prints and `--modes` takes:
/// route_type's basic values, and the extended ones (Google's Hierarchical Vehicle Types) by
/// their groups. A type of no group (air, taxi, …) has no mode: `--modes` never rides it.
public enum RouteMode: String, CaseIterable, Sendable {
    case tram, subway, rail, bus, ferry
    case cableTram = "cable tram"
    case aerialLift = "aerial lift"
    case funicular, trolleybus, monorail

    /// The mode of a route_type: 0–7, 11 and 12 as GTFS defines them; 100–199 rail, 200–299 bus
    /// (coaches), 400–499 subway (urban rail), 700–799 bus, 800–899 trolleybus, 900–999 tram,
    /// 1000–1299 ferry (water transport), 1300–1399 aerial lift, 1400–1499 funicular.
    public init?(routeType type: Int) {
        switch type {
        case 0, 900...999: self = .tram
        case 1, 400...499: self = .subway
        case 2, 100...199: self = .rail
        case 3, 200...299, 700...799: self = .bus
        case 4, 1000...1299: self = .ferry
        case 5: self = .cableTram
        case 6, 1300...1399: self = .aerialLift
        case 7, 1400...1499: self = .funicular
        case 11, 800...899: self = .trolleybus
        case 12: self = .monorail
        default: return nil
        }
    }

    /// A word as a user types it: a mode's own, `cable` (a cable tram) or `gondola` (an aerial lift).
    public init?(word: String) {
        let word = word.trimmedSpace(newlines: false).lowercased()
        switch word {
        case "cable", "cable-tram", "cabletram": self = .cableTram
        case "gondola", "aerial-lift", "aeriallift": self = .aerialLift
        default:
            guard let mode = RouteMode(rawValue: word) else { return nil }
            self = mode
        }
    }

    /// A comma-separated list of modes, and the first word that is none (then the list is empty).
    public static func list(_ text: String) -> (modes: Set<RouteMode>, unknown: String?) {
        var modes = Set<RouteMode>()
        for word in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let mode = RouteMode(word: String(word)) else { return ([], String(word)) }
            modes.insert(mode)
        }
        return (modes, nil)
    }

    /// The words, as help and errors list them. Appended, not `joined`: made at every start
    /// (the options' help), where the generic `joined` looked up a witness at run time, 0.27 M
    /// instructions (issue 67).
    public static let vocabulary = allCases.reduce(into: "") { words, mode in words += (words.isEmpty ? "" : ", ") + mode.rawValue }
}
