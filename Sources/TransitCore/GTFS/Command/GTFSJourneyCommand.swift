import Foundation
import TransitSupport
import TransitGTFS

/// `transit gtfs journey 'TRIP_ID>TRIP_ID…' --from STOP --to STOP`: a journey found earlier (tsv's
/// trip_ids and change_at) checked again with the current real-time data: each ride as predicted,
/// each change's margin against what it needs. Exit 0 when it holds as far as the data says, 3
/// when a ride is canceled or a change is lost, with what to take instead.
struct GTFSJourneyCommand: GTFSSubcommand {
    static let spec = CommandSpec(
        provider: "gtfs", name: "journey",
        summary: "a journey checked again with the current real-time data: each ride as predicted, each change's margin (exit 3 when it no longer holds)",
        examples: ["transit gtfs journey 'SL-WK-N05 > M1-WK-E@08:06:00' --from Harbor --to Stadium --date 2026-11-23 --realtime feed.pb",
                   "transit gtfs journey \"$(transit gtfs trips --from A --to B --limit 1 | cut -f9)\" --from A --to B"],
        options: [
            OptionSpec("from", value: "STOP", "where the journey starts: the first ride boards here or a walk away", required: true, source: .cached),
            OptionSpec("to", value: "STOP", "where it ends: the last ride alights here or a walk away", required: true, source: .cached),
            GTFSCommandLine.date,
            OptionSpec("change-at", value: "STOP>STOP…", "where each change boards (tsv's change_at: a station's name or a stop_id), where trips meet more than once"),
            OptionSpec("board-at", value: "STOP@HH:MM:SS>…", "where and when each ride boards (tsv's boarding column as gtfs trips writes it: a stop_id and the planned departure on the clock of the ride's service day); without it, the journey gtfs trips would give riding exactly these trips: the earliest to arrive, then the least walking, then the latest to leave"),
            GTFSCommandLine.transfers, GTFSCommandLine.minTransfer, GTFSCommandLine.walk, GTFSCommandLine.radius, GTFSCommandLine.link,
            GTFSCommandLine.zone, GTFSCommandLine.realtime, GTFSCommandLine.realtimeTimeout, GTFSCommandLine.noRealtime, GTFSCommandLine.feed,
        ],
        notes: ["TRIP_ID>TRIP_ID… is tsv's trip_ids as gtfs trips prints it: each ride's trip_id, a ride of another service day as trip_id@YYYY-MM-DD (checked with that day's real-time data), a run of a frequencies.txt trip as trip_id@HH:MM:SS (its start; trip_id@YYYY-MM-DD@HH:MM:SS), over several feeds feed:id; an id holding %, > or @ written %25, %3E, %40. Each change's margin is the minutes between arriving and the next ride leaving, less what the change needs (transfers.txt, else --min-transfer plus the walk). Exit 0: every ride runs and every change holds as far as the real-time data says (without data: as planned, JSON realtime false and a notice); exit 3: one does not, and the journeys to take instead from there follow. JSON: holds, realtime, legs (each ride as predicted), changes (at, from, to, arrival, departure, needs_minutes, margin_minutes, holds), instead (journeys)."],
        positional: "TRIP_ID>TRIP_ID…")

    /// A ride's boarding as `--board-at` names it.
    struct BoardAt: Equatable {
        var stop: String
        var time: Int
    }

    /// A ride as typed: a trip_id, the service day of its run where it is not the query's, and a
    /// frequencies.txt run's start.
    struct TypedRun: Equatable {
        var id: String
        var start: Int?
        var day: LocalDate?
    }

    var feeds: [String] = []
    var trips: [TypedRun]
    var from: String
    var to: String
    var day: JourneyQuery.Day
    var changeAt: [String]?
    /// `--board-at`: each ride's boarding stop and planned departure (on its service day's clock).
    var boardAt: [BoardAt]?
    var search: GTFSCommandLine.Search
    var realtime = GTFSCommandLine.RealtimeChoice()

