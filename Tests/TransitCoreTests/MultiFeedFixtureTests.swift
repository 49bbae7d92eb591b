import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport
import TransitTestSupport

/// The bundled pairs (Fixtures/gtfs/pairs, scripts/make-gtfs-pairs-fixture.py) through the
/// binary: BART and Caltrain meeting at Millbrae, and two feeds an hour apart meeting at a
/// border station (Renfe in Europe/Madrid, CP in Europe/Lisbon), where only instants compared
/// across zones give the journey a person would take.
@Suite struct MultiFeedFixtureTests {
    static let environment: [String: String] = {
        let env = Run.environment()
        for (folder, name) in [("bay/bart", "bart"), ("bay/caltrain", "caltrain"), ("border/renfe", "renfe"), ("border/cp", "cp")] {
            _ = try? Run.blockingTransit(["gtfs", "import", Paths.fixtures + "/gtfs/pairs/" + folder, "--name", name], env: env, interruptAfter: nil)
        }
        return env
    }()

    static func journeys(_ args: [String], env: [String: String] = environment) async throws -> (run: Run, journeys: [[String: Any]]) {
        let run = try await Run.transit(["gtfs", "trips"] + args + ["--format", "json"], env: env)
        #expect(run.status == 0, "\(run.stderr)")
        return (run, try run.records())
    }

    static func legs(_ journey: [String: Any]?) -> [[String: Any]] { journey?["legs"] as? [[String: Any]] ?? [] }

    /// Vigo 07:40 (Madrid) reaches Valença 08:35 Madrid, 07:35 Lisbon: the 07:48 to Porto is caught.
    /// Clock times compared as written (08:35 > 07:48) would wait four hours for the 11:48.
    @Test func acrossTheBorderTheConnectionIsCaught() async throws {
        let (run, journeys) = try await Self.journeys(["--feed", "renfe", "--feed", "cp", "--from", "Vigo", "--to", "Porto", "--date", "2026-11-23", "--limit", "1"])
        let first = try #require(journeys.first)
        #expect(first["departure"] as? String == "2026-11-23T07:40:00+01:00")
        #expect(first["arrival"] as? String == "2026-11-23T10:10:00+00:00")
        #expect(first["transfers"] as? Int == 1)
        let legs = Self.legs(first)
        #expect(legs.map { $0["mode"] as? String ?? "" } == ["ride", "walk", "ride"])
        #expect(legs.first?["arrival"] as? String == "2026-11-23T08:35:00+01:00", "the Renfe train's arrival on Madrid's clock")
        #expect(legs.last?["departure"] as? String == "2026-11-23T07:48:00+00:00", "the CP train's departure on Lisbon's")
        #expect(legs.dropFirst().first?["walk_meters"] as? Int == 33)
        #expect(run.stderr.contains("The feeds keep their own zones (cp Europe/Lisbon, renfe Europe/Madrid)"), "\(run.stderr)")
    }

    /// Back from Porto at 16:00 (Lisbon): Valença at 18:22 Lisbon, 19:22 Madrid. The 18:50 to
    /// Vigo (Madrid) has left; the 20:35 is the train, home at 21:30.
    @Test func backTheTrainThatHasLeftIsNotTaken() async throws {
        let (_, journeys) = try await Self.journeys(["--feed", "renfe,cp", "--from", "Porto", "--to", "Vigo", "--date", "2026-11-23", "--after", "15:00"])
        #expect(journeys.count == 1)
        #expect(journeys.first?["departure"] as? String == "2026-11-23T16:00:00+00:00")
        #expect(journeys.first?["arrival"] as? String == "2026-11-23T21:30:00+01:00")
        #expect(Self.legs(journeys.first).last?["departure"] as? String == "2026-11-23T20:35:00+01:00")
    }

    /// --after is read in the origin's feed's zone (Porto: Lisbon), or in --tz's.
    @Test func theWindowIsOnTheOriginsClockUnlessTzSays() async throws {
        // 16:30 in Lisbon is after the last train: the answer goes on into the 24th's first, and says so.
        let lisbon = try await Self.journeys(["--feed", "renfe,cp", "--from", "Porto", "--to", "Vigo", "--date", "2026-11-23", "--after", "16:30"])
        #expect(lisbon.journeys.first?["departure"] as? String == "2026-11-24T06:00:00+00:00", "\(lisbon.run.stderr)")
        #expect(lisbon.run.stderrLines.contains("no more journeys on 2026-11-23; these are 2026-11-24's"), "\(lisbon.run.stderr)")
        let madrid = try await Self.journeys(["--feed", "renfe,cp", "--from", "Porto", "--to", "Vigo", "--date", "2026-11-23", "--after", "16:30", "--tz", "Europe/Madrid"])
        #expect(madrid.journeys.first?["departure"] as? String == "2026-11-23T16:00:00+00:00", "16:30 in Madrid is 15:30 in Lisbon")
    }

