import Foundation
@_exported import TransitSupport

/// The library's answers, as a program embedding TransitGTFS reads them: the same queries the
/// command line asks (`QueryEnds`, the router, `Board`, `TripCalls`), with stops named and every
/// time an instant (`Date`), real-time data laid over the timetable where it is given.
extension GTFSFeed {
    /// A stop as an answer names it.
    public struct Stop: Sendable, Equatable {
        public let id: String
        public let name: String
        public let latitude: Double
        public let longitude: Double
        /// The zone its times are printed in: its feed's (in a combination, each feed keeps its own).
        public let timeZone: TimeZone
    }

    /// A call's time, as planned and as predicted: nil where there is none (an added trip has no
    /// plan; a canceled or skipped call has no time to plan on). Without real-time data the two
    /// are the same.
    public struct Time: Sendable, Equatable {
        public let planned: Date?
        public let predicted: Date?
    }

    /// A ride, or a walk (`tripID` nil).
    public struct Leg: Sendable, Equatable {
        public let tripID: String?
        public let route: String?
        public let headsign: String?
        /// nil: the point an end was given as (`LAT,LON`).
        public let from: Stop?
        public let to: Stop?
        public let departure: Time
        public let arrival: Time
        public let status: RealtimeStatus
        public let walkMeters: Double?
        /// The service day a ride's run is of: the query's, or a later one where the answer went
        /// on past the day's last journeys (`service_day` in `transit`'s JSON); nil for a walk.
        public let serviceDay: LocalDate?
    }

    /// A Pareto-optimal journey: no other leaves later, arrives earlier and changes less.
    public struct Journey: Sendable, Equatable {
        public let departure: Date
        public let arrival: Date
        public let transfers: Int
        public let legs: [Leg]
        /// A journey on foot (one walk leg), taken at any time: `departure` is the window's start.
        public var anyTime = false
    }

    /// A call on a station board.
    public struct Departure: Sendable, Equatable {
        public let stop: Stop
        public let tripID: String
        public let route: String
        public let headsign: String
        public let time: Time
        public let status: RealtimeStatus
    }

    /// A call of one trip's run.
    public struct Call: Sendable, Equatable {
        public let stop: Stop
        public let arrival: Time
        public let departure: Time
        public let status: RealtimeStatus
    }

    /// A stop reached, at the earliest, with the fewest changes that arrive then.
    public struct Reached: Sendable, Equatable {
        public let stop: Stop
        public let arrival: Date
        /// nil: reached on foot (a stop within the walk of the origin, or of the point).
        public let transfers: Int?
    }

    /// GTFS-Realtime trip updates applied to this feed, with what they said of themselves
    /// (trip updates that matched no trip, data that is old: one line each).
    public struct Realtime: Sendable {
        /// Applied to the feed on its own clock (a combination: its first feed's).
        let updates: TripUpdates
        public let notices: [String]
        /// The messages, for a query on another clock (a combination's feed in another zone).
        let messages: [RealtimeMessage]
        let zone: String
        let language: String

        /// The data applied to `t`, the feed on a query's clock (`QueryEnds.timetable`).
        func updates(on t: Timetable) -> TripUpdates {
            t.timeZone == zone ? updates : RealtimeMessage.applied(messages, to: t, language: language)
        }
    }

    /// A feed compiled from a GTFS zip or an unzipped directory, in memory (nothing written).
    public static func compile(_ path: String) throws(TransitError) -> GTFSFeed {
        GTFSFeed(timetable: try GTFSCompiler.compile(try FeedFiles.open(path)).0)
    }

    /// Several feeds compiled in memory and searched as one, as `imported([names])` searches
    /// imported ones: each named (its ids then read `name:id`), in its own zone, stops of
    /// different feeds within `JourneyQuery.Rules.linkMeters` linked.
    public static func compile(_ feeds: [(name: String, path: String)]) throws(TransitError) -> GTFSFeed {
        guard Set(feeds.map(\.name)).count == feeds.count, feeds.count > 1 else { throw .usage("a combination takes two feeds or more, each named once") }
        var parts: [(name: String, timetable: Timetable)] = []
        for (name, path) in feeds {
            guard FeedStore.validName(name) else { throw .usage("'\(name)' cannot name a feed (letters, digits, '.', '-' and '_')") }
            parts.append((name, try GTFSCompiler.compile(try FeedFiles.open(path)).0))
        }
        return GTFSFeed(timetable: try TimetableCombination.combine(parts))
    }

