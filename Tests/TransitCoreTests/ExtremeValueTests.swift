import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport
import TransitTestSupport

/// Numbers at the ends of their types, from outside: each once trapped (exit 132 and a
/// backtrace) and is now an answer (issue 30's crashes 1–3), through the binary as a user meets it.
@Suite struct ExtremeValueTests: ProtobufWriting {
    func env(_ cache: String) -> [String: String] { Run.environment(["TRANSIT_CACHE_DIR": cache]) }

    /// A trip update for Lakeport's SL-WK-N05 of 2026-11-23 whose arrival at its second call is
    /// at `time` (POSIX seconds, any Int64).
    static func message(time: Int64) -> Data {
        let header = field(1, "2.0") + field(3, UInt64(1_795_442_280))
        let trip = field(1, "SL-WK-N05") + field(3, "20261123")
        let event = field(2, UInt64(bitPattern: time))
        let update = field(1, trip) + field(2, field(1, UInt64(2)) + field(2, event))
        return Data(field(1, header) + field(2, field(1, "e1") + field(3, update)))
    }

    @Test func timesAtTheEndsOfInt64AreNoCrash() async throws {
        let cache = Paths.temporary(), dir = Paths.temporary()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let imported = try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/lakeport"], env: env(cache))
        #expect(imported.status == 0, "\(imported.stderr)")
        let times: [Int64] = [.min, .min + 1, -930_000_000_000_000_000, .max]
        for time in times {
            let path = dir + "/t\(time).pb"
            try Self.message(time: time).write(to: URL(fileURLWithPath: path))
            for query in [["departures", "--stop", "Harbor", "--limit", "2"], ["trips", "--from", "Harbor", "--to", "Stadium", "--limit", "1"],
                          ["trip", "SL-WK-N05"], ["reach", "--from", "Harbor", "--minutes", "20"]] {
                let run = try await Run.transit(["gtfs"] + query + ["--date", "2026-11-23", "--after", "07:55", "--realtime", path]
                                                    .filter { !(query[0] == "trip" && ($0 == "--after" || $0 == "07:55")) }, env: env(cache))
                #expect(run.status == 0 && !run.stdout.isEmpty, "\(time) \(query[0]): \(run.status) \(run.stderr)")
            }
        }
    }

