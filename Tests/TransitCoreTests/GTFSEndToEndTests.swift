import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport
import TransitTestSupport

/// `transit gtfs …` through the built binary, as scripts see it.
@Suite struct GTFSEndToEndTests {
    let zip = Reference.feed("caltrain-20160406/caltrain_20160406.zip")

    func env(_ cache: String, _ extra: [String: String] = [:]) -> [String: String] {
        Run.environment(["TRANSIT_CACHE_DIR": cache], extra)
    }

    /// On the clock of Lakeport's real-time fixture (published 07:58 on 2026-11-23): a clock
    /// pinned a day before refuses it as data from the future.
    func live(_ cache: String) -> [String: String] { env(cache, ["TRANSIT_NOW": "2026-11-23T13:58:00Z"]) }

    @Test func aFrequencyRunIsNamedByItsStartOnTheBoardAndInLegs() async throws {
        // Every 10 minutes from 08:00 on the loop A, X, D, B, X; one trip that runs once.
        let feed = TestFeed([
            "stops.txt": TestFeed.stops(["A", "X", "D", "B"]),
            "trips.txt": "route_id,service_id,trip_id\nR,S,loop\nQ,S,once\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nloop,08:00:00,08:00:00,A,1\nloop,08:05:00,08:05:00,X,2\n"
                + "loop,08:10:00,08:10:00,D,3\nloop,08:20:00,08:20:00,B,4\nloop,08:25:00,08:25:00,X,5\nonce,09:15:00,09:15:00,B,1\nonce,09:45:00,09:45:00,D,2\n",
            "frequencies.txt": "trip_id,start_time,end_time,headway_secs\nloop,08:00:00,09:00:00,600\n",
        ])
        let cache = Paths.temporary()
        let board = try await Run.transit(["--format", "json", "gtfs", "departures", "--feed", feed.directory, "--stop", "B",
                                           "--date", "2026-11-23", "--limit", "3"], env: env(cache))
        #expect(board.status == 0, "\(board.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(board.stdout.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["trip_start"] as? String } == ["08:00:00", "08:10:00", "08:20:00"])
        let later = try await Run.transit(["--format", "json", "gtfs", "departures", "--feed", feed.directory, "--stop", "B",
                                           "--date", "2026-11-23", "--after", "09:11"], env: env(cache))
        let once = try #require((try JSONSerialization.jsonObject(with: Data(later.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(once["trip_id"] as? String == "once" && once["trip_start"] is NSNull)
        let trips = try await Run.transit(["--format", "json", "gtfs", "trips", "--feed", feed.directory, "--from", "B", "--to", "D",
                                           "--date", "2026-11-23", "--limit", "1"], env: env(cache))
        let legs = try #require((try JSONSerialization.jsonObject(with: Data(trips.stdout.utf8)) as? [[String: Any]])?.first?["legs"] as? [[String: Any]])
        #expect(legs.map { $0["trip_start"] as? String } == ["08:00:00", "08:30:00"])
    }

