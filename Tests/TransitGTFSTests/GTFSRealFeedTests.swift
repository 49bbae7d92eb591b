import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

/// The real feeds and the peers' published journey-planner cases of the reference pack
/// (gtfs/feeds, with their sources in gtfs/SOURCES.md), read where they live. Each feed's
/// EXPECTED.txt says how the peer's query reads in transit's terms.
@Suite(.enabled(if: Reference.isPresent, Reference.absent)) struct GTFSRealFeedTests {
    func feed(_ name: String) throws -> Timetable {
        try GTFSCompiler.compile(try FeedFiles.open(Reference.feed(name))).0
    }

    /// The peers' single answer: the earliest arrival among the journeys leaving at or after
    /// the query time (fewer changes on a tie).
    func earliest(_ t: Timetable, _ from: String, _ to: String, day: String, after: String, minTransfer: Int = 0) throws -> Trip? {
        try journeys(t, from: [from], to: [to], day: day, after: after, minTransfer: minTransfer)
            .min { ($0.arrival, $0.transfers) < ($1.arrival, $1.transfers) }
    }

    @Test func mmriCalendarDatesAndRouteChoice() throws {
        let g = try feed("mmri-1g")
        #expect(try earliest(g, "1g1", "1g2", day: "2014-01-01", after: "00:02")?.description == "00:03-00:04 x0 1g|bus|2")
        // Service added by calendar_dates on 2014-01-03.
        #expect(try earliest(g, "1g1", "1g2", day: "2014-01-03", after: "00:03")?.description == "00:03-00:04 x0 1g|bus|2")
        #expect(try journeys(g, from: ["1g1"], to: ["1g2"], day: "2014-01-02").isEmpty)
        let a = try feed("mmri-2a1")
        #expect(try earliest(a, "2a1", "2a2", day: "2014-01-01", after: "00:01")?.description == "00:01-00:02 x0 2a1|short|1")
        #expect(try earliest(a, "2a1", "2a2", day: "2014-01-01", after: "00:03")?.description == "00:05-00:06 x0 2a1|long|2")
    }

    @Test func mmriTransfers() throws {
        // 2c: parent stations, type 2 with 60 s; train 2 starts at stop_sequence 2.
        #expect(try earliest(feed("mmri-2c"), "2c1", "2c3", day: "2014-01-01", after: "00:01")?.description == "00:01-00:04 x1 2c|train|1>2c|train|2")
        // 2d: a 0-minute change allowed by type 1.
        #expect(try earliest(feed("mmri-2d"), "2d1", "2d4", day: "2014-01-01", after: "00:01")?.description == "00:01-00:04 x1 2d|1|1>2d|2|1")
        #expect(try earliest(feed("mmri-2e1"), "2e11", "2e16", day: "2014-01-01", after: "00:01")?.description == "00:01-00:05 x1 2e1|1>2e1|2")
        #expect(try earliest(feed("mmri-2e2"), "2e21", "2e26", day: "2014-01-01", after: "00:01")?.description == "00:01-00:05 x1 2e2|1>2e2|2")
        // 2e4 and 3g2: the change at the other stop is type 3, forbidden.
        let e4 = try #require(try journeys(feed("mmri-2e4"), from: ["2e41"], to: ["2e46"], day: "2014-01-01", after: "00:01", minTransfer: 0).first)
        #expect(e4.description == "00:01-00:05 x1 2e4|1>2e4|2")
        #expect(try earliest(feed("mmri-3g2"), "3g21", "3g26", day: "2014-01-01", after: "00:01")?.description == "00:01-00:05 x1 3g2|1>3g2|2")
        // 3b: static schedules only (its realtime update is not read); stop_sequence 0 and 3.
        #expect(try earliest(feed("mmri-3b"), "3b1", "3b2", day: "2014-01-01", after: "00:01")?.description == "00:01-00:02 x0 3b|1")
    }

    @Test func mmriChangeAtTheRightStop() throws {
        // Which stop 2e4 changes at: 2e43 (2e44 is type 3).
        let t = try feed("mmri-2e4")
        let q = Router.Query(origins: [try #require((0..<t.stopCount).first { t.stopIDs[$0] == "2e41" })],
                             destinations: [try #require((0..<t.stopCount).first { t.stopIDs[$0] == "2e46" })],
                             day: try #require(LocalDate(iso: "2014-01-01")).dayNumber, after: 60, maxTransfers: 2, minTransfer: 0)
        let journey = try #require(Router(t, q).journeys().first)
        let to = journey.legs[0].to
        guard journey.legs[0].isRide else { Issue.record("not a ride"); return }
        #expect(t.stopIDs[to] == "2e43")
    }

    @Test func nigiriCases() throws {
        // A trip calling S1 twice: its second call, then the next trip's first call.
        let twice = try feed("nigiri-tb-earlier-stop-transfer")
        #expect(try journeys(twice, from: ["S3"], to: ["S2"], day: "2021-03-01").map(\.description) == ["03:00-06:00 x1 R0_MON0>R0_MON1"])
        #expect(try journeys(twice, from: ["S4"], to: ["S0"], day: "2021-03-01").isEmpty)
        #expect(try journeys(feed("nigiri-tb-same-day-transfer"), from: ["S0"], to: ["S2"], day: "2021-03-01").map(\.description)
                == ["00:00-13:00 x1 R0_MON>R1_MON"])
        // Runs of other service days, through the engine's one answer (issue 64): the peer's
        // early train, a Monday run at 76:00-81:00 ridden on Thursday after R1_THU.
        #expect(try planned(feed("nigiri-tb-early-train"), "S1", "S3", day: "2021-03-04", after: 5 * 3600)
                == ["06:00-09:00 x1 R1_THU>R0_MON@-3"])
        // The overnight change nigiri's preprocessing finds: Monday 12:00 at S1, Tuesday's 06:00 on
        // (08:00 on Tuesday is 32:00 on Monday's clock); on Tuesday nothing leaves S0.
        let next = try feed("nigiri-tb-next-day-transfer")
        #expect(try planned(next, "S0", "S2", day: "2021-03-01") == ["00:00-32:00 x1 R0_MON>R1_TUE@+1"])
        #expect(try planned(next, "S0", "S2", day: "2021-03-02").isEmpty)
    }

    /// BART 2022's whole day from 24th St to Millbrae: it opens with the 4th's last trains past
    /// midnight (00:04, 00:34) and ends with the 5th's own (24:34); the 25:18 to Glen Park that
    /// waits there for the 6th's 06:00 Red line is beaten by the 6th's first train, which leaves
    /// later and arrives as soon (`Router.Query.beatenAfter`): it is not listed.
    @Test func theNightsLastJourneyThatWaitsIsBeaten() throws {
        let bart = try GTFSCompiler.compile(try FeedFiles.open(Reference.path("realdata/bart_gtfs/gtfs-lite_2022/unz"))).0
        let day = try planned(bart, "24TH", "MLBR", day: "2022-10-05")
        #expect(day.prefix(2) == ["00:04-00:34 x0 1250237@-1", "00:34-01:04 x0 1250238@-1"], "\(day.prefix(3))")
        #expect(day.last == "24:34-25:04 x0 1250238", "\(day.suffix(3))")
        #expect(!day.contains { $0.contains("@+1") }, "\(day.suffix(3))")
    }

    /// `GTFSFeed.plan`'s journeys (the whole day, or from `after` seconds) as `Trip`s, each ride
    /// of another service day than the query's marked with its offset (`@-3`).
    func planned(_ t: Timetable, _ from: String, _ to: String, day: String, after: Int? = nil) throws -> [String] {
        let q = JourneyQuery(from: from, to: to, date: try #require(LocalDate(iso: day)), after: after,
                             rules: JourneyQuery.Rules(transfers: 2, minTransferSeconds: 0))
        return try GTFSFeed(timetable: t).plan(q).map { j in
            Trip(departure: Trip.clock(j.departure), arrival: Trip.clock(j.arrival), transfers: j.transfers, trips: j.legs.compactMap { leg in
                leg.trip.map { t.tripIDs[$0] + (leg.dayOffset == 0 ? "" : String(format: "@%+d", leg.dayOffset)) }
            }).description
        }
    }

    @Test func otpInterliningIsAChange() throws {
        let t = try feed("otp-interlining")
        // Two journeys with equal triples here (route0 or route1, both changing at 00:20–00:30): one is printed.
        let three = try journeys(t, from: ["stop0"], to: ["stop3"], day: "2014-01-01", after: "00:05", minTransfer: 0)
        #expect(three.map { "\($0.departure)-\($0.arrival) x\($0.transfers)" } == ["00:10-00:40 x1"])
        #expect(["route1-trip1>route1-trip2", "route0-trip1>route0-trip2"].contains(three.first?.trips.joined(separator: ">") ?? ""))
        #expect(try earliest(t, "stop0", "stop6", day: "2014-01-01", after: "00:05")?.description == "00:10-00:35 x1 route0-trip1>route3-trip1")
        #expect(try earliest(t, "stop0", "stop5", day: "2014-01-01", after: "00:05")?.description == "00:30-00:55 x1 route2-trip1>route2-trip2")
    }

    @Test func frequenciesOfRealFeeds() throws {
        // r5 fake agency: exact_times 0, 08:00–09:00 every 1800 s: two runs; the template does not run.
        let r5 = try feed("r5-fake-agency-dir")
        let template = try #require((0..<r5.tripCount).first { r5.tripIDs[$0] == "frequency-trip" })
        let starts: [Int32] = (0..<r5.patternCount).flatMap { q -> [Int32] in
            (Int(r5.patternTripStart[q])..<Int(r5.patternTripStart[q + 1])).filter { r5.patternTrips[$0] == Int32(template) }.map { index in
                r5.times[r5.timeIndex(pattern: q, row: index - Int(r5.patternTripStart[q]), position: 0) + 1]
            }
        }
        let expected: [Int32] = [28_800, 30_600]  // 08:00 and 08:30
        #expect(starts.sorted() == expected)
        let google = try feed("google-good_feed")
        // STBA runs 06:00–22:00 every 30 minutes: 32 departures.
        let stba = try #require((0..<google.tripCount).first { google.tripIDs[$0] == "STBA" })
        #expect(google.patternTrips.filter { Int($0) == stba }.count == 32)
    }

    /// RAPTOR against a plain scan of the rows: every direct trip of the day, its Pareto set.
    func directByScan(_ directory: String, from: Set<String>, to: Set<String>, day: LocalDate) throws -> [String] {
        func rows(_ name: String) throws -> [[String: String]] {
            let text = try String(contentsOfFile: directory + "/" + name, encoding: .utf8).replacingOccurrences(of: "\u{FEFF}", with: "")
            let lines = text.split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            guard let header = lines.first else { return [] }
            return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0 + Array(repeating: "", count: max(0, header.count - $0.count)))) }
        }
        let ymd = day.iso.replacingOccurrences(of: "-", with: "")
        let weekday = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"][((day.dayNumber % 7) + 10) % 7]
        var active = Set(try rows("calendar.txt").filter { $0["start_date"]! <= ymd && ymd <= $0["end_date"]! && $0[weekday] == "1" }.map { $0["service_id"]! })
        for row in try rows("calendar_dates.txt") where row["date"] == ymd {
            if row["exception_type"] == "1" { active.insert(row["service_id"]!) } else { active.remove(row["service_id"]!) }
        }
        let running = Set(try rows("trips.txt").filter { active.contains($0["service_id"]!) }.map { $0["trip_id"]! })
        func seconds(_ text: String) -> Int {
            let p = text.split(separator: ":").compactMap { Int($0) }
            return p.count == 3 ? p[0] * 3600 + p[1] * 60 + p[2] : -1
        }
        var byTrip: [String: [[String: String]]] = [:]
        for row in try rows("stop_times.txt") where running.contains(row["trip_id"]!) { byTrip[row["trip_id"]!, default: []].append(row) }
        var found: [(Int, Int)] = []
        for (_, calls) in byTrip {
            let sorted = calls.sorted { Int($0["stop_sequence"]!)! < Int($1["stop_sequence"]!)! }
            for (i, a) in sorted.enumerated() where from.contains(a["stop_id"]!) {
                if let b = sorted[(i + 1)...].first(where: { to.contains($0["stop_id"]!) }) {
                    found.append((seconds(a["departure_time"]!), seconds(b["arrival_time"]!)))
                }
            }
        }
        let pareto = Set(found.filter { r in !found.contains { $0.0 >= r.0 && $0.1 <= r.1 && ($0.0 != r.0 || $0.1 != r.1) } }.map { "\($0.0)-\($0.1)" })
        return pareto.sorted { (Int($0.split(separator: "-")[0]) ?? 0) < (Int($1.split(separator: "-")[0]) ?? 0) }
    }

    @Test func caltrainSanFranciscoToPaloAltoMatchesAPlainScan() throws {
        let t = try GTFSCompiler.compile(try FeedFiles.open(Reference.feed("caltrain-20160406/caltrain_20160406.zip"))).0
        let day = try #require(LocalDate(iso: "2016-04-06"))
        let origins = try StopIndex(t).resolve("San Francisco"), destinations = try StopIndex(t).resolve("Palo Alto")
        #expect(origins.map { t.stopIDs[$0] }.sorted() == ["70011", "70012"])
        #expect(destinations.map { t.stopIDs[$0] }.sorted() == ["70171", "70172"])
        let routed = Router(t, Router.Query(origins: origins, destinations: destinations, day: day.dayNumber, maxTransfers: 0, minTransfer: 120))
            .journeys().map { "\($0.departure)-\($0.arrival)" }
        let scanned = try directByScan(Reference.feed("caltrain-20160406"), from: ["70011", "70012"], to: ["70171", "70172"], day: day)
        #expect(routed.count == 43)
        #expect(routed == scanned)
        // With changes allowed, the direct trips stay, and nothing dominated is added.
        let withChanges = Router(t, Router.Query(origins: origins, destinations: destinations, day: day.dayNumber, maxTransfers: 2, minTransfer: 120)).journeys()
        #expect(withChanges.filter { $0.transfers == 0 }.map { "\($0.departure)-\($0.arrival)" } == routed)
        for a in withChanges {
            #expect(!withChanges.contains { b in b != a && b.departure >= a.departure && b.arrival <= a.arrival && b.transfers <= a.transfers })
        }
        // A Saturday: the weekend service only.
        #expect(try journeys(t, from: ["70011"], to: ["70171"], day: "2016-04-09", transfers: 0).count < routed.count)
    }

    @Test func terreHauteInterpolatesByDistanceAndDropsHolidays() throws {
        let t = try feed("r5-terre-haute")
        #expect(t.sourceStopTimes == 1866)
        // t_76514_b_236_tn_1, stop_sequence 6: untimed, 208.96 of the 1,376.97 feet between
        // 07:30:00 and 07:35:00 → 45.5 s → 07:30:46 (by stop count it would be 07:32:30).
        let trip = try #require((0..<t.tripCount).first { t.tripIDs[$0] == "t_76514_b_236_tn_1" })
        let q = try #require((0..<t.patternCount).first { q in (Int(t.patternTripStart[q])..<Int(t.patternTripStart[q + 1])).contains { t.patternTrips[$0] == Int32(trip) } })
        let index = try #require((Int(t.patternTripStart[q])..<Int(t.patternTripStart[q + 1])).first { t.patternTrips[$0] == Int32(trip) })
        let row = index - Int(t.patternTripStart[q])
        #expect(t.times[t.timeIndex(pattern: q, row: row, position: 5)] == 7 * 3600 + 30 * 60 + 46)
        // Thanksgiving 2017 is removed by calendar_dates; the day before runs.
        func runs(_ day: String) throws -> Int {
            let d = try #require(LocalDate(iso: day)).dayNumber
            return (0..<t.tripCount).filter { t.serviceRuns(Int(t.tripService[$0]), day: d) }.count
        }
        #expect(try runs("2017-11-22") > 0 && runs("2017-11-23") == 0)
        // Every time in a pattern row is non-decreasing after interpolation.
        for q in 0..<t.patternCount {
            let length = t.patternLength(q), rows = Int(t.patternTripStart[q + 1] - t.patternTripStart[q])
            for row in 0..<rows {
                let base = t.timeIndex(pattern: q, row: row, position: 0)
                let times = t.times[base..<(base + length * 2)]
                #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
            }
        }
    }
}
