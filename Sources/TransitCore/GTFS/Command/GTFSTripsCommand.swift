import Foundation
import TransitSupport
import TransitGTFS

/// `transit gtfs trips`: every Pareto-optimal journey of a service day between two stops.
struct GTFSTripsCommand: GTFSSubcommand {
    static let spec = CommandSpec(
        provider: "gtfs", name: "trips", summary: "every Pareto-optimal journey of a service day between two stops, with changes",
        examples: ["transit gtfs trips --from Harbor --to Stadium --date 2026-11-23",
                   "transit gtfs trips --from HBR --to M_STA --date 2026-11-23 --after 17:00 --before 19:00 --format json",
                   "transit gtfs trips --feed ./feed.zip --from A --to B --transfers 1 --walk 300"],
        options: [
            OptionSpec("from", value: "STOP", "origin: a stop_id, a stop_code or a name (a station or a shared name means all its stops, and the stops within --walk on foot), or LAT,LON (every stop within --radius, on foot)", required: true, source: .cached),
            OptionSpec("to", value: "STOP", "destination, as --from", required: true, source: .cached),
            GTFSCommandLine.radius,
            GTFSCommandLine.date,
            OptionSpec("after", value: "T", "only journeys leaving at or after T: HH:MM, 5pm, 17, now or +30m, that moment of the --date (without: today's; before 03:00, the next one), H:MM:SS or past 24 the feed's own hours (default: now on today's service day, else the start of the day)"),
            OptionSpec("before", value: "T", "only journeys leaving at or before T (earlier than --after: the next day's)"),
            OptionSpec("arrive-by", value: "T", "only journeys arriving at or before T, the latest to leave first (today: leaving from now, unless --after; earlier than that: the next day's)"),
            OptionSpec("fastest", "only the fastest: a journey goes when another leaves no earlier and arrives no later, whatever its changes"),
            OptionSpec("earliest", "only the journey arriving first (leaving at or after --after; of those arriving then, the fewest changes, then the latest to leave; shown as its same ride walking least), found without searching the whole day; with --limit N the N arriving first"),
            OptionSpec("all", "the table shows every journey, also those another beats clearly (hidden by default; JSON and tsv always have them)"),
            GTFSCommandLine.transfers, GTFSCommandLine.minTransfer, GTFSCommandLine.walk,
            OptionSpec("limit", value: "N", "print the first N journeys (the table: N rows, after the ones it hides)"),
            OptionSpec("alternatives", value: "N", "for each ride after the first, the next N journeys if it is missed: from where it boards, leaving when the ride before arrives, without the missed trip (JSON legs' alternatives, a line under the table's row; 1 to 5)"),
            OptionSpec("geometry", "each leg's line in JSON (geometry: an encoded polyline, precision 5): a ride along its trip's shape, a walk along its streets"),
            OptionSpec("stops", "each ride's calls, boarding to alighting: JSON legs' stops (gtfs trip's fields), a line a call under the table's row, tsv/csv each ride's count (calls)"),
            OptionSpec("rider", value: "CATEGORY", "price for this rider category of the feed (its id or name, e.g. youth), where the feed names them (rider_categories.txt); default: the feed's default category (Fares v2), else the feed's own prices (Fares v1 has no default); the table's notice says which", source: .cached),
        ] + RiderOptions.shared + RiderOptions.through + [
            GTFSCommandLine.link, GTFSCommandLine.zone, GTFSCommandLine.realtime, GTFSCommandLine.realtimeTimeout, GTFSCommandLine.noRealtime, GTFSCommandLine.feed,
        ],
        notes: ["Fields: origin, destination, departure, arrival, duration_minutes, transfers, any_time (true for a journey on foot: where the ends are within reach on foot of each other (--walk for a stop named, --radius for a point; on a map the street walk, at most twice that), the walk between them comes first, leaving at the window's start, the table's DEPART any; a ride it beats (the walk leaving then arrives sooner) is left out, and counted in a notice; never with --via; --walk 0 turns it off), legs (route, route_id, trip_id, headsign, service_day (the service day of the ride's run: the query's, or a later one where the answer goes on past its last journeys), from, from_name, from_platform, to, to_name, to_platform, departure, arrival (predicted with --realtime), planned_departure, planned_arrival, departure_delay_seconds, arrival_delay_seconds, realtime, status (scheduled, updated, added) for a ride; trip_start for a frequencies.txt run; walk_meters for a walk; a platform is the stop's platform_code, else its stop_code); where the feed has fares (Fares v1: fare_attributes.txt, fare_rules.txt; Fares v2: fare_leg_rules.txt and its files), fare: {total, currency, legs: [{fare_id (v1), or fare_product_id, name, fare_media and transfer (v2), price, currency, legs}], complete, rider (the category priced for: --rider, else a Fares v2 feed's default, or null)}, the cheapest way the feed's fares pay for the rides (no total, complete false, when a ride has none), and the table's PRICE ($5.05, or ? without a total). tsv/csv add routes, change_at (the stations where each change boards, joined with >), trip_ids (each ride's trip_id, for gtfs trip), price and currency (always; empty without fares or a total) and boarding (each ride's boarding stop_id and planned departure on the clock of its service day, STOP@HH:MM:SS joined with >, what gtfs journey --board-at takes), then calls with --stops; the table shows FROM (the station the first ride boards at) and CHANGE AT (station and time, where some journey changes) before the JOURNEY; in a narrow terminal where the rides head gives way first, then these three wrap onto indented lines: no time, station or line name is cut. Journeys are the Pareto set over departure (later is better), arrival (earlier) and changes (fewer), sorted by departure, arrival, changes; of journeys that are the same ride (the same runs, changing at the same stops, arriving together; boarded or left at another stop of the run), only the one walking least at the ends is shown, whatever its departure (ties: the later). trip_ids write a ride of another service day than the query's as trip_id@YYYY-MM-DD, a run of a frequencies.txt trip as trip_id@HH:MM:SS (trip_id@YYYY-MM-DD@HH:MM:SS; what gtfs journey and gtfs trip take). From a time (--after, or now) with no --before or --arrive-by, an answer with fewer journeys than asked (--limit N, --earliest, or none at all) goes on into the next two service days' departures, riding any run of the days around them (each with its real-time data), and a notice names the days. A window closed by --before rides the next days' runs too (a journey leaving in it may wait overnight at a change). Without --transfers, a window with no journey within 2 changes is asked again with one more at a time up to 7 (a notice says how many these take) before the answer goes on into the next day; a --transfers given is kept. No journey: the notice says why, the first that holds of an option of the rider's needs that removes every ride, no stop in service within an end's walk (the nearest that is, and how far), more changes needed. --radius is a point's reach: with stops named at both ends a notice says it is not used. --format geojson: a FeatureCollection, each journey a MultiLineString, a line a leg: a ride along its trip's shape (shapes.txt) from its boarding stop to its alighting stop, else through the stops it calls at; a walk along the streets it follows where a map measured it; its fields and legs as properties."],
        geoJSON: true)

