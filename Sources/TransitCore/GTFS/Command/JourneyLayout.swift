import Foundation
import TransitSupport
import TransitGTFS

/// Journeys as columns: JSON with every leg, tsv/csv with the routes joined by `>`, and a
/// table row per journey with its changes written out.
///
/// A class: every column's closure calls its methods, and on a struct of 400 bytes each call
/// copied it (a whole day's answer: 100,000 copies; issue 67). Set up (`geometry`,
/// `alternatives`, `shaping`) before its output is made, and only read after: hence
/// `@unchecked Sendable`, as the closures of the output are.
final class JourneyLayout: @unchecked Sendable {
    let t: Timetable
    /// `t.stopCount`, read once: every call of a `Timetable` method from here copies its 424
    /// bytes first, and every time written asks whether its stop is one (issue 67).
    let stopCount: Int
    let clock: ServiceClock
    /// The realtime data the journeys were planned on, when there was any: an added trip's id,
    /// route and headsign are there, not in the timetable.
    let updates: TripUpdates?
    /// Ends given as `LAT,LON` (stop -1 of a leg is such a point), as typed, and where they are.
    let points: (from: (text: String, at: Coordinate)?, to: (text: String, at: Coordinate)?)

    /// The display names of the routes the journeys ride, worked out once each (thousands of
    /// journeys name a dozen routes, and a feed may have thousands).
    let names: [Int: String]
    /// Each feed's zone, made once (a `TimeZone` made from its name is a lookup behind a lock,
    /// and every time of every leg asks).
    let zones: [TimeZone]
    /// The id and name of each stop a leg starts or ends at, made once (a name longer than 15
    /// bytes is an allocation each time a String is made of it, and JSON writes two per leg).
    let stops: [Int: (id: String, name: String)]
    /// The feed's fares (Fares v1 or v2), when it has any: each journey is priced with them. Made when
    /// a format first prices (JSON, the table): tsv and `gtfs trip` never pay for BART's 2,500.
    let fares: Deferred<FareTable?>
    /// `--rider` named the category priced for (else the feed's default, or its fares' own prices).
    let riderAsked: Bool
    /// `--stops`: a ride's trip's calls, as the search's schedule has them (`Router.calls(of:added:)`);
    /// nil: legs carry no calls.
    let rideCalls: RideCallSource?
    /// The texts of the stops calls are written at (`callRecord`).
    let callStops = CallStops()
    /// `--geometry`: each leg's line in JSON, an encoded polyline.
    var geometry = false
    /// `--alternatives`: the journeys to take if a ride after the first is missed, by the ride
    /// missed (`MissedRide`); empty: none asked.
    var alternatives: [MissedRide: [Router.Journey]] = [:] {
        didSet { alertSelection = Self.alerts(shownIn: journeys + alternatives.values.joined(), t, updates) }
    }
    /// The journeys laid out, and the alerts their rides show (bounded: `AlertSelection`).
    private let journeys: [Router.Journey]
    private(set) var alertSelection: AlertSelection
    /// The rider's needs (`--wheelchair`, `--buffer`, `--via`, …), where asked: JSON says each
    /// change's time and margin, and with `--wheelchair` where step-free is not known; the
    /// table's CHANGE AT names the vias passed seated.
    var shaping: Shaping?

    struct Shaping: Sendable {
        /// What each change of the journeys needs, by the router's rules (`Router.changeSeconds`),
        /// by `key(from:to:)`; absent: forbidden, or not joined.
        let changes: [String: Int]
        let wheelchair: Bool
        /// Each `--via`'s stops.
        let vias: [Set<Int>]
        /// Do the query's points (`LAT,LON` ends) join the map's step-free streets?
        var pointsJoin = (origin: false, destination: false)

        init(_ journeys: [Router.Journey], router: Router, wheelchair: Bool, vias: [Set<Int>]) {
            var changes: [String: Int] = [:]
            for journey in journeys {
                let rides = journey.legs.filter(\.isRide)
                for (previous, ride) in zip(rides, rides.dropFirst()) {
                    changes[Self.key(from: previous, to: ride)] = router.changeSeconds(from: previous, to: ride)
                }
            }
            (self.changes, self.wheelchair, self.vias) = (changes, wheelchair, vias)
        }

