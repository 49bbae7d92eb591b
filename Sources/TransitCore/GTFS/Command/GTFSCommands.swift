import Foundation

/// `transit gtfs …`: open the feed, ask the timetable or the router, lay the answer out.
struct GTFSCommands {
    let context: Context
    let store: FeedStore

    init(_ context: Context) {
        self.context = context
        store = FeedStore(cacheDirectory: context.settings.cacheDirectory)
    }

    func run(_ command: GTFSCommand) async throws(TransitError) -> Output {
        switch command {
        case .importFeed(let source, let name, let realtime, let headers): return try await importFeed(source, name: name, realtime: (realtime, headers))
        case .feeds(let names): return try feeds(names)
        case .remove(let name): return try remove(name)
        case .update(let name): return try await update(name)
        case .stops(let feed, let name, let near, let radius): return try stops(try open(feed), name: name, near: near, radius: radius)
        case .routes(let feed): return try routes(try open(feed))
        case .departures(let request):
            // Over several feeds, the board is on the clock of its stop's feed (realtime data too).
            let feed = onOriginClock(try open(request.feeds), from: request.stop, zone: nil)
            // The board reads the trips calling at its stops: only theirs are applied.
            // (An unknown stop applies nothing; the board then says what is wrong.)
            let stops = (try? StopIndex(feed.timetable).resolve(request.stop)) ?? []
            let updates = try await realtime(request.realtime, ignoring: request.noRealtime, feed, only: Self.trips(calling: stops, feed.timetable))
            return try withStopHelp(feed) { () throws(TransitError) in try departures(feed, request, updates: updates) }
        case .trip(let name, let tripID, let date, let start, let sources, let noRealtime):
            var feed = try open(name)
            // One trip's calls: only its updates are applied (an added trip, not in the feed, always is).
            let named = (try? Self.trip(named: tripID, in: feed.timetable)) ?? nil
            // Over several feeds, the trip's calls are on its own feed's clock.
            if let named, feed.timetable.isCombination { feed.timetable = feed.timetable.onClock(feed.timetable.feedZones[feed.timetable.feed(ofTrip: named)]) }
            let only = Set(named.map { [$0] } ?? [])
            let updates = try await realtime(sources, ignoring: noRealtime, feed, only: only)
            return try trip(feed, tripID, date: date, start: start, updates: updates)
        case .reach(let request):
            let feed = onOriginClock(try open(request.feeds), from: request.from, zone: request.zone)
            let updates = try await realtime(request.realtime, ignoring: request.noRealtime, feed)
            return try withStopHelp(feed) { () throws(TransitError) in try reach(feed, request, updates: updates) }
        case .alerts(let name, let route, let stop, let sources):
            let feed = try open(name)
            return try await alerts(feed, route: route, stop: stop, sources: sources)
        case .vehicles(let name, let route, let sources):
            let feed = try open(name)
            return try await vehicles(feed, route: route, sources: sources)
        case .trips(let request):
            let feed = onOriginClock(try open(request.feeds), from: request.from, zone: request.zone)
            let updates = try await realtime(request.realtime, ignoring: request.noRealtime, feed)
            return try withStopHelp(feed) { () throws(TransitError) in try trips(feed, request, updates: updates) }
        }
    }

    /// The real-time data of a query: the sources given, else (unless `--no-realtime`) the feed's remembered ones.
    /// `only`: the trips whose updates the answer reads (nil: all).
    func realtime(_ given: [String], ignoring: Bool, _ feed: Feed, only: Set<Int>? = nil) async throws(TransitError) -> TripUpdates? {
        try await RealtimeSource(context: context).tripUpdates(try chosenSources(given, ignoring: ignoring, feed), feed.timetable, only: only)
    }