    /// `--feed`, as given (several: a combination; `all`: every imported feed; none: the default).
    var feeds: [String] = []
    var from: String
    var to: String
    /// `--date`: read in the query's zone once the feed is open.
    var day: JourneyQuery.Day
    /// `--after`, `--before` (both inclusive) and `--arrive-by`, as typed; resolved on the service day.
    var window: ServiceWindow
    var search: GTFSCommandLine.Search
    var limit: Int?
    /// The Pareto set over departure and arrival only: a journey with fewer changes that arrives later goes.
    var fastest = false
    /// `--earliest`: the journeys arriving first, not the whole window's Pareto set.
    var earliest = false
    /// Show in the table the journeys it hides (see `JourneyLayout.unlikely`).
    var all = false
    var realtime = GTFSCommandLine.RealtimeChoice()
    /// `--rider`, as typed.
    var rider: String?
    /// `--stops`: each ride's calls.
    var stops = false
    /// `--geometry`: each leg's line in JSON.
    var geometry = false
    /// `--alternatives N`: the next N journeys if a ride after the first is missed.
    var alternatives: Int?
    /// `--wheelchair`, `--bike`, `--modes`, `--avoid`, `--buffer`, `--via`: the journeys the rider shapes.
    var options = RiderOptions()
    /// No `--transfers`: where the asked window has no journey within the default, more changes are asked for.
    var raisesChanges = false
    /// `--radius` given: with no point at either end it is not used, and a notice says so.
    var radiusGiven = false

