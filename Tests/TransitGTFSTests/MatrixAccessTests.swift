import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

/// `transit gtfs matrix --opportunities FILE --cutoffs LIST` (issue 71): each origin's access,
/// per percentile and cutoff, is the sum of the counts whose time in the plain matrix over the
/// same points is at most the cutoff; a whole number where every count is one, else a decimal;
/// and each bad file or option is refused with one line, exit 2.
struct MatrixAccessTests {
    static let opportunities = """
        id,lat,lon,count,note
        harbor,41.8405,-87.6125,10,
        market,41.8635,-87.6240,2.5,a decimal count
        HBR1,,,1,a stop by its id
        far,41.9900,-87.9000,100,nothing near

        """

    func run(_ dir: String, _ extra: [String]) async throws -> Run {
        try await Run.transit(["gtfs", "matrix", "--feed", MatrixCommandTests.lakeport, "--origins", dir + "/points.csv",
                               "--date", "2026-11-23", "--after", "07:30", "--window", "20", "--percentiles", "25,50,90"]
                                  + (extra.contains("--format") ? [] : ["--format", "csv"]) + extra,
                              env: Run.environment(["TRANSIT_CACHE_DIR": dir + "/cache"]))
    }

    @Test func accessIsTheSumOfTheCountsWithinEachCutoff() async throws {
        let whole = Self.opportunities.replacingOccurrences(of: ",2.5,", with: ",3,")
        let dir = try MatrixCommandTests.files(["points.csv": MatrixCommandTests.points, "opportunities.csv": Self.opportunities, "whole.csv": whole])
        let cutoffs = [5, 15, 30, 45]
        for (file, counts) in [("opportunities.csv", ["harbor": 10, "market": 2.5, "HBR1": 1, "far": 100.0]), ("whole.csv", ["harbor": 10, "market": 3, "HBR1": 1, "far": 100])] {
            // The plain matrix over the same points, the longest cutoff its maximum.
            let plain = try await run(dir, ["--destinations", dir + "/" + file, "--max-minutes", "45"])
            #expect(plain.status == 0, "\(plain.stderr)")
            var expected: [String: Double] = [:]
            for line in plain.stdout.split(separator: "\r\n").dropFirst() {
                let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                for (k, p) in [25, 50, 90].enumerated() {
                    guard let minutes = Int(f[2 + k]) else { continue }
                    for cutoff in cutoffs where minutes <= cutoff { expected["\(f[0]),\(p),\(cutoff)", default: 0] += counts[f[1]] ?? .nan }
                }
            }
            let access = try await run(dir, ["--opportunities", dir + "/" + file, "--cutoffs", "45,5,30,15"])
            #expect(access.status == 0, "\(access.stderr)")
            let lines = access.stdout.split(separator: "\r\n").map(String.init)
            #expect(lines.first == "from_id,percentile,cutoff,access")
            // A row for every origin, percentile and cutoff, in that order.
            #expect(lines.count == 1 + 4 * 3 * 4, "\(lines.count) lines")
            var rows: [String] = []
            for origin in ["harbor", "market", "HBR1", "far"] {
                for p in [25, 50, 90] {
                    for cutoff in cutoffs {
                        let sum = expected["\(origin),\(p),\(cutoff)"] ?? 0
                        let text = file == "whole.csv" ? String(Int(sum)) : (sum == sum.rounded() ? String(Int(sum)) : String(sum))
                        rows.append("\(origin),\(p),\(cutoff),\(text)")
                    }
                }
            }
            #expect(Array(lines.dropFirst()) == rows, "\(file): got\n\(lines.prefix(8))\nexpected\n\(rows.prefix(7))")
            #expect(expected.values.contains { $0 > 11 }, "some origin reaches more than itself")
        }
    }

    @Test func badOpportunitiesAndOptionsAreRefused() async throws {
        let dir = try MatrixCommandTests.files(["points.csv": MatrixCommandTests.points, "opportunities.csv": Self.opportunities,
                                                "nocount.csv": "id,lat,lon\na,41.84,-87.61\n", "empty.csv": "id,lat,lon,count\na,41.84,-87.61,\n",
                                                "negative.csv": "id,lat,lon,count\na,41.84,-87.61,-1\n", "word.csv": "id,lat,lon,count\na,41.84,-87.61,many\n"])
        let o = dir + "/opportunities.csv"
        let cases: [([String], String)] = [
            (["--opportunities", o], "--opportunities needs --cutoffs"),
            (["--destinations", o, "--cutoffs", "30"], "--cutoffs counts --opportunities"),
            (["--destinations", o, "--opportunities", o, "--cutoffs", "30"], "give one"),
            (["--opportunities", o, "--cutoffs", "30", "--max-minutes", "60"], "--max-minutes is not needed"),
            (["--opportunities", o, "--cutoffs", "30,0"], "--cutoffs takes whole minutes from 1 to 1440"),
            (["--opportunities", dir + "/nocount.csv", "--cutoffs", "30"], "nocount.csv line 1: no count column"),
            (["--opportunities", dir + "/empty.csv", "--cutoffs", "30"], "empty.csv line 2, column count: the count is empty"),
            (["--opportunities", dir + "/negative.csv", "--cutoffs", "30"], "negative.csv line 2, column count: '-1' is not a number of 0 or more"),
            (["--opportunities", dir + "/word.csv", "--cutoffs", "30"], "'many' is not a number"),
            ([], "--destinations"),
        ]
        for (args, says) in cases {
            let run = try await run(dir, args)
            #expect(run.status == 2 && run.stdout.isEmpty && run.stderr.contains(says), "\(args): \(run.stderr)")
        }
    }

