import Foundation
import TransitSupport
import TransitGTFS

/// `transit gtfs trip TRIP_ID`: one trip's calls on a service day.
struct GTFSTripCommand: GTFSSubcommand {
    static let spec = CommandSpec(
        provider: "gtfs", name: "trip", summary: "one trip's calls on a service day: the stops between a journey's ends",
        examples: ["transit gtfs trip SL-WK-N03 --date 2026-11-23", "transit gtfs trip M1-WK-E --date 2026-11-23 --start 08:00:00 --format json"],
        options: [GTFSCommandLine.date,
                  OptionSpec("start", value: "HH:MM:SS", "which run of a frequencies.txt trip: its first departure, as trip_start says on boards and legs"),
                  GTFSCommandLine.realtime, GTFSCommandLine.realtimeTimeout, GTFSCommandLine.noRealtime, GTFSCommandLine.feed],
        notes: ["Fields: sequence (the call's place in the trip, from 1), stop_id, stop_name, platform, arrival, departure, planned_arrival, planned_departure, delay_seconds (null: no real-time data), realtime, status (scheduled, updated, skipped, canceled, added); arrival and departure are the predicted times with --realtime, null when skipped or canceled. A trip only the real-time data has (ADDED, NEW) is found by its trip_id too. A trip that runs several times a day (frequencies.txt) needs --start, or the next run from now is shown, with a notice. TRIP_ID is also taken as tsv's trip_ids write a ride: TRIP_ID@YYYY-MM-DD (the run of that service day, as --date says), TRIP_ID@HH:MM:SS (as --start), TRIP_ID@YYYY-MM-DD@HH:MM:SS; an id holding %, > or @ written %25, %3E, %40."],
        positional: "TRIP_ID", positionalSource: .cached)

    var feeds: [String] = []
    var tripID: String
    var date: String?
    /// Seconds of the service day: which run of a frequencies.txt trip.
    var start: Int?
    var realtime = GTFSCommandLine.RealtimeChoice()

    init(_ args: Arguments) throws(TransitError) {
        feeds = try args.strings("feed")
        // As tsv's trip_ids write it: `%`, `>` and `@` of the id percent-encoded, a run of
        // another service day `@YYYY-MM-DD`, a frequencies.txt run's start `@HH:MM:SS` (`ListedID`).
        let typed = (args.positional ?? "").trimmedSpace(newlines: false)
        guard let run = ListedID.run(typed) else { throw .usage("'\(typed)': a trip is \(ListedID.runSpellings)") }
        tripID = run.id
        guard !tripID.isEmpty else { throw args.missing("TRIP_ID") }
        if let text = try args.string("start") {
            guard case .asWritten(let seconds)? = ServiceTime.parse(text), text.split(separator: ":").count == 3 else {
                throw .usage("--start takes a run's start as HH:MM:SS (08:00:00, or past 24 as 25:10:00), not '\(text)'")
            }
            if let written = run.start, written != seconds { throw .usage("'\(typed)' and --start \(text) name two runs") }
            start = seconds
        } else {
            start = run.start
        }
        realtime = try GTFSCommandLine.RealtimeChoice(args)
        date = try GTFSCommandLine.checkedDate(args)
        if let day = run.day {
            if let date, let given = try? Arguments.date(date, zone: .utc, now: args.now), given != day {
                throw .usage("'\(typed)' is a run of \(day.iso), and --date \(date) another day")
            }
            date = day.iso
        }
    }

    func run(_ gtfs: GTFSContext) async throws(TransitError) -> Output {
        var feed = try gtfs.open(feeds)
        // One trip's calls: only its updates are applied (an added trip, not in the feed, always is).
        let named = (try? TripCalls.trip(named: tripID, in: feed.timetable)) ?? nil
        // Over several feeds, the trip's calls are on its own feed's clock.
        if let named, feed.timetable.isCombination { feed.timetable = feed.timetable.onClock(feed.timetable.zoneName(ofFeed: feed.timetable.feed(ofTrip: named))) }
        let only = Set(named.map { [$0] } ?? [])
        let updates = try await gtfs.tripUpdates(realtime, feed, only: only)
        return try calls(gtfs.reading(updates), feed, updates: updates)
    }