    init(_ args: Arguments) throws(TransitError) {
        feeds = try args.strings("feed")
        let typed = (args.positional ?? "").split(separator: ">").map { $0.trimmedSpace(newlines: false) }.filter { !$0.isEmpty }
        guard !typed.isEmpty else { throw args.missing("TRIP_ID>TRIP_ID…") }
        trips = try typed.map { text throws(TransitError) in
            // A `>` or `@` of the id itself is written %3E, %40 (`ListedID`).
            guard let run = ListedID.run(text) else { throw .usage("'\(text)': a ride is \(ListedID.runSpellings)") }
            return TypedRun(id: run.id, start: run.start, day: run.day)
        }
        guard let from = try args.string("from") else { throw args.missing("from") }
        guard let to = try args.string("to") else { throw args.missing("to") }
        self.from = from
        self.to = to
        if let text = try args.string("change-at") {
            let stops = text.split(separator: ">").map { ListedID.decode($0.trimmedSpace(newlines: false)) }
            guard stops.count == trips.count - 1, stops.allSatisfy({ !$0.isEmpty }) else {
                throw .usage("--change-at names where each change boards: \(trips.count - 1) for \(trips.count) rides, not '\(text)'")
            }
            changeAt = stops
        }
        if let text = try args.string("board-at") {
            let typed = text.split(separator: ">").map { $0.trimmedSpace(newlines: false) }
            boardAt = try typed.map { part throws(TransitError) in
                guard let at = part.lastIndex(of: "@"), case .asWritten(let time)? = ServiceTime.parse(String(part[part.index(after: at)...])),
                      part[part.index(after: at)...].split(separator: ":").count == 3, at > part.startIndex else {
                    throw .usage("--board-at takes STOP@HH:MM:SS for each ride (gtfs trips' boarding column), not '\(part)'")
                }
                return BoardAt(stop: ListedID.decode(String(part[..<at])), time: time)
            }
            guard typed.count == trips.count else {
                throw .usage("--board-at names where each ride boards: \(trips.count) for \(trips.count) rides, not '\(text)'")
            }
        }
        search = try GTFSCommandLine.Search(args)
        realtime = try GTFSCommandLine.RealtimeChoice(args)
        day = try GTFSCommandLine.day(args)
    }

    func run(_ gtfs: GTFSContext) async throws(TransitError) -> Output {
        // The journey is checked on its whole service day.
        var q = JourneyQuery(from: .init(from), to: .init(to), day: day, now: gtfs.now, rules: search.rules)
        q.zone = search.zone
        q.wholeDay = true
        let (feed, engine, ends) = try gtfs.open(feeds, q)
        let updates = try await gtfs.tripUpdates(realtime, feed)
        return try check(feed, try engine.search(q, ends, updates: updates))
    }

    /// One ride of the journey: its trip's run on the day, every call as the data has it, and
    /// where it boards and alights (positions in `calls`).
    struct Ride {
        var trip: Int
        var start: Int
        /// The service day its run is of.
        var day: LocalDate
        var calls: [TripCalls.Call]
        var board: Int
        var alight: Int
        /// How far its service day's clock is from the query's (its calls are on the query's).
        var shift = 0
        var boarding: TripCalls.Call { calls[board] }
        var alighting: TripCalls.Call { calls[alight] }
        /// It runs, and stops where it is boarded and left.
        var runs: Bool { boarding.status.calls && alighting.status.calls }
    }

    /// A change between two rides: what it needs and what the data leaves of it.
    struct Change {
        var needs: Int
        var margin: Int?
        var holds: Bool { (margin ?? -1) >= 0 }
    }

    func check(_ feed: GTFSContext.Feed, _ search: JourneySearch) throws(TransitError) -> Output {
        let t = search.timetable, clock = search.clock, day = search.day, updates = search.updates, router = search.router
        let rides = try self.rides(t, search.ends, router: router, day: day, updates: router.realtime == nil ? nil : updates)
        var changes: [Change] = []
        for (a, b) in zip(rides, rides.dropFirst()) {
            let needs = router.changeSeconds(from: a.alighting.stop, trip: a.trip, to: b.boarding.stop, trip: b.trip) ?? search.query.rules.minTransferSeconds
            let margin: Int? = a.alighting.arrival.flatMap { arrived in b.boarding.departure.map { $0 - arrived - needs } }
            changes.append(Change(needs: needs, margin: margin))
        }
        // The first thing that breaks it: a ride that does not run (or stop where it is used), or a lost change.
        let broken: (ride: Int, change: Bool)? = rides.indices.lazy.compactMap { k -> (Int, Bool)? in
            if k > 0 && !changes[k - 1].holds { return (k, true) }
            return rides[k].runs ? nil : (k, false)
        }.first
        var instead: [Router.Journey] = []
        if let broken {
            // From where the rider is, once the change (or the start) is made, without the lost run.
            let ride = rides[broken.ride]
            let hidden = (updates ?? TripUpdates()).hiding(trip: ride.trip, start: ride.start, day: ride.day.dayNumber, in: t)
            if broken.ride == 0 {
                instead = search.later(after: ride.boarding.plannedDeparture ?? 0, updates: hidden, count: 2)
            } else {
                let previous = rides[broken.ride - 1]
                let arrived = previous.alighting.arrival ?? previous.alighting.plannedArrival ?? 0
                instead = try search.onward(from: ride.boarding.stop, after: arrived + changes[broken.ride - 1].needs, updates: hidden, count: 2)
            }
        }
        var notices = feed.notices + (updates?.notices ?? [])
        if !(updates?.live ?? false) {
            notices.append("No real-time data: the journey is checked against the timetable (exit 0 means it holds as planned)")
        }
        var output = answer(rides, changes, instead: instead, t, clock: clock, updates: updates, notices: notices)
        if let broken { output.failure = .doesNotHold(Self.why(broken, rides, changes, t, clock: clock)) }
        return output
    }