    /// A vehicle whose bearing is 1e30 (a valid float32) and whose speed is infinite: listed, with
    /// no bearing and no speed.
    @Test func aBearingOfOneE30IsNoBearing() async throws {
        func float(_ number: Int, _ value: Float) -> [UInt8] {
            Self.varint(UInt64(number << 3 | 5)) + withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) }
        }
        let position = float(1, 41.8402) + float(2, -87.6121) + float(3, 1e30) + float(5, .infinity)
        let vehicle = Self.field(1, Self.field(1, "SL-WK-N05")) + Self.field(2, position) + Self.field(8, Self.field(1, "bus-1"))
        let message = Self.field(1, Self.field(1, "2.0") + Self.field(3, UInt64(1_795_442_280))) + Self.field(2, Self.field(1, "v1") + Self.field(4, vehicle))
        let path = Paths.temporary() + ".pb"
        try Data(message).write(to: URL(fileURLWithPath: path))
        for format in ["json", "table", "geojson"] {
            // On the clock of its header (a clock 18 hours before it refuses the message).
            let run = try await Run.transit(["gtfs", "vehicles", "--feed", Paths.fixtures + "/gtfs/lakeport", "--realtime", path, "--format", format],
                                            env: env(Paths.temporary()).merging(["TRANSIT_NOW": "2026-11-23T13:58:00Z"]) { $1 })
            #expect(run.status == 0 && (run.stdout.contains("bus-1") || run.stdout.contains("41.8402")), "\(format): \(run.status) \(run.stderr)")
            if format == "json" {
                let row = try #require(try run.records().first)
                #expect(row["bearing"] is NSNull && row["speed"] is NSNull && row["trip_id"] as? String == "SL-WK-N05", "\(row)")
            }
        }
    }

    /// Issue 41, item 16: a speed of 3e38 m/s or −5 is no speed; a position dated a year ahead of
    /// the clock is left out (it printed AGE −31535991), one a minute ahead is 0 s old; a whole
    /// message dated a year ahead shows no vehicle. Each said in a counted notice.
    @Test func speedsAndTimesNoVehicleHasAreNone() async throws {
        func float(_ number: Int, _ value: Float) -> [UInt8] {
            Self.varint(UInt64(number << 3 | 5)) + withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) }
        }
        let now: UInt64 = 1_795_442_280  // TRANSIT_NOW below
        func vehicle(_ id: String, speed: Float, stamp: UInt64) -> [UInt8] {
            let position = float(1, 41.8402) + float(2, -87.6121) + float(5, speed)
            let v = Self.field(1, Self.field(1, "SL-WK-N05")) + Self.field(2, position) + Self.field(5, stamp) + Self.field(8, Self.field(1, id))
            return Self.field(2, Self.field(1, id) + Self.field(4, v))
        }
        func write(header: UInt64, _ entities: [UInt8]) throws -> String {
            let path = Paths.temporary() + ".pb"
            try Data(Self.field(1, Self.field(1, "2.0") + Self.field(3, header)) + entities).write(to: URL(fileURLWithPath: path))
            return path
        }
        let env = env(Paths.temporary()).merging(["TRANSIT_NOW": "2026-11-23T13:58:00Z"]) { $1 }
        let path = try write(header: now, vehicle("fast", speed: 3e38, stamp: now) + vehicle("back", speed: -5, stamp: now - 10)
                                 + vehicle("year", speed: 10, stamp: now + 31_536_000) + vehicle("minute", speed: 12.5, stamp: now + 60))
        let run = try await Run.transit(["gtfs", "vehicles", "--feed", Paths.fixtures + "/gtfs/lakeport", "--realtime", path, "--format", "json"], env: env)
        let rows = try run.records()
        let byID = Dictionary(uniqueKeysWithValues: rows.compactMap { row in (row["id"] as? String).map { ($0, row) } })
        #expect(Set(byID.keys) == ["fast", "back", "minute"], "\(rows) \(run.stderr)")
        #expect(byID["fast"]?["speed"] is NSNull && byID["back"]?["speed"] is NSNull && byID["minute"]?["speed"] as? Double == 12.5)
        #expect(byID["minute"]?["age_seconds"] as? Int == 0 && byID["back"]?["age_seconds"] as? Int == 10)
        #expect(run.stderr.contains("1 of 4 vehicle positions are dated more than 5 minutes ahead of the clock (left out)"), "\(run.stderr)")
        #expect(run.stderr.contains("1 of 4 vehicle positions are dated ahead of the clock (shown as 0 s old)"), "\(run.stderr)")
        let future = try write(header: now + 31_536_000, vehicle("later", speed: 10, stamp: now + 31_536_000))
        let ahead = try await Run.transit(["gtfs", "vehicles", "--feed", Paths.fixtures + "/gtfs/lakeport", "--realtime", future, "--format", "json"], env: env)
        let aheadRows = try ahead.records()
        #expect(ahead.status == 0 && aheadRows.isEmpty && ahead.stderr.contains("ahead of the clock") && ahead.stderr.contains("not shown"), "\(ahead.stderr)")
    }

    /// Issue 41, item 10: the alerts a call may have are looked up by what their selectors name
    /// (`ServiceAlert.Index`), and find what a look at every alert finds: random alerts on
    /// Lakeport's routes, stops, trips, route types and agency, random calls.
    @Test func theAlertIndexFindsWhatEveryAlertFinds() throws {
        let t = try GTFSCompiler.compile(try FeedFiles.open(Paths.fixtures + "/gtfs/lakeport")).0
        var g = SystemRandomNumberGenerator()
        func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &g)] }
        let routes = (0..<t.routeCount).map { t.routeIDs[$0] } + ["nowhere"], stops = (0..<t.stopCount).map { t.stopIDs[$0] } + ["nowhere"]
        let trips = (0..<t.tripCount).map { t.tripIDs[$0] } + ["nowhere"]
        for _ in 0..<4 {
            var entities: [FeedMessage.FeedEntity] = []
            for k in 0..<300 {
                var selectors: [FeedMessage.EntitySelector] = []
                for _ in 0..<Int.random(in: 1...3, using: &g) {
                    var s = FeedMessage.EntitySelector()
                    if Bool.random(using: &g) { s.routeID = pick(routes) }
                    if Int.random(in: 0..<4, using: &g) == 0 { s.stopID = pick(stops) }
                    if Int.random(in: 0..<5, using: &g) == 0 { s.trip = FeedMessage.TripDescriptor(tripID: pick(trips)) }
                    if Int.random(in: 0..<6, using: &g) == 0 { s.routeType = Int32(pick([0, 1, 2, 3])) }
                    if Int.random(in: 0..<8, using: &g) == 0 { s.agencyID = pick([t.agencyNames[0], "other"]) }
                    selectors.append(s)
                }
                entities.append(FeedMessage.FeedEntity(id: "a\(k)", alert: FeedMessage.Alert(informedEntities: selectors)))
            }
            let message = FeedMessage(header: FeedMessage.FeedHeader(version: "2.0", timestamp: 1_795_442_280), entities: entities)
            var updates = TripUpdates()
            updates.alerts = ServiceAlert.alerts([RealtimeSource.Message(source: "rt", message: message, now: 1_795_442_280)], language: "en")
            for _ in 0..<100 {
                let trip = Int.random(in: 0..<t.tripCount, using: &g), route = Int(t.tripRoute[trip])
                let at: [Int?] = [Int.random(in: 0..<t.stopCount, using: &g), Bool.random(using: &g) ? Int.random(in: 0..<t.stopCount, using: &g) : nil]
                let found = updates.alertIndices(t, route: route, trip: trip, at: at, merging: false).map { updates.alerts[$0].id }
                let every = updates.alerts.filter { a in at.contains { a.applies(t, route: route, trip: trip, stop: $0) } }.map(\.id)
                #expect(found == every, "trip \(t.tripIDs[trip]) at \(at)")
            }
        }
    }

    /// A message of 200,000 alerts (the audit's million, scaled to a test's time): a board reads
    /// the first 10,000 and says so; the two on the board's route, first in the message, mark its
    /// rows; under a 1 GB address space.
    @Test func aMessageOfManyAlertsIsReadToABound() async throws {
        let onSL = Self.field(2, Self.field(1, "sl1") + Self.field(5, Self.field(5, Self.field(2, "SL")) + Self.field(10, Self.field(1, Self.field(1, "Detour")))))
        var bytes = Self.field(1, Self.field(1, "2.0") + Self.field(3, UInt64(1_795_442_280))) + onSL
        for k in 0..<200_000 {
            bytes += Self.field(2, Self.field(1, "a\(k)") + Self.field(5, Self.field(5, Self.field(2, "route\(k)")) + Self.field(10, Self.field(1, Self.field(1, "Detour")))))
        }
        let path = Paths.temporary() + ".pb"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let env = env(Paths.temporary()).merging(["TRANSIT_NOW": "2026-11-23T13:58:00Z"]) { $1 }
        let run = try await Run.transit(["gtfs", "departures", "--feed", Paths.fixtures + "/gtfs/lakeport", "--stop", "Harbor", "--date", "2026-11-23",
                                         "--after", "07:00", "--limit", "2", "--realtime", path, "--format", "json"], env: env, addressSpace: 1 << 30)
        let rows = try run.records()
        #expect(run.status == 0 && rows.count == 2 && rows.allSatisfy { ($0["alerts"] as? [String]) == ["sl1"] }, "\(run.status) \(run.stderr) \(rows)")
        #expect(run.stderr.contains("190001 alerts past the first 10000 are not read"), "\(run.stderr)")
    }

    /// A stop at latitude 1e14 is no place: said at import, never reached on foot, and a `--walk`
    /// query or a combination holding the feed answers.
    @Test func coordinatesOutsideTheEarthAreNoPlace() async throws {
        let cache = Paths.temporary(), dir = Paths.temporary()
        try FileManager.default.copyItem(atPath: Paths.fixtures + "/gtfs/lakeport", toPath: dir)
        var stops = try String(contentsOfFile: dir + "/stops.txt", encoding: .utf8)
        stops = stops.replacingOccurrences(of: "HBR1,Harbor,41.8401,-87.6121", with: "HBR1,Harbor,1e14,-87.6121")
        #expect(stops.contains("1e14"))
        try stops.write(toFile: dir + "/stops.txt", atomically: true, encoding: .utf8)
        let imported = try await Run.transit(["gtfs", "import", dir, "--name", "far"], env: env(cache))
        #expect(imported.status == 0 && imported.stderr.contains("1 stop has coordinates outside ±90°/±180°"), "\(imported.stderr)")
        let walk = try await Run.transit(["gtfs", "trips", "--feed", "far", "--from", "Harbor", "--to", "Stadium", "--date", "2026-11-23",
                                          "--after", "07:00", "--walk", "400", "--limit", "1"], env: env(cache))
        #expect(walk.status == 0 && !walk.stdout.isEmpty, "\(walk.stderr)")
        let pair = try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/pairs/bay/bart", "--name", "bart"], env: env(cache))
        #expect(pair.status == 0)
        let all = try await Run.transit(["gtfs", "stops", "--feed", "all", "--name", "Harbor"], env: env(cache))
        #expect(all.status == 0 && all.stdout.contains("far:HBR1"), "\(all.stderr)")
    }

    /// A vehicle's timestamp past 2^63 (a UInt64 the feed may send) is no time: before, it
    /// printed as the year 318857 with a negative age.
    @Test func aTimestampPastTwoToThe63IsNoTime() async throws {
        func float(_ number: Int, _ value: Float) -> [UInt8] {
            Self.varint(UInt64(number << 3 | 5)) + withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) }
        }
        for stamp: UInt64 in [1 << 63, .max, 1 << 62] {
            let vehicle = Self.field(1, Self.field(1, "SL-WK-N05")) + Self.field(2, float(1, 41.8402) + float(2, -87.6121))
                + Self.field(5, stamp) + Self.field(8, Self.field(1, "bus-1"))
            let message = Self.field(1, Self.field(1, "2.0") + Self.field(3, stamp)) + Self.field(2, Self.field(1, "v1") + Self.field(4, vehicle))
            let path = Paths.temporary() + ".pb"
            try Data(message).write(to: URL(fileURLWithPath: path))
            let run = try await Run.transit(["gtfs", "vehicles", "--feed", Paths.fixtures + "/gtfs/lakeport", "--realtime", path, "--format", "json"],
                                            env: env(Paths.temporary()))
            let row = try #require(try run.records().first, "\(run.stderr)")
            #expect(row["timestamp"] is NSNull && row["age_seconds"] is NSNull && row["id"] as? String == "bus-1", "\(stamp): \(row)")
        }
    }

    /// An empty value is said, not read as no option (`--date ""` was today; `--limit=` no limit).
    @Test func emptyValuesAreUsageErrors() async throws {
        let feed = ["--feed", Paths.fixtures + "/gtfs/lakeport"]
        for option in ["--date", "--after", "--limit", "--stop"] {
            let run = try await Run.transit(["gtfs", "departures", "--stop", "Harbor"] + feed + ["\(option)=", "--no-cache"], env: env(Paths.temporary()))
            #expect(run.status == 2 && run.stdout.isEmpty && run.stderr.hasPrefix("transit: \(option) needs a value"), "\(option): \(run.stderr)")
        }
        let spaced = try await Run.transit(["gtfs", "trips", "--from", "Harbor", "--to", "Stadium", "--date", " "] + feed, env: env(Paths.temporary()))
        #expect(spaced.status == 2 && spaced.stderr.contains("--date needs a value"))
    }

    /// `all` cannot name a feed (`--feed all` means every one): refused as --name and as a file's name.
    @Test func aFeedCannotBeCalledAll() async throws {
        let cache = Paths.temporary()
        let named = try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/lakeport", "--name", "all"], env: env(cache))
        #expect(named.status == 2 && named.stderr.contains("cannot be called 'all'"), "\(named.stderr)")
        let dir = Paths.temporary() + "/all"
        try FileManager.default.copyItem(atPath: Paths.fixtures + "/gtfs/lakeport", toPath: dir)
        let stem = try await Run.transit(["gtfs", "import", dir], env: env(cache))
        #expect(stem.status == 2 && stem.stderr.contains("--name NAME") && !FileManager.default.fileExists(atPath: cache + "/gtfs/all.timetable"))
    }

    /// Feed text holding a C1 control (U+009B, a terminal's CSI) or a bidi override (U+202E):
    /// stripped from tables, tsv and csv, escaped in JSON (the text kept exact).
    @Test func controlsAndBidiOverridesNeverReachATerminal() async throws {
        let dir = Paths.temporary()
        try FileManager.default.copyItem(atPath: Paths.fixtures + "/gtfs/lakeport", toPath: dir)
        var stops = try String(contentsOfFile: dir + "/stops.txt", encoding: .utf8)
        stops = stops.replacingOccurrences(of: "HBR1,Harbor,", with: "HBR1,Har\u{9B}31mbor\u{202E}rettel,")
        try stops.write(toFile: dir + "/stops.txt", atomically: true, encoding: .utf8)
        for format in ["table", "tsv", "csv", "json"] {
            let run = try await Run.transit(["gtfs", "stops", "--feed", dir, "--name", "Har", "--format", format], env: env(Paths.temporary()))
            #expect(run.status == 0 && !run.stdout.unicodeScalars.contains { $0.value == 0x9B || $0.value == 0x202E }, "\(format): \(run.stdout)")
            if format == "json" {
                #expect(run.stdout.contains("Har\\u009b31mbor\\u202erettel"), "\(run.stdout)")
                #expect(try run.records().contains { $0["name"] as? String == "Har\u{9B}31mbor\u{202E}rettel" })
            } else {
                #expect(run.stdout.contains("Har31mborrettel"), "\(format): \(run.stdout)")
            }
        }
    }
}
