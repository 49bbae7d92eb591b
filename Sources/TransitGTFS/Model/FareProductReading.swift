import Foundation
import TransitSupport

extension GTFSCompiler {
    /// Fares v2, as the GTFS reference defines its files: networks (networks.txt,
    /// route_networks.txt, routes.txt's network_id), areas (areas.txt, stop_areas.txt), fare
    /// media, fare products, timeframes, leg rules, leg join rules and transfer rules. Every id a row names must
    /// be defined; a row that names an unknown one, or holds a value that cannot be read, is
    /// skipped and counted (one warning for all the files).
    mutating func readFareProducts(_ files: FeedFiles) throws(TransitError) {
        var skipped: [(file: String, rows: Int)] = []
        func count(_ file: String, _ rows: Int) { if rows > 0 { skipped.append((file, rows)) } }

        // Networks: routes.txt's network_id were read with the routes.
        var networkNames: [Int: String] = [:], routeNetwork = Array(t.fares.routeNetwork.buffer), bad = 0
        if let r = try files.reader("networks.txt"), let id = r.column("network_id") {
            let name = r.column("network_name")
            while try r.next() {
                guard !r.isEmpty(id) else { bad += 1; continue }
                networkNames[networks.insert(r.bytes(id)).index] = text(r, name)
            }
        }
        count("networks.txt", bad); bad = 0
        if let r = try files.reader("route_networks.txt"), let network = r.column("network_id"), let route = r.column("route_id") {
            while try r.next() {
                guard let n = networks.find(r.bytes(network)), let q = routes.find(r.bytes(route)), q < routeNetwork.count else { bad += 1; continue }
                routeNetwork[q] = Int32(n)
            }
        }
        count("route_networks.txt", bad); bad = 0
        t.fares.routeNetwork = Packed(routeNetwork)
        t.fares.networkIDs = networks.keys
        for n in 0..<networks.count { t.fares.networkNames.append(networkNames[n] ?? "") }

        // Areas, and each stop's: its own, else its station's.
        var areas = IDTable()
        for name in try definitions(try files.reader("areas.txt"), id: "area_id", name: "area_name", into: &areas, bad: &bad) { t.fares.areaNames.append(name) }
        count("areas.txt", bad); bad = 0
        t.fares.areaIDs = areas.keys
        var own = [[Int32]](repeating: [], count: t.stopCount)
        if let r = try files.reader("stop_areas.txt"), let area = r.column("area_id"), let stop = r.column("stop_id") {
            while try r.next() {
                guard let a = areas.find(r.bytes(area)), let s = stops.find(r.bytes(stop)), s < own.count else { bad += 1; continue }
                if !own[s].contains(Int32(a)) { own[s].append(Int32(a)) }
            }
        }
        count("stop_areas.txt", bad); bad = 0
        for s in 0..<t.stopCount {
            let parent = Int(t.stopParent[s])
            for a in own[s].isEmpty && parent >= 0 && parent < own.count ? own[parent] : own[s] { t.fares.stopAreas.append(a) }
            t.fares.stopAreaStart.append(Int32(clamping: t.fares.stopAreas.count))
        }

        var media = IDTable()
        for name in try definitions(try files.reader("fare_media.txt"), id: "fare_media_id", name: "fare_media_name", into: &media, bad: &bad) {
            t.fares.fareMediaNames.append(name)
        }
        count("fare_media.txt", bad); bad = 0
        t.fares.fareMediaIDs = media.keys

        // Products: one row per (product, rider category, medium), each with its price.
        var products = IDTable(), offered = Set<[Int32]>()
        if let r = try files.reader("fare_products.txt"), let id = r.column("fare_product_id"), let amount = r.column("amount"), let currency = r.column("currency") {
            let name = r.column("fare_product_name"), category = r.column("rider_category_id"), medium = r.column("fare_media_id")
            while try r.next() {
                guard !r.isEmpty(id), Self.isCurrency(r.bytes(currency)), let value = Self.amount(r, amount, currency: r.string(currency)),
                      let c = Self.optional(r, category, riderCategories), let m = Self.optional(r, medium, media) else { bad += 1; continue }
                let (p, added) = products.insert(r.bytes(id))
                if added { t.fares.productNames.append(text(r, name)) }
                guard offered.insert([Int32(p), c, m]).inserted else { bad += 1; continue }
                for v in [Int32(p), c, m] { t.fares.offers.append(v) }
                t.fares.offerAmount.append(value)
                t.fares.offerCurrency.append(r.string(currency))
            }
        }
        count("fare_products.txt", bad); bad = 0
        t.fares.productIDs = products.keys

        // Timeframes: a group's times of day (the end excluded) on a service's days.
        var frames = IDTable()
        if let r = try files.reader("timeframes.txt"), let group = r.column("timeframe_group_id"), let service = r.column("service_id") {
            let start = r.column("start_time"), end = r.column("end_time")
            while try r.next() {
                let from = start.map { r.isEmpty($0) ? 0 : FieldBytes.time(r.bytes($0)) ?? -1 } ?? 0
                let to = end.map { r.isEmpty($0) ? 86_400 : FieldBytes.time(r.bytes($0)) ?? -1 } ?? 86_400
                guard !r.isEmpty(group), let s = services.find(r.bytes(service)), from >= 0, from < to, to <= 86_400 else { bad += 1; continue }
                for v in [Int32(frames.insert(r.bytes(group)).index), Int32(from), Int32(to), Int32(s)] { t.fares.timeframes.append(v) }
            }
        }
        count("timeframes.txt", bad); bad = 0
        t.fares.timeframeGroupIDs = frames.keys

        // Leg rules: what a leg costs, by network, areas and timeframes.
        var groups = IDTable()
        if let r = try files.reader("fare_leg_rules.txt"), let product = r.column("fare_product_id") {
            let group = r.column("leg_group_id"), priority = r.column("rule_priority")
            let fields: [(Int?, IDTable)] = [(r.column("network_id"), networks), (r.column("from_area_id"), areas), (r.column("to_area_id"), areas),
                                             (r.column("from_timeframe_group_id"), frames), (r.column("to_timeframe_group_id"), frames)]
            while try r.next() {
                let named = fields.map { Self.optional(r, $0.0, $0.1) }
                // rule_priority: -1 when the file has no such column (empty entries then mean "every one not listed").
                let rank = priority.map { r.isEmpty($0) ? 0 : FieldBytes.int(r.bytes($0)).map { Int32(clamping: $0) } ?? -2 } ?? -1
                guard let p = products.find(r.bytes(product)), named.allSatisfy({ $0 != nil }), rank >= -1 else { bad += 1; continue }
                t.fares.legRules.append(group.map { r.isEmpty($0) ? -1 : Int32(groups.insert(r.bytes($0)).index) } ?? -1)
                for v in named { t.fares.legRules.append(v ?? -1) }
                t.fares.legRules.append(Int32(p))
                t.fares.legRules.append(rank)
            }
        }
        count("fare_leg_rules.txt", bad); bad = 0
        t.fares.legGroupIDs = groups.keys

        // Join rules: two rides, one fare leg (both networks named; both stops or neither).
        if let r = try files.reader("fare_leg_join_rules.txt"), let from = r.column("from_network_id"), let to = r.column("to_network_id") {
            let fromStop = r.column("from_stop_id"), toStop = r.column("to_stop_id")
            while try r.next() {
                guard let a = networks.find(r.bytes(from)), let b = networks.find(r.bytes(to)), let x = Self.optional(r, fromStop, stops),
                      let y = Self.optional(r, toStop, stops), (x < 0) == (y < 0) else { bad += 1; continue }
                for v in [Int32(a), Int32(b), x, y] { t.fares.legJoinRules.append(v) }
            }
        }
        count("fare_leg_join_rules.txt", bad); bad = 0

        // Transfer rules: what a change between two leg groups costs, and for how long.
        if let r = try files.reader("fare_transfer_rules.txt"), let type = r.column("fare_transfer_type") {
            let from = r.column("from_leg_group_id"), to = r.column("to_leg_group_id"), transfers = r.column("transfer_count")
            let limit = r.column("duration_limit"), limitType = r.column("duration_limit_type"), product = r.column("fare_product_id")
            while try r.next() {
                guard let a = Self.optional(r, from, groups), let b = Self.optional(r, to, groups), let p = Self.optional(r, product, products),
                      let kind = FieldBytes.int(r.bytes(type)), (0...2).contains(kind) else { bad += 1; continue }
                // transfer_count: required (-1 or at least 1) between a group and itself, forbidden otherwise.
                let given = transfers.flatMap { r.isEmpty($0) ? nil : r.string($0) == "-1" ? -1 : FieldBytes.int(r.bytes($0)) ?? 0 }
                let same = a >= 0 && a == b
                guard same ? (given.map({ $0 == -1 || $0 >= 1 }) ?? false) : given == nil else { bad += 1; continue }
                // duration_limit: seconds (none when empty), with its type 0 to 3.
                let seconds = limit.flatMap { r.isEmpty($0) ? nil : FieldBytes.int(r.bytes($0)) ?? 0 }
                let measured = limitType.flatMap { r.isEmpty($0) ? nil : FieldBytes.int(r.bytes($0)) ?? -1 }
                guard seconds.map({ $0 > 0 && (0...3).contains(measured ?? -1) }) ?? true else { bad += 1; continue }
                for v in [a, b, Int32(clamping: given ?? -1), Int32(clamping: seconds ?? -1), Int32(seconds == nil ? 0 : measured ?? 0), Int32(kind), p] {
                    t.fares.transferRules.append(v)
                }
            }
        }
        count("fare_transfer_rules.txt", bad)
        if !skipped.isEmpty {
            let total = skipped.reduce(0) { $0 + $1.rows }
            warnings.append("\(total) Fares v2 \(total == 1 ? "row names" : "rows name") an unknown id or \(total == 1 ? "holds a value" : "hold values") that cannot be read: skipped ("
                            + skipped.map { "\($0.file) \($0.rows)" }.joined(separator: ", ") + ")")
        }
    }

    /// A file that defines ids (areas.txt, fare_media.txt): each row's id, once, into `table`,
    /// and the names, in its order; a row without an id or repeating one is counted in `bad`.
    mutating func definitions(_ r: CSVReader?, id: String, name: String, into table: inout IDTable, bad: inout Int) throws(TransitError) -> [String] {
        guard let r, let id = r.column(id) else { return [] }
        let name = r.column(name)
        var names: [String] = []
        while try r.next() {
            guard !r.isEmpty(id), table.insert(r.bytes(id)).added else { bad += 1; continue }
            names.append(text(r, name))
        }
        return names
    }

    /// An optional id field: -1 when the column is absent or the field empty, its index when
    /// `table` defines it, nil when it names an unknown one.
    static func optional(_ r: CSVReader, _ column: Int?, _ table: IDTable) -> Int32? {
        guard let column, !r.isEmpty(column) else { return -1 }
        return table.find(r.bytes(column)).map { Int32($0) }
    }
}
