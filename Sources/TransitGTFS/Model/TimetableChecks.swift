import Foundation
import TransitSupport

/// What the checks where a value is read found wrong in a loaded timetable.
///
/// Why: a load that a `CheckRecord` vouches for does not read the file whole (on a national
/// feed that was most of a one-hour query), so the indexes per stop, trip and pattern call
/// (`TimetableField.checkedWhereRead`) are checked as a query reads them: a value out of range
/// reads as nothing (no calls, no stops, no parent) and is noted here, and whoever answers
/// (`GTFSFeed`, the `gtfs` commands) refuses the answer with the error this gives. Copies of a
/// timetable share it.
package final class TimetableDamage: Sendable {
    /// The compiled file the timetable was read from; empty for one compiled in memory.
    package let path: String
    private let field = Locked<String?>(nil)

    package init(path: String = "") { self.path = path }

    /// Notes that `name` holds a value out of range (the first noted is the one said).
    package func found(_ name: String) { field.withLock { if $0 == nil { $0 = name } } }

    /// The field found damaged, if any.
    package var damagedField: String? { field.current }
}

/// Every accessor a reader outside the router's `Schedule` uses for the fields checked where
/// read: each returns what is in range, or nothing (noting the damage). Those `DaySchedule` asks
/// at each pattern and stop a search first reaches are `@inline(__always)`: called, each was
/// handed a copy of the whole struct (1.7 kB, 6 % of a far national query's instructions).
extension Timetable {
    /// Stations, their stops and stored walks, read in place (`StopNeighbours`).
    package var neighbours: StopNeighbours { StopNeighbours(self) }

    /// Stop `s`'s station; -1 for none.
    package func parent(of s: Int) -> Int { StopNeighbours.parent(of: s, stopParent, stopCount: stopCount, damage) }

    /// The stops whose parent `station` is; empty for a stop that is no station.
    package func children(ofStation station: Int) -> [Int] {
        StopNeighbours.children(ofStation: station, stationChildStart, stationChildren, stopCount: stopCount, damage).map { Int($0) }
    }

    /// Stop `s`'s fare zone (Fares v1); -1 for none.
    package func fareZone(ofStop s: Int) -> Int {
        guard s >= 0, s < stopCount else { return -1 }
        let zone = Int(fares.stopZone[s])
        guard zone >= -1, zone < fares.zoneIDs.count else { damage.found("stopZone"); return -1 }
        return zone
    }

    /// Stop `s`'s fare areas (Fares v2; its station's where it has none of its own, settled at import).
    package func areas(ofStop s: Int) -> UnsafeBufferPointer<Int32> {
        damage.indexes(fares.stopAreas, damage.span(fares.stopAreaStart, s, within: fares.stopAreas.count, "stopAreaStart"), below: fares.areaIDs.count, "stopAreas")
    }

    /// The walks stored for stop `x` (`StopNeighbours.links(of:)`).
    package func links(of x: Int) -> Range<Int> { StopNeighbours.links(of: x, linkStart, linkStops, linkLengths, stopCount: stopCount, damage) }

    /// The calls at `stop`: (pattern, position) pairs, each position within its pattern.
    package func calls(atStop stop: Int) -> [(pattern: Int, position: Int)] {
        guard hasSoundCalls(atStop: stop) else { return [] }
        return stride(from: Int(stopPatternStart[stop]), to: Int(stopPatternStart[stop + 1]), by: 2).map { (Int(stopPatterns[$0]), Int(stopPatterns[$0 + 1])) }
    }

    /// Are the calls at `stop` in range: its pairs within `stopPatterns`, each pattern in range
    /// and each position within it? False for a stop out of range.
    @inline(__always) package func hasSoundCalls(atStop stop: Int) -> Bool {
        guard let range = damage.span(stopPatternStart, stop, within: stopPatterns.count / 2 * 2, "stopPatternStart") else { return false }
        guard range.lowerBound % 2 == 0, range.count % 2 == 0 else { damage.found("stopPatternStart"); return false }
        for k in stride(from: range.lowerBound, to: range.upperBound, by: 2) {
            let q = Int(stopPatterns[k]), i = Int(stopPatterns[k + 1])
            guard q >= 0, q < patternCount, i >= 0, i < patternLength(q) else { damage.found("stopPatterns"); return false }
        }
        return true
    }

    /// Pattern `q`'s positions in `patternStops` (and `patternFlags`, `patternSequences`).
    @inline(__always) package func callRange(ofPattern q: Int) -> Range<Int>? {
        guard q >= 0, q < patternCount else { return nil }
        return damage.span(patternStopStart, q, within: patternStops.count, "patternStopStart")
    }

    /// Pattern `q`'s rows in `patternTrips`.
    @inline(__always) package func rowRange(ofPattern q: Int) -> Range<Int>? {
        guard q >= 0, q < patternCount else { return nil }
        return damage.span(patternTripStart, q, within: patternTrips.count, "patternTripStart")
    }

    /// Are pattern `q`'s offsets in range: its calls, its rows, and its rows' blocks of times
    /// (what `timeIndex` reads)? A check of three values and the rows' blocks.
    @inline(__always) package func isLaidOut(pattern q: Int) -> Bool {
        guard let calls = callRange(ofPattern: q), let blocks = blockCount(ofPattern: q) else { return false }
        let start = Int64(patternTimeStart[q]), length = Int64(blocks) * Int64(calls.count) * 2
        guard start >= 0, start <= Int64(times.count) - length else { damage.found("patternTimeStart"); return false }
        return true
    }

