import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport

/// Fares v2 (issue 34): the GTFS reference's worked examples, as scripts/make-gtfs-fares-fixture.py
/// writes them (Fixtures/gtfs/fares), each priced as the reference prices it.
@Suite struct FareProductTests {
    static func feed(_ name: String) throws -> Timetable {
        let (t, warnings) = try GTFSCompiler.compile(try FeedFiles.open(Paths.fixtures + "/gtfs/fares/" + name))
        #expect(warnings.isEmpty, "\(name): \(warnings)")
        return t
    }

    static func stop(_ t: Timetable, _ id: String) throws -> [Int] { [try #require(t.stopIDs.firstIndex(of: id), "\(id)")] }

    /// The journeys of a day between two stops, earliest first, each with its price.
    static func priced(_ t: Timetable, _ from: String, _ to: String, day: String = "2022-10-12", rider: Int? = nil) throws -> [(departure: Int, price: FareTable.Price)] {
        let date = try #require(LocalDate(iso: day))
        let query = Router.Query(origins: try stop(t, from), destinations: try stop(t, to), day: date.dayNumber, after: 0, before: 30 * 3600,
                                 maxTransfers: 3, minTransfer: 60, walkMeters: SearchDefaults.walkMeters)
        let fares = try #require(FareTable(t, rider: rider, clock: ServiceClock(day: date, zone: t.zone)))
        return Router(t, query).journeys().map { ($0.departure, fares.price($0)) }
    }

    /// Maryland's MTA: the cheapest of four products for a leg of `core` ($2.00 one-way), and a
    /// 90-minute transfer to the light rail that costs nothing more; boarding it 95 minutes
    /// after the subway pays again.
    @Test func aFlatFareWithATimeLimitedTransfer() throws {
        let t = try Self.feed("flat")
        let journeys = try Self.priced(t, "MOND", "CAMY")
        #expect(journeys.map(\.departure) == [8 * 3600, 8 * 3600 + 25 * 60])
        let within = try #require(journeys.first?.price), after = try #require(journeys.last?.price)
        #expect(within.total == 2.00 && within.currency == "USD" && within.parts.map(\.fare) == ["core_local_oneway_fare"], "\(within)")
        #expect(within.parts.first?.legs == [0, 2])
        #expect(after.total == 4.00 && after.parts.map(\.fare) == ["core_local_oneway_fare", "core_local_oneway_fare"], "\(after)")
    }

    /// BART's areas: Ashby to Glen Park $4.75, to Oakland Airport $9.45; Glen Park to Ashby has
    /// no rule, so no total.
    @Test func faresByArea() throws {
        let t = try Self.feed("areas")
        #expect(try Self.priced(t, "ASHB", "GLEN").map(\.price.total) == [4.75])
        #expect(try Self.priced(t, "ASHB", "OAKL").map(\.price.total) == [9.45])
        #expect(try Self.priced(t, "ASHB", "OAKL").first?.price.parts.map(\.fare) == ["BA:matrix:ASHB-OAKL"])
        let back = try #require(try Self.priced(t, "GLEN", "ASHB").first?.price)
        #expect(back == FareTable.Price(parts: [], minorTotal: nil, currency: nil, complete: false))
    }

    /// TransLink: the bus's flat fare (3.20 CAD) carries on free to a one-zone SkyTrain ride and
    /// with the 1.45 AddFare to a two-zone one: 4.65, the two-zone fare, as the reference says.
    @Test func aTransferDiscount() throws {
        let t = try Self.feed("transfer")
        let oneZone = try #require(try Self.priced(t, "UBC", "WFRN").first?.price)
        #expect(oneZone.total == 3.20 && oneZone.currency == "CAD" && oneZone.parts.map(\.fare) == ["bus_flat_fare"], "\(oneZone)")
        let twoZones = try #require(try Self.priced(t, "UBC", "MTWN").first?.price)
        #expect(twoZones.total.map { abs($0 - 4.65) < 1e-9 } == true, "\(twoZones)")
        #expect(twoZones.parts.map(\.fare) == ["bus_flat_fare", "1_zone_to_2_zone_upgrade"] && twoZones.parts.map(\.transfer) == [false, true])
        #expect(twoZones.parts.first?.medium == "Contactless")
        // The SkyTrain alone: its own zone fare.
        #expect(try Self.priced(t, "CMBY", "MTWN").map(\.price.total) == [4.65])
    }

    /// Washington's fictional time fares: peak $5.00 at 07:30, off-peak $3.00 at 11:30, late
    /// night $2.00 at 22:00 on a weekday, $2.00 on a Saturday.
    @Test func faresByTimeOfDay() throws {
        let t = try Self.feed("timeframes")
        #expect(try Self.priced(t, "MCEN", "UNST").map(\.price.total) == [5.00, 3.00, 2.00])
        #expect(try Self.priced(t, "MCEN", "UNST").map(\.price.parts.first?.fare) == ["peak_fare", "regular_fare", "late_night_fare"])
        #expect(try Self.priced(t, "MCEN", "UNST", day: "2022-10-15").map(\.price.parts.first?.fare) == ["weekend_fare"])
        #expect(try Self.priced(t, "MCEN", "UNST", day: "2022-10-15").map(\.price.total) == [2.00])
    }

    /// TransLink's rider categories: an adult (the default) pays 3.20 CAD, a concession 2.15.
    @Test func riderCategories() throws {
        let t = try Self.feed("riders")
        #expect(try Self.priced(t, "UBC", "CMBY-BUS").map(\.price.total) == [3.20])
        let concession = try #require(t.fares.riderCategoryIDs.firstIndex(of: "concession"))
        #expect(try Self.priced(t, "UBC", "CMBY-BUS", rider: concession).map(\.price.total) == [2.15])
        #expect(FareTable(t)?.rider == "Adult" && FareTable(t, rider: concession)?.rider == "Concession")
    }

    /// Muni: cash $3.00, Clipper $2.50; the cheapest medium prices the ride, and is named.
    @Test func fareMedia() throws {
        let t = try Self.feed("media")
        let price = try #require(try Self.priced(t, "CHDU", "BALB").first?.price)
        #expect(price.total == 2.50 && price.parts.first?.medium == "Clipper" && price.parts.first?.name == "Muni single local fare", "\(price)")
    }

    /// Through the binary, as a rider sees it: the table's PRICE, JSON's parts with products,
    /// --rider, and gtfs fares.
    @Test func theExamplesThroughTheBinary() async throws {
        let env = Run.environment()
        for name in ["transfer", "riders"] {
            #expect(try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/fares/" + name, "--name", name], env: env).status == 0)
        }
        let table = try await Run.transit(["gtfs", "trips", "--feed", "transfer", "--from", "UBC", "--to", "MTWN", "--date", "2022-10-12", "--format", "table"], env: env)
        #expect(table.status == 0 && table.stdoutLines.first?.contains("PRICE") == true && table.stdoutLines.dropFirst().first?.contains("$4.65") == true, "\(table.stdout)")
        let json = try await Run.transit(["gtfs", "trips", "--feed", "transfer", "--from", "UBC", "--to", "MTWN", "--date", "2022-10-12", "--format", "json"], env: env)
        let record = try #require((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])?.first)
        let fare = try #require(record["fare"] as? [String: Any])
        let parts = try #require(fare["legs"] as? [[String: Any]])
        #expect(fare["total"] as? Double == 4.65 && fare["currency"] as? String == "CAD" && fare["complete"] as? Bool == true)
        #expect(parts.map { $0["fare_product_id"] as? String } == ["bus_flat_fare", "1_zone_to_2_zone_upgrade"])
        #expect(parts.map { $0["transfer"] as? Bool } == [false, true] && parts.first?["fare_media"] as? String == "Contactless")
        let concession = try await Run.transit(["gtfs", "trips", "--feed", "riders", "--from", "UBC", "--to", "CMBY-BUS", "--date", "2022-10-12", "--rider", "Concession", "--format", "tsv",
                                                "--header"], env: env)
        // tsv/csv carry the price and its currency after trip_ids (issue 44, item 8), then the boardings (issue 66).
        let header = concession.stdoutLines.first?.split(separator: "\t").map(String.init) ?? []
        #expect(concession.status == 0 && header.suffix(4) == ["trip_ids", "price", "currency", "boarding"], "\(concession.stdout)")
        let priced = concession.stdoutLines.dropFirst().first?.components(separatedBy: "\t") ?? []
        #expect(priced.count == header.count && priced.suffix(3).prefix(2) == ["2.15", "CAD"] && priced.last?.hasPrefix("UBC@") == true, "\(concession.stdout)")
        // The table names the default category it priced for, and what --rider takes instead.
        let adult = try await Run.transit(["gtfs", "trips", "--feed", "riders", "--from", "UBC", "--to", "CMBY-BUS", "--date", "2022-10-12", "--format", "table"], env: env)
        #expect(adult.status == 0 && adult.stderrLines.contains("Prices are for Adult, the feed's default rider category; --rider takes another: Concession"),
                "\(adult.stderr)")
        let riders = try await Run.transit(["gtfs", "fares", "--feed", "riders", "--from", "UBC", "--to", "CMBY-BUS", "--date", "2022-10-12", "--format", "json"], env: env)
        let row = try #require((try JSONSerialization.jsonObject(with: Data(riders.stdout.utf8)) as? [[String: Any]])?.first, "\(riders.stderr)")
        #expect(row["fares"] as? String == "bus_flat_fare" && row["price"] as? Double == 3.20)
        #expect((row["riders"] as? [String: Double]) == ["Adult": 3.20, "Concession": 2.15])
    }

    /// Combined with other feeds (ids prefixed, every index moved past the feeds before) and
    /// written and read back, each feed's rides price as they do alone.
    @Test func eachFeedKeepsItsProductsInACombination() throws {
        let parts = try ["flat", "areas", "transfer", "timeframes"].map { ($0, try Self.feed($0)) }
        let combined = try TimetableCombination.combine(parts)
        for t in [combined, try TimetableFile.decode(TimetableFile.encode(combined), path: "x")] {
            #expect(try Self.priced(t, "transfer:UBC", "transfer:MTWN").first.map { abs(($0.price.total ?? 0) - 4.65) < 1e-9 } == true)
            #expect(try Self.priced(t, "transfer:UBC", "transfer:MTWN").first?.price.parts.map(\.fare) == ["transfer:bus_flat_fare", "transfer:1_zone_to_2_zone_upgrade"])
            #expect(try Self.priced(t, "areas:ASHB", "areas:OAKL").map(\.price.total) == [9.45])
            #expect(try Self.priced(t, "flat:MOND", "flat:CAMY").map(\.price.total) == [2.00, 4.00])
            #expect(try Self.priced(t, "timeframes:MCEN", "timeframes:UNST").map(\.price.total) == [5.00, 3.00, 2.00])
        }
    }

    /// fare_leg_join_rules.txt: with a rule naming the change at Lexington Market (subway
    /// platform to light rail stop), the subway and the light rail are one fare leg, so the
    /// 95-minute change pays one fare; a rule naming no stops joins only a change within one
    /// station, which that is not.
    @Test func joinedRidesAreOneFareLeg() throws {
        for (rule, expected) in [("core,core,LEXM,LEXL", [2.00, 2.00]), ("core,core,,", [2.00, 4.00]), ("core,core,CAMY,LEXL", [2.00, 4.00])] {
            let dir = Paths.temporary()
            let source = Paths.fixtures + "/gtfs/fares/flat"
            for name in try FileManager.default.contentsOfDirectory(atPath: source) { try FileManager.default.copyItem(atPath: source + "/" + name, toPath: dir + "/" + name) }
            try "from_network_id,to_network_id,from_stop_id,to_stop_id\n\(rule)\n".write(toFile: dir + "/fare_leg_join_rules.txt", atomically: true, encoding: .utf8)
            let (t, warnings) = try GTFSCompiler.compile(try FeedFiles.open(dir))
            #expect(warnings.isEmpty && t.fares.legJoinRules.count == 4, "\(warnings)")
            let journeys = try Self.priced(t, "MOND", "CAMY")
            #expect(journeys.map(\.price.total) == expected, "\(rule): \(journeys)")
            if expected == [2.00, 2.00] { #expect(journeys.last?.price.parts.map(\.legs) == [[0, 2]]) }
        }
    }

    /// A journey that pays no fare (no ride: a walk) costs nothing, complete: the table says
    /// 0.00, not `?` (which is for a price unknown).
    @Test func aJourneyWithoutFaresCostsNothing() throws {
        let walk = Router.Journey(legs: [Router.Leg(mode: .walk(meters: 120), from: 0, to: 1, departure: LegTime(100), arrival: LegTime(200))],
                                  departure: 100, arrival: 200, transfers: 0)
        for t in [try Self.feed("flat"), try Self.feed("areas")] {
            let price = try #require(FareTable(t)).price(walk)
            #expect(price == FareTable.Price(parts: [], minorTotal: 0, currency: nil, complete: true))
            #expect(JourneyLayout.priceText(price) == .string("0.00"))
        }
        #expect(JourneyLayout.priceText(FareTable.Price(parts: [], minorTotal: nil, currency: nil, complete: false)) == .string("?"))
    }

    /// Rows that name what the feed does not define, or hold values that cannot be read, are
    /// skipped and counted in one warning; the rest prices as before.
/// Issue 41, item 8: 10,000 leg rules that all match a journey with a change, each its own leg
    /// group, took 28 s (every group against every group against every transfer rule). Groups no
    /// transfer rule names are one state: priced at once, the cheapest. Where the transfer rules
    /// name 1,500 groups (2.25 million ways past the bound), the journey has no total and the
    /// command says why. Both under a 1 GB address space.
    @Test func tenThousandLegRulesPriceAJourneyAtOnce() async throws {
        func feed(groups: Int, named: Int) -> TestFeed {
            var products = "fare_product_id,amount,currency\n", legs = "leg_group_id,fare_product_id\n"
            for k in 0..<groups {
                products += "p\(k),\(100 + k % 97).00,USD\n"
                legs += "g\(k),p\(k)\n"
            }
            var transfers = "from_leg_group_id,to_leg_group_id,fare_product_id,fare_transfer_type,transfer_count\n"
            for k in 0..<named { transfers += "g\(k),g\(k),,0,-1\n" }
            return TestFeed(["stops.txt": TestFeed.stops(["A", "B", "C"]), "trips.txt": "route_id,service_id,trip_id\nR,S,t1\nQ,S,t2\n",
                             "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nt1,08:00:00,08:00:00,A,1\nt1,08:10:00,08:10:00,B,2\n"
                                + "t2,08:15:00,08:15:00,B,1\nt2,08:25:00,08:25:00,C,2\n",
                             "fare_products.txt": products, "fare_leg_rules.txt": legs, "fare_transfer_rules.txt": transfers])
        }
        let env = Run.environment(["TRANSIT_CACHE_DIR": Paths.temporary()])
        let args = ["gtfs", "trips", "--from", "A", "--to", "C", "--date", "2026-11-23", "--limit", "1", "--format", "json"]
        let many = feed(groups: 10_000, named: 0)
        let priced = try await Run.transit(args + ["--feed", many.directory], env: env, addressSpace: 1 << 30)
        let fare = try #require(try priced.records().first?["fare"] as? [String: Any], "\(priced.status) \(priced.stderr)")
        // The cheapest product twice: 100.00 + 100.00.
        #expect(fare["total"] as? Double == 200 && priced.stderr.isEmpty, "\(fare) \(priced.stderr)")
        let named = feed(groups: 1_500, named: 1_500)
        let refused = try await Run.transit(args + ["--feed", named.directory], env: env, addressSpace: 1 << 30)
        let unpriced = try #require(try refused.records().first?["fare"] as? [String: Any], "\(refused.status) \(refused.stderr)")
        #expect(unpriced["total"] is NSNull && unpriced["complete"] as? Bool == false, "\(unpriced)")
        #expect(refused.stderrLines == ["1 journey's fares give more than 1000000 ways to pay to work through: no total (?)"], "\(refused.stderr)")
    }

    /// Issue 41, item 5: a transfer's discount larger than the fares before it never makes a
    /// journey cost less than nothing: the total is 0 and JSON says `clamped`, the parts keep
    /// their amounts (the table printed $-4.00).
    @Test func aJourneyNeverCostsLessThanNothing() async throws {
        let feed = TestFeed(["stops.txt": TestFeed.stops(["A", "B", "C"]), "trips.txt": "route_id,service_id,trip_id\nR,S,t1\nQ,S,t2\n",
                             "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nt1,08:00:00,08:00:00,A,1\nt1,08:10:00,08:10:00,B,2\n"
                                + "t2,08:15:00,08:15:00,B,1\nt2,08:25:00,08:25:00,C,2\n",
                             "fare_products.txt": "fare_product_id,amount,currency\nride,1.00,USD\nrebate,-5.00,USD\n",
                             "fare_leg_rules.txt": "leg_group_id,fare_product_id\nall,ride\n",
                             "fare_transfer_rules.txt": "from_leg_group_id,to_leg_group_id,fare_product_id,fare_transfer_type,transfer_count\nall,all,rebate,1,-1\n"])
        let env = Run.environment(["TRANSIT_CACHE_DIR": Paths.temporary()])
        let args = ["gtfs", "trips", "--feed", feed.directory, "--from", "A", "--to", "C", "--date", "2026-11-23", "--limit", "1"]
        let records = try (try await Run.transit(args + ["--format", "json"], env: env)).records()
        let fare = try #require(records.first?["fare"] as? [String: Any], "\(records)")
        let parts = (fare["legs"] as? [[String: Any]] ?? []).compactMap { $0["price"] as? Double }
        #expect(fare["total"] as? Double == 0 && fare["clamped"] as? Bool == true && parts.contains(-5), "\(fare)")
        let table = try await Run.transit(args + ["--format", "table"], env: env)
        #expect(table.status == 0 && table.stdoutLines.last?.contains("$0.00") == true && !table.stdout.contains("-"), "\(table.stdout)")
    }

        @Test func badFareProductRowsAreSkippedAndCounted() throws {
        let dir = Paths.temporary()
        let source = Paths.fixtures + "/gtfs/fares/transfer"
        for name in try FileManager.default.contentsOfDirectory(atPath: source) { try FileManager.default.copyItem(atPath: source + "/" + name, toPath: dir + "/" + name) }
        func append(_ file: String, _ rows: String) throws {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: dir + "/" + file))
            handle.seekToEndOfFile()
            handle.write(Data(rows.utf8))
            handle.closeFile()
        }
        try append("fare_products.txt", "cheap,Cheap,abc,CAD,contactless\nlower,Lower,1.00,cad,contactless\nnomedium,No medium,1.00,CAD,paper\n")
        try append("fare_leg_rules.txt", "x,skytrain,zone1,zone2,unknown_product\nx,ferry,,,bus_flat_fare\nx,skytrain,zone9,,bus_flat_fare\n")
        try append("fare_transfer_rules.txt", "flat_fare_leg,ZN1_ZN2,5400,7,0,,\nflat_fare_leg,nogroup,,,0,,\nZN1_ZN1,ZN1_ZN1,,,0,,\nZN1_ZN1,ZN1_ZN2,,,5,,\n")
        try append("stop_areas.txt", "zone1,NOSTOP\n")
        let (t, warnings) = try GTFSCompiler.compile(try FeedFiles.open(dir))
        #expect(warnings == ["11 Fares v2 rows name an unknown id or hold values that cannot be read: skipped "
                             + "(stop_areas.txt 1, fare_products.txt 3, fare_leg_rules.txt 3, fare_transfer_rules.txt 4)"], "\(warnings)")
        #expect(t.fares.productIDs.count == 4 && t.fares.legRules.count / TimetableTable.legRuleStride == 3)
        #expect(try Self.priced(t, "UBC", "MTWN").first.map { abs(($0.price.total ?? 0) - 4.65) < 1e-9 } == true)
    }
}

