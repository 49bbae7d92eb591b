import Foundation
@testable import TransitGTFS
@testable import TransitSupport

/// The random feeds' generator: the tests' SplitMix64 (BARTParserTests), so the same seed
/// writes the same feed on every machine.
typealias SeededGenerator = SplitMix

extension SplitMix {
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
}

/// A small random feed that mixes every rule of "what every journey means", kept twice: as
/// the model the reference router reads (`RandomFeed` itself, in plain arrays), and as the
/// GTFS files the compiler reads (`write(to:)`). The reference never sees the files and the
/// router never sees the model, so a rule misread on either side shows as a difference.
struct RandomFeed {
    struct Stop {
        var id: String
        /// Index of the parent station, if any.
        var parent: Int?
        var isStation: Bool
        var latitude: Double
        var longitude: Double
        /// wheelchair_boarding: 0 unknown (written empty or 0), 1, 2.
        var wheelchair = 0
    }

    struct Call {
        var stop: Int
        /// Seconds of the service day as the model means them (after interpolation).
        var arrival: Int
        var departure: Int
        /// Written to stop_times.txt without times (the compiler interpolates).
        var untimed: Bool
        var noPickup: Bool
        var noDropOff: Bool
    }

    struct Window {
        var start: Int
        var end: Int
        var headway: Int
        /// nil: no exact_times column value.
        var exact: Int?
    }

    struct Trip {
        var id: String
        var route: Int
        var service: Int
        var calls: [Call]
        var windows: [Window]
        /// wheelchair_accessible and bikes_allowed: 0 unknown, 1, 2.
        var wheelchair = 0
        var bikes = 0
    }

    struct Service {
        var id: String
        /// Monday first; nil: the service has no calendar.txt row.
        var weekdays: [Bool]?
        var start: Int
        var end: Int
        var added: Set<Int>
        var removed: Set<Int>
    }

    struct Transfer {
        var fromStop: Int?
        var toStop: Int?
        var fromRoute: Int?
        var toRoute: Int?
        var fromTrip: Int?
        var toTrip: Int?
        var type: Int
        var minTime: Int?
        /// The feed of a pair the row belongs to (0 for a feed alone).
        var feed = 0
    }

    var stops: [Stop] = []
    var routes: [String] = []
    /// route_type per route (3 where not drawn).
    var routeTypes: [Int] = []
    var trips: [Trip] = []
    var services: [Service] = []
    var transfers: [Transfer] = []
    var zone = "America/Los_Angeles"
    /// Two feeds as one model (`pair`): each stop's feed, and the feeds themselves as written.
    var stopFeed: [Int] = []
    var parts: [RandomFeed] = []
    /// Walks as a map's streets measured them (`DifferentialCase` draws them on the compiled
    /// feed's stored walks): stop → stop → meters, within a feed; nil: straight lines.
    var footpaths: [Int: [Int: Double]]?
    /// The feeds (of a pair) whose walks those are; the others walk straight lines.
    var footpathFeeds: Set<Int> = []
    /// The walks a stop keeps at most (`TimetableCombination.maxWalksPerStop`, or the smaller
    /// cap a test compiles with).
    var walkLimit = TimetableCombination.maxWalksPerStop
    /// stop_sequence of a trip's k-th call is k × this + 1 (written so; a national network's are 1, 2, 3…).
    var sequenceStep = 2

    func stopSequence(_ k: Int) -> Int { k * sequenceStep + 1 }

    func feed(of stop: Int) -> Int { stop < stopFeed.count ? stopFeed[stop] : 0 }

