import Foundation
import TransitSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Each station's child stops (location_type 0 or 1 stops naming it as parent_station), as
/// offsets into one list: two passes over the stops, no dictionary.
package struct StationChildren {
    private let t: Timetable

    package init(_ t: Timetable) {
        self.t = t
    }

    /// The index the compiled file keeps: for each stop, the stops whose parent it is.
    package static func index(_ parents: [Int32]) -> (start: Packed<Int32>, list: Packed<Int32>) {
        let n = parents.count
        var start = [Int32](repeating: 0, count: n + 1)
        for p in parents where p >= 0 && Int(p) < n { start[Int(p) + 1] += 1 }
        for i in 0..<n { start[i + 1] += start[i] }
        var fill = start
        var list = [Int32](repeating: 0, count: Int(start[n]))
        for (stop, p) in parents.enumerated() where p >= 0 && Int(p) < n {
            list[Int(fill[Int(p)])] = Int32(stop)
            fill[Int(p)] += 1
        }
        return (Packed(start), Packed(list))
    }

    /// The stops of `station`; empty for a stop that is no station.
    package func of(_ station: Int) -> [Int] { t.children(ofStation: station) }

    /// A station's stops, or the stop itself.
    package func expand(_ stop: Int) -> [Int] {
        let stops = of(stop)
        return stops.isEmpty ? [stop] : stops
    }
}

/// A transfers.txt row, by index; -1 where the row leaves the field empty.
package struct TransferRule: Sendable, Equatable, BitwiseCopyable {
    package var fromStop: Int32
    package var toStop: Int32
    package var fromRoute: Int32
    package var toRoute: Int32
    package var fromTrip: Int32
    package var toTrip: Int32
    package var type: Int32
    /// Seconds; -1 when empty.
    package var minTime: Int32
}