    /// The sources a query reads: those given (without headers), else the feed's remembered ones
    /// with theirs (none with `--no-realtime`). Over several feeds a source names its feed
    /// (`--realtime bart=URL`), since its ids are that feed's; each feed's remembered sources
    /// are read as its own.
    func chosenSources(_ given: [String], ignoring: Bool, _ feed: Feed) throws(TransitError) -> [RealtimeSource.Group] {
        let t = feed.timetable
        guard t.isCombination else {
            if !given.isEmpty { return [RealtimeSource.Group(sources: given)] }
            guard !ignoring, let remembered = feed.summary.realtime else { return [] }
            return [RealtimeSource.Group(sources: remembered, headers: feed.summary.realtimeHeaders ?? [])]
        }
        var groups: [RealtimeSource.Group] = []
        if !given.isEmpty {
            for source in given {
                guard let equals = source.firstIndex(of: "="), case let name = String(source[..<equals]), t.feed(named: name) != nil else {
                    let names = (0..<t.feedCount).map { t.feedName($0) }.joined(separator: ", ")
                    throw .usage("over several feeds, say which feed a real-time source is for: --realtime FEED=SOURCE (FEED one of \(names))")
                }
                let rest = String(source[source.index(after: equals)...])
                if let k = groups.firstIndex(where: { $0.feed == name }) { groups[k].sources.append(rest) } else { groups.append(.init(sources: [rest], feed: name)) }
            }
        } else if !ignoring {
            groups = (feed.summary.parts ?? []).compactMap { part in
                part.realtime.map { RealtimeSource.Group(sources: $0, headers: part.realtimeHeaders ?? [], feed: part.name) }
            }
        }
        return groups
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

    // MARK: reach

    struct Reached {
        var stop: Int
        var arrival: Int
        var rides: Int
    }

    /// `feed` on the query's clock (`onOriginClock`), as `run` opens it.
    func reach(_ feed: Feed, _ request: GTFSReachRequest, updates: TripUpdates?) throws(TransitError) -> Output {
        let t = feed.timetable
        let index = StopIndex(t)
        // From a point: the stops within the radius, each reached on foot.
        let from = try index.end(request.from, radius: request.radius), origins = from.stops
        let day = try serviceDay(request.date, feed)
        let clock = ServiceClock(day: day, zone: t.zone)
        let window = try ServiceWindow(after: request.after).seconds(on: clock, now: context.settings.now)
        let start = window.after ?? 0, end = start + request.minutes * 60
        context.progress("finding what is reachable")
        var query = Router.Query(origins: origins, destinations: [], day: day.dayNumber, after: start, before: end,
                                 maxTransfers: request.transfers, minTransfer: request.minTransfer, walkMeters: request.walkMeters)
        query.linkMeters = request.link
        query.access = from.walks ?? [:]
        let rows = Router(t, query, children: index.children, updates: updates).reach().filter { $0.arrival <= end }
            .map { Reached(stop: $0.stop, arrival: $0.arrival, rides: $0.rides) }
        let data: [Column<Reached>] = [
            Column("stop_id", "STOP") { .string(t.stopIDs[$0.stop]) }, Column("stop_name", "NAME") { .string(t.stopNames[$0.stop]) },
            Column("arrival") { .time(clock.instant($0.arrival), t.zone(ofStop: $0.stop)) },
            Column("minutes", "MIN") { .int(($0.arrival - start) / 60) }, Column("transfers", "CHG") { .int($0.rides - 1) },
            Column("latitude") { .coordinate(t.stopLat[$0.stop]) }, Column("longitude") { .coordinate(t.stopLon[$0.stop]) },
        ]
        let arrive = Column<Reached>("arrival", "ARRIVE") { .string(ClockTime.hhmm(clock.instant($0.arrival), zone: t.zone(ofStop: $0.stop), on: day)) }
        var notices = feed.notices + (updates?.notices ?? [])
        if rows.isEmpty {
            notices.append(emptyNotice("Nothing reachable from \(request.from) within \(request.minutes) minutes", t, clock: clock,
                                       typed: ServiceWindow(after: request.after), window: window) { seconds in
                let from = seconds.after ?? 0
                var q = query
                q.after = from
                q.before = from + request.minutes * 60
                return !Router(t, q, children: index.children, updates: updates).reach().filter { $0.arrival <= from + request.minutes * 60 }.isEmpty
            })
        }
        var output = Output(rows, data: data, table: [data[0], data[1], arrive, data[3], data[4]], notices: notices)
        output.geoJSON { GeoJSON.points($0) }
        return output
    }

    // MARK: alerts

    /// A route given by id or name: every route it names.
    func routes(_ text: String, _ feed: Feed) throws(TransitError) -> Set<Int> {
        let t = feed.timetable, wanted = text.lowercased()
        let found = (0..<t.routeCount).filter { r in [t.routeIDs[r], t.routeShortName[r], t.routeLongName[r]].contains { $0.lowercased() == wanted } }
        guard !found.isEmpty else { throw .usage("no route '\(text)' in feed \(feed.summary.name); 'transit gtfs routes' lists them") }
        return Set(found)
    }

    /// The zone an answer of real-time data prints in: over several feeds, that of the one feed
    /// whose sources were read (the timetable's when they are several feeds').
    static func zone(of groups: [RealtimeSource.Group], _ t: Timetable) -> TimeZone {
        let feeds = Set(groups.map(\.feed))
        guard feeds.count == 1, let name = feeds.first, let f = t.feed(named: name) else { return t.zone }
        return t.zone(ofFeed: f)
    }

    /// Sources for a command that reads real-time data only: those given, else the feed's remembered ones.
    func sources(_ given: [String], _ feed: Feed, command: String) throws(TransitError) -> [RealtimeSource.Group] {
        let chosen = try chosenSources(given, ignoring: false, feed)
        guard chosen.contains(where: { !$0.sources.isEmpty }) else {
            throw .usage("gtfs \(command) reads GTFS-Realtime data: give --realtime SOURCE, or import the feed with --realtime URL")
        }
        return chosen
    }

    func alerts(_ feed: Feed, route: String?, stop: String?, sources given: [String]) async throws(TransitError) -> Output {
        let t = feed.timetable
        let sources = try self.sources(given, feed, command: "alerts")
        let routes = try route.map { text throws(TransitError) in try self.routes(text, feed) }
        let stops = try stop.map { text throws(TransitError) in Set(try StopIndex(t).resolve(text)) }
        let (messages, readNotices) = try await RealtimeSource(context: context).messages(sources)
        let all = ServiceAlert.alerts(messages, language: ServiceAlert.language(context.settings.environment["LANG"]))
        var notices = feed.notices + readNotices
        let inactive = all.filter { !$0.active }.count
        if inactive > 0 { notices.append("\(inactive) of \(all.count) alerts are not in force now (outside their active periods)") }
        /// A selector that does not rule the route or stop out.
        func fits(_ s: ServiceAlert.Selector) -> Bool {
            if let routes {
                if let id = s.route, !routes.contains(where: { t.routeIDs[$0] == id }) { return false }
                if let trip = s.trip, let k = t.tripIDs.indices(of: trip).first, !routes.contains(Int(t.tripRoute[k])) { return false }
            }
            if let stops, let id = s.stop {
                if !stops.contains(where: { t.stop($0, isNamed: id) }) { return false }
            }
            return true
        }
        let rows = all.filter { $0.active && (routes == nil && stops == nil || $0.selectors.contains(where: fits)) }
        let zone = Self.zone(of: sources, t)
        @Sendable func time(_ s: Int?) -> Value { s.map { .time(Date(timeIntervalSince1970: TimeInterval($0)), zone) } ?? .null }
        let data: [Column<ServiceAlert>] = [
            Column("id") { .string($0.id) }, Column("cause") { .string($0.cause) }, Column("effect") { .string($0.effect) },
            Column("severity") { .string($0.severity) }, Column("header") { .optional($0.header) }, Column("description") { .optional($0.description) },
            Column("url") { .optional($0.url) },
            Column("active_periods", in: .json) { .list($0.periods.map { .object(Record([("start", time($0.start)), ("end", time($0.end))])) }) },
            Column("applies_to") { .list($0.selectors.map { .string($0.description) }) },
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

    // MARK: vehicles

    func vehicles(_ feed: Feed, route: String?, sources given: [String]) async throws(TransitError) -> Output {
        let t = feed.timetable
        let sources = try self.sources(given, feed, command: "vehicles")
        let routes = try route.map { text throws(TransitError) in try self.routes(text, feed) }
        let (messages, readNotices) = try await RealtimeSource(context: context).messages(sources)
        var (rows, notices) = VehiclePositions.rows(messages, t)
        if let routes { rows = rows.filter { routes.contains($0.route) } }
        rows.sort { (StopIndex.routeName(t, $0.route), $0.id) < (StopIndex.routeName(t, $1.route), $1.id) }
        let zone = Self.zone(of: sources, t)
        let data: [Column<VehicleRow>] = [
            Column("id", "VEHICLE") { .string($0.id) }, Column("label") { .optional($0.label) }, Column("trip_id", "TRIP") { .optional($0.tripID) },
            Column("route") { $0.route >= 0 ? .string(StopIndex.routeName(t, $0.route)) : .null }, Column("route_id") { .optional($0.routeID) },
            Column("latitude") { .coordinate($0.latitude) }, Column("longitude") { .coordinate($0.longitude) },
            Column("bearing", "HDG") { $0.bearing.map { .int(Int($0.rounded())) } ?? .null }, Column("speed") { .optional($0.speed) },
            Column("stop_id", "STOP") { .optional($0.stop.map { t.stopIDs[$0] }) }, Column("stop_name") { .optional($0.stop.map { t.stopNames[$0] }) },
            Column("status") { .optional($0.status) }, Column("occupancy") { .optional($0.occupancy) },
            Column("timestamp", "SEEN") { $0.timestamp.map { .time(Date(timeIntervalSince1970: TimeInterval($0)), zone) } ?? .null },
            Column("age_seconds", "AGE") { .optional($0.age) },
        ]
        notices = feed.notices + readNotices + notices
        if rows.isEmpty { notices.append("No vehicles" + (route.map { " on route \($0)" } ?? "") + " in " + sources.flatMap(\.sources).map(Redaction.url).joined(separator: ", ")) }
        var output = Output(rows, data: data, table: [data[0], data[3], data[2], data[10], data[11], data[12], data[14]], notices: notices)
        output.geoJSON { GeoJSON.points($0) }
        return output
    }

    /// An unknown stop with nothing close names the feed and how to look; coordinates given
    /// as a stop say that a stop is wanted, and where to find the ones near them.
    func withStopHelp(_ feed: Feed, _ body: () throws(TransitError) -> Output) throws(TransitError) -> Output {
        do { return try body() } catch {
            guard case .notFound("stop", let query, let suggestions) = error else { throw error }
            if Coordinate(parsing: query) != nil {
                throw .usage("'\(query)' looks like coordinates; a stop is wanted here (an id, a code or a name). The stops near it: transit gtfs stops --near \(query.replacingOccurrences(of: " ", with: ""))")
            }
            guard suggestions.isEmpty else { throw error }
            throw .usage("unknown stop '\(query)' in feed \(feed.summary.name); look for it with: transit gtfs stops --name \"\(query.prefix(3))\"")
        }
    }

    /// Shell completion: imported feed names for `--feed`; for a stop, the names of the
    /// feed's stations and lone stops, and stop codes and ids once something is typed. Only a
    /// feed already imported is read: completion never compiles one.
    static func completionValues(_ query: Completion.Query, _ context: Context) async -> [String] {
        let store = FeedStore(cacheDirectory: context.settings.cacheDirectory)
        if query.option == "feed" { return store.feeds().map(\.name) + ["all"] }
        let given = query.typed["feed"] ?? context.settings.variables["TRANSIT_GTFS_FEED"]
        if let given, !(FeedStore.validName(given) && FileManager.default.fileExists(atPath: store.path(of: given))) { return [] }
        guard let (_, t, _) = try? store.resolve(given) else { return [] }
        let prefix = query.prefix.lowercased()
        func wanted(_ text: String) -> Bool { !text.isEmpty && (prefix.isEmpty || text.lowercased().hasPrefix(prefix)) }
        var names = Set<String>()
        for stop in 0..<t.stopCount where t.stopParent[stop] < 0 {
            let name = t.stopNames[stop]
            if wanted(name) { names.insert(name) }
        }
        var values = names.sorted()
        if !prefix.isEmpty {
            for stop in 0..<t.stopCount where values.count < Completion.maximumValues {
                for text in [t.stopCodes[stop], t.stopIDs[stop]] where wanted(text) { values.append(text) }
            }
        }
        return values
    }

    struct Feed {
        var summary: FeedStore.Summary
        var timetable: Timetable
        var notices: [String]
    }

    func open(_ given: [String]) throws(TransitError) -> Feed {
        context.progress("opening the feed")
        let (summary, timetable, warnings) = try store.resolve(given, variable: context.settings.variables["TRANSIT_GTFS_FEED"])
        return Feed(summary: summary, timetable: timetable, notices: warnings.map { "GTFS: " + $0 } + Self.combinationNotices(timetable))
    }

    /// Over several feeds (or with `--tz`), the clock a query reads its date and window on:
    /// `--tz`, else the zone of the origin's feed (with coordinates, the nearest stop's).
    func onOriginClock(_ feed: Feed, from: String, zone: String?) -> Feed {
        var feed = feed
        feed.timetable = zone.map(feed.timetable.onClock) ?? feed.timetable.onOriginClock(from)
        return feed
    }

    /// What a combination's user should know at once: feeds in different zones, and feeds that
    /// share no service day (no journey can change between them).
    static func combinationNotices(_ t: Timetable) -> [String] {
        guard t.isCombination else { return [] }
        var notices: [String] = []
        let feeds = 0..<t.feedCount
        if Set(feeds.map { t.feedZones[$0] }).count > 1 {
            notices.append("The feeds keep their own zones (" + feeds.map { "\(t.feedName($0)) \(t.feedZones[$0])" }.joined(separator: ", ")
                           + "): --date and times are read in the origin's feed's zone (--tz chooses another), and each time prints in its stop's")
        }
        // Each feed's days with service, as bits over the combination's calendar.
        let words = Int(t.serviceWords)
        let days = feeds.map { f in
            (Int(t.feedServiceStart[f])..<Int(t.feedServiceStart[f + 1])).reduce(into: [UInt64](repeating: 0, count: words)) { bits, service in
                for w in 0..<words where service * words + w < t.serviceDays.count { bits[w] |= t.serviceDays[service * words + w] }
            }
        }
        func span(_ f: Int) -> String {
            let set = (0..<words * 64).filter { days[f][$0 / 64] & (1 << UInt64($0 % 64)) != 0 }
            guard let first = set.first, let last = set.last else { return "no service day" }
            return LocalDate(dayNumber: Int(t.firstDay) + first).iso + " to " + LocalDate(dayNumber: Int(t.firstDay) + last).iso
        }
        let apart = feeds.flatMap { a in feeds.filter { b in a < b && !zip(days[a], days[b]).contains { $0 & $1 != 0 } }.map { (a, $0) } }
        if apart.count == 1, let (a, b) = apart.first {
            notices.append("\(t.feedName(a)) (\(span(a))) and \(t.feedName(b)) (\(span(b))) share no service day: no journey changes between them")
        } else if !apart.isEmpty {
            let pairs = apart.prefix(6).map { "\(t.feedName($0.0)) and \(t.feedName($0.1))" }.joined(separator: ", ")
            notices.append("\(apart.count) pairs of feeds share no service day, so no journey changes between them: \(pairs)" + (apart.count > 6 ? ", …" : ""))
        }
        return notices
    }

    /// `--date` in the feed's zone; by default the service day in progress.
    func serviceDay(_ text: String?, _ feed: Feed) throws(TransitError) -> LocalDate {
        let zone = feed.timetable.zone
        if let text { return try Arguments.date(text, zone: zone, now: context.settings.now) }
        return ServiceClock.inProgress(at: context.settings.now, in: zone).day
    }

    // MARK: import and feeds

    func importFeed(_ source: String, name given: String?, realtime: (sources: [String], headers: [String])) async throws(TransitError) -> Output {
        // Nothing to ask about: never nil.
        try await importFeed(source, name: given, ifChangedSince: nil, realtime: realtime) ?? Output([String](), data: [], table: [])
    }

    /// As above; with `ifChangedSince`, a URL is asked with that import's validators, and nil
    /// says the server answered 304 (not modified).
    func importFeed(_ source: String, name given: String?, ifChangedSince previous: FeedStore.Summary?,
                    realtime: (sources: [String], headers: [String])? = nil) async throws(TransitError) -> Output? {
        var path = source
        var temporary: String?
        var validators: (etag: String?, lastModified: String?)?
        defer { if let temporary { try? FileManager.default.removeItem(atPath: temporary) } }
        if Self.isURL(source) {
            guard let url = URLComponents(string: source), let host = url.host, !host.isEmpty else { throw .usage("'\(source)' is not a URL") }
            var base = url
            base.path = ""
            base.query = nil
            var conditions: [String: String] = [:]
            if let etag = previous?.etag { conditions["If-None-Match"] = etag }
            if let date = previous?.lastModified { conditions["If-Modified-Since"] = date }
            let request = HTTPRequest(provider: "gtfs", baseURL: base.string ?? source, path: String(url.path.drop { $0 == "/" }),
                                      query: (url.queryItems ?? []).map { .init($0.name, $0.value ?? "") }, headers: conditions, expects: .zip,
                                      label: "the feed from \(host)", maxBodyBytes: GTFSCommandLine.maxFeedBytes)
            let response = try await context.http.get(request) { $0 }
            if response.status == 304 { return nil }
            let body = response.body
            validators = (response.headers["etag"], response.headers["last-modified"])
            let file = NSTemporaryDirectory() + "transit-feed-\(UUID().uuidString).zip"
            do { try body.write(to: URL(fileURLWithPath: file)) } catch {
                throw .parse(what: "the downloaded feed", reason: "cannot write \(file): \(error.localizedDescription)")
            }
            temporary = file
            path = file
        }
        var stem = (source as NSString).lastPathComponent
        // `city.gtfs.zip` and `city.zip` are both "city".
        for suffix in [".zip", ".gtfs"] where stem.lowercased().hasSuffix(suffix) { stem = String(stem.dropLast(suffix.count)) }
        let name = given ?? (FeedStore.validName(stem) ? stem : "feed")
        var stored = source
        if temporary == nil {
            guard FileManager.default.fileExists(atPath: path) else {
                // A feed's name where a source belongs: say what it is, rather than "no feed".
                if let known = store.feeds().first(where: { $0.name == source }) {
                    throw .usage("'\(source)' is the name of an imported feed (from \(known.source)); import takes its source: a GTFS zip, a directory or an http(s) URL")
                }
                throw .usage("no feed at \(source): give a GTFS zip, an unzipped feed directory or an http(s) URL")
            }
            // Kept as an absolute path, so that it still names the file from another directory.
            stored = URL(fileURLWithPath: path).standardizedFileURL.path
        }
        context.progress("compiling \(name)")
        // A file's size and time, kept so that `update` reads it again only when it changed.
        let stamp = temporary == nil ? FeedStore.stamp(path) : nil
        // What real-time sources it had stay with it, unless new ones are given.
        let remembered = realtime ?? previous.map { ($0.realtime ?? [], $0.realtimeHeaders ?? []) }
        let (summary, warnings) = try store.install(try FeedFiles.open(path), name: name, source: stored, sourceStamp: stamp, validators: validators,
                                                    realtime: remembered)
        let rows: [(String, Value)] = [
            ("name", .string(summary.name)), ("agencies", .list(summary.agencies.map(Value.string))), ("time_zone", .string(summary.timeZone)),
            ("first_date", .string(summary.firstDate)), ("last_date", .string(summary.lastDate)), ("stops", .int(summary.stops)),
            ("routes", .int(summary.routes)), ("trips", .int(summary.trips)), ("stop_times", .int(Int(summary.stopTimes))),
            ("patterns", .int(summary.patterns)), ("compiled_bytes", .int(summary.compiledBytes)), ("compile_ms", .int(summary.compileMilliseconds)),
            ("realtime", .list((summary.realtime ?? []).map(Value.string))),
        ]
        let data = rows.map { pair in Column<FeedStore.Summary>(pair.0) { _ in pair.1 } }
        var output = Output([summary], data: data, table: [], notices: warnings.map { "GTFS: " + $0 })
        output.json = .object(Record(rows))
        // The table is a list: one field a line.
        output.table = Grid(rows, [Column("field", "IMPORTED") { .string($0.0) }, Column("value", "") { $0.1 }])
        return output
    }

    struct Update {
        var before: FeedStore.Summary
        var after: FeedStore.Summary
        var updated: Bool
    }

    /// Each feed (or `name`) from its source again: a file when its size or time changed, a URL always.
    func update(_ name: String?) async throws(TransitError) -> Output {
        // A feed compiled by another version of transit is compiled again, changed or not.
        let olderFeeds = store.olderFeeds(), older = Set(olderFeeds.map(\.name))
        let feeds: [FeedStore.Summary]
        if let name { feeds = [try importedFeed(name)] } else { feeds = store.feeds() + olderFeeds }
        var rows: [Update] = []
        var notices: [String] = []
        for feed in feeds {
            let source = feed.source, stale = older.contains(feed.name)
            if !Self.isURL(source) {
                guard let stamp = FeedStore.stamp(source) else {
                    notices.append(stale ? "\(feed.name): compiled by another version of transit, and its source \(source) is gone: import it again from a source"
                                         : "\(feed.name): its source \(source) is gone; kept as it was")
                    continue
                }
                if !stale && feed.sourceSize == stamp.size && feed.sourceModified == stamp.modified {
                    rows.append(Update(before: feed, after: feed, updated: false))
                    continue
                }
            }
            guard let output = try await importFeed(source, name: feed.name, ifChangedSince: stale ? nil : feed) else {
                rows.append(Update(before: feed, after: feed, updated: false))
                continue
            }
            notices += output.notices
            guard let after = try? FeedStore.summary(at: store.path(of: feed.name)) else { continue }
            rows.append(Update(before: feed, after: after, updated: true))
        }
        if feeds.isEmpty { notices.append("No GTFS feed is imported; import one with: transit gtfs import FEED.zip") }
        let data: [Column<Update>] = [
            Column("name", "FEED") { .string($0.after.name) }, Column("status", "STATUS") { .string($0.updated ? "updated" : "unchanged") },
            Column("first_date", "FROM") { .string($0.after.firstDate) }, Column("last_date", "TO") { .string($0.after.lastDate) },
            Column("trips", "TRIPS") { .int($0.after.trips) }, Column("stop_times", "STOP TIMES") { .int(Int($0.after.stopTimes)) },
            Column("changes", "CHANGES") { .string(Self.changes($0.before, $0.after)) },
        ]
        return Output(rows, data: data, table: data, notices: notices)
    }

    /// `dates 2026-01-01…2026-12-31 → 2026-02-01…2027-01-31, trips 220 → 230`; empty when nothing differs.
    static func changes(_ a: FeedStore.Summary, _ b: FeedStore.Summary) -> String {
        var parts: [String] = []
        if (a.firstDate, a.lastDate) != (b.firstDate, b.lastDate) { parts.append("dates \(a.firstDate)…\(a.lastDate) → \(b.firstDate)…\(b.lastDate)") }
        if a.stops != b.stops { parts.append("stops \(a.stops) → \(b.stops)") }
        if a.routes != b.routes { parts.append("routes \(a.routes) → \(b.routes)") }
        if a.trips != b.trips { parts.append("trips \(a.trips) → \(b.trips)") }
        if a.stopTimes != b.stopTimes { parts.append("stop_times \(a.stopTimes) → \(b.stopTimes)") }
        return parts.joined(separator: ", ")
    }

    static func isURL(_ source: String) -> Bool {
        let lowered = source.lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }

    /// The imported feed `name`; an unknown name is a usage error listing the imported ones.
    func importedFeed(_ name: String) throws(TransitError) -> FeedStore.Summary {
        let all = store.feeds() + store.olderFeeds()
        guard let feed = all.first(where: { $0.name == name }) else {
            throw .usage("no imported feed named '\(name)'" + (all.isEmpty ? "; none is imported" : "; imported: \(all.map(\.name).joined(separator: ", "))"))
        }
        return feed
    }

    func remove(_ name: String) throws(TransitError) -> Output {
        _ = try importedFeed(name)
        do { try FileManager.default.removeItem(atPath: store.path(of: name)) } catch {
            throw .parse(what: store.path(of: name), reason: "cannot remove it: \(error.localizedDescription)")
        }
        store.removeCombinations(with: name)
        let data = [Column<String>("removed", "REMOVED") { .string($0) }]
        return Output([name], data: data, table: data)
    }

    func feeds(_ names: [String] = []) throws(TransitError) -> Output {
        var list = store.feeds()
        var notices: [String] = []
        if !names.isEmpty {
            // Those feeds, as a query would combine them (an unknown name is the query's error).
            let combined = try open(names)
            let parts = combined.timetable.isCombination ? (0..<combined.timetable.feedCount).map { combined.timetable.feedName($0) } : [combined.summary.name]
            list = parts.compactMap { name in list.first { $0.name == name } ?? (name == combined.summary.name ? combined.summary : nil) }
            notices += combined.notices
        }
        for feed in list {
            let zone = TimeZone(identifier: feed.timeZone) ?? TimeZone(secondsFromGMT: 0) ?? .current
            let today = LocalDate(context.settings.now, in: zone).iso
            if today < feed.firstDate || today > feed.lastDate {
                notices.append("\(feed.name) covers \(feed.firstDate) to \(feed.lastDate); today is \(today) in \(feed.timeZone)")
            }
        }
        let older = store.olderFeeds().map(\.name)
        if !older.isEmpty {
            notices.append("compiled by another version of transit: \(older.joined(separator: ", ")); 'transit gtfs update' compiles them again from their sources")
        }
        if list.isEmpty && older.isEmpty { notices.append("No GTFS feed is imported; import one with: transit gtfs import FEED.zip") }
        let data: [Column<FeedStore.Summary>] = [
            Column("name") { .string($0.name) }, Column("agencies") { .list($0.agencies.map(Value.string)) },
            Column("time_zone", "ZONE") { .string($0.timeZone) }, Column("first_date", "FROM") { .string($0.firstDate) },
            Column("last_date", "TO") { .string($0.lastDate) }, Column("stops") { .int($0.stops) }, Column("routes") { .int($0.routes) },
            Column("trips") { .int($0.trips) }, Column("stop_times") { .int(Int($0.stopTimes)) }, Column("source") { .string($0.source) },
            // As typed: a key stays `$NAME`. JSON only, so that tsv's columns stay those scripts know.
            Column("realtime", in: .json) { .list(($0.realtime ?? []).map(Value.string)) },
        ]
        return Output(list, data: data, table: Array(data.prefix(9)), notices: notices)
    }

    // MARK: stops and routes

    func stops(_ feed: Feed, name: String?, near: Coordinate?, radius: Double) throws(TransitError) -> Output {
        let t = feed.timetable
        var rows = Array(0..<t.stopCount).map { (stop: $0, meters: Double?.none) }
        if let name {
            let wanted = NameMatcher<Int>.normalize(name)
            rows = rows.filter { NameMatcher<Int>.normalize(t.stopNames[$0.stop]).contains(wanted) || t.stopIDs[$0.stop] == name || t.stopCodes[$0.stop] == name }
        }
        if let near {
            rows = rows.compactMap { row in
                let m = near.meters(to: Coordinate(latitude: t.stopLat[row.stop], longitude: t.stopLon[row.stop]))
                return m.isFinite && m <= radius ? (row.stop, m) : nil
            }.sorted { ($0.meters ?? 0, $0.stop) < ($1.meters ?? 0, $1.stop) }
        }
        let served = StopIndex.routesByStop(t)
        var data: [Column<(stop: Int, meters: Double?)>] = [
            Column("id") { .string(t.stopIDs[$0.stop]) }, Column("code") { .string(t.stopCodes[$0.stop]) },
            Column("name") { .string(t.stopNames[$0.stop]) },
            Column("latitude") { .coordinate(t.stopLat[$0.stop]) },
            Column("longitude") { .coordinate(t.stopLon[$0.stop]) },
            Column("parent_station", "PARENT") { t.stopParent[$0.stop] >= 0 ? .string(t.stopIDs[Int(t.stopParent[$0.stop])]) : .null },
            Column("routes") { .list(served[$0.stop].map { .string(StopIndex.routeName(t, $0)) }) },
        ]
        var table = [data[0], data[2], data[5], data[6]]
        if near != nil {
            let distance = Column<(stop: Int, meters: Double?)>("distance_meters", "METERS") { $0.meters.map { .int(Int($0.rounded())) } ?? .null }
            data.append(distance)
            table.insert(distance, at: 0)
        }
        var notices = feed.notices
        if rows.isEmpty { notices.append("No stop of \(feed.summary.name) matches") }
        let feed = Self.feedColumn(t) { (row: (stop: Int, meters: Double?)) in t.feed(ofStop: row.stop) }
        var output = Output(rows, data: feed + data, table: feed + table, notices: notices)
        output.geoJSON { GeoJSON.points($0) }
        return output
    }

    /// Over several feeds, a first column naming each row's feed.
    static func feedColumn<Row>(_ t: Timetable, _ feed: @escaping @Sendable (Row) -> Int) -> [Column<Row>] {
        t.isCombination ? [Column("feed") { .string(t.feedName(feed($0))) }] : []
    }

    static let routeTypes: [Int: String] = [0: "tram", 1: "subway", 2: "rail", 3: "bus", 4: "ferry", 5: "cable tram", 6: "aerial lift",
                                             7: "funicular", 11: "trolleybus", 12: "monorail"]

    /// A word for route_type, extended types included (100–199 rail, 700–799 bus, …).
    static func routeTypeWord(_ type: Int) -> String {
        if let word = routeTypes[type] { return word }
        switch type {
        case 100...199: return "rail"
        case 200...299: return "coach"
        case 400...499: return "urban rail"
        case 700...799: return "bus"
        case 800...899: return "trolleybus"
        case 900...999: return "tram"
        case 1000...1099, 1200...1299: return "ferry"
        case 1300...1399: return "aerial lift"
        case 1400...1499: return "funicular"
        default: return "other (\(type))"
        }
    }

    func routes(_ feed: Feed) throws(TransitError) -> Output {
        let t = feed.timetable
        let data: [Column<Int>] = [
            Column("id") { .string(t.routeIDs[$0]) }, Column("agency") { .string(t.routeAgency[$0]) },
            Column("short_name", "SHORT") { .string(t.routeShortName[$0]) }, Column("long_name", "NAME") { .string(t.routeLongName[$0]) },
            Column("type") { .string(Self.routeTypeWord(Int(t.routeType[$0]))) }, Column("color") { .string(t.routeColor[$0]) },
        ]
        let column = Self.feedColumn(t) { t.feed(ofRoute: $0) }
        return Output(Array(0..<t.routeCount), data: column + data, table: column + [data[0], data[2], data[3], data[4], data[5]], notices: feed.notices)
    }

    // MARK: departures

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
        var status: String = "scheduled"
        /// The trip's id where realtime data names it (an added trip), else the timetable's.
        var tripID: String? = nil
        var route: Int = -1
        var headsign: String? = nil
        /// The ids of the alerts in force that apply to it.
        var alerts: [String] = []

        /// Where it sorts and what a window compares: the time to plan on, else the planned one.
        var seconds: Int { predicted ?? planned ?? 0 }
        var delay: Int? { status == "updated" ? predicted.flatMap { p in planned.map { p - $0 } } : nil }
    }

    /// `feed` on the clock of the stop's feed, as `run` opens it.
    func departures(_ feed: Feed, _ request: GTFSDeparturesRequest, updates: TripUpdates? = nil) throws(TransitError) -> Output {
        let t = feed.timetable
        let stops = try StopIndex(t).resolve(request.stop)
        let day = try serviceDay(request.date, feed)
        let clock = ServiceClock(day: day, zone: t.zone)
        let window = try ServiceWindow(after: request.after).seconds(on: clock, now: context.settings.now)
        var calls = board(t, stops, day: day, after: window.after, updates: updates)
        if let limit = request.limit { calls = Array(calls.prefix(limit)) }
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
            Column("realtime", in: realtimeUse) { .bool($0.status != "scheduled") },
            Column("status", in: realtimeUse) { .string($0.status) },
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
                .string(([c.status == "scheduled" || c.status == "updated" ? nil : c.status] + [c.alerts.isEmpty ? nil : "!"]).compactMap { $0 }.joined(separator: " "))
            }, at: 1)
        }
        var notices = feed.notices + (updates?.notices ?? [])
        notices += Self.alertNotices(calls.flatMap(\.alerts), updates)
        if calls.isEmpty {
            notices.append(emptyNotice("No departures from \(request.stop)", t, clock: clock, typed: ServiceWindow(after: request.after), window: window) {
                !board(t, stops, day: day, after: $0.after, updates: updates).isEmpty
            })
        }
        let column = Self.feedColumn(t) { (c: Call) in t.feed(ofStop: c.stop) }
        return Output(calls, data: column + data, table: column + table, notices: notices)
    }

    /// Why an answer on `clock`'s day is empty: the window asked, or now; the feed's dates when
    /// the day is outside them; and, where a time before 03:00 was read as the night after and
    /// the feed's own hours find something (`findsWith`), how to ask for those.
    func emptyNotice(_ start: String, _ t: Timetable, clock: ServiceClock, typed: ServiceWindow, window: ServiceWindow.Seconds,
                     findsWith: (ServiceWindow.Seconds) -> Bool) -> String {
        let day = clock.day
        var notice = start + " on \(day.iso)"
        if !typed.isEmpty { notice += " in that window" }
        if window.startsNow { notice += " from now (\(ClockTime.hhmm(clock.instant(window.after ?? 0), zone: t.zone)))" }
        let range = t.dateRange
        if day < range.first || day > range.last { notice += " (the feed covers \(range.first.iso) to \(range.last.iso))" }
        if let other = typed.asTheFeedWritesIt, let seconds = try? other.seconds(on: clock, now: context.settings.now), findsWith(seconds) {
            notice += "; " + ServiceWindow.nightAfterHint(other)
        }
        return notice
    }

    /// The calls at `stops` leaving on `day`'s service (and the day before's, past 24:00) from
    /// `after` (seconds of the service day), in order of the time to plan on. With realtime
    /// data: predicted times, canceled and skipped calls kept and marked, added trips in.
    func board(_ t: Timetable, _ stops: [Int], day: LocalDate, after: Int?, updates: TripUpdates? = nil) -> [Call] {
        var calls: [Call] = []
        let wanted = Set(stops)
        for (offset, serviceDay) in [(0, day), (-1, day.adding(days: -1))] {
            let shift = offset * 86_400
            // The board reads the day's runs through the router's seam.
            let schedule = DaySchedule(t, day: serviceDay.dayNumber)
            for stop in stops {
                for k in schedule.calls(at: stop) {
                    let (q, i) = schedule.call(k)
                    guard i < schedule.length(q) - 1, schedule.canBoard(q, i) else { continue }
                    for run in 0..<schedule.runCount(q) {
                        let trip = schedule.trip(q, run), start = Int(schedule.departure(q, run, 0))
                        let planned = Int(schedule.departure(q, run, i)) + shift
                        var call = Call(trip: trip, stop: stop, planned: planned, predicted: planned, dayOffset: offset, runStart: start,
                                        route: Int(t.tripRoute[trip]))
                        if let instance = updates?.instance(trip: trip, day: serviceDay.dayNumber, start: start) {
                            switch instance.status {
                            case .hidden, .added: continue
                            case .canceled:
                                call.predicted = nil
                                call.status = "canceled"
                            case .updated:
                                guard i < instance.calls.count else { break }
                                let rt = instance.calls[i]
                                call.stop = rt.stop
                                call.status = rt.status.rawValue
                                call.predicted = rt.status == .skipped ? nil : rt.departure + shift
                            }
                        }
                        guard call.seconds >= 0, call.seconds >= after ?? Int.min else { continue }
                        calls.append(call)
                    }
                }
            }
            // Trips only the realtime data has, boarding here.
            for index in updates?.added(on: serviceDay.dayNumber) ?? [] {
                guard let instance = updates?.instances[index] else { continue }
                for (i, rt) in instance.calls.enumerated() where i < instance.calls.count - 1 && wanted.contains(rt.stop) && Timetable.canBoard(rt.flags) {
                    let call = Call(trip: instance.trip, stop: rt.stop, planned: nil, predicted: rt.departure + shift, dayOffset: offset,
                                    runStart: instance.calls.first?.departure ?? 0, status: "added", tripID: instance.tripID, route: instance.route,
                                    headsign: instance.headsign)
                    guard call.seconds >= 0, call.seconds >= after ?? Int.min else { continue }
                    calls.append(call)
                }
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

    /// A notice per alert named by `ids` (once each, in order): `Alert 3i: Unknown effect`.
    static func alertNotices(_ ids: [String], _ updates: TripUpdates?) -> [String] {
        guard let updates else { return [] }
        var seen = Set<String>()
        return ids.filter { seen.insert($0).inserted }.compactMap { id in
            updates.alerts.first { $0.id == id }.map { "! alert \(id) (\($0.effect)): " + ($0.header ?? $0.description ?? "no text") }
        }
    }

    // MARK: one trip

    /// A call of one trip's run: planned and predicted times (nil where there is none).
    struct TripCall {
        var position: Int
        var stop: Int
        var plannedArrival: Int?
        var plannedDeparture: Int?
        var arrival: Int?
        var departure: Int?
        var flags: UInt8
        var status: String
        var delay: Int?
    }

    /// A trip by its id: over several feeds `feed:id`, or a bare id one feed has (nil: none has).
    static func trip(named id: String, in t: Timetable) throws(TransitError) -> Int? {
        if let trip = t.tripIDs.indices(of: id).first { return trip }
        return try t.bareID(id, in: t.tripIDs, what: "trip_id")
    }

    /// The calls of `tripID`'s run on the service day, with realtime data where there is some.
    /// `feed` on the clock of the trip's feed, as `run` opens it.
    func trip(_ feed: Feed, _ tripID: String, date: String?, start: Int?, updates: TripUpdates? = nil) throws(TransitError) -> Output {
        let found = try Self.trip(named: tripID, in: feed.timetable)
        let t = feed.timetable
        let day = try serviceDay(date, feed)
        let clock = ServiceClock(day: day, zone: t.zone)
        var notices = feed.notices + (updates?.notices ?? [])
        var calls: [TripCall] = []
        // A trip the realtime data runs on the day (ADDED, NEW, DUPLICATED, or a REPLACEMENT of a planned one).
        let added = updates.flatMap { u in u.instances.firstIndex { $0.status == .added && $0.tripID == tripID && $0.day == day.dayNumber }.map { u.instances[$0] } }
        if let added {
            calls = added.calls.enumerated().map { i, rt in
                TripCall(position: i, stop: rt.stop, plannedArrival: rt.plannedArrival, plannedDeparture: rt.plannedDeparture,
                         arrival: rt.status == .skipped ? nil : rt.arrival, departure: rt.status == .skipped ? nil : rt.departure,
                         flags: rt.flags, status: rt.status == .skipped ? "skipped" : "added")
            }
            if added.trip >= 0 && added.tripID == t.tripIDs[added.trip] { notices.append("Trip \(tripID) runs as the real-time data replaces it on \(day.iso)") }
        } else if let trip = found {
            let runs = t.runs(ofTrip: trip)
            guard t.serviceRuns(Int(t.tripService[trip]), day: day.dayNumber), let first = runs.first else {
                notices.append("Trip \(tripID) does not run on \(day.iso)")
                return Output([TripCall](), data: [], table: [], notices: notices)
            }
            var chosen = first
            if let start {
                guard let run = runs.first(where: { t.runStart(pattern: $0.pattern, row: $0.row) == start }) else {
                    throw .usage("trip \(tripID) has no run starting at \(ClockTime.gtfs(start)) on \(day.iso); its runs start \(Self.starts(t, runs))")
                }
                chosen = run
            } else if runs.count > 1 {
                // The next run from now on today's service day (when a window would start now), else the first.
                let now = try ServiceWindow().seconds(on: clock, now: context.settings.now).after ?? Int.min
                chosen = runs.first { t.runStart(pattern: $0.pattern, row: $0.row) >= now } ?? first
                notices.append("Trip \(tripID) runs \(runs.count) times on \(day.iso) (\(Self.starts(t, runs))); this is the run of \(ClockTime.gtfs(t.runStart(pattern: chosen.pattern, row: chosen.row))); --start HH:MM:SS picks another")
            }
            let q = chosen.pattern, length = t.patternLength(q), stopStart = Int(t.patternStopStart[q])
            let instance = updates?.instance(trip: trip, day: day.dayNumber, start: t.runStart(pattern: q, row: chosen.row))
            calls = (0..<length).map { i in
                let index = t.timeIndex(pattern: q, row: chosen.row, position: i)
                let a = Int(t.times[index]), d = Int(t.times[index + 1])
                var call = TripCall(position: i, stop: Int(t.patternStops[stopStart + i]), plannedArrival: a, plannedDeparture: d,
                                    arrival: a, departure: d, flags: t.patternFlags[stopStart + i], status: "scheduled")
                switch instance?.status {
                case .canceled?, .hidden?:
                    call.arrival = nil
                    call.departure = nil
                    call.status = "canceled"
                case .updated?:
                    guard let rtCalls = instance?.calls, i < rtCalls.count else { break }
                    let rt = rtCalls[i]
                    call.stop = rt.stop
                    call.status = rt.status.rawValue
                    if rt.status == .skipped {
                        call.arrival = nil
                        call.departure = nil
                    } else if rt.status == .updated {
                        call.arrival = rt.arrival
                        call.departure = rt.departure
                        call.delay = rt.departure - d
                    }
                default: break
                }
                return call
            }
        } else {
            throw .usage("unknown trip_id '\(tripID)' in feed \(feed.summary.name); the trip_id column of 'gtfs departures' and of trips' JSON legs names them")
        }
        let length = calls.count
        let layout = JourneyLayout(t, clock: clock)
        let zone = t.zone
        // No arrival at the first call, no departure from the last.
        @Sendable func time(_ seconds: Int?, _ c: TripCall, first: Bool) -> Value {
            guard let seconds, c.position != (first ? 0 : length - 1) else { return .null }
            return .time(clock.instant(seconds), zone)
        }
        let data: [Column<TripCall>] = [
            Column("sequence", "SEQ") { .int($0.position + 1) }, Column("stop_id", "STOP") { .string(t.stopIDs[$0.stop]) },
            Column("stop_name", "NAME") { .string(t.stopNames[$0.stop]) }, Column("platform") { layout.platform($0.stop) },
            Column("arrival", "ARRIVE") { time($0.arrival, $0, first: true) }, Column("departure", "DEPART") { time($0.departure, $0, first: false) },
            Column("planned_arrival") { time($0.plannedArrival, $0, first: true) },
            Column("planned_departure") { time($0.plannedDeparture, $0, first: false) },
            Column("delay_seconds") { $0.delay.map(Value.int) ?? .null }, Column("realtime") { .bool($0.status != "scheduled") },
            Column("status") { .string($0.status) },
        ]
        // Where a rider may not get on or off, the table says so; and how realtime data changed the call.
        let note = Column<TripCall>("note", "") { c in
            .string(([Timetable.canBoard(c.flags) || c.position == length - 1 ? nil : "no pickup",
                      Timetable.canAlight(c.flags) || c.position == 0 ? nil : "no drop-off"]
                     + [c.status == "scheduled" || c.status == "updated" ? nil : c.status]).compactMap { $0 }.joined(separator: ", "))
        }
        @Sendable func shown(_ c: TripCall, arrival: Bool) -> Value {
            let (planned, predicted) = arrival ? (c.plannedArrival, c.arrival) : (c.plannedDeparture, c.departure)
            guard c.position != (arrival ? 0 : length - 1) else { return .string("") }
            let p = planned.map { ClockTime.hhmm(clock.instant($0), zone: zone, on: day) }
            guard let now = predicted.map({ ClockTime.hhmm(clock.instant($0), zone: zone, on: day) }) else { return .string(p ?? "") }
            guard let p, p != now else { return .string(now) }
            return .string("\(p) → \(now)")
        }
        var table: [Column<TripCall>] = [data[0], data[1], data[2],
                                         Column("arrival", "ARRIVE") { shown($0, arrival: true) },
                                         Column("departure", "DEPART") { shown($0, arrival: false) }, note]
        if calls.allSatisfy({ note.value($0) == .string("") }) { table.removeLast() }
        let column = Self.feedColumn(t) { (c: TripCall) in t.feed(ofStop: c.stop) }
        return Output(calls, data: column + data, table: column + table, notices: notices)
    }

    static func starts(_ t: Timetable, _ runs: [(pattern: Int, row: Int)]) -> String {
        let starts = runs.map { ClockTime.gtfs(t.runStart(pattern: $0.pattern, row: $0.row)) }
        return starts.count <= 4 ? starts.joined(separator: ", ") : "\(starts[0]), \(starts[1]) … \(starts[starts.count - 1])"
    }

    // MARK: trips

    /// `feed` on the query's clock (`onOriginClock`), as `run` opens it.
    func trips(_ feed: Feed, _ request: GTFSTripsRequest, updates: TripUpdates? = nil) throws(TransitError) -> Output {
        let t = feed.timetable
        let day = try serviceDay(request.date, feed)
        let clock = ServiceClock(day: day, zone: t.zone)
        context.progress("finding journeys")
        let window = try request.window.seconds(on: clock, now: context.settings.now)
        var journeys = try plan(t, request, day: day, window: window, updates: updates)
        var notices = feed.notices + (updates?.notices ?? [])
        // The table leaves out what nobody takes; JSON and tsv keep the whole Pareto set.
        if context.settings.format == .table && !request.all {
            let kept = JourneyLayout.withoutUnlikely(journeys)
            if kept.count < journeys.count {
                let hidden = journeys.count - kept.count
                notices.append("\(hidden) \(hidden == 1 ? "journey" : "journeys") hidden: another leaves at most \(JourneyLayout.unlikelyLeavesWithin / 60) minutes earlier, "
                               + "arrives at least \(JourneyLayout.unlikelyArrivesBy / 60) minutes earlier and changes no more; --all shows them")
                journeys = kept
            }
        }
        if journeys.isEmpty {
            notices.append(emptyNotice("No journey from \(request.from) to \(request.to)", t, clock: clock, typed: request.window, window: window) {
                (try? plan(t, request, day: day, window: $0, updates: updates))?.isEmpty == false
            })
        }
        let layout = JourneyLayout(t, clock: clock, journeys: journeys, updates: updates, from: request.from, to: request.to)
        notices += Self.alertNotices(journeys.flatMap { $0.legs.flatMap { layout.alerts($0).map(\.id) } }, updates)
        return layout.output(journeys, notices: notices)
    }

    /// The journeys of `window`; with `--arrive-by`, those arriving by then, latest departure first.
    func plan(_ t: Timetable, _ request: GTFSTripsRequest, day: LocalDate, window: ServiceWindow.Seconds,
              updates: TripUpdates? = nil) throws(TransitError) -> [Router.Journey] {
        // `--limit` alone lets the router stop early; a filter after it needs the whole window.
        let filtered = window.arriveBy != nil || request.fastest
        var journeys = try GTFSFeed(timetable: t).plan(GTFSFeed.TripQuery(
            from: request.from, to: request.to, date: day, after: window.after, before: window.before, transfers: request.transfers,
            minTransferSeconds: request.minTransfer, walkMeters: request.walkMeters, limit: filtered ? nil : request.limit,
            radius: request.radius, linkMeters: request.link), updates: updates)
        guard filtered else { return journeys }
        if request.fastest { journeys = JourneyLayout.fastest(journeys) }
        if let by = window.arriveBy {
            // A filter on the day's Pareto set: every journey arriving in time, the latest to leave first.
            journeys = journeys.filter { $0.arrival <= by }.reversed()
        }
        if let limit = request.limit { journeys = Array(journeys.prefix(limit)) }
        return journeys
    }
}
