/// Dispatches a typed command to its provider.
enum Commands {
    static func run(_ command: Command, _ context: Context) async throws(TransitError) -> Output {
        switch command {
        case .bartStations, .bartRoutes, .bartTrips, .bartTrip, .bartDepartures, .bartAdvisories:
            return try await BARTCommands(context).run(command)
        }
    }
}