extension CPUBound {
    /// Fares v2 files mutated (CPU-bound: 300 imports and every journey of each priced).
    @Suite struct FareProductFuzzTests {
        /// Mutated fare files (every Fares v2 file of the examples, as FuzzTests mutates its
        /// inputs; its "fares" family runs more): an import error or a feed whose every journey
        /// prices, never a trap.
        @Test func mutatedFareFilesNeverTrap() throws {
            var generator = SplitMix(seed: 3434)
            let samples = Self.samples()
            #expect(samples.count == 6)
            var priced = 0
            for round in 0..<300 { priced += Self.price(Mutator.mutate(samples[round % samples.count], &generator)) }
            #expect(priced > 300)
        }

        static let feeds = ["flat", "areas", "transfer", "timeframes", "riders", "media"]
        static let fareFiles: Set<String> = ["fare_products.txt", "fare_media.txt", "fare_leg_rules.txt", "fare_leg_join_rules.txt", "fare_transfer_rules.txt",
                                             "areas.txt", "stop_areas.txt", "networks.txt", "route_networks.txt", "timeframes.txt", "rider_categories.txt", "routes.txt"]

        /// Each example feed's fare files as one sample: `=== FEED FILE` before each file's text.
        static func samples() -> [Data] {
            let root = Paths.fixtures + "/gtfs/fares"
            return feeds.map { feed in
                let names = ((try? FileManager.default.contentsOfDirectory(atPath: root + "/" + feed)) ?? []).filter(fareFiles.contains).sorted()
                return Data(names.map { "=== \(feed) \($0)\n" + ((try? String(contentsOfFile: root + "/" + feed + "/" + $0, encoding: .utf8)) ?? "") }.joined().utf8)
            }
        }

