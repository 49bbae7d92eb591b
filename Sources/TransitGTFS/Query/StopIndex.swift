import Foundation
import TransitSupport

/// What the user typed as a stop, to stop indices: a stop_id or stop_code (a station standing
/// for its stops), else a name matched as BART's station names are: exact, then the start of a
/// name, then inside one; a name several stops share means all of them.
package struct StopIndex {
    package let t: Timetable
    /// Each station's stops, worked out once for every name resolved.
    package let children: StationChildren

    package init(_ timetable: Timetable) {
        t = timetable
        children = StationChildren(timetable)
    }

    /// An end of a journey as typed: the stops it names, or for `LAT,LON` every stop a vehicle
    /// calls at within `radius` meters, with the seconds to walk there at 1.2 m/s (⌈d / 1.2⌉;
    /// `walks` is nil for stops named). None in range is a usage error naming the nearest stop
    /// and its distance.
    /// `radius` is in a straight line, with a map as without (a map never loses a stop an
    /// ordinary detour reaches). `onFoot`: the walks from a point to those stops on a map's
    /// streets (`StreetWalker`); a stop whose walk there is longer than
    /// `SearchDefaults.streetDetour` × `radius` (across a river, around a rail yard) is none, and
    /// a stop it leaves out (the point or the stop joins no street) walks straight.
    /// `near`: the stops a vehicle calls at around a point, each with its distance (at least those
    /// within `radius`; nil: every stop, `boardable`).
    package func end(_ place: QueryEnds.Place, radius: Double, speed: Double = SearchDefaults.walkingSpeed, onFoot: ((Coordinate, [(stop: Int, meters: Double)]) -> [Int: Double])? = nil,
                     near: ((Coordinate) -> [(stop: Int, meters: Double)])? = nil)
        throws(TransitError) -> (stops: [Int], walks: [Int: Int]?, meters: [Int: Double]?) {
        let point: Coordinate, typed: String
        switch place {
        case .stop(let text): return (try resolve(text), nil, nil)
        case .point(let at, let text): (point, typed) = (at, text)
        }
        var seconds: [Int: Int] = [:], meters: [Int: Double] = [:], nearest: (stop: Int, meters: Double)?
        let candidates = near?(point) ?? boardable(from: point)
        // The stops within the radius in a straight line (with a map as without), each walked on
        // the map's streets where the point and the stop join them, up to the detour; else the
        // straight line.
        let onStreets = onFoot?(point, candidates.filter { $0.meters <= radius }) ?? [:]
        for (stop, straight) in candidates {
            if nearest.map({ straight < $0.meters }) ?? true { nearest = (stop, straight) }
            guard straight <= radius else { continue }
            let d = onStreets[stop] ?? straight
            guard d <= radius * SearchDefaults.streetDetour else { continue }
            meters[stop] = d
            seconds[stop] = Int((d / speed).rounded(.up))
        }
        guard !seconds.isEmpty else {
            // On a map, the nearest stop in a straight line may be within the radius and too far
            // on the streets: say both numbers.
            let detour = Int(radius * SearchDefaults.streetDetour)
            let near = nearest.map { n in
                let named = " the nearest is \(t.stop(n.stop).name) (\(t.stop(n.stop).id)), \(Int(n.meters.rounded())) m away"
                guard n.meters <= radius, let street = onStreets[n.stop] else { return named }
                return named + " in a straight line and " + (street.isFinite ? "\(Int(street.rounded())) m" : "more than \(detour) m") + " on the streets"
            } ?? " the feed has no stop"
            let streets = nearest.map { $0.meters <= radius } == true ? " that the streets reach within \(detour) m" : ""
            throw .usage("no stop within \(Int(radius)) m of \(typed)\(streets);\(near)", hint: "raise --radius (up to 5000)")
        }
        return (seconds.keys.sorted(), seconds, meters)
    }

    /// Every stop a vehicle calls at, with its distance from `point` in meters.
    package func boardable(from point: Coordinate) -> [(stop: Int, meters: Double)] {
        (0..<t.stopCount).compactMap { stop in
            guard t.isCalledAt(stop) else { return nil }
            let d = point.meters(to: Coordinate(latitude: t.stopLat[stop], longitude: t.stopLon[stop]))
            return d.isFinite ? (stop, d) : nil
        }
    }


    /// Stops as typed. Over several feeds an id is `feed:id`; a bare id is accepted when one
    /// feed has it; `feed:NAME` looks in that feed only; a code or a name matches in every feed
    /// (each feed's best match: "Millbrae" is BART's Millbrae and Caltrain's "Millbrae Caltrain").
    package func resolve(_ typed: String) throws(TransitError) -> [Int] {
        let text = typed.trimmedSpace(newlines: false)
        if let stop = t.stopIDs.firstIndex(of: text) { return children.expand(stop) }
        guard t.isCombination else { return try resolve(text, among: 0..<t.stopCount) }
        if let colon = text.firstIndex(of: ":"), let f = t.feed(named: text[..<colon]) {
            return try resolve(String(text[text.index(after: colon)...]), among: stops(ofFeed: f))
        }
        if let stop = try t.bareID(text, in: t.stopIDs, what: "stop id") { return children.expand(stop) }
        var found: [Int] = []
        for f in 0..<t.feedCount {
            do {
                found += try resolve(text, among: stops(ofFeed: f))
            } catch {
                // A name several stops of one feed fit is a question to ask; a miss in one feed is not.
                if case .ambiguous = error { throw error }
            }
        }
        // No feed has it: the miss, with suggestions from every feed.
        return found.isEmpty ? try resolve(text, among: 0..<t.stopCount) : found.sorted()
    }

    package func stops(ofFeed f: Int) -> Range<Int> { Int(t.feedStopStart[f])..<Int(t.feedStopStart[f + 1]) }

    /// `text` as an id, a code or a name, among `stops`.
    private func resolve(_ text: String, among stops: Range<Int>) throws(TransitError) -> [Int] {
        let expand = children.expand
        let prefix = t.isCombination ? t.feedName(t.feed(ofStop: stops.lowerBound)) + ":" : ""
        if t.isCombination, let stop = t.stopIDs.firstIndex(of: prefix + text), stops.contains(stop) { return expand(stop) }
        let coded = text.isEmpty ? [] : t.stopCodes.indices(of: text).filter(stops.contains)
        if !coded.isEmpty { return Array(Set(coded.flatMap(expand))).sorted() }
        // One candidate per distinct name: stations and the stops that stand alone.
        var byName: [String: (first: Int, stops: [Int])] = [:]
        var order: [String] = []
        for stop in stops where t.parent(of: stop) < 0 && !t.stopNames[stop].isEmpty {
            let key = NameMatcher<Int>.normalize(t.stopNames[stop])
            if byName[key] == nil { order.append(key) }
            byName[key, default: (stop, [])].stops += expand(stop)
        }
        let candidates = order.compactMap { key -> NameMatcher<[Int]>.Candidate? in
            guard let group = byName[key] else { return nil }
            return NameMatcher<[Int]>.Candidate(code: t.stopIDs[group.first], names: [t.stopNames[group.first]], value: Array(Set(group.stops)).sorted())
        }
        return try NameMatcher(kind: "stop", candidates: candidates).match(text)
    }

    /// The routes calling at each stop, a station gathering its stops' routes.
    package static func routesByStop(_ t: Timetable) -> [[Int]] {
        var sets = [Set<Int>](repeating: [], count: t.stopCount)
        for q in 0..<t.patternCount {
            guard let first = t.trips(ofPattern: q).first else { continue }
            let route = t.route(ofTrip: Int(first))
            for stop in t.stops(ofPattern: q).lazy.map({ Int($0) }) {
                sets[stop].insert(route)
                let parent = t.parent(of: stop)
                if parent >= 0 { sets[parent].insert(route) }
            }
        }
        return sets.map { $0.sorted() }
    }

    /// A route's short name, else its long name, else its id.
    package static func routeName(_ t: Timetable, _ route: Int) -> String {
        guard route >= 0, route < t.routeCount else { return "unknown route" }
        let short = t.routeShortName[route].trimmedSpace(newlines: false)
        if !short.isEmpty { return short }
        let long = t.routeLongName[route].trimmedSpace(newlines: false)
        return long.isEmpty ? t.routeIDs[route] : long
    }
}
