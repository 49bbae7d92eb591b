import Foundation
import TransitSupport
import TransitGTFS

/// What a `gtfs` command runs with, and the steps several commands share, each written once:
/// opening the feeds (one, or a combination), choosing the query's clock and service day,
/// choosing and reading the real-time sources, naming an unknown stop, and saying why an
/// answer is empty.
struct GTFSContext {
    let context: Context
    let store: FeedStore
    /// What the checks where values are read found in each timetable opened (shared by copies).
    private let opened = Locked<[TimetableDamage]>([])

    /// The clock a query reads its default day and "now" at: the settings' (`TRANSIT_NOW` or
    /// the system's), or a recording's (`reading(_:)`).
    private(set) var now: Date

    init(_ context: Context) {
        self.context = context
        // Compiling a feed and reading a map say how far they are on the progress line.
        let detail = context.detail
        store = FeedStore(cacheDirectory: context.settings.cacheDirectory, now: context.settings.now, keepsCompiled: !context.settings.noCache,
                          progress: { detail(ProgressBar.text($0)) })
        now = context.settings.now
    }

    /// The same, on the clock of the real-time data read: when every source was a recording (a
    /// file, the clock not pinned), its header time, so that a recording is asked about its own
    /// day and moment by default.
    func reading(_ updates: TripUpdates?) -> GTFSContext {
        guard let at = updates?.recordedAt else { return self }
        return self.at(Date(timeIntervalSince1970: TimeInterval(at)))
    }

    /// The same, on the clock a search was read at (`JourneySearch.now`).
    func at(_ now: Date) -> GTFSContext {
        var copy = self
        copy.now = now
        return copy
    }

    var settings: Settings { context.settings }

    /// Throws where a timetable opened was found damaged (`TimetableDamage.refuse`).
    func refuseDamage() throws(TransitError) {
        for damage in opened.current { try damage.refuse() }
    }
    func progress(_ words: String) { context.progress(words) }

    // MARK: the feeds

    /// An open feed (or combination) with what its user should know about it.
    struct Feed {
        var summary: FeedStore.Summary
        var timetable: Timetable
        var notices: [String]
    }

    /// The feeds `--feed` names (several: a combination; `all`: every imported feed; none:
    /// `$TRANSIT_GTFS_FEED`, else the one imported feed).
    func open(_ given: [String]) throws(TransitError) -> Feed {
        progress("opening the feed")
        let (summary, timetable, warnings) = try store.resolve(given, variable: settings.variables["TRANSIT_GTFS_FEED"])
        opened.withLock { $0.append(timetable.damage) }
        return Feed(summary: summary, timetable: timetable, notices: warnings.map { "GTFS: " + $0 } + Self.combinationNotices(timetable))
    }

    /// The feeds `--feed` names; with none named and several imported, the one whose timetable
    /// has what the command asks for (`find` finds it there; `asked`, in words: "stops named
    /// market"): a notice says which, and none or several is a usage error naming them. With it,
    /// what `find` found there (nil where the feed was named). `find` nil (no filter given): as
    /// `open(_:)`.
    func open<Found>(_ given: [String], having asked: String, _ find: ((Timetable) -> Found?)?) throws(TransitError) -> (feed: Feed, found: Found?) {
        let imported = given.isEmpty && settings.variables["TRANSIT_GTFS_FEED"] == nil && find != nil ? store.feeds() : []
        guard imported.count > 1, let find else { return (try open(given), nil) }
        let found = imported.compactMap { summary in (try? open([summary.name])).flatMap { feed in find(feed.timetable).map { (feed, $0) } } }
        if found.count == 1, var only = found.first {
            only.0.notices.append("\(only.0.summary.name) is the one of \(imported.count) imported feeds with \(asked); --feed chooses")
            return only
        }
        throw Self.sayWhich(imported.map(\.name), having: found.map(\.0.summary.name), asked)
    }

    /// Of several imported feeds, none or several have what was asked: one line naming them
    /// (as many as fit a notice's length) and what to type.
    static func sayWhich(_ imported: [String], having found: [String], _ asked: String) -> TransitError {
        let having = found.isEmpty ? "none has \(asked)" : fitted("", found, "").replacingOccurrences(of: ", ", with: " and ") + " have \(asked)"
        return .usage(fitted("\(imported.count) feeds are imported (", imported, ")") + " and \(having): say which with --feed NAME, or --feed all for every feed as one network")
    }

