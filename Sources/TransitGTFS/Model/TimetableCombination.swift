import Foundation
import TransitSupport

/// Several compiled feeds as one timetable the router reads unchanged. Nothing is merged:
/// each feed's stops, routes, trips, patterns, services and transfers.txt rows stay a range of
/// their own, their ids become `feed:id` (two feeds that both say service `3` mean two services),
/// and each feed keeps its zone (`DaySchedule` puts every feed's times on one clock). Built from
/// the feeds' compiled files, not their sources: an append with offsets, linear in their size.
package enum TimetableCombination {
    /// The feeds as one timetable: each field of `Timetable.fields` joined as the list says
    /// (an index moved past the feeds before it, an id prefixed `feed:`), the calendar spanning
    /// every feed's, then the links between feeds.
    package static func combine(_ parts: [(name: String, timetable: Timetable)]) throws(TransitError) -> Timetable {
        // Every index of the combination must fit the 32-bit fields the compiled format keeps.
        for table in TimetableTable.allCases where table != .times {
            let values = table == .tripRuns ? 2 : 1
            if parts.reduce(0, { $0 + table.count(in: $1.timetable) * values }) >= Int(Int32.max) {
                throw .usage("these feeds together are too large to combine (more than 2^31 entries in one table); ask fewer at once")
            }
        }
        var out = Timetable()
        guard let first = parts.first?.timetable else { return out }
        out.timeZone = first.timeZone
        // One calendar spanning every feed's; each service's days moved onto it (`appendServiceDays`).
        let firstDay = parts.map { Int($0.timetable.firstDay) }.min() ?? 0
        let lastDay = parts.map { Int($0.timetable.firstDay) + Int($0.timetable.dayCount) }.max() ?? firstDay
        out.firstDay = Int32(clamping: firstDay)
        out.dayCount = Int32(clamping: lastDay - firstDay)
        out.serviceWords = Int32(clamping: (Int(out.dayCount) + 63) / 64)
        for (name, t) in parts {
            let joining = TimetableField.Joining(prefix: name + ":", before: TimetableTable.sizes(of: out))
            for field in Timetable.fields { field.combine(&out, t, joining) }
        }
        joinWalks(&out, parts.map(\.timetable))
        StraightLines.combine(&out, parts.map(\.timetable))
        return out
    }

    /// A feed's services' days, as bits over the combination's calendar (set before any feed joins).
    package static func appendServiceDays(_ out: inout Timetable, _ t: Timetable) {
        let words = Int(out.serviceWords), shift = Int(t.firstDay) - Int(out.firstDay)
        for service in 0..<t.serviceCount {
            var bits = [UInt64](repeating: 0, count: words)
            for day in 0..<Int(t.dayCount) where t.serviceRuns(service, day: Int(t.firstDay) + day) {
                let bit = day + shift
                if bit >= 0 && bit / 64 < words { bits[bit / 64] |= 1 << UInt64(bit % 64) }
            }
            for word in bits { out.serviceDays.append(word) }
        }
    }

    /// The walks a query reads when `--walk` and `--link` are at most this (the defaults): found
    /// once, when a feed or a combination is compiled. A longer one looks through a grid at
    /// query time.
    package static let linkRadius = max(SearchDefaults.linkMeters, SearchDefaults.walkMeters)
    /// The longest walk stored: a pair within `linkRadius` in a straight line keeps its path on a
    /// map's streets up to `SearchDefaults.streetDetour` times that (a query within the radius
    /// allows its own bound times the detour, `TransferEdges.allows`).
    package static let longestWalk = linkRadius * SearchDefaults.streetDetour

    /// The combination's walks: each feed's own, as it stored them (on its map's streets, if it
    /// was imported with one), moved past the feeds before it, and the straight lines within
    /// `linkRadius` between stops of different feeds.
    package static func joinWalks(_ out: inout Timetable, _ feeds: [Timetable]) {
        var straight = out
        findLinks(&straight)
        let t = out
        out.storeWalks(stepFree: { x in
            let feedOf = t.feed(ofStop: x)
            let first = Int(t.feedStopStart[feedOf]), part = feedOf < feeds.count ? feeds[feedOf] : Timetable()
            let stored = part.linkStart.count == part.stopCount + 1
            let end = first + part.stopCount
            // Of its own feed only what the feed stored (its streets may have dropped a pair), with
            // its step-free meters where it has them; between feeds straight lines.
            let own = stored ? part.links(of: x - first).map { k in
                (part.linkStops[k] &+ Int32(first), part.linkLengths[k], k < part.linkStepFree.count ? part.linkStepFree[k] : part.linkLengths[k])
            } : []
            let others = straight.storedWalks(x).filter { !(stored && Int($0.stop) >= first && Int($0.stop) < end) }.map { ($0.stop, $0.meters, $0.meters) }
            return (own + others).sorted { $0.0 < $1.0 }
        })
        if feeds.allSatisfy({ $0.linkStepFree.isEmpty }) { out.linkStepFree = Packed() }
        // Each stop's joins, as its feed's map found them (none where a feed had no map).
        out.stopJoins = Packed()
        if feeds.contains(where: { !$0.stopJoins.isEmpty }) {
            for part in feeds {
                for s in 0..<part.stopCount { out.stopJoins.append(s < part.stopJoins.count ? part.stopJoins[s] : 0) }
            }
        }
    }

    /// The walks a stop stores at most: its nearest, ties by index (`NearestStops`). A real stop
    /// has a few dozen others within 300 m; 16,000 stops at one place made 256 million walks.
    package static let maxWalksPerStop = 200

    /// A stop's neighbourhood (its grid cell and the eight around) holding more stops than this
    /// is looked through a k-d tree, and its stops keep `crowdedWalks` each.
    static let crowded = 2_000
    /// The walks a stop of a crowded neighbourhood stores at most: 50,000 stops at one place kept
    /// 200 each, a 284 MB file (and `gtfs walks` of them 2.7 GB; issue 62). No real place has
    /// 2,000 stops within a few hundred metres; there, a stop's 20 nearest are as telling as 200.
    package static let crowdedWalks = 20

    /// What `findLinks` capped: stops with more than their cap within the radius, and of those
    /// the stops of crowded neighbourhoods (capped at `crowdedWalks`).
    package struct Caps: Equatable {
        package var capped = 0
        package var crowded = 0
    }

    /// For every stop with a place, the stops with one within `linkRadius` (but itself), of any
    /// feed: `TransferEdges` decides which of them a change may use (`--walk` within a feed,
    /// `--link` between stops vehicles call at). At most `limit` a stop, nearest first, and beyond
    /// them the stops of its station and those a transfers.txt row pairs it with, never dropped.
    /// Returns how many stops had more within the radius than `limit` (the compiler says so).
    @discardableResult
    package static func findLinks(_ t: inout Timetable, limit most: Int = maxWalksPerStop) -> Caps {
        // Through a grid of cells as wide as the radius, each stop's neighbourhood compared whole;
        // where one holds thousands of stops (16,000 at one place were 256 million pairs), a
        // k-d tree built then finds the nearest instead (the same rule, found in log time).
        let grid = StopGrid(t, cell: linkRadius)
        var index: NearestStops?
        let table = t, children = StationChildren(t)
        func nearest(_ x: Int, limit: Int) -> [(stop: Int, meters: Double)] {
            if grid.count(near: x, table) > crowded {
                let tree = index ?? NearestStops(table)
                index = tree
                return tree.near(x, within: linkRadius, limit: limit, table)
            }
            let here = Coordinate(latitude: table.stopLat[x], longitude: table.stopLon[x])
            let within = grid.near(x, table).compactMap { y -> (stop: Int, meters: Double)? in
                guard y != x else { return nil }
                let meters = here.meters(to: Coordinate(latitude: table.stopLat[y], longitude: table.stopLon[y]))
                return meters.isFinite && meters <= linkRadius ? (y, meters) : nil
            }
            return within.count <= limit ? within : Array(within.sorted(by: NearestStops.WorstFirst.before).prefix(limit))
        }
        // The stops a transfers.txt row leads to from each stop, stations standing for their stops.
        var paired: [Int: Set<Int>] = [:]
        for rule in t.transfers where rule.fromStop >= 0 && rule.toStop >= 0 {
            let from = children.expand(Int(rule.fromStop)), to = children.expand(Int(rule.toStop))
            for x in from { for y in to where x != y { paired[x, default: []].insert(y) } }
        }
        var caps = Caps()
        t.storeWalks { x in
            guard !table.stopLat[x].isNaN, !table.stopLon[x].isNaN else { return [] }
            let crowdedHere = grid.count(near: x, table) > crowded, limit = crowdedHere ? min(most, crowdedWalks) : most
            var near = nearest(x, limit: limit + 1)
            guard near.count > limit else { return near.map { (Int32($0.stop), $0.meters) }.sorted { $0.0 < $1.0 } }
            // Capped: the nearest `limit`, and the stops of its station and its paired ones.
            caps.capped += 1
            if crowdedHere { caps.crowded += 1 }
            near = Array(near.sorted(by: NearestStops.WorstFirst.before).prefix(limit))
            let here = Coordinate(latitude: table.stopLat[x], longitude: table.stopLon[x])
            let parent = Int(table.stopParent[x])
            var kept = Set(near.map(\.stop))
            let siblings = parent >= 0 ? children.of(parent) : []
            for y in siblings + (paired[x].map { $0.sorted() } ?? []) where y != x && !kept.contains(y) && !table.stopLat[y].isNaN {
                let meters = here.meters(to: Coordinate(latitude: table.stopLat[y], longitude: table.stopLon[y]))
                guard meters.isFinite && meters <= linkRadius else { continue }
                kept.insert(y)
                near.append((y, meters))
            }
            return near.map { (Int32($0.stop), $0.meters) }.sorted { $0.0 < $1.0 }
        }
        return caps
    }
}