    /// The feed's zone (its agency_timezone), in which its dates and times are read.
    public var timeZone: TimeZone { timetable.zone }

    /// A GTFS-Realtime message (its protobuf bytes) applied to this feed, read at `now` (nil:
    /// the message's own time, as a recording is read).
    public func realtime(_ message: Data, now: Date? = nil) throws(TransitError) -> Realtime {
        try realtime([(feed: "", message: message)], now: now)
    }

    /// GTFS-Realtime messages applied together, as `transit gtfs trips --realtime` applies its
    /// sources: in order (a later message's update of a trip wins), each naming the trips of
    /// `feed`, a feed of this combination (`imported([names])`; "" for a feed of its own), and
    /// read on that feed's clock. `now`: when they are read (nil: each message's own time).
    /// Their alerts (of messages not too old) are attached, in `language`.
    public func realtime(_ messages: [(feed: String, message: Data)], now: Date? = nil, language: String = "en") throws(TransitError) -> Realtime {
        var read: [RealtimeMessage] = []
        for (feed, data) in messages {
            guard feed.isEmpty || timetable.feed(named: feed) != nil else {
                throw .usage("no feed named '\(feed)' in this timetable" + (timetable.isCombination ? "; its feeds: " + (0..<timetable.feedCount).map(timetable.feedName).joined(separator: ", ") : ""))
            }
            let source = feed.isEmpty ? "GTFS-Realtime" : "\(feed)'s GTFS-Realtime"
            guard let decoded = try RealtimeMessage.decode(data, source: source) else { continue }
            let at = now.map { Int(saturating: $0.timeIntervalSince1970) } ?? decoded.headerSeconds ?? Int(saturating: Date().timeIntervalSince1970)
            read.append(RealtimeMessage(source: source, message: feed.isEmpty ? decoded : decoded.namespaced(feed + ":"), now: at, feed: feed,
                                        isRecording: now == nil))
        }
        let updates = RealtimeMessage.applied(read, to: timetable, language: language)
        return Realtime(updates: updates, notices: updates.notices, messages: read, zone: timetable.timeZone, language: language)
    }

    /// Every Pareto-optimal journey of the query (or those it asks for: the first `limit`, the
    /// earliest, the fastest, arriving by a time), with their legs, each time an instant: the
    /// answer `transit gtfs trips` prints, from the same function (`JourneySearch`). The ends
    /// are walked on the streets of the map an imported feed has, as `transit` walks them.
    public func journeys(_ q: JourneyQuery, realtime: Realtime? = nil) throws(TransitError) -> [Journey] {
        let ends = try self.ends(q)
        let search = try self.search(q, ends, updates: realtime?.updates(on: ends.timetable))
        let journeys = search.journeys(), updates = search.updates
        try timetable.damage.refuse()
        let t = ends.timetable, clock = search.clock
        return journeys.map { journey in
            Journey(departure: clock.instant(journey.departure), arrival: clock.instant(journey.arrival), transfers: journey.transfers,
                    legs: journey.legs.map { leg in
                        let status = updates?.rideStatus(ofInstance: leg.isRide ? leg.instance : -1) ?? .scheduled
                        func time(_ time: LegTime) -> Time {
                            Time(planned: status == .added ? nil : clock.instant(time.planned), predicted: clock.instant(time.predicted))
                        }
                        var meters: Double?
                        if case .walk(let m) = leg.mode { meters = m }
                        return Leg(tripID: leg.isRide ? leg.tripID(t, updates) : nil,
                                   route: leg.isRide ? StopIndex.routeName(t, leg.route(t, updates)) : nil,
                                   headsign: leg.isRide ? leg.headsign(t, updates) : nil,
                                   from: stop(leg.from, t), to: stop(leg.to, t), departure: time(leg.departure), arrival: time(leg.arrival),
                                   status: leg.isRide ? status : .scheduled, walkMeters: meters,
                                   serviceDay: leg.isRide ? search.day.adding(days: leg.dayOffset) : nil)
                    }, anyTime: journey.isOnFoot)
        }
    }

