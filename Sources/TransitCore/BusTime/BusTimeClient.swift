import Foundation
import TransitSupport

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

    func request(_ function: String, _ items: [(String, String)], ttl: TimeInterval?, label: String) -> HTTPRequest {
        let query = [HTTPRequest.QueryItem("key", key), HTTPRequest.QueryItem("format", "json")]
            + items.map { HTTPRequest.QueryItem($0.0, $0.1) }
        return HTTPRequest(provider: agency.id, baseURL: baseURL, path: function, query: query,
                           secretNames: ["key"], cacheTTL: ttl, expects: .json, label: "\(agency.name) " + label)
    }

    /// Up to 10 ids as BusTime's comma list; more is a usage error, raised before sending.
    static func list(_ ids: [String], _ what: String) throws(TransitError) -> String {
        if ids.count > maxIDs {
            throw .usage("BusTime takes at most \(maxIDs) \(what) per request; \(ids.count) given")
        }
        return ids.joined(separator: ",")
    }

    /// One BusTime call, read by `parse` (JSON or XML, the agency's zone for times).
    func call<T>(_ function: String, _ items: [(String, String)], ttl: TimeInterval?,
                 _ parse: @escaping @Sendable (Data, BusTimeAgency) throws(TransitError) -> BusTimeResult<T>) async throws(TransitError) -> BusTimeResult<T> {
        let agency = self.agency
        let label = String(function.dropFirst(3)) + (items.first.map { " (\($0.0) \($0.1))" } ?? "")
        return try await http.get(request(function, items, ttl: ttl, label: label)) { r throws(TransitError) in try parse(r.body, agency) }
    }

    public func routes() async throws(TransitError) -> BusTimeResult<BusRoute> {
        try await call("getroutes", [], ttl: Self.day, BusTimeParser.routes)
    }

    public func directions(route: String) async throws(TransitError) -> BusTimeResult<BusDirection> {
        try await call("getdirections", [("rt", route)], ttl: Self.day, BusTimeParser.directions)
    }

    public func stops(route: String, direction: String) async throws(TransitError) -> BusTimeResult<BusStop> {
        try await call("getstops", [("rt", route), ("dir", direction)], ttl: Self.day, BusTimeParser.stops)
    }

    public func patterns(route: String) async throws(TransitError) -> BusTimeResult<BusPattern> {
        try await call("getpatterns", [("rt", route)], ttl: Self.day, BusTimeParser.patterns)
    }

    /// Predictions for up to 10 stops in one request, optionally only for some routes.
    public func predictions(stops: [String], routes: [String] = [], top: Int? = nil) async throws(TransitError) -> BusTimeResult<Prediction> {
        var items = [("stpid", try Self.list(stops, "stop ids"))]
        let routeList = try Self.list(routes, "routes")
        if !routes.isEmpty { items.append(("rt", routeList)) }
        if let top { items.append(("top", String(top))) }
        return try await call("getpredictions", items, ttl: nil, BusTimeParser.predictions)
    }

    /// Predictions for up to 10 vehicles, at every stop ahead of them.
    public func predictions(vehicles: [String]) async throws(TransitError) -> BusTimeResult<Prediction> {
        try await call("getpredictions", [("vid", try Self.list(vehicles, "vehicle ids"))], ttl: nil, BusTimeParser.predictions)
    }

    /// Bulletins for routes (`rt`) or stops (`stpid`): BusTime takes one or the other.
    public func bulletins(routes: [String] = [], stops: [String] = []) async throws(TransitError) -> BusTimeResult<Bulletin> {
        let stopList = try Self.list(stops, "stop ids"), routeList = try Self.list(routes, "routes")
        let items = routes.isEmpty ? [("stpid", stopList)] : [("rt", routeList)]
        return try await call("getservicebulletins", items, ttl: nil, BusTimeParser.bulletins)
    }

    public func vehicles(routes: [String]) async throws(TransitError) -> BusTimeResult<Vehicle> {
        try await call("getvehicles", [("rt", try Self.list(routes, "routes"))], ttl: nil, BusTimeParser.vehicles)
    }
}