    /// The feeds `--feed` names, with the query's ends resolved by the engine (`GTFSFeed.ends`:
    /// on the map's streets where the query needs them, on the clock the query reads its day and
    /// window on). `destination` false: a question from one place (reach). The feed comes back on
    /// the query's clock.
    func open(_ given: [String], _ q: JourneyQuery, destination: Bool = true) throws(TransitError) -> (feed: Feed, engine: GTFSFeed, ends: QueryEnds) {
        try resolving(given, asked: q.from.text + (destination ? " and " + q.to.text : ""), withMap: { $0.needsStreets(q, destination: destination) }) {
            engine throws(TransitError) in try engine.ends(q, destination: destination)
        }
    }

    /// The feeds `--feed` names with a board's stop resolved by the engine (`GTFSFeed.boardStops`),
    /// on the clock of the stop's feed.
    func open(_ given: [String], board stop: String) throws(TransitError) -> (feed: Feed, stops: [Int]) {
        let (feed, _, ends) = try resolving(given, asked: stop, withMap: { _ in false }) { engine throws(TransitError) in try engine.boardStops(stop) }
        return (feed, ends.origin.stops)
    }

    /// What `resolve` finds of what a user typed in the feeds `--feed` names; no feed named and
    /// several imported, in the one where it finds them (`asked`: what it looks for, in words).
    /// Found there without the feed's map, it is resolved again with it where `withMap` says the
    /// question needs it. An unknown stop is said as `withStopHelp` says it.
    private func resolving(_ given: [String], asked: String, withMap: (GTFSFeed) -> Bool,
                           _ resolve: @escaping (GTFSFeed) throws(TransitError) -> QueryEnds) throws(TransitError) -> (feed: Feed, engine: GTFSFeed, ends: QueryEnds) {
        let (picked, ended) = try open(given, having: asked) { t in try? resolve(GTFSFeed(timetable: t)) }
        var feed = picked
        let engine = self.engine(feed)
        let ends: QueryEnds
        if let ended, !withMap(engine) {
            ends = ended
        } else {
            ends = try withStopHelp(picked) { () throws(TransitError) in try resolve(engine) }
        }
        feed.timetable = ends.timetable
        return (feed, GTFSFeed(timetable: ends.timetable, map: engine.map, name: engine.name), ends)
    }

    /// The engine's view of an open feed: its timetable, the map it was imported with (reading it
    /// says so on the progress line) and its name.
    func engine(_ feed: Feed) -> GTFSFeed {
        let context = self.context
        return GTFSFeed(timetable: feed.timetable, map: FeedMap(feed.summary, store, reading: { context.progress("reading the streets") }), name: feed.summary.name)
    }

    /// The imported feed `name`; an unknown name is a usage error listing the imported ones.
    func importedFeed(_ name: String) throws(TransitError) -> FeedStore.Summary {
        let all = store.feeds() + store.olderFeeds()
        guard let feed = all.first(where: { $0.name == name }) else {
            throw .usage("no imported feed named '\(name)'" + (all.isEmpty ? "; none is imported" : "; imported: \(all.map(\.name).joined(separator: ", "))"))
        }
        return feed
    }

    /// What a combination's user should know at once: feeds in different zones, and feeds that
    /// share no service day (no journey can change between them).
    static func combinationNotices(_ t: Timetable) -> [String] {
        guard t.isCombination else { return [] }
        var notices: [String] = []
        let feeds = 0..<t.feedCount
        // One line under `maxNotice` characters however many feeds (issue 44): each feed's zone
        // where that fits, else the zones with how many feeds keep each, as many as fit.
        let tail = "): times are read in the origin's zone (--tz another), printed in each stop's own zone"
        var zones: [(zone: String, feeds: Int)] = []
        for f in feeds {
            let zone = t.zoneName(ofFeed: f)
            if let k = zones.firstIndex(where: { $0.zone == zone }) { zones[k].feeds += 1 } else { zones.append((zone, 1)) }
        }
        if zones.count > 1 {
            let full = "The feeds keep their own zones (" + feeds.map { "\(t.feedName($0)) \(t.zoneName(ofFeed: $0))" }.joined(separator: ", ") + tail
            notices.append(full.count <= maxNotice ? full : fitted("Feeds in \(zones.count) zones (", zones.map { $0.feeds > 1 ? "\($0.zone) ×\($0.feeds)" : $0.zone }, tail))
        }
        // Each feed's days with service, as bits over the combination's calendar.
        let days = feeds.map(t.days(ofFeed:))
        func span(_ f: Int) -> String { t.span(ofDays: days[f]).map { $0.first.iso + " to " + $0.last.iso } ?? "no service day" }
        let apart = feeds.flatMap { a in feeds.filter { b in a < b && !zip(days[a], days[b]).contains { $0 & $1 != 0 } }.map { (a, $0) } }
        if apart.count == 1, let (a, b) = apart.first {
            notices.append("\(t.feedName(a)) (\(span(a))) and \(t.feedName(b)) (\(span(b))) share no service day: no journey changes between them")
        } else if !apart.isEmpty {
            notices.append(fitted("\(apart.count) pairs of feeds share no service day (no journey changes between them): ",
                                  apart.map { "\(t.feedName($0.0)) and \(t.feedName($0.1))" }, ""))
        }
        return notices
    }