    /// Two random feeds on the same ground, the model the reference reads: every stop, route,
    /// trip, service and row kept apart, ids written `name:id` as the combination writes them
    /// (both feeds say `s0`, `r0`, `c0`, `t0…`: the ids clash on purpose).
    static func pair(_ parts: [(name: String, feed: RandomFeed)]) -> RandomFeed {
        var out = RandomFeed()
        for (f, (name, part)) in parts.enumerated() {
            let stops = out.stops.count, routes = out.routes.count, trips = out.trips.count, services = out.services.count
            out.stops += part.stops.map { var s = $0; s.id = name + ":" + s.id; s.parent = s.parent.map { $0 + stops }; return s }
            out.stopFeed += part.stops.map { _ in f }
            out.routes += part.routes.map { name + ":" + $0 }
            out.routeTypes += part.routeTypes
            out.services += part.services.map { var s = $0; s.id = name + ":" + s.id; return s }
            out.trips += part.trips.map { t in
                var t = t
                t.id = name + ":" + t.id
                t.route += routes
                t.service += services
                t.calls = t.calls.map { var c = $0; c.stop += stops; return c }
                return t
            }
            out.transfers += part.transfers.map { r in
                var r = r
                r.fromStop = r.fromStop.map { $0 + stops }
                r.toStop = r.toStop.map { $0 + stops }
                r.fromRoute = r.fromRoute.map { $0 + routes }
                r.toRoute = r.toRoute.map { $0 + routes }
                r.fromTrip = r.fromTrip.map { $0 + trips }
                r.toTrip = r.toTrip.map { $0 + trips }
                r.feed = f
                return r
            }
            if let paths = part.footpaths {
                for (x, ys) in paths {
                    out.footpaths = out.footpaths ?? [:]
                    out.footpaths?[x + stops] = Dictionary(uniqueKeysWithValues: ys.map { ($0.key + stops, $0.value) })
                }
                if out.footpaths == nil { out.footpaths = [:] }
                out.footpathFeeds.insert(f)
            }
            out.parts.append(part)
        }
        return out
    }

    /// The days queries are asked on: an ordinary Monday, a Sunday, a holiday, and the two
    /// clock changes of 2026 in the feed's zone.
    static let days = ["2026-11-23", "2026-11-22", "2026-11-26", "2026-03-08", "2026-11-01"].compactMap { LocalDate(iso: $0)?.dayNumber }

    var boardable: [Int] { stops.indices.filter { !stops[$0].isStation } }

    func children(_ station: Int) -> [Int] { stops.indices.filter { stops[$0].parent == station } }

    // MARK: generating

    /// An empty feed (what `pair` fills).
    init() {}

    init(seed: UInt64) {
        var g = SeededGenerator(seed: seed)
        makeStops(&g)
        makeServices(&g)
        routes = (0..<g.int(2...4)).map { "r\($0)" }
        for route in routes.indices {
            for _ in 0..<g.int(1...2) { makePattern(route: route, &g) }
        }
        makeTransfers(&g)
        markAccess(seed: seed)
    }

    /// What a rider's needs read (issue 46): wheelchair and bike marks, and route types of every
    /// group, some of none. Its own generator, so that the feed's other draws stay as they were.
    mutating func markAccess(seed: UInt64) {
        var g = SeededGenerator(seed: seed ^ 0x4143_4345_5353)
        let types = [3, 3, 2, 1, 0, 4, 5, 6, 7, 11, 12, 109, 204, 401, 715, 800, 900, 1000, 1300, 1400, 1700]
        routeTypes = routes.map { _ in types[g.int(0...types.count - 1)] }
        // Most marked, as real feeds that mark do; a station's mark stands for its unmarked platforms.
        for k in stops.indices { stops[k].wheelchair = [0, 1, 1, 1, 2][g.int(0...4)] }
        for k in trips.indices {
            trips[k].wheelchair = [0, 1, 1, 1, 2][g.int(0...4)]
            trips[k].bikes = [0, 0, 1, 2][g.int(0...3)]
        }
    }

    mutating func makeStops(_ g: inout SeededGenerator) {
        let count = g.int(5...9)
        // Within about 1.5 km, so that some pairs are in walking range and some are not.
        for i in 0..<count {
            stops.append(Stop(id: "s\(i)", parent: nil, isStation: false,
                              latitude: 37.0 + Double(g.int(0...1400)) / 100_000, longitude: -122.0 + Double(g.int(0...1700)) / 100_000))
        }
        // One or two stations of two platforms, a few meters apart.
        for k in 0..<g.int(0...2) where 2 * k + 1 < count {
            let station = stops.count
            let a = 2 * k, b = 2 * k + 1
            stops.append(Stop(id: "P\(k)", parent: nil, isStation: true, latitude: stops[a].latitude, longitude: stops[a].longitude))
            stops[a].parent = station
            stops[b].parent = station
            stops[b].latitude = stops[a].latitude + 0.0003
            stops[b].longitude = stops[a].longitude
        }
    }

