import Foundation
import TransitSupport
import TransitGTFS

/// `transit gtfs departures`: a station board, the trips leaving a stop on a service day.
struct GTFSDeparturesCommand: GTFSSubcommand {
    static let spec = CommandSpec(
        provider: "gtfs", name: "departures", summary: "a station board: the trips leaving a stop on a service day",
        examples: ["transit gtfs departures --stop \"Old Town\" --date 2026-11-23 --after 08:00 --limit 10",
                   "transit gtfs departures --stop Harbor --to Stadium --route SL --date 2026-11-23 --after 07:00 --before 09:00"],
        options: [
            OptionSpec("stop", value: "STOP", "a stop_id, a stop_code or a name", required: true, source: .cached),
            OptionSpec("to", value: "STOP", "only departures that reach this stop later on (where they let riders off)", source: .cached),
            OptionSpec("route", value: "ROUTE", "only this route: its route_id or name", source: .cached),
            GTFSCommandLine.date,
            OptionSpec("after", value: "T", "only departures at or after T: HH:MM, 5pm, 17, now or +30m, that moment of the --date (without: today's; before 03:00, the next one), H:MM:SS or past 24 the feed's own hours (default: now on today's service day, else the start of the day)"),
            OptionSpec("before", value: "T", "only departures at or before T (earlier than --after: the next day's)"),
            OptionSpec("limit", value: "N", "keep the first N (default on a terminal: 20)"),
            OptionSpec("all", "every departure of the day on a terminal too (piped, every one is written anyway)"),
            GTFSCommandLine.realtime, GTFSCommandLine.realtimeTimeout, GTFSCommandLine.noRealtime, GTFSCommandLine.feed,
        ] + OptionSpec.watch,
        notes: ["Fields: time (the time to plan on: predicted with --realtime, else planned; null when canceled or skipped), route, headsign, trip_id, platform (the stop id), service_day (the day the trip belongs to: calls past 24:00 of the day before appear in the morning); JSON also trip_start (a frequencies.txt run's start, HH:MM:SS; null for other trips), planned_time, delay_seconds (null without real-time data for the trip), realtime, status (scheduled, updated, canceled, skipped, added); tsv/csv add those four with --realtime. The table shows planned and predicted side by side (16:02 → 16:05 +3) and a STATUS column with --realtime. Real-time rules: docs/realtime.md."])

    /// `--feed`, as given (several: a combination; `all`: every imported feed; none: the default).
    var feeds: [String] = []
    var stop: String
    /// As typed (`2016-04-06`, `today`): read in the feed's zone once the feed is open.
    var date: String?
    /// As typed; resolved on the service day (default: now, for today's service day).
    var after: ServiceTime?
    var before: ServiceTime?
    var limit: Int?
    /// `--all`: no limit on a terminal either.
    var all = false
    /// `--to`, `--route` as typed.
    var to: String?
    var route: String?
    var realtime = GTFSCommandLine.RealtimeChoice()