    /// A notice's longest line (issue 44: one of 780 characters named every feed).
    static let maxNotice = 160

    /// `head`, as many of `items` as fit within `maxNotice` with `tail` (the rest as `…`), `tail`.
    static func fitted(_ head: String, _ items: [String], _ tail: String) -> String {
        var shown: [String] = []
        for (k, item) in items.enumerated() {
            let more = k + 1 < items.count ? ", …" : ""
            let line = head + (shown + [item]).joined(separator: ", ") + more + tail
            guard line.count <= maxNotice || shown.isEmpty else { break }
            shown.append(item)
        }
        return head + shown.joined(separator: ", ") + (shown.count < items.count ? ", …" : "") + tail
    }

    /// Over several feeds, a first column naming each row's feed.
    static func feedColumn<Row>(_ t: Timetable, _ feed: @escaping @Sendable (Row) -> Int) -> [Column<Row>] {
        t.isCombination ? [Column("feed") { .string(t.feedName(feed($0))) }] : []
    }

    // MARK: the day and the window

    /// `--date` in the feed's zone; by default the service day in progress (a board's, a trip's).
    func serviceDay(_ text: String?, _ feed: Feed) throws(TransitError) -> LocalDate {
        let zone = feed.timetable.zone
        if let text { return try Arguments.date(text, zone: zone, now: now) }
        return ServiceClock.inProgress(at: now, in: zone).day
    }

    /// Why an answer on `clock`'s day is empty: the window asked, or now; the feed's dates when
    /// the day is outside them.
    func emptyNotice(_ start: String, _ t: Timetable, clock: ServiceClock, typed: ServiceWindow, window: ServiceWindow.Seconds) -> String {
        let day = clock.day
        var notice = start + " on \(day.iso)"
        if !typed.isEmpty { notice += " in that window" }
        if window.startsNow { notice += " from now (\(ClockTime.hhmm(clock.instant(window.after ?? 0), zone: t.zone)))" }
        if window.hasPassed { notice += ": that time has passed today; --date tomorrow asks for tomorrow's" }
        let range = t.dateRange
        if day < range.first || day > range.last { notice += " (the feed covers \(range.first.iso) to \(range.last.iso))" }
        return notice
    }

    // MARK: stops and routes as typed

    /// An unknown stop with nothing close names the feed and how to look; coordinates given
    /// as a stop say that a stop is wanted, and where to find the ones near them.
    func withStopHelp<T>(_ feed: Feed, _ body: () throws(TransitError) -> T) throws(TransitError) -> T {
        do { return try body() } catch {
            guard case .notFound("stop", let query, let suggestions) = error else { throw error }
            if Coordinate(parsing: query) != nil {
                throw .usage("'\(query)' looks like coordinates; a stop is wanted here (an id, a code or a name). The stops near it: transit gtfs stops --near \(query.replacingOccurrences(of: " ", with: ""))")
            }
            guard suggestions.isEmpty else { throw error }
            // Over several imported feeds, the look names them all.
            let all = store.feeds().count > 1 ? " --feed all" : ""
            throw .usage("unknown stop '\(query)' in feed \(feed.summary.name); look for it with: transit gtfs stops\(all) --name \"\(query.prefix(3))\"")
        }
    }

    /// A route given by id or name: every route it names.
    func routes(_ text: String, _ feed: Feed) throws(TransitError) -> Set<Int> {
        let found = feed.timetable.routes(named: text)
        guard !found.isEmpty else { throw .usage("no route '\(text)' in feed \(feed.summary.name); 'transit gtfs routes' lists them") }
        return Set(found)
    }

    // MARK: real-time sources

