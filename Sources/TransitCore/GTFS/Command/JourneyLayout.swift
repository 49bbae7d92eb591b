import Foundation

/// Journeys as columns: JSON with every leg, tsv/csv with the routes joined by `>`, and a
/// table row per journey with its changes written out.
struct JourneyLayout {
    let t: Timetable
    let clock: ServiceClock
    /// The realtime data the journeys were planned on, when there was any: an added trip's id,
    /// route and headsign are there, not in the timetable.
    let updates: TripUpdates?

    /// The display names of the routes the journeys ride, worked out once each (thousands of
    /// journeys name a dozen routes, and a feed may have thousands).
    let names: [Int: String]

    init(_ timetable: Timetable, clock: ServiceClock, journeys: [Router.Journey] = [], updates: TripUpdates? = nil) {
        t = timetable
        self.clock = clock
        self.updates = updates
        var names: [Int: String] = [:]
        for journey in journeys {
            for leg in journey.legs where leg.isRide {
                let route = Self.route(of: leg, timetable, updates)
                if route >= 0 && names[route] == nil { names[route] = StopIndex.routeName(timetable, route) }
            }
        }
        self.names = names
    }

    func routeName(_ route: Int) -> String { route < 0 ? "unknown route" : names[route] ?? StopIndex.routeName(t, route) }

    /// The realtime instance a ride's run stands for, if any.
    func instance(_ leg: Router.Leg) -> TripUpdates.Instance? {
        guard let updates, leg.instance >= 0, leg.instance < updates.instances.count else { return nil }
        return updates.instances[leg.instance]
    }

    /// A ride's route (-1: an added trip on a route the feed does not have).
    static func route(of leg: Router.Leg, _ t: Timetable, _ updates: TripUpdates?) -> Int {
        if let updates, leg.instance >= 0, leg.instance < updates.instances.count { return updates.instances[leg.instance].route }
        guard let trip = leg.trip, trip >= 0, trip < t.tripCount else { return -1 }
        return Int(t.tripRoute[trip])
    }

    func route(_ leg: Router.Leg) -> Int { Self.route(of: leg, t, updates) }

    /// The alerts in force for a ride, where it boards or alights (or anywhere on its trip or route).
    func alerts(_ leg: Router.Leg) -> [ServiceAlert] {
        guard let updates, !updates.alerts.isEmpty, leg.isRide else { return [] }
        return updates.alerts(t, route: route(leg), trip: leg.trip ?? -1, tripID: tripID(leg), at: [leg.from, leg.to])
    }
    func tripID(_ leg: Router.Leg) -> String { instance(leg)?.tripID ?? leg.trip.map { t.tripIDs[$0] } ?? "" }
    func headsign(_ leg: Router.Leg) -> String { instance(leg)?.headsign ?? leg.trip.map { t.headsign($0) } ?? "" }

    /// A journey nobody takes: another leaves at most this much earlier (seconds)…
    static let unlikelyLeavesWithin = 5 * 60
    /// …arrives at least this much earlier, with no more changes. It is correct (it leaves
    /// later, so it is Pareto-optimal), and the table hides it unless `--all`.
    static let unlikelyArrivesBy = 10 * 60

    /// `journeys` (sorted by departure) without those another beats that clearly.
    static func withoutUnlikely(_ journeys: [Router.Journey]) -> [Router.Journey] {
        journeys.enumerated().filter { index, j in
            // Only journeys leaving earlier, and at most five minutes earlier, can beat it.
            var k = index - 1
            while k >= 0 && journeys[k].departure >= j.departure - unlikelyLeavesWithin {
                let other = journeys[k]
                if other.departure < j.departure && other.arrival <= j.arrival - unlikelyArrivesBy && other.transfers <= j.transfers { return false }
                k -= 1
            }
            return true
        }.map(\.element)
    }

