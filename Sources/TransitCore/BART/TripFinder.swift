import Foundation
import TransitSupport

/// Every trip between two stations on a service day, from route configs and route schedules.
public enum TripFinder {
    /// Which trips of the day are wanted, the same whether the stations are typed names or codes.
    public struct Window: Sendable, Equatable {
        public var date: LocalDate
        /// Departure bounds in minutes of the service day (times after midnight count past 1440).
        public var after: Int?
        public var before: Int?
        /// Only trips arriving by then (minutes of the service day), latest departure first.
        public var arriveBy: Int?
        /// No time was given and the day is today's: `after` is now.
        public var startsNow = false
        public var limit: Int?
        /// 0: direct trains only; 1: also trips with one transfer.
        public var transfers: Int
        /// Minutes needed to change trains.
        public var minTransfer: Int

        public init(date: LocalDate, after: Int? = nil, before: Int? = nil, arriveBy: Int? = nil, limit: Int? = nil, transfers: Int, minTransfer: Int) {
            self.date = date
            self.after = after
            self.before = before
            self.arriveBy = arriveBy
            self.limit = limit
            self.transfers = transfers
            self.minTransfer = minTransfer
        }
    }

    /// Station codes and the window.
    @dynamicMemberLookup
    public struct Query: Sendable, Equatable {
        public var origin: String
        public var destination: String
        public var window: Window

        public init(origin: String, destination: String, window: Window) {
            self.origin = origin
            self.destination = destination
            self.window = window
        }

        public subscript<T>(dynamicMember path: WritableKeyPath<Window, T>) -> T {
        get { window[keyPath: path] }
        set { window[keyPath: path] = newValue }
    }
    }

    /// A pair of routes and where one can change from the first to the second.
    public struct Connection: Sendable, Equatable {
        public var first: Int
        public var second: Int
        public var stations: [String]
    }

    /// Routes whose station list has `origin` before `destination`.
    public static func directRoutes(_ routes: [BARTRoute], from origin: String, to destination: String) -> [BARTRoute] {
        routes.filter { route in
            guard let i = route.stations.firstIndex(of: origin), let j = route.stations.lastIndex(of: destination) else { return false }
            return i < j
        }
    }

    /// Route pairs with a shared station after the origin on the first and before the
    /// destination on the second.
    public static func connections(_ routes: [BARTRoute], from origin: String, to destination: String) -> [Connection] {
        var result: [Connection] = []
        for first in routes {
            guard let i = first.stations.firstIndex(of: origin) else { continue }
            let onward = Set(first.stations[(i + 1)...])
            for second in routes where second.number != first.number {
                guard let j = second.stations.lastIndex(of: destination) else { continue }
                let shared = second.stations[..<j].filter { onward.contains($0) && $0 != origin && $0 != destination }
                if !shared.isEmpty { result.append(Connection(first: first.number, second: second.number, stations: shared)) }
            }
        }
        return result
    }

    /// The route numbers whose schedules `query` needs.
    public static func neededRoutes(_ routes: [BARTRoute], query: Query) -> [Int] {
        var needed = Set(directRoutes(routes, from: query.origin, to: query.destination).map(\.number))
        if query.transfers > 0 {
            for c in connections(routes, from: query.origin, to: query.destination) {
                needed.insert(c.first)
                needed.insert(c.second)
            }
        }
        return needed.sorted()
    }

    /// A train's ride between two stations, in service-day minutes.
    struct Ride {
        var route: Int
        var from: String
        var to: String
        var train: Int
        var depart: Int
        var arrive: Int
        var head: String
    }

    /// A train's ride from `a` to `b`. A train may call at a station twice (reversing at a
    /// terminal): the arrival is its first call at `b` after boarding, the departure its last
    /// call at `a` before that.
    static func ride(_ train: BARTScheduledTrain, route: Int, from a: String, to b: String) -> Ride? {
        let stops = train.stops
        guard let boarding = stops.firstIndex(where: { $0.station == a && $0.minutes != nil }),
              let j = stops[(boarding + 1)...].firstIndex(where: { $0.station == b && $0.minutes != nil }),
              let i = stops[boarding..<j].lastIndex(where: { $0.station == a && $0.minutes != nil }),
              let dep = stops[i].minutes, let arr = stops[j].minutes, arr >= dep else { return nil }
        return Ride(route: route, from: a, to: b, train: train.index, depart: dep, arrive: arr, head: train.headStation ?? b)
    }