        /// A sample's files written over its example feed (a file whose marker no longer names
        /// one is left out), compiled, and every journey between its stops priced: how many.
        static func price(_ sample: Data) -> Int {
            var feed = "transfer", files: [(String, [Substring])] = []
            for line in String(decoding: sample, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
                let words = line.split(separator: " ")
                if words.count == 3, words[0] == "===" {
                    if feeds.contains(String(words[1])) { feed = String(words[1]) }
                    files.append((String(words[2]), []))
                } else if !files.isEmpty {
                    files[files.count - 1].1.append(line)
                }
            }
            let dir = Paths.temporary(), root = Paths.fixtures + "/gtfs/fares/" + feed
            defer { try? FileManager.default.removeItem(atPath: dir) }
            for name in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] {
                try? FileManager.default.copyItem(atPath: root + "/" + name, toPath: dir + "/" + name)
            }
            for (name, lines) in files where fareFiles.contains(name) {
                try? lines.joined(separator: "\n").write(toFile: dir + "/" + name, atomically: false, encoding: .utf8)
            }
            guard let files = try? FeedFiles.open(dir), let t = try? GTFSCompiler.compile(files).0 else { return 0 }
            let date = LocalDate(year: 2022, month: 10, day: 12)
            let fares = FareTable(t, rider: t.fares.riderCategoryIDs.isEmpty ? nil : 0, clock: ServiceClock(day: date, zone: t.zone))
            let calledAt = (0..<t.stopCount).filter(t.isCalledAt)
            var priced = 0
            for a in calledAt {
                let query = Router.Query(origins: [a], destinations: calledAt.filter { $0 != a }, day: date.dayNumber, maxTransfers: 3, minTransfer: 60,
                                         walkMeters: SearchDefaults.walkMeters)
                for journey in Router(t, query).journeys() { _ = fares?.price(journey); priced += 1 }
            }
            return priced
        }
    }
}