    /// The Pareto set over departure and arrival only (`--fastest`): a journey goes when another
    /// leaves no earlier and arrives no later; of equal ones, the one with fewer changes stays.
    static func fastest(_ journeys: [Router.Journey]) -> [Router.Journey] {
        var kept: [Router.Journey] = []
        var earliestLater = Int.max
        // Latest departure first: a journey stays when it arrives before every later one does.
        for j in journeys.sorted(by: { ($0.departure, -$0.arrival, -$0.transfers) > ($1.departure, -$1.arrival, -$1.transfers) }) where j.arrival < earliestLater {
            kept.append(j)
            earliestLater = j.arrival
        }
        return kept.reversed()
    }

    func time(_ seconds: Int) -> Value { .time(clock.instant(seconds), t.zone) }

    /// Where a rider looks at a stop: its platform_code, else its stop_code; null without either.
    func platform(_ stop: Int) -> Value {
        let platform = t.stopPlatforms[stop], code = t.stopCodes[stop]
        return !platform.isEmpty ? .string(platform) : !code.isEmpty ? .string(code) : .null
    }

    func legRecord(_ leg: Router.Leg) -> Record {
        let ends: [(String, Value)] = [("from", .string(t.stopIDs[leg.from])), ("from_name", .string(t.stopNames[leg.from])),
                                       ("from_platform", platform(leg.from)),
                                       ("to", .string(t.stopIDs[leg.to])), ("to_name", .string(t.stopNames[leg.to])), ("to_platform", platform(leg.to)),
                                       ("departure", time(leg.departure.predicted)), ("arrival", time(leg.arrival.predicted))]
        switch leg.mode {
        case .ride(let trip, _, _, _, _):
            let route = self.route(leg), instance = instance(leg)
            // A frequencies.txt trip runs many times: its start time says which run (as
            // GTFS-Realtime's trip descriptor does), in the feed's HH:MM:SS.
            let frequency = trip >= 0 && trip < t.tripCount && t.tripIsFrequency[trip] != 0
            let run: [(String, Value)] = frequency ? [("trip_start", .string(ClockTime.gtfs(leg.runStart)))] : []
            // Planned and predicted: an added trip has no plan; a run without realtime data, no delay.
            let added = instance?.status == .added && instance?.trip ?? -1 < 0
            let realtime: [(String, Value)] = [
                ("planned_departure", added ? .null : time(leg.departure.planned)), ("planned_arrival", added ? .null : time(leg.arrival.planned)),
                ("departure_delay_seconds", instance == nil || added ? .null : .int(leg.departure.delay)),
                ("arrival_delay_seconds", instance == nil || added ? .null : .int(leg.arrival.delay)),
                ("realtime", .bool(instance != nil)), ("status", .string(instance == nil ? "scheduled" : added ? "added" : "updated")),
                ("alerts", .list(alerts(leg).map { .string($0.id) })),
            ]
            return Record([("route", .string(routeName(route))), ("route_id", route >= 0 ? .string(t.routeIDs[route]) : .null),
                           ("trip_id", .string(tripID(leg))), ("headsign", .string(headsign(leg)))] + run + ends + realtime)
        case .walk(let meters):
            return Record([("route", .null), ("route_id", .null), ("trip_id", .null), ("headsign", .null)] + ends
                          + [("walk_meters", .int(Int(meters.rounded())))])
        }
    }

    func routes(_ journey: Router.Journey) -> String {
        journey.legs.filter(\.isRide).map { routeName(route($0)) }.joined(separator: " > ")
    }

    /// `Local toward San Jose → walk 50 m → Bullet toward …`: the rides and walks in order.
    func description(_ journey: Router.Journey) -> String {
        journey.legs.map { leg in
            switch leg.mode {
            case .ride:
                let headsign = headsign(leg)
                return routeName(route(leg)) + (headsign.isEmpty ? "" : " toward \(headsign)") + (alerts(leg).isEmpty ? "" : " !")
            case .walk(let meters):
                return "walk \(Int(meters.rounded())) m"
            }
        }.joined(separator: " → ")
    }

    /// The rides after the first: where each is boarded (a station's name for its platforms).
    func changes(_ journey: Router.Journey) -> [Router.Leg] { Array(journey.legs.filter(\.isRide).dropFirst()) }

