import Foundation
import TransitSupport
import TransitGTFS

/// `transit gtfs departures`: a station board, the trips leaving a stop on a service day.
struct GTFSDeparturesCommand: GTFSSubcommand {
    static let spec = CommandSpec(
        provider: "gtfs", name: "departures", summary: "a station board: the trips leaving a stop on a service day",
        examples: ["transit gtfs departures --stop \"Old Town\" --date 2026-11-23 --after 08:00 --limit 10"],
        options: [
            OptionSpec("stop", value: "STOP", "a stop_id, a stop_code or a name", required: true, source: .cached),
            GTFSCommandLine.date,
            OptionSpec("after", value: "T", "only departures at or after T: HH:MM, 5pm, 17, now or +30m; before 03:00 is the night after, H:MM:SS the feed's own hours (default: now on today's service day, else the start of the day)"),
            OptionSpec("limit", value: "N", "keep the first N"),
            GTFSCommandLine.realtime, GTFSCommandLine.noRealtime, GTFSCommandLine.feed,
        ] + OptionSpec.watch,
        notes: ["Fields: time (the time to plan on: predicted with --realtime, else planned; null when canceled or skipped), route, headsign, trip_id, platform (the stop id), service_day (the day the trip belongs to: calls past 24:00 of the day before appear in the morning); JSON also trip_start (a frequencies.txt run's start, HH:MM:SS; null for other trips), planned_time, delay_seconds (null without real-time data for the trip), realtime, status (scheduled, updated, canceled, skipped, added); tsv/csv add those four with --realtime. The table shows planned and predicted side by side (16:02 → 16:05 +3) and a STATUS column with --realtime. Real-time rules: docs/realtime.md."])

    /// `--feed`, as given (several: a combination; `all`: every imported feed; none: the default).
    var feeds: [String] = []
    var stop: String
    /// As typed (`2016-04-06`, `today`): read in the feed's zone once the feed is open.
    var date: String?
    /// As typed; resolved on the service day (default: now, for today's service day).
    var after: ServiceTime?
    var limit: Int?
    var realtime = GTFSCommandLine.RealtimeChoice()

    init(feeds: [String] = [], stop: String, date: String? = nil, after: ServiceTime? = nil, limit: Int? = nil,
         realtime: GTFSCommandLine.RealtimeChoice = .init()) {
        self.feeds = feeds
        self.stop = stop
        self.date = date
        self.after = after
        self.limit = limit
        self.realtime = realtime
    }

    init(_ args: Arguments) throws(TransitError) {
        feeds = args.strings("feed")
        realtime = try GTFSCommandLine.RealtimeChoice(args)
        stop = try args.required("stop")
        date = try GTFSCommandLine.checkedDate(args)
        after = try args.serviceTime("after")
        limit = try args.int("limit", in: 1...100_000)
    }

    func run(_ gtfs: GTFSContext) async throws(TransitError) -> Output {
        // Over several feeds, the board is on the clock of its stop's feed (realtime data too).
        let (feed, ends) = try gtfs.open(feeds, from: stop, points: false)
        // The board reads the trips calling at its stops: only theirs are applied.
        let updates = try await gtfs.tripUpdates(realtime, feed, only: Self.trips(calling: ends.origin.stops, feed.timetable))
        return try board(gtfs, feed, stops: ends.origin.stops, updates: updates)
    }

    struct Call {
        var trip: Int
        var stop: Int
        /// Planned departure, in seconds of the requested day (nil for an added trip).
        var planned: Int?
        /// Predicted departure (the planned one without realtime data); nil when canceled or skipped.
        var predicted: Int?
        /// 0: the requested day; -1: the day before (a call past 24:00).
        var dayOffset: Int
        /// The run's first departure (what tells the runs of a frequencies.txt trip apart).
        var runStart: Int
        var status: RealtimeStatus = .scheduled
        /// The trip's id where realtime data names it (an added trip), else the timetable's.
        var tripID: String? = nil
        var route: Int = -1
        var headsign: String? = nil
        /// The ids of the alerts in force that apply to it.
        var alerts: [String] = []

        /// Where it sorts and what a window compares: the time to plan on, else the planned one.
        var seconds: Int { predicted ?? planned ?? 0 }
        var delay: Int? { status == .updated ? predicted.flatMap { p in planned.map { p - $0 } } : nil }
    }