    /// How many blocks of times pattern `q`'s rows read: one past the highest, each row's at
    /// least 0 and below the rows' count (the compiler numbers them as rows first read them).
    /// nil (noted) where a row's is not, or the pattern's rows are out of range.
    @inline(__always) package func blockCount(ofPattern q: Int) -> Int? {
        guard let rows = rowRange(ofPattern: q), rows.upperBound <= rowBlocks.count else { return nil }
        var low: Int32 = 0, high: Int32 = -1
        for block in UnsafeBufferPointer(rebasing: rowBlocks.buffer[rows]) {  // no early exit: the loop vectorizes
            low = min(low, block)
            high = max(high, block)
        }
        guard low >= 0, Int(high) < rows.count else { damage.found("rowBlocks"); return nil }
        return Int(high) + 1
    }

    /// Is pattern `q` laid out, with its stops and trips in range?
    @inline(__always) package func isSound(pattern q: Int) -> Bool {
        isLaidOut(pattern: q) && stops(ofPattern: q).count == patternLength(q) && trips(ofPattern: q).count == rowRange(ofPattern: q)?.count
    }

    /// Pattern `q`'s stops, each in range; empty for a pattern out of range or damaged.
    @inline(__always) package func stops(ofPattern q: Int) -> UnsafeBufferPointer<Int32> {
        damage.indexes(patternStops, callRange(ofPattern: q), below: stopCount, "patternStops")
    }

    /// Pattern `q`'s trips, one per row, each in range (their routes, services and headsigns
    /// are checked where read: `route(ofTrip:)`, `service(ofTrip:)`); empty for a pattern out of
    /// range or damaged.
    @inline(__always) package func trips(ofPattern q: Int) -> UnsafeBufferPointer<Int32> {
        damage.indexes(patternTrips, rowRange(ofPattern: q), below: tripCount, "patternTrips")
    }

    /// Is trip `k` in range, with its route, service and headsign in range (noted if not)?
    package func isSound(trip k: Int) -> Bool {
        guard k >= 0, k < tripCount else { damage.found("patternTrips"); return false }
        let route = tripRoute[k], service = tripService[k], headsign = tripHeadsign[k]
        guard route >= 0, Int(route) < routeCount else { damage.found("tripRoute"); return false }
        guard service >= 0, Int(service) < max(1, serviceCount) else { damage.found("tripService"); return false }
        guard headsign >= 0, Int(headsign) < headsigns.count else { damage.found("tripHeadsign"); return false }
        return true
    }

    /// Trip `k`'s route; 0 (noted) where it is out of range (a file with trips has routes).
    package func route(ofTrip k: Int) -> Int { isSound(trip: k) ? Int(tripRoute[k]) : 0 }

    /// Every trip's route read in place (`TripRoutes`), for the classes of the search that hold
    /// this timetable.
    package var tripRoutes: TripRoutes { TripRoutes(routes: tripRoute.buffer, routeCount: routeCount) }

    /// Trip `k`'s service; -1 (none runs) where it is out of range.
    package func service(ofTrip k: Int) -> Int { isSound(trip: k) ? Int(tripService[k]) : -1 }
}

/// Trips' routes read from `Timetable.tripRoute`'s buffer (which the timetable that made it keeps
/// alive): a `Timetable` method called from a class that holds one copied the whole struct (4 KB)
/// at each call, and the search asks a trip's route at boardings and changes.
package struct TripRoutes {
    let routes: UnsafeBufferPointer<Int32>
    let routeCount: Int

    package var count: Int { routes.count }

    /// Trip `k`'s route; 0 where the trip or its route is out of range, as `route(ofTrip:)` reads it.
    @inline(__always) package func route(ofTrip k: Int) -> Int {
        guard k >= 0, k < routes.count else { return 0 }
        let route = Int(routes[k])
        return route >= 0 && route < routeCount ? route : 0
    }
}

/// The checked reads of index fields, each noting the damage it finds here: one reader for the
/// `Timetable`'s accessors and for the readers that work on its buffers in place
/// (`StopNeighbours`).
extension TimetableDamage {
    /// `values[range]`, each in `0 ..< limit`; empty (noted as `name`'s damage where a value is not).
    @inline(__always) package func indexes(_ values: Packed<Int32>, _ range: Range<Int>?, below limit: Int, _ name: String) -> UnsafeBufferPointer<Int32> {
        guard let range else { return UnsafeBufferPointer(start: nil, count: 0) }
        let slice = UnsafeBufferPointer(rebasing: values.buffer[range])
        let n = Int32(clamping: limit)
        var ok = true
        for v in slice { ok = ok && v >= 0 && v < n }  // no early exit: the loop vectorizes
        guard ok else { found(name); return UnsafeBufferPointer(start: nil, count: 0) }
        return slice
    }

    /// Offsets `starts[row] ..< starts[row + 1]` within `0 ..< limit`; nil (noted as `name`'s
    /// damage) where they are not, nil without note for a row out of range.
    @inline(__always) package func span(_ starts: Packed<Int32>, _ row: Int, within limit: Int, _ name: String) -> Range<Int>? {
        guard row >= 0, row + 1 < starts.count else { return nil }
        let from = Int(starts[row]), to = Int(starts[row + 1])
        guard from >= 0, from <= to, to <= limit else { found(name); return nil }
        return from..<to
    }
}