        static func key(from previous: Router.Leg, to ride: Router.Leg) -> String {
            "\(previous.trip ?? -1)@\(previous.runStart) \(previous.to) \(previous.arrival.predicted) > \(ride.trip ?? -1)@\(ride.runStart) \(ride.from) \(ride.departure.predicted)"
        }
    }

    /// Each walk's line along the streets it follows, by (from, to) stop (-1: the point), where
    /// it was measured on a map and the caller wants it drawn (`--format geojson`).
    private(set) var streetLines: [Int64: [Coordinate]] = [:]

    /// `streets`: the map the journeys' walks were measured on, to draw them along its streets.
    /// `rider`: the rider category journeys are priced for (an index of `riderCategoryIDs`).
    init(_ timetable: Timetable, clock: ServiceClock, journeys: [Router.Journey] = [], updates: TripUpdates? = nil,
         from: QueryEnds.Place? = nil, to: QueryEnds.Place? = nil, streets: StreetWalker? = nil, rider: Int? = nil,
         rideCalls: RideCallSource? = nil) {
        self.rideCalls = rideCalls
        self.journeys = journeys
        alertSelection = Self.alerts(shownIn: journeys, timetable, updates)
        t = timetable
        stopCount = timetable.stopCount
        self.clock = clock
        self.updates = updates
        func point(_ place: QueryEnds.Place?) -> (text: String, at: Coordinate)? {
            place?.point.map { ($0.text.replacingOccurrences(of: " ", with: ""), $0.at) }
        }
        points = (point(from), point(to))
        var names: [Int: String] = [:]
        for journey in journeys {
            for leg in journey.legs where leg.isRide {
                let route = leg.route(timetable, updates)
                if route >= 0 && names[route] == nil { names[route] = StopIndex.routeName(timetable, route) }
            }
        }
        self.names = names
        var stops: [Int: (id: String, name: String)] = [:]
        for journey in journeys {
            for leg in journey.legs {
                for stop in [leg.from, leg.to] where stop >= 0 && stop < timetable.stopCount && stops[stop] == nil {
                    let record = timetable.stop(stop)
                    stops[stop] = (record.id, record.name)
                }
            }
        }
        self.stops = stops
        fares = Deferred { FareTable(timetable, rider: rider, clock: clock, updates: updates) }
        riderAsked = rider != nil
        zones = timetable.isCombination ? (0..<timetable.feedCount).map(timetable.zone(ofFeed:)) : [timetable.zone]
        if let streets {
            for journey in journeys {
                for leg in journey.legs {
                    guard case .walk(let meters) = leg.mode, streetLines[TransferEdges.key(leg.from, leg.to)] == nil,
                          let a = place(leg.from, origin: true), let b = place(leg.to, origin: false),
                          let line = streets.path(from: a, to: b, limit: meters + 1) else { continue }
                    streetLines[TransferEdges.key(leg.from, leg.to)] = line
                }
            }
        }
    }

    func routeName(_ route: Int) -> String { Self.routeName(route, t, names) }
    static func routeName(_ route: Int, _ t: Timetable, _ names: [Int: String]) -> String {
        route < 0 ? "unknown route" : names[route] ?? StopIndex.routeName(t, route)
    }

    func instance(_ leg: Router.Leg) -> TripUpdates.Instance? { leg.instance(updates) }
    func route(_ leg: Router.Leg) -> Int { leg.route(t, updates) }

    /// The ids of the alerts in force for a ride, where it boards or alights (or anywhere on its
    /// trip or route), of those the answer shows.
    func alerts(_ leg: Router.Leg) -> [String] {
        guard let updates, leg.isRide else { return [] }
        return alertSelection.ids(Self.alertRow(leg, t, updates))
    }

    private static func alertRow(_ leg: Router.Leg, _ t: Timetable, _ updates: TripUpdates?) -> AlertSelection.Row {
        .init(route: leg.route(t, updates), trip: leg.trip ?? -1, tripID: leg.tripID(t, updates), stops: [leg.from, leg.to])
    }

    private static func alerts(shownIn journeys: some Sequence<Router.Journey>, _ t: Timetable, _ updates: TripUpdates?) -> AlertSelection {
        guard let updates, updates.hasActiveAlerts else { return AlertSelection(nil, t, rows: []) }
        return AlertSelection(updates, t, rows: journeys.flatMap { $0.legs.filter(\.isRide).map { alertRow($0, t, updates) } })
    }
    func tripID(_ leg: Router.Leg) -> String { leg.tripID(t, updates) }
    /// The trip_id; for a run of another service day than the query's `@` that day
    /// (`1250115@2022-10-13`); for a run of a frequencies.txt trip `@` its start
    /// (`M1-WK-E@08:06:00`, `M1-WK-E@2026-11-24@06:00:00`). As tsv's trip_ids list it: `%`, `>`
    /// and `@` of the id percent-encoded (`ListedID`).
    func runID(_ leg: Router.Leg) -> String { Self.runID(leg, t, updates, day: clock.day) }