    /// `feed` on the clock of the stop's feed, as `run` opens it.
    func board(_ gtfs: GTFSContext, _ feed: GTFSContext.Feed, stops: [Int], updates: TripUpdates?) throws(TransitError) -> Output {
        let t = feed.timetable
        let day = try gtfs.serviceDay(date, feed)
        let clock = ServiceClock(day: day, zone: t.zone)
        let window = try ServiceWindow(after: after).seconds(on: clock, now: gtfs.now)
        var calls = Self.calls(t, stops, day: day, after: window.after, updates: updates)
        if let limit { calls = Array(calls.prefix(limit)) }
        // Each call in its stop's zone (over feeds in two zones, the station clock where it leaves).
        @Sendable func time(_ seconds: Int?, _ c: Call) -> Value { seconds.map { .time(clock.instant($0), t.zone(ofStop: c.stop)) } ?? .null }
        let realtimeUse: ColumnUse = updates == nil ? .json : .data
        let data: [Column<Call>] = [
            Column("time") { time($0.predicted, $0) },
            Column("route") { .string(StopIndex.routeName(t, $0.route)) },
            Column("headsign", "TOWARD") { .string($0.headsign ?? t.headsign($0.trip)) },
            Column("trip_id", "TRIP") { .string($0.tripID ?? t.tripIDs[$0.trip]) },
            Column("platform", "STOP") { .string(t.stopIDs[$0.stop]) },
            Column("service_day", "DAY") { .string(day.adding(days: $0.dayOffset).iso) },
            // A frequencies.txt trip runs many times: its start (HH:MM:SS of its service day, as
            // GTFS-Realtime's trip descriptor says it) tells which; null for a trip that runs once.
            Column("trip_start", in: .json) { $0.trip >= 0 && t.tripIsFrequency[$0.trip] != 0 ? .string(ClockTime.gtfs($0.runStart)) : .null },
            // Realtime: what the time to plan on is made of (after the columns scripts cut by place).
            // tsv and csv gain them with --realtime only: a script's columns stay put without it.
            Column("planned_time", in: realtimeUse) { time($0.planned, $0) },
            Column("delay_seconds", in: realtimeUse) { $0.delay.map(Value.int) ?? .null },
            Column("realtime", in: realtimeUse) { .bool($0.status.isRealtime) },
            Column("status", in: realtimeUse) { .string($0.status.rawValue) },
            Column("alerts", in: updates == nil ? .json : .data) { .list($0.alerts.map(Value.string)) },
        ]
        // The table: planned and predicted side by side (`16:02 → 16:05 +3`), and a status where there is one.
        let shown = Column<Call>("time", "TIME") { c in
            let zone = t.zone(ofStop: c.stop)
            let planned = c.planned.map { ClockTime.hhmm(clock.instant($0), zone: zone, on: day) }
            guard let predicted = c.predicted.map({ ClockTime.hhmm(clock.instant($0), zone: zone, on: day) }) else { return .string(planned ?? "") }
            guard let planned, planned != predicted, let delay = c.delay else { return .string(predicted) }
            let minutes = JourneyLayout.minutes(delay)
            return .string("\(planned) → \(predicted) \(minutes >= 0 ? "+" : "")\(minutes)")
        }
        var table = [shown] + data.filter { !["time", "planned_time", "delay_seconds", "realtime", "status", "trip_start"].contains($0.key) }
        table.removeAll { $0.key == "alerts" }
        if updates != nil {
            // A status where there is one, and `!` where an alert applies (its text in a notice).
            table.insert(Column("status", "STATUS") { c in
                let marked: String? = c.status == .scheduled || c.status == .updated ? nil : c.status.rawValue
                return .string([marked, c.alerts.isEmpty ? nil : "!"].compactMap { $0 }.joined(separator: " "))
            }, at: 1)
        }
        var notices = feed.notices + (updates?.notices ?? [])
        notices += GTFSContext.alertNotices(calls.flatMap(\.alerts), updates)
        if calls.isEmpty {
            notices.append(gtfs.emptyNotice("No departures from \(stop)", t, clock: clock, typed: ServiceWindow(after: after), window: window) {
                !Self.calls(t, stops, day: day, after: $0.after, updates: updates).isEmpty
            })
        }
        let column = GTFSContext.feedColumn(t) { (c: Call) in t.feed(ofStop: c.stop) }
        return Output(calls, data: column + data, table: column + table, notices: notices)
    }

