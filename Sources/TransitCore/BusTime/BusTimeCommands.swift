import Foundation
import TransitSupport

/// `transit cta …` and `transit mbus …`: one implementation, the agency a value.
struct BusTimeCommands {
    let context: Context
    let agency: BusTimeAgency
    let client: BusTimeClient

    init(_ context: Context, agency: BusTimeAgency) throws(TransitError) {
        self.context = context
        self.agency = agency
        let settings = context.settings
        client = BusTimeClient(http: context.http, agency: agency,
                               baseURL: settings.baseURL(agency.id, default: agency.defaultBaseURL), key: try settings.key())
    }

    /// BusTime's messages, and the records that could not be read, as notices.
    func notices<T>(_ result: BusTimeResult<T>, _ noun: String) -> [String] {
        var lines = result.messages.map { $0.meansEmpty ? $0.notice : "\(agency.name): \($0.notice)" }
        if let skipped = result.skipped.notice(noun, of: result.items.count + result.skipped.count) { lines.append("\(agency.name): " + skipped) }
        return lines
    }

    // MARK: names

    /// A route id (`22`, `X9`, `J14`, `BB`, `CSX`: up to four characters, a digit or all
    /// capitals) passes as it is; anything else is looked up, by id in any case or by name,
    /// in the (cached) route list.
    func resolveRoutes(_ tokens: [String]) async throws(TransitError) -> [String] {
        guard tokens.contains(where: { !Self.looksLikeRouteID($0) }) else { return tokens }
        let list = try await client.routes().items
        let matcher = NameMatcher(kind: "\(agency.id.uppercased()) route", candidates: list.map { .init(code: $0.id, names: [$0.name], value: $0.id) })
        var result: [String] = []
        for token in tokens { result.append(Self.looksLikeRouteID(token) ? token : try matcher.match(token)) }
        return result
    }

    static func looksLikeRouteID(_ token: String) -> Bool {
        token.count <= 4 && token.allSatisfy { ($0.isLetter || $0.isNumber) && $0.isASCII }
            && (token.contains { $0.isNumber } || token == token.uppercased())
    }

