import Foundation
import TransitSupport

extension GTFSCompiler {
    /// Fares v1: fare_attributes.txt and fare_rules.txt. A row that cannot be used (an unknown
    /// fare, route or zone, a price that is no number, a currency that is not three capital
    /// letters) is skipped and counted in one warning; the rest of the feed imports.
    mutating func readFares(_ attributes: CSVReader?, _ rules: CSVReader?) throws(TransitError) {
        guard let attributes else { return }
        guard let id = attributes.column("fare_id"), let price = attributes.column("price"), let currency = attributes.column("currency_type") else {
            warnings.append("fare_attributes.txt has no fare_id, price or currency_type column: the feed's fares are left out")
            return
        }
        let transfers = attributes.column("transfers"), duration = attributes.column("transfer_duration")
        var skipped = 0
        while try attributes.next() {
            let code = attributes.bytes(currency)
            // Correctly rounded (Double(String)): 4.60 is 4.6, not a step beside it.
            guard let value = Double(attributes.string(price)), value.isFinite, value >= 0, value < 1e9,
                  code.count == 3, code.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }),
                  !attributes.isEmpty(id), fares.insert(attributes.bytes(id)).added else { skipped += 1; continue }
            t.farePrice.append(value)
            t.fareCurrency.append(attributes.string(currency))
            // transfers: empty is unlimited; 0, 1, 2 as written. transfer_duration in seconds.
            let allowed = transfers.flatMap { attributes.isEmpty($0) ? nil : FieldBytes.int(attributes.bytes($0)) }
            t.fareTransfers.append(allowed.map { Int32(clamping: max(0, $0)) } ?? -1)
            let seconds = duration.flatMap { attributes.isEmpty($0) ? nil : FieldBytes.int(attributes.bytes($0)) }
            t.fareTransferDuration.append(seconds.map { Int32(clamping: max(0, $0)) } ?? -1)
        }
        t.fareIDs = fares.keys
        if let rules, let fare = rules.column("fare_id") {
            let columns = [rules.column("route_id"), rules.column("origin_id"), rules.column("destination_id"), rules.column("contains_id")]
            while try rules.next() {
                guard let f = fares.find(rules.bytes(fare)) else { skipped += 1; continue }
                var row = [Int32(f)]
                for (k, column) in columns.enumerated() {
                    guard let column, !rules.isEmpty(column) else { row.append(-1); continue }
                    // A route, or a zone some stop is in.
                    guard let index = k == 0 ? routes.find(rules.bytes(column)) : zones.find(rules.bytes(column)) else { break }
                    row.append(Int32(index))
                }
                guard row.count == 5 else { skipped += 1; continue }
                for value in row { t.fareRules.append(value) }
            }
        }
        if skipped > 0 {
            warnings.append("\(skipped) fare \(skipped == 1 ? "row names" : "rows name") an unknown fare, route or zone, or a price or currency that cannot be read: skipped")
        }
    }
}

extension GTFSCompiler {
    /// Rider categories beside Fares v1, as BART publishes them: rider_categories.txt
    /// (rider_category_id, rider_category_description) and fare_rider_categories.txt (fare_id,
    /// rider_category_id, price). A row naming an unknown fare or category, or a price that is no
    /// number, is skipped and counted.
    mutating func readRiderCategories(_ categories: CSVReader?, _ prices: CSVReader?) throws(TransitError) {
        guard let categories, let prices, !t.fareIDs.isEmpty, let id = categories.column("rider_category_id"),
              let fare = prices.column("fare_id"), let category = prices.column("rider_category_id"), let price = prices.column("price") else { return }
        let name = categories.column("rider_category_description") ?? categories.column("rider_category_name")
        var known = IDTable(), skipped = 0
        while try categories.next() {
            guard !categories.isEmpty(id), known.insert(categories.bytes(id)).added else { skipped += 1; continue }
            t.riderCategoryNames.append(name.map { categories.string($0) } ?? "")
        }
        t.riderCategoryIDs = known.keys
        while try prices.next() {
            guard let f = fares.find(prices.bytes(fare)), let c = known.find(prices.bytes(category)),
                  let value = Double(prices.string(price)), value.isFinite, value >= 0, value < 1e9 else { skipped += 1; continue }
            t.riderFare.append(Int32(f))
            t.riderCategory.append(Int32(c))
            t.riderPrice.append(value)
        }
        if skipped > 0 {
            warnings.append("\(skipped) rider category \(skipped == 1 ? "row names" : "rows name") an unknown fare or category, or a price that cannot be read: skipped")
        }
    }
}