    /// The calls at `stops` leaving on `day`'s service (and the day before's, past 24:00) from
    /// `after` (seconds of the service day), in order of the time to plan on. With realtime
    /// data, read through the same overlay the router rides (`RealtimeSchedule`): predicted
    /// times, canceled and skipped calls kept and marked, added trips in.
    static func calls(_ t: Timetable, _ stops: [Int], day: LocalDate, after: Int?, updates: TripUpdates? = nil) -> [Call] {
        var calls: [Call] = []
        for (offset, serviceDay) in [(0, day), (-1, day.adding(days: -1))] {
            if let updates {
                calls += self.calls(RealtimeSchedule(t, day: serviceDay.dayNumber, updates: updates), t, stops, offset: offset, after: after, updates: updates)
            } else {
                calls += self.calls(DaySchedule(t, day: serviceDay.dayNumber), t, stops, offset: offset, after: after, updates: nil)
            }
        }
        calls.sort { ($0.seconds, $0.trip, $0.stop) < ($1.seconds, $1.trip, $1.stop) }
        if let updates, !updates.alerts.isEmpty {
            for k in calls.indices {
                calls[k].alerts = updates.alerts(t, route: calls[k].route, trip: calls[k].trip, tripID: calls[k].tripID, at: [calls[k].stop]).map(\.id)
            }
        }
        return calls
    }

    /// One service day's calls at `stops` that board as planned (a skipped or canceled one is
    /// listed, marked), `offset` days from the board's day.
    private static func calls<S: Schedule>(_ schedule: S, _ t: Timetable, _ stops: [Int], offset: Int, after: Int?, updates: TripUpdates?) -> [Call] {
        var calls: [Call] = []
        let shift = offset * 86_400
        for stop in stops {
            for k in schedule.calls(at: stop) {
                let (q, i) = schedule.call(k)
                guard i < schedule.length(q) - 1, Timetable.canBoard(schedule.plannedFlags(of: q)[i]) else { continue }
                for run in 0..<schedule.runCount(q) {
                    let index = schedule.instance(q, run), instance = index >= 0 ? updates?.instances[index] : nil
                    // DELETED: gone from boards (asked by its id, `gtfs trip` says canceled).
                    if instance?.status == .hidden { continue }
                    let status = schedule.status(q, run, i), trip = schedule.trip(q, run)
                    var call = Call(trip: trip, stop: stop, planned: status == .added ? nil : Int(schedule.planned(q, run, i).departure) + shift,
                                    predicted: status.calls ? Int(schedule.departure(q, run, i)) + shift : nil, dayOffset: offset,
                                    runStart: Int(schedule.planned(q, run, 0).departure), status: status,
                                    route: instance?.route ?? Int(t.tripRoute[trip]))
                    if status == .added {
                        call.tripID = instance?.tripID
                        call.headsign = instance?.headsign
                    }
                    guard call.seconds >= 0, call.seconds >= after ?? Int.min else { continue }
                    calls.append(call)
                }
            }
        }
        return calls
    }

    /// Every trip with a call at one of `stops`, on any day.
    static func trips(calling stops: [Int], _ t: Timetable) -> Set<Int> {
        var trips = Set<Int>()
        let starts = t.stopPatternStart.buffer, pairs = t.stopPatterns.buffer, tripStart = t.patternTripStart.buffer, patternTrips = t.patternTrips.buffer
        for stop in stops where stop >= 0 && stop + 1 < starts.count {
            // (pattern, position) pairs, flat.
            for k in stride(from: Int(starts[stop]), to: min(Int(starts[stop + 1]), pairs.count), by: 2) {
                let q = Int(pairs[k])
                guard q >= 0, q + 1 < tripStart.count else { continue }
                for row in Int(tripStart[q])..<Int(tripStart[q + 1]) { trips.insert(Int(patternTrips[row])) }
            }
        }
        return trips
    }
}
