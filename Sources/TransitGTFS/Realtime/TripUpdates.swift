import Foundation
import TransitSupport

/// GTFS-Realtime trip updates applied to a compiled timetable: per trip instance (a trip on a
/// service day, and for a frequencies.txt trip one of its runs) its calls with predicted times,
/// and the trips the feed adds. The rules are docs/realtime.md's, cited by number (taken from
/// the reference pack's gtfs-rt/SEMANTICS.md; where it and a peer differ, it wins). Nothing
/// here touches the compiled timetable: `RealtimeSchedule` lays this over it for one service
/// day, and every answer (journeys, reach, boards, one trip) reads it there.
package struct TripUpdates {

    package struct Call: Equatable {
        /// The call's stop (a platform change replaces the planned one).
        package var stop: Int
        /// Planned times in seconds of the service day; nil for a trip the timetable does not have.
        package var plannedArrival: Int?
        package var plannedDeparture: Int?
        /// Predicted times (the planned ones where no real-time data reaches).
        package var arrival: Int
        package var departure: Int
        /// `.scheduled`, `.updated` or `.skipped`.
        package var status: RealtimeStatus
        /// The pattern's pickup/drop-off flags (`Timetable.noPickup`, `noDropOff`).
        package var flags: UInt8 = 0

        package var isRealtime: Bool { status != .scheduled }
    }

    /// A trip instance the data speaks of.
    package struct Instance {
        package enum Status: String, Sendable {
            /// Its calls carry real-time times (some may still be scheduled).
            case updated
            /// Runs no more: shown as canceled where it would have called (rule 18).
            case canceled
            /// Removed without a trace (DELETED), or hidden by a REPLACEMENT.
            case hidden
            /// A trip the timetable does not run: ADDED, NEW, DUPLICATED, a REPLACEMENT's calls.
            case added
        }
        package var status: Status
        package var tripID: String
        /// The timetable's trip (-1 for a trip it does not have).
        package var trip: Int
        /// Its route (-1: unknown).
        package var route: Int
        /// Service day number.
        package var day: Int
        /// The timetable's run it updates, cancels or hides (nil for an added trip).
        package var run: (pattern: Int, row: Int)?
        /// One per call of the run (updated), or the added trip's own calls, in order.
        package var calls: [Call]
        package var headsign = ""
    }

    /// A static trip instance: trip, service day, first planned departure (tells a
    /// frequencies.txt trip's runs apart).
    package struct RunKey: Hashable {
        package var trip: Int32
        package var day: Int32
        package var start: Int32

        package init(trip: Int, day: Int, start: Int) {
            self.trip = Int32(clamping: trip)
            self.day = Int32(clamping: day)
            self.start = Int32(clamping: start)
        }
    }

    package var instances: [Instance] = []
    /// Static runs the data updates, cancels or hides → `instances`.
    package var byRun: [RunKey: Int] = [:]
    /// The feed's header time (seconds; milliseconds already divided).
    package var timestamp: Int?
    /// One line per kind of notice, each counted.
    package var notices: [String] = []
    /// The service alerts that came with the data (every one; `ServiceAlert.active` says which hold now).
    package var alerts: [ServiceAlert] = [] {
        didSet { alertIndex = ServiceAlert.Index(alerts) }
    }
    /// The active ones by what their selectors name, so that a call looks at the alerts that
    /// may apply to it, not at every one (a message of a million alerts took a board 52 s).
    private var alertIndex = ServiceAlert.Index([])
    /// When every source was a recording: the latest of their header times, which a query's
    /// default day and "now" are then read at (seconds since 1970).
    package var recordedAt: Int?
    /// Some source's data was read and applied (none failed to come, or was refused as too old or
    /// dated ahead): an answer read through it is live, not the timetable alone.
    package var live = false

    package init() {}

    /// The active alerts that apply to a call of `trip` (or an added trip, by id) on `route` at
    /// `stops`, as indices of `alerts`, in the message's order. `merging`: alerts saying the same
    /// thing (`ServiceAlert.Index.first`) are one, by the first of them.
    package func alertIndices(_ t: Timetable, route: Int, trip: Int, tripID: String? = nil, at stops: [Int?], merging: Bool = true) -> [Int] {
        var seen = Set<Int>()
        return alertIndex.candidates(t, route: route, trip: trip, tripID: tripID, at: stops).compactMap { k -> Int? in
            guard stops.contains(where: { alerts[k].applies(t, route: route, trip: trip, tripID: tripID, stop: $0) }) else { return nil }
            guard merging else { return k }
            let first = alertIndex.first(k)
            return seen.insert(first).inserted ? first : nil
        }
    }

    /// Some alert is in force.
    package var hasActiveAlerts: Bool { alertIndex.hasActive }
    /// An alert in force names the trip `id` (else a trip's alerts are its route's and stops').
    package func namesTrip(_ id: String) -> Bool { alertIndex.namesTrip(id) }

    /// Where in `instances` the data speaks of this static run, if it does.
    package func index(trip: Int, day: Int, start: Int) -> Int? { byRun[RunKey(trip: trip, day: day, start: start)] }

    package func instance(trip: Int, day: Int, start: Int) -> Instance? { index(trip: trip, day: day, start: start).map { instances[$0] } }

    /// The added trips running on `day`.
    package func added(on day: Int) -> [Int] {
        instances.indices.filter { instances[$0].status == .added && instances[$0].day == day }
    }
}