    public static func trips(query: Query, routes: [BARTRoute], schedules: [Int: BARTRouteSchedule]) -> [BARTTrip] {
        let byNumber = Dictionary(routes.map { ($0.number, $0) }, uniquingKeysWith: { a, _ in a })
        var candidates: [[Ride]] = []
        for route in directRoutes(routes, from: query.origin, to: query.destination) {
            for train in schedules[route.number]?.trains ?? [] {
                if let r = ride(train, route: route.number, from: query.origin, to: query.destination) { candidates.append([r]) }
            }
        }
        if query.transfers > 0 {
            candidates += transferRides(query: query, routes: routes, schedules: schedules)
        }
        candidates = candidates.filter { rides in
            guard let dep = rides.first?.depart else { return false }
            if let after = query.after, dep < after { return false }
            if let before = query.before, dep > before { return false }
            if let by = query.arriveBy, let arrive = rides.last?.arrive, arrive > by { return false }
            return true
        }
        if query.transfers > 0 { candidates = dropDominated(candidates) }
        candidates.sort { a, b in
            let ka = (a[0].depart, a[a.count - 1].arrive, a.count, a[0].route)
            let kb = (b[0].depart, b[b.count - 1].arrive, b.count, b[0].route)
            return ka < kb
        }
        if query.arriveBy != nil { candidates.reverse() }
        if let limit = query.limit { candidates = Array(candidates.prefix(max(0, limit))) }
        return candidates.map { rides in
            BARTTrip(legs: rides.map { r in
                BARTLeg(route: r.route, line: byNumber[r.route]?.lineName ?? "Route \(r.route)",
                    origin: r.from, destination: r.to,
                    departure: query.date.instant(minutes: r.depart, in: BART.zone),
                    arrival: query.date.instant(minutes: r.arrive, in: BART.zone), headStation: r.head)
            })
        }
    }

    /// One-transfer trips: for each first-leg train, the best connecting train at each shared
    /// station (earliest arrival among those leaving at least `minTransfer` later).
    static func transferRides(query: Query, routes: [BARTRoute], schedules: [Int: BARTRouteSchedule]) -> [[Ride]] {
        var result: [[Ride]] = []
        var seen = Set<[Int]>()
        for c in connections(routes, from: query.origin, to: query.destination) {
            guard let firstTrains = schedules[c.first]?.trains, let secondTrains = schedules[c.second]?.trains else { continue }
            for station in c.stations {
                // Onward rides from the transfer station, by departure, with the best arrival
                // from each position on.
                var onward = secondTrains.compactMap { ride($0, route: c.second, from: station, to: query.destination) }
                guard !onward.isEmpty else { continue }
                onward.sort { ($0.depart, $0.arrive) < ($1.depart, $1.arrive) }
                var bestFrom = [Int](repeating: 0, count: onward.count)
                var best = onward.count - 1
                for k in stride(from: onward.count - 1, through: 0, by: -1) {
                    if onward[k].arrive <= onward[best].arrive { best = k }
                    bestFrom[k] = best
                }
                for train in firstTrains {
                    guard let leg1 = ride(train, route: c.first, from: query.origin, to: station) else { continue }
                    let ready = leg1.arrive + query.minTransfer
                    var lo = 0, hi = onward.count
                    while lo < hi {
                        let mid = (lo + hi) / 2
                        if onward[mid].depart < ready { lo = mid + 1 } else { hi = mid }
                    }
                    guard lo < onward.count else { continue }
                    let leg2 = onward[bestFrom[lo]]
                    let key = [leg1.depart, leg2.arrive]
                    if seen.insert(key).inserted { result.append([leg1, leg2]) }
                }
            }
        }
        return result
    }

    /// Drops every trip that another leaves no earlier than and arrives no later than, unless
    /// the two are equal in both times and transfers (two trains at the same minute are two trips).
    static func dropDominated(_ trips: [[Ride]]) -> [[Ride]] {
        trips.filter { a in
            let aDep = a[0].depart, aArr = a[a.count - 1].arrive
            return !trips.contains { b in
                let bDep = b[0].depart, bArr = b[b.count - 1].arrive
                guard bDep >= aDep && bArr <= aArr else { return false }
                return bDep > aDep || bArr < aArr || b.count < a.count
            }
        }
    }
}