    /// What broke the journey, in one line: a change lost by so many minutes, or a ride that no
    /// longer runs or calls where the journey uses it (`the 08:30 SL is canceled`, `the 09:02
    /// 10 no longer stops at Market (skipped)`).
    static func why(_ broken: (ride: Int, change: Bool), _ rides: [Ride], _ changes: [Change], _ t: Timetable, clock: ServiceClock) -> String {
        let layout = JourneyLayout(t, clock: clock)
        func name(_ ride: Ride) -> String {
            let leaves = ClockTime.hhmm(clock.instant(ride.boarding.plannedDeparture ?? 0), zone: layout.zone(at: ride.boarding.stop), on: clock.day)
            return "the \(leaves) " + StopIndex.routeName(t, t.route(ofTrip: ride.trip))
        }
        let ride = rides[broken.ride]
        if broken.change, let margin = changes[broken.ride - 1].margin {
            return "the change at \(t.stationName(ofStop: ride.boarding.stop)) to \(name(ride)) is lost by \(minutes(-margin)) (\(needs(changes[broken.ride - 1].needs)))"
        }
        // The call that is not served: where the ride before is left, or where this one boards or is left.
        let (culprit, call) = broken.change && !rides[broken.ride - 1].alighting.status.calls
            ? (rides[broken.ride - 1], rides[broken.ride - 1].alighting)
            : (ride, ride.boarding.status.calls ? ride.alighting : ride.boarding)
        if call.status == .canceled { return "\(name(culprit)) is canceled" }
        return "\(name(culprit)) no longer stops at \(t.stationName(ofStop: call.stop)) (\(call.status.rawValue))"
    }

    /// `3 min`, rounded up from seconds (a margin of 10 s is not a minute to spare).
    static func minutes(_ seconds: Int) -> String { "\(seconds <= 0 ? 0 : (seconds + 59) / 60) min" }

    /// What a change needs, in words: `a timed change` (transfers.txt's type 1), else `it needs 4 min`.
    static func needs(_ seconds: Int) -> String { seconds <= 0 ? "a timed change" : "it needs \(minutes(seconds))" }