    /// A journey table at 80 columns keeps, on every row, when it leaves and arrives, how long,
    /// how many changes, where to board and where and when to change, and each line's name: where
    /// the rides head gives way first (BART then Caltrain, two feeds, the table a terminal shows).
    @Test func aJourneyTableAtEightyColumnsKeepsWhereToBoardAndChange() async throws {
        let cache = Paths.temporary()
        for (source, name) in [("pairs/bay/bart", "bart"), ("pairs/bay/caltrain", "caltrain")] {
            let imported = try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/" + source, "--name", name], env: env(cache))
            #expect(imported.status == 0, "\(imported.stderr)")
        }
        let out = Locked(""), err = Locked("")
        let app = App(terminal: Terminal(stdout: true, stderr: false), writeOut: { text in out.withLock { $0 += text } },
                      writeErr: { text in err.withLock { $0 += text } })
        let status = await app.run(["gtfs", "trips", "--feed", "bart", "--feed", "caltrain", "--from", "Embarcadero", "--to", "Palo Alto",
                                    "--date", "2026-11-23", "--after", "07:00", "--limit", "3"],
                                   environment: env(cache, ["COLUMNS": "80", "NO_COLOR": "1"]))
        let lines = out.current.split(separator: "\n").map(String.init)
        #expect(status == 0 && lines.count == 4, "\(err.current)")
        #expect(lines.first?.hasPrefix("DEPART  ARRIVE  MIN  CHG  FROM         CHANGE AT       JOURNEY") == true, "\(lines)")
        for line in lines { #expect(TextWidth.of(line) <= 80, "\(line)") }
        #expect(lines.dropFirst().allSatisfy { $0.contains("Embarcadero  Millbrae ") && !$0.contains("…") }, "\(lines)")
        #expect(lines.dropFirst().first == "07:15   08:30    75    1  Embarcadero  Millbrae 07:58  Red → walk 54 m → Local", "\(lines)")
    }

    /// A journey from a point says where and when to board after the walk (FROM, issue 44: the
    /// time the ride boards, as DEPART says when to leave), and `gtfs trip`'s table heads the
    /// column that says a call is skipped.
    @Test func aPointsJourneySaysWhereToBoardAndATripItsNotes() async throws {
        let cache = Paths.temporary(), feed = ["--feed", Paths.fixtures + "/gtfs/lakeport"]
        let run = try await Run.transit(["gtfs", "trips", "--from", "41.8800,-87.6400", "--to", "Stadium", "--radius", "1500", "--date", "2026-11-23",
                                         "--after", "07:00", "--limit", "1", "--format", "table"] + feed, env: env(cache))
        #expect(run.status == 0 && run.stdoutLines.count == 2, "\(run.stderr)")
        let columns = run.stdoutLines.first.map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) } ?? []
        #expect(columns == ["DEPART", "ARRIVE", "MIN", "CHG", "FROM", "CHANGE", "AT", "JOURNEY"], "\(run.stdout)")
        #expect(run.stdoutLines.last?.hasPrefix("07:05 ") == true && run.stdoutLines.last?.contains("  University 07:23  ") == true
                && run.stdoutLines.last?.contains("walk 1269 m → SL") == true, "\(run.stdout)")
        let trip = try await Run.transit(["gtfs", "trip", "22-WK-03", "--date", "2026-11-23", "--format", "table", "--realtime",
                                          Paths.fixtures + "/gtfs/lakeport-realtime/trip-updates.pb"] + feed, env: live(cache))
        #expect(trip.stdoutLines.first?.hasSuffix("NOTE") == true && trip.stdout.contains("Hillcrest") && trip.stdout.contains("skipped"), "\(trip.stdout)")
    }

    /// With several feeds imported and none named, the feed that has the stops asked for answers
    /// (README's examples keep working beside BART and Caltrain); where none or several do, the
    /// error names them and says how to choose; an unknown stop's hint looks in every feed.
    @Test func severalImportedFeedsAnswerWhereTheStopsAre() async throws {
        let cache = Paths.temporary()
        for (source, name) in [("lakeport", "lakeport"), ("pairs/bay/bart", "bart"), ("pairs/bay/caltrain", "caltrain")] {
            let imported = try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/" + source, "--name", name], env: env(cache))
            #expect(imported.status == 0, "\(imported.stderr)")
        }
        let board = ["gtfs", "departures", "--stop", "Old Town", "--date", "2026-11-23", "--after", "08:00", "--limit", "4"]
        let chosen = try await Run.transit(board, env: env(cache)), named = try await Run.transit(board + ["--feed", "lakeport"], env: env(cache))
        #expect(chosen.status == 0 && chosen.stdout == named.stdout && !chosen.stdout.isEmpty, "\(chosen.stderr)")
        #expect(chosen.stderrLines == ["lakeport is the one of 3 imported feeds with Old Town; --feed chooses"])
        let both = try await Run.transit(["gtfs", "departures", "--stop", "Millbrae", "--date", "2026-11-23"], env: env(cache))
        #expect(both.status == 2 && both.stderrLines.first == "transit: 3 feeds are imported (bart, caltrain, lakeport) and bart and caltrain have Millbrae: say which with --feed NAME, or --feed all for every feed as one network")
        let across = try await Run.transit(["gtfs", "trips", "--from", "Embarcadero", "--to", "Palo Alto", "--date", "2026-11-23"], env: env(cache))
        #expect(across.status == 2 && across.stderr.contains("none has Embarcadero and Palo Alto") && across.stderr.contains("--feed all"))
        let unknown = try await Run.transit(["gtfs", "departures", "--feed", "bart", "--stop", "Old Town", "--date", "2026-11-23"], env: env(cache))
        #expect(unknown.status == 2 && unknown.stderr.contains("transit gtfs stops --feed all --name \"Old\""), "\(unknown.stderr)")
    }

    /// `gtfs update` tries every feed: a broken source is named, the others update, and the exit
    /// status says that one failed.
    @Test func updateTriesEveryFeedAndNamesTheBrokenOne() async throws {
        let cache = Paths.temporary(), work = Paths.temporary()
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        // bart from a copy of its directory, which then breaks (trips.txt loses its columns); caltrain as it is.
        try FileManager.default.copyItem(atPath: Paths.fixtures + "/gtfs/pairs/bay/bart", toPath: work + "/bart")
        for (source, name) in [(work + "/bart", "bart"), (Paths.fixtures + "/gtfs/pairs/bay/caltrain", "caltrain")] {
            let imported = try await Run.transit(["gtfs", "import", source, "--name", name], env: env(cache))
            #expect(imported.status == 0, "\(imported.stderr)")
        }
        try "stop_id,stop_name\n".write(toFile: work + "/bart/trips.txt", atomically: true, encoding: .utf8)
        let run = try await Run.transit(["gtfs", "update"], env: env(cache))
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stdoutLines.contains { $0.hasPrefix("caltrain\tunchanged") }, "\(run.stdout)")
        #expect(run.stderrLines.contains { $0.hasPrefix("bart: not updated from \(work)/bart: ") && $0.hasSuffix("; kept as it was") }, "\(run.stderr)")
        #expect(run.stderrLines.last == "transit: 1 of 2 feeds could not be updated: bart")
    }

    /// A remembered real-time source that is down never takes the answer down: boards, journeys,
    /// one trip and reach answer from the timetable, exit 0, with one notice naming the source and
    /// why; vehicles and alerts, which have nothing to show without it, fail (exit 1).
    @Test func aSourceThatIsDownLeavesTheTimetable() async throws {
        let server = try LoopbackServer { request in request.path == "/garbage.pb" ? .garbage(Data("not protobuf at all".utf8)) : .close }
        defer { server.stop() }
        let cache = Paths.temporary()
        let imported = try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/lakeport", "--realtime", server.baseURL + "/down.pb"], env: env(cache))
        #expect(imported.status == 0, "\(imported.stderr)")
        let day = ["--date", "2026-11-23"]
        for query in [["departures", "--stop", "Harbor", "--after", "08:00", "--limit", "2"],
                      ["trips", "--from", "Harbor", "--to", "Stadium", "--after", "08:00", "--limit", "2"],
                      ["trip", "SL-WK-N05"], ["reach", "--from", "Harbor", "--after", "08:00", "--minutes", "20"]] {
            let run = try await Run.transit(["gtfs"] + query + day, env: env(cache))
            #expect(run.status == 0 && !run.stdout.isEmpty, "\(query): \(run.status) \(run.stderr)")
            #expect(run.stderrLines.count == 1 && run.stderr.hasPrefix("not live: ") && run.stderr.contains(server.baseURL + "/down.pb")
                    && run.stderr.contains("the times are as planned"), "\(query): \(run.stderr)")
            // The same answer as without real-time data (a board keeps the columns a real-time
            // board has, so that a script's columns do not move with the source's health).
            let planned = try await Run.transit(["gtfs"] + query + day + ["--no-realtime"], env: env(cache))
            let columns = { (run: Run) in run.stdoutLines.map { $0.split(separator: "\t", omittingEmptySubsequences: false).prefix(6).joined(separator: "\t") } }
            #expect(columns(planned) == columns(run), "\(query)")
        }
        // Given on the command line, and garbage rather than down: the same.
        let given = try await Run.transit(["gtfs", "departures", "--stop", "Harbor", "--after", "08:00", "--limit", "2", "--realtime",
                                           server.baseURL + "/garbage.pb"] + day, env: env(cache))
        #expect(given.status == 0 && given.stderrLines.count == 1 && given.stderr.hasPrefix("not live: "), "\(given.stderr)")
        for command in ["vehicles", "alerts"] {
            let run = try await Run.transit(["gtfs", command], env: env(cache))
            #expect(run.status == 1 && run.stdout.isEmpty && run.stderr.contains(server.baseURL), "\(command): \(run.stderr)")
        }
    }

    /// Real-time data has one path: a board, one trip's calls and journeys all read the same
    /// overlay, so each says the same of a call. On the bundled Lakeport at 07:58 (a late train,
    /// a run that waits, a cancellation, a skipped stop, an added train): every call a board
    /// lists is the call `gtfs trip` shows, time, plan and status; every ride of a journey
    /// leaves and arrives when that trip's page says.
    @Test func boardsTripsAndJourneysReadOneOverlay() async throws {
        let cache = Paths.temporary(), rt = Paths.fixtures + "/gtfs/lakeport-realtime/trip-updates.pb"
        let imported = try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/lakeport"], env: live(cache))
        #expect(imported.status == 0, "\(imported.stderr)")
        func calls(_ trip: String, start: String?) async throws -> [[String: Any]] {
            let run = try await Run.transit(["--format", "json", "gtfs", "trip", trip, "--date", "2026-11-23", "--realtime", rt]
                                            + (start.map { ["--start", $0] } ?? []), env: live(cache))
            #expect(run.status == 0, "\(trip): \(run.stderr)")
            return try run.records()
        }
        var statuses = Set<String>()
        for stop in ["Harbor", "Market", "Old Town"] {
            let board = try await Run.transit(["--format", "json", "gtfs", "departures", "--stop", stop, "--date", "2026-11-23",
                                               "--after", "07:55", "--limit", "12", "--realtime", rt], env: live(cache))
            #expect(board.status == 0, "\(board.stderr)")
            for row in try board.records() {
                let trip = try #require(row["trip_id"] as? String), status = try #require(row["status"] as? String)
                statuses.insert(status)
                let page = try await calls(trip, start: row["trip_start"] as? String)
                let call = page.first { $0["stop_id"] as? String == row["platform"] as? String && $0["status"] as? String == status
                                        && String(describing: $0["planned_departure"] ?? "") == String(describing: row["planned_time"] ?? "") }
                #expect(call != nil, "\(stop): \(trip) \(status) at \(row["planned_time"] ?? "")")
                #expect(String(describing: call?["departure"] ?? "") == String(describing: row["time"] ?? ""), "\(trip) at \(stop)")
            }
        }
        #expect(statuses.isSuperset(of: ["scheduled", "updated", "canceled", "added"]), "\(statuses)")
        let journeys = try await Run.transit(["--format", "json", "gtfs", "trips", "--from", "Harbor", "--to", "Stadium", "--date", "2026-11-23",
                                              "--after", "07:55", "--limit", "4", "--realtime", rt], env: live(cache))
        #expect(journeys.status == 0, "\(journeys.stderr)")
        var rides = 0
        for journey in try journeys.records() {
            for leg in (journey["legs"] as? [[String: Any]] ?? []) where leg["mode"] as? String == "ride" {
                let page = try await calls(try #require(leg["trip_id"] as? String), start: leg["trip_start"] as? String)
                let from = page.first { $0["stop_id"] as? String == leg["from"] as? String }, to = page.last { $0["stop_id"] as? String == leg["to"] as? String }
                #expect(from?["departure"] as? String == leg["departure"] as? String && to?["arrival"] as? String == leg["arrival"] as? String, "\(leg)")
                rides += 1
            }
        }
        #expect(rides >= 4)
    }

    /// Feeds you can manage: the import name drops `.gtfs` as well as `.zip`, the source is kept
    /// as an absolute path, a feed's name given as a source says what it is, and `remove` forgets.
    @Test func feedsYouCanManage() async throws {
        let cache = Paths.temporary(), work = Paths.temporary()
        try FileManager.default.copyItem(atPath: Paths.fixtures + "/gtfs/lakeport", toPath: work + "/city.gtfs")
        let imported = try await Run.transit(["gtfs", "import", work + "/city.gtfs"], env: env(cache))
        #expect(imported.status == 0 && imported.stdoutLines.first?.hasPrefix("city\t") == true, "\(imported.stdout) \(imported.stderr)")
        let again = try await Run.transit(["gtfs", "import", "city"], env: env(cache))
        #expect(again.status == 2 && again.stderrLines == ["transit: 'city' is the name of an imported feed (from \(work)/city.gtfs); import takes its source: a GTFS zip, a directory or an http(s) URL"])
        let feeds = try await Run.transit(["gtfs", "feeds"], env: env(cache))
        #expect(feeds.stdoutLines.first?.hasSuffix("\t\(work)/city.gtfs") == true, "\(feeds.stdout)")
        // update: a file read again only when it changed, and what changed said.
        let unchanged = try await Run.transit(["gtfs", "update", "city"], env: env(cache))
        #expect(unchanged.status == 0 && unchanged.stdoutLines == ["city\tunchanged\t2026-01-01\t2026-12-31\t220\t959\t"], "\(unchanged.stdout) \(unchanged.stderr)")
        let calendar = work + "/city.gtfs/calendar.txt"
        let text = try String(contentsOfFile: calendar, encoding: .utf8)
        // Edited in place, as an editor does: the directory's own time stays.
        let handle = try #require(FileHandle(forWritingAtPath: calendar))
        try handle.write(contentsOf: Data(text.replacingOccurrences(of: "20261231", with: "20270131").utf8))
        try handle.close()
        let updated = try await Run.transit(["gtfs", "update"], env: env(cache))
        #expect(updated.stdoutLines == ["city\tupdated\t2026-01-01\t2027-01-31\t220\t959\tdates 2026-01-01…2026-12-31 → 2026-01-01…2027-01-31"], "\(updated.stdout) \(updated.stderr)")
        let unknown = try await Run.transit(["gtfs", "update", "town"], env: env(cache))
        #expect(unknown.status == 2 && unknown.stderrLines == ["transit: no imported feed named 'town'; imported: city"])
        let removed = try await Run.transit(["gtfs", "remove", "city"], env: env(cache))
        #expect(removed.status == 0 && removed.stdoutLines == ["city"])
        #expect(!FileManager.default.fileExists(atPath: cache + "/gtfs/city.timetable"))
        let gone = try await Run.transit(["gtfs", "remove", "city"], env: env(cache))
        #expect(gone.status == 2 && gone.stderrLines == ["transit: no imported feed named 'city'; none is imported"])
    }

    /// `update` asks a URL whether the feed changed (If-None-Match with the ETag of the import):
    /// a 304 leaves it as it was; a new ETag imports it again.
    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func updateAsksTheServerWhetherTheFeedChanged() async throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: zip))
        let version = Locked("v1")
        let server = try LoopbackServer { request in
            let current = version.current
            if request.headers["if-none-match"] == "\"\(current)\"" { return .status(304) }
            return .respond(status: 200, headers: ["Content-Type": "application/zip", "ETag": "\"\(current)\""], body: bytes, delay: 0)
        }
        defer { server.stop() }
        let cache = Paths.temporary()
        let imported = try await Run.transit(["gtfs", "import", server.baseURL + "/feeds/caltrain.zip"], env: env(cache))
        #expect(imported.status == 0, "\(imported.stderr)")
        let same = try await Run.transit(["gtfs", "update", "caltrain"], env: env(cache))
        #expect(same.status == 0 && same.stdoutLines.first?.hasPrefix("caltrain\tunchanged\t") == true, "\(same.stdout) \(same.stderr)")
        #expect(server.requests.last?.headers["if-none-match"] == "\"v1\"")
        version.withLock { $0 = "v2" }
        let changed = try await Run.transit(["gtfs", "update", "caltrain"], env: env(cache))
        #expect(changed.stdoutLines.first?.hasPrefix("caltrain\tupdated\t") == true, "\(changed.stdout) \(changed.stderr)")
        let again = try await Run.transit(["gtfs", "update"], env: env(cache))
        #expect(again.stdoutLines.first?.hasPrefix("caltrain\tunchanged\t") == true && server.requests.last?.headers["if-none-match"] == "\"v2\"")
    }

    /// A feed given by path is compiled again when a file in its directory is edited in place
    /// (the directory's own size and time do not change then).
    @Test func aFeedDirectoryEditedInPlaceIsCompiledAgain() async throws {
        let cache = Paths.temporary(), work = Paths.temporary()
        try FileManager.default.copyItem(atPath: Paths.fixtures + "/gtfs/lakeport", toPath: work + "/feed")
        let args = ["gtfs", "departures", "--feed", work + "/feed", "--stop", "Harbor", "--date", "2026-11-26", "--limit", "1"]
        let holiday = try await Run.transit(args, env: env(cache))
        #expect(holiday.stdoutLines.first?.hasPrefix("2026-11-26T07:00:00") == true, "\(holiday.stdout) \(holiday.stderr)")
        // No more holiday: the weekday timetable, from 06:00.
        let handle = try #require(FileHandle(forWritingAtPath: work + "/feed/calendar_dates.txt"))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data("service_id,date,exception_type\n".utf8))
        try handle.close()
        let weekday = try await Run.transit(args, env: env(cache))
        #expect(weekday.stdoutLines.first?.hasPrefix("2026-11-26T06:00:00") == true, "\(weekday.stdout) \(weekday.stderr)")
    }

    /// One trip's calls: where a journey's intermediate stops are; a frequencies.txt run by --start.
    @Test func oneTripsCalls() async throws {
        let cache = Paths.temporary()
        let feed = ["--feed", Paths.fixtures + "/gtfs/lakeport"]
        let table = try await Run.transit(["gtfs", "trip", "SL-WK-N03", "--date", "2026-11-23", "--format", "table"] + feed, env: env(cache))
        #expect(table.status == 0 && table.stdoutLines == [
            "SEQ  STOP  NAME        ARRIVE  DEPART", "  1  HBR2  Harbor              07:00", "  2  MKT2  Market      07:03   07:03",
            "  3  UNI2  University  07:07   07:07", "  4  APT2  Airport     07:12   07:13", "  5  NGT2  Northgate   07:17   07:17",
            "  6  RVS2  Riverside   07:21"], "\(table.stdout)")
        let run = try await Run.transit(["gtfs", "trip", "M1-WK-E", "--date", "2026-11-23", "--start", "08:00:00", "--format", "json"] + feed, env: env(cache))
        let calls = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        #expect(calls.count == 5 && calls.first?["departure"] as? String == "2026-11-23T08:00:00-06:00" && calls.first?["arrival"] is NSNull)
        #expect(calls.last?["stop_id"] as? String == "M_LKS" && calls.last?["status"] as? String == "scheduled" && calls.last?["realtime"] as? Bool == false)
        // Without --start, the next run from now (14:00 here), and a notice of the others.
        let next = try await Run.transit(["gtfs", "trip", "M1-WK-E", "--date", "2026-11-23"] + feed,
                                         env: Run.environment(["TRANSIT_CACHE_DIR": cache, "TRANSIT_NOW": "2026-11-23T20:00:00Z"], [:]))
        #expect(next.stdoutLines.first?.hasPrefix("1\tM_MKT\tMarket\tm_mkt\t\t2026-11-23T14:00:00-06:00") == true, "\(next.stdout)")
        #expect(next.stderrLines == ["Trip M1-WK-E runs 164 times on 2026-11-23 (06:00:00, 06:06:00 … 23:50:00); this is the run of 14:00:00; --start HH:MM:SS picks another"])
        let wrong = try await Run.transit(["gtfs", "trip", "M1-WK-E", "--date", "2026-11-23", "--start", "08:01:00"] + feed, env: env(cache))
        #expect(wrong.status == 2 && wrong.stderr.contains("has no run starting at 08:01:00"))
        let holiday = try await Run.transit(["gtfs", "trip", "SL-WK-N03", "--date", "2026-11-26"] + feed, env: env(cache))
        #expect(holiday.status == 0 && holiday.stdout.isEmpty && holiday.stderrLines == ["Trip SL-WK-N03 does not run on 2026-11-26"])
        let unknown = try await Run.transit(["gtfs", "trip", "nope"] + feed, env: env(cache))
        #expect(unknown.status == 2 && unknown.stderr.hasPrefix("transit: unknown trip_id 'nope' in feed lakeport"))
    }

    /// Journeys on a map: one MultiLineString each, a line a leg through the stops it calls at
    /// (Lakeport has no shapes; issue 45: it was one LineString), its fields as properties.
    @Test func tripsAsGeoJSON() async throws {
        let run = try await Run.transit(["gtfs", "trips", "--feed", Paths.fixtures + "/gtfs/lakeport", "--from", "Harbor", "--to", "Stadium",
                                         "--date", "2026-11-23", "--after", "07:00", "--limit", "2", "--format", "geojson"], env: env(Paths.temporary()))
        #expect(run.status == 0, "\(run.stderr)")
        let collection = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let features = try #require(collection["features"] as? [[String: Any]])
        #expect(collection["type"] as? String == "FeatureCollection" && features.count == 2)
        let geometry = try #require(features.first?["geometry"] as? [String: Any])
        let lines = try #require(geometry["coordinates"] as? [[[Double]]])
        // Harbor, Market (rail); the walk to the M1's Market; Market, Old Town, Museum, Stadium:
        // [longitude, latitude].
        #expect(geometry["type"] as? String == "MultiLineString" && lines.map(\.count) == [2, 2, 4], "\(lines)")
        #expect(lines.first?.first == [-87.6121, 41.8403] && lines.last?.last == [-87.5957, 41.8741])
        let properties = try #require(features.first?["properties"] as? [String: Any])
        #expect(properties["departure"] as? String == "2026-11-23T07:00:00-06:00" && (properties["legs"] as? [Any])?.count == 3)
    }

    /// An unknown stop names the feed and how to look; coordinates are not a stop for a board (a
    /// journey takes them: CoordinateCommandTests); a date the feed does not cover says what it covers.
    @Test func whatWentWrongAndWhereToLook() async throws {
        let cache = Paths.temporary()
        let feed = ["--feed", Paths.fixtures + "/gtfs/lakeport"]
        let unknown = try await Run.transit(["gtfs", "departures", "--stop", "Zzzzq"] + feed, env: env(cache))
        #expect(unknown.status == 2 && unknown.stderrLines == ["transit: unknown stop 'Zzzzq' in feed lakeport; look for it with: transit gtfs stops --name \"Zzz\""])
        let point = try await Run.transit(["gtfs", "departures", "--stop", "41.84,-87.61"] + feed, env: env(cache))
        #expect(point.status == 2 && point.stderr.contains("looks like coordinates") && point.stderr.contains("transit gtfs stops --near 41.84,-87.61"))
        let later = try await Run.transit(["gtfs", "departures", "--stop", "Harbor", "--date", "2027-02-01"] + feed, env: env(cache))
        #expect(later.status == 0 && later.stdout.isEmpty && later.stderrLines == ["No departures from Harbor on 2027-02-01 (the feed covers 2026-01-01 to 2026-12-31)"])
        // One check that the ends differ, one message, whether typed alike or resolved alike
        // (a station and its platforms' name), for each command that takes both ends.
        for (command, from, to) in [("trips", "Harbor", "harbor"), ("trips", "HBR", "Harbor"), ("fares", "Harbor", "HBR"), ("journey", "Harbor", "HARBOR")] {
            let args = ["gtfs", command] + (command == "journey" ? ["SL-WK-N05"] : []) + ["--from", from, "--to", to, "--date", "2026-11-23"] + feed
            let same = try await Run.transit(args, env: env(cache))
            #expect(same.status == 2 && same.stdout.isEmpty && same.stderrLines == ["transit: --from and --to are the same stop"], "\(args): \(same.stderr)")
        }
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func importStopsDeparturesAndTripsInJSONAndTSV() async throws {
        let cache = Paths.temporary()
        let imported = try await Run.transit(["gtfs", "import", zip, "--format", "json"], env: env(cache))
        #expect(imported.status == 0)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(imported.stdout.utf8)) as? [String: Any])
        #expect(summary["name"] as? String == "caltrain_20160406" && summary["stop_times"] as? Int == 3103)
        #expect(summary["time_zone"] as? String == "America/Los_Angeles" && summary["first_date"] as? String == "2014-03-23")
        #expect(FileManager.default.fileExists(atPath: cache + "/gtfs/caltrain_20160406.timetable"))

        let stops = try await Run.transit(["gtfs", "stops", "--name", "palo alto", "--header"], env: env(cache))
        #expect(stops.status == 0)
        #expect(stops.stdoutLines.first == "id\tcode\tname\tlatitude\tlongitude\tparent_station\troutes")
        #expect(stops.stdoutLines.dropFirst().map { $0.split(separator: "\t").first.map(String.init) ?? "" }.sorted() == ["70171", "70172", "ctpa"])

        let board = try await Run.transit(["gtfs", "departures", "--stop", "San Francisco", "--date", "2016-04-06", "--after", "08:00", "--limit", "2"], env: env(cache))
        #expect(board.status == 0)
        #expect(board.stdoutLines.count == 2)
        #expect(board.stdoutLines.first?.hasPrefix("2016-04-06T08:") == true && board.stdoutLines.first?.hasSuffix("\t2016-04-06") == true)

        let tsv = try await Run.transit(["gtfs", "trips", "--from", "San Francisco", "--to", "Palo Alto", "--date", "2016-04-06", "--after", "07:00", "--limit", "2"], env: env(cache))
        #expect(tsv.status == 0 && tsv.stderr == "")
        #expect(tsv.stdoutLines == [
            // Zones 1 to 3 (Caltrain's OW_3), after trip_ids (issue 44, item 8); then where each ride boards (issue 66).
            "70012\t70172\t2016-04-06T07:12:00-07:00\t2016-04-06T07:54:00-07:00\t42\t0\tBaby Bullet\t\t314\t7.75\tUSD\t70012@07:12:00",
            "70012\t70172\t2016-04-06T07:19:00-07:00\t2016-04-06T08:09:00-07:00\t50\t0\tLimited\t\t216\t7.75\tUSD\t70012@07:19:00",
        ])
        let json = try await Run.transit(["--format", "json", "gtfs", "trips", "--from", "San Francisco", "--to", "Palo Alto", "--date", "2016-04-06", "--after", "07:00", "--limit", "1"], env: env(cache))
        let first = try #require((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(Array(first.keys).sorted() == ["any_time", "arrival", "departure", "destination", "duration_minutes", "fare", "legs", "origin", "transfers"])
        // Zone 1 to zone 3 on the Baby Bullet: fare_rules.txt's OW_3 row, 7.75 USD.
        let fare = try #require(first["fare"] as? [String: Any])
        #expect(fare["total"] as? Double == 7.75 && fare["currency"] as? String == "USD" && fare["complete"] as? Bool == true)
        #expect((fare["legs"] as? [[String: Any]])?.map { $0["fare_id"] as? String } == ["OW_3_20160228"])
        let leg = try #require((first["legs"] as? [[String: Any]])?.first)
        #expect(leg["route"] as? String == "Baby Bullet" && leg["from"] as? String == "70012" && leg["to"] as? String == "70172")
        #expect(leg["departure"] as? String == "2016-04-06T07:12:00-07:00" && leg["trip_id"] as? String != nil)
        #expect(json.stdout.contains("\"origin\": \"70012\",\n    \"destination\": \"70172\",\n    \"departure\""))

        let feeds = try await Run.transit(["gtfs", "feeds"], env: env(cache))
        #expect(feeds.stdoutLines.first?.hasPrefix("caltrain_20160406\tCaltrain\tAmerica/Los_Angeles\t2014-03-23\t2019-03-31") == true)
        // TRANSIT_NOW is 2026-11-22: outside the feed's dates.
        #expect(feeds.stderr.contains("caltrain_20160406 covers 2014-03-23 to 2019-03-31; today is 2026-11-22"))
    }

    /// A URL goes through the HTTP path: fetched, recorded with --record, replayed with
    /// --offline; a cut body or a 404 is exit 1 and the feed imported before stays.
    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func importFromAURLRecordsAndReplays() async throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: zip))
        let server = try LoopbackServer { request in
            switch request.path {
            case "/feeds/caltrain.zip": return .respond(status: 200, headers: ["Content-Type": "application/zip"], body: bytes, delay: 0)
            case "/feeds/cut.zip": return .truncate(status: 200, body: bytes, bytes: bytes.count / 2)
            default: return .status(404, "no such feed")
            }
        }
        defer { server.stop() }
        let cache = Paths.temporary(), record = Paths.temporary()
        let url = server.baseURL + "/feeds/caltrain.zip"
        let imported = try await Run.transit(["--record", record, "gtfs", "import", url, "--format", "json"], env: env(cache))
        #expect(imported.status == 0, "\(imported.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(imported.stdout.utf8)) as? [String: Any])
        #expect(summary["name"] as? String == "caltrain" && summary["stop_times"] as? Int == 3103)
        #expect(server.requests.map(\.path) == ["/feeds/caltrain.zip"])

        let replayed = try await Run.transit(["--offline", "--fixtures", record, "gtfs", "import", url, "--name", "again"], env: env(cache))
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(server.requests.count == 1)

        for (path, message) in [("/feeds/cut.zip", "could not reach"), ("/feeds/none.zip", "HTTP 404")] {
            let failed = try await Run.transit(["gtfs", "import", server.baseURL + path, "--name", "caltrain"], env: env(cache))
            #expect(failed.status == 1 && failed.stderrLines.count == 1 && failed.stderr.contains(message), "\(failed.stderr)")
        }
        let trips = try await Run.transit(["gtfs", "trips", "--feed", "caltrain", "--from", "San Francisco", "--to", "Palo Alto",
                                           "--date", "2016-04-06", "--after", "08:00", "--before", "09:00"], env: env(cache))
        #expect(trips.status == 0 && !trips.stdoutLines.isEmpty)
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func aFailedImportLeavesTheOldFeed() async throws {
        let cache = Paths.temporary()
        #expect(try await Run.transit(["gtfs", "import", zip, "--name", "ct"], env: env(cache)).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: cache + "/gtfs/ct.timetable"))
        // A truncated zip, a wrong column, an unknown trip, a bad time: exit 1 naming file and line.
        let real = try Data(contentsOf: URL(fileURLWithPath: zip))
        let cut = Paths.temporary() + "/cut.zip"
        try real.prefix(real.count - 300).write(to: URL(fileURLWithPath: cut))
        let truncated = try await Run.transit(["gtfs", "import", cut, "--name", "ct"], env: env(cache))
        #expect(truncated.status == 1 && truncated.stderrLines.first?.hasPrefix("transit: could not read") == true)
        for (file, text, message) in [
            ("stop_times.txt", "trip_id,arrival_time,departure_time,stop,stop_sequence\n", "transit: could not read stop_times.txt: line 1: no stop_id column"),
            ("stop_times.txt", "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nghost,08:00:00,08:00:00,A,1\n", "transit: could not read stop_times.txt: line 2: unknown trip_id 'ghost'"),
            ("stop_times.txt", "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nt,08:00:00,08:00:00,A,1\nt,25:61:00,25:61:00,B,2\n", "transit: could not read stop_times.txt: line 3: arrival_time '25:61:00' is not a time like 25:10:00"),
        ] {
            let feed = TestFeed(["stops.txt": TestFeed.stops(["A", "B"]), "trips.txt": "route_id,service_id,trip_id\nR,S,t\n", file: text])
            let run = try await Run.transit(["gtfs", "import", feed.directory, "--name", "ct"], env: env(cache))
            #expect(run.status == 1)
            #expect(run.stderrLines == [message])
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: cache + "/gtfs/ct.timetable")) == before)
        // Nothing else but the writers' lock (an empty file, kept) and, once a query found the
        // file sound two seconds after it was written, the note saying so.
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache + "/gtfs").filter { $0 != ".ct.timetable.checked" }.sorted() == [".lock", "ct.timetable"])
        #expect(try await Run.transit(["gtfs", "trips", "--from", "70011", "--to", "70171", "--date", "2016-04-06"], env: env(cache)).status == 0)
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func feedsByPathNameAndEnvironment() async throws {
        let cache = Paths.temporary()
        // A path compiles on first use and is reused while unchanged.
        let args = ["gtfs", "trips", "--feed", Reference.feed("mmri-2c"), "--from", "2c1", "--to", "2c3", "--date", "2014-01-01", "--min-transfer", "0"]
        let first = try await Run.transit(args, env: env(cache))
        // Three journeys: the journey on foot (2c3 is 222 m from 2c1, within --walk's 300: issue
        // 65), the walk to 2c2 and train 2, and (issue 65: 2c2, walked to from 2c1, may be
        // alighted at) train 1 to 2c2 and the walk on to 2c3, 27 s sooner.
        #expect(first.status == 0 && first.stdoutLines.count == 3 && first.stdoutLines.first?.hasPrefix("2c1\t2c3\t2014-01-01T00:00:00+01:00\t2014-01-01T00:03:06+01:00\t3\t0\t") == true,
                "\(first.stdout)")
        let compiled = try FileManager.default.contentsOfDirectory(atPath: cache + "/gtfs/.paths")
        #expect(compiled.count == 1)
        let stamp = try FileManager.default.attributesOfItem(atPath: cache + "/gtfs/.paths/" + compiled[0])[.modificationDate] as? Date
        let again = try await Run.transit(args, env: env(cache))
        #expect(again.stdout == first.stdout)
        #expect(try FileManager.default.attributesOfItem(atPath: cache + "/gtfs/.paths/" + compiled[0])[.modificationDate] as? Date == stamp)
        // No feed at all; two feeds and no choice; a name from the environment.
        let none = try await Run.transit(["gtfs", "routes"], env: env(Paths.temporary()))
        #expect(none.status == 2 && none.stderrLines.first == "transit: no GTFS feed is imported")
        #expect(try await Run.transit(["gtfs", "import", zip, "--name", "a"], env: env(cache)).status == 0)
        #expect(try await Run.transit(["gtfs", "import", zip, "--name", "b"], env: env(cache)).status == 0)
        let two = try await Run.transit(["gtfs", "routes"], env: env(cache))
        #expect(two.status == 2 && two.stderrLines.first?.contains("2 feeds are imported (a, b)") == true)
        let chosen = try await Run.transit(["gtfs", "routes", "--header"], env: env(cache, ["TRANSIT_GTFS_FEED": "b"]))
        #expect(chosen.status == 0 && chosen.stdoutLines.first == "id\tagency\tshort_name\tlong_name\ttype\tcolor")
        #expect(chosen.stdoutLines.contains("Bu-16APR\t\t\tBaby Bullet\trail\tE31837"))
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func stopNamesMatchLikeStationNames() async throws {
        let cache = Paths.temporary()
        _ = try await Run.transit(["gtfs", "import", zip], env: env(cache))
        let miss = try await Run.transit(["gtfs", "trips", "--from", "San Fransisco", "--to", "Palo Alto", "--date", "2016-04-06"], env: env(cache))
        #expect(miss.status == 2)
        #expect(miss.stderrLines.first?.hasPrefix("transit: unknown stop 'San Fransisco'; did you mean") == true)
        #expect(miss.stderrLines.first?.contains("San Francisco Caltrain") == true)
        let none = try await Run.transit(["gtfs", "trips", "--from", "San Francisco", "--to", "Palo Alto", "--date", "2016-04-06", "--after", "23:59", "--before", "23:59"], env: env(cache))
        #expect(none.status == 0 && none.stdout == "" && none.stderrLines == ["No journey from San Francisco to Palo Alto on 2016-04-06 in that window"])
    }
}
