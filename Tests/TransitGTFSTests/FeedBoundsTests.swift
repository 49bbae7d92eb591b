import Foundation
import Testing
@testable import TransitGTFS

/// A feed whose numbers are legal but extreme: a calendar of a century, frequencies that
/// multiply, a file that inflates to gigabytes, a name of megabytes, trips that overtake
/// (issue 30, items 5–9). Each is bounded, refused with one line, or answered in its time.
@Suite struct FeedBoundsTests {
    func env(_ cache: String, now: String = "2026-11-26T12:00:00Z") -> [String: String] {
        Run.environment(["TRANSIT_CACHE_DIR": cache, "TRANSIT_NOW": now])
    }

    /// Lakeport, copied, with `edit` applied to some of its files.
    static func lakeport(_ edit: [String: (String) -> String]) throws -> String {
        let dir = Paths.temporary()
        try FileManager.default.copyItem(atPath: Paths.fixtures + "/gtfs/lakeport", toPath: dir)
        for (file, change) in edit {
            let path = dir + "/" + file
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            try change(text).write(toFile: path, atomically: true, encoding: .utf8)
        }
        return dir
    }

    /// A "forever" calendar (2000–2099) and a stray 2010 date each keep today's service; the
    /// warning says what was kept and what dropped. Before, the first ten years were kept, and
    /// every query of 2026 was empty.
    @Test func aCalendarOfACenturyKeepsTheCurrentYear() async throws {
        let forever = try Self.lakeport(["calendar.txt": { $0.replacingOccurrences(of: "20260101,20261231", with: "20000101,20991231") }])
        let stray = try Self.lakeport(["calendar_dates.txt": { $0 + "WK,20100503,1\n" }])
        for (feed, kept, dropped) in [(forever, "kept 2025-01-01 to 2035-01-08", "dropped 2000-01-01…2024-12-31 and 2035-01-09…2099-12-31"),
                                      (stray, "kept 2016-12-24 to 2026-12-31", "dropped 2010-05-03…2016-12-23")] {
            let cache = Paths.temporary()
            let imported = try await Run.transit(["gtfs", "import", feed, "--name", "lp"], env: env(cache))
            #expect(imported.status == 0 && imported.stderr.contains(kept) && imported.stderr.contains(dropped), "\(imported.stderr)")
            let board = try await Run.transit(["gtfs", "departures", "--stop", "Harbor", "--date", "2026-11-27", "--after", "07:00", "--limit", "1"], env: env(cache))
            #expect(board.status == 0 && board.stdoutLines.first?.hasPrefix("2026-11-27T07:") == true, "\(board.stdout) \(board.stderr)")
        }
        // A century of service, imported in 2031: 2030 to 2039.
        let later = try await Run.transit(["gtfs", "import", forever, "--name", "lp"], env: env(Paths.temporary(), now: "2031-06-01T12:00:00Z"))
        #expect(later.stderr.contains("kept 2030-01-01 to 2040-01-08"), "\(later.stderr)")
    }

    /// The window, in the engine: the most service among the windows that hold the current year.
    @Test func theCalendarWindowFollowsTheService() {
        func day(_ iso: String) -> Int { LocalDate(iso: iso)?.dayNumber ?? 0 }
        let all = [Bool](repeating: true, count: 7)
        // Service 2000–2040, heaviest 2020–2027 (a second row): the window holds 2026 and the most of it.
        let busy = GTFSCompiler.calendarWindow(first: day("2000-01-01"), last: day("2040-12-31"), today: day("2026-11-26"),
                                               weekly: [(all, day("2000-01-01"), day("2040-12-31")), (all, day("2020-01-01"), day("2027-12-31"))], exceptions: [])
        #expect(busy.first <= day("2020-01-01") && busy.last >= day("2027-12-31") && busy.last - busy.first + 1 == GTFSCompiler.maxDays)
        // Today after the calendar: its last year is kept.
        let old = GTFSCompiler.calendarWindow(first: day("1990-01-01"), last: day("2005-12-31"), today: day("2026-11-26"),
                                              weekly: [(all, day("1990-01-01"), day("2005-12-31"))], exceptions: [])
        #expect(old.first <= day("2005-01-01") && old.last >= day("2005-12-31"))
        // Far ends of the date type: bounded work, a window of ten years.
        let far = GTFSCompiler.calendarWindow(first: day("0001-01-01"), last: day("9999-12-31"), today: day("2026-11-26"),
                                              weekly: [(all, day("0001-01-01"), day("9999-12-31"))], exceptions: [(day("0001-01-01"), true), (day("2026-11-26"), false)])
        #expect(far.first <= day("2026-01-01") && far.last >= day("2026-12-31") && far.last - far.first + 1 == GTFSCompiler.maxDays)
    }

