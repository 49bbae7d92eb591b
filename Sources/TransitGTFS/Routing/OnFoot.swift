import Foundation
import TransitSupport

extension Router {
    /// A journey on foot (issue 65): where the ends are within reach on foot of each other, the
    /// walk between them is a journey of its own, taken at any time. It is not a label of the
    /// search: it is worked out once from the ends (`between`) and laid beside the rides
    /// (`withOnFoot`): first, leaving at the window's start, and every ride it beats (the walk
    /// leaving when the ride leaves arrives strictly earlier) left out.
    package struct OnFoot: Equatable, Sendable {
        /// The stops the walk starts and ends at (-1: the end's point).
        package var from: Int
        package var to: Int
        package var meters: Double
        /// The walk at the rider's pace, rounded up (as a point's walks).
        package var seconds: Int

        /// One end as the walk sees it: the stops it names (a station: its platforms), or a point.
        package enum End {
            case stops([Int])
            case point(Coordinate)
        }

        /// The shortest walk between the ends within `reach` meters in a straight line (the
        /// larger of the ends' reaches: `--walk` for stops named, `--radius` for a point); on a
        /// map's streets (`walker`), the street walk, at most `SearchDefaults.streetDetour` times
        /// the reach (a place that joins no street keeps its straight line). nil: none within
        /// reach, or `reach` 0.
        package static func between(_ a: End, _ b: End, reach: Double, walker: StreetWalker?, speed: Double, in t: Timetable) -> OnFoot? {
            guard reach > 0, speed > 0 else { return nil }
            func places(_ end: End) -> [(stop: Int, at: Coordinate)] {
                switch end {
                case .point(let at): return [(-1, at)]
                case .stops(let stops):
                    return stops.filter { $0 >= 0 && $0 < t.stopCount && !t.stopLat[$0].isNaN && !t.stopLon[$0].isNaN }.map { ($0, t.coordinate(ofStop: $0)) }
                }
            }
            let from = places(a), to = places(b)
            // The pairs within reach in a straight line (the shortest walk wins, ties by stop).
            var pairs: [(from: Int, to: Int, straight: Double, x: Coordinate, y: Coordinate)] = []
            for x in from {
                for y in to where x.stop != y.stop || x.stop < 0 {
                    let d = x.at.meters(to: y.at)
                    if d.isFinite && d <= reach { pairs.append((x.stop, y.stop, d, x.at, y.at)) }
                }
            }
            var best: (meters: Double, from: Int, to: Int)?
            for pair in pairs {
                let meters = walker.map { streetMeters(pair, limit: reach * SearchDefaults.streetDetour, $0, in: t) } ?? pair.straight
                guard meters.isFinite, meters <= reach * (walker == nil ? 1 : SearchDefaults.streetDetour) else { continue }
                if best.map({ (meters, pair.from, pair.to) < ($0.meters, $0.from, $0.to) }) ?? true { best = (meters, pair.from, pair.to) }
            }
            guard let best else { return nil }
            return OnFoot(from: best.from, to: best.to, meters: best.meters, seconds: Int((best.meters / speed).rounded(.up)))
        }

        /// A pair's walk on the streets by walk rule 2 (a stop's joins as its changes have them);
        /// its straight line where either place joins no street; `.infinity` where no street walk
        /// is within `limit`.
        private static func streetMeters(_ pair: (from: Int, to: Int, straight: Double, x: Coordinate, y: Coordinate), limit: Double,
                                         _ walker: StreetWalker, in t: Timetable) -> Double {
            let found: Double?
            switch (pair.from >= 0, pair.to >= 0) {
            case (true, true): found = walker.meters(fromStop: pair.from, to: [(pair.to, pair.straight)], limit: limit, in: t)[pair.to]
            case (false, true): found = walker.meters(from: pair.x, to: [(pair.to, pair.straight)], limit: limit, in: t)[pair.to]
            case (true, false): found = walker.meters(from: pair.y, to: [(pair.from, pair.straight)], limit: limit, in: t)[pair.from]
            case (false, false):
                switch walker.walk(from: pair.x, to: pair.y, limit: limit) {
                case .streets(let meters): found = meters
                case .straight(let meters): found = meters
                case .unreachable: found = .infinity
                }
            }
            return found ?? pair.straight
        }
    }

    /// The rides the journey on foot left out of the last answer (`withOnFoot`), by departure and
    /// arrival: its notice counts those among the rows shown.
    package final class OnFootTally {
        package var beaten: [(departure: Int, arrival: Int)] = []
        package init() {}
    }

    /// The journey on foot as a journey: one walk, leaving at `start`.
    package static func journey(_ walk: OnFoot, leaving start: Int) -> Journey {
        let leg = Leg(mode: .walk(meters: walk.meters), from: walk.from, to: walk.to, departure: LegTime(start), arrival: LegTime(start + walk.seconds))
        return Journey(legs: [leg], departure: start, arrival: start + walk.seconds, transfers: 0)
    }

    /// Does the walk, leaving when `ride` leaves, arrive strictly earlier?
    package static func beats(_ walk: OnFoot, _ ride: Journey) -> Bool { ride.departure + walk.seconds < ride.arrival }

    /// `rides` with the journey on foot first (where the query has one), leaving at the window's
    /// start, and the rides it beats left out (counted in `onFootTally`).
    package func withOnFoot(_ rides: [Journey]) -> [Journey] {
        guard let walk = query.onFoot else { return rides }
        let kept = rides.filter { !Self.beats(walk, $0) }
        onFootTally.beaten = rides.filter { Self.beats(walk, $0) }.map { ($0.departure, $0.arrival) }
        return [Self.journey(walk, leaving: query.after ?? 0)] + kept
    }
}

extension Router.Journey {
    /// A journey on foot: no ride (`Router.OnFoot`).
    package var isOnFoot: Bool { !legs.contains(where: \.isRide) }
}
