import Foundation
import TransitSupport

/// `transit weather …`.
struct WeatherCommands {
    let context: Context

    init(_ context: Context) {
        self.context = context
    }

    func current(_ given: WeatherCurrentCommand.Where, units: WeatherUnits) async throws(TransitError) -> Output {
        let settings = context.settings
        let client = WeatherClient(http: context.http, baseURL: settings.baseURL("owm", default: OpenWeatherMap.defaultBaseURL), key: try settings.key())
        let place: WeatherClient.Place
        switch given {
        case .place(let p): place = p
        case .station(let name):
            let rail = Rail12306Client(http: context.http, baseURL: settings.baseURL("rail12306", default: Rail12306.defaultBaseURL))
            place = .city(try Self.cityPinyin(for: name, in: try await rail.stations()))
        }
        let weather = try await client.current(place, units: units)
        let data: [Column<CurrentWeather>] = [
            Column("city") { .string($0.city) }, Column("country") { .optional($0.country) }, Column("description") { .string($0.description) },
            Column("temperature") { .optional($0.temperature) }, Column("minimum") { .optional($0.minimum) },
            Column("maximum") { .optional($0.maximum) }, Column("feels_like") { .optional($0.feelsLike) },
            Column("temperature_unit") { .string($0.temperatureUnit) }, Column("humidity") { .optional($0.humidity) },
            Column("wind_speed") { .optional($0.windSpeed) }, Column("wind_unit") { .optional($0.windUnit) },
            Column("wind_direction") { .optional($0.windDirection) },
            Column("observed_at", "OBSERVED") { w in w.observed.map { .time($0, w.zone) } ?? .null },
        ]
        let symbol = ["kelvin": " K", "celsius": "°C", "fahrenheit": "°F"][weather.temperatureUnit] ?? " " + weather.temperatureUnit
        func degrees(_ column: Column<CurrentWeather>) -> Column<CurrentWeather> {
            Column(column.key, column.header) { w in
                guard case .double(let d) = column.value(w) else { return .string("") }
                return .string(String(format: "%.1f", d) + symbol)
            }
        }
        let humidity = Column<CurrentWeather>("humidity") { w in w.humidity.map { .string(String(format: "%.0f%%", $0)) } ?? .string("") }
        let wind = Column<CurrentWeather>("wind", "WIND") { w in
            guard let speed = w.windSpeed else { return .string("") }
            let unit = w.windUnit ?? (units == .imperial ? "mph" : "m/s")
            return .string(String(format: "%.1f ", speed) + unit + (w.windDirection.map { " " + $0 } ?? ""))
        }
        return Output([weather], data: data,
                      table: [data[0], data[2], degrees(data[3]), degrees(data[4]), degrees(data[5]), degrees(data[6]), humidity, wind, data[12]])
    }

    /// The pinyin OpenWeatherMap understands for a 12306 station's city: the station named
    /// after its city (上海 for 上海虹桥) when there is one, else the station's own pinyin.
    static func cityPinyin(for query: String, in stations: [RailStation]) throws(TransitError) -> String {
        let matches = Rail12306Parser.search(stations, query)
        guard let station = matches.first else {
            let matcher = NameMatcher(kind: "12306 station", candidates: stations.map { .init(code: $0.telecode, names: [$0.name, $0.pinyin], value: $0) })
            _ = try matcher.match(query)
            throw .notFound(kind: "12306 station", query: query, suggestions: [])
        }
        if let city = station.city, let home = stations.first(where: { $0.name == city }) { return home.pinyin }
        // 6-field lists have no city: a station whose name starts the station's (北京 for 北京南).
        if let home = stations.filter({ station.name.hasPrefix($0.name) && $0.name != station.name }).max(by: { $0.name.count < $1.name.count }) {
            return home.pinyin
        }
        return station.pinyin
    }
}
