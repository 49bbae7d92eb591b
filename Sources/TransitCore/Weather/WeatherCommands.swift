import Foundation

/// `transit weather …`.
struct WeatherCommands {
    let context: Context

    func run(_ command: Command) async throws(TransitError) -> Output {
        let settings = context.settings
        let key = settings.key("owm")
        if key == nil && !settings.offline {
            throw .missingKey(variable: "TRANSIT_OWM_KEY", provider: "OpenWeatherMap",
                              whereToGet: "get a free key at openweathermap.org (sign up, then API keys)")
        }
        let client = WeatherClient(http: context.http, baseURL: settings.baseURL("owm", default: OpenWeatherMap.defaultBaseURL), key: key ?? "")
        let place: WeatherClient.Place, units: String
        switch command {
        case .weather(let p, let u): (place, units) = (p, u)
        case .weatherAtStation(let name, let u):
            context.spinner.start("fetching 12306's station list")
            let rail = Rail12306Client(http: context.http, baseURL: settings.baseURL("rail12306", default: Rail12306.defaultBaseURL))
            place = .city(try Self.cityPinyin(for: name, in: try await rail.stations()))
            units = u
        default: throw .usage("not a weather command")
        }
        context.spinner.start("fetching the weather")
        let w = try await client.current(place, units: units)
        let record = Record([
            ("city", .string(w.city)), ("country", .optional(w.country)), ("description", .string(w.description)),
            ("temperature", .optional(w.temperature)), ("minimum", .optional(w.minimum)), ("maximum", .optional(w.maximum)),
            ("feels_like", .optional(w.feelsLike)), ("temperature_unit", .string(w.temperatureUnit)),
            ("humidity", .optional(w.humidity)), ("wind_speed", .optional(w.windSpeed)), ("wind_unit", .optional(w.windUnit)),
            ("wind_direction", .optional(w.windDirection)), ("observed_at", w.observed.map { .time($0, w.zone) } ?? .null),
        ])
        let symbol = ["kelvin": " K", "celsius": "°C", "fahrenheit": "°F"][w.temperatureUnit] ?? " " + w.temperatureUnit
        func degrees(_ key: String) -> Column {
            Column(key, nil) { r in
                guard case .double(let d)? = r[key] else { return .string("") }
                return .string(String(format: "%.1f", d) + symbol)
            }
        }
        let wind = Column("wind", "WIND") { r in
            guard case .double(let speed)? = r["wind_speed"] else { return .string("") }
            let unit = w.windUnit ?? (units == "imperial" ? "mph" : "m/s")
            return .string(String(format: "%.1f ", speed) + unit + (w.windDirection.map { " " + $0 } ?? ""))
        }
        let humidity = Column("humidity") { r in
            guard case .double(let h)? = r["humidity"] else { return .string("") }
            return .string(String(format: "%.0f%%", h))
        }
        return Output(records: [record],
                      table: [Column("city"), Column("description"), degrees("temperature"), degrees("minimum"), degrees("maximum"),
                              degrees("feels_like"), humidity, wind, Column("observed_at", "OBSERVED")])
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
