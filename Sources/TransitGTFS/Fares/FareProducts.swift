import Foundation
import TransitSupport

/// A feed's Fares v2 as a query prices journeys with them (docs/gtfs.md, "Fares v2").
///
/// Each ride is a fare leg, or several are, where fare_leg_join_rules.txt joins a change between
/// them (their networks, at its stops or within one station). A leg's rules are those of
/// fare_leg_rules.txt whose network, from area, to area and timeframes match it: a named
/// network or area matches itself; an empty one,
/// when the file has no rule_priority, matches every one the file does not name in that column,
/// and with rule_priority matches any (the highest priority then wins); an empty timeframe
/// matches any time. A rule prices the leg with its product at the rider's price (the cheapest
/// of the product's rows the rider may use: of their category, or of none). Between two legs,
/// fare_transfer_rules.txt's rules from the first leg's group to the second's apply (an empty
/// group as in the leg rules), within their duration limit and transfer count, and cost as
/// their fare_transfer_type says: A + AB, A + AB + B, or AB. A journey costs the cheapest such
/// reckoning; a ride no rule prices leaves it without a total.
package struct FareProducts: Sendable {
    struct LegRule { var group, network, fromArea, toArea, fromFrame, toFrame, product, priority: Int32 }
    struct TransferRule { var from, to, count, limit, limitType, type, product: Int32 }
    struct JoinRule { var from, to, fromStop, toStop: Int32 }
    /// A product's price for the rider: the cheapest of its rows they may use.
    struct Offer { var amount: Double; var row: Int; var medium: Int32 }
    /// One way to pay a leg: a matching rule's group and product, at the product's price.
    struct LegOption { var group: Int32; var product: Int32; var offer: Offer }

    private let t: Timetable
    private let updates: TripUpdates?
    /// Second 0 of the query's day: a timeframe is matched on the local date and time of a
    /// leg's scheduled departure or arrival, in its feed's zone.
    private let clock: ServiceClock?
    private let offers: [Offer?]
    /// Each feed's rules (one feed: index 0), and whether its leg rules carry rule_priority.
    private let legRules: [[LegRule]]
    private let transferRules: [[TransferRule]]
    private let ranked: [Bool]
    /// Each feed's leg rules by the from area they name (-1: none), in file order: a ride is
    /// matched against the rules of its stop's areas and those naming none, not against every
    /// rule (a regional feed has one per pair of areas: 2,500 for BART's).
    private let rulesFrom: [[Int32: [Int]]]
    private let joinRules: [JoinRule]
    /// The networks, areas and leg groups some rule names, per column: an empty field matches
    /// only those the file does not name.
    private let namedNetworks: Set<Int32>, namedFrom: Set<Int32>, namedTo: Set<Int32>
    private let namedTransferFrom: Set<Int32>, namedTransferTo: Set<Int32>
    /// Each timeframe group's (start, end, service).
    private let frames: [[(start: Int32, end: Int32, service: Int32)]]
    /// The category priced for: the one asked for, else the feed's default (nil: neither).
    package let rider: Int?

    /// `rider`: a category of `riderCategoryIDs`; without one, each product's rows for the
    /// feed's default category (is_default_fare_category), else its rows for no category.
    package init?(_ t: Timetable, rider: Int? = nil, clock: ServiceClock?, updates: TripUpdates? = nil) {
        guard !t.fares.legRules.isEmpty else { return nil }
        self.t = t
        self.updates = updates
        self.clock = clock
        let isDefault = (0..<t.fares.riderCategoryDefault.count).map { t.fares.riderCategoryDefault[$0] == 1 }
        self.rider = rider ?? isDefault.firstIndex(of: true)
        var offers = [Offer?](repeating: nil, count: t.fares.productIDs.count)
        let rows = t.fares.offers.buffer, stride = TimetableTable.offerStride
        for k in 0..<(rows.count / stride) {
            let product = Int(rows[k * stride]), category = Int(rows[k * stride + 1])
            // A row for no category is for every rider; otherwise for the one asked for, or the default one.
            let usable = category < 0 || (rider.map { $0 == category } ?? (category < isDefault.count && isDefault[category]))
            guard usable, product >= 0, product < offers.count, k < t.fares.offerAmount.count else { continue }
            let amount = t.fares.offerAmount[k]
            if offers[product].map({ amount < $0.amount }) ?? true {
                offers[product] = Offer(amount: amount, row: k, medium: rows[k * stride + 2])
            }
        }
        self.offers = offers
        let feeds = max(1, t.feedCount)
        // Each feed's rows, made from the values at `at` on (the row's first).
        func rules<Rule>(_ values: Packed<Int32>, _ stride: Int, _ starts: Packed<Int32>, _ make: (UnsafeBufferPointer<Int32>, Int) -> Rule) -> [[Rule]] {
            var out = [[Rule]](repeating: [], count: feeds)
            let all = values.buffer
            var f = 0
            for k in 0..<(all.count / stride) {
                while f + 1 < starts.count && f + 1 < feeds && Int(starts[f + 1]) <= k { f += 1 }
                out[f].append(make(all, k * stride))
            }
            return out
        }
        legRules = rules(t.fares.legRules, TimetableTable.legRuleStride, t.fares.feedLegRuleStart) { v, at in
            LegRule(group: v[at], network: v[at + 1], fromArea: v[at + 2], toArea: v[at + 3], fromFrame: v[at + 4], toFrame: v[at + 5], product: v[at + 6],
                    priority: v[at + 7])
        }
        transferRules = rules(t.fares.transferRules, TimetableTable.transferRuleStride, t.fares.feedTransferRuleStart) { v, at in
            TransferRule(from: v[at], to: v[at + 1], count: v[at + 2], limit: v[at + 3], limitType: v[at + 4], type: v[at + 5], product: v[at + 6])
        }
        ranked = legRules.map { $0.contains { $0.priority >= 0 } }
        rulesFrom = legRules.map { rules in Dictionary(grouping: rules.indices) { rules[$0].fromArea } }
        let j = t.fares.legJoinRules.buffer, js = TimetableTable.legJoinRuleStride
        joinRules = (0..<(j.count / js)).map { k in JoinRule(from: j[k * js], to: j[k * js + 1], fromStop: j[k * js + 2], toStop: j[k * js + 3]) }
        let allLeg = legRules.joined(), allTransfer = transferRules.joined()
        namedNetworks = Set(allLeg.map(\.network).filter { $0 >= 0 })
        namedFrom = Set(allLeg.map(\.fromArea).filter { $0 >= 0 })
        namedTo = Set(allLeg.map(\.toArea).filter { $0 >= 0 })
        namedTransferFrom = Set(allTransfer.map(\.from).filter { $0 >= 0 })
        namedTransferTo = Set(allTransfer.map(\.to).filter { $0 >= 0 })
        var frames = [[(start: Int32, end: Int32, service: Int32)]](repeating: [], count: t.fares.timeframeGroupIDs.count)
        let f = t.fares.timeframes.buffer, fs = TimetableTable.timeframeStride
        for k in 0..<(f.count / fs) where f[k * fs] >= 0 && Int(f[k * fs]) < frames.count {
            frames[Int(f[k * fs])].append((f[k * fs + 1], f[k * fs + 2], f[k * fs + 3]))
        }
        self.frames = frames
    }

    /// Does feed `feed` price its rides with Fares v2 (it has leg rules)?
    package func prices(feed: Int) -> Bool { feed >= 0 && feed < legRules.count && !legRules[feed].isEmpty }

    /// A stop's areas (`Timetable.areas(ofStop:)`, checked where read).
    private func areas(_ stop: Int) -> ArraySlice<Int32> { ArraySlice(t.areas(ofStop: stop)) }

    /// Whether a rule's area field matches a stop in `areas`: the area itself, or (empty) any
    /// area when ranked, else only where the stop is in no area the column names.
    private static func matches(_ field: Int32, _ areas: ArraySlice<Int32>, named: Set<Int32>, ranked: Bool) -> Bool {
        field >= 0 ? areas.contains(field) : ranked || !areas.contains(where: named.contains)
    }

    /// The local (day number, second of the day) of `seconds` on the query's clock, in `zone`.
    private func local(_ seconds: Int, _ zone: TimeZone) -> (day: Int, second: Int)? {
        guard let clock else { return nil }
        let instant = clock.instant(seconds)
        let civil = ClockTime.civil(instant, offset: zone.secondsFromGMT(for: instant))
        return (civil.day.dayNumber, civil.second)
    }

    /// Whether timeframe group `group` holds at `event` (empty: any time).
    private func holds(_ group: Int32, _ event: (day: Int, second: Int)?) -> Bool {
        guard group >= 0 else { return true }
        guard let event, Int(group) < frames.count else { return false }
        return frames[Int(group)].contains { frame in
            Int(frame.start) <= event.second && event.second < Int(frame.end) && t.serviceRuns(Int(frame.service), day: event.day)
        }
    }

    /// A ride's network (-1: none): its route's (an added trip's own route).
    func network(_ leg: Router.Leg) -> Int32 {
        let route = leg.route(t, updates)
        return route >= 0 && route < t.fares.routeNetwork.count ? t.fares.routeNetwork[route] : -1
    }

    /// A stop's station (itself when it has none).
    private func station(_ stop: Int) -> Int {
        guard stop >= 0, stop < t.stopCount else { return stop }
        let parent = t.parent(of: stop)
        return parent >= 0 ? parent : stop
    }

    /// Whether a change from ride `a` to ride `b` joins them into one fare leg
    /// (fare_leg_join_rules.txt): their networks are a rule's, and the change is at the rule's
    /// stops (a stop or its station), or, where it names none, within one station.
    func joins(_ a: Router.Leg, _ b: Router.Leg) -> Bool {
        let from = network(a), to = network(b)
        guard from >= 0, to >= 0 else { return false }
        return joinRules.contains { rule in
            guard rule.from == from, rule.to == to else { return false }
            guard rule.fromStop >= 0 else { return station(a.to) == station(b.from) }
            return (Int(rule.fromStop) == a.to || Int(rule.fromStop) == station(a.to)) && (Int(rule.toStop) == b.from || Int(rule.toStop) == station(b.from))
        }
    }

    /// The ways to pay one fare leg (`leg` from its first boarding to its last alighting, on
    /// `network`): for each leg group its rules give, the cheapest product the rider can buy
    /// (of the highest rule_priority, where the feed ranks its rules).
    func options(_ leg: Router.Leg, network: Int32, feed: Int) -> [LegOption] {
        guard leg.isRide, prices(feed: feed) else { return [] }
        let from = areas(leg.from), to = areas(leg.to), rank = ranked[feed]
        let zone = t.isCombination ? t.zone(ofFeed: feed) : t.zone
        // The local times only where some timeframe may ask (each is a zone lookup).
        let start = frames.isEmpty ? nil : local(leg.departure.planned, zone), end = frames.isEmpty ? nil : local(leg.arrival.planned, zone)
        var candidates = rulesFrom[feed][-1] ?? []
        for area in from { candidates += rulesFrom[feed][area] ?? [] }
        if from.count > 0 { candidates.sort() }
        var found: [LegRule] = []
        for k in candidates {
            let rule = legRules[feed][k]
            guard rule.network >= 0 ? rule.network == network : rank || !namedNetworks.contains(network),
                  Self.matches(rule.fromArea, from, named: namedFrom, ranked: rank), Self.matches(rule.toArea, to, named: namedTo, ranked: rank),
                  holds(rule.fromFrame, start), holds(rule.toFrame, end) else { continue }
            found.append(rule)
        }
        if rank, let top = found.map(\.priority).max() { found.removeAll { $0.priority < top } }
        // One option a leg group, found by the group (a look through the options for each rule
        // was 100,000 matching groups squared: 7-17 s a query; issue 62).
        var options: [LegOption] = [], optionOf: [Int32: Int] = [:]
        for rule in found {
            guard rule.product >= 0, Int(rule.product) < offers.count, let offer = offers[Int(rule.product)] else { continue }
            if let k = optionOf[rule.group] {
                if offer.amount < options[k].offer.amount { options[k] = LegOption(group: rule.group, product: rule.product, offer: offer) }
            } else {
                optionOf[rule.group] = options.count
                options.append(LegOption(group: rule.group, product: rule.product, offer: offer))
            }
        }
        return options
    }

    /// The transfer rules from leg group `a` to `b` in `feed`: a named group matches itself, an
    /// empty one any group the column does not name.
    func transfers(_ a: Int32, _ b: Int32, feed: Int) -> [TransferRule] {
        guard feed >= 0, feed < transferRules.count else { return [] }
        return transferRules[feed].filter { rule in
            (rule.from >= 0 ? rule.from == a : a < 0 || !namedTransferFrom.contains(a))
                && (rule.to >= 0 ? rule.to == b : b < 0 || !namedTransferTo.contains(b))
        }
    }

    /// How a reckoning stands after a ride: what it cost so far and the parts paid; the ride's
    /// option; the transfer rule chain it is in (its groups, the ride it began at, how many
    /// transfers it spans); and whether the last part is this ride's own fare (AB replaces it).
    private struct State {
        var cost: Double
        var parts: [FareTable.Part]
        var option: Int
        var chain: (from: Int32, to: Int32)?
        var chainStart: Int
        var count: Int
        var ownLast: Bool

        /// What the rest of the reckoning depends on: the option's leg group only as transfer
        /// rules tell groups apart (`transferClass`), so that a thousand groups no rule names are
        /// one state, the cheapest.
        struct Key: Hashable { var group: Int32, from: Int32, to: Int32, start: Int, count: Int, ownLast: Bool }
        func key(_ group: Int32) -> Key { Key(group: group, from: chain?.from ?? -2, to: chain?.to ?? -2, start: chainStart, count: count, ownLast: ownLast) }
    }

    /// A leg group as the transfer rules' from column tells it apart: itself where some rule names
    /// it, else -1 (every group no rule names matches the same rules: those leaving it empty).
    private func transferClass(_ group: Int32) -> Int32 { group >= 0 && namedTransferFrom.contains(group) ? group : -1 }

    /// The ways to pay a journey that pricing follows at most (states times options, over its
    /// fare legs): past it the journey has no total and the command says why. Real feeds need
    /// tens; 10,000 leg groups the transfer rules all name made one change take 28 s.
    package static let maxWork = 1_000_000

    /// How a run of rides is paid: its parts; no way (a fare leg no rule prices); or too many ways to follow.
    package enum Paid {
        case parts([FareTable.Part])
        case none
        case tooManyWays
    }

    private func part(_ product: Int32, _ offer: Offer, legs: [Int], transfer: Bool) -> FareTable.Part {
        let p = Int(product)
        return FareTable.Part(fare: t.fares.productIDs[p], minor: offer.amount, currency: t.fares.offerCurrency[offer.row], legs: legs, product: true,
                              name: t.fares.productNames[p].isEmpty ? nil : t.fares.productNames[p],
                              medium: offer.medium >= 0 && Int(offer.medium) < t.fares.fareMediaNames.count
                                  ? (t.fares.fareMediaNames[Int(offer.medium)].isEmpty ? t.fares.fareMediaIDs[Int(offer.medium)] : t.fares.fareMediaNames[Int(offer.medium)]) : nil,
                              transfer: transfer)
    }

    /// The cheapest way to pay feed `feed`'s consecutive rides `rides` (indices of the
    /// journey's legs), as parts; nil when some fare leg has no leg rule the rider can pay.
    func parts(_ journey: Router.Journey, _ rides: [Int], feed: Int) -> Paid {
        // Fare legs: rides joined by fare_leg_join_rules.txt are one, from the first's boarding
        // to the last's alighting, on their network if they share one.
        var covered: [[Int]] = [], legs: [Router.Leg] = [], networks: [Int32] = []
        for ride in rides {
            let leg = journey.legs[ride]
            if let last = covered.last?.last, joins(journey.legs[last], leg) {
                covered[covered.count - 1].append(ride)
                legs[legs.count - 1].to = leg.to
                legs[legs.count - 1].arrival = leg.arrival
                if networks[networks.count - 1] != network(leg) { networks[networks.count - 1] = -1 }
            } else {
                covered.append([ride])
                legs.append(leg)
                networks.append(network(leg))
            }
        }
        let choices = legs.indices.map { options(legs[$0], network: networks[$0], feed: feed) }
        guard let first = choices.first, choices.allSatisfy({ !$0.isEmpty }) else { return .none }
        var next: [State.Key: State] = [:], order: [State.Key] = []
        func keep(_ s: State, _ group: Int32) {
            let key = s.key(transferClass(group))
            if let old = next[key] { if s.cost < old.cost { next[key] = s } } else { next[key] = s; order.append(key) }
        }
        for o in first.indices {
            keep(State(cost: first[o].offer.amount, parts: [part(first[o].product, first[o].offer, legs: covered[0], transfer: false)],
                       option: o, chain: nil, chainStart: 0, count: 0, ownLast: true), first[o].group)
        }
        var states = order.compactMap { next[$0] }
        // The transfer rules between two classes of groups, looked for once.
        var between: [Int64: [TransferRule]] = [:]
        var work = 0
        for i in 1..<legs.count {
            next = [:]
            order = []
            work += states.count * choices[i].count
            guard work <= Self.maxWork else { return .tooManyWays }
            for s in states {
                for (o, b) in choices[i].enumerated() {
                    let a = choices[i - 1][s.option]
                    let pair = Int64(a.group) << 32 | Int64(UInt32(bitPattern: b.group))
                    let rules = between[pair] ?? transfers(a.group, b.group, feed: feed)
                    between[pair] = rules
                    let steps = applicable(rules, s, i, legs)
                    if steps.isEmpty {
                        // No transfer arrangement: the ride is paid on its own.
                        var n = s
                        n.cost += b.offer.amount
                        n.parts.append(part(b.product, b.offer, legs: covered[i], transfer: false))
                        (n.option, n.chain, n.chainStart, n.count, n.ownLast) = (o, nil, i, 0, true)
                        keep(n, b.group)
                    }
                    for (rule, start, count) in steps {
                        var n = s
                        (n.option, n.chain, n.chainStart, n.count) = (o, (rule.from, rule.to), start, count)
                        let ab = rule.product >= 0 ? offers[Int(rule.product)] : nil
                        let fee = ab?.amount ?? 0
                        switch rule.type {
                        case 0:
                            // A + AB: the ride is covered by the fare already paid, plus AB.
                            if let k = n.parts.lastIndex(where: { !$0.transfer && $0.legs.contains(covered[i - 1][0]) }) { n.parts[k].legs += covered[i] }
                            if let ab { n.parts.append(part(rule.product, ab, legs: covered[i - 1] + covered[i], transfer: true)) }
                            n.cost += fee
                            n.ownLast = false
                        case 1:
                            // A + AB + B.
                            if let ab { n.parts.append(part(rule.product, ab, legs: covered[i - 1] + covered[i], transfer: true)) }
                            n.parts.append(part(b.product, b.offer, legs: covered[i], transfer: false))
                            n.cost += fee + b.offer.amount
                            n.ownLast = true
                        default:
                            // AB: replaces the first ride's own fare where it was paid on its own.
                            var both = covered[i - 1] + covered[i]
                            if n.ownLast, let own = n.parts.popLast() {
                                n.cost -= own.minor
                                both = own.legs + covered[i]
                            }
                            if let ab { n.parts.append(part(rule.product, ab, legs: both, transfer: true)) }
                            n.cost += fee
                            n.ownLast = false
                        }
                        keep(n, b.group)
                    }
                }
            }
            states = order.compactMap { next[$0] }
        }
        return states.min { $0.cost < $1.cost }.map { .parts($0.parts) } ?? .none
    }

    /// The transfer rules a change to ride `i` can use from state `s`, each with the ride its
    /// chain began at and the transfers it then spans: a rule continuing the chain of the same
    /// groups counts on from the chain's start. Of the rules of one pair of groups that allow
    /// the count and whose duration limit holds, those of the smallest transfer_count (as the
    /// reference selects); a rule whose product the rider cannot buy is not usable.
    private func applicable(_ rules: [TransferRule], _ s: State, _ i: Int, _ legs: [Router.Leg]) -> [(TransferRule, Int, Int)] {
        var out: [(TransferRule, Int, Int)] = []
        var pairs: [(Int32, Int32)] = []
        for rule in rules where !pairs.contains(where: { $0 == (rule.from, rule.to) }) { pairs.append((rule.from, rule.to)) }
        for pair in pairs {
            let same = s.chain.map { $0 == pair } ?? false
            let count = same ? s.count + 1 : 1, start = same ? s.chainStart : i - 1
            let valid = rules.filter { rule in
                (rule.from, rule.to) == pair && (rule.count < 0 || count <= Int(rule.count)) && within(rule, from: start, to: i, legs)
                    && (rule.product < 0 || (Int(rule.product) < offers.count && offers[Int(rule.product)] != nil))
            }
            let least = valid.map { $0.count < 0 ? Int.max : Int($0.count) }.min()
            for rule in valid where (rule.count < 0 ? Int.max : Int(rule.count)) == least { out.append((rule, start, count)) }
        }
        return out
    }

    /// Whether a rule's duration limit holds from ride `start` to ride `end` (predicted times:
    /// the rider validates when they actually board), measured as its duration_limit_type says.
    private func within(_ rule: TransferRule, from start: Int, to end: Int, _ legs: [Router.Leg]) -> Bool {
        guard rule.limit >= 0 else { return true }
        let begin = rule.limitType <= 1 ? legs[start].departure.predicted : legs[start].arrival.predicted
        let finish = rule.limitType == 0 || rule.limitType == 3 ? legs[end].arrival.predicted : legs[end].departure.predicted
        return finish - begin <= Int(rule.limit)
    }
}