extension CPUBound {
    /// The cheapest reckoning (`FareProducts.parts`, which keeps only the cheapest state for
    /// each way the reckoning can go on, and only the cheapest product of each leg group)
    /// against a brute force that tries every leg rule for every ride and every transfer rule
    /// for every change, on Lakeport's journeys with random fare files: areas, networks,
    /// products, leg rules with and without rule_priority, join rules, transfer rules of every
    /// type. (With joins switched off in `FareProducts`, 336 of its checks fail.)
    @Suite struct FareProductDifferentialTests {
        struct LegRule { var group, network, from, to: String?; var product: String; var priority: Int? }
        struct TransferRule { var from, to: String?; var count, limit: Int?; var limitType, type: Int; var product: String? }

        /// 30 rounds from seed 3400; TRANSIT_FARE_ROUNDS and TRANSIT_FARE_SEED ask more.
        @Test func theCheapestReckoningIsTheBruteForces() throws {
            var g = SplitMix(seed: UInt64(ProcessInfo.processInfo.environment["TRANSIT_FARE_SEED"] ?? "") ?? 3400)
            func pick<T>(_ values: [T]) -> T { values[Int(g.next() % UInt64(values.count))] }
            let base = try GTFSCompiler.compile(try FeedFiles.open(Paths.fixtures + "/gtfs/lakeport")).0
            let stopIDs = (0..<base.stopCount).map { base.stopIDs[$0] }, routeIDs = (0..<base.routeCount).map { base.routeIDs[$0] }
            var compared = 0, unpriced = 0
            for _ in 0..<(Int(ProcessInfo.processInfo.environment["TRANSIT_FARE_ROUNDS"] ?? "") ?? 30) {
                // Random fare files.
                let areaNames = ["A1", "A2", "A3"], groups: [String?] = ["G0", "G1", "G2", nil]
                var own: [String: [String]] = [:]
                for stop in stopIDs where g.next() % 3 > 0 { own[stop] = Array(Set((0..<Int(1 + g.next() % 2)).map { _ in pick(areaNames) })).sorted() }
                var network: [String: String] = [:]
                for route in routeIDs where g.next() % 4 > 0 { network[route] = pick(["N1", "N2"]) }
                let products = (0..<5).map { ("P\($0)", Double(2 + g.next() % 18) / 4) } + (0..<3).map { ("T\($0)", Double(Int(g.next() % 12) - 4) / 4) }
                let ranked = g.next() % 2 == 0
                let legRules = (0..<Int(3 + g.next() % 5)).map { _ in
                    LegRule(group: pick(groups), network: pick(["N1", "N2", nil]), from: pick(areaNames.map(Optional.some) + [nil, nil]),
                            to: pick(areaNames.map(Optional.some) + [nil, nil]), product: "P\(g.next() % 5)", priority: ranked ? Int(g.next() % 3) : nil)
                } + [LegRule(group: "G0", network: nil, from: nil, to: nil, product: "P0", priority: ranked ? 0 : nil)]
                let defined = Set(legRules.compactMap(\.group))
                let transferRules = (0..<Int(1 + g.next() % 4)).map { _ -> TransferRule in
                    let from = pick(groups), to = pick(groups), same = from != nil && from == to
                    let limit: Int? = g.next() % 2 == 0 ? nil : Int(600 + g.next() % 6000)
                    return TransferRule(from: from, to: to, count: same ? pick([-1, 1, 2]) : nil, limit: limit, limitType: Int(g.next() % 4),
                                        type: Int(g.next() % 3), product: pick(["T0", "T1", "T2", nil]))
                }.filter { ($0.from.map(defined.contains) ?? true) && ($0.to.map(defined.contains) ?? true) }

                let dir = Paths.temporary()
                defer { try? FileManager.default.removeItem(atPath: dir) }
                for name in try FileManager.default.contentsOfDirectory(atPath: Paths.fixtures + "/gtfs/lakeport") {
                    try FileManager.default.copyItem(atPath: Paths.fixtures + "/gtfs/lakeport/" + name, toPath: dir + "/" + name)
                }
                func write(_ name: String, _ lines: [String]) throws { try (lines.joined(separator: "\n") + "\n").write(toFile: dir + "/" + name, atomically: true, encoding: .utf8) }
                try write("areas.txt", ["area_id"] + areaNames)
                try write("stop_areas.txt", ["area_id,stop_id"] + own.sorted { $0.key < $1.key }.flatMap { stop, areas in areas.map { "\($0),\(stop)" } })
                try write("networks.txt", ["network_id", "N1", "N2"])
                try write("route_networks.txt", ["network_id,route_id"] + network.sorted { $0.key < $1.key }.map { "\($1),\($0)" })
                try write("fare_products.txt", ["fare_product_id,amount,currency"] + products.map { "\($0.0),\($0.1),USD" })
                try write("fare_leg_rules.txt", ["leg_group_id,network_id,from_area_id,to_area_id,fare_product_id" + (ranked ? ",rule_priority" : "")]
                          + legRules.map { r in [r.group ?? "", r.network ?? "", r.from ?? "", r.to ?? "", r.product].joined(separator: ",") + (r.priority.map { ",\($0)" } ?? "") })
                // Join rules: a change within a station between two networks' rides (or none).
                let joinPairs = [["N1", "N1"], ["N1", "N2"], ["N2", "N1"], ["N2", "N2"]].filter { _ in g.next() % 3 == 0 }
                try write("fare_leg_join_rules.txt", ["from_network_id,to_network_id"] + joinPairs.map { $0.joined(separator: ",") })
                try write("fare_transfer_rules.txt", ["from_leg_group_id,to_leg_group_id,transfer_count,duration_limit,duration_limit_type,fare_transfer_type,fare_product_id"]
                          + transferRules.map { r in
                              [r.from ?? "", r.to ?? "", r.count.map(String.init) ?? "", r.limit.map(String.init) ?? "", r.limit == nil ? "" : "\(r.limitType)", "\(r.type)", r.product ?? ""].joined(separator: ",")
                          })
                let (t, warnings) = try GTFSCompiler.compile(try FeedFiles.open(dir))
                #expect(warnings.isEmpty, "\(warnings)")
                let date = LocalDate(year: 2026, month: 11, day: 23)
                let fares = try #require(FareTable(t, clock: ServiceClock(day: date, zone: t.zone)))
                let price = Dictionary(uniqueKeysWithValues: products.map { ($0.0, $0.1) })

                // The brute force, from the rules as written above.
                func areas(_ stop: Int) -> [String] {
                    let mine = own[t.stopIDs[stop]] ?? [], parent = Int(t.stopParent[stop])
                    return mine.isEmpty && parent >= 0 ? own[t.stopIDs[parent]] ?? [] : mine
                }
                func field(_ value: String?, _ actual: [String], _ column: [String?]) -> Bool {
                    if let value { return actual.contains(value) }
                    return ranked || !actual.contains { a in column.contains(a) }
                }
                func net(_ leg: Router.Leg) -> String? { leg.trip.flatMap { network[t.routeIDs[Int(t.tripRoute[$0])]] } }
                func station(_ stop: Int) -> Int { t.stopParent[stop] >= 0 ? Int(t.stopParent[stop]) : stop }
                func matching(_ leg: Router.Leg, _ net: String?) -> [LegRule] {
                    let found = legRules.filter { r in
                        field(r.network, net.map { [$0] } ?? [], legRules.map(\.network)) && field(r.from, areas(leg.from), legRules.map(\.from))
                            && field(r.to, areas(leg.to), legRules.map(\.to))
                    }
                    let top = found.map { $0.priority ?? 0 }.max()
                    return ranked ? found.filter { $0.priority == top } : found
                }
                func transfers(_ a: String?, _ b: String?) -> [TransferRule] {
                    transferRules.filter { r in
                        (r.from.map { $0 == a } ?? (a == nil || !transferRules.contains { $0.from == a }))
                            && (r.to.map { $0 == b } ?? (b == nil || !transferRules.contains { $0.to == b }))
                    }
                }
                func brute(_ rides: [Router.Leg]) -> Double? {
                    // Fare legs: rides whose change a join rule names are one, on their network if they share it.
                    var legs: [Router.Leg] = [], nets: [String?] = []
                    for (k, ride) in rides.enumerated() {
                        if k > 0, let a = net(rides[k - 1]), let b = net(ride), joinPairs.contains([a, b]), station(rides[k - 1].to) == station(ride.from) {
                            legs[legs.count - 1].to = ride.to
                            legs[legs.count - 1].arrival = ride.arrival
                            if nets[nets.count - 1] != b { nets[nets.count - 1] = nil }
                        } else {
                            legs.append(ride)
                            nets.append(net(ride))
                        }
                    }
                    let options = legs.indices.map { matching(legs[$0], nets[$0]) }
                    guard options.allSatisfy({ !$0.isEmpty }) else { return nil }
                    var best = Double.infinity
                    func go(_ i: Int, _ previous: LegRule?, _ cost: Double, _ chain: [String?]?, _ start: Int, _ count: Int, _ own: Double?) {
                        guard i < legs.count else { best = min(best, cost); return }
                        for rule in options[i] {
                            let b = price[rule.product] ?? 0
                            guard let previous else { go(1, rule, b, nil, 0, 0, b); continue }
                            var steps: [(TransferRule, Int, Int)] = []
                            let candidates = transfers(previous.group, rule.group)
                            for pair in Set(candidates.map { [$0.from ?? "-", $0.to ?? "-"] }) {
                                let same = chain.map { [$0[0] ?? "-", $0[1] ?? "-"] == pair } ?? false
                                let n = same ? count + 1 : 1, s = same ? start : i - 1
                                let valid = candidates.filter { r in
                                    guard [r.from ?? "-", r.to ?? "-"] == pair, (r.count ?? -1) < 0 || n <= r.count ?? 0 else { return false }
                                    guard let limit = r.limit else { return true }
                                    let begin = r.limitType <= 1 ? legs[s].departure.predicted : legs[s].arrival.predicted
                                    let end = r.limitType == 0 || r.limitType == 3 ? legs[i].arrival.predicted : legs[i].departure.predicted
                                    return end - begin <= limit
                                }
                                let least = valid.map { ($0.count ?? -1) < 0 ? Int.max : $0.count ?? 0 }.min()
                                steps += valid.filter { (($0.count ?? -1) < 0 ? Int.max : $0.count ?? 0) == least }.map { ($0, s, n) }
                            }
                            if steps.isEmpty { go(i + 1, rule, cost + b, nil, i, 0, b) }
                            for (r, s, n) in steps {
                                let fee = r.product.flatMap { price[$0] } ?? 0
                                switch r.type {
                                case 0: go(i + 1, rule, cost + fee, [r.from, r.to], s, n, nil)
                                case 1: go(i + 1, rule, cost + fee + b, [r.from, r.to], s, n, b)
                                default: go(i + 1, rule, cost - (own ?? 0) + fee, [r.from, r.to], s, n, nil)
                                }
                            }
                        }
                    }
                    go(0, nil, 0, nil, 0, 0, nil)
                    // A journey's total is never below zero (discounts past the fares: free, `clamped`).
                    return best.isFinite ? max(0, best) : best
                }

                let called = (0..<t.stopCount).filter(t.isCalledAt)
                for _ in 0..<12 {
                    let a = pick(called), b = pick(called)
                    guard a != b else { continue }
                    let query = Router.Query(origins: [a], destinations: [b], day: date.dayNumber, after: 6 * 3600, before: 20 * 3600, maxTransfers: 3,
                                             minTransfer: 60, walkMeters: SearchDefaults.walkMeters)
                    for journey in Router(t, query).journeys() {
                        let expected = brute(journey.legs.filter(\.isRide)), got = fares.price(journey)
                        #expect(expected.map { e in got.total.map { abs($0 - e) < 1e-9 } ?? false } ?? (got.total == nil),
                                "\(t.stopIDs[a]) → \(t.stopIDs[b]) at \(journey.departure): \(String(describing: expected)) against \(got)")
                        if expected == nil { unpriced += 1 }
                        compared += 1
                    }
                }
            }
            #expect(compared > 400 && unpriced < compared / 2, "\(compared) journeys, \(unpriced) unpriced")
        }
    }
}