    /// Each typed trip's run on the day, and where it boards and alights: the journey `gtfs
    /// trips` would give riding exactly these runs (`plan`), as real-time data predicts them,
    /// else as planned; where even the timetable cannot make a change in time, the first ride
    /// at its first call at (or a walk from) `--from`, each change where the two trips meet the
    /// earliest (`meet`), the last ride at the first call after it boards at (or a walk from)
    /// `--to`: what the check then finds broken. `--board-at` and `--change-at` narrow where
    /// each ride boards.
    /// `updates`: the real-time data the router laid over the days, if any.
    func rides(_ t: Timetable, _ ends: QueryEnds, router: Router, day: LocalDate, updates: TripUpdates?) throws(TransitError) -> [Ride] {
        var rides: [Ride] = []
        for typed in trips {
            guard let trip = try TripCalls.trip(named: typed.id, in: t) else {
                throw .usage("unknown trip_id '\(typed.id)'; the trip_ids column of gtfs trips' tsv names them")
            }
            let runs = t.runs(ofTrip: trip), runDay = typed.day ?? day
            guard t.serviceRuns(t.service(ofTrip: trip), day: runDay.dayNumber), let first = runs.first else {
                throw .usage("trip \(typed.id) does not run on \(runDay.iso)")
            }
            var run = first
            if let start = typed.start {
                guard let found = runs.first(where: { t.runStart(pattern: $0.pattern, row: $0.row) == start }) else {
                    throw .usage("trip \(typed.id) has no run starting at \(ClockTime.gtfs(start)); its runs start \(GTFSTripCommand.starts(t, runs))")
                }
                run = found
            } else if runs.count > 1 {
                throw .usage("trip \(typed.id) runs \(runs.count) times a day (\(GTFSTripCommand.starts(t, runs))): say which run as \(typed.id)@HH:MM:SS")
            }
            // A run of another day: with that day's real-time data (its updates' start_date), its
            // times moved onto the query's day's clock.
            let shift = Int(DaysSchedule<DaySchedule>.shift(from: day, days: runDay.dayNumber - day.dayNumber, in: t.zone))
            let calls = runDay == day ? TripCalls.calls(of: run, day: day.dayNumber, in: t, overlay: router.realtime)
                : Self.moved(TripCalls.calls(of: run, day: runDay.dayNumber, in: t,
                                             overlay: router.realtime(dayAfter: runDay.dayNumber - day.dayNumber)
                                                 ?? updates.map { RealtimeSchedule(t, day: runDay.dayNumber, updates: $0) }),
                             by: shift)
            rides.append(Ride(trip: trip, start: t.runStart(pattern: run.pattern, row: run.row), day: runDay, calls: calls, board: -1, alight: -1, shift: shift))
        }
        // Where each ride may board: the first near --from, the others at --change-at; at --board-at alone.
        let origins = Self.near(ends.origin.stops, router).union(router.query.origins)
        var boards: [Set<Int>] = []
        for (k, ride) in rides.enumerated() {
            var allowed = Set(ride.calls.indices.filter { y in
                k == 0 ? origins.contains(ride.calls[y].stop) : changeAt.map { Self.matches(ride.calls[y].stop, $0[k - 1], t) } ?? true
            })
            if let fixed = boardAt?[k] {
                let y = try Self.boarding(ride, at: fixed, trips[k].id, t)
                guard allowed.contains(y) else {
                    throw .usage(k == 0 ? "trip \(trips[k].id) boarded at \(fixed.stop) (--board-at) is not at \(from) nor a walk from it"
                                 : "--board-at \(fixed.stop) and --change-at \(changeAt?[k - 1] ?? "") name different stops for trip \(trips[k].id)")
                }
                allowed = [y]
            }
            guard !allowed.isEmpty || k > 0 else { throw .usage("trip \(trips[0].id) does not stop at \(from)") }
            boards.append(allowed)
        }
        let destinations = Self.near(ends.destination?.stops ?? [], router).union(router.query.destinations)
        if let plan = Self.plan(rides, boards: boards, destinations: destinations, on: .predicted, router)
            ?? Self.plan(rides, boards: boards, destinations: destinations, on: .planned, router) {
            for k in rides.indices { (rides[k].board, rides[k].alight) = plan[k] }
            return rides
        }
        // No way to make every change in time, even as planned: where the trips meet at all.
        guard let board = rides[0].calls.indices.first(where: { boards[0].contains($0) && Timetable.canBoard(rides[0].calls[$0].flags) }) else {
            throw .usage("trip \(trips[0].id) does not stop at \(from)")
        }
        rides[0].board = board
        for k in rides.indices.dropFirst() {
            var (a, b) = (rides[k - 1], rides[k])
            try meet(&a, &b, boards: boards[k], named: changeAt?[k - 1], t, router: router, names: (trips[k - 1].id, trips[k].id))
            (rides[k - 1], rides[k]) = (a, b)
        }
        var last = rides[rides.count - 1]
        guard let alight = last.calls.indices.first(where: { $0 > last.board && destinations.contains(last.calls[$0].stop) && Timetable.canAlight(last.calls[$0].flags) }) else {
            throw .usage("trip \(trips[trips.count - 1].id) does not stop at \(to) after it is boarded")
        }
        last.alight = alight
        rides[rides.count - 1] = last
        return rides
    }

