import Foundation

/// `transit cta …` and `transit mbus …`: one implementation, the agency a value.
public enum BusTimeCommand: Sendable, Equatable {
    case routes
    case directions(route: String)
    case stops(route: String, direction: String)
    case predictions(stops: [String], routes: [String], top: Int?)
    case alerts(route: String, stop: String?)
    case vehicles(routes: [String])
    case eta(ETAOptions)
}

public struct ETAOptions: Sendable, Equatable {
    public var stop: String
    public var routes: [String]
    public var method: ETA.Method
    public var model: ETA.Model
    public var calibrate: Bool
}

struct BusTimeCommands {
    let context: Context
    let agency: BusTimeAgency
    let client: BusTimeClient

    init(_ context: Context, agency: BusTimeAgency) throws(TransitError) {
        self.context = context
        self.agency = agency
        let settings = context.settings
        let key = settings.key(agency.id)
        // A recording is found without the key, so --offline needs none.
        if key == nil && !settings.offline {
            throw .missingKey(variable: agency.keyVariable, provider: agency.name, whereToGet: agency.keyHelp)
        }
        client = BusTimeClient(http: context.http, agency: agency,
                               baseURL: settings.baseURL(agency.id, default: agency.defaultBaseURL), key: key ?? "")
    }

    func run(_ command: BusTimeCommand) async throws(TransitError) -> Output {
        switch command {
        case .routes: return try await routes()
        case .directions(let route): return try await directions(route)
        case .stops(let route, let direction): return try await stops(route, direction)
        case .predictions(let stops, let routes, let top): return try await predictions(stops, routes, top)
        case .alerts(let route, let stop): return try await alerts(route, stop)
        case .vehicles(let routes): return try await vehicles(routes)
        case .eta(let options): return try await eta(options)
        }
    }

    func notices(_ messages: [BusTimeMessage]) -> [String] {
        messages.map { $0.meansEmpty ? $0.notice : "\(agency.name): \($0.notice)" }
    }

    // MARK: names

    /// A route id (`22`, `X9`, `J14`, `BB`, `CSX`: up to four characters, a digit or all
    /// capitals) passes as it is; anything else is looked up, by id in any case or by name,
    /// in the (cached) route list.
    func resolveRoutes(_ tokens: [String]) async throws(TransitError) -> [String] {
        guard tokens.contains(where: { !Self.looksLikeRouteID($0) }) else { return tokens }
        context.spinner.start("fetching \(agency.name) routes")
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
        context.spinner.start("looking up stop names")
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
        let unique = result.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        if unique.count > BusTimeClient.maxIDs {
            throw .usage("those stop names stand for \(unique.count) stops; BusTime takes at most \(BusTimeClient.maxIDs)")
        }
        return unique
    }

    // MARK: commands

    func routes() async throws(TransitError) -> Output {
        context.spinner.start("fetching \(agency.name) routes")
        let result = try await client.routes()
        let records = result.items.map { r in
            Record([("route", .string(r.id)), ("name", .string(r.name)), ("color", .optional(r.color)), ("designator", .optional(r.designator))])
        }
        return Output(records: records, table: [Column("route"), Column("name"), Column("color")], notices: notices(result.messages))
    }

    func directions(_ token: String) async throws(TransitError) -> Output {
        let route = try await resolveRoutes([token])[0]
        context.spinner.start("fetching directions of route \(route)")
        let result = try await client.directions(route: route)
        let records = result.items.map { Record([("id", .string($0.id)), ("name", .string($0.name))]) }
        return Output(records: records, table: [Column("id"), Column("name")], notices: notices(result.messages))
    }