    /// The calls of `tripID`'s run on the service day, with realtime data where there is some.
    /// `feed` on the clock of the trip's feed, as `run` opens it.
    func calls(_ gtfs: GTFSContext, _ feed: GTFSContext.Feed, updates: TripUpdates?) throws(TransitError) -> Output {
        let found = try TripCalls.trip(named: tripID, in: feed.timetable)
        let t = feed.timetable
        let day = try gtfs.serviceDay(date, feed)
        let clock = ServiceClock(day: day, zone: t.zone)
        var notices = feed.notices + (updates?.notices ?? [])
        var calls: [TripCalls.Call] = []
        // Real-time data is read through the overlay every answer reads.
        let overlay = updates.map { RealtimeSchedule(t, day: day.dayNumber, updates: $0) }
        if let (added, replaces) = TripCalls.added(tripID, day: day.dayNumber, in: t, overlay: overlay, updates: updates) {
            calls = added
            if replaces { notices.append("Trip \(tripID) runs as the real-time data replaces it on \(day.iso)") }
        } else if let trip = found {
            let runs = t.runs(ofTrip: trip)
            guard t.serviceRuns(t.service(ofTrip: trip), day: day.dayNumber), let first = runs.first else {
                notices.append("Trip \(tripID) does not run on \(day.iso)")
                return Output([TripCalls.Call](), data: [], table: [], notices: notices)
            }
            var chosen = first
            if let start {
                guard let run = runs.first(where: { t.runStart(pattern: $0.pattern, row: $0.row) == start }) else {
                    throw .usage("trip \(tripID) has no run starting at \(ClockTime.gtfs(start)) on \(day.iso); its runs start \(Self.starts(t, runs))")
                }
                chosen = run
            } else if runs.count > 1 {
                // The next run from now on today's service day (when a window would start now), else the first.
                let now = try ServiceWindow().seconds(on: clock, now: gtfs.now).after ?? Int.min
                chosen = runs.first { t.runStart(pattern: $0.pattern, row: $0.row) >= now } ?? first
                notices.append("Trip \(tripID) runs \(runs.count) times on \(day.iso) (\(Self.starts(t, runs))); this is the run of \(ClockTime.gtfs(t.runStart(pattern: chosen.pattern, row: chosen.row))); --start HH:MM:SS picks another")
            }
            calls = TripCalls.calls(of: chosen, day: day.dayNumber, in: t, overlay: overlay)
        } else {
            throw .usage("unknown trip_id '\(tripID)' in feed \(feed.summary.name); the trip_id column of 'gtfs departures' and of trips' JSON legs names them")
        }
        let length = calls.count
        let layout = JourneyLayout(t, clock: clock)
        let zone = t.zone
        // The fields a journey's legs list their calls with (--stops): no arrival at the first
        // call, no departure from the last.
        let data = layout.callColumns(length: length)
        // Where a rider may not get on or off, the table says so; and how realtime data changed the call.
        let note = Column<TripCalls.Call>("note", "NOTE") { c in
            .string(([Timetable.canBoard(c.flags) || c.position == length - 1 ? nil : "no pickup",
                      Timetable.canAlight(c.flags) || c.position == 0 ? nil : "no drop-off"]
                     + [c.status == .scheduled || c.status == .updated ? nil : c.status.rawValue]).compactMap { $0 }.joined(separator: ", "))
        }
        @Sendable func shown(_ c: TripCalls.Call, arrival: Bool) -> Value {
            let (planned, predicted) = arrival ? (c.plannedArrival, c.arrival) : (c.plannedDeparture, c.departure)
            guard c.position != (arrival ? 0 : length - 1) else { return .string("") }
            let p = planned.map { ClockTime.hhmm(clock.instant($0), zone: zone, on: day) }
            guard let now = predicted.map({ ClockTime.hhmm(clock.instant($0), zone: zone, on: day) }) else { return .string(p ?? "") }
            guard let p, p != now else { return .string(now) }
            return .string("\(p) → \(now)")
        }
        var table: [Column<TripCalls.Call>] = [data[0], data[1], data[2],
                                         Column("arrival", "ARRIVE") { shown($0, arrival: true) }.whole(),
                                         Column("departure", "DEPART") { shown($0, arrival: false) }.whole(), note]
        if calls.allSatisfy({ note.value($0) == .string("") }) { table.removeLast() }
        let column = GTFSContext.feedColumn(t) { (c: TripCalls.Call) in t.feed(ofStop: c.stop) }
        return Output(calls, data: column + data, table: column + table, notices: notices)
    }

    static func starts(_ t: Timetable, _ runs: [(pattern: Int, row: Int)]) -> String {
        let starts = runs.map { ClockTime.gtfs(t.runStart(pattern: $0.pattern, row: $0.row)) }
        return starts.count <= 4 ? starts.joined(separator: ", ") : "\(starts[0]), \(starts[1]) … \(starts[starts.count - 1])"
    }
}
