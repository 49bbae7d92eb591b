import Foundation
import TransitSupport

/// BART's legacy XML API (`api.bart.gov/api`). Asks for XML (the default) and reads it with
/// XMLParser. Cache lifetimes: stations, route info and route schedules one day (they change
/// with a new timetable, announced weeks ahead); trip plans one hour; departures and
/// advisories never.
public struct BARTClient: Sendable {
    public static let day: TimeInterval = 24 * 3600

    let http: HTTPClient
    let baseURL: String
    let key: String

    public init(http: HTTPClient, baseURL: String = BART.defaultBaseURL, key: String = BART.publicKey) {
        self.http = http
        self.baseURL = baseURL
        self.key = key
    }

    func request(_ path: String, _ items: [(String, String)], ttl: TimeInterval?, label: String) -> HTTPRequest {
        let query = items.map { HTTPRequest.QueryItem($0.0, $0.1) } + [HTTPRequest.QueryItem("key", key)]
        return HTTPRequest(provider: "bart", baseURL: baseURL, path: path, query: query,
                           secretNames: ["key"], cacheTTL: ttl, expects: .xml, label: "BART " + label)
    }

    public func stations() async throws(TransitError) -> [BARTStation] {
        try await http.get(request("stn.aspx", [("cmd", "stns")], ttl: Self.day, label: "stations")) { response throws(TransitError) in
            let list = try BARTParser.stations(response.body)
            guard !list.isEmpty else { throw .parse(what: "BART's station list", reason: "it lists no stations") }
            return list
        }
    }

    /// Every route with its ordered station list, as in force on `date` (today when nil).
    public func routes(date: LocalDate?) async throws(TransitError) -> [BARTRoute] {
        var items = [("cmd", "routeinfo"), ("route", "all")]
        if let date { items.append(("date", date.usSlashed)) }
        return try await http.get(request("route.aspx", items, ttl: Self.day, label: "routes")) { response throws(TransitError) in
            let routes = try BARTParser.routes(response.body)
            guard !routes.isEmpty else { throw .parse(what: "BART's route info", reason: "it lists no routes") }
            return routes
        }
    }

    public func schedule(route: Int, date: LocalDate) async throws(TransitError) -> BARTRouteSchedule {
        let req = request("sched.aspx", [("cmd", "routesched"), ("route", String(route)), ("date", date.usSlashed)], ttl: Self.day,
                          label: "schedule of route \(route)")
        return try await http.get(req) { response throws(TransitError) in
            try BARTParser.routeSchedule(response.body, route: route)
        }
    }

    /// The schedules of `routes`, fetched all at once: one network round however many routes.
    public func schedules(routes: [Int], date: LocalDate) async throws(TransitError) -> [Int: BARTRouteSchedule] {
        let list = try await concurrently(routes) { route throws(TransitError) in try await self.schedule(route: route, date: date) }
        return Dictionary(list.map { ($0.route, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// All trips of the service day: route info, then every needed schedule in parallel.
    public func trips(_ query: TripFinder.Query) async throws(TransitError) -> [BARTTrip] {
        try await trips(query, routes: try await self.routes(date: query.date))
    }

    /// All trips of the service day over route info already in hand.
    public func trips(_ query: TripFinder.Query, routes: [BARTRoute]) async throws(TransitError) -> [BARTTrip] {
        let needed = TripFinder.neededRoutes(routes, query: query)
        guard !needed.isEmpty else { return [] }
        let schedules = try await self.schedules(routes: needed, date: query.date)
        return TripFinder.trips(query: query, routes: routes, schedules: schedules)
    }

    /// BART's trip planner: the trip leaving at `minutes` after midnight on `date`.
    public func plan(from origin: String, to destination: String, date: LocalDate, minutes: Int,
                     before: Int = 0, after: Int = 1) async throws(TransitError) -> [BARTPlannedTrip] {
        let hour12 = (minutes / 60) % 12 == 0 ? 12 : (minutes / 60) % 12
        let time = String(format: "%d:%02d%@", hour12, minutes % 60, (minutes / 60) % 24 < 12 ? "am" : "pm")
        let req = request("sched.aspx", [("cmd", "depart"), ("orig", origin), ("dest", destination),
                                         ("date", date.usSlashed), ("time", time), ("b", String(before)), ("a", String(after))],
                          ttl: 3600, label: "trip planner")
        return try await http.get(req) { response throws(TransitError) in try BARTParser.plannedTrips(response.body) }
    }

    /// Live departures, narrowed by one platform or one direction.
    public func departures(station: String, filter: BARTDepartureFilter? = nil) async throws(TransitError) -> [BARTDeparture] {
        var items = [("cmd", "etd"), ("orig", station)]
        switch filter {
        case .platform(let platform): items.append(("plat", String(platform)))
        case .direction(let direction): items.append(("dir", direction.rawValue))
        case nil: break
        }
        return try await http.get(request("etd.aspx", items, ttl: nil, label: "departures at \(station)")) { response throws(TransitError) in
            try BARTParser.departures(response.body)
        }
    }

    public func advisories() async throws(TransitError) -> [BARTAdvisory] {
        try await http.get(request("bsa.aspx", [("cmd", "bsa")], ttl: nil, label: "advisories")) { response throws(TransitError) in
            try BARTParser.advisories(response.body)
        }
    }
}