/// Applies one FeedMessage's trip updates to a timetable (rules 5–22 of docs/realtime.md).
package struct TripUpdateApplier {
    package let t: Timetable
    /// What the clock says now (rule 6), in seconds since 1970.
    package let now: Int
    package let source: String

    /// Entities of each kind of trouble, for one counted line each (rule 10); not private, as
    /// the times' rules (TripUpdateTimes.swift) count theirs too.
    var unmatched = 0, tripUpdates = 0, rejectedOrder = 0, rejectedBackwards = 0, droppedStops = 0, farTimes = 0
    private var duplicates = 0, unsupported = 0, addedSkipped = 0, routeContradicts = 0, milliseconds = false
    private var result = TripUpdates()
    /// The feed's stop ids by their bytes, built when first needed; the message's trip ids, each
    /// with the feed's trip of that id (-1: none), found by one pass over the feed's ids.
    private var stopIndex: IDTable?
    private var tripIndex: (ids: IDTable, trips: [Int32])?
    /// The agency's zone, and each service day's clock, worked out once (Foundation's time zone
    /// arithmetic costs microseconds a call, and a feed has thousands of updates).
    private let zone: TimeZone
    private var clocks: [Int: ServiceClock] = [:]

    package mutating func clock(_ day: Int) -> ServiceClock {
        if let known = clocks[day] { return known }
        let clock = ServiceClock(day: LocalDate(dayNumber: day), zone: zone)
        clocks[day] = clock
        return clock
    }

    package init(_ timetable: Timetable, now: Int, source: String) {
        t = timetable
        self.now = now
        self.source = source
        zone = timetable.zone
    }

    /// Data older than this (seconds) gets a notice; older than `refusedAge`, it is not applied.
    /// Data dated ahead of the clock (a server's clock runs fast) is applied with a notice up to
    /// `aheadAge`, and refused beyond: a header a year ahead is not live data.
    package static let staleAge = 90, staleAlertAge = 10 * 60, refusedAge = 30 * 60, aheadAge = 5 * 60

    /// Is data this old (seconds, negative when dated ahead; nil: no header time) not to be
    /// applied? Trip updates and alerts alike.
    package static func refuses(age: Int?) -> Bool { (age ?? 0) > refusedAge || (age ?? 0) < -aheadAge }

    /// The trips whose updates are applied (nil: every trip). A board reads only the trips that
    /// call at its stops, and `gtfs trip` one: the others are checked as if applied, so that
    /// every count of the file's trouble is the file's whatever the command, and not kept.
    package var only: Set<Int>?
    /// The runs of trips not in `only` already checked (a repeated one is counted as a duplicate).
    private var checkedOnly = Set<TripUpdates.RunKey>()

    package static func apply(_ message: FeedMessage, to t: Timetable, now: Int, source: String, only: Set<Int>? = nil) -> TripUpdates {
        var applier = TripUpdateApplier(t, now: now, source: source)
        applier.only = only
        return applier.run(message)
    }

    package mutating func run(_ message: FeedMessage) -> TripUpdates {
        let header = message.header
        result.timestamp = header?.timestamp.map { seconds(Int64(clamping: $0)) }
        if let stamp = result.timestamp {
            // A header's seconds are at most 2^63 / 1000 (`seconds`): no overflow.
            let age = now - stamp
            if age < 0 {
                let ahead = Self.age(-age)
                if Self.refuses(age: age) {
                    result.notices.append("\(source): the data is dated \(ahead) ahead of the clock; not applied: times are as planned")
                    return result
                }
                result.notices.append("\(source): the data is dated \(ahead) ahead of the clock (its server's clock runs fast?); applied")
            } else if Self.refuses(age: age) {
                result.notices.append("\(source): the data is \(Self.age(age)) old; not applied: times are as planned")
                return result
            }
            // Alerts change slowly: a feed of alerts only is stale after 10 minutes, not 90 s.
            let alertsOnly = !message.entities.isEmpty && message.entities.allSatisfy { $0.alert != nil }
            if age > (alertsOnly ? Self.staleAlertAge : Self.staleAge) { result.notices.append("\(source): the data is \(Self.age(age)) old") }
        }
        if header?.incrementality == 1 {
            result.notices.append("\(source): a DIFFERENTIAL feed, applied as a full snapshot")
        }
        let updates = message.entities.filter { $0.isDeleted != true }.compactMap(\.tripUpdate)
        tripUpdates = updates.count
        indexTrips(updates.compactMap { $0.trip?.tripID })
        for update in updates { apply(update, header: header) }
        summarize()
        return result
    }

    /// An age in words a rider reads at a glance: `45 s`, `12 min`, `3 h 10 min`, `4 days`,
    /// `5 months`, `7 years` (issue 44: a capture of 2019 read in 2026 was `64053 h 23 min`).
    package static func age(_ seconds: Int) -> String {
        let day = 86_400
        switch seconds {
        case ..<120: return "\(seconds) s"
        case ..<7200: return "\(seconds / 60) min"
        case ..<(2 * day): return "\(seconds / 3600) h \(seconds % 3600 / 60) min"
        case ..<(60 * day): return "\(seconds / day) days"
        case ..<(730 * day): return "\(seconds / (30 * day)) months"
        default: return "\(seconds / (365 * day)) years"
        }
    }

    /// POSIX seconds (rule 4, `FeedMessage.seconds`), remembering to say once that milliseconds came.
    package mutating func seconds(_ value: Int64) -> Int {
        if value > FeedMessage.millisecondsAbove { milliseconds = true }
        return FeedMessage.seconds(value)
    }

    package mutating func summarize() {
        func say(_ count: Int, _ text: String) { if count > 0 { result.notices.append("\(source): \(text)") } }
        say(unmatched, "\(unmatched) of \(tripUpdates) trip updates matched no trip of the timetable (skipped)")
        say(routeContradicts, "\(routeContradicts) trip updates name a route their trip does not have (skipped)")
        say(rejectedOrder, "\(rejectedOrder) trip updates list their stops out of order (rejected; those trips keep their schedule)")
        say(rejectedBackwards, "\(rejectedBackwards) trip updates have times that go backwards (rejected; those trips keep their schedule)")
        say(droppedStops, "\(droppedStops) stop updates name no call of their trip (dropped)")
        say(farTimes, "\(farTimes) stop time events are more than a day from their call's planned time (not believed, ignored)")
        say(duplicates, "\(duplicates) trip updates repeat a trip instance (the later in the feed wins)")
        say(unsupported, "\(unsupported) trip updates are UNSCHEDULED, which transit does not apply")
        say(addedSkipped, "\(addedSkipped) added trips could not be built (a known trip_id, unknown stops, or fewer than two timed calls)")
        if milliseconds { result.notices.append("\(source): times are in milliseconds, not seconds; read as such") }
    }

    // MARK: one trip update

    package enum Relationship: UInt64 {
        case scheduled = 0, added = 1, unscheduled = 2, canceled = 3, replacement = 5, duplicated = 6, deleted = 7, new = 8
    }

    package mutating func apply(_ update: FeedMessage.TripUpdate, header: FeedMessage.FeedHeader?) {
        let descriptor = update.trip ?? FeedMessage.TripDescriptor()
        guard let relationship = Relationship(rawValue: descriptor.scheduleRelationship ?? 0) else { unsupported += 1; return }
        switch relationship {
        case .unscheduled:
            unsupported += 1
        case .added, .new:
            if let id = descriptor.tripID, trip(id) != nil {
                addedSkipped += 1
                return
            }
            addTrip(update, descriptor: descriptor, trip: -1, tripID: descriptor.tripID ?? "", header: header)
        case .duplicated:
            duplicate(update, descriptor)
        case .scheduled, .canceled, .deleted, .replacement:
            guard let (trip, day, run) = findInstance(descriptor) else { return }
            let key = TripUpdates.RunKey(trip: trip, day: day, start: t.runStart(pattern: run.pattern, row: run.row))
            if let only, !only.contains(trip) {
                // Not applied, but its calls worked out (and dropped), so that what is counted is
                // the file's whatever the command (issue 68: the same Halifax file said 2,393
                // stop updates dropped to trips, 1 to departures, 0 to trip; working out every
                // trip costs its board no time measurable, 54-58 ms either way).
                if !checkedOnly.insert(key).inserted { duplicates += 1 }
                if relationship == .scheduled { _ = updatedCalls(update, run: run, day: day) }
                return
            }
            var instance = TripUpdates.Instance(status: .updated, tripID: t.tripIDs[trip], trip: trip, route: t.route(ofTrip: trip),
                                                day: day, run: run, calls: [], headsign: t.headsign(trip))
            switch relationship {
            case .canceled: instance.status = .canceled
            case .deleted: instance.status = .hidden
            case .replacement:
                instance.status = .hidden
                addTrip(update, descriptor: descriptor, trip: trip, tripID: t.tripIDs[trip], header: header, day: day)
            default:
                guard let calls = updatedCalls(update, run: run, day: day) else { return }
                instance.calls = calls
                if calls.allSatisfy({ $0.status == .skipped }) { instance.status = .canceled }
                if calls.allSatisfy({ $0.status == .scheduled }) { return }
            }
            store(instance, key)
        }
    }

    package mutating func store(_ instance: TripUpdates.Instance, _ key: TripUpdates.RunKey) {
        if let known = result.byRun[key] {
            duplicates += 1
            result.instances[known] = instance
        } else {
            result.byRun[key] = result.instances.count
            result.instances.append(instance)
        }
    }

    // MARK: which trip (rules 7–9)

    /// Service day of `descriptor`'s start_date (YYYYMMDD), in the agency's calendar.
    package static func day(_ text: String?) -> Int? {
        guard let text, text.count == 8, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) else { return nil }
        let digits = Array(text.utf8).map { Int($0) - 48 }
        let year = digits[0...3].reduce(0) { $0 * 10 + $1 }, month = digits[4] * 10 + digits[5], day = digits[6] * 10 + digits[7]
        guard (1...12).contains(month), (1...LocalDate.daysIn(month: month, year: year)).contains(day) else { return nil }
        return LocalDate(year: year, month: month, day: day).dayNumber
    }

    /// `HH:MM:SS` (hours may pass 24) in seconds.
    package static func time(_ text: String?) -> Int? {
        guard let text else { return nil }
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { FieldBytes.time(UnsafeBufferPointer($0)) }
    }

    /// The trip, service day and run a descriptor names, or nil (counted).
    package mutating func findInstance(_ d: FeedMessage.TripDescriptor) -> (trip: Int, day: Int, run: (pattern: Int, row: Int))? {
        let start = Self.time(d.startTime)
        guard let id = d.tripID else {
            // Rule 9: route, start date and time naming exactly one instance.
            guard let routeID = d.routeID, let day = Self.day(d.startDate), let start,
                  let route = t.routeIDs.firstIndex(of: routeID) else { unmatched += 1; return nil }
            var found: [(Int, (pattern: Int, row: Int))] = []
            for trip in 0..<t.tripCount where t.route(ofTrip: trip) == route && t.serviceRuns(t.service(ofTrip: trip), day: day) {
                for run in t.runs(ofTrip: trip) where t.runStart(pattern: run.pattern, row: run.row) == start { found.append((trip, run)) }
            }
            guard found.count == 1, let (trip, run) = found.first else { unmatched += 1; return nil }
            return (trip, day, run)
        }
        guard let trip = self.trip(id) else { unmatched += 1; return nil }
        if let routeID = d.routeID, !t.routeIDs.equals(t.route(ofTrip: trip), routeID) {
            routeContradicts += 1
            return nil
        }
        let runs = t.runs(ofTrip: trip)
        guard let first = runs.first else { unmatched += 1; return nil }
        let frequency = t.tripIsFrequency[trip] != 0
        /// The run starting at `start` (a frequencies.txt trip must say which), else its only one.
        func run(shift: Int) -> (pattern: Int, row: Int)? {
            guard frequency else { return first }
            guard let start else { return nil }
            return runs.first { t.runStart(pattern: $0.pattern, row: $0.row) == start + shift }
        }
        let service = t.service(ofTrip: trip)
        if let given = d.startDate {
            guard let day = Self.day(given) else { unmatched += 1; return nil }
            if t.serviceRuns(service, day: day), let r = run(shift: 0) { return (trip, day, r) }
            // Rule 8: the calendar date and clock time of a trip past midnight of the day before.
            if t.serviceRuns(service, day: day - 1), let start, let r = run(shift: 86_400),
               t.runStart(pattern: r.pattern, row: r.row) == start + 86_400 {
                return (trip, day - 1, r)
            }
            unmatched += 1
            return nil
        }
        // Rule 8 without start_date: today or yesterday in the agency's zone, the instance under way around now.
        let today = LocalDate(Date(timeIntervalSince1970: TimeInterval(now)), in: zone).dayNumber
        for day in [today, today - 1] where t.serviceRuns(service, day: day) {
            guard let r = run(shift: 0) else { continue }
            let at = clock(day).seconds(at: Date(timeIntervalSince1970: TimeInterval(now)))
            let length = t.patternLength(r.pattern)
            let first = t.departure(pattern: r.pattern, row: r.row, position: 0)
            let last = Int(t.times[t.timeIndex(pattern: r.pattern, row: r.row, position: length - 1)])
            if at >= first - 3600 && at <= last + 3 * 3600 { return (trip, day, r) }
        }
        unmatched += 1
        return nil
    }

    // MARK: which stop (rules 11–12)

    package mutating func stop(_ id: String) -> Int? {
        if stopIndex == nil { stopIndex = IDTable(indexing: t.stopIDs) ?? IDTable() }
        return stopIndex?.find(id)
    }

    /// The message's trip ids, and for each the feed's trip: a table of a few hundred ids,
    /// probed with each of the feed's tens of thousands (no String, no copy of them).
    package mutating func indexTrips(_ wanted: [String]) {
        var ids = IDTable(capacity: max(16, wanted.count))
        for id in wanted { _ = ids.insert(id) }
        var trips = [Int32](repeating: -1, count: ids.count)
        if ids.count > 0 {
            for k in 0..<t.tripCount {
                guard let i = t.tripIDs.withBytes(k, { ids.find($0) }), trips[i] < 0 else { continue }
                trips[i] = Int32(k)
            }
        }
        tripIndex = (ids, trips)
    }

    /// The feed's trip with this trip_id.
    package mutating func trip(_ id: String) -> Int? {
        if tripIndex == nil { indexTrips([id]) }
        guard let index = tripIndex, let i = index.ids.find(id), index.trips[i] >= 0 else {
            // An id the message did not list up front (trip_properties' own): asked once more.
            guard let index = tripIndex, index.ids.find(id) == nil else { return nil }
            let found = t.tripIDs.firstIndex(of: id)
            return found
        }
        return Int(index.trips[i])
    }

    /// Is `given` the scheduled stop's platform change: the same station, or within 100 m?
    package func samePlace(_ given: Int, _ scheduled: Int) -> Bool {
        let a = t.parent(of: given), b = t.parent(of: scheduled)
        if a >= 0 && a == b { return true }
        let p = Coordinate(latitude: t.stopLat[given], longitude: t.stopLon[given])
        let q = Coordinate(latitude: t.stopLat[scheduled], longitude: t.stopLon[scheduled])
        let m = p.meters(to: q)
        return m.isFinite && m <= 100
    }

    /// The position on the run each stop update names, with the stop it calls at (a platform
    /// change) and the update's index, in list order; nil when the positions do not increase
    /// (the update is rejected). `stops` and `sequences` are the pattern's, read in place: a
    /// stop_sequence is found by a binary search (they ascend along a trip), and only a stop_id
    /// that disagrees with it, or comes alone, costs a pass over the trip.
    package mutating func positions(_ updates: [FeedMessage.StopTimeUpdate], stops: UnsafeBufferPointer<Int32>,
                            sequences: UnsafeBufferPointer<Int32>) -> [(position: Int, stop: Int, index: Int)]? {
        var out: [(position: Int, stop: Int, index: Int)] = []
        out.reserveCapacity(updates.count)
        let n = stops.count
        /// Where `stop` occurs on the trip, if exactly once.
        func once(_ stop: Int) -> Int? {
            var found: Int?
            for i in 0..<n where Int(stops[i]) == stop {
                if found != nil { return nil }
                found = i
            }
            return found
        }
        /// The call with stop_sequence `sequence` (ascending along the trip: a binary search).
        func call(_ sequence: UInt64) -> Int? {
            var low = 0, high = n
            while low < high {
                let mid = (low + high) / 2
                if UInt64(clamping: sequences[mid]) < sequence { low = mid + 1 } else { high = mid }
            }
            return low < n && UInt64(clamping: sequences[low]) == sequence ? low : nil
        }
        for index in updates.indices {
            let stopID = updates[index].stopID
            var found: (Int, Int)?
            if let seq = updates[index].stopSequence, let at = call(seq), stopID.map({ t.stopIDs.equals(Int(stops[at]), $0) }) ?? true {
                // The common case: the sequence, and a stop_id that agrees (compared as bytes).
                found = (at, Int(stops[at]))
            } else if let seq = updates[index].stopSequence, let at = call(seq) {
                // They disagree (rule 11, revised 2026-11-25): a stop off the trip at the same
                // station or within 100 m is a platform change at that call; anything else drops
                // the update, since neither can be trusted (letting the stop_id decide put BART's
                // 2019 trip 1171042WKDY 29 minutes early at its 12th call and every call before
                // it on one instant).
                if let given = stopID.flatMap({ stop($0) }), !(0..<n).contains(where: { Int(stops[$0]) == given }), samePlace(given, Int(stops[at])) {
                    found = (at, given)
                }
            } else if let given = stopID.flatMap({ stop($0) }), let only = once(given) {
                found = (only, given)
            }
            guard let (position, named) = found else { droppedStops += 1; continue }
            // stop_time_properties.assigned_stop_id: the spec's own way to say a platform change.
            let calledAt = updates[index].assignedStopID.flatMap { self.stop($0) } ?? named
            if let last = out.last, last.position >= position {
                rejectedOrder += 1
                return nil
            }
            out.append((position, calledAt, index))
        }
        return out
    }

    // MARK: trips the timetable does not run (rules 20, 21)

    /// An added trip (ADDED, NEW, or a REPLACEMENT's calls): the updates with a known stop and an
    /// absolute time, at least two, times increasing.
    package mutating func addTrip(_ update: FeedMessage.TripUpdate, descriptor d: FeedMessage.TripDescriptor, trip: Int, tripID: String,
                          header: FeedMessage.FeedHeader?, day given: Int? = nil) {
        let headerDay = header?.timestamp.map { LocalDate(Date(timeIntervalSince1970: TimeInterval(seconds(Int64(clamping: $0)))), in: zone).dayNumber }
        guard let day = given ?? Self.day(d.startDate) ?? headerDay else { addedSkipped += 1; return }
        let clock = self.clock(day)
        var calls: [TripUpdates.Call] = []
        for u in update.stopTimeUpdates {
            guard let id = u.assignedStopID ?? u.stopID, let stop = stop(id) else { droppedStops += 1; continue }
            let a = u.arrival?.time.map { clock.seconds(at: Date(timeIntervalSince1970: TimeInterval(seconds($0)))) }
            let dep = u.departure?.time.map { clock.seconds(at: Date(timeIntervalSince1970: TimeInterval(seconds($0)))) }
            guard let arrival = a ?? dep, let departure = dep ?? a else { continue }
            let skipped = u.scheduleRelationship == 1
            calls.append(TripUpdates.Call(stop: stop, plannedArrival: nil, plannedDeparture: nil, arrival: arrival, departure: max(arrival, departure),
                                          status: skipped ? .skipped : .updated,
                                          flags: skipped ? Timetable.noPickup | Timetable.noDropOff
                                              : (u.pickupType == 1 ? Timetable.noPickup : 0) | (u.dropOffType == 1 ? Timetable.noDropOff : 0)))
        }
        var increasing = calls.count >= 2
        for k in calls.indices.dropFirst() where calls[k].arrival < calls[k - 1].departure { increasing = false }
        guard increasing else { addedSkipped += 1; return }
        let route = trip >= 0 ? t.route(ofTrip: trip) : (d.routeID.flatMap { t.routeIDs.firstIndex(of: $0) } ?? -1)
        let instance = TripUpdates.Instance(status: .added, tripID: tripID, trip: trip, route: route, day: day, run: nil, calls: calls,
                                            headsign: trip >= 0 ? t.headsign(trip) : (calls.last.map { t.stopNames[$0.stop] } ?? ""))
        result.instances.append(instance)
    }

    /// DUPLICATED (rule 21): the static trip's calls shifted to trip_properties' start, under its trip_id.
    package mutating func duplicate(_ update: FeedMessage.TripUpdate, _ d: FeedMessage.TripDescriptor) {
        guard let properties = update.tripProperties, let newID = properties.tripID, let start = Self.time(properties.startTime),
              let day = Self.day(properties.startDate), let id = d.tripID, let trip = self.trip(id), let run = t.runs(ofTrip: trip).first else {
            addedSkipped += 1
            return
        }
        let q = run.pattern, stops = t.stops(ofPattern: q), base = Int(t.patternStopStart[q])
        let shift = start - t.runStart(pattern: q, row: run.row) + Int(update.delay ?? 0)
        let calls = stops.indices.map { i -> TripUpdates.Call in
            let index = t.timeIndex(pattern: q, row: run.row, position: i)
            return TripUpdates.Call(stop: Int(stops[i]), plannedArrival: nil, plannedDeparture: nil,
                                    arrival: Int(t.times[index]) + shift, departure: Int(t.times[index + 1]) + shift, status: .updated,
                                    flags: t.patternFlags[base + i])
        }
        result.instances.append(TripUpdates.Instance(status: .added, tripID: newID, trip: trip, route: t.route(ofTrip: trip), day: day,
                                                     run: nil, calls: calls, headsign: t.headsign(trip)))
    }
}

