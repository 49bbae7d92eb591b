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
        }
    }
}
