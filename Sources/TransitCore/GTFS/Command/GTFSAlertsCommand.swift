import Foundation
import TransitSupport
import TransitGTFS

/// `transit gtfs alerts`: the service alerts in force, from GTFS-Realtime.
struct GTFSAlertsCommand: GTFSSubcommand {
    static let spec = CommandSpec(
        provider: "gtfs", name: "alerts", summary: "the service alerts in force now, from GTFS-Realtime",
        examples: ["transit gtfs alerts --realtime https://example.org/gtfs-rt/alerts",
                   "transit gtfs alerts --route SL --stop Market --realtime alerts.pb --format json"],
        options: [OptionSpec("route", value: "ROUTE", "only alerts that can apply to this route: its route_id or name", source: .cached),
                  OptionSpec("stop", value: "STOP", "only alerts that can apply to this stop (or its station)", source: .cached),
                  OptionSpec("stale", "also the alerts left out because their data is over 30 minutes old, those in force by their own periods (JSON stale: true)"),
                  OptionSpec("realtime", value: "SOURCE", "GTFS-Realtime alerts: an http(s) URL or a .pb file (repeatable; default the feed's remembered sources)", source: .files, repeatable: true),
                  GTFSCommandLine.realtimeTimeout,
                  GTFSCommandLine.feed],
        notes: ["Fields: id, cause, effect, severity, header, description, url (each in $LANG's language, else English, else the untagged text), active_periods (start and end, null when open), applies_to (what each informed_entity names, in words). An alert is in force with no active period or when now lies in one; the others are counted in a notice. Data over 10 minutes old is stale (JSON stale, a notice with its age); over 30 minutes its alerts are left out whatever their periods say, and counted in a notice (rule 6); --stale shows them. Departures and journey legs read with --realtime carry the ids of the alerts that apply to them (JSON field alerts), and the table a notice per alert."])

    var feeds: [String] = []
    var route: String?
    var stop: String?
    /// `--stale`: also the alerts left out as stale.
    var stale = false
    var realtime: [String] = []
    /// `--realtime-timeout`.
    var deadline = RealtimeSource.defaultDeadline

    init(_ args: Arguments) throws(TransitError) {
        feeds = try args.strings("feed")
        route = try args.string("route")
        stop = try args.string("stop")
        stale = try args.flag("stale")
        realtime = try args.strings("realtime")
        deadline = try GTFSCommandLine.RealtimeChoice.deadline(args)
    }

    func run(_ gtfs: GTFSContext) async throws(TransitError) -> Output {
        let (feed, sources, routes) = try gtfs.realtimeOnly(feeds, sources: realtime, route: route, command: "alerts")
        let t = feed.timetable
        let stops = try stop.map { text throws(TransitError) in Set(try StopIndex(t).resolve(text)) }
        let (messages, readNotices) = try await gtfs.messages(sources, deadline: deadline)
        let all = ServiceAlert.alerts(messages, language: ServiceAlert.language(gtfs.settings.environment["LANG"]))
        var notices = feed.notices + readNotices
        let inactive = all.filter { !$0.active && !$0.leftOutAsStale }.count, staleOut = all.filter(\.leftOutAsStale).count
        if inactive > 0 { notices.append("\(inactive) of \(all.count) alerts are not in force now (outside their active periods)") }
        // Said of the files that have alerts: a file of trip updates only has none to be stale (issue 68).
        for m in messages where m.message.alertsNotRead > 0 || m.message.entities.contains(where: { $0.alert != nil }) {
            if let stamp = m.message.headerSeconds, m.now - stamp > TripUpdateApplier.staleAlertAge {
                notices.append("\(m.source): the data is \(TripUpdateApplier.age(m.now - stamp)) old: its alerts are stale")
            }
        }
        // Rule 6 (issues 44, 68): data this old is not applied, whatever an alert's own periods
        // say; --stale shows the alerts those periods hold now.
        if staleOut > 0 {
            let minutes = TripUpdateApplier.refusedAge / 60
            notices.append(stale ? "\(staleOut) of \(all.count) alerts are of data over \(minutes) minutes old: shown, marked stale, where their own periods hold now (--stale)"
                                 : "\(staleOut) of \(all.count) alerts left out: their data is over \(minutes) minutes old (--stale shows them)")
        }
        /// A selector that does not rule the route or stop out.
        func fits(_ s: ServiceAlert.Selector) -> Bool {
            if let routes {
                if let id = s.route, !routes.contains(where: { t.route($0).id == id }) { return false }
                if let trip = s.trip, let k = t.trip(id: trip), !routes.contains(t.route(ofTrip: k)) { return false }
            }
            if let stops, let id = s.stop {
                if !stops.contains(where: { t.stop($0, isNamed: id) }) { return false }
            }
            return true
        }
        let rows = all.filter { $0.inPeriod && (stale || !$0.leftOutAsStale) && (routes == nil && stops == nil || $0.selectors.contains(where: fits)) }
        let zone = GTFSContext.zone(of: sources, t)
        @Sendable func time(_ s: Int?) -> Value { s.map { .time(Date(timeIntervalSince1970: TimeInterval($0)), zone) } ?? .null }
        let data: [Column<ServiceAlert>] = [
            Column("id") { .string($0.id) }, Column("cause") { .string($0.cause) }, Column("effect") { .string($0.effect) },
            Column("severity") { .string($0.severity) }, Column("header") { .optional($0.header) }, Column("description") { .optional($0.description) },
            Column("url") { .optional($0.url) },
            Column("active_periods", in: .json) { .list($0.periods.map { .object(Record([("start", time($0.start)), ("end", time($0.end))])) }) },
            Column("applies_to") { .list($0.selectors.map { .string($0.description) }) },
            // Its data is older than rule 6's 10 minutes (the notice says how old).
            Column("stale", in: .json) { .bool($0.stale) },
        ]
        if rows.isEmpty { notices.append("No alerts in force" + (route.map { " for route \($0)" } ?? "") + (stop.map { " at \($0)" } ?? "")) }
        // The table says what an alert applies to in short: `route 29 at 48 stops`.
        let short = Column<ServiceAlert>("applies_to", "APPLIES TO") { alert in
            var order: [String] = [], stops: [String: Int] = [:]
            for s in alert.selectors {
                var whole = s
                whole.stop = nil
                let key = whole.isEmpty ? "stops" : whole.description
                if stops[key] == nil { order.append(key) }
                stops[key, default: 0] += s.stop == nil ? 0 : 1
            }
            return .string(order.map { key in
                let n = stops[key] ?? 0
                return key == "stops" ? "\(n) \(n == 1 ? "stop" : "stops")" : n == 0 ? key : "\(key) at \(n) \(n == 1 ? "stop" : "stops")"
            }.joined(separator: "; "))
        }
        return Output(rows, data: data, table: [data[2], data[4], short], notices: notices)
    }
}
