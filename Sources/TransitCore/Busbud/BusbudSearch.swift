import Foundation
import TransitSupport

/// Busbud's departure search: the first request, then `/poll` until `complete`, merging as
/// answers arrive. Never cached (Busbud caches on its side).
public struct BusbudClient: Sendable {
    let http: HTTPClient
    let baseURL: String
    let token: String

    public init(http: HTTPClient, baseURL: String = Busbud.defaultBaseURL, token: String) {
        self.http = http
        self.baseURL = baseURL
        self.token = token
    }

    func request(_ query: BusbudQuery, poll index: Int?) -> HTTPRequest {
        var path = "x-departures/\(query.origin)/\(query.destination)/\(query.date.iso)"
        var items: [HTTPRequest.QueryItem] = [.init("adult", String(query.adults)), .init("child", String(query.children)),
                                              .init("senior", String(query.seniors)), .init("lang", query.lang),
                                              .init("currency", query.currency)]
        if let index {
            path += "/poll"
            items.append(.init("index", String(index)))
        }
        return HTTPRequest(provider: "busbud", baseURL: baseURL, path: path, query: items,
                           headers: ["Accept": Busbud.accept, "X-Busbud-Token": token],
                           secretNames: ["X-Busbud-Token"], cacheTTL: nil, expects: .json,
                           label: index == nil ? "Busbud departures" : "Busbud departures (poll \(index ?? 0))")
    }

    /// The first search request (`index` nil) or a poll.
    public func fetch(_ query: BusbudQuery, poll index: Int? = nil) async throws(TransitError) -> BusbudResponse {
        try await http.get(request(query, poll: index), interpretError: Self.interpret) { response throws(TransitError) in
            try BusbudParser.response(response.body)
        }
    }

    static func interpret(_ response: HTTPResponse) -> TransitError? {
        if response.status == 401 || response.status == 403 {
            return .api(provider: "Busbud", message: "the token is missing or wrong (HTTP \(response.status))",
                        details: BusbudParser.errorMessage(response.body))
        }
        if let message = BusbudParser.errorMessage(response.body) {
            return .api(provider: "Busbud", message: message, details: nil)
        }
        return nil
    }
}

/// The poll loop. Waits between polls without spinning (Task.sleep), stops at `complete` or
/// at the deadline, whichever is first.
public struct BusbudSearch: Sendable {
    public struct Result: Sendable {
        public var departures: [BusbudDeparture]
        public var cities: [String: BusbudCity]
        public var locations: [Int: BusbudLocation]
        public var operators: [String: BusbudOperator]
        public var complete: Bool
        public var validRoute: Bool
        public var polls: Int
        /// The pause before each poll, in seconds.
        public var pauses: [TimeInterval]
        /// Departures that could not be read, over every answer.
        public var skipped = Skipped()
    }

    public var client: BusbudClient
    /// The longest the whole search may take.
    public var maxWait: TimeInterval
    /// Overrides the server's interval (`--poll-interval`).
    public var pollInterval: TimeInterval?
    /// Replaying recordings: no waiting between polls.
    public var waits = true

    public init(client: BusbudClient, maxWait: TimeInterval, pollInterval: TimeInterval? = nil) {
        self.client = client
        self.maxWait = maxWait
        self.pollInterval = pollInterval
    }

    public static let defaultInterval: TimeInterval = 2

    public func run(_ query: BusbudQuery, progress: @Sendable (Int) -> Void = { _ in }) async throws(TransitError) -> Result {
        let start = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> TimeInterval { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        var result = Result(departures: [], cities: [:], locations: [:], operators: [:], complete: false, validRoute: true, polls: 0, pauses: [])
        var response = try await client.fetch(query)
        result.validRoute = response.isValidRoute ?? true
        merge(response, into: &result)
        progress(result.departures.count)
        while !response.complete && result.validRoute {
            let interval = pollInterval ?? response.intervalMilliseconds.map { Double($0) / 1000 } ?? Self.defaultInterval
            if waits {
                guard elapsed() + interval <= maxWait else { break }
                do { try await Task.sleep(nanoseconds: UInt64(max(0, interval) * 1e9)) } catch { break }
                result.pauses.append(interval)
            } else if result.polls >= 100 {
                break
            }
            response = try await client.fetch(query, poll: result.departures.count)
            result.polls += 1
            merge(response, into: &result)
            progress(result.departures.count)
        }
        result.complete = response.complete
        result.departures.sort { ($0.departure, $0.id) < ($1.departure, $1.id) }
        return result
    }

    /// Reference data upserted by id; departures de-duplicated by id (the later copy wins).
    func merge(_ response: BusbudResponse, into result: inout Result) {
        result.skipped.add(response.skipped)
        for city in response.cities { result.cities[city.id] = city }
        for location in response.locations { result.locations[location.id] = location }
        for op in response.operators { result.operators[op.id] = op }
        for departure in response.departures {
            if let i = result.departures.firstIndex(where: { $0.id == departure.id }) {
                result.departures[i] = departure
            } else {
                result.departures.append(departure)
            }
        }
    }
}
