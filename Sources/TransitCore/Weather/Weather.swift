import Foundation
import TransitSupport

/// OpenWeatherMap current weather, read in its XML form (`mode=xml`) with XMLParser.
public enum OpenWeatherMap {
    public static let defaultBaseURL = "https://api.openweathermap.org/data/2.5"
}

public struct CurrentWeather: Sendable, Equatable {
    public var city: String
    public var country: String?
    public var latitude: Double?
    public var longitude: Double?
    public var description: String
    public var temperature: Double?
    public var minimum: Double?
    public var maximum: Double?
    public var feelsLike: Double?
    /// `kelvin`, `celsius` or `fahrenheit`, as the document says.
    public var temperatureUnit: String
    public var humidity: Double?
    public var windSpeed: Double?
    public var windUnit: String?
    public var windDirection: String?
    public var observed: Date?
    /// The city's zone (its UTC offset); UTC when the document has none.
    public var zone: TimeZone
}

public enum WeatherParser {
    /// A `<current>` document. OpenWeatherMap's times are UTC written without `Z`.
    public static func current(_ data: Data) throws(TransitError) -> CurrentWeather {
        if let error = errorMessage(data) { throw .api(provider: "OpenWeatherMap", message: error, details: nil) }
        let root = try XMLTree.parse(data, what: "OpenWeatherMap's answer")
        guard root.name == "current", let city = root.child("city") else {
            throw .parse(what: "OpenWeatherMap's answer", reason: "expected <current><city>")
        }
        let temperature = root.child("temperature")
        let wind = root.child("wind")
        let offset = city.value("timezone").flatMap(Int.init)
        let zone = offset.flatMap { TimeZone(secondsFromGMT: $0) } ?? .utc
        let observed = root.child("lastupdate")?.attribute("value").flatMap { text -> Date? in
            ClockTime.parseISO8601(text.hasSuffix("Z") ? text : text + "Z")
        }
        return CurrentWeather(
            city: city.attribute("name") ?? "", country: city.value("country"),
            latitude: city.child("coord")?.attribute("lat").flatMap(Double.init),
            longitude: city.child("coord")?.attribute("lon").flatMap(Double.init),
            description: root.child("weather")?.attribute("value") ?? root.child("clouds")?.attribute("name") ?? "",
            temperature: temperature?.attribute("value").flatMap(Double.init),
            minimum: temperature?.attribute("min").flatMap(Double.init),
            maximum: temperature?.attribute("max").flatMap(Double.init),
            feelsLike: root.child("feels_like")?.attribute("value").flatMap(Double.init),
            temperatureUnit: temperature?.attribute("unit") ?? "kelvin",
            humidity: root.child("humidity")?.attribute("value").flatMap(Double.init),
            windSpeed: wind?.child("speed")?.attribute("value").flatMap(Double.init),
            windUnit: wind?.child("speed")?.attribute("unit"),
            windDirection: wind?.child("direction")?.attribute("code"),
            observed: observed, zone: zone)
    }

    /// The message of an error body, JSON (`{"cod":"404","message":"city not found"}`, `cod` a
    /// number or a string) or XML (`<ClientError><message>…`); nil for anything else.
    static func errorMessage(_ data: Data) -> String? {
        let first = XMLTree.firstContentByte(data)
        if first == UInt8(ascii: "{") {
            struct RawError: Decodable { var cod: Number?, message: Text? }
            guard let root = try? JSONDecoder().decode(RawError.self, from: data), let cod = root.cod?.int, cod != 200 else { return nil }
            return root.message?.value ?? "error \(cod)"
        }
        if first == UInt8(ascii: "<"), let root = try? XMLTree.parse(data, what: ""), root.name == "ClientError" {
            return root.value("message") ?? "error \(root.value("cod") ?? "")"
        }
        return nil
    }
}

public enum WeatherUnits: String, Sendable, CaseIterable {
    case metric, imperial
}

public struct WeatherClient: Sendable {
    public enum Place: Sendable, Equatable {
        case city(String)
        case coordinates(Double, Double)
    }
    let http: HTTPClient
    let baseURL: String
    let key: String

    public init(http: HTTPClient, baseURL: String = OpenWeatherMap.defaultBaseURL, key: String) {
        self.http = http
        self.baseURL = baseURL
        self.key = key
    }

    /// Cached ten minutes (OpenWeatherMap updates about as often).
    public func current(_ place: Place, units: WeatherUnits) async throws(TransitError) -> CurrentWeather {
        var query: [HTTPRequest.QueryItem]
        switch place {
        case .city(let name): query = [.init("q", name)]
        case .coordinates(let lat, let lon): query = [.init("lat", String(lat)), .init("lon", String(lon))]
        }
        query += [.init("mode", "xml"), .init("units", units.rawValue), .init("appid", key)]
        let req = HTTPRequest(provider: "weather", baseURL: baseURL, path: "weather", query: query,
                              secretNames: ["appid"], cacheTTL: 600, expects: .xml, label: "the weather")
        return try await http.get(req, interpretError: { response in
            WeatherParser.errorMessage(response.body).map { .api(provider: "OpenWeatherMap", message: $0, details: "HTTP \(response.status)") }
        }) { r throws(TransitError) in try WeatherParser.current(r.body) }
    }
}