extension Timetable {
    /// Feeds combined in this timetable: 1 for a feed of its own.
    package var feedCount: Int { max(1, feedNames.count) }
    package var isCombination: Bool { feedNames.count > 1 }

    /// The feed whose range of `starts` holds `index` (0 for a feed of its own).
    private func feed(_ index: Int, in starts: Packed<Int32>) -> Int {
        guard feedNames.count > 1 else { return 0 }
        var low = 0, high = feedNames.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if Int(starts[mid]) <= index { low = mid } else { high = mid - 1 }
        }
        return low
    }

    package func feed(ofStop stop: Int) -> Int { feed(stop, in: feedStopStart) }
    package func feed(ofPattern pattern: Int) -> Int { feed(pattern, in: feedPatternStart) }
    package func feed(ofTrip trip: Int) -> Int { feed(trip, in: feedTripStart) }
    package func feed(ofRoute route: Int) -> Int { feed(route, in: feedRouteStart) }
    package func feed(ofTransfer row: Int) -> Int { feed(row, in: feedTransferStart) }

    /// The feed called `name` in a combination (nil for none, and for a feed of its own).
    package func feed(named name: some StringProtocol) -> Int? { isCombination ? (0..<feedCount).first { feedName($0) == name } : nil }

    /// Over several feeds, the entry of `table` (stop or trip ids) whose id is `feed:` + `id` in
    /// exactly one feed; nil when none is; several are a usage error naming each.
    package func bareID(_ id: String, in table: StringTable, what: String) throws(TransitError) -> Int? {
        guard isCombination else { return nil }
        let found = (0..<feedCount).flatMap { table.indices(of: feedName($0) + ":" + id) }
        if found.count > 1 { throw .usage("\(what) '\(id)' is in \(found.count) feeds: " + found.map { table[$0] }.joined(separator: ", ") + "; say which, as feed:id") }
        return found.first
    }

    /// A feed's name ("" for a feed of its own, whose name the store knows).
    package func feedName(_ f: Int) -> String { f < feedNames.count ? feedNames[f] : "" }

    /// A feed's zone: its agency_timezone (the timetable's for a feed of its own).
    package func zone(ofFeed f: Int) -> TimeZone {
        guard f < feedZones.count else { return zone }
        return TimeZone(identifier: feedZones[f]) ?? zone
    }

    package func zone(ofStop stop: Int) -> TimeZone { feedZones.isEmpty ? zone : zone(ofFeed: feed(ofStop: stop)) }

    /// A feed's patterns.
    package func patterns(ofFeed f: Int) -> Range<Int> {
        guard isCombination, f + 1 < feedPatternStart.count else { return 0..<patternCount }
        return Int(feedPatternStart[f])..<Int(feedPatternStart[f + 1])
    }

    /// The timetable with dates and windows read in `zone` (`--tz`, or a combination's origin
    /// feed's): each feed's times stay in its own zone, moved onto that clock by `DaySchedule`.
    package func onClock(_ zone: String) -> Timetable {
        var t = self
        if t.feedZones.isEmpty { t.feedZones.append(t.timeZone) }
        t.timeZone = zone
        return t
    }

    /// An id without its `feed:` prefix (as its own feed writes it).
    package func bare(_ id: String, feed f: Int) -> String {
        let prefix = feedName(f) + ":"
        return isCombination && id.hasPrefix(prefix) ? String(id.dropFirst(prefix.count)) : id
    }
}
