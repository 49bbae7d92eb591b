import Foundation
import Testing

/// Several feeds through the binary, beyond the journeys of MultiFeedPackTests: names and ids
/// across feeds (TESTS.md's "Name and id resolution"), feeds without a common day, the
/// commands with a `feed` column, and bad input: one line, the right status, nothing damaged.
@Suite(.enabled(if: Reference.isPresent, Reference.absent))
struct MultiFeedCommandTests {
    typealias Pack = MultiFeedPackTests

    @Test func aNameMatchesStopsInEveryFeed() async throws {
        let run = try await Run.transit(["gtfs", "departures"] + Pack.A.options + ["--stop", "Millbrae", "--date", "2018-10-03", "--format", "json"],
                                        env: Pack.A.environment)
        #expect(run.status == 0, "\(run.stderr)")
        let rows = try run.records()
        #expect(Set(rows.compactMap { $0["platform"] as? String }) == ["bart:MLBR", "caltrain:70061", "caltrain:70062"])
        #expect(Set(rows.compactMap { $0["feed"] as? String }) == ["bart", "caltrain"])
        #expect(rows.allSatisfy { ($0["trip_id"] as? String)?.hasPrefix(($0["feed"] as? String ?? "?") + ":") == true })
    }

    @Test func aBareIDTwoFeedsHaveIsAskedAbout() async throws {
        let run = try await Run.transit(["gtfs", "departures"] + Pack.D.options + ["--stop", "de:08115:5773:3:3", "--date", "2020-07-15"],
                                        env: Pack.D.environment)
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("v764:de:08115:5773:3:3") && run.stderr.contains("v752:de:08115:5773:3:3"))
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    }

    /// (TESTS.md names AIRPORT, a terminus with no departures; JUSTICE_COURT is gtfs_1's too.)
    @Test func aBareIDOneFeedHasIsThatStop() async throws {
        let run = try await Run.transit(["gtfs", "departures"] + Pack.E.options + ["--stop", "JUSTICE_COURT", "--date", "2007-01-01", "--format", "json"],
                                        env: Pack.E.environment)
        #expect(run.status == 0, "\(run.stderr)")
        let rows = try run.records()
        #expect(!rows.isEmpty && rows.allSatisfy { $0["platform"] as? String == "gtfs_1:JUSTICE_COURT" })
    }

    /// MARTA's service `3` starts on 2021-08-14; CobbLinc's `3` runs before. Kept apart, the
    /// board at a MARTA stop is empty on 2021-07-10 (a plain merge shows 38 departures).
    @Test func servicesOfTheSameIDStayInTheirFeed() async throws {
        for (date, count) in [("2021-07-10", 0), ("2021-08-14", 38)] {
            let run = try await Run.transit(["gtfs", "departures"] + Pack.C.options + ["--stop", "marta:98900", "--date", date, "--format", "json"],
                                            env: Pack.C.environment)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try run.records().count == count, "\(date)")
        }
    }

    /// bart-2023 and caltrain-2018 meet at Millbrae but share no day: said, and no journey crosses.
    @Test func feedsWithoutACommonDayAreNamed() async throws {
        let env = Run.environment()
        for (name, path) in [("bart", "feeds/bart-2023/bart-new.zip"), ("caltrain", "feeds/caltrain-2018/caltrain.zip")] {
            let imported = try await Run.transit(["gtfs", "import", Reference.path(Pack.pack + path), "--name", name], env: env)
            #expect(imported.status == 0, "\(imported.stderr)")
        }
        for date in ["2018-10-03", "2023-06-14"] {
            let run = try await Run.transit(["gtfs", "trips", "--feed", "all", "--from", "bart:EMBR", "--to", "caltrain:Palo Alto", "--date", date, "--format", "json"], env: env)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try run.records().isEmpty)
            #expect(run.stderr.contains("bart (2023-02-18 to 2023-09-10) and caltrain (2017-10-02 to 2019-10-06) share no service day"), "\(run.stderr)")
        }
    }

    @Test func stopsAndRoutesCarryTheirFeed() async throws {
        let stops = try await Run.transit(["gtfs", "stops"] + Pack.E.options + ["--format", "json"], env: Pack.E.environment)
        let rows = try stops.records()
        #expect(Set(rows.compactMap { $0["feed"] as? String }) == ["gtfs_0", "gtfs_1"])
        #expect(rows.allSatisfy { ($0["id"] as? String)?.hasPrefix(($0["feed"] as? String ?? "?") + ":") == true })
        let routes = try await Run.transit(["gtfs", "routes"] + Pack.E.options + ["--format", "tsv"], env: Pack.E.environment)
        #expect(routes.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("gtfs_0\tgtfs_0:") || $0.hasPrefix("gtfs_1\tgtfs_1:") }, "\(routes.stdout)")
    }

    /// TRANSIT_GTFS_FEED as a list, and `--feed a,b`, are the same combination as two --feed.
    @Test func theFeedListsAgree() async throws {
        let query = ["gtfs", "trips", "--from", "gtfs_1:NEXT_TO_MUSEUM", "--to", "gtfs_0:BULLFROG", "--date", "2007-01-01", "--after", "10:00", "--format", "tsv"]
        let given = try await Run.transit(query + Pack.E.options, env: Pack.E.environment)
        var env = Pack.E.environment
        env["TRANSIT_GTFS_FEED"] = "gtfs_0,gtfs_1"
        let variable = try await Run.transit(query, env: env)
        let comma = try await Run.transit(query + ["--feed", "gtfs_1,gtfs_0"], env: Pack.E.environment)
        #expect(given.status == 0 && !given.stdout.isEmpty, "\(given.stderr)")
        #expect(variable.stdout == given.stdout && comma.stdout == given.stdout)
    }

    /// A real-time source names its feed's ids: over several feeds it must say which feed it is for.
    @Test func aRealtimeSourceOverSeveralFeedsNamesItsFeed() async throws {
        let run = try await Run.transit(["gtfs", "departures"] + Pack.E.options + ["--stop", "gtfs_1:AIRPORT", "--realtime", "/dev/null"], env: Pack.E.environment)
        #expect(run.status == 2)
        #expect(run.stderr.contains("say which feed a real-time source is for: --realtime FEED=SOURCE (FEED one of gtfs_0, gtfs_1)"), "\(run.stderr)")
    }

    /// The combination is compiled once, used again while its feeds stay, compiled again when one
    /// is imported again, and a feed removed since is an error that damages nothing.
    @Test func theCombinationFollowsItsFeeds() async throws {
        let env = Run.environment()
        let cache = try #require(env["TRANSIT_CACHE_DIR"])
        for (name, path) in [("gtfs_0", "feeds/gh-sample-feed"), ("gtfs_1", "feeds/gh-another-sample-feed")] {
            _ = try await Run.transit(["gtfs", "import", Reference.path(Pack.pack + path), "--name", name], env: env)
        }
        let query = ["gtfs", "trips", "--feed", "all", "--from", "gtfs_1:NEXT_TO_MUSEUM", "--to", "gtfs_0:BULLFROG", "--date", "2007-01-01", "--after", "10:00", "--format", "tsv"]
        let first = try await Run.transit(query, env: env)
        #expect(first.status == 0 && !first.stdout.isEmpty, "\(first.stderr)")
        let combined = cache + "/gtfs/.combined"
        let files = try FileManager.default.contentsOfDirectory(atPath: combined).filter { $0.hasSuffix(".timetable") }
        #expect(files.count == 1)
        let file = combined + "/" + (files.first ?? "")
        let made = try #require(try FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date)
        let again = try await Run.transit(query, env: env)
        #expect(again.stdout == first.stdout)
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date == made, "used again, not compiled again")

        // gtfs_0 imported again from a copy without its evening: the combination follows.
        let copy = Paths.temporary()
        for name in try FileManager.default.contentsOfDirectory(atPath: Reference.path(Pack.pack + "feeds/gh-sample-feed")) {
            try FileManager.default.copyItem(atPath: Reference.path(Pack.pack + "feeds/gh-sample-feed/" + name), toPath: copy + "/" + name)
        }
        let times = try String(contentsOfFile: copy + "/stop_times.txt", encoding: .utf8)
        try times.split(separator: "\n").filter { !$0.hasPrefix("AB3_NO_BLOCK,") }.joined(separator: "\n").write(toFile: copy + "/stop_times.txt", atomically: true, encoding: .utf8)
        _ = try await Run.transit(["gtfs", "import", copy, "--name", "gtfs_0"], env: env)
        let changed = try await Run.transit(query, env: env)
        #expect(changed.status == 0)
        #expect(changed.stdout != first.stdout, "the combination was compiled again from the new gtfs_0")

        let removed = try await Run.transit(["gtfs", "remove", "gtfs_0"], env: env)
        #expect(removed.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: combined).isEmpty, "its combinations go with it")
        let stale = try await Run.transit(query.map { $0 == "all" ? "gtfs_0" : $0 } + ["--feed", "gtfs_1"], env: env)
        #expect(stale.status == 2)
        #expect(stale.stderr.hasPrefix("transit: no imported feed or file called 'gtfs_0'"), "\(stale.stderr)")
        let alone = try await Run.transit(["gtfs", "departures", "--feed", "gtfs_1", "--stop", "JUSTICE_COURT", "--date", "2007-01-01"], env: env)
        #expect(alone.status == 0, "\(alone.stderr)")
    }
}
