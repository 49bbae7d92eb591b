import Foundation
import TransitSupport

/// A timetable's fares as a query prices journeys with them. Each feed's rides are priced by
/// that feed's own fares: Fares v2 (`FareProducts`) where the feed has fare_leg_rules.txt,
/// else Fares v1, below.
///
/// Fares v1: for each fare, the routes, origin and destination zones and contained zones its
/// rules name. A fare covers a run of consecutive rides of its feed (as OpenTripPlanner's v1
/// reckons it) when every ride's route is one of its routes (if it names routes), the zones
/// where the run starts and ends are one of its origin-destination pairs (an empty side
/// matching any zone; if it names any), the zones passed are exactly its contained zones (if it
/// names any), the run has no more changes than its `transfers`, and its last boarding is
/// within `transfer_duration` of its first (a stop without a zone is in its station's). A fare
/// with no rules covers any single ride of its feed. A journey costs the cheapest way to cover
/// its rides with such runs.
package final class FareTable: Sendable {
    /// Each fare's conditions, flat: fare f's routes are `routes[routeStart[f]..<routeStart[f + 1]]`
    /// and its contained zones `contains[containStart[f]..<containStart[f + 1]]`, each list
    /// sorted and each value once; `hasRules[f]`: it has a rule. Its origin-destination pairs
    /// are in `pairKeys`. BART's 2,500 fares were 2,500 structs of two arrays, made and freed
    /// at every query that prices (issue 67).
    private let routeStart: [Int], routes: [Int32]
    private let containStart: [Int], contains: [Int32]
    private let hasRules: [Bool]

    /// The fares naming each origin-destination pair, and those naming none: the candidates
    /// for a run are found by its pair, not by trying BART's 2,500 fares each time.
    /// Flat and sorted (pair, then fare; each once), searched by halving: BART's 2,500 pairs
    /// made a dictionary of 2,500 arrays at every query that prices, and freed it after
    /// (issue 67).
    private let pairKeys: [Int64]
    private let pairFares: [Int]
    private let withoutPairs: [Int]
    /// Each fare's price for the rider asked for (its own price where the feed gives none for
    /// the category).
    private let prices: [Double]
    /// Each fare's feed (0 for one feed): a run of rides is priced by its own feed's fares.
    private let fareFeed: [Int]
    /// The feeds' Fares v2, where any has leg rules.
    private let products: FareProducts?
    /// The rider category priced for, by name (nil: the fares' own prices).
    package let rider: String?
    private let t: Timetable
    /// The real-time data the journeys were found with: an added trip's route is its own.
    private let updates: TripUpdates?
    /// Journeys priced so far whose Fares v2 gave more ways to pay than pricing follows
    /// (`FareProducts.maxWork`): they have no total, and the command says why.
    private let tooManyWays = Locked(0)
    package var journeysWithTooManyWays: Int { tooManyWays.current }
    /// Fares v1 prices by what they depend on (`priceKey`): a whole day's answer has thousands
    /// of journeys and few kinds of them (a day of one line: each run rides the same stops),
    /// and a price asked again (tsv's price and currency) is read, not worked out (issue 67).
    /// Kept by the key's hash, each with its keys: a dictionary keyed by `[Int]` looked Array's
    /// Hashable up at run time when its type was first made (0.37 M instructions of a query).
    private let known = Locked<[Int: [(key: [Int], price: Price)]]>([:])
    /// Whether any fare names contained zones, or limits a ticket's time: only then do a ride's
    /// calls and the rides' times change a price.
    private let namesContained: Bool
    private let limitsDuration: Bool

    /// `rider`: a category of `riderCategoryIDs`, whose prices replace the fares' own (v1) or
    /// whose products are bought (v2; without one, the feed's default category). `clock`: the
    /// query's day, on which Fares v2's timeframes are matched. `updates`: the real-time data
    /// the journeys were found with (a trip it adds rides its own route).
    package init?(_ t: Timetable, rider: Int? = nil, clock: ServiceClock? = nil, updates: TripUpdates? = nil) {
        guard t.hasFares else { return nil }
        products = FareProducts(t, rider: rider, clock: clock, updates: updates)
        self.updates = updates
        var prices = Array(t.fares.farePrice.buffer)
        if let rider {
            for k in 0..<t.fares.riderPrice.count where Int(t.fares.riderCategory[k]) == rider {
                let f = Int(t.fares.riderFare[k])
                if f >= 0 && f < prices.count { prices[f] = t.fares.riderPrice[k] }
            }
        }
        self.prices = prices
        self.rider = (rider ?? products?.rider).flatMap { c in
            c < t.fares.riderCategoryIDs.count ? (t.fares.riderCategoryNames[c].isEmpty ? t.fares.riderCategoryIDs[c] : t.fares.riderCategoryNames[c]) : nil
        }
        // A combination's fare ids are `feed:id`.
        let prefixes = t.isCombination ? (0..<t.feedCount).map { t.feedName($0) + ":" } : []
        fareFeed = prefixes.isEmpty ? Array(repeating: 0, count: t.fares.fareIDs.count)
            : (0..<t.fares.fareIDs.count).map { f in prefixes.firstIndex { t.fares.fareIDs[f].hasPrefix($0) } ?? -1 }
        let fareCount = t.fares.fareIDs.count
        var hasRules = [Bool](repeating: false, count: fareCount), hasPairs = hasRules
        var named: [(pair: Int64, fare: Int)] = []
        var routesOf = Self.Lists(count: fareCount), containsOf = Self.Lists(count: fareCount)
        let rules = t.fares.fareRules.buffer
        var k = 0
        while k + 4 < rules.count {
            let f = Int(rules[k])
            if f >= 0 && f < fareCount {
                hasRules[f] = true
                if rules[k + 1] >= 0 { routesOf.add(rules[k + 1], to: f) }
                if rules[k + 2] >= 0 || rules[k + 3] >= 0 {
                    hasPairs[f] = true
                    named.append((Self.pair(rules[k + 2], rules[k + 3]), f))
                }
                if rules[k + 4] >= 0 { containsOf.add(rules[k + 4], to: f) }
            }
            k += 5
        }
        (routeStart, routes) = routesOf.flat()
        (containStart, contains) = containsOf.flat()
        self.hasRules = hasRules
        namesContained = !contains.isEmpty
        limitsDuration = t.fares.fareTransferDuration.buffer.contains { $0 >= 0 }
        (pairKeys, pairFares) = Self.pairIndex(named, zones: t.fares.zoneIDs.count)
        withoutPairs = hasPairs.indices.filter { !hasPairs[$0] }
        self.t = t
    }

    static func pair(_ origin: Int32, _ destination: Int32) -> Int64 { Int64(origin) << 32 | Int64(UInt32(bitPattern: destination)) }

    /// A list of values per fare, gathered rule by rule (few: most feeds name no routes or
    /// contained zones), then made flat, each list sorted and each value once.
    struct Lists {
        private var added: [(fare: Int, value: Int32)] = []
        private let count: Int

        init(count: Int) { self.count = count }

        mutating func add(_ value: Int32, to fare: Int) { added.append((fare, value)) }

        /// Where each fare's list starts in `values` (one more than the fares: the end).
        func flat() -> (starts: [Int], values: [Int32]) {
            var starts = [Int](repeating: 0, count: count + 1), values: [Int32] = []
            guard !added.isEmpty else { return (starts, values) }
            let sorted = added.sorted { ($0.fare, $0.value) < ($1.fare, $1.value) }
            var next = 0
            for fare in 0..<count {
                starts[fare] = values.count
                while next < sorted.count && sorted[next].fare == fare {
                    if values.count == starts[fare] || values.last != sorted[next].value { values.append(sorted[next].value) }
                    next += 1
                }
            }
            starts[count] = values.count
            return (starts, values)
        }
    }

    /// The pairs the rules name, sorted (pair, then fare) and each (pair, fare) once, as the
    /// flat `pairKeys` and `pairFares`. Where the zones and fares fit, each entry is one
    /// integer in the same order (origin + 1; the destination, none last as in `pair`; the
    /// fare), sorted by its bytes: BART's 2,500 rules took 0.8 M instructions sorted as tuples
    /// at every query that prices (issue 67).
    static func pairIndex(_ named: [(pair: Int64, fare: Int)], zones: Int) -> (keys: [Int64], fares: [Int]) {
        func bits(_ n: Int) -> Int { Int.bitWidth - n.leadingZeroBitCount }
        let zoneBits = bits(zones), fareBits = bits(named.reduce(0) { max($0, $1.fare) }), width = 2 * zoneBits + fareBits
        var packed: [UInt64] = []
        packed.reserveCapacity(named.count)
        for (pair, fare) in named where width < 64 {
            let origin = Int(pair >> 32) + 1, destination = Int(UInt32(truncatingIfNeeded: pair))
            let none = destination == Int(UInt32.max), to = none ? zones : destination
            guard origin >= 0, origin <= zones, none || destination < zones, fare >= 0 else { break }
            packed.append(UInt64(origin) << (zoneBits + fareBits) | UInt64(to) << fareBits | UInt64(fare))
        }
        var keys: [Int64] = [], fares: [Int] = []
        keys.reserveCapacity(named.count)
        fares.reserveCapacity(named.count)
        guard packed.count == named.count else {
            for (pair, fare) in named.sorted(by: { ($0.pair, $0.fare) < ($1.pair, $1.fare) }) where keys.last != pair || fares.last != fare {
                keys.append(pair)
                fares.append(fare)
            }
            return (keys, fares)
        }
        radixSort(&packed, bits: width)
        let fareMask = UInt64(1) << fareBits - 1, zoneMask = UInt64(1) << zoneBits - 1
        var last: UInt64? = nil
        for key in packed where key != last {
            let origin = Int32(truncatingIfNeeded: key >> (zoneBits + fareBits)) - 1, to = Int(key >> fareBits & zoneMask)
            keys.append(pair(origin, to == zones ? -1 : Int32(truncatingIfNeeded: to)))
            fares.append(Int(key & fareMask))
            last = key
        }
        return (keys, fares)
    }

    /// Sorts `keys` below 2^`bits` by their bytes, lowest first (a counting pass a byte).
    static func radixSort(_ keys: inout [UInt64], bits: Int) {
        var other = [UInt64](repeating: 0, count: keys.count)
        var starts = [Int](repeating: 0, count: 257)
        var shift = 0
        while shift < bits {
            keys.withUnsafeBufferPointer { from in
                other.withUnsafeMutableBufferPointer { to in
                    starts.withUnsafeMutableBufferPointer { starts in
                        for d in starts.indices { starts[d] = 0 }
                        for key in from { starts[Int(key >> shift & 0xFF) + 1] += 1 }
                        for d in 1..<starts.count { starts[d] += starts[d - 1] }
                        for key in from {
                            let d = Int(key >> shift & 0xFF)
                            to[starts[d]] = key
                            starts[d] += 1
                        }
                    }
                }
            }
            swap(&keys, &other)
            shift += 8
        }
    }

    /// One fare paid: which, its price and currency, and the journey's legs it covers (indices
    /// into `journey.legs`).
    package struct Part: Hashable, Sendable {
        /// A fare_id (v1) or fare_product_id (v2).
        package var fare: String
        /// In the currency's minor units, a whole number (`Money`); `price` in its major unit.
        package var minor: Double
        package var currency: String
        package var legs: [Int]
        /// Fares v2: a product, its name, the fare medium it is bought on (its cheapest), and
        /// whether it is a transfer's (AB) rather than a leg's.
        package var product = false
        package var name: String? = nil
        package var medium: String? = nil
        package var transfer = false

        package var price: Double { Money.major(minor, currency: currency) }
    }

    /// What a journey costs: the fares paid and their total, which exists only when every ride is
    /// covered and every fare is in one currency.
    /// A journey's price: its parts and their total, summed exactly in the currency's minor units
    /// (`Money`; `total` in its major unit). The total is never below zero: a discount larger than
    /// the fares it follows leaves the journey free, `clamped` (the parts keep their amounts).
    package struct Price: Hashable, Sendable {
        package var parts: [Part]
        package var minorTotal: Double?
        package var currency: String?
        package var complete: Bool
        package var clamped = false

        package init(parts: [Part], minorTotal: Double?, currency: String?, complete: Bool, clamped: Bool = false) {
            (self.parts, self.minorTotal, self.currency, self.complete, self.clamped) = (parts, minorTotal, currency, complete, clamped)
        }

        package var total: Double? { minorTotal.map { Money.major($0, currency: currency ?? "") } }
    }

    /// The cheapest way to pay the journey's rides: each feed's consecutive rides by its own
    /// fares. A journey with no ride costs nothing.
    package func price(_ journey: Router.Journey) -> Price {
        guard let key = priceKey(journey) else { return work(journey) }
        let hash = key.hashValue
        if let price = known.withLock({ $0[hash]?.first { $0.key == key }?.price }) { return price }
        let price = work(journey)
        known.withLock { $0[hash, default: []].append((key, price)) }
        return price
    }

    /// What a Fares v1 price depends on: each leg (a walk as -1), each ride's route, ends, and
    /// where contained zones count its calls, and where a fare limits its time the rides' times
    /// from the first. nil where it is not worked out this way: Fares v2 (timeframes read the
    /// clock) and real-time data (an added trip's route is its own).
    private func priceKey(_ journey: Router.Journey) -> [Int]? {
        guard products == nil, updates == nil else { return nil }
        var key: [Int] = []
        key.reserveCapacity(4 * journey.legs.count)
        let first = journey.legs.first(where: \.isRide)?.departure.predicted ?? 0
        for leg in journey.legs {
            guard leg.isRide else { key.append(-1); continue }
            key.append(leg.route(t, updates))
            key.append(leg.from)
            key.append(leg.to)
            if namesContained { key.append(leg.calls.count); key += leg.calls }
            if limitsDuration { key.append(leg.departure.predicted - first) }
        }
        return key
    }

    private func work(_ journey: Router.Journey) -> Price {
        let rides = journey.legs.indices.filter { journey.legs[$0].isRide }
        guard !rides.isEmpty else { return Price(parts: [], minorTotal: 0, currency: nil, complete: true) }
        var parts: [Part] = [], start = 0
        while start < rides.count {
            let feed = self.feed(journey.legs[rides[start]])
            var end = start + 1
            while end < rides.count && self.feed(journey.legs[rides[end]]) == feed { end += 1 }
            let run = Array(rides[start..<end])
            let paid: [Part]?
            if let products, products.prices(feed: feed) {
                switch products.parts(journey, run, feed: feed) {
                case .parts(let parts): paid = parts
                case .none: paid = nil
                case .tooManyWays:
                    tooManyWays.withLock { $0 += 1 }
                    paid = nil
                }
            } else {
                paid = cover(journey, run, feed: feed)
            }
            // Some ride no fare covers: the rides that are covered are not summed.
            guard let paid else { return Price(parts: [], minorTotal: nil, currency: nil, complete: false) }
            parts += paid
            start = end
        }
        // No part at all: every ride paid, at nothing (an AB transfer with no product replaced the fare).
        let currencies = Set(parts.map(\.currency))
        let sum = currencies.count <= 1 ? parts.reduce(0) { $0 + $1.minor } : nil
        return Price(parts: parts, minorTotal: sum.map { max(0, $0) }, currency: currencies.count == 1 ? currencies.first : nil, complete: sum != nil,
                     clamped: (sum ?? 0) < 0)
    }

    /// The feed a ride is of (0 for one feed): its boarding stop's (an added trip has no trip of
    /// the timetable).
    private func feed(_ leg: Router.Leg) -> Int { t.isCombination ? t.feed(ofStop: leg.from) : 0 }

    /// The cheapest cover of one feed's consecutive rides with its v1 fares; nil when some ride
    /// has none.
    func cover(_ journey: Router.Journey, _ rides: [Int], feed: Int) -> [Part]? {
        // best[k]: the cheapest cover of the first k rides, and how it ends.
        var best = [(cost: Double, from: Int, fare: Int)?](repeating: nil, count: rides.count + 1)
        best[0] = (0, -1, -1)
        for start in 0..<rides.count {
            guard let before = best[start] else { continue }
            for end in start..<rides.count {
                guard let (fare, price) = cheapest(journey, rides[start...end], feed: feed) else { continue }
                let cost = before.cost + price
                if best[end + 1].map({ cost < $0.cost }) ?? true { best[end + 1] = (cost, start, fare) }
            }
        }
        guard best[rides.count] != nil else { return nil }
        var parts: [Part] = [], k = rides.count
        while k > 0, let step = best[k] {
            parts.append(Part(fare: t.fares.fareIDs[step.fare], minor: prices[step.fare], currency: t.fares.fareCurrency[step.fare],
                              legs: Array(rides[step.from..<k])))
            k = step.from
        }
        return parts.reversed()
    }

    /// A stop's fare zone, else its station's (feeds often zone the station, not its platforms).
    func zone(_ stop: Int) -> Int32 {
        let own = t.fareZone(ofStop: stop), parent = t.parent(of: stop)
        return Int32(own >= 0 || parent < 0 ? own : t.fareZone(ofStop: parent))
    }

    /// The cheapest fare covering these rides, and its price (of equal prices, the fare first in
    /// fare_attributes.txt).
    func cheapest(_ journey: Router.Journey, _ rides: ArraySlice<Int>, feed: Int) -> (Int, Double)? {
        guard let first = rides.first, let last = rides.last else { return nil }
        let legs = rides.map { journey.legs[$0] }
        let zone = { (stop: Int) in self.zone(stop) }
        let origin = zone(journey.legs[first].from), destination = zone(journey.legs[last].to)
        let routes = Array(Set(legs.map { Int32(clamping: $0.route(t, updates)) }))
        let passed = Array(Set(legs.flatMap { $0.calls.map(zone) }.filter { $0 >= 0 })).sorted()
        let span = journey.legs[last].departure.predicted - journey.legs[first].departure.predicted
        var found: (Int, Double)?
        func consider(_ list: ArraySlice<Int>) {
            for f in list {
                if fareFeed[f] != feed { continue }
                let allowed = Int(t.fares.fareTransfers[f])
                if allowed >= 0 && rides.count - 1 > allowed { continue }
                let limit = Int(t.fares.fareTransferDuration[f])
                if limit >= 0 && rides.count > 1 && span > limit { continue }
                if !hasRules[f] && rides.count > 1 { continue }
                let named = self.routes[routeStart[f]..<routeStart[f + 1]], contained = contains[containStart[f]..<containStart[f + 1]]
                if !named.isEmpty && !routes.allSatisfy({ Self.holds(named, $0) }) { continue }
                if !contained.isEmpty && !passed.elementsEqual(contained) { continue }
                let price = prices[f]
                if found.map({ price < $0.1 || price == $0.1 && f < $0.0 }) ?? true { found = (f, price) }
            }
        }
        consider(fares(naming: Self.pair(origin, destination)))
        consider(fares(naming: Self.pair(origin, -1)))
        consider(fares(naming: Self.pair(-1, destination)))
        consider(withoutPairs[...])
        return found
    }

    /// The fares naming an origin-destination pair (`pairKeys` halved to its first).
    private func fares(naming pair: Int64) -> ArraySlice<Int> {
        let low = Self.firstIndex(notBelow: pair, in: pairKeys[...])
        var end = low
        while end < pairKeys.count && pairKeys[end] == pair { end += 1 }
        return pairFares[low..<end]
    }

    /// Whether the sorted `list` holds `value`.
    static func holds(_ list: ArraySlice<Int32>, _ value: Int32) -> Bool {
        let low = firstIndex(notBelow: value, in: list)
        return low < list.endIndex && list[low] == value
    }

    /// The first index of the sorted `list` whose value is not below `value` (its end index
    /// where none is), by halving.
    private static func firstIndex<T: Comparable>(notBelow value: T, in list: ArraySlice<T>) -> Int {
        var low = list.startIndex, high = list.endIndex
        while low < high {
            let mid = low + (high - low) / 2
            if list[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
