import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport

/// Fares v1 (issue 34, its first part): each journey priced from the feed's own
/// fare_attributes.txt and fare_rules.txt, checked against those files read here by hand.
@Suite(.enabled(if: Reference.isPresent, Reference.absent))
struct FareTests {
    /// A feed's CSV file as rows of named fields (quotes dropped; these files have no commas in fields).
    static func rows(_ path: String) throws -> [[String: String]] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(whereSeparator: \.isNewline).map { $0.replacingOccurrences(of: "\"", with: "") }
        let header = lines.first.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) } ?? []
        return lines.dropFirst().map { line in
            Dictionary(zip(header, line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)), uniquingKeysWith: { a, _ in a })
        }
    }

    static func journeys(_ t: Timetable, _ from: [Int], _ to: [Int], day: String, after: Int, transfers: Int = 0) throws -> [Router.Journey] {
        let query = Router.Query(origins: from, destinations: to, day: try #require(LocalDate(iso: day)).dayNumber, after: after, before: after + 3 * 3600,
                                 maxTransfers: transfers, minTransfer: 60)
        return Router(t, query).journeys()
    }

    /// BART 2022: every direct journey between 100 pairs of stations costs the fare its
    /// fare_rules.txt row gives for their two zones (the stations' own), USD, one part.
    @Test func bartChargesItsTableForEachPair() throws {
        let dir = Reference.path("realdata/bart_gtfs/gtfs-lite_2022/unz")
        let t = try GTFSCompiler.compile(try FeedFiles.open(dir)).0
        let prices = Dictionary(try Self.rows(dir + "/fare_attributes.txt").map { ($0["fare_id"] ?? "", Double($0["price"] ?? "") ?? -1) }, uniquingKeysWith: { a, _ in a })
        var table: [String: Double] = [:]
        for rule in try Self.rows(dir + "/fare_rules.txt") { table[(rule["origin_id"] ?? "") + ">" + (rule["destination_id"] ?? "")] = prices[rule["fare_id"] ?? ""] }
        let fares = try #require(FareTable(t))
        // The stops trains call at are zoned (BART's zone is the station's code).
        let stations = (0..<t.stopCount).filter { t.fares.stopZone[$0] >= 0 && t.isCalledAt($0) }
        #expect(stations.count > 40)
        var generator = SplitMix(seed: 34), checked = 0, tries = 0
        while checked < 100 && tries < 2000 {
            tries += 1
            let a = stations[Int(generator.next() % UInt64(stations.count))], b = stations[Int(generator.next() % UInt64(stations.count))]
            guard a != b, let journey = try Self.journeys(t, [a], [b], day: "2022-10-12", after: 8 * 3600).first else { continue }
            let key = t.fares.zoneIDs[Int(t.fares.stopZone[a])] + ">" + t.fares.zoneIDs[Int(t.fares.stopZone[b])]
            let expected = try #require(table[key], "\(key)")
            let price = fares.price(journey)
            #expect(price.total == expected && price.currency == "USD" && price.complete && price.parts.count == 1, "\(key): \(price)")
            checked += 1
        }
        #expect(checked == 100)
    }

    /// 24TH → MLBR and back through the binary: the table's PRICE and JSON's `fare`.
    @Test func bartPricesThroughTheBinary() async throws {
        let env = Run.environment()
        #expect(try await Run.transit(["gtfs", "import", Reference.path("realdata/bart_gtfs/gtfs-lite_2022/unz"), "--name", "bart"], env: env).status == 0)
        for (from, to) in [("24TH", "MLBR"), ("MLBR", "24TH")] {
            let table = try await Run.transit(["gtfs", "trips", "--from", from, "--to", to, "--date", "2022-10-12", "--after", "08:00", "--limit", "1", "--format", "table"], env: env)
            #expect(table.status == 0 && table.stdoutLines.first?.contains("PRICE") == true && table.stdoutLines.dropFirst().first?.contains("$5.05") == true, "\(table.stdout)")
            let json = try await Run.transit(["gtfs", "trips", "--from", from, "--to", to, "--date", "2022-10-12", "--after", "08:00", "--limit", "1", "--format", "json"], env: env)
            let record = try #require((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])?.first)
            let fare = try #require(record["fare"] as? [String: Any])
            #expect(fare["total"] as? Double == 5.05 && fare["currency"] as? String == "USD" && fare["complete"] as? Bool == true, "\(fare)")
        }
    }

    /// BART's rider categories (rider_categories.txt, fare_rider_categories.txt): for each
    /// category, 100 random pairs cost that category's price of their zones' fare; `--rider`
    /// takes an id or a name, through the binary; an unknown one, or a feed without categories,
    /// is one line and exit 2.
    @Test func bartChargesEachRiderCategoryItsPrice() async throws {
        let dir = Reference.path("realdata/bart_gtfs/gtfs-lite_2022/unz")
        let t = try GTFSCompiler.compile(try FeedFiles.open(dir)).0
        var fareOf: [String: String] = [:]
        for rule in try Self.rows(dir + "/fare_rules.txt") { fareOf[(rule["origin_id"] ?? "") + ">" + (rule["destination_id"] ?? "")] = rule["fare_id"] }
        var riderPrice: [String: Double] = [:]
        for row in try Self.rows(dir + "/fare_rider_categories.txt") { riderPrice[(row["fare_id"] ?? "") + "/" + (row["rider_category_id"] ?? "")] = Double(row["price"] ?? "") }
        #expect((0..<t.fares.riderCategoryIDs.count).map { t.fares.riderCategoryIDs[$0] } == ["5", "2", "16"])
        let stations = (0..<t.stopCount).filter { t.fares.stopZone[$0] >= 0 && t.isCalledAt($0) }
        for category in 0..<t.fares.riderCategoryIDs.count {
            let fares = try #require(FareTable(t, rider: category))
            var generator = SplitMix(seed: 340 + UInt64(category)), checked = 0, tries = 0
            while checked < 100 && tries < 2000 {
                tries += 1
                let a = stations[Int(generator.next() % UInt64(stations.count))], b = stations[Int(generator.next() % UInt64(stations.count))]
                guard a != b, let journey = try Self.journeys(t, [a], [b], day: "2022-10-12", after: 9 * 3600).first else { continue }
                let fare = try #require(fareOf[t.fares.zoneIDs[Int(t.fares.stopZone[a])] + ">" + t.fares.zoneIDs[Int(t.fares.stopZone[b])]])
                let expected = try #require(riderPrice[fare + "/" + t.fares.riderCategoryIDs[category]])
                #expect(fares.price(journey).total == expected, "\(fare) for \(t.fares.riderCategoryIDs[category])")
                checked += 1
            }
            #expect(checked == 100)
        }
        let env = Run.environment()
        #expect(try await Run.transit(["gtfs", "import", dir, "--name", "bart"], env: env).status == 0)
        let query = ["gtfs", "trips", "--from", "24TH", "--to", "MLBR", "--date", "2022-10-12", "--after", "08:00", "--limit", "1", "--format", "table"]
        for (rider, price) in [("youth", "$2.50"), ("2", "$1.85"), ("Clipper START", "$4.00")] {
            let run = try await Run.transit(query + ["--rider", rider], env: env)
            #expect(run.status == 0 && run.stdoutLines.dropFirst().first?.contains(price) == true, "\(rider): \(run.stdout)")
            #expect(!run.stderr.contains("Prices are"), "\(run.stderr)")
        }
        // Without --rider the table says whose price it is: Fares v1 has no default category
        // (issue 44, item 8). JSON says it in fare.rider (null), and no notice.
        let own = try await Run.transit(query, env: env)
        #expect(own.stdoutLines.dropFirst().first?.contains("$5.05") == true
                && own.stderrLines == ["Prices are the feed's own, for no rider category in particular; --rider takes one: Youth Clipper, Senior/Disabled Clipper, Clipper START"],
                "\(own.stderr)")
        #expect(try await Run.transit(Array(query.dropLast(2)) + ["--format", "json"], env: env).stderr.isEmpty)
        let unknown = try await Run.transit(query + ["--rider", "clipper"], env: env)
        #expect(unknown.status == 2 && unknown.stdout.isEmpty && unknown.stderrLines == ["transit: --rider: no single rider category 'clipper'; the feed has 5 (Youth Clipper), 2 (Senior/Disabled Clipper), 16 (Clipper START)"], "\(unknown.stderr)")
        #expect(try await Run.transit(["gtfs", "import", Reference.path("gtfs-multi/feeds/gh-sample-feed"), "--name", "sample"], env: env).status == 0)
        let none = try await Run.transit(["gtfs", "trips", "--feed", "sample", "--from", "STAGECOACH", "--to", "BEATTY_AIRPORT", "--date", "2008-01-02", "--rider", "youth"], env: env)
        #expect(none.status == 2 && none.stderrLines.first == "transit: --rider: the feed names no rider categories (no rider_categories.txt)", "\(none.stderr)")
    }

    /// `gtfs fares`: BART 24TH → MLBR is one way of paying, 2004 at 5.05, with each rider
    /// category's price; Caltrain San Francisco → Palo Alto pays OW_3 (7.75); a feed without fares
    /// says so; the same stop twice is a usage error.
    @Test func faresBetweenTwoStops() async throws {
        let env = Run.environment()
        #expect(try await Run.transit(["gtfs", "import", Reference.path("realdata/bart_gtfs/gtfs-lite_2022/unz"), "--name", "bart"], env: env).status == 0)
        let json = try await Run.transit(["gtfs", "fares", "--feed", "bart", "--from", "24TH", "--to", "MLBR", "--date", "2022-10-12", "--format", "json"], env: env)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(rows.count == 1 && rows.first?["fares"] as? String == "2004" && rows.first?["price"] as? Double == 5.05 && (rows.first?["journeys"] as? Int ?? 0) > 50)
        #expect(rows.first?["riders"] as? [String: Double] == ["Youth Clipper": 2.5, "Senior/Disabled Clipper": 1.85, "Clipper START": 4])
        let table = try await Run.transit(["gtfs", "fares", "--feed", "bart", "--from", "24TH", "--to", "MLBR", "--date", "2022-10-12", "--format", "table"], env: env)
        let header = (table.stdoutLines.first ?? "").components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        #expect(header == ["FARE", "ROUTES", "PRICE", "YOUTH CLIPPER", "SENIOR/DISABLED CLIPPER", "CLIPPER START", "JOURNEYS"], "\(table.stdout)")
        #expect(table.stdoutLines.dropFirst().first?.contains("$5.05  $2.50") == true, "\(table.stdout)")
        #expect(try await Run.transit(["gtfs", "import", Reference.path("gtfs/feeds/caltrain-20160406"), "--name", "caltrain"], env: env).status == 0)
        let tsv = try await Run.transit(["gtfs", "fares", "--feed", "caltrain", "--from", "70012", "--to", "70172", "--date", "2016-04-06", "--transfers", "0"], env: env)
        #expect(tsv.status == 0 && tsv.stdoutLines.count == 1 && tsv.stdoutLines.first?.hasPrefix("OW_3_20160228\t") == true && tsv.stdout.contains("\t7.75\tUSD\t"), "\(tsv.stdout)")
        let none = try await Run.transit(["gtfs", "fares", "--feed", Paths.fixtures + "/gtfs/lakeport", "--from", "Harbor", "--to", "Stadium", "--date", "2026-11-23"], env: env)
        #expect(none.status == 0 && none.stdout.isEmpty && none.stderrLines.last == "No fares: the feed has neither fare_attributes.txt nor fare_leg_rules.txt", "\(none.stderr)")
        let same = try await Run.transit(["gtfs", "fares", "--feed", "bart", "--from", "24TH", "--to", "24TH"], env: env)
        #expect(same.status == 2 && same.stdout.isEmpty)
    }

    /// Caltrain 2016: zone fares by route and zones, one zone to six; and a journey between
    /// stations of every pair of zones a train serves costs the row for those zones.
    @Test func caltrainChargesByZones() throws {
        let dir = Reference.path("gtfs/feeds/caltrain-20160406")
        let t = try GTFSCompiler.compile(try FeedFiles.open(dir)).0
        let fares = try #require(FareTable(t))
        let prices = Dictionary(try Self.rows(dir + "/fare_attributes.txt").map { ($0["fare_id"] ?? "", Double($0["price"] ?? "") ?? -1) }, uniquingKeysWith: { a, _ in a })
        var byZones: [String: Set<Double>] = [:]
        for rule in try Self.rows(dir + "/fare_rules.txt") { byZones[(rule["origin_id"] ?? "") + ">" + (rule["destination_id"] ?? ""), default: []].insert(prices[rule["fare_id"] ?? ""] ?? -1) }
        // Stations by zone: the first station of each.
        var stationOf: [String: Int] = [:]
        for stop in 0..<t.stopCount where t.stopParent[stop] >= 0 {
            let zone = t.fares.zoneIDs[Int(fares.zone(stop))]
            if stationOf[zone] == nil { stationOf[zone] = Int(t.stopParent[stop]) }
        }
        #expect(Set(stationOf.keys).isSuperset(of: ["1", "2", "3", "4", "5", "6"]))
        var pairs = 0
        for a in ["1", "2", "3", "4", "5", "6"] {
            for b in ["1", "2", "3", "4", "5", "6"] where a != b {
                guard let x = stationOf[a], let y = stationOf[b],
                      let journey = try Self.journeys(t, StationChildren(t).expand(x), StationChildren(t).expand(y), day: "2016-04-06", after: 7 * 3600).first else { continue }
                let price = fares.price(journey)
                #expect(price.complete && byZones[a + ">" + b]?.contains(price.total ?? -1) == true, "\(a) → \(b): \(price)")
                pairs += 1
            }
        }
        #expect(pairs >= 12)
    }

    /// The Google sample feed's fares by route: a ride on AB, STBA or BFC costs p (1.25), on
    /// AAMV a (5.25); a journey of two rides pays twice (transfers 0).
    @Test func theSampleFeedChargesByRoute() throws {
        let t = try GTFSCompiler.compile(try FeedFiles.open(Reference.path("gtfs-multi/feeds/gh-sample-feed"))).0
        let fares = try #require(FareTable(t))
        func stop(_ id: String) throws -> [Int] { [try #require(t.stopIDs.firstIndex(of: id))] }
        let toAirport = try #require(try Self.journeys(t, try stop("BEATTY_AIRPORT"), try stop("AMV"), day: "2008-01-05", after: 8 * 3600).first)
        #expect(fares.price(toAirport).total == 5.25 && fares.price(toAirport).parts.map(\.fare) == ["a"])
        let direct = try #require(try Self.journeys(t, try stop("STAGECOACH"), try stop("BEATTY_AIRPORT"), day: "2008-01-02", after: 6 * 3600).first)
        #expect(fares.price(direct).total == 1.25 && fares.price(direct).parts.map(\.fare) == ["p"])
    }

    /// A price read again (issue 67: Fares v1 prices kept by what they depend on) is the price a
    /// table that never priced before works out, for every journey of three hours with up to
    /// two changes between pairs of stations of BART (fares by pair), Caltrain (by zones) and
    /// the sample feed (by route, no transfers): one table prices them all, each twice.
    @Test func aPriceReadAgainIsThePriceWorkedOut() throws {
        let feeds = [("realdata/bart_gtfs/gtfs-lite_2022/unz", "2022-10-12"), ("gtfs/feeds/caltrain-20160406", "2016-04-06"),
                     ("gtfs-multi/feeds/gh-sample-feed", "2008-01-05")]
        var generator = SplitMix(seed: 67), compared = 0, multiRide = 0
        for (path, day) in feeds {
            let t = try GTFSCompiler.compile(try FeedFiles.open(Reference.path(path))).0
            let shared = try #require(FareTable(t))
            let stations = (0..<t.stopCount).filter { t.isCalledAt($0) }
            var journeys: [Router.Journey] = []
            // An origin to several destinations and several origins to a destination: rides
            // that share their route and one end and differ at the other.
            for fromOne in [true, false] {
                for _ in 0..<3 {
                    let one = stations[Int(generator.next() % UInt64(stations.count))]
                    for _ in 0..<4 {
                        let other = stations[Int(generator.next() % UInt64(stations.count))]
                        guard one != other else { continue }
                        journeys += try Self.journeys(t, [fromOne ? one : other], [fromOne ? other : one], day: day, after: 7 * 3600, transfers: 2).prefix(3)
                    }
                }
            }
            // In turn, each asked once more: the second is read; the fresh table never priced.
            for journey in journeys {
                let fresh = try #require(FareTable(t)).price(journey)
                #expect(shared.price(journey) == fresh && shared.price(journey) == fresh, "\(path): \(journey.legs.map { ($0.from, $0.to) })")
                compared += 1
                if journey.legs.filter(\.isRide).count > 1 { multiRide += 1 }
            }
        }
        #expect(compared > 40 && multiRide > 0, "\(compared) compared, \(multiRide) of more than one ride")
    }

    /// Over several feeds each ride is priced by its own feed's fares: Caltrain and the sample
    /// feed combined (their fares, zones and routes moved past the other's) price as they do alone,
    /// and so after the combined file is written and read back.
    @Test func eachFeedPricesItsOwnRidesInACombination() throws {
        let caltrain = try GTFSCompiler.compile(try FeedFiles.open(Reference.path("gtfs/feeds/caltrain-20160406"))).0
        let sample = try GTFSCompiler.compile(try FeedFiles.open(Reference.path("gtfs-multi/feeds/gh-sample-feed"))).0
        let combined = try TimetableCombination.combine([("gs", sample), ("ct", caltrain)])
        for t in [combined, try TimetableFile.decode(TimetableFile.encode(combined), path: "x")] {
            let fares = try #require(FareTable(t))
            func stop(_ id: String) throws -> [Int] { [try #require(t.stopIDs.firstIndex(of: id), "\(id)")] }
            let ride = try #require(try Self.journeys(t, try stop("ct:70012"), try stop("ct:70172"), day: "2016-04-06", after: 7 * 3600).first)
            #expect(fares.price(ride).total == 7.75 && fares.price(ride).parts.map(\.fare) == ["ct:OW_3_20160228"])
            let bus = try #require(try Self.journeys(t, try stop("gs:BEATTY_AIRPORT"), try stop("gs:AMV"), day: "2008-01-05", after: 8 * 3600).first)
            #expect(fares.price(bus).total == 5.25 && fares.price(bus).parts.map(\.fare) == ["gs:a"])
        }
    }

    /// Rows that cannot be used are skipped, counted in one warning; the feed still imports and
    /// prices with the rest. A journey a fare does not cover has no total (`?`, complete false).
    @Test func badFareRowsAreSkippedAndCounted() throws {
        let dir = Paths.temporary()
        let source = Reference.path("gtfs-multi/feeds/gh-sample-feed")
        for name in try FileManager.default.contentsOfDirectory(atPath: source) { try FileManager.default.copyItem(atPath: source + "/" + name, toPath: dir + "/" + name) }
        try "fare_id,price,currency_type,payment_method,transfers,transfer_duration\np,1.25,USD,0,0,\nbad,abc,USD,0,0,\nlow,1.00,usd,0,0,\n"
            .write(toFile: dir + "/fare_attributes.txt", atomically: true, encoding: .utf8)
        try "fare_id,route_id,origin_id,destination_id,contains_id\np,AB,,,\np,STBA,,,\np,BFC,,,\nnone,AB,,,\np,NOROUTE,,,\np,,NOZONE,,\n"
            .write(toFile: dir + "/fare_rules.txt", atomically: true, encoding: .utf8)
        let (t, warnings) = try GTFSCompiler.compile(try FeedFiles.open(dir))
        #expect(warnings.contains("5 fare rows name an unknown fare, route or zone, or a price or currency that cannot be read: skipped"), "\(warnings)")
        #expect(t.fares.fareIDs.count == 1)
        let fares = try #require(FareTable(t))
        func stop(_ id: String) throws -> [Int] { [try #require(t.stopIDs.firstIndex(of: id))] }
        // Fare a is gone (a fare without rules would cover any ride): the airport ride has none, so no total.
        let toAirport = try #require(try Self.journeys(t, try stop("BEATTY_AIRPORT"), try stop("AMV"), day: "2008-01-05", after: 8 * 3600).first)
        #expect(fares.price(toAirport) == FareTable.Price(parts: [], minorTotal: nil, currency: nil, complete: false))
        #expect(JourneyLayout.priceText(fares.price(toAirport)) == .string("?"))
    }

    /// Issue 41, item 5: a price is read exactly as decimal text in its currency's minor units, or
    /// its row is skipped and counted: hex (`0x10` was 16.00), an exponent, more decimals than the
    /// currency has; `transfers` other than empty, 0, 1 or 2 (`O`, `-5`, `1e9` were unlimited) and
    /// a `transfer_duration` that is no number of seconds (`-5`, `abc`) too. Each currency prints
    /// with its own decimals: KWD 0.125 (was 0.12), JPY 420 (was 420.00); 0.10 + 0.20 is 0.30.
    @Test func pricesAreReadExactlyAndPrintedInTheirCurrency() async throws {
        func feed(_ fares: String, _ rules: String) -> TestFeed {
            TestFeed(["stops.txt": TestFeed.stops(["A", "B", "C"]), "trips.txt": "route_id,service_id,trip_id\nR,S,t1\nQ,S,t2\n",
                      "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nt1,08:00:00,08:00:00,A,1\nt1,08:10:00,08:10:00,B,2\n"
                        + "t2,08:15:00,08:15:00,B,1\nt2,08:25:00,08:25:00,C,2\n",
                      "fare_attributes.txt": "fare_id,price,currency_type,payment_method,transfers,transfer_duration\n" + fares,
                      "fare_rules.txt": "fare_id,route_id,origin_id,destination_id,contains_id\n" + rules])
        }
        let bad = feed("hex,0x10,USD,0,,\nexp,1e1,USD,0,,\nplus,+1.00,USD,0,,\nmore,4.605,USD,0,,\ndots,1.2.3,USD,0,,\n"
                       + "letter,0,USD,0,O,\nnegative,0,USD,0,-5,\nhuge,0,USD,0,1e9,\nthree,0,USD,0,3,\nlate,0,USD,0,,-5\nword,0,USD,0,,abc\n"
                       + "good,1.00,USD,0,2,5400\nyen,420.00,JPY,0,,\n", "")
        let (t, warnings) = try bad.compile()
        #expect(warnings.contains("11 fare rows name an unknown fare, route or zone, or a price or currency that cannot be read: skipped"), "\(warnings)")
        #expect((0..<t.fares.fareIDs.count).map { t.fares.fareIDs[$0] } == ["good", "yen"] && Array(t.fares.farePrice.buffer) == [100, 420])
        #expect(Array(t.fares.fareTransfers.buffer) == [2, -1] && Array(t.fares.fareTransferDuration.buffer) == [5400, -1])

        // Each currency with its own decimals, through the binary; two rides of 0.10 and 0.20 are 0.30 exactly.
        let env = Run.environment(["TRANSIT_CACHE_DIR": Paths.temporary()])
        for (currency, r, q, total, json) in [("KWD", "0.125", "0.250", "KWD 0.375", 0.375), ("JPY", "420", "180", "JPY 600", 600.0),
                                              ("USD", "0.10", "0.20", "$0.30", 0.3)] {
            let priced = feed("r,\(r),\(currency),0,0,\nq,\(q),\(currency),0,0,\n", "r,R,,,\nq,Q,,,\n")
            let args = ["gtfs", "trips", "--feed", priced.directory, "--from", "A", "--to", "C", "--date", "2026-11-23", "--limit", "1"]
            let table = try await Run.transit(args + ["--format", "table"], env: env)
            #expect(table.status == 0 && table.stdoutLines.last?.contains(" \(total) ") == true, "\(currency): \(table.stdout) \(table.stderr)")
            let records = try (try await Run.transit(args + ["--format", "json"], env: env)).records()
            let fare = records.first?["fare"] as? [String: Any]
            #expect(fare?["total"] as? Double == json && fare?["clamped"] as? Bool == false, "\(currency): \(String(describing: fare))")
            // tsv's price has the currency's own decimals, in gtfs fares as in trips (issue 69: 0.3 was written).
            let amount = String(total.split(separator: " ").last ?? "").replacingOccurrences(of: "$", with: "")
            let trips = try await Run.transit(args, env: env), fares = try await Run.transit(["gtfs", "fares"] + args.dropFirst(2).dropLast(2), env: env)
            #expect(trips.stdoutLines.first?.split(separator: "\t").contains(Substring(amount)) == true, "\(currency): \(trips.stdout)")
            #expect(fares.stdoutLines.first?.split(separator: "\t").dropFirst(2).first == Substring(amount), "\(currency): \(fares.stdout) \(fares.stderr)")
        }
    }

    /// BART's fares written again as Fares v2 (scripts/make-fares-v2-from-v1.py: zones as areas,
    /// each fare a product, each rule an area-to-area leg rule as in the reference's zone
    /// example, rider prices as product rows; a change of trains within a station joined into one
    /// fare leg) price every journey between 100 random pairs of stations, with up to two
    /// changes, as the published Fares v1 do where they pay one fare, for every rider and each
    /// category; where v1's cheapest cover splits a journey in two, never below it.
    @Test(.enabled(if: Paths.python != nil, "needs python3 (scripts/setup)"))
    func bartAsFaresV2PricesAsItsFaresV1() async throws {
        let source = Reference.path("realdata/bart_gtfs/gtfs-lite_2022/unz"), converted = Paths.temporary()
        let run = try await Run.transitLike([try #require(Paths.python), Paths.root.appendingPathComponent("scripts/make-fares-v2-from-v1.py").path, source, converted],
                                            env: ["PATH": "/usr/bin:/bin"])
        #expect(run.status == 0, "\(run.stderr)")
        let v1 = try GTFSCompiler.compile(try FeedFiles.open(source)).0
        let (v2, warnings) = try GTFSCompiler.compile(try FeedFiles.open(converted))
        #expect(warnings.isEmpty && v2.fares.fareIDs.isEmpty && v2.fares.legRules.count / TimetableTable.legRuleStride == 2500 && v2.fares.legJoinRules.count == 4, "\(warnings)")
        let categories = [nil] + (0..<v1.fares.riderCategoryIDs.count).map(Optional.some)
        let old = try categories.map { try #require(FareTable(v1, rider: $0)) }, new = try categories.map { try #require(FareTable(v2, rider: $0)) }
        let stations = (0..<v1.stopCount).filter { v1.fares.stopZone[$0] >= 0 && v1.isCalledAt($0) }
        var generator = SplitMix(seed: 3402), checked = 0, tries = 0, changes = 0
        while checked < 100 && tries < 2000 {
            tries += 1
            let a = stations[Int(generator.next() % UInt64(stations.count))], b = stations[Int(generator.next() % UInt64(stations.count))]
            let found = try Self.journeys(v1, [a], [b], day: "2022-10-12", after: 8 * 3600, transfers: 2)
            guard a != b, !found.isEmpty else { continue }
            changes += found.filter { $0.transfers > 0 }.count
            for journey in found { for (k, category) in categories.enumerated() {
                let expected = old[k].price(journey), got = new[k].price(journey)
                // v1's cheapest cover may split a journey at a change into two fares (a rider
                // leaving the gates and entering again), never dearer than the through fare that
                // v2's joined leg pays; where it pays one fare, the two are the same.
                let same = expected.parts.count == 1 ? got.total == expected.total && got.parts.map(\.fare) == expected.parts.map(\.fare)
                    : (got.total ?? 0) >= (expected.total ?? .infinity) - 1e-9
                #expect(same && got.currency == expected.currency && got.parts.count == 1,
                        "\(v1.stopIDs[a]) → \(v1.stopIDs[b]), category \(String(describing: category)): \(got) against \(expected)")
            } }
            checked += 1
        }
        #expect(checked == 100 && changes > 50, "\(changes) journeys with changes")
    }

    /// A trip that real-time data adds (ADDED, no trip of the timetable) rides the route its
    /// descriptor names, and is priced by it: on the Google sample feed's AAMV, fare a (5.25), not
    /// the first route's (p, 1.25); on the MTA example's subway, the `core` network's $2.00 (it
    /// had no network, so no price).
    @Test func anAddedTripIsPricedByItsRoute() async throws {
        typealias W = ExtremeValueTests
        let cases = [(Reference.path("gtfs-multi/feeds/gh-sample-feed"), "America/Los_Angeles", "2008-01-05", "AAMV", "BEATTY_AIRPORT", "AMV", "a", 5.25),
                     (Paths.fixtures + "/gtfs/fares/flat", "America/New_York", "2022-10-12", "subway", "MOND", "LEXM", "core_local_oneway_fare", 2.00)]
        for (folder, zone, day, route, from, to, fare, price) in cases {
            let date = try #require(LocalDate(iso: day)), clock = ServiceClock(day: date, zone: try #require(TimeZone(identifier: zone)))
            let depart = UInt64(clock.instant(7 * 3600 + 5 * 60).timeIntervalSince1970), arrive = depart + 1800
            func call(_ sequence: UInt64, _ stop: String, _ time: UInt64) -> [UInt8] {
                W.field(2, W.field(1, sequence) + W.field(2, W.field(2, time)) + W.field(3, W.field(2, time)) + W.field(4, stop))
            }
            let trip = W.field(1, "X1") + W.field(3, day.replacingOccurrences(of: "-", with: "")) + W.field(4, UInt64(1)) + W.field(5, route)
            let update = W.field(1, trip) + call(1, from, depart) + call(2, to, arrive)
            let header = W.field(1, "2.0") + W.field(3, depart - 600)
            let file = Paths.temporary() + ".pb"
            try Data(W.field(1, header) + W.field(2, W.field(1, "e1") + W.field(3, update))).write(to: URL(fileURLWithPath: file))
            let now = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(depart - 300)))
            let env = Run.environment(["TRANSIT_NOW": now])
            #expect(try await Run.transit(["gtfs", "import", folder, "--name", "fares"], env: env).status == 0)
            let run = try await Run.transit(["gtfs", "trips", "--from", from, "--to", to, "--date", day, "--after", "07:00", "--limit", "1", "--realtime", file,
                                             "--format", "json"], env: env)
            let record = try #require((try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])?.first, "\(run.stderr)")
            let legs = try #require(record["legs"] as? [[String: Any]]), priced = try #require(record["fare"] as? [String: Any])
            #expect(legs.first?["status"] as? String == "added" && legs.first?["trip_id"] as? String == "X1", "\(run.stdout)")
            #expect(priced["total"] as? Double == price && (priced["legs"] as? [[String: Any]])?.first.map { ($0["fare_id"] ?? $0["fare_product_id"]) as? String } == fare,
                    "\(route): \(priced)")
        }
    }
}

/// The fares naming each origin-destination pair, sorted as integers where the zones and fares
/// fit (issue 67): the same order as the tuples', none (-1) and all, each (pair, fare) once.
@Suite struct FarePairOrderTests {
    @Test func packedSortIsTheTuplesOrder() {
        var random = SplitMix(seed: 67)
        for zones in [0, 1, 2, 5, 50, 1_000, Int(Int32.max)] {
            for _ in 0..<20 {
                let count = Int.random(in: 0...300, using: &random), fares = Int.random(in: 1...5_000, using: &random)
                var named: [(pair: Int64, fare: Int)] = (0..<count).map { _ in
                    let zone = { Int32(Int.random(in: -1..<max(0, min(zones, 1 << 20)), using: &random)) }
                    return (FareTable.pair(zone(), zone()), Int.random(in: 0..<fares, using: &random))
                }
                named += named.prefix(count / 4)  // some twice
                if zones == Int(Int32.max) { named.append((FareTable.pair(Int32.max - 1, -1), Int.max / 2)) }  // too wide to pack
                var expected: [(pair: Int64, fare: Int)] = []
                for entry in named.sorted(by: { ($0.pair, $0.fare) < ($1.pair, $1.fare) }) where expected.last.map({ $0 != entry }) ?? true {
                    expected.append(entry)
                }
                let index = FareTable.pairIndex(named, zones: zones)
                #expect(index.keys == expected.map(\.pair), "zones \(zones)")
                #expect(index.fares == expected.map(\.fare), "zones \(zones)")
            }
        }
    }

    @Test func radixSortSorts() {
        var random = SplitMix(seed: 6_700)
        for bits in [0, 1, 7, 8, 9, 24, 63] {
            var keys = (0..<500).map { _ in bits == 0 ? 0 : random.next() >> (64 - bits) }
            let expected = keys.sorted()
            FareTable.radixSort(&keys, bits: bits)
            #expect(keys == expected, "\(bits) bits")
        }
    }
}