    /// A board at the border station: each train at its own platform's clock, in the order they leave.
    @Test func theBorderBoardKeepsEachClock() async throws {
        let run = try await Run.transit(["gtfs", "departures", "--feed", "renfe,cp", "--stop", "Valença", "--date", "2026-11-23", "--limit", "3", "--format", "tsv"],
                                        env: Self.environment)
        #expect(run.status == 0, "\(run.stderr)")
        let rows = run.stdout.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(rows.map { $0.first ?? "" } == ["cp", "renfe", "cp"])
        #expect(rows.map { $0.dropFirst().first ?? "" } == ["2026-11-23T07:48:00+00:00", "2026-11-23T09:50:00+01:00", "2026-11-23T11:48:00+00:00"])
    }

    /// BART to Millbrae, a walk of 54 m to Caltrain's southbound platform, Caltrain to Palo Alto.
    @Test func bartThenCaltrainThroughMillbrae() async throws {
        let (_, journeys) = try await Self.journeys(["--feed", "bart", "--feed", "caltrain", "--from", "Embarcadero", "--to", "Palo Alto",
                                                     "--date", "2026-11-23", "--after", "07:00", "--limit", "2"])
        #expect(journeys.map { "\($0["departure"] ?? "") \($0["arrival"] ?? "")" }
                == ["2026-11-23T07:15:00-08:00 2026-11-23T08:30:00-08:00", "2026-11-23T07:45:00-08:00 2026-11-23T08:55:00-08:00"])
        let legs = Self.legs(journeys.first)
        #expect(legs.map { $0["to"] as? String ?? "" } == ["bart:MLBR", "caltrain:millbrae-sb", "caltrain:paloalto-sb"])
        #expect(legs.dropFirst().first?["walk_meters"] as? Int == 54)
        // With links of 50 m and no changes on foot (`--walk` pairs stops of two feeds too), the
        // southbound platform (54 m) is out of reach: what is left rides north first and turns at
        // a station up the line (a walk is never chained to the link).
        let short = try await Self.journeys(["--feed", "bart", "--feed", "caltrain", "--from", "Embarcadero", "--to", "Palo Alto",
                                             "--date", "2026-11-23", "--after", "07:00", "--before", "08:00", "--link", "50", "--walk", "0"])
        #expect(!short.journeys.isEmpty)
        for journey in short.journeys {
            #expect(Self.legs(journey).map { $0["to"] as? String ?? "" }.prefix(2) == ["bart:MLBR", "caltrain:millbrae-nb"])
            #expect(journey["transfers"] as? Int == 2)
        }
    }

    static let lateCaltrain = Paths.fixtures + "/gtfs/pairs/bay/caltrain-realtime.pb"
    /// The recording's own time, 07:40 PST, and a minute later.
    static let atTheRecording = ["TRANSIT_NOW": "2026-11-23T15:41:00Z"]

    /// Caltrain's L005 five minutes late: the journey through Millbrae arrives at 08:35, the
    /// update read with the combination's ids (`caltrain:L005`).
    @Test func realtimeDataOfOneFeedInACombination() async throws {
        let query = ["gtfs", "trips", "--feed", "bart", "--feed", "caltrain", "--from", "Embarcadero", "--to", "Palo Alto",
                     "--date", "2026-11-23", "--after", "07:00", "--limit", "1", "--format", "json"]
        let env = Self.environment.merging(Self.atTheRecording) { $1 }
        let run = try await Run.transit(query + ["--realtime", "caltrain=" + Self.lateCaltrain], env: env)
        #expect(run.status == 0, "\(run.stderr)")
        let journey = try #require(try run.records().first)
        #expect(journey["arrival"] as? String == "2026-11-23T08:35:00-08:00")
        let ride = Self.legs(journey).last
        #expect(ride?["trip_id"] as? String == "caltrain:L005")
        #expect(ride?["departure_delay_seconds"] as? Int == 300 && ride?["realtime"] as? Bool == true)
        #expect(Self.legs(journey).first?["realtime"] as? Bool == false, "BART has no data")
        // A bare source, or one for a feed not in the combination: which feed is it?
        for source in [Self.lateCaltrain, "muni=" + Self.lateCaltrain] {
            let unnamed = try await Run.transit(query + ["--realtime", source], env: env)
            #expect(unnamed.status == 2 && unnamed.stderr.contains("--realtime FEED=SOURCE (FEED one of bart, caltrain)"), "\(unnamed.stderr)")
        }
    }

    /// Across the border with real-time data: Renfe's updates are read on Madrid's clock and
    /// moved onto the query's. Ten minutes late, the 07:40 from Vigo reaches Valença at 07:45
    /// Lisbon time and the 07:48 to Porto is caught; fifteen minutes late (07:50 Lisbon), it is
    /// not, and the first journey is the 11:40; the same when the query's clock is Lisbon's.
    @Test(arguments: [(10, "2026-11-23T07:50:00+01:00", "2026-11-23T10:10:00+00:00"), (15, "2026-11-23T11:40:00+01:00", "2026-11-23T14:10:00+00:00")])
    func realtimeDataAcrossTheBorder(late: Int, departure: String, arrival: String) async throws {
        let env = Self.environment.merging(["TRANSIT_NOW": "2026-11-23T06:46:00Z"]) { $1 }
        let source = "renfe=" + Paths.fixtures + "/gtfs/pairs/border/renfe-late-\(late).pb"
        let (_, journeys) = try await Self.journeys(["--feed", "renfe,cp", "--from", "Vigo", "--to", "Porto", "--date", "2026-11-23", "--limit", "1",
                                                     "--realtime", source], env: env)
        #expect(journeys.first?["departure"] as? String == departure)
        #expect(journeys.first?["arrival"] as? String == arrival)
        // The same on Lisbon's clock (--tz): Renfe's updates are then moved by an hour, as its timetable is.
        let (_, lisbon) = try await Self.journeys(["--feed", "renfe,cp", "--from", "Vigo", "--to", "Porto", "--date", "2026-11-23", "--limit", "1",
                                                   "--realtime", source, "--tz", "Europe/Lisbon"], env: env)
        #expect(lisbon.first?["departure"] as? String == departure && lisbon.first?["arrival"] as? String == arrival)
        let trip = try await Run.transit(["gtfs", "trip", "renfe:RWK1", "--feed", "cp,renfe", "--date", "2026-11-23", "--realtime", source,
                                          "--format", "json"], env: env)
        let calls = try trip.records()
        #expect(calls.last?["arrival"] as? String == (late == 10 ? "2026-11-23T08:45:00+01:00" : "2026-11-23T08:50:00+01:00"), "\(trip.stderr)")
        #expect(calls.last?["planned_arrival"] as? String == "2026-11-23T08:35:00+01:00")
    }

    /// Vehicles and alerts of one feed of a combination: their trip, route and stop ids read as
    /// that feed's (`lakeport:SL-WK-N05`), so they find their stops and routes.
    @Test func vehiclesAndAlertsOfOneFeedInACombination() async throws {
        let env = Run.environment(["TRANSIT_NOW": "2026-11-23T13:58:00Z"])  // the recordings' time
        for (path, name) in [("lakeport", "lakeport"), ("pairs/bay/bart", "bart")] {
            #expect(try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/" + path, "--name", name], env: env).status == 0)
        }
        let rt = Paths.fixtures + "/gtfs/lakeport-realtime/"
        let vehicles = try await Run.transit(["gtfs", "vehicles", "--feed", "lakeport,bart", "--realtime", "lakeport=" + rt + "vehicle-positions.pb",
                                              "--format", "json"], env: env)
        #expect(vehicles.status == 0, "\(vehicles.stderr)")
        let rows = try vehicles.records()
        #expect(rows.count == 3 && rows.contains { $0["trip_id"] as? String == "lakeport:SL-WK-N05" && $0["stop_name"] as? String == "Harbor" })
        let alerts = try await Run.transit(["gtfs", "alerts", "--feed", "lakeport,bart", "--realtime", "lakeport=" + rt + "alerts.pb", "--stop", "lakeport:Market",
                                            "--format", "json"], env: env)
        #expect(alerts.status == 0 && alerts.stdout.contains("lakeport:MKT2"), "\(alerts.stdout) \(alerts.stderr)")
        #expect(alerts.stdout.contains("\"start\": \"2026-11-23T06:00:00-06:00\""),
                "printed in Lakeport's zone (America/Chicago), not the combination's first feed's: \(alerts.stdout)")
    }

    /// A feed's remembered source is read, as that feed's, when the feed is one of several.
    @Test func aFeedsRememberedSourceServesTheCombination() async throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.lateCaltrain))
        let server = try LoopbackServer { _ in .respond(status: 200, headers: ["Content-Type": "application/x-protobuf"], body: bytes, delay: 0) }
        defer { server.stop() }
        let env = Run.environment(Self.atTheRecording)
        for (folder, name, extra) in [("bay/bart", "bart", [String]()), ("bay/caltrain", "caltrain", ["--realtime", server.baseURL + "/caltrain.pb"])] {
            let imported = try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/pairs/" + folder, "--name", name] + extra, env: env)
            #expect(imported.status == 0, "\(imported.stderr)")
        }
        let query = ["gtfs", "trips", "--feed", "all", "--from", "Embarcadero", "--to", "Palo Alto", "--date", "2026-11-23", "--after", "07:00",
                     "--limit", "1", "--format", "tsv"]
        let live = try await Run.transit(query, env: env)
        #expect(live.status == 0, "\(live.stderr)")
        #expect(live.stdout.contains("2026-11-23T08:35:00-08:00"), "\(live.stdout)")
        #expect(server.requests.count == 1)
        let planned = try await Run.transit(query + ["--no-realtime"], env: env)
        #expect(planned.stdout.contains("2026-11-23T08:30:00-08:00") && server.requests.count == 1)
    }

    /// `feeds --feed a --feed b`: those feeds, and what their combination should know.
    @Test func feedsListsTheCombinationsFeeds() async throws {
        let run = try await Run.transit(["gtfs", "feeds", "--feed", "renfe", "--feed", "cp", "--format", "tsv"], env: Self.environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").map { $0.split(separator: "\t").prefix(3).joined(separator: " ") }
                == ["cp CP Comboios de Portugal Europe/Lisbon", "renfe Renfe Viajeros Europe/Madrid"])
        #expect(run.stderr.contains("The feeds keep their own zones"))
    }

    /// The library's door to the same: `GTFSFeed.imported([names])`.
    @Test func theLibraryCombinesToo() throws {
        let cache = try #require(Self.environment["TRANSIT_CACHE_DIR"])
        let feed = try GTFSFeed.imported(["renfe", "cp"], cacheDirectory: cache)
        let found = try feed.journeys(JourneyQuery(from: "renfe:VGO", to: "cp:Porto", date: try #require(LocalDate(iso: "2026-11-23"))))
        // On the origin's clock (Madrid): Porto's 10:10 is 11:10 there.
        let madrid = try #require(TimeZone(identifier: "Europe/Madrid"))
        #expect(found.first.map { [ClockTime.hhmm($0.departure, zone: madrid), ClockTime.hhmm($0.arrival, zone: madrid), String($0.transfers)] } == ["07:40", "11:10", "1"])
    }

    /// This issue changed the compiled format (10: the feeds of a combination and their links).
    /// A feed compiled by an older transit is not misread: queries say to compile it again,
    /// `feeds` names it, and `update` compiles it from its source, changed or not.
    @Test func aFeedOfAnOlderFormatIsCompiledAgainByUpdate() async throws {
        let env = Run.environment()
        let cache = try #require(env["TRANSIT_CACHE_DIR"])
        #expect(try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/lakeport", "--name", "lakeport"], env: env).status == 0)
        let file = cache + "/gtfs/lakeport.timetable"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        let magic = Array("transit-feed ".utf8)
        #expect(Array(bytes.prefix(magic.count)) == magic && bytes[magic.count + 2] == UInt8(ascii: "\n"))
        bytes.replaceSubrange(magic.count..<magic.count + 2, with: Array("08".utf8))  // the format of issue 21
        try bytes.write(to: URL(fileURLWithPath: file))
        let query = ["gtfs", "departures", "--stop", "Harbor", "--date", "2026-11-23", "--after", "08:00", "--limit", "1"]
        for args in [query, query + ["--feed", "lakeport"]] {
            let old = try await Run.transit(args, env: env)
            #expect(old.status != 0 && old.stdout.isEmpty)
            #expect(old.stderr.contains("compiled by another version of transit") && old.stderr.contains("transit gtfs update"), "\(old.stderr)")
        }
        let feeds = try await Run.transit(["gtfs", "feeds"], env: env)
        #expect(feeds.stdout.isEmpty && feeds.stderr.contains("compiled by another version of transit: lakeport"), "\(feeds.stderr)")
        let update = try await Run.transit(["gtfs", "update", "--format", "tsv"], env: env)
        #expect(update.status == 0 && update.stdout.hasPrefix("lakeport\tupdated"), "\(update.stdout) \(update.stderr)")
        let again = try await Run.transit(query, env: env)
        #expect(again.status == 0 && !again.stdout.isEmpty, "\(again.stderr)")
    }

    /// A combination that cannot be kept (here `.combined` is a file, as a full disk or a
    /// read-only cache would refuse it) is still answered, with one warning line.
    @Test func aCombinationThatCannotBeKeptIsStillAnswered() async throws {
        let env = Run.environment()
        let cache = try #require(env["TRANSIT_CACHE_DIR"])
        for name in ["renfe", "cp"] {
            #expect(try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/pairs/border/" + name, "--name", name], env: env).status == 0)
        }
        #expect(FileManager.default.createFile(atPath: cache + "/gtfs/.combined", contents: Data("in the way".utf8)))
        let run = try await Run.transit(["gtfs", "trips", "--feed", "renfe,cp", "--from", "Vigo", "--to", "Porto", "--date", "2026-11-23", "--limit", "1",
                                         "--format", "tsv"], env: env)
        #expect(run.status == 0 && run.stdout.hasPrefix("renfe:VGO\tcp:94-31609\t2026-11-23T07:40:00+01:00"), "\(run.stderr)")
        #expect(run.stderrLines.filter { $0.contains("the combination is not kept (cannot write") }.count == 1, "\(run.stderr)")
        #expect(try String(contentsOfFile: cache + "/gtfs/.combined", encoding: .utf8) == "in the way")
    }

    // Bad input over several feeds: one line, exit 2, nothing on stdout.
    @Test(arguments: [
        (["--link", "0"], "--link takes meters from 1 to 5000"), (["--link", "6000"], "--link takes meters from 1 to 5000"),
        (["--link", "-5"], "--link takes meters"), (["--radius", "0"], "--radius takes meters from 1 to 5000"),
        (["--tz", "Mars/Olympus"], "--tz takes an IANA zone name"),
    ])
    func badValuesAreUsageErrors(_ extra: [String], _ message: String) async throws {
        let run = try await Run.transit(["gtfs", "trips", "--feed", "bart", "--feed", "caltrain", "--from", "Embarcadero", "--to", "Palo Alto", "--date", "2026-11-23"] + extra,
                                        env: Self.environment)
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }

    @Test(arguments: ["91,0", "37.7,-181", "37.7;-122.4", "37.7,-122.4,3"])
    func badCoordinatesAreUsageErrors(_ point: String) async throws {
        let run = try await Run.transit(["gtfs", "trips", "--feed", "bart", "--feed", "caltrain", "--from", point, "--to", "Palo Alto", "--date", "2026-11-23"],
                                        env: Self.environment)
        #expect(run.status == 2, "\(point): \(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    @Test func farFromEveryStopNamesTheNearest() async throws {
        let run = try await Run.transit(["gtfs", "trips", "--feed", "bart", "--feed", "caltrain", "--from", "37.7793,-122.4500", "--to", "Palo Alto", "--date", "2026-11-23"],
                                        env: Self.environment)
        #expect(run.status == 2)
        #expect(run.stderr.contains("no stop within 1000 m of 37.7793,-122.4500; the nearest is"), "\(run.stderr)")
    }

    @Test func feedAllWithNothingImported() async throws {
        let run = try await Run.transit(["gtfs", "stops", "--feed", "all"])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("transit: --feed all: no GTFS feed is imported"), "\(run.stderr)")
    }

    /// The station index the compiled file keeps (each station's stops) is the one its
    /// `stopParent` makes, for a feed with stations and for a combination of it with another,
    /// before and after the file is written and read back.
    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func stationsKeepTheirStopsInTheFileAndInACombination() throws {
        let caltrain = try GTFSCompiler.compile(try FeedFiles.open(Reference.path("gtfs/feeds/caltrain-20160406"))).0
        let lakeport = try GTFSCompiler.compile(try FeedFiles.open(Paths.fixtures + "/gtfs/lakeport")).0
        let combined = try TimetableCombination.combine([("lakeport", lakeport), ("caltrain", caltrain)])
        for t in [caltrain, combined, try TimetableFile.decode(TimetableFile.encode(combined), path: "x")] {
            var byParent: [Int: [Int]] = [:]
            for stop in 0..<t.stopCount where t.stopParent[stop] >= 0 { byParent[Int(t.stopParent[stop]), default: []].append(stop) }
            #expect(byParent.count > 20, "Caltrain's stations")
            let children = StationChildren(t)
            #expect((0..<t.stopCount).allSatisfy { children.of($0) == (byParent[$0] ?? []) })
        }
    }

    /// A combination's file round-trips with its feeds, and damage anywhere in it is an error or
    /// a timetable the router reads without trapping (the feeds' ranges are checked at load).
    @Test func theCombinedFileRoundTripsAndRefusesDamage() throws {
        let parts = try ["renfe", "cp"].map { name in
            (name, try GTFSCompiler.compile(try FeedFiles.open(Paths.fixtures + "/gtfs/pairs/border/" + name)).0)
        }
        let t = try TimetableCombination.combine(parts)
        #expect(t.feedCount == 2 && t.stopIDs[0] == "renfe:VGO" && t.feed(ofStop: t.stopCount - 1) == 1)
        #expect(t.serviceIDs.count == 4, "each feed's WK and WE are services of their own")
        let data = TimetableFile.encode(t)
        let back = try TimetableFile.decode(data, path: "x")
        #expect(back.feedNames == t.feedNames && back.feedZones == t.feedZones && back.feedStopStart == t.feedStopStart
                && back.feedTransferStart == t.feedTransferStart && back.times == t.times && back.serviceDays == t.serviceDays)
        let day = try #require(LocalDate(iso: "2026-11-23")).dayNumber
        var generator = SplitMix(seed: 22)
        for _ in 0..<300 {
            var damaged = data
            for _ in 0..<4 {
                // Mostly in the feed sections at the end, where this issue added fields.
                let i = Bool.random(using: &generator) ? Int.random(in: max(0, damaged.count - 600)..<damaged.count, using: &generator)
                                                       : Int.random(in: 0..<damaged.count, using: &generator)
                damaged[i] = UInt8.random(in: 0...255, using: &generator)
            }
            if let table = try? TimetableFile.decode(damaged, path: "x"), table.stopCount > 1 {
                _ = Router(table, Router.Query(origins: [0], destinations: [table.stopCount - 1], day: day, maxTransfers: 2, minTransfer: 120)).journeys()
            }
        }
    }

    /// The map README links to is what the command prints (regenerate: the command in README,
    /// with `--format geojson > docs/maps/reach-24th-st.geojson`).
    @Test func theReadmeMapIsWhatReachPrints() async throws {
        let run = try await Run.transit(["gtfs", "reach", "--feed", "bart", "--feed", "caltrain", "--from", "24th St", "--date", "2026-11-23",
                                         "--after", "07:50", "--minutes", "44", "--format", "geojson"], env: Self.environment)
        #expect(run.status == 0, "\(run.stderr)")
        let map = try String(contentsOfFile: Paths.root.appendingPathComponent("docs/maps/reach-24th-st.geojson").path, encoding: .utf8)
        #expect(run.stdout == map)
        #expect(map.contains("caltrain:burlingame-sb"))
    }

    /// Reach over both feeds: BART's stations and, past Millbrae, Caltrain's, each arrival on
    /// a ride, in GeoJSON Points with the fields as properties.
    @Test func reachCrossesIntoTheOtherFeed() async throws {
        let run = try await Run.transit(["gtfs", "reach", "--feed", "bart", "--feed", "caltrain", "--from", "Embarcadero", "--date", "2026-11-23",
                                         "--after", "08:00", "--minutes", "90", "--format", "geojson"], env: Self.environment)
        #expect(run.status == 0, "\(run.stderr)")
        let collection = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let properties = (collection["features"] as? [[String: Any]] ?? []).compactMap { $0["properties"] as? [String: Any] }
        let stops = Set(properties.compactMap { $0["stop_id"] as? String })
        #expect(stops.contains("bart:MLBR") && stops.contains("caltrain:paloalto-sb"))
        let paloAlto = properties.first { $0["stop_id"] as? String == "caltrain:paloalto-sb" }
        #expect(paloAlto?["arrival"] as? String == "2026-11-23T09:30:00-08:00")
        #expect(paloAlto?["transfers"] as? Int == 1)
    }
}
