import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport

@Suite struct RendererTests {
    let day = LocalDate(year: 2026, month: 11, day: 23)

    struct Row {
        var code: String
        var name: String
        var time: Date?
        var n: Int
        var lat: Double
        var ok: Bool
        var tags: [String]
    }

    var output: Output {
        let t = day.instant(minutes: 18 * 60 + 4, in: BART.zone)
        let rows = [Row(code: "24TH", name: "24th St\tMission", time: t, n: 7, lat: 37.752, ok: true, tags: ["a", "b"]),
                    Row(code: "北京", name: "Quote \"me\", please", time: nil, n: 12, lat: -1.5, ok: false, tags: [])]
        let data: [Column<Row>] = [
            Column("code") { .string($0.code) }, Column("name") { .string($0.name) },
            Column("time", "DEPART") { $0.time.map { .time($0, BART.zone) } ?? .null }, Column("n") { .int($0.n) },
            Column("lat") { .double($0.lat) }, Column("ok") { .bool($0.ok) }, Column("tags") { .list($0.tags.map(Value.string)) },
        ]
        return Output(rows, data: data, table: [data[0], data[3], data[2], data[1]])
    }

    @Test func tsvHasNoHeaderAndNoTabsInValues() throws {
        let text = try Renderer(format: .tsv).render(output)
        #expect(text == "24TH\t24th St Mission\t2026-11-23T18:04:00-08:00\t7\t37.752\ttrue\ta,b\n"
                     + "北京\tQuote \"me\", please\t\t12\t-1.5\tfalse\t\n")
        let withHeader = try Renderer(format: .tsv, header: true).render(output)
        #expect(withHeader.hasPrefix("code\tname\ttime\tn\tlat\tok\ttags\n"))
    }

    @Test func csvFollowsRFC4180() throws {
        let text = try Renderer(format: .csv).render(output)
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines[0] == "code,name,time,n,lat,ok,tags")
        #expect(lines[1] == "24TH,24th St\tMission,2026-11-23T18:04:00-08:00,7,37.752,true,\"a,b\"")
        #expect(lines[2] == "北京,\"Quote \"\"me\"\", please\",,12,-1.5,false,")
        #expect(try Renderer(format: .csv, header: false).render(output).hasPrefix("24TH,"))
    }

    /// Issue 41, item 14: a csv text cell a spreadsheet would run as a formula gets a leading `'`
    /// (OWASP's advice); ids, codes and numbers stay as scripts pass them back; tsv is raw.
    @Test func csvTextCellsNeverOpenAFormula() throws {
        struct Row { var id, name, headsign, delay: String }
        let rows = [Row(id: "-A1", name: "=HYPERLINK(\"http://x\",\"y\")", headsign: "+1 Downtown", delay: "-5"),
                    Row(id: "@B", name: "@SUM(A1)", headsign: "-inf", delay: "+1.5"),
                    Row(id: "C", name: "\tTab", headsign: "Plain", delay: "x")]
        let output = Output(rows, data: [Column("stop_id") { .string($0.id) }, Column("name") { .string($0.name) },
                                         Column("headsign") { .string($0.headsign) }, Column("delay") { .string($0.delay) }], table: [])
        let csv = try Renderer(format: .csv).render(output).components(separatedBy: "\r\n")
        #expect(csv[1] == "-A1,\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",'+1 Downtown,-5", "\(csv)")
        #expect(csv[2] == "@B,'@SUM(A1),'-inf,+1.5", "\(csv)")
        #expect(csv[3] == "C,'\tTab,Plain,x", "\(csv)")
        let tsv = try Renderer(format: .tsv).render(output).components(separatedBy: "\n")
        #expect(tsv[0] == "-A1\t=HYPERLINK(\"http://x\",\"y\")\t+1 Downtown\t-5" && tsv[1] == "@B\t@SUM(A1)\t-inf\t+1.5", "\(tsv)")
    }

    /// The same through the binary: a feed whose stop is named as a formula.
    @Test func aStopNamedAsAFormulaIsDefusedInCSV() async throws {
        let feed = TestFeed(["stops.txt": "stop_id,stop_name,stop_lat,stop_lon\n-S1,=1+2,37.0,-122.0\nS2,@cmd,37.01,-122.0\n",
                             "trips.txt": "route_id,service_id,trip_id\nR,S,t1\n",
                             "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nt1,08:00:00,08:00:00,-S1,1\nt1,08:10:00,08:10:00,S2,2\n"])
        let env = Run.environment(["TRANSIT_CACHE_DIR": Paths.temporary()])
        let csv = try await Run.transit(["gtfs", "stops", "--feed", feed.directory, "--format", "csv"], env: env)
        #expect(csv.status == 0 && csv.stdout.components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty }.map { $0.split(separator: ",", maxSplits: 3, omittingEmptySubsequences: false).prefix(3).joined(separator: ",") } == ["-S1,,'=1+2", "S2,,'@cmd"], "\(csv.stdout)")
        let tsv = try await Run.transit(["gtfs", "stops", "--feed", feed.directory, "--format", "tsv"], env: env)
        #expect(tsv.stdoutLines.first?.hasPrefix("-S1\t\t=1+2\t") == true, "\(tsv.stdout)")
    }

    @Test func jsonKeepsKeyOrderAndTypes() throws {
        let text = try Renderer(format: .json).render(output)
        let expectedStart = """
        [
          {
            "code": "24TH",
            "name": "24th St\\tMission",
            "time": "2026-11-23T18:04:00-08:00",
            "n": 7,
            "lat": 37.752,
            "ok": true,
            "tags": [
              "a",
              "b"
            ]
          },
        """
        #expect(text.hasPrefix(expectedStart))
        #expect(text.contains("\"time\": null"))
        #expect(text.contains("\"tags\": []"))
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]
        #expect(parsed?.count == 2)
        #expect(parsed?[1]["name"] as? String == "Quote \"me\", please")
        #expect(try Renderer(format: .json).render(Output.empty([])) == "[]\n")
    }

    /// The byte writer against Foundation: random text (controls, C1, bidi overrides, quotes,
    /// backslashes, CJK, emoji) reads back as it was, with every control escaped; integers print
    /// as `String(_:)` does; times as Foundation's formatter writes them, in zones with half and
    /// three-quarter hours, and at the ends of four-digit years (worked out by Python's datetime).
    @Test func theJSONWriterWritesBytesAsTheStringsWere() throws {
        var random = SplitMix(seed: 32)
        let pieces = ["a", "Z", " ", "\"", "\\", "\n", "\t", "\r", "\u{1}", "\u{1B}", "\u{7F}", "\u{85}", "\u{9B}", "\u{202E}", "\u{2066}",
                      "é", "北京", "🚆", "/", "\u{0}", "}", "{", ":"]
        for _ in 0..<2_000 {
            let text = (0..<Int(random.next() % 12)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            let written = JSONWriter.write(.list([.string(text)]))
            let back = try JSONSerialization.jsonObject(with: Data(written.utf8)) as? [String]
            #expect(back == [text], "\(written)")
            #expect(!written.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) || Sanitize.isBidiControl($0.value) },
                    "\(written.debugDescription)")
        }
        for value in [0, 7, -7, 10, -10, 1_000_000, Int.max, Int.min] + (0..<500).map({ _ in Int(bitPattern: UInt(random.next())) >> Int(random.next() % 63) }) {
            #expect(JSONWriter.write(.int(value)) == String(value))
        }
        let zones = ["America/Los_Angeles", "Asia/Kolkata", "America/St_Johns", "Asia/Kathmandu", "Europe/Lisbon", "UTC"].compactMap(TimeZone.init(identifier:))
        #expect(zones.count == 6)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssxxx"
        // 1901 to 2096: Foundation's Gregorian calendar is Julian before 1582, ours never is.
        for seconds in [0, 1_795_442_280] + (0..<300).map({ _ in Double(random.next() % 6_200_000_000) - 2_150_000_000 }) {
            for zone in zones {
                let date = Date(timeIntervalSince1970: seconds)
                formatter.timeZone = zone
                var bytes: [UInt8] = []
                ClockTime.iso8601(date, zone: zone, into: &bytes)
                #expect(String(decoding: bytes, as: UTF8.self) == formatter.string(from: date), "\(seconds) \(zone.identifier)")
            }
        }
        let utc = try #require(TimeZone(identifier: "UTC"))
        for (seconds, text) in [(-62_135_596_800.0, "0001-01-01T00:00:00+00:00"), (1e11, "5138-11-16T09:46:40+00:00"), (253_402_300_799, "9999-12-31T23:59:59+00:00")] {
            var bytes: [UInt8] = []
            ClockTime.iso8601(Date(timeIntervalSince1970: seconds), zone: utc, into: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == text)
        }
    }

    /// A value written once (`Value.encoded`, issue 67) writes what the value itself writes, at
    /// the depth it was written for and at any other (read again there), in every format, and
    /// equals the value it holds.
    @Test func aValueWrittenOnceWritesAsTheValue() throws {
        let zone = try #require(TimeZone(identifier: "Asia/Kolkata"))
        let fare = Value.object(Record([("total", .double(4.6)), ("currency", .string("USD")), ("at", .time(Date(timeIntervalSince1970: 1e9), zone)),
                                        ("legs", .list([.object(Record([("fare_id", .string("a\"b")), ("legs", .list([.int(0), .int(2)]))]))])), ("rider", .null)]))
        for indent in [0, 1, 2, 3] {
            let encoded = Value.encoded(EncodedJSON(fare, indent: indent))
            for depth in 0...3 {
                var once: [UInt8] = [], plain: [UInt8] = [], offsets = ZoneOffsets()
                JSONWriter.append(encoded, to: &once, indent: depth, offsets: &offsets)
                JSONWriter.append(fare, to: &plain, indent: depth, offsets: &offsets)
                #expect(once == plain, "written for \(indent), at \(depth)")
            }
            let rows = [Record([("id", .int(1)), ("fare", encoded)]), Record([("id", .int(2)), ("fare", fare)])]
            let columns = ["id", "fare"].map { key in Column<Record>(key) { $0[key] ?? .null } }
            let json = try Renderer(format: .json).render(Output(rows, data: columns, table: columns))
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
            #expect(parsed.count == 2 && NSDictionary(dictionary: parsed[0]["fare"] as? [String: Any] ?? [:]).isEqual(to: parsed[1]["fare"] as? [String: Any] ?? ["x": 1]))
            #expect(Renderer.flatText(encoded) == Renderer.flatText(fare) && Renderer.tableText(encoded) == Renderer.tableText(fare))
            #expect(encoded == fare && fare == encoded && encoded != .object(Record([])) && Value.list([encoded]) == .list([fare]))
        }
    }

    /// A long output goes to the sink a megabyte at a time, each piece ending between records,
    /// and the pieces joined are the whole document: JSON that parses to every row, in order,
    /// with its multi-byte names and times; tsv with every line.
    @Test func aLongOutputGoesOutInPiecesThatJoinToTheWhole() throws {
        let t = day.instant(minutes: 6 * 60, in: BART.zone)
        let rows = (0..<60_000).map { i in Row(code: "北京\(i)", name: "Ståtion ø \(i) 🚆", time: t.addingTimeInterval(Double(i) * 7), n: i, lat: 0, ok: i % 2 == 0, tags: []) }
        let data: [Column<Row>] = [Column("code") { .string($0.code) }, Column("name") { .string($0.name) },
                                   Column("time") { $0.time.map { .time($0, BART.zone) } ?? .null }, Column("n") { .int($0.n) }]
        let output = Output(rows, data: data, table: data)
        for format in [OutputFormat.json, .tsv] {
            var pieces: [[UInt8]] = []
            try Renderer(format: format).write(output) { pieces.append(Array($0)) }
            let joined = pieces.flatMap { $0 }
            #expect(pieces.count > 2 && pieces.dropLast().allSatisfy { $0.count >= Renderer.piece && $0.count < Renderer.piece + 4096 }, "\(format): \(pieces.map(\.count))")
            #expect(pieces.allSatisfy { String(validating: $0, as: UTF8.self) != nil && $0.last == UInt8(ascii: "\n") })
            if format == .json {
                let parsed = try #require(try JSONSerialization.jsonObject(with: Data(joined)) as? [[String: Any]])
                #expect(parsed.count == rows.count)
                #expect(parsed.enumerated().allSatisfy { i, record in
                    record["code"] as? String == rows[i].code && record["name"] as? String == rows[i].name && record["n"] as? Int == i
                        && record["time"] as? String == ClockTime.iso8601(t.addingTimeInterval(Double(i) * 7), zone: BART.zone)
                })
            } else {
                let lines = String(decoding: joined, as: UTF8.self).split(separator: "\n")
                #expect(lines.count == rows.count && lines.enumerated().allSatisfy { i, line in line.hasPrefix("\(rows[i].code)\t\(rows[i].name)\t") })
            }
        }
    }

    @Test func tableAlignsWideCharactersAndNumbers() throws {
        let text = try Renderer(format: .table).render(output)
        #expect(text == """
        CODE   N  DEPART  NAME
        24TH   7  18:04   24th St\tMission
        北京  12          Quote "me", please

        """)
        let colored = try Renderer(format: .table, color: true).render(output)
        #expect(colored.hasPrefix("\u{1B}[1mCODE"))
    }

    @Test func controlCharactersNeverReachTheTerminalOrALine() throws {
        struct Row { var name: String }
        let hostile = "Route\u{1B}]0;pwned\u{07} 22\u{1B}[2J\r\u{9B}31m\nnext"
        let output = Output([Row(name: hostile)], data: [Column("name") { .string($0.name) }], table: [Column("name") { .string($0.name) }])
        #expect(try Renderer(format: .table).render(output) == "NAME\nRoute]0;pwned 22[2J31m next\n")
        #expect(try Renderer(format: .tsv).render(output) == "Route]0;pwned 22[2J31m next\n")
        #expect(try Renderer(format: .csv, header: false).render(output) == "\"Route]0;pwned 22[2J31m\nnext\"\r\n")
        // JSON escapes them instead.
        #expect(try Renderer(format: .json).render(output).contains("Route\\u001b]0;pwned\\u0007 22"))
    }

    @Test func tableOfNothingIsEmpty() throws {
        #expect(try Renderer(format: .table).render(Output([Row](), data: [], table: [Column("a") { .string($0.code) }])) == "")
        #expect(try Renderer(format: .tsv).render(Output([Row](), data: [], table: [Column("a") { .string($0.code) }])) == "")
    }

    @Test func displayWidth() {
        #expect(TextWidth.of("abc") == 3)
        #expect(TextWidth.of("北京南") == 6)
        #expect(TextWidth.of("Montréal") == 8)
        #expect(TextWidth.of("e\u{301}") == 1)
        #expect(TextWidth.pad("北", to: 4) == "北  ")
    }

    @Test func geojsonOnlyWhereSupported() {
        #expect(throws: TransitError.usage("--format geojson is only for commands that return places (stops, vehicles)")) { try Renderer(format: .geojson).render(output) }
    }
}

/// Issue 12 item 14: a table wider than the terminal shrinks its widest text column with an
/// ellipsis; times and numbers never; piped output is never cut.
@Suite struct TableWidthTests {
    struct Row { var name: String; var time: Date; var count: Int }
    static let zone = TimeZone(identifier: "America/Los_Angeles") ?? .current
    // 17:01 and 17:07 in Pacific time on 2026-11-23.
    let output = Output([Row(name: "Millbrae via San Francisco International Airport", time: Date(timeIntervalSince1970: 1_795_482_060), count: 12),
                         Row(name: "Richmond", time: Date(timeIntervalSince1970: 1_795_482_420), count: 3)],
                        data: [Column("name") { .string($0.name) }],
                        table: [Column("time") { .time($0.time, Self.zone) }, Column("count") { .int($0.count) }, Column("toward") { .string($0.name) }])

    @Test func theWidestTextColumnShrinksWithAnEllipsis() throws {
        let fitted = try Renderer(format: .table, width: 30).render(output)
        #expect(fitted == """
        TIME   COUNT  TOWARD
        17:01     12  Millbrae via Sa…
        17:07      3  Richmond

        """)
        #expect(fitted.split(separator: "\n").allSatisfy { TextWidth.of(String($0)) <= 30 })
        // Wide enough, or no width (piped): nothing is cut.
        #expect(try Renderer(format: .table, width: 200).render(output) == Renderer(format: .table).render(output))
        #expect(try Renderer(format: .table).render(output).contains("Millbrae via San Francisco International Airport"))
        // Too narrow even for the floor: the text column stops at its floor, the numbers stay whole.
        let narrow = try Renderer(format: .table, width: 5).render(output)
        #expect(narrow.contains("17:01     12  Millb…"))
    }

    @Test func truncationCountsTerminalCells() {
        #expect(TextWidth.truncate("北京南站到上海", to: 5) == "北京…")
        #expect(TextWidth.truncate("short", to: 5) == "short")
        #expect(TextWidth.truncate("longer", to: 1) == "…")
    }
}