    /// Stop ids are digits, or a few letters then digits (Magic Bus: `C250`).
    static func looksLikeStopID(_ token: String) -> Bool {
        let letters = token.prefix { $0.isLetter }
        let rest = token.dropFirst(letters.count)
        return letters.count <= 3 && !rest.isEmpty && rest.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Stop names are looked up in the (cached) patterns of the given routes, both directions
    /// at once. A name that is exactly a stop's name stands for every stop so called (the two
    /// sides of a street usually share it); otherwise the matcher's prefix and did-you-mean rules.
    func resolveStops(_ tokens: [String], routes: [String]) async throws(TransitError) -> [String] {
        guard tokens.contains(where: { !Self.looksLikeStopID($0) }) else { return tokens }
        guard !routes.isEmpty else {
            throw .usage("a stop name needs --route to look it up; or give the stop id",
                         hint: "list stop ids with: transit \(agency.id) stops --route RT --direction DIR")
        }
        let client = self.client
        let patterns = try await concurrently(routes) { route throws(TransitError) in try await client.patterns(route: route).items }
        var candidates: [NameMatcher<String>.Candidate] = []
        for point in patterns.joined().flatMap(\.points) where point.isStop {
            guard let id = point.stopID, !candidates.contains(where: { $0.code == id }) else { continue }
            candidates.append(.init(code: id, names: [point.stopName ?? id], value: id))
        }
        let matcher = NameMatcher(kind: "\(agency.id.uppercased()) stop", candidates: candidates)
        var result: [String] = []
        for token in tokens {
            if Self.looksLikeStopID(token) { result.append(token); continue }
            let exact = candidates.filter { $0.names.contains { NameMatcher<String>.normalize($0) == NameMatcher<String>.normalize(token) } }
            result += exact.isEmpty ? [try matcher.match(token)] : exact.map(\.code)
        }
        let unique = result.uniqued()
        if unique.count > BusTimeClient.maxIDs {
            throw .usage("those stop names stand for \(unique.count) stops; BusTime takes at most \(BusTimeClient.maxIDs)")
        }
        return unique
    }

    // MARK: commands

    func routes() async throws(TransitError) -> Output {
        let result = try await client.routes()
        let data: [Column<BusRoute>] = [
            Column("route") { .string($0.id) }, Column("name") { .string($0.name) },
            Column("color") { .optional($0.color) }, Column("designator") { .optional($0.designator) },
        ]
        var notices = notices(result, "routes")
        if result.items.isEmpty && notices.isEmpty { notices.append("\(agency.name) lists no routes") }
        return Output(result.items, data: data, table: Array(data.prefix(3)), notices: notices)
    }

    func directions(_ token: String) async throws(TransitError) -> Output {
        let route = try await resolveRoutes([token])[0]
        let result = try await client.directions(route: route)
        let data: [Column<BusDirection>] = [Column("id") { .string($0.id) }, Column("name") { .string($0.name) }]
        var notices = notices(result, "directions")
        if result.items.isEmpty && notices.isEmpty { notices.append("No directions for route \(route)") }
        return Output(result.items, data: data, table: data, notices: notices)
    }

    func stops(_ token: String, _ directionText: String) async throws(TransitError) -> Output {
        let route = try await resolveRoutes([token])[0]
        let directions = try await client.directions(route: route).items
        let dirMatcher = NameMatcher(kind: "direction of route \(route)", candidates: directions.map { .init(code: $0.id, names: [$0.name], value: $0) })
        let direction = directions.isEmpty ? BusDirection(id: directionText, name: directionText) : try dirMatcher.match(directionText)
        let client = self.client
        async let patternList = Result.catching { () async throws(TransitError) -> [BusPattern] in try await client.patterns(route: route).items }
        let stops = try await client.stops(route: route, direction: direction.id)
        let patterns = (try? await patternList.get()) ?? []
        let ordered = Self.routeOrder(stops.items, patterns: patterns, direction: direction)
        var notices = notices(stops, "stops")
        if let pid = ordered.pattern {
            notices.append("Stops of route \(route) \(direction.name) in route order (pattern \(pid))")
        } else {
            notices.append("Stops of route \(route) \(direction.name) in alphabetical order (no pattern for this direction)")
        }
        let rows = ordered.stops.enumerated().map { (seq: $0.offset + 1, stop: $0.element) }
        let data: [Column<(seq: Int, stop: BusStop)>] = [
            Column("seq") { .int($0.seq) }, Column("stop_id", "STOP") { .string($0.stop.id) }, Column("stop_name", "NAME") { .string($0.stop.name) },
            Column("latitude") { .coordinate($0.stop.latitude) }, Column("longitude") { .coordinate($0.stop.longitude) },
        ]
        var output = Output(rows, data: data, table: data, notices: notices)
        let shape = patterns.first { $0.id == ordered.pattern }.map { pattern in
            [(properties: Record([("pattern_id", .int(pattern.id)), ("route", .string(route)), ("direction", .string(pattern.direction))]),
              coordinates: pattern.points.map { ($0.latitude, $0.longitude) })]
        } ?? []
        output.geoJSON { GeoJSON.points($0, lines: shape) }
        return output
    }

    /// Stops in the order of the direction's longest pattern; those it lacks, alphabetically after.
    static func routeOrder(_ stops: [BusStop], patterns: [BusPattern], direction: BusDirection) -> (stops: [BusStop], pattern: Int?) {
        let alphabetical = stops.sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
        let candidates = patterns.filter {
            $0.direction.caseInsensitiveCompare(direction.id) == .orderedSame || $0.direction.caseInsensitiveCompare(direction.name) == .orderedSame
        }
        guard let pattern = candidates.max(by: { $0.points.filter(\.isStop).count < $1.points.filter(\.isStop).count }) else {
            return (alphabetical, nil)
        }
        var position: [String: Int] = [:]
        for (i, point) in pattern.points.enumerated() where point.isStop {
            if let id = point.stopID, position[id] == nil { position[id] = i }
        }
        let onPattern = stops.filter { position[$0.id] != nil }.sorted { (position[$0.id] ?? 0) < (position[$1.id] ?? 0) }
        let rest = alphabetical.filter { position[$0.id] == nil }
        return (onPattern + rest, pattern.id)
    }

    func predictions(_ stopTokens: [String], _ routeTokens: [String], limit: Int?) async throws(TransitError) -> Output {
        let routes = try await resolveRoutes(routeTokens)
        let stops = try await resolveStops(stopTokens, routes: routes)
        // Predictions and bulletins in one network round.
        let client = self.client
        async let bulletinList = Result.catching { () async throws(TransitError) -> BusTimeResult<Bulletin> in
            try await client.bulletins(routes: routes, stops: stops)
        }
        let predictions = try await client.predictions(stops: stops, routes: routes)
        var notices = notices(predictions, "predictions")
        let bulletins: [Bulletin]
        switch await bulletinList {
        case .success(let result):
            bulletins = Self.ordered(result.items)
            notices += result.skipped.notice("alerts", of: result.items.count + result.skipped.count).map { ["\(agency.name): " + $0] } ?? []
        case .failure(let error):
            bulletins = []
            notices.append("could not fetch alerts: \(error.message)")
        }
        let now = context.settings.now
        let zone = agency.zone
        var sorted = predictions.items.sorted { ($0.predicted, $0.route, $0.stopID) < ($1.predicted, $1.route, $1.stopID) }
        if let limit { sorted = Array(sorted.prefix(limit)) }
        if sorted.isEmpty && notices.isEmpty { notices.append("No predictions for stop \(stops.joined(separator: ","))") }
        let minutes = Column<Prediction>("minutes", "MIN") { .int(Self.minutes($0, now: now)) }
        let data: [Column<Prediction>] = [
            Column("route") { .string($0.route) }, Column("direction", "DIR") { .string($0.direction) },
            Column("stop_id") { .string($0.stopID) }, Column("stop_name", "STOP") { .string($0.stopName) },
            Column("destination", "TO") { .string($0.destination) }, Column("vehicle", "BUS") { .optional($0.vehicle) },
            Column("predicted", "AT") { .time($0.predicted, zone) }, minutes,
            Column("delayed") { .bool($0.delayed) }, Column("type") { .string($0.kind.rawValue) },
        ]
        let due = Column<Prediction>("minutes", "MIN") { Self.minutes($0, now: now) == 0 ? .string("DUE") : .int(Self.minutes($0, now: now)) }
        var output = Output(sorted, data: data, table: [data[0], data[1], data[3], data[4], data[6], due, data[5], data[8]], notices: notices)
        output.json = .object(Record([("predictions", .list(output.records.map(Value.object))),
                                      ("alerts", .list(bulletins.map { .object(Record(Self.alertColumns, $0)) }))]))
        output.tableBefore = bulletins.filter { $0.priority == .high }.map(Self.alertLine)
        output.tableAfter = bulletins.filter { $0.priority != .high }.map(Self.alertLine)
        return output
    }

    /// Minutes to the prediction, rounded down; DUE is 0.
    /// Counted, as BusTime's own `prdctdn`, against the server's clock when the prediction was
    /// made (`tmstmp`), so a skewed local clock or a replayed answer gives the agency's minutes;
    /// against the local clock only when there is no timestamp.
    static func minutes(_ p: Prediction, now: Date) -> Int {
        p.due ? 0 : max(0, Int(p.predicted.timeIntervalSince(p.generated ?? now) / 60))
    }

    /// BusTime already chose the bulletins for the request's routes or stops (and the
    /// system-wide ones): drop repeats, high priority first, otherwise in BusTime's order.
    static func ordered(_ bulletins: [Bulletin]) -> [Bulletin] {
        bulletins.uniqued { $0.name + "\u{1}" + $0.subject }
            .enumerated().sorted { ($0.element.priority.rank, $0.offset) < ($1.element.priority.rank, $1.offset) }.map(\.element)
    }

    static let alertColumns: [Column<Bulletin>] = [
        Column("priority") { .string($0.priority.rawValue) }, Column("title") { .string($0.subject) }, Column("detail") { .string($0.detail) },
        Column("routes") { .list(Array(Set($0.services.compactMap(\.route))).sorted().map(Value.string)) },
        Column("stops") { .list(Array(Set($0.services.compactMap(\.stopID))).sorted().map(Value.string)) },
    ]

    static func alertLine(_ b: Bulletin) -> String {
        let mark = b.priority == .high ? "! " : "  "
        return "\(mark)[\(b.priority.rawValue)] \(b.subject): \(b.detail)"
    }

    func alerts(_ routeToken: String, _ stopToken: String?) async throws(TransitError) -> Output {
        let routes = try await resolveRoutes([routeToken])
        let stops = try await resolveStops(stopToken.map { [$0] } ?? [], routes: routes)
        let result = try await client.bulletins(routes: routes)
        var bulletins = Self.ordered(result.items)
        if !stops.isEmpty {
            bulletins = bulletins.filter { b in b.services.isEmpty || b.services.contains { $0.stopID == nil || stops.contains($0.stopID ?? "") } }
        }
        var notices = notices(result, "alerts")
        if bulletins.isEmpty && notices.isEmpty { notices.append("No alerts for route \(routes.joined(separator: ","))") }
        return Output(bulletins, data: Self.alertColumns, table: Array(Self.alertColumns.prefix(3)), notices: notices)
    }

    func vehicles(_ routeTokens: [String]) async throws(TransitError) -> Output {
        let routes = try await resolveRoutes(routeTokens)
        let result = try await client.vehicles(routes: routes)
        let zone = agency.zone
        let list = result.items.sorted { ($0.route, $0.id) < ($1.route, $1.id) }
        let data: [Column<Vehicle>] = [
            Column("vehicle", "BUS") { .string($0.id) }, Column("route") { .string($0.route) }, Column("latitude") { .coordinate($0.latitude) },
            Column("longitude") { .coordinate($0.longitude) }, Column("heading", "HDG") { .optional($0.heading) },
            Column("pattern_id") { .optional($0.patternID) }, Column("pattern_distance") { .optional($0.patternDistance) },
            Column("destination", "TO") { .string($0.destination) }, Column("delayed") { .bool($0.delayed) },
            Column("timestamp", "SEEN") { $0.timestamp.map { .time($0, zone) } ?? .null },
        ]
        var notices = notices(result, "vehicles")
        if list.isEmpty && notices.isEmpty { notices.append("No vehicles on route \(routes.joined(separator: ","))") }
        var output = Output(list, data: data, table: [data[0], data[1], data[7], data[2], data[3], data[4], data[8], data[9]], notices: notices)
        output.geoJSON { GeoJSON.points($0) }
        return output
    }

    // MARK: eta

    func eta(_ options: ETAOptions) async throws(TransitError) -> Output {
        let routeFilter = try await resolveRoutes(options.routes)
        let stop = try await resolveStops([options.stop], routes: routeFilter)
        guard stop.count == 1, let stopID = stop.first else {
            throw .usage("--stop '\(options.stop)' names \(stop.count) stops; give one stop id")
        }
        // BusTime's own predictions say which routes serve the stop now, and are the yardstick.
        let predictions = try await client.predictions(stops: [stopID], routes: routeFilter)
        let routes = routeFilter.isEmpty ? predictions.items.map(\.route).uniqued() : routeFilter
        var notices = notices(predictions, "predictions")
        guard !routes.isEmpty else {
            notices.append("No buses are predicted at stop \(stopID); give --route to look for buses anyway")
            return .empty(notices)
        }
        let limited = Array(routes.prefix(BusTimeClient.maxIDs))
        let client = self.client
        async let vehicleList = Result.catching { () async throws(TransitError) -> BusTimeResult<Vehicle> in try await client.vehicles(routes: limited) }
        let patterns = Array(try await concurrently(limited) { route throws(TransitError) in try await client.patterns(route: route).items }.joined())
        let vehicles = try await vehicleList.get()
        notices += self.notices(vehicles, "vehicles")
        let result = try ETA.estimates(stop: stopID, method: options.method, model: options.model, calibrate: options.calibrate,
                                       vehicles: vehicles.items, patterns: patterns, predictions: predictions.items, now: context.settings.now)
        notices += result.notices
        if result.estimates.isEmpty { notices.append("No bus on route \(limited.joined(separator: ",")) has stop \(stopID) ahead of it") }
        let zone = agency.zone
        let data: [Column<ETA.Estimate>] = [
            Column("vehicle", "BUS") { .string($0.candidate.vehicle.id) }, Column("route") { .string($0.candidate.vehicle.route) },
            Column("destination", "TO") { .string($0.candidate.vehicle.destination) }, Column("pattern_id") { .optional($0.candidate.patternID) },
            Column("latitude") { .coordinate($0.candidate.vehicle.latitude) }, Column("longitude") { .coordinate($0.candidate.vehicle.longitude) },
            Column("distance_miles", "MILES") { .double(Numbers.round($0.distanceMiles, 2)) }, Column("distance_km") { .double(Numbers.round($0.distanceKm, 2)) },
            Column("stops_between", "STOPS") { .optional($0.candidate.stopsBetween) },
            Column("estimate_minutes", "EST MIN") { .double(Numbers.round($0.candidate.minutes, 1)) },
            Column("bustime_minutes") { $0.busTimeMinutes.map { .double(Numbers.round($0, 1)) } ?? .null },
            Column("bustime_predicted") { $0.prediction.map { .time($0.predicted, zone) } ?? .null },
            Column("difference_minutes", "DIFF") { $0.differenceMinutes.map { .double(Numbers.round($0, 1)) } ?? .null },
            Column("method") { .string($0.method.rawValue) },
        ]
        let busTime = Column<ETA.Estimate>("bustime_minutes", "BUSTIME") { $0.busTimeMinutes.map { .double(Numbers.round($0, 1)) } ?? .string("none") }
        var output = Output(result.estimates, data: data, table: [data[0], data[1], data[2], data[6], data[8], data[9], busTime, data[12]], notices: notices)
        output.geoJSON { GeoJSON.points($0) }
        return output
    }
}