    // The lists a row of tsv writes a ride at a time are static, on the timetable they are
    // given: a column's closure hands them the one it captured, by its address, where a method
    // reading `self.t` of this class handed each `Timetable` call a copy of its 424 bytes first
    // (at every ride of every row: 31 M of dense81's whole day, issue 67).

    static func runID(_ leg: Router.Leg, _ t: Timetable, _ updates: TripUpdates?, day: LocalDate) -> String {
        var id = ListedID.encode(leg.tripID(t, updates))
        if leg.dayOffset != 0 { id += "@" + day.adding(days: leg.dayOffset).iso }
        guard let trip = leg.trip, t.isFrequency(trip: trip) else { return id }
        return id + "@" + ClockTime.gtfs(leg.runStart)
    }

    /// `STOP@HH:MM:SS > …`: each ride's boarding stop_id and planned departure on the clock of
    /// its run's service day (past 24:00 as GTFS writes it).
    func boarding(_ journey: Router.Journey) -> String { Self.boarding(journey, t, day: clock.day) }
    static func boarding(_ journey: Router.Journey, _ t: Timetable, day: LocalDate) -> String {
        rides(of: journey) { leg, text in
            // (The query's own day: no clock worked out, a zone's offsets cost on Linux.)
            let shift = leg.dayOffset == 0 ? 0 : Int(DaysSchedule<DaySchedule>.shift(from: day, days: leg.dayOffset, in: t.zone))
            text += ListedID.encode(t.stopID(leg.from))
            text += "@"
            text += ClockTime.gtfs(leg.departure.planned - shift)
        }
    }

    /// What `write` appends for each ride of the journey (after its first, `skip` of them), joined
    /// with ` > `, as tsv's lists are: into one string, with no array of rides or of parts (a
    /// whole day's answer writes four such lists a row).
    static func rides(of journey: Router.Journey, skip: Int = 0, _ write: (Router.Leg, inout String) -> Void) -> String {
        var text = "", seen = 0
        for leg in journey.legs where leg.isRide {
            seen += 1
            if seen <= skip { continue }
            if seen > skip + 1 { text += " > " }
            write(leg, &text)
        }
        return text
    }

    /// The service day a ride's run is of.
    func serviceDay(_ leg: Router.Leg) -> LocalDate { clock.day.adding(days: leg.dayOffset) }
    func headsign(_ leg: Router.Leg) -> String { leg.headsign(t, updates) }

    /// The most calls an answer writes a line or a point for (`--stops`, `--geometry`, GeoJSON):
    /// a day of one trip of 10,000 calls every 20 s was 43 million, built in memory before a byte
    /// was written (5.3 GB; issue 62). Past it the answer is refused, saying how to narrow it.
    static let maxCallsWritten = 1_000_000

    static func checkCallsWritten(_ journeys: [Router.Journey], what: String) throws(TransitError) {
        var calls = 0
        for journey in journeys {
            for leg in journey.legs {
                if case .ride(_, _, _, let from, let to) = leg.mode { calls += max(0, to - from) + 1 } else { calls += 2 }
            }
            guard calls <= maxCallsWritten else {
                throw .usage("\(what) would write more than \(Numbers.grouped(maxCallsWritten)) calls (the bound) for \(journeys.count) journeys: narrow it with --limit, --after or --before")
            }
        }
    }

    /// A journey nobody takes: another leaves at most this much earlier (seconds)…
    static let unlikelyLeavesWithin = 5 * 60
    /// …arrives at least this much earlier, with no more changes. It is correct (it leaves
    /// later, so it is Pareto-optimal), and the table hides it unless `--all`.
    static let unlikelyArrivesBy = 10 * 60

