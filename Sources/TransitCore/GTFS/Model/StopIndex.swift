import Foundation

/// What the user typed as a stop, to stop indices: a stop_id or stop_code (a station standing
/// for its stops), else a name matched as BART's station names are: exact, then the start of a
/// name, then inside one; a name several stops share means all of them.
struct StopIndex {
    let t: Timetable
    /// Each station's stops, worked out once for every name resolved.
    let children: StationChildren

    init(_ timetable: Timetable) {
        t = timetable
        children = StationChildren(timetable)
    }

    func resolve(_ typed: String) throws(TransitError) -> [Int] {
        let text = typed.trimmingCharacters(in: .whitespaces)
        let expand = children.expand
        if let stop = t.stopIDs.indices(of: text).first { return expand(stop) }
        let coded = text.isEmpty ? [] : t.stopCodes.indices(of: text)
        if !coded.isEmpty { return Array(Set(coded.flatMap(expand))).sorted() }
        // One candidate per distinct name: stations and the stops that stand alone.
        var byName: [String: (first: Int, stops: [Int])] = [:]
        var order: [String] = []
        for stop in 0..<t.stopCount where t.stopParent[stop] < 0 && !t.stopNames[stop].isEmpty {
            let key = NameMatcher<Int>.normalize(t.stopNames[stop])
            if byName[key] == nil { order.append(key) }
            byName[key, default: (stop, [])].stops += expand(stop)
        }
        let candidates = order.compactMap { key -> NameMatcher<[Int]>.Candidate? in
            guard let group = byName[key] else { return nil }
            return NameMatcher<[Int]>.Candidate(code: t.stopIDs[group.first], names: [t.stopNames[group.first]], value: Array(Set(group.stops)).sorted())
        }
        return try NameMatcher(kind: "stop", candidates: candidates).match(text)
    }

    /// The routes calling at each stop, a station gathering its stops' routes.
    static func routesByStop(_ t: Timetable) -> [[Int]] {
        var sets = [Set<Int>](repeating: [], count: t.stopCount)
        for q in 0..<t.patternCount {
            let first = Int(t.patternTripStart[q])
            guard first < Int(t.patternTripStart[q + 1]) else { continue }
            let route = Int(t.tripRoute[Int(t.patternTrips[first])])
            for i in Int(t.patternStopStart[q])..<Int(t.patternStopStart[q + 1]) {
                let stop = Int(t.patternStops[i])
                sets[stop].insert(route)
                let parent = Int(t.stopParent[stop])
                if parent >= 0 { sets[parent].insert(route) }
            }
        }
        return sets.map { $0.sorted() }
    }

    /// A route's short name, else its long name, else its id.
    static func routeName(_ t: Timetable, _ route: Int) -> String {
        let short = t.routeShortName[route].trimmingCharacters(in: .whitespaces)
        if !short.isEmpty { return short }
        let long = t.routeLongName[route].trimmingCharacters(in: .whitespaces)
        return long.isEmpty ? t.routeIDs[route] : long
    }
}

/// Journeys as columns: JSON with every leg, tsv/csv with the routes joined by `>`, and a
/// table row per journey with its changes written out.
struct JourneyLayout {
    let t: Timetable
    let clock: ServiceClock

    init(_ timetable: Timetable, clock: ServiceClock) {
        t = timetable
        self.clock = clock
    }

    func time(_ seconds: Int) -> Value { .time(clock.instant(seconds), t.zone) }

    func legRecord(_ leg: Router.Leg) -> Record {
        switch leg {
        case .ride(let trip, _, let from, let to, _, _, let departure, let arrival):
            let route = Int(t.tripRoute[trip])
            return Record([("route", .string(StopIndex.routeName(t, route))), ("route_id", .string(t.routeIDs[route])),
                           ("trip_id", .string(t.tripIDs[trip])), ("headsign", .string(t.headsign(trip))),
                           ("from", .string(t.stopIDs[from])), ("to", .string(t.stopIDs[to])),
                           ("departure", time(departure)), ("arrival", time(arrival))])
        case .walk(let from, let to, let departure, let arrival, let meters):
            return Record([("route", .null), ("route_id", .null), ("trip_id", .null), ("headsign", .null),
                           ("from", .string(t.stopIDs[from])), ("to", .string(t.stopIDs[to])),
                           ("departure", time(departure)), ("arrival", time(arrival)), ("walk_meters", .int(Int(meters.rounded())))])
        }
    }

    func routes(_ journey: Router.Journey) -> String {
        journey.legs.compactMap { leg -> String? in
            guard case .ride(let trip, _, _, _, _, _, _, _) = leg else { return nil }
            return StopIndex.routeName(t, Int(t.tripRoute[trip]))
        }.joined(separator: " > ")
    }

    /// `Local toward San Jose, change at Millbrae 08:12 to Bullet toward …`.
    func description(_ journey: Router.Journey) -> String {
        var parts: [String] = []
        for leg in journey.legs {
            switch leg {
            case .ride(let trip, _, let from, _, _, _, let departure, _):
                let ride = StopIndex.routeName(t, Int(t.tripRoute[trip])) + (t.headsign(trip).isEmpty ? "" : " toward \(t.headsign(trip))")
                parts.append(parts.isEmpty ? ride : "change at \(t.stopNames[from]) \(ClockTime.hhmm(clock.instant(departure), zone: t.zone)) to \(ride)")
            case .walk(_, let to, _, _, let meters):
                parts.append("walk \(Int(meters.rounded())) m to \(t.stopNames[to])")
            }
        }
        return parts.joined(separator: ", ")
    }

    func output(_ journeys: [Router.Journey], notices: [String]) -> Output {
        @Sendable func stop(_ leg: Router.Leg?, first: Bool) -> Value {
            switch leg {
            case .ride(_, _, let from, let to, _, _, _, _)?: return .string(t.stopIDs[first ? from : to])
            case .walk(let from, let to, _, _, _)?: return .string(t.stopIDs[first ? from : to])
            case nil: return .null
            }
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
        ]
        let journey = Column<Router.Journey>("journey", "JOURNEY") { .string(description($0)) }
        return Output(journeys, data: data, table: [departure, arrival, duration, transfers, journey], notices: notices)
    }
}