    /// 600 windows of 100,000 departures each (a 1.5 KB zip's worth): refused at once, where it
    /// took 34 s and 5.5 GB to make a 2.2 GB file.
    @Test func frequenciesThatMultiplyAreRefused() async throws {
        let feed = try Self.lakeport(["frequencies.txt": { $0 + String(repeating: "M1-WK-E,00:00:00,27:46:39,1,0\n", count: 600) }])
        let cache = Paths.temporary()
        let run = try await Run.transit(["gtfs", "import", feed, "--name", "lp"], env: env(cache))
        #expect(run.status == 1 && run.stderrLines.count == 1 && run.stderr.contains("frequencies.txt") && run.stderr.contains("2,000,000 runs"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cache + "/gtfs/lp.timetable"))
        // Lakeport's own frequencies (two windows of one template) are far inside the bound.
        let fine = try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/lakeport"], env: env(cache))
        #expect(fine.status == 0, "\(fine.stderr)")
    }

    /// A zip whose stop_times.txt inflates a thousandfold (one row repeated, or blank lines) is
    /// refused before it is read; a trip of more than 10,000 rows is refused, its rows grouped
    /// or not.
    @Test func inflatedFilesAndEndlessTripsAreRefused() async throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Paths.fixtures + "/gtfs/lakeport").filter { $0.hasSuffix(".txt") }.sorted()
        for filler in ["SL-WK-N01,06:00:00,06:00:00,HBR2,1\n", "\n"] {
            var entries: [ZipBuilder.Entry] = []
            for name in files {
                var data = try Data(contentsOf: URL(fileURLWithPath: Paths.fixtures + "/gtfs/lakeport/" + name))
                if name == "stop_times.txt" { data += Data(String(repeating: filler, count: 30_000_000 / filler.utf8.count).utf8) }
                entries.append(ZipBuilder.Entry(name: name, data: data, deflate: true, descriptor: false))
            }
            let path = Paths.temporary() + ".zip"
            try ZipBuilder.build(entries).write(to: URL(fileURLWithPath: path))
            let run = try await Run.transit(["gtfs", "import", path, "--name", "bomb"], env: env(Paths.temporary()))
            #expect(run.status == 1 && run.stderrLines.count == 1 && run.stderr.contains("stop_times.txt would inflate") && run.stderr.contains("more than 100 times"),
                    "\(run.stderr)")
        }
        let header = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        let long = (1...10_001).map { "SL-WK-N01,06:00:00,06:00:00,HBR2,\($0)\n" }.joined()
        for rows in [long, long + "SL-WK-S01,06:00:00,06:00:00,HBR2,1\n" + "SL-WK-N01,06:00:00,06:00:00,HBR2,10002\n"] {
            let feed = try Self.lakeport(["stop_times.txt": { _ in header + rows }])
            let run = try await Run.transit(["gtfs", "import", feed, "--name", "long"], env: env(Paths.temporary()))
            #expect(run.status == 1 && run.stderrLines.count == 1 && run.stderr.contains("has more than 10,000 stop_times rows"), "\(run.stderr)")
        }
    }

    /// A stop name of 20,000 bytes is cut to 500 (said at import), and a mistyped stop answers
    /// with its suggestions; a record of more than a megabyte (a name, or commas) is refused.
    @Test func longNamesAreCutAndLongRecordsRefused() async throws {
        let name = String(repeating: "Très long ", count: 2_000)
        let feed = try Self.lakeport(["stops.txt": { $0.replacingOccurrences(of: ",Harbor,", with: ",\"\(name)\",") }])
        let cache = Paths.temporary()
        let imported = try await Run.transit(["gtfs", "import", feed, "--name", "lp"], env: env(cache))
        #expect(imported.status == 0 && imported.stderr.contains("longer than 500 bytes: cut there"), "\(imported.stderr)")
        let stops = try await Run.transit(["gtfs", "stops", "--format", "json"], env: env(cache))
        let longest = try stops.records().compactMap { $0["name"] as? String }.map(\.utf8.count).max() ?? 0
        #expect(longest <= 500 && longest > 490)
        let mistyped = try await Run.transit(["gtfs", "departures", "--stop", "Markte"], env: env(cache))
        #expect(mistyped.status == 2 && mistyped.stderr.contains("Market"), "\(mistyped.stderr)")
        for record in [String(repeating: "x", count: 1 << 20), String(repeating: ",", count: 1 << 20)] {
            let huge = try Self.lakeport(["stops.txt": { $0 + "HUGE,\(record)\n" }])
            let run = try await Run.transit(["gtfs", "import", huge, "--name", "lp"], env: env(Paths.temporary()))
            #expect(run.status == 1 && run.stderrLines.count == 1 && run.stderr.contains("a record longer than 1 MiB"), "\(run.stderr.prefix(300))")
        }
    }

    /// 40,000 trips of one pattern, each overtaking every one before it: 40,000 groups, each run
    /// tried against none (the tree of last arrivals says so), where each was tried against all.
    @Test func overtakingTripsAreLaidOutInNLogN() throws {
        let count = 40_000
        var trips = "route_id,service_id,trip_id\n", times = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        func clock(_ s: Int) -> String { String(format: "%02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) }
        for k in 0..<count {
            trips += "R,S,t\(k)\n"
            times += "t\(k),\(clock(18_000 + k)),\(clock(18_000 + k)),A,1\nt\(k),\(clock(118_000 - k)),\(clock(118_000 - k)),B,2\n"
        }
        var compiler = GTFSCompiler()
        try compiler.run(try FeedFiles.open(TestFeed(["stops.txt": TestFeed.stops(["A", "B"]), "trips.txt": trips, "stop_times.txt": times]).directory))
        #expect(compiler.t.patternCount == count && compiler.groupTrials == 0)
        // Trips that keep their order share a group, each tried once against the last.
        trips = "route_id,service_id,trip_id\n"
        times = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        for k in 0..<1_000 {
            trips += "R,S,t\(k)\n"
            times += "t\(k),\(clock(18_000 + k)),\(clock(18_000 + k)),A,1\nt\(k),\(clock(19_000 + k)),\(clock(19_000 + k)),B,2\n"
        }
        var ordered = GTFSCompiler()
        try ordered.run(try FeedFiles.open(TestFeed(["stops.txt": TestFeed.stops(["A", "B"]), "trips.txt": trips, "stop_times.txt": times]).directory))
        #expect(ordered.t.patternCount == 1 && ordered.groupTrials == 999)
    }

    /// The tree finds what a scan finds, on random values and queries.
    @Test func theMinimumTreeFindsWhatAScanFinds() {
        var random = SystemRandomNumberGenerator()
        for size in [1, 2, 3, 7, 64, 100] {
            var tree = MinimumTree(capacity: size), values = [Int32](repeating: .max, count: size)
            for _ in 0..<2_000 {
                let i = Int.random(in: 0..<size, using: &random), v = Int32.random(in: 0..<50, using: &random)
                tree.set(i, v)
                values[i] = v
                let bound = Int32.random(in: 0..<50, using: &random), from = Int.random(in: 0..<size, using: &random)
                #expect(tree.first(atMost: bound, from: from) == values.indices.first { $0 >= from && values[$0] <= bound })
            }
        }
    }
}