    /// The positions in `journeys` (sorted by departure) of those no other beats clearly. Whether
    /// one is kept depends only on the journeys before it: the first N kept of a longer list are
    /// the first N kept of the whole.
    static func likely(_ journeys: [Router.Journey]) -> [Int] {
        journeys.enumerated().filter { index, j in
            // A journey on foot leaves at any time: it neither hides nor is hidden.
            if j.isOnFoot { return true }
            // Only journeys leaving earlier, and at most five minutes earlier, can beat it.
            var k = index - 1
            while k >= 0 && journeys[k].departure >= j.departure - unlikelyLeavesWithin {
                let other = journeys[k]
                if !other.isOnFoot && other.departure < j.departure && other.arrival <= j.arrival - unlikelyArrivesBy && other.transfers <= j.transfers { return false }
                k -= 1
            }
            return true
        }.map(\.offset)
    }

    /// A time at a stop, in the zone of the stop's feed (a combination's feeds may differ; a
    /// point, stop -1, is on the query's clock).
    func time(_ seconds: Int, at stop: Int) -> Value { .time(clock.instant(seconds), zone(at: stop)) }
    func zone(at stop: Int) -> TimeZone {
        guard stop >= 0 && stop < stopCount else { return clock.zone }
        let feed = zones.count == 1 ? 0 : t.feed(ofStop: stop)
        return feed >= 0 && feed < zones.count ? zones[feed] : t.zone(ofStop: stop)
    }

    /// A time as tables show it, `08:04`, on a later calendar day `00:40+1`, and with the delay
    /// it carries (seconds) where that is a minute or more: `08:04 +4`.
    func clockText(_ seconds: Int, at stop: Int, delay: Int?) -> String {
        let text = ClockTime.hhmm(clock.instant(seconds), zone: zone(at: stop), on: clock.day)
        guard let delay else { return text }
        let minutes = Self.minutes(delay)
        return minutes == 0 ? text : text + (minutes > 0 ? " +\(minutes)" : " \(minutes)")
    }

    /// A delay in whole minutes, rounded to the nearest (half away from zero), as tables show it.
    static func minutes(_ delay: Int) -> Int { (delay >= 0 ? delay + 30 : delay - 30) / 60 }

    /// Where a rider looks at a stop: its platform_code, else its stop_code; null without either.
    func platform(_ stop: Int) -> Value { Self.platform(stop, t) }
    static func platform(_ stop: Int, _ t: Timetable) -> Value {
        let platform = t.stopPlatform(stop), code = t.stopCode(stop)
        return !platform.isEmpty ? .string(platform) : !code.isEmpty ? .string(code) : .null
    }

    /// A leg's end: a stop's id, or the point as typed (stop -1 is the origin's point on a
    /// first leg, the destination's on a last).
    func endID(_ stop: Int, origin: Bool) -> String {
        stop >= 0 ? stops[stop]?.id ?? t.stopID(stop) : (origin ? points.from?.text : points.to?.text) ?? ""
    }

    /// A leg's end by name: a stop's name, or the point as typed.
    func endName(_ stop: Int, origin: Bool) -> String {
        stop >= 0 ? stops[stop]?.name ?? t.stop(stop).name : endID(-1, origin: origin)
    }

    /// Where an end is: a stop's coordinates, or the point's.
    func place(_ stop: Int, origin: Bool) -> Coordinate? {
        stop >= 0 && stop < stopCount ? t.coordinate(ofStop: stop) : (origin ? points.from?.at : points.to?.at)
    }

    func legRecord(_ leg: Router.Leg) -> Record { legRecord(leg, t) }

