import Foundation

/// One BusTime client for every agency: asks for JSON (`format=json`) from the v3 API.
/// Routes, directions, stops and patterns are cached for a day; predictions, vehicles and
/// bulletins never.
public struct BusTimeClient: Sendable {
    public static let maxIDs = 10
    static let day: TimeInterval = 24 * 3600

    public let agency: BusTimeAgency
    let http: HTTPClient
    let baseURL: String
    let key: String

    public init(http: HTTPClient, agency: BusTimeAgency, baseURL: String? = nil, key: String) {
        self.http = http
        self.agency = agency
        self.baseURL = baseURL ?? agency.defaultBaseURL
        self.key = key
    }

    func request(_ function: String, _ items: [(String, String)], ttl: TimeInterval?) -> HTTPRequest {
        let query = [HTTPRequest.QueryItem("key", key), HTTPRequest.QueryItem("format", "json")]
            + items.map { HTTPRequest.QueryItem($0.0, $0.1) }
        return HTTPRequest(provider: agency.id, baseURL: baseURL, path: function, query: query,
                           secretNames: ["key"], cacheTTL: ttl, expects: "JSON")
    }

    static func checkCount(_ ids: [String], _ what: String) throws(TransitError) {
        if ids.count > maxIDs {
            throw .usage("BusTime takes at most \(maxIDs) \(what) per request; \(ids.count) given")
        }
    }

    public func routes() async throws(TransitError) -> BusTimeResult<BusRoute> {
        let agency = self.agency
        return try await http.get(request("getroutes", [], ttl: Self.day)) { r throws(TransitError) in try BusTimeParser.routes(r.body, agency: agency) }
    }

    public func directions(route: String) async throws(TransitError) -> BusTimeResult<BusDirection> {
        let agency = self.agency
        return try await http.get(request("getdirections", [("rt", route)], ttl: Self.day)) { r throws(TransitError) in
            try BusTimeParser.directions(r.body, agency: agency)
        }
    }

    public func stops(route: String, direction: String) async throws(TransitError) -> BusTimeResult<BusStop> {
        let agency = self.agency
        return try await http.get(request("getstops", [("rt", route), ("dir", direction)], ttl: Self.day)) { r throws(TransitError) in
            try BusTimeParser.stops(r.body, agency: agency)
        }
    }

    public func patterns(route: String) async throws(TransitError) -> BusTimeResult<BusPattern> {
        let agency = self.agency
        return try await http.get(request("getpatterns", [("rt", route)], ttl: Self.day)) { r throws(TransitError) in
            try BusTimeParser.patterns(r.body, agency: agency)
        }
    }

    /// Predictions for up to 10 stops in one request, optionally only for some routes.
    public func predictions(stops: [String], routes: [String] = [], top: Int? = nil) async throws(TransitError) -> BusTimeResult<Prediction> {
        try Self.checkCount(stops, "stop ids")
        try Self.checkCount(routes, "routes")
        var items = [("stpid", stops.joined(separator: ","))]
        if !routes.isEmpty { items.append(("rt", routes.joined(separator: ","))) }
        if let top { items.append(("top", String(top))) }
        let agency = self.agency
        return try await http.get(request("getpredictions", items, ttl: nil)) { r throws(TransitError) in
            try BusTimeParser.predictions(r.body, agency: agency)
        }
    }

    /// Predictions for up to 10 vehicles, at every stop ahead of them.
    public func predictions(vehicles: [String]) async throws(TransitError) -> BusTimeResult<Prediction> {
        try Self.checkCount(vehicles, "vehicle ids")
        let agency = self.agency
        return try await http.get(request("getpredictions", [("vid", vehicles.joined(separator: ","))], ttl: nil)) { r throws(TransitError) in
            try BusTimeParser.predictions(r.body, agency: agency)
        }
    }

    /// Bulletins for routes (`rt`) or stops (`stpid`): BusTime takes one or the other.
    public func bulletins(routes: [String] = [], stops: [String] = []) async throws(TransitError) -> BusTimeResult<Bulletin> {
        try Self.checkCount(stops, "stop ids")
        try Self.checkCount(routes, "routes")
        let items = routes.isEmpty ? [("stpid", stops.joined(separator: ","))] : [("rt", routes.joined(separator: ","))]
        let agency = self.agency
        return try await http.get(request("getservicebulletins", items, ttl: nil)) { r throws(TransitError) in
            try BusTimeParser.bulletins(r.body, agency: agency)
        }
    }

    public func vehicles(routes: [String]) async throws(TransitError) -> BusTimeResult<Vehicle> {
        try Self.checkCount(routes, "routes")
        let agency = self.agency
        return try await http.get(request("getvehicles", [("rt", routes.joined(separator: ","))], ttl: nil)) { r throws(TransitError) in
            try BusTimeParser.vehicles(r.body, agency: agency)
        }
    }
}