    func stationName(_ stop: Int) -> String {
        let parent = Int(t.stopParent[stop])
        return parent >= 0 ? t.stopNames[parent] : t.stopNames[stop]
    }

    /// `Market 07:06`: where and when each change boards, first thing a rider needs.
    func changeAt(_ journey: Router.Journey) -> String {
        changes(journey).map { "\(stationName($0.from)) \(ClockTime.hhmm(clock.instant($0.departure.predicted), zone: t.zone))" }
            .joined(separator: ", ")
    }

    func output(_ journeys: [Router.Journey], notices: [String]) -> Output {
        @Sendable func stop(_ leg: Router.Leg?, first: Bool) -> Value {
            guard let leg else { return .null }
            return .string(t.stopIDs[first ? leg.from : leg.to])
        }
        let departure = Column<Router.Journey>("departure", "DEPART") { time($0.departure) }
        let arrival = Column<Router.Journey>("arrival", "ARRIVE") { time($0.arrival) }
        let duration = Column<Router.Journey>("duration_minutes", "MIN") { .int(($0.arrival - $0.departure) / 60) }
        let transfers = Column<Router.Journey>("transfers", "CHG") { .int($0.transfers) }
        let data: [Column<Router.Journey>] = [
            Column("origin") { stop($0.legs.first, first: true) }, Column("destination") { stop($0.legs.last, first: false) },
            departure, arrival, duration, transfers,
            Column("legs", in: .json) { .list($0.legs.map { .object(legRecord($0)) }) },
            Column("routes", in: .flat) { .string(routes($0)) },
            Column("change_at", in: .flat) { .string(changes($0).map { stationName($0.from) }.joined(separator: " > ")) },
        ]
        let change = Column<Router.Journey>("change_at", "CHANGE AT") { .string(changeAt($0)) }
        let journey = Column<Router.Journey>("journey", "JOURNEY") { .string(description($0)) }
        // The table marks a time on a later calendar day than the service day (`00:40+1`).
        let day = clock.day, zone = t.zone
        // With realtime data, a time off its plan says by how much: `08:04 +4`.
        @Sendable func shown(_ seconds: Int, _ time: LegTime?) -> Value {
            let text = ClockTime.hhmm(clock.instant(seconds), zone: zone, on: day)
            guard updates != nil, let time, time.delay != 0 else { return .string(text) }
            let minutes = (time.delay >= 0 ? time.delay + 30 : time.delay - 30) / 60
            return .string(minutes == 0 ? text : text + (minutes > 0 ? " +\(minutes)" : " \(minutes)"))
        }
        let depart = Column<Router.Journey>("departure", "DEPART") { shown($0.departure, $0.legs.first(where: \.isRide)?.departure) }
        let arrive = Column<Router.Journey>("arrival", "ARRIVE") { shown($0.arrival, $0.legs.last(where: \.isRide)?.arrival) }
        var output = Output(journeys, data: data, table: [depart, arrive, duration, transfers, change, journey], notices: notices)
        // A journey as a line through the stops it calls at, its JSON record as properties.
        output.geoJSON { records in GeoJSON.points([], lines: zip(records, journeys).map { (properties: $0, coordinates: path($1)) }) }
        return output
    }

    /// (latitude, longitude) of every call of a journey's rides, and the two ends of its walks;
    /// stops without coordinates are left out.
    func path(_ journey: Router.Journey) -> [(Double, Double)] {
        var stops: [Int] = []
        for leg in journey.legs {
            switch leg.mode {
            case .ride:
                stops += leg.calls
            case .walk:
                stops += [leg.from, leg.to]
            }
        }
        var points: [(Double, Double)] = []
        for stop in stops where !t.stopLat[stop].isNaN && !t.stopLon[stop].isNaN {
            let point = (t.stopLat[stop], t.stopLon[stop])
            if let last = points.last, last == point { continue }
            points.append(point)
        }
        return points
    }
}