    /// (The timetable handed in: one copy of its 424 bytes a leg, where each `Timetable` call
    /// on `self.t` copied it, a dozen a ride; `runID`'s comment says why.)
    private func legRecord(_ leg: Router.Leg, _ t: Timetable) -> Record {
        // One array, in the order printed (joining four made a copy of each).
        var fields: [(String, Value)] = []
        fields.reserveCapacity(24)
        let ride: (route: Int, status: RealtimeStatus)?
        if case .ride = leg.mode {
            let route = leg.route(t, updates), instance = instance(leg)
            ride = (route, updates?.rideStatus(ofInstance: instance == nil ? -1 : leg.instance) ?? .scheduled)
            fields += [("route", .string(Self.routeName(route, t, names))), ("route_id", route >= 0 ? .string(t.routeID(route)) : .null),
                       ("trip_id", .string(leg.tripID(t, updates))), ("headsign", .string(leg.headsign(t, updates))), ("service_day", .string(serviceDay(leg).iso))]
            // A frequencies.txt trip runs many times: its start time says which run (as
            // GTFS-Realtime's trip descriptor does), in the feed's HH:MM:SS.
            if let trip = leg.trip, t.isFrequency(trip: trip) {
                fields.append(("trip_start", .string(ClockTime.gtfs(leg.runStart))))
            }
        } else {
            ride = nil
            fields += [("route", .null), ("route_id", .null), ("trip_id", .null), ("headsign", .null), ("service_day", .null)]
        }
        fields += [("mode", .string(leg.isRide ? "ride" : "walk")),
                   ("from", .string(endID(leg.from, origin: true))), ("from_name", .string(endName(leg.from, origin: true))),
                   ("from_platform", leg.from >= 0 ? Self.platform(leg.from, t) : .null),
                   ("to", .string(endID(leg.to, origin: false))), ("to_name", .string(endName(leg.to, origin: false))),
                   ("to_platform", leg.to >= 0 ? Self.platform(leg.to, t) : .null),
                   ("departure", time(leg.departure.predicted, at: leg.from)), ("arrival", time(leg.arrival.predicted, at: leg.to))]
        if let ride {
            // Planned and predicted: an added trip has no plan; a run without realtime data, no delay.
            let added = ride.status == .added, delays = ride.status == .updated
            fields += [("planned_departure", added ? .null : time(leg.departure.planned, at: leg.from)),
                       ("planned_arrival", added ? .null : time(leg.arrival.planned, at: leg.to)),
                       ("departure_delay_seconds", delays ? .int(leg.departure.delay) : .null),
                       ("arrival_delay_seconds", delays ? .int(leg.arrival.delay) : .null),
                       ("realtime", .bool(ride.status.isRealtime)), ("status", .string(ride.status.rawValue)),
                       ("alerts", .list(alerts(leg).map(Value.string)))]
            // --stops: every call from boarding to alighting, with gtfs trip's fields.
            if let stops = callValues(leg) { fields.append(("stops", stops)) }
        } else {
            fields += [("walk_meters", .int(Int(meters(leg).rounded()))),
                       // The walk itself, as the router timed it (a change also needs --min-transfer).
                       ("walk_seconds", .int(leg.arrival.predicted - leg.departure.predicted))]
        }
        // --geometry: the leg's line as GeoJSON draws it, an encoded polyline (precision 5).
        if geometry { fields.append(("geometry", .string(Polyline.encode(line(leg).map { (latitude: $0.0, longitude: $0.1) })))) }
        return Record(fields)
    }

    /// A walk's length, as the router measured it (between stops, and from or to a point: a
    /// straight line, or a map's streets).
    func meters(_ leg: Router.Leg) -> Double {
        guard case .walk(let meters) = leg.mode else { return 0 }
        return meters
    }

    func routes(_ journey: Router.Journey) -> String { Self.routes(journey, t, updates, names) }
    static func routes(_ journey: Router.Journey, _ t: Timetable, _ updates: TripUpdates?, _ names: [Int: String]) -> String {
        rides(of: journey) { leg, text in text += routeName(leg.route(t, updates), t, names) }
    }

    /// `Local toward San Jose → walk 50 m → Bullet toward …`: the rides and walks in order.
    /// `toward`: false leaves out where each ride heads (the table's shorter form, for a narrow
    /// terminal: the line's name is what a rider boards by).
    func description(_ journey: Router.Journey, toward: Bool = true) -> String {
        journey.legs.map { leg in
            switch leg.mode {
            case .ride:
                let headsign = toward ? headsign(leg) : ""
                return routeName(route(leg)) + (headsign.isEmpty ? "" : " toward \(headsign)") + (alerts(leg).isEmpty ? "" : " !")
            case .walk:
                return "walk \(Int(meters(leg).rounded())) m"
            }
        }.joined(separator: " → ")
    }

    /// The rides after the first: where each is boarded (a station's name for its platforms).
    func changes(_ journey: Router.Journey) -> [Router.Leg] { Array(journey.legs.filter(\.isRide).dropFirst()) }

    func stationName(_ stop: Int) -> String { t.stationName(ofStop: stop) }

