import Foundation
import Testing
import TransitSupport

/// Issue 44, item 1, as a rider sees it: the binary's tables on a pseudo-terminal of 80, 100
/// and 120 columns, on real feeds of the pack (BART 2022; the 2018 pair of BART and Caltrain;
/// Halifax 2025 with its real-time capture; Caltrain 2016, whose routes have no short names).
/// Each width has its golden file (Tests/Golden/tables-WIDTH.txt, written again with
/// TRANSIT_UPDATE_GOLDEN=1); and whatever the golden files say, no line is wider than the
/// terminal, and every journey keeps its times, where it boards and each line's name whole.
@Suite(.serialized) struct TerminalTableTests {
    struct Case {
        var now: String
        var args: [String]
    }

    static let bart = Reference.path("realdata/bart_gtfs/gtfs-lite_2022/bart.zip")
    static let pair = ["--feed", Reference.path("gtfs-multi/feeds/bart-2018/bart.zip"), "--feed", Reference.path("gtfs-multi/feeds/caltrain-2018/caltrain.zip")]
    static let halifax = Reference.path("gtfs-rt/feeds/halifax-2025") + "/"
    static let caltrain = Reference.feed("caltrain-20160406/caltrain_20160406.zip")

    static let cases: [Case] = [
        Case(now: "2022-11-22T16:00:00Z", args: ["gtfs", "trips", "--from", "24th St", "--to", "Millbrae", "--limit", "3", "--feed", bart]),
        Case(now: "2022-11-22T16:00:00Z", args: ["gtfs", "trips", "--from", "Antioch", "--to", "San Francisco International Airport", "--limit", "3", "--feed", bart]),
        Case(now: "2022-11-22T16:00:00Z", args: ["gtfs", "departures", "--stop", "Embarcadero", "--limit", "5", "--feed", bart]),
        Case(now: "2018-11-20T15:00:00Z", args: ["gtfs", "trips", "--from", "Dublin", "--to", "Palo Alto", "--limit", "3"] + pair),
        Case(now: "2025-11-06T21:03:30Z", args: ["gtfs", "trips", "--from", "Bridge Terminal", "--to", "Mumford Terminal", "--limit", "4",
                                                 "--feed", halifax + "google_transit.zip", "--realtime", halifax + "TripUpdates.pb"]),
        Case(now: "2025-11-06T21:03:30Z", args: ["gtfs", "departures", "--stop", "Scotia Square", "--limit", "5",
                                                 "--feed", halifax + "google_transit.zip", "--realtime", halifax + "TripUpdates.pb"]),
        Case(now: "2025-11-06T21:03:30Z", args: ["gtfs", "vehicles", "--route", "1", "--feed", halifax + "google_transit.zip",
                                                 "--realtime", halifax + "VehiclePositions.pb"]),
        Case(now: "2016-04-12T15:00:00Z", args: ["gtfs", "trips", "--from", "San Francisco", "--to", "Gilroy", "--limit", "4", "--feed", caltrain]),
        // Issue 68: the other tables a rider reads, whole at 80 columns.
        Case(now: "2022-11-22T16:00:00Z", args: ["gtfs", "feeds", "--feed", bart, "--feed", halifax + "google_transit.zip"]),
        Case(now: "2018-11-20T15:00:00Z", args: ["gtfs", "fares", "--from", "Dublin", "--to", "Palo Alto"] + pair),
        Case(now: "2022-11-22T16:00:00Z", args: ["gtfs", "fares", "--from", "24TH", "--to", "MLBR", "--feed", bart]),
        Case(now: "2018-11-20T15:00:00Z", args: ["gtfs", "journey", "bart:5190713WKDY>bart:4470727WKDY>caltrain:228",
                                                 "--from", "Dublin", "--to", "Palo Alto", "--date", "2018-11-20"] + pair),
        Case(now: "2026-12-07T12:00:00Z", args: ["--offline", "gtfs", "catalog", "search", "halifax"]),
        Case(now: "2026-12-07T12:00:00Z", args: ["--offline", "gtfs", "catalog", "search", "mannheim"]),
        Case(now: "2026-12-07T12:00:00Z", args: ["--offline", "gtfs", "catalog", "show", "mdb-1103"]),
        Case(now: "2018-11-20T15:00:00Z", args: ["gtfs", "import", Reference.path("gtfs-multi/feeds/caltrain-2018/caltrain.zip"), "--name", "caltrain-table"]),
    ]