    /// The call of `ride` that `--board-at` names: at its stop (a stop_id, or as `--change-at`
    /// names one), leaving at its planned time on the clock of the run's service day.
    static func boarding(_ ride: Ride, at fixed: BoardAt, _ id: String, _ t: Timetable) throws(TransitError) -> Int {
        let at = ride.calls.indices.filter { matches(ride.calls[$0].stop, fixed.stop, t) }
        if let y = at.first(where: { ride.calls[$0].plannedDeparture.map { $0 - ride.shift } == fixed.time }) { return y }
        let times = at.compactMap { ride.calls[$0].plannedDeparture.map { ClockTime.gtfs($0 - ride.shift) } }
        throw .usage("trip \(id) does not leave \(fixed.stop) at \(ClockTime.gtfs(fixed.time)) (--board-at)"
                     + (times.isEmpty ? ": it does not stop there" : ": it leaves there at \(times.joined(separator: ", "))"))
    }

    /// Calls `seconds` later (a run of another service day, on the query's day's clock).
    static func moved(_ calls: [TripCalls.Call], by seconds: Int) -> [TripCalls.Call] {
        calls.map { call in
            var c = call
            (c.plannedArrival, c.plannedDeparture) = (c.plannedArrival.map { $0 + seconds }, c.plannedDeparture.map { $0 + seconds })
            (c.arrival, c.departure) = (c.arrival.map { $0 + seconds }, c.departure.map { $0 + seconds })
            return c
        }
    }

    /// Where ride `a` is left for ride `b`: the earliest call of `a` after it boards that a call
    /// of `b` can be reached from (at `named` where given) in time by the timetable, else the
    /// earliest it can be reached from at all.
    /// Each call of `a` looks only at the calls of `b` at the stops its changes reach (by stop, at
    /// once): comparing every pair of two trips' calls took two 10,000-call trips seconds (issue 62).
    func meet(_ a: inout Ride, _ b: inout Ride, boards: Set<Int>, named: String?, _ t: Timetable, router: Router, names: (String, String)) throws(TransitError) {
        var boarding: [Int: [Int]] = [:]
        for y in b.calls.indices where Timetable.canBoard(b.calls[y].flags) && boards.contains(y) {
            boarding[b.calls[y].stop, default: []].append(y)
        }
        var reachable: (Int, Int)?
        for x in (a.board + 1)..<max(a.board + 1, a.calls.count) where Timetable.canAlight(a.calls[x].flags) {
            // The first call of `b` reached in time from this one, and the first reached at all.
            var inTime: Int?, first: Int?
            for edge in router.edges.edges(a.calls[x].stop) {
                for y in boarding[Int(edge.to)] ?? [] {
                    guard let needs = router.changeSeconds(from: a.calls[x].stop, trip: a.trip, to: b.calls[y].stop, trip: b.trip) else { continue }
                    first = min(first ?? y, y)
                    if let arrived = a.calls[x].plannedArrival, let leaves = b.calls[y].plannedDeparture, arrived + needs <= leaves {
                        inTime = min(inTime ?? y, y)
                    }
                }
            }
            if let y = inTime {
                (a.alight, b.board) = (x, y)
                return
            }
            if reachable == nil, let y = first { reachable = (x, y) }
        }
        guard let (x, y) = reachable else {
            throw .usage("trips \(names.0) and \(names.1) do not meet\(named.map { " at \($0)" } ?? ""): no change joins their stops")
        }
        (a.alight, b.board) = (x, y)
    }

    /// The stops of an end, and those a change on foot reaches from them.
    static func near(_ stops: [Int], _ router: Router) -> Set<Int> {
        Set(stops).union(stops.flatMap { router.edges.edges($0).map { Int($0.to) } })
    }

    /// A stop `--change-at` names: its id, its station's name (any case) or its station's id.
    static func matches(_ stop: Int, _ named: String, _ t: Timetable) -> Bool {
        let record = t.stop(stop)
        if record.id == named || t.stationName(ofStop: stop).lowercased() == named.lowercased() { return true }
        return record.parent.map { t.stopID($0) == named } ?? false
    }