    /// `Market 07:06`: where and when each change boards, first thing a rider needs.
    func changeAt(_ journey: Router.Journey) -> String {
        func change(_ ride: Router.Leg) -> String { "\(stationName(ride.from)) \(ClockTime.hhmm(clock.instant(ride.departure.predicted), zone: zone(at: ride.from)))" }
        guard let vias = shaping?.vias, !vias.isEmpty else { return changes(journey).map(change).joined(separator: ", ") }
        // In journey order: each change, and each via a ride passes seated.
        var parts: [String] = []
        for (k, ride) in journey.legs.filter(\.isRide).enumerated() {
            if k > 0 { parts.append(change(ride)) }
            for stop in ride.calls.dropFirst().dropLast() where vias.contains(where: { $0.contains(stop) }) { parts.append("via " + stationName(stop)) }
        }
        return parts.joined(separator: ", ")
    }

    /// `namesRider`: a notice says who the prices are for where `--rider` did not (the table).
    func output(_ journeys: [Router.Journey], notices: [String], namesRider: Bool = false) -> Output {
        @Sendable func stop(_ leg: Router.Leg?, first: Bool) -> Value {
            guard let leg else { return .null }
            return .string(first ? endID(leg.from, origin: true) : endID(leg.to, origin: false))
        }
        let departure = Column<Router.Journey>("departure", "DEPART") { [self] in time($0.departure, at: $0.legs.first?.from ?? -1) }
        let arrival = Column<Router.Journey>("arrival", "ARRIVE") { [self] in time($0.arrival, at: $0.legs.last?.to ?? -1) }
        let duration = Column<Router.Journey>("duration_minutes", "MIN") { .int(($0.arrival - $0.departure) / 60) }
        let transfers = Column<Router.Journey>("transfers", "CHG") { .int($0.transfers) }
        var data: [Column<Router.Journey>] = [
            Column("origin") { stop($0.legs.first, first: true) }, Column("destination") { stop($0.legs.last, first: false) },
            departure, arrival, duration, transfers,
            // A journey on foot is taken at any time: its departure is the window's start.
            Column("any_time", in: .json) { .bool($0.isOnFoot) },
            Column("legs", in: .json) { [self] in .list(legRecords($0)) },
            // (The timetable captured: `runID`'s comment says why.)
            Column("routes", in: .flat) { [t, updates, names] in .string(Self.routes($0, t, updates, names)) },
            Column("change_at", in: .flat) { [t] in .string(Self.rides(of: $0, skip: 1) { leg, text in text += ListedID.encode(t.stationName(ofStop: leg.from)) }) },
            // Each ride's trip_id (what `gtfs trip` takes), joined with >: last, so that a
            // script's columns before it stay where they were.
            // A run of a frequencies.txt trip as trip_id@HH:MM:SS (its start), as gtfs journey takes it.
            Column("trip_ids", in: .flat) { [t, updates, day = clock.day] in .string(Self.rides(of: $0) { leg, text in text += Self.runID(leg, t, updates, day: day) }) },
        ]
        // Where to change and the lines to take are never cut: they wrap (issue 44).
        let change = Column<Router.Journey>("change_at", "CHANGE AT") { [self] in .string(changeAt($0)) }.wrapping()
        let journey = Column<Router.Journey>("journey", "JOURNEY") { [self] in .string(description($0)) }
            .wrapping { [self] in .string(description($0, toward: false)) }
        // The table marks a time on a later calendar day than the service day (`00:40+1`).
        let day = clock.day
        // With realtime data, a time off its plan says by how much: `08:04 +4`.
        @Sendable func shown(_ seconds: Int, at stop: Int, _ time: LegTime?) -> Value {
            .string(clockText(seconds, at: stop, delay: updates == nil ? nil : time?.delay))
        }
        // A journey on foot: DEPART any, no ARRIVE (MIN says how long).
        let depart = Column<Router.Journey>("departure", "DEPART") {
            $0.isOnFoot ? .string("any") : shown($0.departure, at: $0.legs.first?.from ?? -1, $0.legs.first(where: \.isRide)?.departure)
        }.whole()
        let arrive = Column<Router.Journey>("arrival", "ARRIVE") {
            $0.isOnFoot ? .string("") : shown($0.arrival, at: $0.legs.last?.to ?? -1, $0.legs.last(where: \.isRide)?.arrival)
        }.whole()
        // Where to board: the first ride's station; after a walk first (from a point, or from the
        // stop named to one near it), with the time the ride boards, as DEPART says when to leave.
        let board = Column<Router.Journey>("from", "FROM") { [self] j in
            guard let ride = j.legs.first(where: \.isRide) else { return .string("") }
            let station = stationName(ride.from)
            guard j.legs.first?.isRide == false else { return .string(station) }
            return .string(station + " " + ClockTime.hhmm(clock.instant(ride.departure.predicted), zone: zone(at: ride.from), on: day))
        }.wrapping()
        // At 80 columns every row keeps its times, where to board and change, and each line's
        // name: where the rides head gives way first, then the names wrap.
        // No journey changes: no CHANGE AT column (CHG says 0), its room to the line names.
        let changes = journeys.contains { $0.legs.filter(\.isRide).count > 1 }
        var table = [depart, arrive, duration, transfers, board] + (changes ? [change] : []) + [journey]
        if t.hasFares {
            // Priced where the feed has fares: JSON's `fare`, the table's PRICE (`?` when some
            // ride has none: never a partial sum).
            let fares = self.fares
            // (A journey on foot: no fare, null.) Each price's object is written once, at the
            // depth of a journey's field in JSON's list (`Value.encoded`).
            // (By the price's hash, as `FareTable`'s prices are kept, and for the same reason.)
            let written = Locked<[Int: [(price: FareTable.Price, value: Value)]]>([:])
            data.append(Column("fare", in: .json) { journey in
                guard !journey.isOnFoot, let table = fares.value else { return .null }
                let price = table.price(journey)
                let hash = price.hashValue
                if let value = written.withLock({ $0[hash]?.first { $0.price == price }?.value }) { return value }
                let value = Value.encoded(EncodedJSON(Self.fareValue(price, rider: table.rider), indent: 2))
                written.withLock { $0[hash, default: []].append((price, value)) }
                return value
            })
            table.insert(Column("price", "PRICE") { journey in
                journey.isOnFoot ? .string("") : fares.value.map { Self.priceText($0.price(journey)) } ?? .null
            }.whole(), at: 4)
        }
        // tsv/csv: the total in the currency's own decimals, and the currency, after trip_ids,
        // always (empty without fares, or where some ride has no price: CLI-CONTRACT.md).
        let priced = t.hasFares ? self.fares : nil
        data.append(Column("price", in: .flat) { journey in
            guard !journey.isOnFoot, let price = priced?.value?.price(journey), let total = price.minorTotal else { return .null }
            return .string(PriceText.amount(minor: total, currency: price.currency))
        })
        data.append(Column("currency", in: .flat) { journey in
            guard !journey.isOnFoot, let price = priced?.value?.price(journey), price.minorTotal != nil else { return .null }
            return price.currency.map(Value.string) ?? .null
        })
        // Where each ride boards, as `gtfs journey --board-at` takes it back: its stop_id and
        // planned departure on the clock of its run's service day, `STOP@HH:MM:SS > …`.
        data.append(Column("boarding", in: .flat) { [t, day = clock.day] in .string(Self.boarding($0, t, day: day)) })
        if rideCalls != nil {
            // --stops: tsv/csv stay a row a journey, with each ride's number of calls (after
            // the columns that were there first).
            data.append(Column("calls", in: .flat) { [self] journey in
                .string(journey.legs.filter(\.isRide).map { String(calls($0)?.calls.count ?? 0) }.joined(separator: " > "))
            })
        }
        var output = Output(journeys, data: data, table: table, notices: notices)
        // --stops and --alternatives: the table's lines under each row, its rides' calls and what
        // to take if a change is missed.
        if rideCalls != nil || !alternatives.isEmpty {
            output.tableDetails { [self] in journeys.map { (rideCalls != nil ? callLines($0) : []) + alternativeLines($0) } }
        }
        let fares = self.fares
        // Who the table's PRICE is for (JSON's fare.rider says it; tsv names no rider).
        let riders = t.riderCategories.map { $0.name.isEmpty ? $0.id : $0.name }, named = namesRider && !riderAsked
        output.laterNotices = { [Self.tooManyWaysNotice(fares), named ? Self.riderNotice(fares, riders) : nil].compactMap { $0 } }
        // A journey as lines, one a leg (along its shape, its streets), its JSON record as properties.
        output.geoJSON { [self] records in GeoJSON.journeys(zip(records, journeys).map { (properties: $0, legs: path($1)) }) }
        return output
    }

