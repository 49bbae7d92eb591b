import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

/// `transit gtfs matrix` as a user runs it: on the bundled Lakeport fixture, its shards
/// concatenated are the whole output byte for byte, and each bad input is refused with its
/// file, line and column, exit 2, nothing written; on Terre Haute with its map, 2 × 2 points
/// through the binary are the engine's `--earliest` answers at each minute.
struct MatrixCommandTests {
    static let lakeport = Paths.fixtures + "/gtfs/lakeport"

    /// A directory with `files` written in it.
    static func files(_ files: [String: String]) throws -> String {
        let dir = Paths.temporary()
        for (name, text) in files { try text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8) }
        return dir
    }

    static let points = """
        id,lat,lon,note
        harbor,41.8405,-87.6125,near the harbor
        market,41.8635,-87.6240,
        HBR1,,,a stop by its id
        far,41.9900,-87.9000,nothing near

        """

    func matrix(_ dir: String, _ extra: [String], origins: String = "points.csv", destinations: String = "points.csv") async throws -> Run {
        try await Run.transit(["gtfs", "matrix", "--feed", Self.lakeport, "--origins", dir + "/" + origins, "--destinations", dir + "/" + destinations,
                               "--date", "2026-11-23", "--after", "07:30", "--window", "20"]
                                  + (extra.contains("--percentiles") ? [] : ["--percentiles", "10,50,90"]) + extra,
                              env: Run.environment(["TRANSIT_CACHE_DIR": dir + "/cache"]))
    }

    @Test func shardsConcatenatedAreTheWholeOutput() async throws {
        let dir = try Self.files(["points.csv": Self.points])
        for format in [["--format", "csv"], ["--format", "tsv", "--header"], ["--format", "tsv"]] {
            let whole = try await matrix(dir, format)
            #expect(whole.status == 0 && whole.stdout.utf8.filter { $0 == 10 }.count > 5, "\(whole.stderr)")
            #expect(whole.stderr.contains("2 of 8 points (origins and destinations) have no stop within 1000 m"), "\(whole.stderr)")
            var parts = ""
            for k in 1...3 { parts += try await matrix(dir, format + ["--shard", "\(k)/3", "--jobs", "1"]).stdout }
            #expect(parts == whole.stdout, "\(format): the shards give\n\(parts)\nthe whole\n\(whole.stdout)")
        }
        // The same place both ends: 0 at every percentile; a stop by its id as --from takes it.
        let csv = try await matrix(dir, ["--format", "csv"]).stdout.split(separator: "\r\n").map(String.init)
        #expect(csv.first == "from_id,to_id,travel_time_p10,travel_time_p50,travel_time_p90")
        #expect(csv.contains("harbor,harbor,0,0,0") && csv.contains("HBR1,HBR1,0,0,0") && csv.contains("far,far,0,0,0"), "\(csv)")
        #expect(!csv.contains { $0.hasPrefix("far,") && !$0.hasPrefix("far,far") }, "a point with no stop near reaches only itself: \(csv)")
        // --output: the same bytes in the file, nothing on stdout, no temporary file left.
        let out = dir + "/out/m.csv"
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
        let written = try await matrix(dir, ["--format", "csv", "--output", out])
        #expect(written.status == 0 && written.stdout.isEmpty, "\(written.stderr)")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == csv.joined(separator: "\r\n") + "\r\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/out") == ["m.csv"])
    }

    @Test func badInputIsRefusedWithItsLineAndNothingIsWritten() async throws {
        let cases: [(file: String, says: String)] = [
            ("name,lat,lon\na,41.84,-87.61\n", "line 1: no id column"),
            ("id,lat\na,41.84\n", "line 1: lat and lon come together"),
            ("id,lat,lon\na,41.84,\n", "line 2, column lon: lon is empty"),
            ("id,lat,lon\na,41.84,-87.61\nb,91,-87.61\n", "line 3, column lat: 91 is out of range"),
            ("id,lat,lon\na,41.84,-87.61\nb,x,-87.61\n", "line 3, column lat: 'x' is not a number"),
            ("id,lat,lon\na,41.84,-87.61\n\"a\",41.85,-87.61\n", "line 3, column id: the id 'a' is on line 2 too"),
            ("id,lat,lon\n,41.84,-87.61\n", "line 2, column id: the id is empty"),
            ("id,lat,lon\n", "has no points"),
            ("id\nNOWHERE\n", "line 2: unknown stop 'NOWHERE'"),
        ]
        for (file, says) in cases {
            let dir = try Self.files(["good.csv": Self.points, "bad.csv": file])
            for (origins, destinations) in [("bad.csv", "good.csv"), ("good.csv", "bad.csv")] {
                let out = dir + "/m.csv"
                let run = try await matrix(dir, ["--output", out], origins: origins, destinations: destinations)
                #expect(run.status == 2 && run.stdout.isEmpty && run.stderr.contains("bad.csv") && run.stderr.contains(says), "\(file): \(run.stderr)")
                #expect(!FileManager.default.fileExists(atPath: out))
                #expect(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".") }.isEmpty)
            }
        }
        let dir = try Self.files(["points.csv": Self.points])
        for (options, says) in [(["--percentiles", "50,50"], "names 50 twice"), (["--percentiles", "0"], "1 to 99"), (["--shard", "4/3"], "--shard takes K/N"),
                                (["--window", "0"], "--window"), (["--max-minutes", "1441"], "--max-minutes"), (["--jobs", "0"], "--jobs")] {
            let run = try await matrix(dir, options)
            #expect(run.status == 2 && run.stdout.isEmpty && run.stderr.contains(says), "\(options): \(run.stderr)")
        }
    }

    /// With `--realtime`, each minute is what `gtfs trips --earliest` with the same data answers;
    /// without it, the timetable as planned.
    @Test func realTimeOnlyWhenGivenAndThenAsTripsHasIt() async throws {
        let dir = try Self.files(["h.csv": "id\nHBR\n", "s.csv": "id\nM_STA\n"])
        // Read at 08:00 of the day the data is of (it is dated 07:58; data ahead of the clock is not applied).
        let env = Run.environment(["TRANSIT_CACHE_DIR": dir + "/cache", "TRANSIT_NOW": "2026-11-23T14:00:00Z"])
        let updates = Paths.fixtures + "/gtfs/lakeport-realtime/trip-updates.pb"
        func matrix(_ extra: [String]) async throws -> [String] {
            let run = try await Run.transit(["gtfs", "matrix", "--feed", Self.lakeport, "--origins", dir + "/h.csv", "--destinations", dir + "/s.csv",
                                             "--date", "2026-11-23", "--after", "07:55", "--window", "10", "--percentiles", "10,50,90", "--transfers", "3",
                                             "--format", "tsv"] + extra, env: env)
            #expect(run.status == 0, "\(run.stderr)")
            return run.stdoutLines
        }
        func earliest(_ extra: [String]) async throws -> [Int?] {
            var minutes: [Int?] = []
            for k in 0..<10 {
                let after = String(format: "07:%02d", 55 + k).replacingOccurrences(of: "07:6", with: "08:0")
                let run = try await Run.transit(["gtfs", "trips", "--feed", Self.lakeport, "--from", "HBR", "--to", "M_STA", "--date", "2026-11-23",
                                                 "--after", after, "--earliest", "--transfers", "3", "--format", "tsv"] + extra, env: env)
                let arrival = run.stdoutLines.first?.split(separator: "\t").dropFirst(3).first.map(String.init)
                let formatter = ISO8601DateFormatter()
                let leaving = try #require(formatter.date(from: "2026-11-23T\(after):00-06:00"))
                minutes.append(arrival.flatMap(formatter.date).map { Int($0.timeIntervalSince(leaving)) / 60 })
            }
            return minutes
        }
        for extra in [[], ["--realtime", updates]] {
            let minutes = try await earliest(extra)
            let cells = [10, 50, 90].map { CPUBound.TravelTimeMatrixTests.percentile($0, minutes).map(String.init) ?? "" }
            #expect(try await matrix(extra) == ["HBR\tM_STA\t" + cells.joined(separator: "\t")], "\(extra): minutes \(minutes)")
        }
        #expect(try await matrix([]) != matrix(["--realtime", updates]), "the data changes the answer")
    }

    /// Ctrl-C while the file is being written: exit 130, and nothing at either name. A reader
    /// that goes away: exit 1, quietly.
    @Test func anInterruptLeavesNothingAndAClosedPipeIsExitOne() async throws {
        // Enough work for seconds: 3,000 origins, each a whole day's window, to every stop.
        let stops = try String(contentsOfFile: Self.lakeport + "/stops.txt", encoding: .utf8).split(separator: "\n").dropFirst()
            .compactMap { $0.split(separator: ",", omittingEmptySubsequences: false).first.map(String.init) }
        let origins = "id,lat,lon\n" + (0..<3000).map { "o\($0),41.84,-87.61" }.joined(separator: "\n") + "\n"
        let dir = try Self.files(["origins.csv": origins, "stops.csv": "id\n" + stops.joined(separator: "\n") + "\n"])
        let out = dir + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let args = ["gtfs", "matrix", "--feed", Self.lakeport, "--origins", dir + "/origins.csv", "--destinations", dir + "/stops.csv",
                    "--date", "2026-11-23", "--after", "05:00", "--jobs", "1"]
        let env = Run.environment(["TRANSIT_CACHE_DIR": dir + "/cache"])
        let interrupted = try await Run.transit(args + ["--window", "1440", "--output", out + "/m.csv"], env: env, signal: SIGINT) {
            (try? FileManager.default.contentsOfDirectory(atPath: out))?.contains { $0.hasPrefix(".matrix-") } == true
        }
        #expect(interrupted.status == 130, "\(interrupted.status) \(interrupted.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty)
        let piped = try await Run.transitLike(["/bin/bash", "-c", "\"$0\" \"$@\" | head -c 10 > /dev/null; echo \"status ${PIPESTATUS[0]}\" >&2", Run.binary]
                                              + args + ["--format", "csv", "--window", "30"], env: env)
        #expect(piped.stderrLines.last == "status 1", "\(piped.stderr)")
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent))
    func twoByTwoThroughTheBinaryAreTheEarliestAnswers() async throws {
        let feed = try await CPUBound.TravelTimeMatrixTests.imported()
        var g = SplitMix(seed: 71)
        let points = CPUBound.TravelTimeMatrixTests.points(feed.timetable, 4, &g, prefix: "p")
        let (origins, destinations) = (Array(points[0..<2]), Array(points[2..<4]))
        func file(_ points: [TravelTimeQuery.Point]) -> String {
            "id,lat,lon\n" + points.map { p in "\(p.id),\(p.place.point?.at.latitude ?? 0),\(p.place.point?.at.longitude ?? 0)" }.joined(separator: "\n") + "\n"
        }
        let dir = try Self.files(["o.csv": file(origins), "d.csv": file(destinations)])
        // The import of `imported()` is in its own cache: the binary imports the feed again here.
        let env = Run.environment(["TRANSIT_CACHE_DIR": dir + "/cache"])
        #expect(try await Run.transit(["gtfs", "import", Reference.path("gtfs/feeds/r5-terre-haute"), "--name", "th", "--streets",
                                       Reference.path("osm/r5/terre-haute.osm.pbf")], env: env).status == 0)
        let percentiles = [5, 25, 50, 75, 95], after = 7 * 60 + 40
        let run = try await Run.transit(["gtfs", "matrix", "--feed", "th", "--origins", dir + "/o.csv", "--destinations", dir + "/d.csv", "--date", "2016-06-15",
                                         "--after", "07:40", "--window", "30", "--max-minutes", "60", "--transfers", "3", "--percentiles", "5,25,50,75,95",
                                         "--format", "csv"], env: env)
        #expect(run.status == 0, "\(run.stderr)")
        var expected = ["from_id,to_id,travel_time_p05,travel_time_p25,travel_time_p50,travel_time_p75,travel_time_p95"]
        for o in origins {
            for d in destinations {
                let minutes = CPUBound.TravelTimeMatrixTests.earliestMinutes(feed, o.place, d.place, after: after, window: 30, max: 60, rules: JourneyQuery.Rules(transfers: 3))
                let cells = percentiles.map { CPUBound.TravelTimeMatrixTests.percentile($0, minutes) }
                if cells.contains(where: { $0 != nil }) { expected.append(([o.id, d.id] + cells.map { $0.map(String.init) ?? "" }).joined(separator: ",")) }
            }
        }
        #expect(run.stdout.split(separator: "\r\n").map(String.init) == expected, "\(run.stdout)")
        #expect(expected.count > 1)
    }
}
