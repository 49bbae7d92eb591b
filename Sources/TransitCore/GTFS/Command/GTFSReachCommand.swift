import Foundation
import TransitSupport
import TransitGTFS

/// `transit gtfs reach`: every stop reachable from one within some minutes.
struct GTFSReachCommand: GTFSSubcommand {
    static let spec = CommandSpec(
        provider: "gtfs", name: "reach", summary: "every stop reachable from one within some minutes, with its earliest arrival",
        examples: ["transit gtfs reach --from Harbor --date 2026-11-23 --after 08:00 --minutes 30",
                   "transit gtfs reach --from Harbor --date 2026-11-23 --after 08:00 --format geojson > reach.geojson"],
        options: [
            OptionSpec("from", value: "STOP", "the origin: a stop_id, a stop_code or a name (a station means all its stops, and the stops within --walk on foot), or LAT,LON (every stop within --radius, on foot)", required: true, source: .cached),
            GTFSCommandLine.radius,
            GTFSCommandLine.date,
            OptionSpec("after", value: "T", "leaving at or after T: HH:MM, 5pm, 17, now or +30m (default: now on today's service day, else the start of the day)"),
            OptionSpec("minutes", value: "M", "arriving within M minutes of T (1 to 1440)", default: "60"),
            GTFSCommandLine.transfers, GTFSCommandLine.minTransfer, GTFSCommandLine.walk,
        ] + RiderOptions.shared + [
            GTFSCommandLine.link, GTFSCommandLine.zone, GTFSCommandLine.realtime, GTFSCommandLine.realtimeTimeout, GTFSCommandLine.noRealtime, GTFSCommandLine.feed,
        ],
        notes: ["Fields: stop_id, stop_name, arrival (the earliest, leaving the origin at or after T), minutes (from T), transfers (the fewest changes that arrive then), latitude, longitude; sorted by arrival. A stop counts when a ride arrives there, or a walk from the origin does (within --walk of the stops it names, or --radius of a point): transfers null, CHG walk. --format geojson: a Point per stop with those properties. One range search of the same router as trips."],
        geoJSON: true)

    /// `--feed`, as given (several: a combination; `all`: every imported feed; none: the default).
    var feeds: [String] = []
    var from: String
    var day: JourneyQuery.Day
    var after: ServiceTime?
    var minutes: Int
    var search: GTFSCommandLine.Search
    var realtime = GTFSCommandLine.RealtimeChoice()
    /// `--wheelchair`, `--bike`, `--modes`, `--avoid`, `--buffer`.
    var options = RiderOptions()

    init(_ args: Arguments) throws(TransitError) {
        feeds = try args.strings("feed")
        realtime = try GTFSCommandLine.RealtimeChoice(args)
        guard let from = try args.string("from") else { throw args.missing("from") }
        self.from = from
        day = try GTFSCommandLine.day(args)
        after = try args.serviceTime("after")
        minutes = try args.intValue("minutes", in: 1...1440)
        search = try GTFSCommandLine.Search(args)
        options = try RiderOptions(args, through: false)
    }

    func run(_ gtfs: GTFSContext) async throws(TransitError) -> Output {
        var q = ReachQuery(from: .init(from), day: day, after: after, minutes: minutes, now: gtfs.now, rules: search.rules, needs: options.needs)
        q.zone = search.zone
        let (feed, engine, ends) = try gtfs.open(feeds, q.asJourney, destination: false)
        let updates = try await gtfs.tripUpdates(realtime, feed)
        return try reach(gtfs, feed, try engine.search(q.asJourney, ends, updates: updates))
    }

    struct Reached {
        var stop: Int
        var arrival: Int
        var rides: Int
    }

    /// The stops the search reaches, laid out.
    func reach(_ gtfs: GTFSContext, _ feed: GTFSContext.Feed, _ search: JourneySearch) throws(TransitError) -> Output {
        let t = search.timetable, clock = search.clock, day = search.day, updates = search.updates
        let start = search.window.after ?? 0
        gtfs.progress("finding what is reachable")
        // Reached by a ride, or on foot from the origin (its stops' --walk, a point's --radius).
        let rows = search.reach(minutes: minutes).map { Reached(stop: $0.stop, arrival: $0.arrival, rides: $0.rides) }
        let data: [Column<Reached>] = [
            Column("stop_id", "STOP") { .string(t.stopID($0.stop)) }, Column("stop_name", "NAME") { .string(t.stop($0.stop).name) }.wrapping(),
            Column("arrival") { .time(clock.instant($0.arrival), t.zone(ofStop: $0.stop)) },
            Column("minutes", "MIN") { .int(($0.arrival - start) / 60) }, Column("transfers", "CHG") { $0.rides > 0 ? .int($0.rides - 1) : .null },
            Column("latitude") { .coordinate(t.coordinate(ofStop: $0.stop).latitude) }, Column("longitude") { .coordinate(t.coordinate(ofStop: $0.stop).longitude) },
        ]
        let arrive = Column<Reached>("arrival", "ARRIVE") { .string(ClockTime.hhmm(clock.instant($0.arrival), zone: t.zone(ofStop: $0.stop), on: day)) }
        let changes = Column<Reached>("transfers", "CHG") { $0.rides > 0 ? .int($0.rides - 1) : .string("walk") }
        var notices = feed.notices + (updates?.notices ?? []) + search.notices
        if rows.isEmpty {
            notices.append(gtfs.at(search.now).emptyNotice("Nothing reachable from \(from) within \(minutes) minutes", t, clock: clock,
                                                          typed: ServiceWindow(after: after), window: search.window))
        }
        var output = Output(rows, data: data, table: [data[0], data[1], arrive, data[3], changes], notices: notices)
        output.geoJSON { GeoJSON.points($0) }
        return output
    }
}
