import Foundation
import TransitSupport
import TransitGTFS

/// One `transit gtfs …` command (`ProviderCommand`), run with the feed's context.
protocol GTFSSubcommand: SpecifiedCommand {
    func run(_ gtfs: GTFSContext) async throws(TransitError) -> Output
}

extension GTFSSubcommand {
    /// An answer read from a damaged compiled file (found where a value was read) is refused,
    /// whatever the command made of it.
    func run(_ context: Context) async throws(TransitError) -> Output {
        let gtfs = GTFSContext(context)
        do {
            let output = try await run(gtfs)
            try gtfs.refuseDamage()
            return output
        } catch {
            try gtfs.refuseDamage()
            throw error
        }
    }
}

enum GTFSCommandLine {
    /// A comma-separated list of whole numbers in `range`, each once, sorted (`--percentiles`,
    /// `--cutoffs`); `what` names them in the error.
    static func wholeNumbers(_ text: String, option: String, what: String, in range: ClosedRange<Int>) throws(TransitError) -> [Int] {
        var out: [Int] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let item = part.trimmingCharacters(in: .whitespaces)
            guard let n = Int(item), range.contains(n) else {
                throw .usage("--\(option) takes \(what) from \(range.lowerBound) to \(range.upperBound), comma-separated, not '\(item)'")
            }
            guard !out.contains(n) else { throw .usage("--\(option) names \(n) twice") }
            out.append(n)
        }
        return out.sorted()
    }

    /// Every `gtfs` command, in the order help lists them.
    static let commands: [any GTFSSubcommand.Type] = [
        GTFSTripsCommand.self, GTFSDeparturesCommand.self, GTFSReachCommand.self, GTFSMatrixCommand.self, GTFSIsochroneCommand.self, GTFSVehiclesCommand.self, GTFSAlertsCommand.self,
        GTFSStopsCommand.self, GTFSRoutesCommand.self, GTFSWalksCommand.self, GTFSImportCommand.self, GTFSFeedsCommand.self, GTFSTripCommand.self, GTFSJourneyCommand.self,
        GTFSUpdateCommand.self, GTFSRemoveCommand.self, GTFSCatalogCommand.self, GTFSFaresCommand.self,
    ]

    static let spec = ProviderSpec(
        name: "gtfs", displayName: "GTFS", summary: "any agency's GTFS static feed: imported once, every journey of a day offline",
        zoneName: "the feed's agency_timezone", commands: commands.map { $0.spec },
        variables: [("TRANSIT_GTFS_FEED", "the default --feed of gtfs: an imported feed's name, a path, all, or several, comma-separated (searched as one)"),
                    ("TRANSIT_CATALOG_URL", "where gtfs catalog downloads the Mobility Database's catalog (its v2 CSV; default \(CatalogCache.defaultURL))")],
        files: [("$TRANSIT_CACHE_DIR/gtfs/NAME.timetable", "an imported GTFS feed, compiled for routing; replaced atomically by a new import"),
                ("$TRANSIT_CACHE_DIR/gtfs/.combined/", "several feeds combined (--feed a --feed b), compiled on first use, compiled again when one of them changes"),
                ("$TRANSIT_CACHE_DIR/catalog/feeds_v2.csv", "the Mobility Database's feed catalog, downloaded on first use and again after 7 days")])

    // MARK: options several commands share

    /// A downloaded feed is held in memory before it is compiled: the largest accepted (the
    /// biggest published feeds, whole countries, are a few hundred MB zipped).
    static let maxFeedBytes = 512 << 20
    static let feed = OptionSpec("feed", value: "NAME|PATH", "an imported feed, a GTFS zip or directory (compiled on first use), or all; repeatable: several feeds are searched as one, their ids written feed:id; default $TRANSIT_GTFS_FEED (comma-separated), else the one imported feed (of several, the one that has the stops asked for)", source: .cached, repeatable: true)
    static let link = OptionSpec("link", value: "METERS", "over several feeds: a change between stops of different feeds this close in a straight line (on one map, the street path up to twice METERS), needing --min-transfer plus the walk at 1.2 m/s (1 to 5000)",
                                 default: Arguments.format(SearchDefaults.linkMeters))
    static let zone = OptionSpec("tz", value: "ZONE", "read --date, --after and --before in this IANA zone (default: the zone of the origin's feed)")
    static let realtime = OptionSpec("realtime", value: "SOURCE", "GTFS-Realtime trip updates to apply: an http(s) URL or a .pb file (repeatable; over several feeds FEED=SOURCE; default the feeds' remembered sources)", source: .files, repeatable: true)
    static let radius = OptionSpec("radius", value: "METERS", "with LAT,LON: the stops within this distance in a straight line are reached on foot at 1.2 m/s, on a map's streets up to twice it (1 to 5000)",
                                   default: Arguments.format(SearchDefaults.radiusMeters))
    static let noRealtime = OptionSpec("no-realtime", "ignore the feed's remembered real-time sources: the timetable as planned")
    static let realtimeTimeout = OptionSpec("realtime-timeout", value: "SECONDS",
                                            "a real-time source must connect and send its first byte within this (0.1 to 60; then the transfer may take --timeout); a remembered source that failed is skipped for 60 s",
                                            default: Arguments.format(RealtimeSource.defaultDeadline))
    static let date = OptionSpec("date", value: "DATE", "service day: YYYY-MM-DD, today or tomorrow in the feed's zone; before 03:00 the day in progress is yesterday's")
    static let transfers = OptionSpec("transfers", value: "K", "at most K changes (0 to \(SearchDefaults.maxTransfers))", default: String(SearchDefaults.transfers))
    static let minTransfer = OptionSpec("min-transfer", value: "MIN", "minutes a change needs where transfers.txt does not say",
                                        default: String(SearchDefaults.minTransferSeconds / 60))
    static let walk = OptionSpec("walk", value: "METERS", "change on foot between stops this close in a straight line (--min-transfer plus the walk at 1.2 m/s; on a map, the street path, up to twice METERS), and walk this far from a named --from and to a named --to (0 turns both off)",
                                 default: Arguments.format(SearchDefaults.walkMeters))

    /// The options of a search that `trips`, `reach`, `fares` and `journey` share, read and
    /// bounded one way: changes, walking, a point's radius, links between feeds (the query's
    /// rules), and `--tz` (an IANA zone name).
    struct Search: Sendable, Equatable {
        var rules: JourneyQuery.Rules
        var zone: String?

        init(_ args: Arguments) throws(TransitError) {
            let transfers = try args.intValue("transfers", in: 0...SearchDefaults.maxTransfers)
            let minTransfer = try args.intValue("min-transfer", in: 0...60) * 60
            // 0 turns walking changes off.
            let meters = try args.double("walk", in: 0...5000, what: "meters") ?? SearchDefaults.walkMeters
            let radius = try args.takes("radius") ? args.double("radius", in: 1...5000, what: "meters") ?? SearchDefaults.radiusMeters : SearchDefaults.radiusMeters
            let link = try args.double("link", in: 1...5000, what: "meters") ?? SearchDefaults.linkMeters
            rules = JourneyQuery.Rules(transfers: transfers, minTransferSeconds: minTransfer, walkMeters: meters > 0 ? meters : nil,
                                       linkMeters: link, radiusMeters: radius)
            zone = try args.string("tz")
            if let zone, TimeZone(identifier: zone) == nil {
                throw .usage("--tz takes an IANA zone name (Europe/Madrid, America/Los_Angeles), not '\(zone)'")
            }
        }
    }

    /// `--realtime` and `--no-realtime` as given to a query that applies trip updates.
    struct RealtimeChoice: Sendable, Equatable {
        /// GTFS-Realtime sources: URLs or files.
        var sources: [String] = []
        /// `--no-realtime`: the feed's remembered sources are not read.
        var ignoringRemembered = false
        /// `--realtime-timeout`: seconds to connect and send the first byte.
        var deadline = RealtimeSource.defaultDeadline

        init(sources: [String] = [], ignoringRemembered: Bool = false) {
            self.sources = sources
            self.ignoringRemembered = ignoringRemembered
        }

        init(_ args: Arguments) throws(TransitError) {
            sources = try args.strings("realtime")
            ignoringRemembered = try args.flag("no-realtime")
            deadline = try Self.deadline(args)
            if ignoringRemembered && !sources.isEmpty { throw .usage("--realtime and --no-realtime together say two things") }
        }

        /// `--realtime-timeout`, as given, else its default.
        static func deadline(_ args: Arguments) throws(TransitError) -> TimeInterval {
            try args.double("realtime-timeout", in: 0.1...60) ?? RealtimeSource.defaultDeadline
        }
    }

    /// The date as typed, checked now; read in the feed's zone once the feed is open.
    static func checkedDate(_ args: Arguments) throws(TransitError) -> String? {
        guard let text = try args.string("date") else { return nil }
        _ = try Arguments.date(text, zone: .utc, now: args.now)
        return text
    }

    /// `--date` as a query's day: YYYY-MM-DD, today or tomorrow (read in the query's zone once
    /// the feed is open), by default the service day in progress.
    static func day(_ args: Arguments) throws(TransitError) -> JourneyQuery.Day {
        guard let text = try checkedDate(args) else { return .inProgress }
        switch text.lowercased() {
        case "today": return .today
        case "tomorrow": return .tomorrow
        default: return LocalDate(iso: text).map(JourneyQuery.Day.on) ?? .inProgress
        }
    }

    /// Shell completion: imported feed names for `--feed` and for the NAME of `update` and
    /// `remove`; the feed's rider categories (ids and names) for `--rider`, its routes (names
    /// and ids) for `--route`, its trip_ids for `gtfs trip` once something is typed; for a stop,
    /// the names of the feed's stations and lone stops, and stop codes and ids once something is
    /// typed. Only a feed already imported is read: completion never compiles one.
    static func completionValues(_ query: Completion.Query, _ context: Context) async -> [String] {
        let store = FeedStore(cacheDirectory: context.settings.cacheDirectory)
        if query.option == "feed" { return store.feeds().map(\.name) + ["all"] }
        if query.option == Completion.positional && ["update", "remove"].contains(query.command) { return store.feeds().map(\.name) }
        let given = query.typed["feed"] ?? context.settings.variables["TRANSIT_GTFS_FEED"]
        if let given, !(FeedStore.validName(given) && FileManager.default.fileExists(atPath: store.path(of: given))) { return [] }
        guard let (_, t, _) = try? store.resolve(given) else { return [] }
        let prefix = query.prefix.lowercased()
        func wanted(_ text: String) -> Bool { !text.isEmpty && (prefix.isEmpty || text.lowercased().hasPrefix(prefix)) }
        switch query.option {
        case "rider": return t.riderCategories.flatMap { [$0.id, $0.name] }.filter(wanted)
        case "route":
            return (0..<t.routeCount).flatMap { [StopIndex.routeName(t, $0), t.route($0).id] }.filter(wanted)
        case Completion.positional:
            // A trip_id once something is typed (a feed has tens of thousands).
            guard query.command == "trip", !prefix.isEmpty else { return [] }
            var ids: [String] = []
            for trip in 0..<t.tripCount where ids.count < Completion.maximumValues {
                let id = t.tripID(trip)
                if wanted(id) { ids.append(id) }
            }
            return ids
        default: break
        }
        var names = Set<String>()
        for stop in 0..<t.stopCount {
            let record = t.stop(stop)
            if record.parent == nil && wanted(record.name) { names.insert(record.name) }
        }
        var values = names.sorted()
        if !prefix.isEmpty {
            for stop in 0..<t.stopCount where values.count < Completion.maximumValues {
                for text in [t.stop(stop).code, t.stop(stop).id] where wanted(text) { values.append(text) }
            }
        }
        return values
    }
}