/// A feed's fares (Fares v1) as a query prices journeys with them: for each fare, the routes,
/// origin and destination zones and contained zones its rules name. A fare covers a run of
/// consecutive rides (as OpenTripPlanner's v1 reckons it) when every ride's route is one of its
/// routes (if it names routes), the zones where the run starts and ends are one of its
/// origin-destination pairs (an empty side matching any zone; if it names any), the zones
/// passed are exactly its contained zones (if it names any), the run has no more changes than
/// its `transfers`, and its last boarding is within `transfer_duration` of its first (a stop
/// without a zone is in its station's). A fare
/// with no rules covers any single ride of its feed. A journey costs the cheapest way to cover
/// its rides with such runs.
package struct FareTable: Sendable {
    /// A fare's conditions; its origin-destination pairs are in `byPair`. Sorted arrays, not
    /// sets: BART has 2,500 fares of one rule each, made at every query.
    struct Fare: Sendable {
        var routes: [Int32] = []
        var contains: [Int32] = []
        var hasPairs = false
        var hasRules = false
    }

    private let fares: [Fare]
    /// The fares naming each origin-destination pair, and those naming none: the candidates
    /// for a run are found by its pair, not by trying BART's 2,500 fares each time.
    private let byPair: [Int64: [Int]]
    private let withoutPairs: [Int]
    /// Each fare's price for the rider asked for (its own price where the feed gives none for
    /// the category).
    private let prices: [Double]
    /// The rider category priced for, by name (nil: the fares' own prices).
    package let rider: String?
    private let t: Timetable

    /// `rider`: a category of `riderCategoryIDs`, whose prices replace the fares' own.
    package init?(_ t: Timetable, rider: Int? = nil) {
        guard !t.fareIDs.isEmpty else { return nil }
        var prices = Array(t.farePrice.buffer)
        if let rider {
            for k in 0..<t.riderPrice.count where Int(t.riderCategory[k]) == rider {
                let f = Int(t.riderFare[k])
                if f >= 0 && f < prices.count { prices[f] = t.riderPrice[k] }
            }
        }
        self.prices = prices
        self.rider = rider.map { t.riderCategoryNames[$0].isEmpty ? t.riderCategoryIDs[$0] : t.riderCategoryNames[$0] }
        var fares = [Fare](repeating: Fare(), count: t.fareIDs.count)
        var byPair: [Int64: [Int]] = [:]
        let rules = t.fareRules.buffer
        var k = 0
        while k + 4 < rules.count {
            let f = Int(rules[k])
            if f >= 0 && f < fares.count {
                fares[f].hasRules = true
                if rules[k + 1] >= 0 { fares[f].routes.append(rules[k + 1]) }
                if rules[k + 2] >= 0 || rules[k + 3] >= 0 {
                    fares[f].hasPairs = true
                    byPair[Self.pair(rules[k + 2], rules[k + 3]), default: []].append(f)
                }
                if rules[k + 4] >= 0 { fares[f].contains.append(rules[k + 4]) }
            }
            k += 5
        }
        for f in fares.indices {
            fares[f].routes = Array(Set(fares[f].routes)).sorted()
            fares[f].contains = Array(Set(fares[f].contains)).sorted()
        }
        self.fares = fares
        self.byPair = byPair.mapValues { Array(Set($0)).sorted() }
        withoutPairs = fares.indices.filter { !fares[$0].hasPairs }
        self.t = t
    }

    static func pair(_ origin: Int32, _ destination: Int32) -> Int64 { Int64(origin) << 32 | Int64(UInt32(bitPattern: destination)) }

    /// One fare paid: which, its price and currency, and the journey's legs it covers (indices
    /// into `journey.legs`).
    package struct Part: Equatable, Sendable {
        package var fare: String
        package var price: Double
        package var currency: String
        package var legs: [Int]
    }

    /// What a journey costs: the fares paid and their total, which exists only when every ride is
    /// covered and every fare is in one currency.
    package struct Price: Equatable, Sendable {
        package var parts: [Part]
        package var total: Double?
        package var currency: String?
        package var complete: Bool

        package init(parts: [Part], total: Double?, currency: String?, complete: Bool) {
            (self.parts, self.total, self.currency, self.complete) = (parts, total, currency, complete)
        }
    }

    /// The cheapest cover of the journey's rides; a journey with no ride costs nothing.
    package func price(_ journey: Router.Journey) -> Price {
        let rides = journey.legs.indices.filter { journey.legs[$0].isRide }
        guard !rides.isEmpty else { return Price(parts: [], total: 0, currency: nil, complete: true) }
        // best[k]: the cheapest cover of the first k rides, and how it ends.
        var best = [(cost: Double, from: Int, fare: Int)?](repeating: nil, count: rides.count + 1)
        best[0] = (0, -1, -1)
        for start in 0..<rides.count {
            guard let before = best[start] else { continue }
            for end in start..<rides.count {
                guard let (fare, price) = cheapest(journey, rides[start...end]) else { continue }
                let cost = before.cost + price
                if best[end + 1].map({ cost < $0.cost }) ?? true { best[end + 1] = (cost, start, fare) }
            }
        }
        guard best[rides.count] != nil else {
            // Some ride no fare covers: the rides that are covered are not summed.
            return Price(parts: [], total: nil, currency: nil, complete: false)
        }
        var parts: [Part] = [], k = rides.count
        while k > 0, let step = best[k] {
            parts.append(Part(fare: t.fareIDs[step.fare], price: prices[step.fare], currency: t.fareCurrency[step.fare],
                              legs: Array(rides[step.from..<k])))
            k = step.from
        }
        parts.reverse()
        let currencies = Set(parts.map(\.currency))
        let total = currencies.count == 1 ? parts.reduce(0) { $0 + $1.price } : nil
        return Price(parts: parts, total: total, currency: currencies.count == 1 ? currencies.first : nil, complete: total != nil)
    }

    /// A stop's fare zone, else its station's (feeds often zone the station, not its platforms).
    func zone(_ stop: Int) -> Int32 {
        guard stop >= 0 && stop < t.stopZone.count else { return -1 }
        let own = t.stopZone[stop], parent = Int(t.stopParent[stop])
        return own >= 0 || parent < 0 ? own : t.stopZone[parent]
    }

    /// The cheapest fare covering these rides, and its price (of equal prices, the fare first in
    /// fare_attributes.txt).
    func cheapest(_ journey: Router.Journey, _ rides: ArraySlice<Int>) -> (Int, Double)? {
        guard let first = rides.first, let last = rides.last else { return nil }
        let legs = rides.map { journey.legs[$0] }
        let zone = { (stop: Int) in self.zone(stop) }
        let origin = zone(journey.legs[first].from), destination = zone(journey.legs[last].to)
        let routes = Array(Set(legs.compactMap { leg in leg.trip.map { Int32(t.tripRoute[$0]) } }))
        let passed = Array(Set(legs.flatMap { $0.calls.map(zone) }.filter { $0 >= 0 })).sorted()
        let span = journey.legs[last].departure.predicted - journey.legs[first].departure.predicted
        var found: (Int, Double)?
        for list in [byPair[Self.pair(origin, destination)], byPair[Self.pair(origin, -1)], byPair[Self.pair(-1, destination)], withoutPairs] {
        for f in list ?? [] {
            let fare = fares[f]
            let allowed = Int(t.fareTransfers[f])
            if allowed >= 0 && rides.count - 1 > allowed { continue }
            let limit = Int(t.fareTransferDuration[f])
            if limit >= 0 && rides.count > 1 && span > limit { continue }
            if !fare.hasRules && rides.count > 1 { continue }
            if !fare.routes.isEmpty && !routes.allSatisfy({ Self.holds(fare.routes, $0) }) { continue }
            if !fare.contains.isEmpty && passed != fare.contains { continue }
            let price = prices[f]
            if found.map({ price < $0.1 || price == $0.1 && f < $0.0 }) ?? true { found = (f, price) }
        }
        }
        return found
    }

    /// Whether the sorted `list` holds `value`.
    static func holds(_ list: [Int32], _ value: Int32) -> Bool {
        var low = 0, high = list.count
        while low < high {
            let mid = (low + high) / 2
            if list[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low < list.count && list[low] == value
    }
}
