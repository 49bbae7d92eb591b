import Foundation

/// A compiled GTFS feed for library users: open an imported feed, ask for journeys.
public struct GTFSFeed: Sendable {
    let timetable: Timetable

    /// A feed imported under `cacheDirectory` (`transit gtfs import … --name NAME`).
    public static func imported(_ name: String, cacheDirectory: String) throws(TransitError) -> GTFSFeed {
        GTFSFeed(timetable: try FeedStore.load(FeedStore(cacheDirectory: cacheDirectory).path(of: name)).1)
    }

    /// Every Pareto-optimal journey of service day `date` between two stops (ids, codes or
    /// names), as (departure, arrival, transfers) in seconds of the service day.
    public func journeys(from: String, to: String, date: LocalDate, transfers: Int = 2, minTransferMinutes: Int = 2,
                         after: Int? = nil, before: Int? = nil) throws(TransitError) -> [(departure: Int, arrival: Int, transfers: Int)] {
        let index = StopIndex(timetable)
        let query = Router.Query(origins: try index.resolve(from), destinations: try index.resolve(to), day: date.dayNumber,
                                 after: after, before: before, maxTransfers: transfers, minTransfer: minTransferMinutes * 60)
        return Router(timetable, query, children: index.children).journeys().map { ($0.departure, $0.arrival, $0.transfers) }
    }
}