    /// The trip updates of a query: the sources given, else (unless `--no-realtime`) the feed's
    /// remembered ones. `only`: the trips whose updates the answer reads (nil: all).
    func tripUpdates(_ choice: GTFSCommandLine.RealtimeChoice, _ feed: Feed, only: Set<Int>? = nil) async throws(TransitError) -> TripUpdates? {
        try await RealtimeSource(context: context, deadline: choice.deadline).tripUpdates(try sources(choice.sources, ignoring: choice.ignoringRemembered, feed),
                                                                                       feed.timetable, only: only)
    }

    /// The sources a query reads: those given (without headers), else the feed's remembered ones
    /// with theirs (none with `--no-realtime`). Over several feeds a source names its feed
    /// (`--realtime bart=URL`), since its ids are that feed's; each feed's remembered sources
    /// are read as its own.
    func sources(_ given: [String], ignoring: Bool, _ feed: Feed) throws(TransitError) -> [RealtimeSource.Group] {
        let t = feed.timetable
        guard t.isCombination else {
            if !given.isEmpty { return [RealtimeSource.Group(sources: given)] }
            guard !ignoring, let remembered = feed.summary.realtime else { return [] }
            return [RealtimeSource.Group(sources: remembered, headers: feed.summary.realtimeHeaders ?? [],
                                         chosenKeys: Set(feed.summary.realtimeKeys ?? []), owner: feed.summary.name)]
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
                part.realtime.map { RealtimeSource.Group(sources: $0, headers: part.realtimeHeaders ?? [], feed: part.name,
                                                         chosenKeys: Set(part.realtimeKeys ?? []), owner: part.name) }
            }
        }
        return groups
    }

    /// What a command that reads real-time data only (vehicles, alerts) starts from: the feed,
    /// the sources given (else the feed's remembered ones; none is a usage error), and the
    /// routes `--route` names.
    func realtimeOnly(_ feeds: [String], sources given: [String], route: String?,
                      command: String) throws(TransitError) -> (feed: Feed, sources: [RealtimeSource.Group], routes: Set<Int>?) {
        let feed = try open(feeds)
        let chosen = try sources(given, ignoring: false, feed)
        guard chosen.contains(where: { !$0.sources.isEmpty }) else {
            throw .usage("gtfs \(command) reads GTFS-Realtime data: give --realtime SOURCE, or import the feed with --realtime URL")
        }
        return (feed, chosen, try route.map { text throws(TransitError) in try routes(text, feed) })
    }

    /// The messages of a command that reads real-time data only, with the notices of reading them.
    func messages(_ groups: [RealtimeSource.Group], deadline: TimeInterval) async throws(TransitError) -> (messages: [RealtimeSource.Message], notices: [String]) {
        try await RealtimeSource(context: context, deadline: deadline).messages(groups)
    }

    /// The zone an answer of real-time data prints in: over several feeds, that of the one feed
    /// whose sources were read (the timetable's when they are several feeds').
    static func zone(of groups: [RealtimeSource.Group], _ t: Timetable) -> TimeZone {
        let feeds = Set(groups.map(\.feed))
        guard feeds.count == 1, let name = feeds.first, let f = t.feed(named: name) else { return t.zone }
        return t.zone(ofFeed: f)
    }

    /// A notice per alert an answer shows (`! alert 3i (…): text`), and one counting the others
    /// that apply to its rows, which `gtfs alerts` lists (`AlertSelection`).
    /// Alerts whose line would read the same (a city's stop closure sent once per route it
    /// names) share one: `! alerts 144319, 144318 (other_effect): text`.
    static func alertNotices(_ selection: AlertSelection, _ updates: TripUpdates?) -> [String] {
        guard let updates else { return [] }
        var lines: [(said: String, ids: [String])] = []
        for alert in selection.shown.compactMap({ updates.alerts[safe: $0] }) {
            let said = "(\(alert.effect)): " + (alert.header ?? alert.description ?? "no text")
            if let k = lines.firstIndex(where: { $0.said == said }) { lines[k].ids.append(alert.id) } else { lines.append((said, [alert.id])) }
        }
        let shown = lines.map { ($0.ids.count == 1 ? "! alert " : "! alerts ") + $0.ids.joined(separator: ", ") + " " + $0.said }
        guard selection.more > 0 else { return shown }
        let more = selection.more == 1 ? "1 more alert applies" : "\(selection.more) more alerts apply"
        return shown + ["\(more) (each row lists the first \(AlertSelection.shownLimit) to apply); gtfs alerts lists every one"]
    }
}
