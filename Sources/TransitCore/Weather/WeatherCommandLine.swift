import Foundation
import TransitSupport

/// `transit weather …`: its spec and its command.
enum WeatherCommandLine {
    static let commands: [any SpecifiedCommand.Type] = [WeatherCurrentCommand.self]

    static let spec = ProviderSpec(
        name: "weather", displayName: "OpenWeatherMap", summary: "current weather from OpenWeatherMap (needs TRANSIT_OWM_KEY)",
        zoneName: "the city's own",
        commands: commands.map { $0.spec },
        defaultCommand: "current",
        baseURLs: [("TRANSIT_OWM_BASE_URL", OpenWeatherMap.defaultBaseURL), ("TRANSIT_RAIL12306_BASE_URL", Rail12306.defaultBaseURL)],
        key: KeySpec(variable: "TRANSIT_OWM_KEY", whereToGet: "get a free key at openweathermap.org (sign up, then API keys)"))
}

/// `transit weather current`: the weather now in a city, at a place, or where a 12306 station is.
struct WeatherCurrentCommand: SpecifiedCommand {
    static let spec = CommandSpec(provider: "weather", name: "current", summary: "the weather now in a city, at a place, or where a 12306 station is",
                examples: ["transit weather --city Beijing", "transit weather --station 上海虹桥 --units imperial",
                           "transit weather --lat 37.75 --lon -122.42 --format json"],
                options: [OptionSpec("city", value: "NAME", "a city name (Beijing, London,GB)"),
                          OptionSpec("lat", value: "L", "latitude, with --lon"), OptionSpec("lon", value: "L", "longitude, with --lat"),
                          OptionSpec("station", value: "NAME", "a 12306 station: the weather of its city"),
                          OptionSpec("units", value: "U", "metric or imperial", default: "metric", choices: WeatherUnits.allCases.map(\.rawValue))],
                notes: ["Give one of --city, --lat with --lon, or --station.",
                        "Fields: city, country, description, temperature, minimum, maximum, feels_like, temperature_unit, humidity, wind_speed, wind_unit, wind_direction, observed_at (the city's offset). Cached ten minutes."])

    /// Where: a city or a point, or a 12306 station (the weather of its city).
    enum Where: Sendable, Equatable {
        case place(WeatherClient.Place)
        case station(String)
    }

    var place: Where
    var units: WeatherUnits

    init(_ args: Arguments) throws(TransitError) {
        guard let units = try args.choice("units", WeatherUnits.self) else { throw args.missing("units") }
        self.units = units
        var given: [String] = []
        for name in ["city", "lat", "station"] where try args.given(name) { given.append(name) }
        guard given.count == 1 else { throw .usage("give one of --city, --lat/--lon or --station", hint: "usage: \(args.spec.usage)") }
        if let city = try args.string("city") {
            place = .place(.city(city))
        } else if let station = try args.string("station") {
            place = .station(station)
        } else {
            guard let lat = try args.double("lat", in: -90...90, what: "degrees"), let lon = try args.double("lon", in: -180...180, what: "degrees") else {
                throw .usage("--lat and --lon take decimal degrees, both together")
            }
            place = .place(.coordinates(lat, lon))
        }
    }

    func run(_ context: Context) async throws(TransitError) -> Output { try await WeatherCommands(context).current(place, units: units) }
}