    mutating func makeServices(_ g: inout SeededGenerator) {
        let first = LocalDate(iso: "2026-01-01")?.dayNumber ?? 0, last = LocalDate(iso: "2026-12-31")?.dayNumber ?? 0
        for k in 0..<g.int(1...3) {
            var service = Service(id: "c\(k)", weekdays: nil, start: first, end: last, added: [], removed: [])
            if k == 0 || g.chance(0.6) {
                service.weekdays = (0..<7).map { _ in g.chance(0.6) }
                if k == 0 { service.weekdays?[0] = true }  // Monday the 23rd has a service
                if g.chance(0.3) { service.start = Self.days[g.int(0...Self.days.count - 1)] + g.int(-2...2) }
            }
            for day in Self.days where g.chance(0.2) {
                if g.chance(0.5) { service.added.insert(day) } else { service.removed.insert(day) }
            }
            if service.weekdays == nil && service.added.isEmpty { service.added.insert(Self.days[0]) }
            services.append(service)
        }
    }

    /// A stop sequence (sometimes a loop that calls at one stop twice), and its trips.
    mutating func makePattern(route: Int, _ g: inout SeededGenerator) {
        let candidates = boardable
        var sequence: [Int] = []
        for _ in 0..<g.int(3...6) {
            var next = candidates[g.int(0...candidates.count - 1)]
            var tries = 0
            while (next == sequence.last || (sequence.contains(next) && !g.chance(0.15))) && tries < 20 {
                next = candidates[g.int(0...candidates.count - 1)]
                tries += 1
            }
            if next != sequence.last { sequence.append(next) }
        }
        if g.chance(0.25), sequence.count >= 3 { sequence.append(sequence[1]) }  // a loop back to its second stop
        guard sequence.count >= 2 else { return }
        let noPickup = sequence.map { _ in g.chance(0.1) }, noDropOff = sequence.map { _ in g.chance(0.1) }
        for _ in 0..<g.int(1...4) {
            var time = g.int(5 * 60...25 * 60) * 60 + 30 * g.int(0...1)
            var calls: [Call] = []
            for (k, stop) in sequence.enumerated() {
                if k > 0 { time += g.int(2...12) * 60 + 30 * g.int(0...1) }
                let dwell = g.chance(0.3) ? g.int(1...3) * 60 : 0
                calls.append(Call(stop: stop, arrival: time, departure: time + dwell, untimed: false,
                                  noPickup: noPickup[k], noDropOff: noDropOff[k]))
                time += dwell
            }
            // Untimed calls inside the trip: the model keeps what interpolation by stop count gives.
            for k in 1..<(calls.count - 1) where g.chance(0.12) { calls[k].untimed = true }
            Self.interpolate(&calls)
            var windows: [Window] = []
            if g.chance(0.25) {
                for _ in 0..<g.int(1...2) {
                    let start = g.int(6 * 12...22 * 12) * 300
                    windows.append(Window(start: start, end: start + g.int(2...8) * 600, headway: g.int(1...6) * 300,
                                          exact: g.chance(0.3) ? nil : g.int(0...1)))
                }
            }
            trips.append(Trip(id: "t\(trips.count)", route: route, service: g.int(0...services.count - 1), calls: calls, windows: windows))
        }
    }

    /// Untimed calls by stop count between their timed neighbours, rounded half up: integer
    /// arithmetic, so that the model says what the rule says.
    static func interpolate(_ calls: inout [Call]) {
        var a = 0
        while a < calls.count - 1 {
            var b = a + 1
            while calls[b].untimed { b += 1 }
            for k in (a + 1)..<b {
                let ta = calls[a].departure, tb = calls[b].arrival
                let value = ta + (2 * (tb - ta) * (k - a) + (b - a)) / (2 * (b - a))
                calls[k].arrival = value
                calls[k].departure = value
            }
            a = b
        }
    }

    mutating func makeTransfers(_ g: inout SeededGenerator) {
        for _ in 0..<g.int(0...5) {
            func stop() -> Int? { g.chance(0.1) ? nil : g.int(0...stops.count - 1) }
            var rule = Transfer(fromStop: stop(), toStop: stop(), fromRoute: nil, toRoute: nil, fromTrip: nil, toTrip: nil,
                                type: g.int(0...3), minTime: nil)
            if g.chance(0.35) { rule.fromRoute = g.int(0...routes.count - 1) }
            if g.chance(0.25) { rule.toRoute = g.int(0...routes.count - 1) }
            if !trips.isEmpty && g.chance(0.2) { rule.fromTrip = g.int(0...trips.count - 1) }
            if !trips.isEmpty && g.chance(0.2) { rule.toTrip = g.int(0...trips.count - 1) }
            if rule.type == 2 || g.chance(0.2) { rule.minTime = g.int(0...10) * 60 }
            transfers.append(rule)
        }
    }