    /// `{total, currency, legs: [{fare_id, price, currency, legs}], complete, rider}`; legs as
    /// indices into the journey's legs; rider the category priced for (`--rider`, else a Fares
    /// v2 feed's default), or null. A Fares v2 part names its product instead of a fare_id:
    /// `{fare_product_id, name, fare_media, transfer, price, currency, legs}`.
    /// `clamped`: the parts came to less than nothing (a discount past the fares), and the total
    /// is 0. Amounts are numbers of the currency's major unit, with its own decimals (`Money`).
    static func fareValue(_ price: FareTable.Price, rider: String?) -> Value {
        .object(Record([("total", price.total.map(Value.double) ?? .null), ("currency", price.currency.map(Value.string) ?? .null),
                        ("legs", .list(price.parts.map { part in
                            let named: [(String, Value)] = part.product
                                ? [("fare_product_id", .string(part.fare)), ("name", part.name.map(Value.string) ?? .null),
                                   ("fare_media", part.medium.map(Value.string) ?? .null), ("transfer", .bool(part.transfer))]
                                : [("fare_id", .string(part.fare))]
                            return .object(Record(named + [("price", .double(part.price)), ("currency", .string(part.currency)),
                                                           ("legs", .list(part.legs.map(Value.int)))]))
                        })),
                        ("complete", .bool(price.complete)), ("clamped", .bool(price.clamped)), ("rider", rider.map(Value.string) ?? .null)]))
    }