    /// `--format parquet --output FILE`: the matrix's and the access rows' values, read back;
    /// shards write files of their own; two runs the same bytes; without --output, or for
    /// another command, refused.
    @Test(.enabled(if: Paths.python != nil, "needs python3 (scripts/setup)"))
    func parquetFilesHoldTheCSVsValues() async throws {
        let dir = try MatrixCommandTests.files(["points.csv": MatrixCommandTests.points, "opportunities.csv": Self.opportunities])
        for (name, extra) in [("matrix", ["--destinations", dir + "/points.csv", "--max-minutes", "25"]),
                              ("access", ["--opportunities", dir + "/opportunities.csv", "--cutoffs", "10,30"]),
                              ("shard", ["--destinations", dir + "/points.csv", "--shard", "2/3"])] {
            let csv = try await run(dir, extra)
            #expect(csv.status == 0 && csv.stdout.contains("\r\n"), "\(name): \(csv.stderr)")
            let csvPath = dir + "/\(name).csv", parquet = dir + "/\(name).parquet"
            // A later shard's csv has no header: the Parquet file has its schema whatever the shard.
            let header = name == "shard" ? "from_id,to_id,travel_time_p25,travel_time_p50,travel_time_p90\r\n" : ""
            try (header + csv.stdout).write(toFile: csvPath, atomically: true, encoding: .utf8)
            let written = try await run(dir, extra + ["--format", "parquet", "--output", parquet])
            #expect(written.status == 0 && written.stdout.isEmpty, "\(name): \(written.stderr)")
            let problems = try await ParquetCheck.problems(parquet, against: csvPath)
            #expect(problems.isEmpty, "\(name): \(problems)")
            let again = try await run(dir, extra + ["--format", "parquet", "--output", parquet + ".again"])
            #expect(again.status == 0 && FileManager.default.contents(atPath: parquet) == FileManager.default.contents(atPath: parquet + ".again"))
        }
        #expect(String(decoding: FileManager.default.contents(atPath: dir + "/matrix.csv") ?? Data(), as: UTF8.self).contains(",\r\n"), "some percentile beyond: a null")
        let piped = try await run(dir, ["--destinations", dir + "/points.csv", "--format", "parquet"])
        #expect(piped.status == 2 && piped.stdout.isEmpty && piped.stderr.contains("--format parquet needs --output FILE"), "\(piped.stderr)")
        let other = try await Run.transit(["gtfs", "stops", "--feed", MatrixCommandTests.lakeport, "--format", "parquet"], env: Run.environment(["TRANSIT_CACHE_DIR": dir + "/cache"]))
        #expect(other.status == 2 && other.stderr.contains("--format parquet is not for transit gtfs stops: only a travel-time matrix is written as Parquet"), "\(other.stderr)")
    }

    /// `--arrive-by`: each deadline's minutes are the deadline less the departure of the first
    /// journey `gtfs trips --arrive-by` gives (the latest to leave); with `--after`, refused.
    @Test func towardsADeadlineEachMinuteIsWhatTripsArriveByAnswers() async throws {
        let dir = try MatrixCommandTests.files(["h.csv": "id\nHBR\n", "s.csv": "id\nM_STA\n"])
        let env = Run.environment(["TRANSIT_CACHE_DIR": dir + "/cache"])
        let common = ["--feed", MatrixCommandTests.lakeport, "--date", "2026-11-23", "--transfers", "3", "--format", "tsv"]
        var minutes: [Int?] = []
        let formatter = ISO8601DateFormatter()
        for k in 0..<8 {
            let deadline = String(format: "08:%02d", 30 + k)
            let run = try await Run.transit(["gtfs", "trips", "--from", "HBR", "--to", "M_STA", "--arrive-by", deadline, "--limit", "1"] + common, env: env)
            let departure = run.stdoutLines.first?.split(separator: "\t").dropFirst(2).first.map(String.init)
            let by = try #require(formatter.date(from: "2026-11-23T\(deadline):00-06:00"))
            minutes.append(departure.flatMap(formatter.date).map { Int(by.timeIntervalSince($0)) / 60 })
        }
        let cells = [10, 50, 90].map { CPUBound.TravelTimeMatrixTests.percentile($0, minutes).map(String.init) ?? "" }
        let matrix = try await Run.transit(["gtfs", "matrix", "--origins", dir + "/h.csv", "--destinations", dir + "/s.csv", "--arrive-by", "08:37",
                                            "--window", "8", "--percentiles", "10,50,90"] + common, env: env)
        #expect(matrix.status == 0, "\(matrix.stderr)")
        #expect(matrix.stdoutLines == ["HBR\tM_STA\t" + cells.joined(separator: "\t")], "minutes \(minutes)")
        #expect(minutes.contains { $0 != nil })
        let both = try await Run.transit(["gtfs", "matrix", "--origins", dir + "/h.csv", "--destinations", dir + "/s.csv", "--arrive-by", "08:37",
                                          "--after", "08:00"] + common, env: env)
        #expect(both.status == 2 && both.stderr.contains("--after and --arrive-by"), "\(both.stderr)")
    }
}
