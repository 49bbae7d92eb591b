import Foundation
import TransitSupport

/// A compiled GTFS feed for library users, and the one sequence `transit gtfs trips` runs too:
/// resolve the stops, pick the service day, ask the router.
public struct GTFSFeed: Sendable {
    package let timetable: Timetable
    /// The map the feed was imported with, whose streets a query walks where it needs them.
    package var map: FeedMap?
    /// The name it was imported under (errors name it); nil for a feed compiled in memory.
    package var name: String?

    package init(timetable: Timetable, map: FeedMap? = nil, name: String? = nil) {
        self.timetable = timetable
        self.map = map
        self.name = name
    }

    /// A feed imported under `cacheDirectory` (`transit gtfs import … --name NAME`), with the map
    /// it was imported with (`--streets`): a query walks its streets as `transit` does.
    public static func imported(_ name: String, cacheDirectory: String) throws(TransitError) -> GTFSFeed {
        let store = FeedStore(cacheDirectory: cacheDirectory)
        let (summary, timetable) = try FeedStore.load(store.path(of: name), named: name)
        return GTFSFeed(timetable: timetable, map: FeedMap(summary, store), name: summary.name)
    }

    /// Several imported feeds searched as one (`--feed a --feed b`): ids written `feed:id`,
    /// stops of different feeds within `JourneyQuery.Rules.linkMeters` linked. Compiled on first use.
    public static func imported(_ names: [String], cacheDirectory: String) throws(TransitError) -> GTFSFeed {
        let store = FeedStore(cacheDirectory: cacheDirectory)
        let (summary, timetable, _) = try store.resolve(names)
        return GTFSFeed(timetable: timetable, map: FeedMap(summary, store), name: summary.name)
    }

    /// Every Pareto-optimal journey of the query, with its legs, on the clock of the origin's
    /// feed: the engine's one answer (`JourneySearch`), without real-time data.
    package func plan(_ q: JourneyQuery) throws(TransitError) -> [Router.Journey] {
        let journeys = try search(q, try ends(q), updates: nil).journeys()
        try timetable.damage.refuse()
        return journeys
    }
}

extension FeedMap {
    /// The map a feed's summary names (nil: the feed was imported without one).
    package init?(_ summary: FeedStore.Summary, _ store: FeedStore, reading: (@Sendable () -> Void)? = nil) {
        guard let path = summary.streets else { return nil }
        self.init(feed: summary.name, path: path, hash: summary.streetsHash, store: store, reading: reading)
    }
}