    /// The departures a board on a terminal shows unless `--limit` or `--all` says otherwise.
    static let terminalLimit = 20

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
        feeds = try args.strings("feed")
        realtime = try GTFSCommandLine.RealtimeChoice(args)
        stop = try args.required("stop")
        date = try GTFSCommandLine.checkedDate(args)
        after = try args.serviceTime("after")
        before = try args.serviceTime("before")
        limit = try args.int("limit", in: 1...100_000)
        all = try args.flag("all")
        if all && limit != nil { throw .usage("--all and --limit together say two things") }
        to = try args.string("to")
        route = try args.string("route")
    }

    func run(_ gtfs: GTFSContext) async throws(TransitError) -> Output {
        // Over several feeds, the board is on the clock of its stop's feed (realtime data too).
        let (feed, stops) = try gtfs.open(feeds, board: stop)
        // The board reads the trips calling at its stops: only theirs are applied.
        let updates = try await gtfs.tripUpdates(realtime, feed, only: Board.trips(calling: stops, feed.timetable))
        return try board(gtfs.reading(updates), feed, stops: stops, updates: updates)
    }

    /// The first of the next two service days with departures (`filter`'s), its own calls on
    /// `day`'s clock (its runs' times moved by the seconds between the days' starts).
    static func nextDay(_ t: Timetable, _ stops: [Int], day: LocalDate, updates: TripUpdates?, filter: Board.Filter) -> (LocalDate, [Board.Call])? {
        for k in 1...2 {
            let next = day.adding(days: k)
            let own = Board.calls(t, stops, day: next, after: nil, updates: updates, filter: filter, matchingAlerts: false).filter { $0.dayOffset == 0 }
            guard !own.isEmpty else { continue }
            let shift = Int(DaysSchedule<DaySchedule>.shift(from: day, days: k, in: t.zone))
            return (next, own.map { call in
                var moved = call
                (moved.planned, moved.predicted) = (call.planned.map { $0 + shift }, call.predicted.map { $0 + shift })
                moved.dayOffset = k
                return moved
            })
        }
        return nil
    }

    /// `feed` on the clock of the stop's feed, as `run` opens it.
    func board(_ gtfs: GTFSContext, _ feed: GTFSContext.Feed, stops: [Int], updates: TripUpdates?) throws(TransitError) -> Output {
        let t = feed.timetable
        let typed = ServiceWindow(after: after, before: before)
        let asked = try date.map { text throws(TransitError) in try Arguments.date(text, zone: t.zone, now: gtfs.now) }
        let (clock, window) = try typed.moments(on: asked, in: t.zone, now: gtfs.now)
        let day = clock.day
        let reaching = try to.map { text throws(TransitError) in
            Set(try gtfs.withStopHelp(feed) { () throws(TransitError) in try StopIndex(t).resolve(text) })
        }
        let filter = Board.Filter(routes: try route.map { text throws(TransitError) in try gtfs.routes(text, feed) }, reaching: reaching,
                                  before: window.before)
        var calls = Board.calls(t, stops, day: day, after: window.after, updates: updates, filter: filter, matchingAlerts: false)
        var notices = feed.notices + (updates?.notices ?? [])
        // After the day's last departure (a board from a time, with no end): the next day's.
        if calls.isEmpty, window.after != nil, before == nil, let (next, later) = Self.nextDay(t, stops, day: day, updates: updates, filter: filter) {
            calls = later
            notices.append("no more departures on \(day.iso); these are \(next.iso)'s")
        }
        // A terminal shows the next 20 (a pipe gets the day); --limit and --all say otherwise.
        let onTerminal = gtfs.settings.format == .table && gtfs.settings.tableWidth != nil
        if let shown = limit ?? (onTerminal && !all ? Self.terminalLimit : nil), calls.count > shown {
            if limit == nil { notices.append("\(shown) of \(calls.count) departures shown; --all shows every one, --limit N as many as N") }
            calls = Array(calls.prefix(shown))
        }
        // The alerts of the rows shown only.
        let alerts = Board.matchAlerts(&calls, t, updates: updates)
        // Minutes from now, where the board is of the service day in progress.
        let today = ServiceClock.inProgress(at: gtfs.now, in: t.zone).day == day
        let nowSeconds = clock.seconds(at: gtfs.now)
        @Sendable func minutes(_ c: Board.Call) -> Value {
            guard today, let leaves = c.predicted, leaves >= nowSeconds else { return .null }
            return .int((leaves - nowSeconds) / 60)
        }
        // Each call in its stop's zone (over feeds in two zones, the station clock where it leaves).
        @Sendable func time(_ seconds: Int?, _ c: Board.Call) -> Value { seconds.map { .time(clock.instant($0), t.zone(ofStop: c.stop)) } ?? .null }
        let realtimeUse: ColumnUse = updates == nil ? .json : .data
        let data: [Column<Board.Call>] = [
            Column("time") { time($0.predicted, $0) },
            // The table keeps the line's name whole (it wraps); where it heads gives way first.
            Column("route") { .string(StopIndex.routeName(t, $0.route)) }.wrapping(),
            Column("headsign", "TOWARD") { .string($0.headsign ?? t.headsign($0.trip)) }.shrinkingFirst(),
            Column("trip_id", "TRIP") { .string($0.tripID ?? t.tripID($0.trip)) },
            Column("platform", "STOP") { .string(t.stopID($0.stop)) },
            Column("service_day", "DAY") { .string(day.adding(days: $0.dayOffset).iso) }.whole(),
            // A frequencies.txt trip runs many times: its start (HH:MM:SS of its service day, as
            // GTFS-Realtime's trip descriptor says it) tells which; null for a trip that runs once.
            Column("trip_start", in: .json) { t.isFrequency(trip: $0.trip) ? .string(ClockTime.gtfs($0.runStart)) : .null },
            // Realtime: what the time to plan on is made of (after the columns scripts cut by place).
            // tsv and csv gain them with --realtime only: a script's columns stay put without it.
            Column("planned_time", in: realtimeUse) { time($0.planned, $0) },
            Column("delay_seconds", in: realtimeUse) { $0.delay.map(Value.int) ?? .null },
            Column("realtime", in: realtimeUse) { .bool($0.status.isRealtime) },
            Column("status", in: realtimeUse) { .string($0.status.rawValue) },
            Column("alerts", in: updates == nil ? .json : .data) { .list($0.alerts.map(Value.string)) },
            // Whole minutes until it leaves, on today's board (null on another day's, once it has
            // left, or with no time to plan on).
            Column("minutes", in: .json) { c in minutes(c) },
        ]
        // The table: planned and predicted side by side (`16:02 → 16:05 +3`), and a status where there is one.
        let shown = Column<Board.Call>("time", "TIME") { c in
            let zone = t.zone(ofStop: c.stop)
            let planned = c.planned.map { ClockTime.hhmm(clock.instant($0), zone: zone, on: day) }
            guard let predicted = c.predicted.map({ ClockTime.hhmm(clock.instant($0), zone: zone, on: day) }) else { return .string(planned ?? "") }
            guard let planned, planned != predicted, let delay = c.delay else { return .string(predicted) }
            let minutes = JourneyLayout.minutes(delay)
            return .string("\(planned) → \(predicted) \(minutes >= 0 ? "+" : "")\(minutes)")
        }.whole()
        var table = [shown] + data.filter { !["time", "planned_time", "delay_seconds", "realtime", "status", "trip_start", "minutes"].contains($0.key) }
        table.removeAll { $0.key == "alerts" }
        if today {
            // MIN: how long until it leaves, on a board of the service day in progress.
            table.insert(Column("minutes", "MIN") { c in minutes(c) }, at: 1)
        }
        if updates != nil {
            // A status where there is one, and `!` where an alert applies (its text in a notice).
            table.insert(Column("status", "STATUS") { c in
                let marked: String? = c.status == .scheduled || c.status == .updated ? nil : c.status.rawValue
                return .string([marked, c.alerts.isEmpty ? nil : "!"].compactMap { $0 }.joined(separator: " "))
            }.whole(), at: 1)
        }
        notices += GTFSContext.alertNotices(alerts, updates)
        if calls.isEmpty {
            notices.append(gtfs.emptyNotice("No departures from \(stop)", t, clock: clock, typed: typed, window: window))
        }
        let column = GTFSContext.feedColumn(t) { (c: Board.Call) in t.feed(ofStop: c.stop) }
        return Output(calls, data: column + data, table: column + table, notices: notices)
    }
}
