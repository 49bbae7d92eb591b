import Foundation
import TransitSupport

public enum Busbud {
    public static let defaultBaseURL = "https://napi.busbud.com"
    public static let accept = "application/vnd.busbud+json; version=2; profile=https://schema.busbud.com/v2/"
    /// The geohash alphabet (base 32 without a, i, l, o).
    static let geohashAlphabet = Set("0123456789bcdefghjkmnpqrstuvwxyz")

    /// Busbud's own city geohashes (as in its URLs), with each city's zone.
    public static let cities: [(names: [String], geohash: String, zone: String)] = [
        (["New York", "NYC", "New York City"], "dr5reg", "America/New_York"),
        (["Montréal", "Montreal"], "f25dvk", "America/Toronto"),
        (["Québec", "Quebec", "Quebec City"], "f2m673", "America/Toronto"),
        (["Boston"], "drt2yz", "America/New_York"),
        (["Toronto"], "dpz88g", "America/Toronto"),
        (["Ottawa"], "f244m6", "America/Toronto"),
        (["Kingston"], "drceee", "America/Toronto"),
        (["Hamilton"], "dpxnnc", "America/Toronto"),
        (["Kitchener"], "dpwxpc", "America/Toronto"),
        (["Winnipeg"], "cbfgv3", "America/Winnipeg"),
        (["Calgary"], "c3nf7v", "America/Edmonton"),
        (["Edmonton"], "c3x29u", "America/Edmonton"),
        (["Vancouver"], "c2b2nm", "America/Vancouver"),
        (["London"], "gcpvj0", "Europe/London"),
        (["Manchester"], "gcw2jp", "Europe/London"),
    ]

    /// A place: a known city name (any case, accents optional) or a geohash.
    public static func place(_ text: String) throws(TransitError) -> (geohash: String, zone: TimeZone?) {
        let wanted = NameMatcher<Int>.normalize(text)
        if let city = cities.first(where: { $0.names.contains { NameMatcher<Int>.normalize($0) == wanted } }) {
            return (city.geohash, TimeZone(identifier: city.zone))
        }
        let hash = text.trimmedSpace(newlines: false).lowercased()
        if (1...12).contains(hash.count), hash.allSatisfy(geohashAlphabet.contains) {
            return (hash, cities.first { $0.geohash == hash }.flatMap { TimeZone(identifier: $0.zone) })
        }
        throw .usage("unknown place '\(text)': give a geohash or one of \(cities.map { $0.names[0] }.joined(separator: ", "))")
    }
}

public struct BusbudQuery: Sendable, Equatable {
    public var origin: String
    public var destination: String
    public var date: LocalDate
    public var adults: Int
    public var children: Int
    public var seniors: Int
    /// ISO 4217, upper case.
    public var currency: String
    /// ISO 639-1, lower case.
    public var lang: String

    public init(origin: String, destination: String, date: LocalDate, adults: Int, children: Int, seniors: Int,
                currency: String, lang: String) {
        self.origin = origin
        self.destination = destination
        self.date = date
        self.adults = adults
        self.children = children
        self.seniors = seniors
        self.currency = currency
        self.lang = lang
    }
}

public struct BusbudCity: Sendable, Equatable {
    public var id: String
    public var name: String
}

public struct BusbudLocation: Sendable, Equatable {
    public var id: Int
    public var cityID: String
    public var name: String
}

public struct BusbudOperator: Sendable, Equatable {
    public var id: String
    public var name: String
}

public struct BusbudDeparture: Sendable, Equatable {
    public var id: String
    public var operatorID: String
    public var originLocationID: Int
    public var destinationLocationID: Int
    public var departure: Date
    public var departureZone: TimeZone
    public var arrival: Date
    public var arrivalZone: TimeZone
    public var durationMinutes: Int?
    /// Minor units of `currency`.
    public var priceTotal: Int?
    public var currency: String?
    public var availableSeats: Int?
    public var travelClass: String?
}

/// One answer of the search or the poll endpoint.
public struct BusbudResponse: Sendable {
    public var complete: Bool
    public var isValidRoute: Bool?
    /// `metadata.interval`, the server's suggested poll interval.
    public var intervalMilliseconds: Int?
    public var cities: [BusbudCity]
    public var locations: [BusbudLocation]
    public var operators: [BusbudOperator]
    public var departures: [BusbudDeparture]
    /// Departures in the answer that could not be read.
    public var skipped = Skipped()
}
