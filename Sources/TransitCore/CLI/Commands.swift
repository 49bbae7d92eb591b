import Foundation

/// Dispatches a typed command to its provider.
enum Commands {
    static func run(_ command: Command, _ context: Context) async throws(TransitError) -> Output {
        switch command {
        case .bartStations, .bartRoutes, .bartTrips, .bartTrip, .bartDepartures, .bartAdvisories:
            return try await BARTCommands(context).run(command)
        case .busTime(let id, let command):
            guard let agency = BusTimeAgency.all.first(where: { $0.id == id }) else { throw .usage("unknown provider '\(id)'") }
            return try await BusTimeCommands(context, agency: agency).run(command)
        case .busbudSearch(let options):
            return try await BusbudCommands(context: context).search(options)
        case .railStations, .railTrains, .railSchedule:
            return try await RailCommands(context: context).run(command)
        case .weather, .weatherAtStation:
            return try await WeatherCommands(context: context).run(command)
        }
    }
}

extension Commands {
    /// The agency zone a command's times are read in (for `--watch` headers).
    static func zone(of command: Command) -> TimeZone {
        switch command {
        case .busTime(let id, _): return BusTimeAgency.all.first { $0.id == id }?.zone ?? BART.zone
        case .busbudSearch, .weather, .weatherAtStation: return TimeZone(identifier: "UTC") ?? BART.zone
        case .railStations, .railTrains, .railSchedule: return Rail12306.zone
        default: return BART.zone
        }
    }
}