    /// Every stop reachable as the query asks: by a ride, or on foot (within the walk of the
    /// stops `from` names, or within the radius of a point), each at its earliest arrival, as
    /// `transit gtfs reach` prints them.
    public func reach(_ q: ReachQuery, realtime: Realtime? = nil) throws(TransitError) -> [Reached] {
        let journey = q.asJourney, ends = try self.ends(journey, destination: false)
        let search = try self.search(journey, ends, updates: realtime?.updates(on: ends.timetable))
        let reached = search.reach(minutes: q.minutes), t = ends.timetable, clock = search.clock
        try t.damage.refuse()
        return reached.compactMap { reached in
            stop(reached.stop, t).map { Reached(stop: $0, arrival: clock.instant(reached.arrival), transfers: reached.rides > 0 ? reached.rides - 1 : nil) }
        }
    }

    /// A station board: the calls leaving `stop` on the service day `date` at or after `after`
    /// (seconds of that day; nil: all day), canceled and skipped ones marked.
    public func departures(at stop: String, date: LocalDate, after: Int? = nil, realtime: Realtime? = nil) throws(TransitError) -> [Departure] {
        let ends = try boardStops(stop)
        let t = ends.timetable, clock = ServiceClock(day: date, zone: t.zone)
        let calls = Board.calls(t, ends.origin.stops, day: date, after: after, updates: realtime?.updates(on: t))
        try t.damage.refuse()
        return calls.compactMap { call in
            guard let at = self.stop(call.stop, t) else { return nil }
            return Departure(stop: at, tripID: call.tripID ?? t.tripIDs[call.trip], route: StopIndex.routeName(t, call.route),
                             headsign: call.headsign ?? t.headsign(call.trip), time: Time(planned: call.planned.map(clock.instant),
                                                                                       predicted: call.predicted.map(clock.instant)),
                             status: call.status)
        }
    }

    /// The calls of trip `id` on the service day `date` (its first run there, for a
    /// frequencies.txt trip); none when it does not run that day.
    public func trip(_ id: String, date: LocalDate, realtime: Realtime? = nil) throws(TransitError) -> [Call] {
        let t = timetable, clock = ServiceClock(day: date, zone: t.zone), updates = realtime?.updates
        let overlay = updates.map { RealtimeSchedule(t, day: date.dayNumber, updates: $0) }
        var calls: [TripCalls.Call] = []
        if let (added, _) = TripCalls.added(id, day: date.dayNumber, in: t, overlay: overlay, updates: updates) {
            calls = added
        } else if let trip = try TripCalls.trip(named: id, in: t) {
            guard t.serviceRuns(t.service(ofTrip: trip), day: date.dayNumber), let run = t.runs(ofTrip: trip).first else { return [] }
            calls = TripCalls.calls(of: run, day: date.dayNumber, in: t, overlay: overlay)
        } else {
            throw .usage("unknown trip_id '\(id)'")
        }
        try t.damage.refuse()
        return calls.compactMap { call in
            stop(call.stop, t).map {
                Call(stop: $0, arrival: Time(planned: call.plannedArrival.map(clock.instant), predicted: call.arrival.map(clock.instant)),
                     departure: Time(planned: call.plannedDeparture.map(clock.instant), predicted: call.departure.map(clock.instant)),
                     status: call.status)
            }
        }
    }

    private func stop(_ index: Int, _ t: Timetable) -> Stop? {
        guard index >= 0, index < t.stopCount else { return nil }
        let record = t.stop(index)
        return Stop(id: record.id, name: record.name, latitude: record.coordinate.latitude, longitude: record.coordinate.longitude,
                    timeZone: t.zone(ofStop: index))
    }
}