    // MARK: the files

    func write(to directory: String) throws {
        func clock(_ s: Int) -> String { String(format: "%02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) }
        func date(_ day: Int) -> String { LocalDate(dayNumber: day).iso.replacingOccurrences(of: "-", with: "") }
        var files: [String: String] = [:]
        files["agency.txt"] = "agency_id,agency_name,agency_url,agency_timezone\nA,Random,http://a,\(zone)\n"
        // An unknown mark is written empty or 0, by turns.
        func mark(_ value: Int, _ k: Int) -> String { value == 0 && k % 2 == 0 ? "" : String(value) }
        files["stops.txt"] = "stop_id,stop_name,stop_lat,stop_lon,parent_station,location_type,wheelchair_boarding\n" + stops.enumerated().map { k, s in
            "\(s.id),Stop \(s.id),\(s.latitude),\(s.longitude),\(s.parent.map { stops[$0].id } ?? ""),\(s.isStation ? 1 : 0),\(mark(s.wheelchair, k))\n"
        }.joined()
        files["routes.txt"] = "route_id,route_short_name,route_type\n" + routes.indices.map { "\(routes[$0]),\(routes[$0]),\($0 < routeTypes.count ? routeTypes[$0] : 3)\n" }.joined()
        files["trips.txt"] = "route_id,service_id,trip_id,wheelchair_accessible,bikes_allowed\n" + trips.enumerated().map { k, t in
            "\(routes[t.route]),\(services[t.service].id),\(t.id),\(mark(t.wheelchair, k)),\(mark(t.bikes, k + 1))\n"
        }.joined()
        var stopTimes = "trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type,drop_off_type\n"
        for trip in trips {
            for (k, call) in trip.calls.enumerated() {
                let times = call.untimed ? "," : "\(clock(call.arrival)),\(clock(call.departure))"
                stopTimes += "\(trip.id),\(times),\(stops[call.stop].id),\(stopSequence(k)),\(call.noPickup ? 1 : 0),\(call.noDropOff ? 1 : 0)\n"
            }
        }
        files["stop_times.txt"] = stopTimes
        let weekly = services.filter { $0.weekdays != nil }
        if !weekly.isEmpty {
            files["calendar.txt"] = "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n" + weekly.map { s in
                "\(s.id),\((s.weekdays ?? []).map { $0 ? "1" : "0" }.joined(separator: ",")),\(date(s.start)),\(date(s.end))\n"
            }.joined()
        }
        var dates = "service_id,date,exception_type\n"
        for s in services {
            for day in s.added.sorted() { dates += "\(s.id),\(date(day)),1\n" }
            for day in s.removed.sorted() { dates += "\(s.id),\(date(day)),2\n" }
        }
        files["calendar_dates.txt"] = dates
        let windows = trips.flatMap { trip in trip.windows.map { (trip.id, $0) } }
        if !windows.isEmpty {
            files["frequencies.txt"] = "trip_id,start_time,end_time,headway_secs,exact_times\n" + windows.map {
                "\($0.0),\(clock($0.1.start)),\(clock($0.1.end)),\($0.1.headway),\($0.1.exact.map(String.init) ?? "")\n"
            }.joined()
        }
        if !transfers.isEmpty {
            files["transfers.txt"] = "from_stop_id,to_stop_id,from_route_id,to_route_id,from_trip_id,to_trip_id,transfer_type,min_transfer_time\n"
                + transfers.map { r in
                    [r.fromStop.map { stops[$0].id }, r.toStop.map { stops[$0].id }, r.fromRoute.map { routes[$0] }, r.toRoute.map { routes[$0] },
                     r.fromTrip.map { trips[$0].id }, r.toTrip.map { trips[$0].id }, String(r.type), r.minTime.map(String.init)]
                        .map { $0 ?? "" }.joined(separator: ",") + "\n"
                }.joined()
        }
        for (name, text) in files {
            try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
        }
    }
}