    /// Said after pricing (only where a format priced: tsv does not): journeys whose Fares v2
    /// gave more ways to pay than pricing follows.
    static func tooManyWaysNotice(_ fares: Deferred<FareTable?>) -> String? {
        guard fares.isMade, let count = fares.value?.journeysWithTooManyWays, count > 0 else { return nil }
        return "\(count) \(count == 1 ? "journey's" : "journeys'") fares give more than \(FareProducts.maxWork) ways to pay to work through: no total (?)"
    }

    /// Said after pricing, where the feed names rider categories and `--rider` named none: who
    /// the prices are for, and what `--rider` takes (issue 44: the default had no name to type).
    /// A Fares v2 feed's default category by name; otherwise the fares' own prices (Fares v1 has
    /// no default category: BART's are its adult fares, beside Youth, Senior and START prices).
    static func riderNotice(_ fares: Deferred<FareTable?>, _ riders: [String]) -> String? {
        guard fares.isMade, let table = fares.value, !riders.isEmpty else { return nil }
        guard let rider = table.rider else {
            return GTFSContext.fitted("Prices are the feed's own, for no rider category in particular; --rider takes one: ", riders, "")
        }
        let others = riders.filter { $0 != rider }
        let head = "Prices are for \(rider), the feed's default rider category"
        return others.isEmpty ? head : GTFSContext.fitted(head + "; --rider takes another: ", others, "")
    }

    /// `$6.40`, `€2.10`, `CHF 6.40`, `JPY 420`, `KWD 0.125` (`PriceText`); `?` when the journey
    /// has no total; `0.00` for one that costs nothing and pays no fare (a walk, or rides an AB
    /// transfer without a product covers).
    static func priceText(_ price: FareTable.Price) -> Value {
        guard let total = price.minorTotal else { return .string("?") }
        return .string(PriceText.table(minor: total, currency: price.currency))
    }

    /// A journey's line, a line a leg: a ride along its trip's shape where the feed has one
    /// (`Timetable.shapeLine`), else through the stops it calls at; a walk along the streets it
    /// follows where a map measured it, else straight. Points as (latitude, longitude).
    func path(_ journey: Router.Journey) -> [[(Double, Double)]] {
        journey.legs.map(line)
    }

    func line(_ leg: Router.Leg) -> [(Double, Double)] {
        var places: [Coordinate?] = []
        switch leg.mode {
        case .ride(let trip, _, _, let from, let to):
            if let shaped = t.shapeLine(pattern: t.basePattern(ofTrip: trip), from: from, to: to) {
                places = shaped
            } else {
                places = leg.calls.map { place($0, origin: false) }
            }
        case .walk:
            // Stop -1 is a point: where a first walk starts, or a last one ends.
            places = streetLines[TransferEdges.key(leg.from, leg.to)] ?? [place(leg.from, origin: true), place(leg.to, origin: false)]
        }
        var line: [(Double, Double)] = []
        for case let at? in places where !at.latitude.isNaN && !at.longitude.isNaN {
            let point = (at.latitude, at.longitude)
            if let last = line.last, last == point { continue }
            line.append(point)
        }
        return line
    }
}
