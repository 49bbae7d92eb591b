import Foundation
import TransitSupport

/// One journey question, whole: what `transit gtfs trips` asks and what a program embedding the
/// engine asks, the same value (as nigiri's `routing::query`, R5's `ProfileRequest`). The ends
/// and vias as a rider types them; the service day, the zone and the window it is read in; what
/// the answer is (every Pareto-optimal journey, each the same ride walking least: of journeys
/// taking the same runs that differ only where the first is boarded or the last left, the one
/// walking least at the ends; the first N, the earliest, the fastest); the
/// rules of changing and walking; the rider's needs. `GTFSFeed.journeys(_:realtime:)` answers it,
/// and `gtfs trips` asks the same function.
public struct JourneyQuery: Sendable, Equatable {
    /// An end as typed, read once: a stop (an id, a code or a name), or a point `LAT,LON`.
    public enum Place: Sendable, Equatable {
        case stop(String)
        /// The point, and its text as typed.
        case point(Coordinate, text: String)

        /// What a rider typed: `LAT,LON` is a point, anything else a stop.
        public init(_ typed: String) {
            self = Coordinate(parsing: typed).map { .point($0, text: typed) } ?? .stop(typed)
        }

        /// The point and its text, where it is one.
        public var point: (at: Coordinate, text: String)? {
            if case .point(let at, let text) = self { return (at, text) }
            return nil
        }

        /// What was typed.
        public var text: String {
            switch self {
            case .stop(let text), .point(_, let text): text
            }
        }
    }

    /// A stop the journey calls at: a stop as `from` names one (a station means its platforms),
    /// and the seconds the rider stays there (0: staying seated on a ride through it is enough;
    /// above 0 the rider alights, and the next ride leaves no sooner than the stay plus the change).
    public struct Via: Sendable, Equatable {
        /// The stop as `from` names one: an id, a code or a name (a station: its platforms).
        public var stop: String
        /// Seconds the rider stays there (0: staying seated is enough).
        public var staySeconds: Int

        /// A via as `--via STOP --via-stay MIN` gives it (minutes × 60).
        public init(_ stop: String, staySeconds: Int = 0) {
            self.stop = stop
            self.staySeconds = staySeconds
        }
    }

    /// The service day asked: a date, or one counted from `now` in the zone the query is read in.
    public enum Day: Sendable, Equatable {
        /// The service day in progress at `now` (before 03:00, yesterday's).
        case inProgress
        /// The calendar day of `now`, and the one after.
        case today, tomorrow
        case on(LocalDate)
    }

    /// The rules of changing and walking, whatever the window.
    public struct Rules: Sendable, Equatable {
        /// Changes at most (0 to `SearchDefaults.maxTransfers`).
        public var transfers: Int
        /// Seconds a change needs where transfers.txt does not say.
        public var minTransferSeconds: Int
        /// Meters of a change on foot within a feed, and from a named origin and to a named
        /// destination; nil: none.
        public var walkMeters: Double?
        /// Over several feeds: stops of different feeds this close are linked (a change of
        /// `minTransferSeconds` plus the walk).
        public var linkMeters: Double
        /// Meters around an end given as a point within which every stop is a start (or an end).
        public var radiusMeters: Double

        /// The command line's defaults (`SearchDefaults`) where a rule is not given.
        public init(transfers: Int = SearchDefaults.transfers, minTransferSeconds: Int = SearchDefaults.minTransferSeconds,
                    walkMeters: Double? = SearchDefaults.walkMeters, linkMeters: Double = SearchDefaults.linkMeters,
                    radiusMeters: Double = SearchDefaults.radiusMeters) {
            (self.transfers, self.minTransferSeconds, self.walkMeters, self.linkMeters, self.radiusMeters)
                = (transfers, minTransferSeconds, walkMeters, linkMeters, radiusMeters)
        }

        /// The longest change on foot they allow (a link between feeds is one too).
        package var longestWalk: Double { max(walkMeters ?? 0, linkMeters) }
    }