    static func golden(_ width: Int) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Golden/tables-\(width).txt")
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent), arguments: [80, 100, 120])
    func tablesFitTheTerminalAndKeepEveryName(width: Int) async throws {
        // One cache for the widths' runs: each feed is compiled once.
        let env = Run.environment(["TRANSIT_CACHE_DIR": Self.cache])
        try await Self.writeCatalog()
        var shown = ""
        for c in Self.cases {
            var caseEnv = env
            caseEnv["TRANSIT_NOW"] = c.now
            let run = try await Run.inTerminal(c.args, env: caseEnv, columns: width)
            #expect(run.status == 0, "\(c.args): \(run.stderr)")
            // The pack's place, the import's milliseconds and its file's bytes (which hold the
            // source's path) differ from machine to machine.
            let stdout = run.stdout.replacingOccurrences(of: Reference.root.path, with: "…")
                .replacingOccurrences(of: #"(compile_ms|compiled_bytes)( +)[0-9]+"#, with: "$1$2…", options: .regularExpression)
            shown += "$ transit " + c.args.map { $0.hasPrefix(Reference.root.path) ? "…" + $0.dropFirst(Reference.root.path.count) : $0 }
                .map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ") + "\n" + stdout + "\n"
            // The header is bold on a terminal: what the checks read is the text.
            let lines = run.stdoutLines.map { $0.replacingOccurrences(of: "\u{1B}[1m", with: "").replacingOccurrences(of: "\u{1B}[0m", with: "") }
            // No line is wider than the terminal, but for `catalog show`'s URL that is wider by
            // itself: it stands whole on its line, a label before it (a URL broken is no link).
            for line in lines where !line.contains(#/^[a-z]+: +https?://\S+$/#) {
                #expect(TextWidth.of(line) <= width, "\(width) columns: \(line)")
            }
            if c.args[1] == "trips" {
                let journeys = try await Run.transit(c.args + ["--format", "json"], env: caseEnv).records()
                try Self.checkJourneys(lines, journeys, width: width)
            }
        }
        let file = Self.golden(width)
        if ProcessInfo.processInfo.environment["TRANSIT_UPDATE_GOLDEN"] == "1" {
            try shown.write(to: file, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(shown == expected, "differs from \(file.path) (TRANSIT_UPDATE_GOLDEN=1 writes it again)")
    }

    static let cache = Paths.temporary()

    /// The Mobility Database catalog as our script writes it from the pack's sources, where
    /// `--offline` reads it (`catalog search` with no download).
    static func writeCatalog() async throws {
        let directory = cache + "/catalog"
        guard !FileManager.default.fileExists(atPath: directory + "/feeds_v2.csv") else { return }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let run = try await Run.transitLike([try #require(Paths.python), Paths.root.appendingPathComponent("scripts/make-catalog-csv.py").path,
                                             Reference.path("catalog/mdb-catalogs/catalogs/sources"), directory + "/feeds_v2.csv"], env: ["PATH": "/usr/bin:/bin"])
        #expect(run.status == 0, "\(run.stderr)")
    }

    /// Each journey's row: DEPART and ARRIVE as JSON's, where to board uncut, and the JOURNEY
    /// column's lines (continuations joined) naming each ride's line whole.
    static func checkJourneys(_ lines: [String], _ journeys: [[String: Any]], width: Int) throws {
        let header = try #require(lines.first)
        let from = try #require(header.range(of: "FROM")).lowerBound.utf16Offset(in: header)
        let journey = try #require(header.range(of: "JOURNEY")).lowerBound.utf16Offset(in: header)
        // FROM ends where CHANGE AT starts, or JOURNEY where no journey changes.
        let change = (header.range(of: "CHANGE AT") ?? header.range(of: "JOURNEY"))?.lowerBound.utf16Offset(in: header) ?? journey
        // Rows: a line that starts with a time, then its continuation lines.
        var rows: [[String]] = []
        for line in lines.dropFirst() {
            if line.first?.isNumber == true { rows.append([line]) } else if !rows.isEmpty { rows[rows.count - 1].append(line) }
        }
        #expect(rows.count == journeys.count, "\(width): \(rows.count) rows for \(journeys.count) journeys")
        func cell(_ row: [String], _ start: Int, _ end: Int?) -> String {
            row.map { line -> String in
                let chars = Array(line)
                guard start < chars.count else { return "" }
                return String(chars[start..<min(chars.count, end ?? chars.count)]).trimmingCharacters(in: .whitespaces)
            }.filter { !$0.isEmpty }.reduce("") { $0.isEmpty ? $1 : $0.hasSuffix("/") ? $0 + $1 : $0 + " " + $1 }
        }
        for (row, record) in zip(rows, journeys) {
            let legs = try #require(record["legs"] as? [[String: Any]])
            let rides = legs.filter { $0["mode"] as? String == "ride" }
            let departure = try #require(record["departure"] as? String), arrival = try #require(record["arrival"] as? String)
            let first = row[0]
            #expect(first.hasPrefix(String(departure.dropFirst(11).prefix(5))), "\(width): \(first) for \(departure)")
            #expect(first.contains(String(arrival.dropFirst(11).prefix(5))), "\(width): \(first) for \(arrival)")
            let names = cell(row, journey, nil), boards = cell(row, from, change)
            for ride in rides {
                let route = try #require(ride["route"] as? String)
                #expect(names.contains(route), "\(width): '\(route)' not whole in '\(names)'")
            }
            #expect(!boards.isEmpty && !names.contains("…") && !boards.contains("…"), "\(width): \(row)")
        }
    }
}