    /// The answer in every format: a row a ride (as predicted, with its status), then a line a
    /// change (its margin) and the journeys to take instead; JSON `{holds, realtime, legs,
    /// changes, instead}`.
    func answer(_ rides: [Ride], _ changes: [Change], instead: [Router.Journey], _ t: Timetable, clock: ServiceClock,
                updates: TripUpdates?, notices: [String]) -> Output {
        let layout = JourneyLayout(t, clock: clock, journeys: instead, updates: updates)
        @Sendable func time(_ seconds: Int?, _ stop: Int) -> Value { seconds.map { layout.time($0, at: stop) } ?? .null }
        @Sendable func hhmm(_ planned: Int?, _ predicted: Int?, _ stop: Int) -> String {
            guard let predicted else { return planned.map { layout.clockText($0, at: stop, delay: nil) } ?? "" }
            return layout.clockText(predicted, at: stop, delay: planned.map { predicted - $0 })
        }
        @Sendable func status(_ ride: Ride) -> String {
            if !ride.boarding.status.calls { return ride.boarding.status.rawValue }
            if !ride.alighting.status.calls { return ride.alighting.status.rawValue + " at " + t.stationName(ofStop: ride.alighting.stop) }
            return ride.calls[ride.board...ride.alight].contains { $0.status == .updated } ? "updated" : "scheduled"
        }
        let data: [Column<Ride>] = [
            Column("trip_id") { .string(t.tripID($0.trip)) }, Column("route") { .string(StopIndex.routeName(t, t.route(ofTrip: $0.trip))) },
            Column("headsign") { .string(t.headsign($0.trip)) },
            Column("from") { .string(t.stopID($0.boarding.stop)) }, Column("from_name") { .string(t.stop($0.boarding.stop).name) },
            Column("to") { .string(t.stopID($0.alighting.stop)) }, Column("to_name") { .string(t.stop($0.alighting.stop).name) },
            Column("departure") { time($0.boarding.departure, $0.boarding.stop) }, Column("arrival") { time($0.alighting.arrival, $0.alighting.stop) },
            Column("planned_departure") { time($0.boarding.plannedDeparture, $0.boarding.stop) },
            Column("planned_arrival") { time($0.alighting.plannedArrival, $0.alighting.stop) },
            Column("status") { .string(status($0)) },
        ]
        let table: [Column<Ride>] = [
            Column("departure", "DEPART") { .string(hhmm($0.boarding.plannedDeparture, $0.boarding.departure, $0.boarding.stop)) }.whole(),
            Column("arrival", "ARRIVE") { .string(hhmm($0.alighting.plannedArrival, $0.alighting.arrival, $0.alighting.stop)) }.whole(),
            Column("route", "LINE") { .string(StopIndex.routeName(t, t.route(ofTrip: $0.trip))) }.wrapping(),
            Column("from", "FROM") { .string(t.stationName(ofStop: $0.boarding.stop)) }.wrapping(),
            Column("to", "TO") { .string(t.stationName(ofStop: $0.alighting.stop)) }.wrapping(),
            Column("status", "STATUS") { .string(status($0)) }.whole(),
        ]
        var output = Output(rides, data: data, table: table, notices: notices)
        let changeRecords: [Value] = zip(zip(rides, rides.dropFirst()), changes).map { pair, change in
            let (a, b) = pair
            return .object(Record([("at", .string(t.stationName(ofStop: b.boarding.stop))), ("from", .string(t.stopID(a.alighting.stop))),
                                   ("to", .string(t.stopID(b.boarding.stop))), ("arrival", time(a.alighting.arrival, a.alighting.stop)),
                                   ("departure", time(b.boarding.departure, b.boarding.stop)), ("needs_minutes", .int((change.needs + 59) / 60)),
                                   ("margin_minutes", change.margin.map { .int(Int((Double($0) / 60).rounded(.down))) } ?? .null), ("holds", .bool(change.holds))]))
        }
        let holds = rides.allSatisfy(\.runs) && changes.allSatisfy(\.holds)
        output.json = .object(Record([("holds", .bool(holds)), ("realtime", .bool(updates?.live ?? false)),
                                      ("legs", .list(rides.map { .object(Record(data, $0)) })), ("changes", .list(changeRecords)),
                                      ("instead", .list(instead.map { .object(layout.alternativeRecord($0)) }))]))
        output.tableAfter = zip(zip(rides, rides.dropFirst()), changes).map { pair, change in
            let at = "Change at \(t.stationName(ofStop: pair.1.boarding.stop)): "
            guard let margin = change.margin else { return at + "lost (a ride does not stop there)" }
            return at + (margin >= 0 ? "\(margin / 60) min to spare" : "lost by \(Self.minutes(-margin))") + " (\(Self.needs(change.needs)))"
        } + instead.map { j in
            "Instead: \(hhmm(nil, j.departure, j.legs.first?.from ?? -1)) → \(hhmm(nil, j.arrival, j.legs.last?.to ?? -1)) " + layout.description(j)
        }
        return output
    }
}