    func stops(_ token: String, _ directionText: String) async throws(TransitError) -> Output {
        let route = try await resolveRoutes([token])[0]
        context.spinner.start("fetching stops of route \(route)")
        let directions = try await client.directions(route: route).items
        let dirMatcher = NameMatcher(kind: "direction of route \(route)", candidates: directions.map { .init(code: $0.id, names: [$0.name], value: $0) })
        let direction = directions.isEmpty ? BusDirection(id: directionText, name: directionText) : try dirMatcher.match(directionText)
        async let patternList = Result.catching { () async throws(TransitError) -> [BusPattern] in try await client.patterns(route: route).items }
        let stops = try await client.stops(route: route, direction: direction.id)
        let patterns = (try? await patternList.get()) ?? []
        let ordered = Self.routeOrder(stops.items, patterns: patterns, direction: direction)
        var notices = notices(stops.messages)
        if let pid = ordered.pattern {
            notices.append("Stops of route \(route) \(direction.name) in route order (pattern \(pid))")
        } else {
            notices.append("Stops of route \(route) \(direction.name) in alphabetical order (no pattern for this direction)")
        }
        let records = ordered.stops.enumerated().map { i, s in
            Record([("seq", .int(i + 1)), ("stop_id", .string(s.id)), ("stop_name", .string(s.name)),
                    ("latitude", .optional(s.latitude)), ("longitude", .optional(s.longitude))])
        }
        let shape = patterns.first { $0.id == ordered.pattern }.map { pattern in
            [(properties: Record([("pattern_id", .int(pattern.id)), ("route", .string(route)), ("direction", .string(pattern.direction))]),
              coordinates: pattern.points.map { ($0.latitude, $0.longitude) })]
        } ?? []
        return Output(records: records, table: [Column("seq"), Column("stop_id", "STOP"), Column("stop_name", "NAME"),
                                                Column("latitude"), Column("longitude")], notices: notices,
                      geoJSON: GeoJSON.points(records, lines: shape))
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

    func predictions(_ stopTokens: [String], _ routeTokens: [String], _ top: Int?) async throws(TransitError) -> Output {
        let routes = try await resolveRoutes(routeTokens)
        let stops = try await resolveStops(stopTokens, routes: routes)
        context.spinner.start("fetching predictions")
        // Predictions and bulletins in one network round.
        let client = self.client
        async let bulletinList = Result.catching { () async throws(TransitError) -> BusTimeResult<Bulletin> in
            try await client.bulletins(routes: routes, stops: stops)
        }
        let predictions = try await client.predictions(stops: stops, routes: routes, top: top)
        var notices = notices(predictions.messages)
        let bulletins: [Bulletin]
        switch await bulletinList {
        case .success(let result): bulletins = Self.ordered(result.items)
        case .failure(let error):
            bulletins = []
            notices.append("could not fetch alerts: \(error.message)")
        }
        let now = context.settings.now
        let zone = agency.zone
        let sorted = predictions.items.sorted { ($0.predicted, $0.route, $0.stopID) < ($1.predicted, $1.route, $1.stopID) }
        let records = sorted.map { p in
            Record([("route", .string(p.route)), ("direction", .string(p.direction)), ("stop_id", .string(p.stopID)),
                    ("stop_name", .string(p.stopName)), ("destination", .string(p.destination)), ("vehicle", .optional(p.vehicle)),
                    ("predicted", .time(p.predicted, zone)), ("minutes", .int(Self.minutes(p, now: now))),
                    ("delayed", .bool(p.delayed)), ("type", .string(p.kind.rawValue))])
        }
        if records.isEmpty && notices.isEmpty { notices.append("No predictions for stop \(stops.joined(separator: ","))") }
        let alertRecords = bulletins.map(Self.alertRecord)
        let high = bulletins.filter { $0.priorityRank == 0 }, others = bulletins.filter { $0.priorityRank != 0 }
        let minutes = Column("minutes", "MIN") { record in
            guard case .int(let m)? = record["minutes"] else { return .null }
            return m == 0 ? .string("DUE") : .int(m)
        }
        return Output(records: records,
                      table: [Column("route"), Column("direction", "DIR"), Column("stop_name", "STOP"), Column("destination", "TO"),
                              Column("predicted", "AT"), minutes, Column("vehicle", "BUS"), Column("delayed")],
                      json: .object(Record([("predictions", .list(records.map(Value.object))), ("alerts", .list(alertRecords.map(Value.object)))])),
                      notices: notices,
                      tableBefore: high.map { Self.alertLine($0) },
                      tableAfter: others.map { Self.alertLine($0) })
    }

    /// Minutes from now to the prediction, rounded down; DUE is 0.
    static func minutes(_ p: Prediction, now: Date) -> Int {
        p.due ? 0 : max(0, Int(p.predicted.timeIntervalSince(now) / 60))
    }

    /// BusTime already chose the bulletins for the request's routes or stops (and the
    /// system-wide ones): drop repeats, high priority first, otherwise in BusTime's order.
    static func ordered(_ bulletins: [Bulletin]) -> [Bulletin] {
        var seen = Set<String>()
        return bulletins.filter { seen.insert($0.name + "\u{1}" + $0.subject).inserted }
            .enumerated().sorted { ($0.element.priorityRank, $0.offset) < ($1.element.priorityRank, $1.offset) }.map(\.element)
    }

    static func alertRecord(_ b: Bulletin) -> Record {
        let routes = Array(Set(b.services.compactMap(\.route))).sorted()
        let stops = Array(Set(b.services.compactMap(\.stopID))).sorted()
        return Record([("priority", .string(b.priority)), ("title", .string(b.subject)), ("detail", .string(b.detail)),
                       ("routes", .list(routes.map(Value.string))), ("stops", .list(stops.map(Value.string)))])
    }

    static func alertLine(_ b: Bulletin) -> String {
        let mark = b.priorityRank == 0 ? "! " : "  "
        return "\(mark)[\(b.priority)] \(b.subject): \(b.detail)"
    }

    func alerts(_ routeToken: String, _ stopToken: String?) async throws(TransitError) -> Output {
        let routes = try await resolveRoutes([routeToken])
        let stops = try await resolveStops(stopToken.map { [$0] } ?? [], routes: routes)
        context.spinner.start("fetching alerts")
        let result = try await client.bulletins(routes: routes)
        var bulletins = Self.ordered(result.items)
        if !stops.isEmpty {
            bulletins = bulletins.filter { b in b.services.isEmpty || b.services.contains { $0.stopID == nil || stops.contains($0.stopID ?? "") } }
        }
        var notices = notices(result.messages)
        if bulletins.isEmpty && notices.isEmpty { notices.append("No alerts for route \(routes.joined(separator: ","))") }
        return Output(records: bulletins.map(Self.alertRecord),
                      table: [Column("priority"), Column("title"), Column("detail")], notices: notices)
    }

    func vehicles(_ routeTokens: [String]) async throws(TransitError) -> Output {
        let routes = try await resolveRoutes(routeTokens)
        context.spinner.start("fetching vehicles")
        let result = try await client.vehicles(routes: routes)
        let zone = agency.zone
        let records = result.items.sorted { ($0.route, $0.id) < ($1.route, $1.id) }.map { v in
            Record([("vehicle", .string(v.id)), ("route", .string(v.route)), ("latitude", .optional(v.latitude)),
                    ("longitude", .optional(v.longitude)), ("heading", .optional(v.heading)), ("pattern_id", .optional(v.patternID)),
                    ("pattern_distance", .optional(v.patternDistance)), ("destination", .string(v.destination)),
                    ("delayed", .bool(v.delayed)), ("timestamp", v.timestamp.map { .time($0, zone) } ?? .null)])
        }
        var notices = notices(result.messages)
        if records.isEmpty && notices.isEmpty { notices.append("No vehicles on route \(routes.joined(separator: ","))") }
        return Output(records: records,
                      table: [Column("vehicle", "BUS"), Column("route"), Column("destination", "TO"), Column("latitude"),
                              Column("longitude"), Column("heading", "HDG"), Column("delayed"), Column("timestamp", "SEEN")],
                      notices: notices, geoJSON: GeoJSON.points(records))
    }

    // MARK: eta

    func eta(_ options: ETAOptions) async throws(TransitError) -> Output {
        let routeFilter = try await resolveRoutes(options.routes)
        let stop = try await resolveStops([options.stop], routes: routeFilter)
        guard stop.count == 1, let stopID = stop.first else {
            throw .usage("--stop '\(options.stop)' names \(stop.count) stops; give one stop id")
        }
        context.spinner.start("fetching predictions at stop \(stopID)")
        // BusTime's own predictions say which routes serve the stop now, and are the yardstick.
        let predictions = try await client.predictions(stops: [stopID], routes: routeFilter)
        var routes = routeFilter
        if routes.isEmpty {
            routes = predictions.items.map(\.route).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        }
        var notices = notices(predictions.messages)
        guard !routes.isEmpty else {
            notices.append("No buses are predicted at stop \(stopID); give --route to look for buses anyway")
            return Output(records: [], table: [], notices: notices)
        }
        let limited = Array(routes.prefix(BusTimeClient.maxIDs))
        context.spinner.update("fetching patterns and vehicles of route \(limited.joined(separator: ","))")
        let client = self.client
        async let vehicleList = Result.catching { () async throws(TransitError) -> BusTimeResult<Vehicle> in try await client.vehicles(routes: limited) }
        let patterns = Array(try await concurrently(limited) { route throws(TransitError) in try await client.patterns(route: route).items }.joined())
        let vehicles = try await vehicleList.get()
        notices += self.notices(vehicles.messages)
        let now = context.settings.now
        func official(_ v: Vehicle) -> Prediction? {
            predictions.items.filter { $0.vehicle == v.id && $0.stopID == stopID }.min { $0.predicted < $1.predicted }
        }
        var model = options.model
        let along = ETA.alongRoute(stop: stopID, vehicles: vehicles.items, patterns: patterns, model: model)
        if options.calibrate {
            let pairs = along.compactMap { c -> (feet: Double, stops: Int, seconds: Double)? in
                guard let p = official(c.vehicle) else { return nil }
                return (c.remainingFeet, c.stopsBetween ?? 0, p.predicted.timeIntervalSince(now))
            }
            if let fitted = ETA.calibrate(pairs) {
                model = fitted
                notices.append(String(format: "Calibrated on %d BusTime predictions: %.1f mph, %.0f s a stop", pairs.count, fitted.speedMPH, fitted.dwellSeconds))
            } else {
                notices.append("Too few BusTime predictions to calibrate (\(pairs.count)); using \(model.speedMPH) mph and \(Int(model.dwellSeconds)) s")
            }
        }
        let candidates: [ETA.Candidate]
        switch options.method {
        case .alongRoute:
            candidates = ETA.alongRoute(stop: stopID, vehicles: vehicles.items, patterns: patterns, model: model)
        case .straightLine:
            guard let point = patterns.lazy.flatMap(\.points).first(where: { $0.isStop && $0.stopID == stopID }) else {
                throw .api(provider: agency.name, message: "stop \(stopID) is on no pattern of route \(limited.joined(separator: ","))", details: nil)
            }
            let serving = Set(patterns.filter { $0.points.contains { $0.stopID == stopID } }.map(\.id))
            let onRoutes = vehicles.items.filter { v in v.patternID.map(serving.contains) ?? true }
            candidates = ETA.straightLine(stop: (point.latitude, point.longitude), vehicles: onRoutes, model: model)
        }
        if candidates.isEmpty { notices.append("No bus on route \(limited.joined(separator: ",")) has stop \(stopID) ahead of it") }
        let zone = agency.zone
        let records = candidates.map { c -> Record in
            let prediction = official(c.vehicle)
            let busTime = prediction.map { max(0, $0.predicted.timeIntervalSince(now) / 60) }
            return Record([
                ("vehicle", .string(c.vehicle.id)), ("route", .string(c.vehicle.route)), ("destination", .string(c.vehicle.destination)),
                ("pattern_id", .optional(c.patternID)), ("latitude", .optional(c.vehicle.latitude)), ("longitude", .optional(c.vehicle.longitude)),
                ("distance_miles", .double(Self.round(c.remainingFeet / ETA.feetPerMile, 2))),
                ("distance_km", .double(Self.round(c.remainingFeet * 0.0003048, 2))),
                ("stops_between", .optional(c.stopsBetween)), ("estimate_minutes", .double(Self.round(c.minutes, 1))),
                ("bustime_minutes", busTime.map { .double(Self.round($0, 1)) } ?? .null),
                ("bustime_predicted", prediction.map { .time($0.predicted, zone) } ?? .null),
                ("difference_minutes", busTime.map { .double(Self.round(c.minutes - $0, 1)) } ?? .null),
                ("method", .string(options.method.rawValue)),
            ])
        }
        let busTimeColumn = Column("bustime_minutes", "BUSTIME") { r in r["bustime_minutes"] == .null ? .string("none") : r["bustime_minutes"] ?? .null }
        return Output(records: records,
                      table: [Column("vehicle", "BUS"), Column("route"), Column("destination", "TO"), Column("distance_miles", "MILES"),
                              Column("stops_between", "STOPS"), Column("estimate_minutes", "EST MIN"), busTimeColumn,
                              Column("difference_minutes", "DIFF")],
                      flat: [Column("vehicle"), Column("route"), Column("destination"), Column("pattern_id"), Column("distance_miles"),
                             Column("distance_km"), Column("stops_between"), Column("estimate_minutes"), Column("bustime_minutes"),
                             Column("difference_minutes"), Column("method")],
                      notices: notices,
                      geoJSON: GeoJSON.points(records))
    }

    static func round(_ value: Double, _ places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded() / scale
    }
}