    init(_ args: Arguments) throws(TransitError) {
        feeds = try args.strings("feed")
        realtime = try GTFSCommandLine.RealtimeChoice(args)
        from = try args.required("from")
        to = try args.required("to")
        day = try GTFSCommandLine.day(args)
        window = try args.serviceTimes()
        search = try GTFSCommandLine.Search(args)
        limit = try args.int("limit", in: 1...100_000)
        fastest = try args.flag("fastest")
        earliest = try args.flag("earliest")
        if earliest && fastest { throw .usage("--earliest and --fastest together say two things: --earliest already gives the journey arriving first") }
        if earliest && window.arriveBy != nil { throw .usage("--earliest and --arrive-by together say two things: the journey arriving first, or the latest to leave arriving by a time") }
        all = try args.flag("all")
        rider = try args.string("rider")
        stops = try args.flag("stops")
        geometry = try args.flag("geometry")
        alternatives = try args.int("alternatives", in: 1...5)
        options = try RiderOptions(args, through: true)
        raisesChanges = try !args.given("transfers")
        radiusGiven = try args.given("radius")
    }

    /// The question the options ask, read from `now`.
    func query(_ gtfs: GTFSContext) -> JourneyQuery {
        var q = JourneyQuery(from: .init(from), to: .init(to), day: day, window: window, now: gtfs.now, rules: search.rules, needs: options.needs)
        q.zone = search.zone
        q.vias = options.vias
        q.limit = limit
        q.earliest = earliest
        q.fastest = fastest
        q.raisesChanges = raisesChanges
        q.drawsWalks = geometry || gtfs.settings.format == .geojson
        return q
    }

    func run(_ gtfs: GTFSContext) async throws(TransitError) -> Output {
        let q = query(gtfs)
        let (feed, engine, ends) = try gtfs.open(feeds, q)
        let updates = try await gtfs.tripUpdates(realtime, feed)
        return try journeys(gtfs, feed, try engine.search(q, ends, updates: updates))
    }

    /// The answer laid out: the journeys the search finds (in a table, without those nobody
    /// takes), their rides' calls, lines and alternatives where asked, and the notices.
    func journeys(_ gtfs: GTFSContext, _ feed: GTFSContext.Feed, _ search: JourneySearch) throws(TransitError) -> Output {
        let t = search.timetable, clock = search.clock, updates = search.updates, ends = search.ends
        gtfs.progress("finding journeys")
        var (journeys, router, raised) = search.answer(limit: limit)
        var notices = feed.notices + (updates?.notices ?? []) + search.notices
        if radiusGiven && ends.origin.place.point == nil && ends.destination?.place.point == nil {
            notices.append("--radius is a point's reach: with stops named at both ends it is not used (--walk is theirs)")
        }
        // The table leaves out what nobody takes (not where --earliest asked for the first to
        // arrive); JSON and tsv keep the whole Pareto set. With
        // --limit N the table still prints N rows where N exist: more are asked for while the
        // ones kept fall short and the router had more to give.
        if gtfs.settings.format == .table && !all && !earliest {
            var asked = limit, kept = JourneyLayout.likely(journeys)
            while let n = limit, let a = asked, kept.count < n, journeys.count == a {
                asked = a * 2
                (journeys, router, raised) = search.answer(limit: asked)
                kept = JourneyLayout.likely(journeys)
            }
            let shown = limit.map { Array(kept.prefix($0)) } ?? kept
            // The ones hidden among those the rows shown span (all of them without a limit).
            let hidden = (limit == nil ? journeys.count : (shown.last.map { $0 + 1 } ?? journeys.count)) - shown.count
            if hidden > 0 {
                notices.append("\(hidden) \(hidden == 1 ? "journey" : "journeys") hidden: another leaves at most \(JourneyLayout.unlikelyLeavesWithin / 60) minutes earlier, "
                               + "arrives at least \(JourneyLayout.unlikelyArrivesBy / 60) minutes earlier and changes no more; --all shows them")
            }
            journeys = shown.map { journeys[$0] }
        }
        if let notice = Self.wentOn(journeys, search, router: router) { notices.append(notice) }
        if let notice = Self.walkingBeats(journeys, router: router, limited: limit != nil || earliest, arriveBy: search.window.arriveBy) { notices.append(notice) }
        if let raised {
            let asked = search.query.rules.transfers
            notices.append("no journey within \(asked) \(asked == 1 ? "change" : "changes"); these take \(raised); --transfers \(raised) asks for them directly")
        }
        if journeys.isEmpty {
            let notice = gtfs.at(search.now).emptyNotice("No journey from \(from) to \(to)", t, clock: clock, typed: window, window: search.window)
            notices.append(notice + (search.whyNone().map { ": " + $0 } ?? ""))
        }
        let drawn = gtfs.settings.format == .geojson || geometry
        if stops || drawn { try JourneyLayout.checkCallsWritten(journeys, what: stops ? "--stops" : geometry ? "--geometry" : "--format geojson") }
        let layout = JourneyLayout(t, clock: clock, journeys: journeys, updates: updates, from: ends.origin.place, to: ends.destination?.place,
                                   streets: drawn ? ends.streets : nil, rider: try rider.map { typed throws(TransitError) in try Self.category(typed, t) },
                                   rideCalls: stops ? RideCallSource(router: router) : nil)
        layout.geometry = geometry
        if options.asksAnything {
            var shaping = JourneyLayout.Shaping(journeys, router: router, wheelchair: options.needs.wheelchair, vias: ends.vias.map(Set.init))
            if let streets = ends.streets {
                let joins = { (end: QueryEnds.End?) in end?.place.point.map { streets.joinsStreets($0.at) } ?? false }
                shaping.pointsJoin = (joins(ends.origin), joins(ends.destination))
            }
            layout.shaping = shaping
        }
        if let alternatives {
            layout.alternatives = try self.alternatives(journeys, count: alternatives, search, router: router)
        }
        notices += GTFSContext.alertNotices(layout.alertSelection, updates)
        return layout.output(journeys, notices: notices, namesRider: gtfs.settings.format == .table)
    }