/// A GTFS feed compiled for routing: stops, routes, trips grouped into patterns (trips with
/// the same stops and pickup/drop-off rules, split so that no trip overtakes another), their
/// times as seconds from "noon minus 12 h" of the service day (a block that rows with the same
/// times share), the service calendar as one bit per day, and transfers.txt. 8-15 bytes per
/// stop_time (docs/performance.md).
package struct Timetable: Sendable {
    // The feed
    package var agencyNames = StringTable()
    package var timeZone = "UTC"
    /// Day numbers (days since 1970-01-01) of the calendar's first day, and how many days.
    package var firstDay: Int32 = 0
    package var dayCount: Int32 = 0
    /// stop_times rows read from the feed (before frequencies were expanded).
    package var sourceStopTimes: Int64 = 0

    // Stops
    package var stopIDs = StringTable()
    package var stopCodes = StringTable()
    /// platform_code: the platform a rider looks for at a station ("2"), empty where the feed has none.
    package var stopPlatforms = StringTable()
    package var stopNames = StringTable()
    package var stopLat = Packed<Double>()
    package var stopLon = Packed<Double>()
    /// Each stop's point on the unit sphere (x, y, z, times 2^30), and what a bound by straight
    /// lines needs of the rides and changes (`StraightLines.measure`: mm/s, 0 for no bound; mm).
    package var stopPoints = Packed<Int32>()
    package var straightLineSpeed: Int64 = 0
    package var straightLineChangeGain: Int64 = 0
    /// The ways into each stop a lower bound is found on (`BoundGraph`): for stop v, pairs
    /// (the stop before, the least seconds) `boundEdges[2k], boundEdges[2k + 1]` for k in
    /// `boundStart[v] ..< boundStart[v + 1]`; both empty where the import made none.
    package var boundStart = Packed<Int32>()
    package var boundEdges = Packed<Int32>()
    package var stopParent = Packed<Int32>()
    /// wheelchair_boarding as stops.txt gives it: 0 empty or unknown, 1 possible, 2 not possible
    /// (`stepFree(stop:)` reads a platform's 0 as its station's).
    package var stopWheelchair = Packed<UInt8>()
    /// Each station's stops (those whose parent it is), where each stop's begin in
    /// `stationChildren` (one more value than stops): kept in the file, so that a query on a
    /// feed of a million stops does not work them out again.
    package var stationChildStart = Packed<Int32>([0])
    package var stationChildren = Packed<Int32>()

    // Routes
    package var routeIDs = StringTable()
    package var routeAgency = StringTable()
    package var routeShortName = StringTable()
    package var routeLongName = StringTable()
    package var routeType = Packed<Int32>()
    package var routeColor = StringTable()

    // Trips (a frequencies.txt window expands into one trip per departure)
    package var tripIDs = StringTable()
    package var tripRoute = Packed<Int32>()
    package var tripService = Packed<Int32>()
    /// Each trip's headsign, as an index into `headsigns` (a few hundred distinct ones).
    package var tripHeadsign = Packed<Int32>()
    /// wheelchair_accessible and bikes_allowed as trips.txt gives them: 0 empty or unknown, 1 yes, 2 no.
    package var tripWheelchair = Packed<UInt8>()
    package var tripBikes = Packed<UInt8>()
    package var headsigns = StringTable()

    package func headsign(_ trip: Int) -> String { trip >= 0 && trip < tripHeadsign.count ? headsigns[Int(tripHeadsign[trip])] : "" }

    // Patterns
    package var patternStopStart = Packed<Int32>([0])
    package var patternStops = Packed<Int32>()
    /// Per pattern position: bit 0 no pickup, bit 1 no drop-off.
    package var patternFlags = Packed<UInt8>()
    /// Per pattern position: the stop_sequence of stop_times.txt (how GTFS-Realtime names a call).
    package var patternSequences = Packed<Int32>()
    package var patternTripStart = Packed<Int32>([0])
    package var patternTrips = Packed<Int32>()
    /// Per pattern row: which of its pattern's blocks of times is the row's. Rows whose times
    /// are the same (a school-holiday variant and its term-time twin: trips that differ only in
    /// their calendar) share one block, and each keeps its row, so its own trip id, service,
    /// real-time matching and fares.
    package var rowBlocks = Packed<Int32>()
    /// Where each pattern's blocks of times begin in `times`: block b at position i is
    /// `times[timeStart + (b * length + i) * 2]` (arrival), `+ 1` (departure).
    package var patternTimeStart = Packed<Int64>()
    package var times = Packed<Int32>()

    // Shapes (shapes.txt): for shape s, its points `shapeLat/shapeLon[shapePointStart[s] ..<
    // shapePointStart[s + 1]]` in 1e-7 degrees (8 bytes a point), in shape_pt_sequence order.
    // A pattern's shape (that of its first trip with one; -1: none), and where each of its stops
    // lies along it: a point index and a fraction of the segment after it, × 256 (`shapeScale`).
    // A feed without shapes.txt has no points, and 4 bytes a pattern call (-1 and 0).
    package var shapePointStart = Packed<Int32>([0])
    package var shapeLat = Packed<Int32>()
    package var shapeLon = Packed<Int32>()
    package var patternShape = Packed<Int32>()
    package var patternShapeAt = Packed<Int32>()

    // Stop → (pattern, position) pairs
    package var stopPatternStart = Packed<Int32>([0])
    package var stopPatterns = Packed<Int32>()

    // Trip → its runs: for trip k, `tripRuns[2 * j]` (pattern) and `[2 * j + 1]` (row) for j in
    // `tripRunStart[k] ..< tripRunStart[k + 1]`, earliest first. What realtime needs to find a
    // TripUpdate's trip; a frequencies.txt trip has a run per departure, told apart by its start
    // time (`runStart`), and is marked in `tripIsFrequency`.
    package var tripRunStart = Packed<Int32>([0])
    package var tripRuns = Packed<Int32>()
    package var tripIsFrequency = Packed<UInt8>()

    // Services
    package var serviceIDs = StringTable()
    package var serviceWords: Int32 = 0
    package var serviceDays = Packed<UInt64>()

    package var transfers: [TransferRule] = []

    // Fares v1 and v2, and the rider categories: one value (`CompiledFares`), its fields in
    // `Timetable.fields` as every other's.
    package var fares = CompiledFares()

    // Feeds: empty for one feed. A combination of several (`--feed a --feed b`) keeps each
    // feed's stops, routes, trips, patterns, services and transfers.txt rows as one contiguous
    // range, its ids written `feed:id`, and its own zone (TimetableCombination).
    package var feedNames = StringTable()
    package var feedZones = StringTable()
    /// Where feed f's stops, routes, trips, patterns, services and transfer rows begin: entry f
    /// of each (one more entry than feeds, the last the total).
    package var feedStopStart = Packed<Int32>()
    package var feedRouteStart = Packed<Int32>()
    package var feedTripStart = Packed<Int32>()
    package var feedPatternStart = Packed<Int32>()
    package var feedServiceStart = Packed<Int32>()
    package var feedTransferStart = Packed<Int32>()
    /// The walks found when the feed or combination was compiled: for stop x, the stops within
    /// `TimetableCombination.linkRadius` meters, `linkStops[linkStart[x] ..< linkStart[x + 1]]`,
    /// their distances in `linkLengths`.
    package var linkStart = Packed<Int64>()
    package var linkStops = Packed<Int32>()
    package var linkLengths = Packed<Double>()
    /// Measured on a map's streets (empty without one): each stored walk's meters for a rider who
    /// needs it step-free (walk rule 2's step-free profile), `.infinity` where the map has no
    /// such walk within the radius; beside `linkStops`. And each stop's joins: bit 0 where it
    /// joins a street of the foot network, bit 1 of the step-free one (a walk between two that
    /// join is on the streets; else a straight line).
    package var linkStepFree = Packed<Double>()
    package var stopJoins = Packed<UInt8>()
    /// The pairs within `TimetableCombination.linkRadius` in a straight line that the map left
    /// without a walk (`DroppedWalk`, five values a pair), found at import; empty without a map.
    package var droppedWalks = Packed<Int32>()
    /// Not in the file: what the checks where values are read found (`TimetableChecks`).
    package var damage = TimetableDamage()

    package var stopCount: Int { stopLat.count }
    package var routeCount: Int { routeType.count }
    package var tripCount: Int { tripRoute.count }
    package var patternCount: Int { patternTripStart.count - 1 }
    package var serviceCount: Int { serviceIDs.count }
    /// The latest time any run reaches, in seconds of its own service day (26:10 is 94,200): how
    /// many days before a query's a run may still be out (`JourneySearch.daysBack`). Its last
    /// row's last departure is a pattern's latest (`patternCorners`; the whole buffer, 135 million
    /// times on the national network, was 30 ms a query).
    package var latestTime: Int32 { patternCorners(last: true, 0, max) ?? (times.buffer.max() ?? 0) }

    /// The earliest time any run leaves, in seconds of its own service day: no run of any day
    /// leaves before it (`DaySchedule.earliestDeparture`: a later day's runs in a search across
    /// days start then, not at its midnight). Its first row's first departure is a pattern's
    /// earliest (`patternCorners`).
    package var earliestTime: Int32 {
        let earliest = patternCorners(last: false, .max, min) ?? (times.buffer.min() ?? 0)
        return earliest == .max ? 0 : earliest
    }

    /// Each pattern's first row's first departure (`last`: its last row's last), folded into
    /// `initial` by `combine`: a pattern's runs never overtake and go by departure, and a trip's
    /// times never go back (the import skips one that does), so these are its earliest and its
    /// latest. One read a pattern; nil where the layout is damaged (the caller reads the whole
    /// buffer instead).
    private func patternCorners(last: Bool, _ initial: Int32, _ combine: (Int32, Int32) -> Int32) -> Int32? {
        guard patternStopStart.count > patternCount else { return nil }
        var folded = initial
        for q in 0..<patternCount {
            let first = Int(patternTripStart[q]), rows = Int(patternTripStart[q + 1]) - first
            let length = Int(patternStopStart[q + 1]) - Int(patternStopStart[q])
            guard rows > 0, length > 0 else { continue }
            let row = last ? first + rows - 1 : first, position = last ? length - 1 : 0
            guard row >= 0, row < rowBlocks.count, q < patternTimeStart.count else { return nil }
            let k = Int(patternTimeStart[q]) + (Int(rowBlocks[row]) * length + position) * 2 + 1
            guard k >= 0, k < times.count else { return nil }
            folded = combine(folded, times[k])
        }
        return folded
    }

    /// Pattern `p`'s stops: 0 for one out of range, or whose offsets are damaged (noted).
    @inline(__always) package func patternLength(_ p: Int) -> Int { callRange(ofPattern: p)?.count ?? 0 }

    // The layout of a pattern's calls, written once: every reader goes through these.

    /// Where a call's arrival lies in `times` (its departure is the next value): the pattern's
    /// blocks one after another, each block its calls in order, each call (arrival, departure);
    /// a row reads its block (`rowBlocks`). For a pattern laid out (`isLaidOut`), a row and a
    /// position within it.
    @inline(__always) package func timeIndex(pattern q: Int, row: Int, position i: Int) -> Int {
        let block = Int(rowBlocks[Int(patternTripStart[q]) + row])
        return Int(patternTimeStart[q]) + (block * (Int(patternStopStart[q + 1]) - Int(patternStopStart[q])) + i) * 2
    }

    package func departure(pattern q: Int, row: Int, position i: Int) -> Int { Int(times[timeIndex(pattern: q, row: row, position: i) + 1]) }
    /// The trip of pattern `q`'s row (0 for a row out of range; a damaged one noted).
    package func trip(pattern q: Int, row: Int) -> Int {
        guard let rows = rowRange(ofPattern: q), row >= 0, row < rows.count else { return 0 }
        let trip = Int(patternTrips[rows.lowerBound + row])
        return isSound(trip: trip) ? trip : 0
    }

    /// `patternFlags` per call: bit 0 no pickup, bit 1 no drop-off.
    package static let noPickup: UInt8 = 1, noDropOff: UInt8 = 2
    @inline(__always) package static func canBoard(_ flags: UInt8) -> Bool { flags & noPickup == 0 }
    @inline(__always) package static func canAlight(_ flags: UInt8) -> Bool { flags & noDropOff == 0 }

    /// Does a vehicle call at `stop` (a stop one boards, not a station or an entrance)?
    @inline(__always) package func isCalledAt(_ stop: Int) -> Bool {
        stop >= 0 && stop + 1 < stopPatternStart.count && stopPatternStart[stop + 1] > stopPatternStart[stop]
    }

    /// Does `id` name `stop`: the stop itself, or the station it belongs to?
    package func stop(_ stop: Int, isNamed id: String) -> Bool {
        stopIDs[stop] == id || (stopParent[stop] >= 0 && stopIDs[Int(stopParent[stop])] == id)
    }

    /// A trip's runs as (pattern, row), earliest first; each row within its pattern, whose trip
    /// it is (checked where read: none for a damaged trip).
    package func runs(ofTrip trip: Int) -> [(pattern: Int, row: Int)] {
        guard trip >= 0, trip + 1 < tripRunStart.count else { return [] }
        let from = Int(tripRunStart[trip]), to = Int(tripRunStart[trip + 1])
        guard from >= 0, from <= to, to <= tripRuns.count / 2 else { damage.found("tripRunStart"); return [] }
        let runs = (from..<to).map { (pattern: Int(tripRuns[2 * $0]), row: Int(tripRuns[2 * $0 + 1])) }
        // Each run's pattern laid out (its times read through `timeIndex`), its row the trip's.
        for run in runs where !isLaidOut(pattern: run.pattern) || run.row < 0 || run.row >= rowRange(ofPattern: run.pattern)?.count ?? 0
            || self.trip(pattern: run.pattern, row: run.row) != trip {
            damage.found("tripRuns")
            return []
        }
        return runs
    }

    /// A run's start: its first departure, in seconds of the service day (GTFS-Realtime's
    /// `start_time` for a frequencies.txt run).
    package func runStart(pattern q: Int, row: Int) -> Int { departure(pattern: q, row: row, position: 0) }

    /// Is `service` running on the day numbered `day`?
    package func serviceRuns(_ service: Int, day: Int) -> Bool {
        let offset = day - Int(firstDay)
        guard offset >= 0, offset < Int(dayCount), service >= 0, service < serviceCount else { return false }
        let word = service * Int(serviceWords) + offset / 64
        guard word < serviceDays.count else { return false }
        return serviceDays[word] & (1 << UInt64(offset % 64)) != 0
    }

    /// For each service, whether it runs on the day numbered `day`.
    package func servicesRunning(on day: Int) -> [Bool] { (0..<serviceCount).map { serviceRuns($0, day: day) } }

    package var zone: TimeZone { TimeZone(identifier: timeZone) ?? .utc }

    package var dateRange: (first: LocalDate, last: LocalDate) {
        (LocalDate(dayNumber: Int(firstDay)), LocalDate(dayNumber: Int(firstDay) + max(0, Int(dayCount) - 1)))
    }
}