    /// Where the journey starts: a stop (a station means all its stops, and those within `walkMeters`), or a point (every stop within `radiusMeters`).
    public var from: Place
    /// Where it ends, as `from`.
    public var to: Place
    /// Stops the journey calls at, in order (at most `RiderNeeds.maxVias`).
    public var vias: [Via] = []
    /// The service day the journeys are of.
    public var day: Day = .inProgress
    /// When the journeys leave (`after`, `before`) or arrive (`arriveBy`), as typed times of the
    /// service day (`ServiceTime`): without `after`, a query of today's service day leaves from `now`.
    public var window = ServiceWindow()
    /// The instant `now`, `+30m`, today and the day in progress are counted from (a recording's
    /// own time where every real-time source was one).
    public var now = Date()
    /// An IANA zone the day and the window are read in; nil: the zone of the origin's feed.
    public var zone: String?
    /// Only the first `limit` journeys by departure (the search covers only as much of the
    /// window as makes them certain); with `arriveBy`, the latest `limit` to leave.
    public var limit: Int?
    /// Only the journeys arriving first: one, or `limit` of them, by arrival, then fewer
    /// changes, then the later departure, each its same ride walking least.
    public var earliest = false
    /// Where the asked window has no journey within `rules.transfers` changes, ask again with one
    /// more at a time up to `SearchDefaults.maxTransfers` before going on into the next day (`gtfs
    /// trips` without `--transfers`); false: the bound is kept strictly.
    public var raisesChanges = false
    /// Only the fastest: a journey goes when another leaves no earlier and arrives no later,
    /// whatever its changes.
    public var fastest = false
    /// Changes and walks.
    public var rules = Rules()
    /// What the rider asks beyond the rules.
    public var needs = RiderNeeds()
    /// The answer draws its walks along the map's streets (GeoJSON, `--geometry`): the map is read.
    package var drawsWalks = false
    /// Every journey of the service day, whatever the window and the time now (`gtfs fares`, and
    /// the day `gtfs journey` checks a journey on).
    package var wholeDay = false
    /// A reach: the minutes after the window's start within which it arrives (the window ends then).
    package var reachMinutes: Int?

    /// The question whole; what is not given is `gtfs trips`' default.
    public init(from: Place, to: Place, day: Day = .inProgress, window: ServiceWindow = ServiceWindow(), now: Date = Date(),
                rules: Rules = Rules(), needs: RiderNeeds = RiderNeeds()) {
        (self.from, self.to, self.day, self.window, self.now, self.rules, self.needs) = (from, to, day, window, now, rules, needs)
    }

    /// Between stops (or points) as typed, on `date`, leaving in [`after`, `before`] (seconds of
    /// that service day, as `gtfs trips --date DATE --after H:MM:SS` asks; neither: the whole day,
    /// whatever the time now).
    public init(from: String, to: String, date: LocalDate, after: Int? = nil, before: Int? = nil, limit: Int? = nil, rules: Rules = Rules(),
                needs: RiderNeeds = RiderNeeds()) {
        self.init(from: Place(from), to: Place(to), day: .on(date),
                  window: ServiceWindow(after: after.map { .asWritten(seconds: $0) } ?? .asWritten(seconds: 0), before: before.map { .asWritten(seconds: $0) }),
                  rules: rules, needs: needs)
        wholeDay = after == nil && before == nil
        self.limit = limit
    }

    /// The calendar day asked, read in `zone` at `now`; nil: the day in progress.
    package func date(in zone: TimeZone) -> LocalDate? {
        if case .inProgress = day { return nil }
        return serviceDay(in: zone)
    }

    /// The service day asked, read in `zone` at `now`.
    package func serviceDay(in zone: TimeZone) -> LocalDate {
        switch day {
        case .inProgress: ServiceClock.inProgress(at: now, in: zone).day
        case .today: LocalDate(now, in: zone)
        case .tomorrow: LocalDate(now, in: zone).adding(days: 1)
        case .on(let date): date
        }
    }
}

/// What is reachable from one place: `transit gtfs reach`'s question, and the library's.
public struct ReachQuery: Sendable, Equatable {
    /// Where the rider starts, as `JourneyQuery.from`.
    public var from: JourneyQuery.Place
    /// The service day.
    public var day: JourneyQuery.Day = .inProgress
    /// Leaving at or after (nil: `now` on today's service day, else the start of the day).
    public var after: ServiceTime?
    /// Arriving within this many minutes of leaving.
    public var minutes: Int
    /// What `now` and today are counted from.
    public var now = Date()
    /// An IANA zone the day and `after` are read in; nil: the zone of the origin's feed.
    public var zone: String?
    /// Changes and walks.
    public var rules = JourneyQuery.Rules()
    /// What the rider asks beyond the rules (its vias are a journey's).
    public var needs = RiderNeeds()

    /// The question whole; what is not given is `gtfs reach`' default.
    public init(from: JourneyQuery.Place, day: JourneyQuery.Day = .inProgress, after: ServiceTime? = nil, minutes: Int, now: Date = Date(),
                rules: JourneyQuery.Rules = JourneyQuery.Rules(), needs: RiderNeeds = RiderNeeds()) {
        (self.from, self.day, self.after, self.minutes, self.now, self.rules, self.needs) = (from, day, after, minutes, now, rules, needs)
    }

    /// The same question as a journey query without a destination (the day read alike).
    package var asJourney: JourneyQuery {
        var q = JourneyQuery(from: from, to: from, day: day, window: ServiceWindow(after: after), now: now, rules: rules, needs: needs)
        q.zone = zone
        q.reachMinutes = minutes
        return q
    }
}