extension TripUpdates {
    /// These updates with one run taken off as a DELETED update takes it off (hidden: it boards
    /// nowhere and lists nowhere): what the journeys after a missed connection leave out. The run
    /// is `trip`'s starting at `start` (seconds of the service day) on `day`, or the data's
    /// instance `instance` (-1: none): an instance the data already has (updated or added) is
    /// hidden in place; a run as planned gets a hidden instance of its own.
    package func hiding(trip: Int, start: Int, instance: Int = -1, day: Int, in t: Timetable) -> TripUpdates {
        var copy = self
        if instance >= 0, instance < copy.instances.count {
            copy.instances[instance].status = .hidden
            return copy
        }
        guard trip >= 0, trip < t.tripCount,
              let run = t.runs(ofTrip: trip).first(where: { t.runStart(pattern: $0.pattern, row: $0.row) == start }) else { return copy }
        let key = RunKey(trip: trip, day: day, start: start)
        let hidden = Instance(status: .hidden, tripID: t.tripIDs[trip], trip: trip, route: t.route(ofTrip: trip), day: day, run: run, calls: [])
        if let known = copy.byRun[key] {
            copy.instances[known] = hidden
        } else {
            copy.byRun[key] = copy.instances.count
            copy.instances.append(hidden)
        }
        return copy
    }
}