    /// Where the answer went on past the query's service day (`JourneySearch.answer`, `router`
    /// the one that found them): the service days its journeys' first rides are of, named, as a
    /// rider asks after the last train (`no more journeys on 2022-10-12; these are 2022-10-13's`).
    static func wentOn(_ journeys: [Router.Journey], _ search: JourneySearch, router: Router) -> String? {
        guard router.searchesAcrossDays else { return nil }
        let days = journeys.filter { !$0.isOnFoot }.map { journey in search.day.adding(days: journey.legs.first(where: \.isRide)?.dayOffset ?? 0) }
        let later = Set(days.filter { $0 > search.day }).sorted().map(\.iso)
        guard !later.isEmpty else { return nil }
        let start = days.contains(search.day) ? "after the last journeys of \(search.day.iso), " : "no more journeys on \(search.day.iso); "
        return start + "these are " + later.map { $0 + "'s" }.joined(separator: " and ")
    }

    /// The rides the journey on foot left out, counted in one notice: those arriving by
    /// `arriveBy` where given, and where a limit cut the answer, those leaving within the rides
    /// shown (by departure: up to the last; by arrival: from the first).
    static func walkingBeats(_ journeys: [Router.Journey], router: Router, limited: Bool, arriveBy: Int?) -> String? {
        guard let walk = router.query.onFoot else { return nil }
        let shown = journeys.filter { !$0.isOnFoot }.map(\.departure)
        let n = router.onFootTally.beaten.filter { ride in
            guard arriveBy.map({ ride.arrival <= $0 }) ?? true else { return false }
            guard limited, let first = shown.min(), let last = shown.max() else { return true }
            return arriveBy == nil ? ride.departure <= last : ride.departure >= first
        }.count
        guard n > 0 else { return nil }
        return "\(n) \(n == 1 ? "journey" : "journeys") left out: walking there (\(Int(walk.meters.rounded())) m, \(walk.seconds / 60) min) arrives sooner, "
            + "leaving when \(n == 1 ? "it leaves" : "they leave")"
    }

    /// The rider category `typed` names: its id, else its name (any case), else the one name
    /// holding it; else a usage error listing the feed's categories.
    static func category(_ typed: String, _ t: Timetable) throws(TransitError) -> Int {
        let ids = t.riderCategories.map(\.id), names = t.riderCategories.map(\.name)
        guard !ids.isEmpty else { throw .usage("--rider: the feed names no rider categories (no rider_categories.txt)") }
        let wanted = typed.lowercased()
        if let k = ids.firstIndex(of: typed) ?? ids.firstIndex(where: { $0.hasSuffix(":" + typed) }) ?? names.firstIndex(where: { $0.lowercased() == wanted }) { return k }
        let holding = names.indices.filter { names[$0].lowercased().contains(wanted) }
        if holding.count == 1, let k = holding.first { return k }
        let list = ids.indices.map { "\(ids[$0]) (\(names[$0]))" }.joined(separator: ", ")
        throw .usage("--rider: no single rider category '\(typed)'; the feed has \(list)")
    }
}
