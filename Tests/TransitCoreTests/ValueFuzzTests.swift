import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport
import TransitTestSupport

extension CPUBound {
    /// Field values at their extremes, not bytes: GTFS-Realtime messages written field by field
    /// with varints at both ends of their types, Int64 times at both ends, NaN and infinite
    /// floats; and small static feeds whose cells hold extreme numbers. Each input must end in
    /// an answer or an error, never a trap (which ends this process), and the process's peak
    /// memory stays under 1 GB.
    ///
    /// CI runs 1,500 of each; `scripts/fuzz values` runs 100,000 of each in batches
    /// (`TRANSIT_FUZZ_SEED`, `TRANSIT_FUZZ_VALUE_INPUTS`).
    @Suite struct ValueFuzzTests {
        static let environment = ProcessInfo.processInfo.environment
        static let seed = UInt64(environment["TRANSIT_FUZZ_SEED"] ?? "") ?? 20261126
        static let inputs = Int(environment["TRANSIT_FUZZ_VALUE_INPUTS"] ?? "") ?? 1500

        static let integers: [UInt64] = [0, 1, 2, 127, 128, 255, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 1 << 32, 1 << 53, UInt64(Int64.max), 1 << 63, .max,
                                         UInt64(bitPattern: -1), UInt64(bitPattern: Int64(Int32.min)), UInt64(bitPattern: -86_400), UInt64(bitPattern: .min + 1)]
        static let floats: [Float] = [.nan, .infinity, -.infinity, 0, -0.0, 1e30, -1e30, .greatestFiniteMagnitude, .leastNonzeroMagnitude, 41.84, -87.61, 91, 181, -720]

        /// One of the extremes, or a plausible value around `near` (so that most messages also
        /// match something and reach the code past the checks).
        static func integer(_ g: inout SplitMix, near: Int64) -> UInt64 {
            g.next() % 3 == 0 ? UInt64(bitPattern: near &+ Int64(g.next() % 7200) &- 3600) : integers[Int(g.next() % UInt64(integers.count))]
        }

        static func float(_ number: Int, _ g: inout SplitMix) -> [UInt8] {
            let value = floats[Int(g.next() % UInt64(floats.count))]
            return ExtremeValueTests.varint(UInt64(number << 3 | 5)) + withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) }
        }

        static func pick(_ g: inout SplitMix, _ values: [String]) -> String { values[Int(g.next() % UInt64(values.count))] }

        static let trips = ["SL-WK-N05", "SL-WK-S05", "M1-WK-E", "SL-WE-N03", "nope", "", String(repeating: "x", count: 300)]
        static let stops = ["HBR2", "MKT2", "UNI2", "STD1", "HBR", "nope", ""]
        static let dates = ["20261123", "", "99999999", "2026-11-23", "00000000", "20261131", "2026112"]
        static let times = ["08:00:00", "99:99:99", "", "-1:00:00", "239:59:59", "7:5", "00:00:00"]

        /// A random message: trip updates, vehicles and alerts, each field present or not.
        static func message(_ g: inout SplitMix) -> Data {
            typealias P = ExtremeValueTests
            let now: Int64 = 1_795_442_280
            var entities: [UInt8] = []
            for e in 0..<(1 + Int(g.next() % 4)) {
                var entity = P.field(1, "e\(e)")
                var trip = P.field(1, pick(&g, trips))
                if g.next() % 2 == 0 { trip += P.field(3, pick(&g, dates)) }
                if g.next() % 3 == 0 { trip += P.field(2, pick(&g, times)) }
                if g.next() % 3 == 0 { trip += P.field(4, integers[Int(g.next() % UInt64(integers.count))]) }
                if g.next() % 4 == 0 { trip += P.field(5, pick(&g, ["SL", "M1", "zz"])) + P.field(6, integer(&g, near: 0)) }
                switch g.next() % 3 {
                case 0:
                    var update = P.field(1, trip)
                    for _ in 0..<Int(g.next() % 5) {
                        var call: [UInt8] = []
                        if g.next() % 2 == 0 { call += P.field(1, integer(&g, near: 3)) }
                        if g.next() % 2 == 0 { call += P.field(4, pick(&g, stops)) }
                        for event in [2, 3] where g.next() % 2 == 0 {
                            var value: [UInt8] = []
                            if g.next() % 2 == 0 { value += P.field(1, integer(&g, near: 120)) }
                            if g.next() % 2 == 0 { value += P.field(2, integer(&g, near: now)) }
                            if g.next() % 4 == 0 { value += P.field(3, integer(&g, near: 30)) }
                            call += P.field(event, value)
                        }
                        if g.next() % 4 == 0 { call += P.field(5, integers[Int(g.next() % UInt64(integers.count))]) }
                        update += P.field(2, call)
                    }
                    if g.next() % 3 == 0 { update += P.field(4, integer(&g, near: now)) }
                    if g.next() % 3 == 0 { update += P.field(5, integer(&g, near: 300)) }
                    entity += P.field(3, update)
                case 1:
                    var position = float(1, &g) + float(2, &g)
                    if g.next() % 2 == 0 { position += float(3, &g) }
                    if g.next() % 2 == 0 { position += float(5, &g) }
                    if g.next() % 4 == 0 { position += P.varint(UInt64(4 << 3 | 1)) + withUnsafeBytes(of: UInt64(integer(&g, near: 0)).littleEndian) { Array($0) } }
                    var vehicle = P.field(1, trip) + P.field(2, position) + P.field(8, P.field(1, "bus-\(e)"))
                    if g.next() % 2 == 0 { vehicle += P.field(3, integer(&g, near: 3)) }
                    if g.next() % 2 == 0 { vehicle += P.field(4, integers[Int(g.next() % UInt64(integers.count))]) }
                    if g.next() % 2 == 0 { vehicle += P.field(5, integer(&g, near: now)) }
                    if g.next() % 2 == 0 { vehicle += P.field(7, pick(&g, stops)) }
                    if g.next() % 3 == 0 { vehicle += P.field(9, integers[Int(g.next() % UInt64(integers.count))]) }
                    entity += P.field(4, vehicle)
                default:
                    var alert: [UInt8] = []
                    for _ in 0..<Int(g.next() % 3) {
                        var period: [UInt8] = []
                        if g.next() % 2 == 0 { period += P.field(1, integer(&g, near: now)) }
                        if g.next() % 2 == 0 { period += P.field(2, integer(&g, near: now)) }
                        alert += P.field(1, period)
                    }
                    var selector = P.field(2, pick(&g, ["SL", "M1", "zz"]))
                    if g.next() % 2 == 0 { selector += P.field(3, integers[Int(g.next() % UInt64(integers.count))]) }
                    if g.next() % 2 == 0 { selector += P.field(4, trip) }
                    if g.next() % 2 == 0 { selector += P.field(5, pick(&g, stops)) }
                    alert += P.field(5, selector)
                    for number in [6, 7, 14] where g.next() % 2 == 0 { alert += P.field(number, integers[Int(g.next() % UInt64(integers.count))]) }
                    alert += P.field(10, P.field(1, P.field(1, "Detour \u{9B}31m\u{202E}") + P.field(2, pick(&g, ["en", "", "x-weird"]))))
                    entity += P.field(5, alert)
                }
                entities += P.field(2, entity)
            }
            let header = P.field(1, "2.0") + (g.next() % 4 == 0 ? [] : P.field(3, integer(&g, near: now)))
            return Data(P.field(1, header) + entities)
        }

        /// Peak resident memory of this process, in bytes.
        static func peakMemory() -> Int {
            var usage = rusage()
            getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
            return usage.ru_maxrss * 1024
        }

        @Test func realtimeFieldValuesAtTheirExtremes() async throws {
            let cache = Paths.temporary()
            let lakeport = Paths.fixtures + "/gtfs/lakeport"
            _ = try FeedStore(cacheDirectory: cache).install(try FeedFiles.open(lakeport), name: "lakeport", source: lakeport)
            let feed = try GTFSFeed.imported("lakeport", cacheDirectory: cache)
            let t = try FeedStore.load(FeedStore(cacheDirectory: cache).path(of: "lakeport")).1
            let directory = Paths.temporary()
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let day = LocalDate(year: 2026, month: 11, day: 23)
            var g = SplitMix(seed: Self.seed)
            var answered = 0
            for index in 0..<Self.inputs {
                let data = Self.message(&g)
                if let dump = Self.environment["TRANSIT_FUZZ_DUMP"] { _ = FileManager.default.createFile(atPath: dump, contents: data) }
                let now = Date(timeIntervalSince1970: 1_795_442_280 + Double(g.next() % 7200))
                if let realtime = try? feed.realtime(data, now: g.next() % 5 == 0 ? nil : now) {
                    _ = try? feed.journeys(JourneyQuery(from: "Harbor", to: "Stadium", date: day, after: 25_000, before: 32_000), realtime: realtime)
                    _ = try? feed.departures(at: "Market", date: day, after: 25_000, realtime: realtime)
                    _ = try? feed.trip(Self.pick(&g, Self.trips), date: day, realtime: realtime)
                    _ = try? feed.reach(ReachQuery(from: .stop("Harbor"), day: .on(day), after: .asWritten(seconds: 27_000), minutes: 30), realtime: realtime)
                    answered += 1
                }
                if let decoded = try? FeedMessage.decode(data) {
                    let message = RealtimeMessage(source: "fuzz", message: decoded, now: Int(now.timeIntervalSince1970))
                    _ = VehiclePositions.rows([message], t)
                    _ = ServiceAlert.alerts([message], language: "en")
                }
                // One in twenty through the whole command and its output, in this process.
                if index % 20 == 0 {
                    let path = directory + "/m.pb"
                    try data.write(to: URL(fileURLWithPath: path))
                    let command = Self.pick(&g, ["departures --stop Harbor", "trips --from Harbor --to Stadium --after 07:00", "trip SL-WK-N05",
                                                 "reach --from Harbor --minutes 20 --after 07:00", "vehicles", "alerts"])
                    let args = ["gtfs"] + command.split(separator: " ").map(String.init)
                        + ["--feed", "lakeport", "--realtime", path, "--format", Self.pick(&g, ["json", "table", "tsv", "csv"])]
                        + (command.hasPrefix("vehicles") || command.hasPrefix("alerts") ? [] : ["--date", "2026-11-23"])
                    let app = App(terminal: Terminal(stdout: false, stderr: false), writeOut: { _ in }, writeErr: { _ in })
                    _ = await app.run(args, environment: Run.environment(["TRANSIT_CACHE_DIR": cache, "TRANSIT_NOW": "2026-11-23T13:58:00Z"]))
                }
            }
            print("value fuzz: \(Self.inputs) GTFS-Realtime messages, \(answered) read, peak memory \(Self.peakMemory() >> 20) MB")
            #expect(answered > Self.inputs / 4, "\(answered) of \(Self.inputs) messages were read at all")
            #expect(Self.peakMemory() < 1 << 30, "peak memory \(Self.peakMemory() >> 20) MB")
        }

        /// Street maps written field by field (issue 41): nodes whose ids, places, granularity and
        /// offsets sit at the ends of their types, ways whose refs jump by ±2^63, repeat a node or
        /// name none; the walking network built, filed in its grid under the map's bound, Lakeport's
        /// stored walks measured on it and a point walked from.
        @Test func mapValuesAtTheirExtremes() async throws {
            typealias P = ExtremeValueTests
            let t0 = try GTFSCompiler.compile(try FeedFiles.open(Paths.fixtures + "/gtfs/lakeport")).0
            let ids: [Int64] = [0, 1, 2, -1, .max, .min, 1 << 32, -(1 << 31)]
            let places: [Int64] = [0, 418_800_000, -876_400_000, 900_000_000, -1_800_000_000, Int64(Int32.max), Int64(Int32.min), .max, .min, 1]
            var g = SplitMix(seed: Self.seed &+ 2)
            func any(_ values: [Int64]) -> Int64 { values[Int(g.next() % UInt64(values.count))] }
            var built = 0
            for _ in 0..<Self.inputs {
                var nodes: [UInt8] = [], wayRefs: [Int64] = []
                let count = 1 + Int(g.next() % 12)
                for k in 0..<count {
                    let id = g.next() % 4 == 0 ? any(ids) : Int64(k + 1)
                    let lat = g.next() % 3 == 0 ? any(places) : 418_800_000 + Int64(g.next() % 20_000)
                    let lon = g.next() % 3 == 0 ? any(places) : -876_400_000 + Int64(g.next() % 20_000)
                    nodes += P.field(1, P.field(1, PBFWriter.zigzag(id)) + P.field(8, PBFWriter.zigzag(lat)) + P.field(9, PBFWriter.zigzag(lon)))
                    wayRefs.append(id)
                }
                var refs: [Int64] = []
                for _ in 0..<(Int(g.next() % 30)) { refs.append(g.next() % 5 == 0 ? any(ids) : wayRefs[Int(g.next() % UInt64(wayRefs.count))]) }
                var previous: Int64 = 0
                let deltas = refs.map { ref -> UInt64 in defer { previous = ref }; return PBFWriter.zigzag(ref &- previous) }
                let strings = ["", "highway", g.next() % 6 == 0 ? "motorway" : "residential"].flatMap { P.field(1, $0) }
                let way = P.field(1, g.next() % 7 == 0 ? UInt64.max : 100) + P.field(2, PBFWriter.packed([1])) + P.field(3, PBFWriter.packed([2]))
                    + P.field(8, PBFWriter.packed(deltas))
                var block = P.field(1, strings) + P.field(2, nodes + P.field(3, way))
                if g.next() % 4 == 0 { block += P.field(17, Self.integers[Int(g.next() % UInt64(Self.integers.count))]) }
                if g.next() % 4 == 0 { block += P.field(19, Self.integers[Int(g.next() % UInt64(Self.integers.count))]) }
                if g.next() % 4 == 0 { block += P.field(20, Self.integers[Int(g.next() % UInt64(Self.integers.count))]) }
                let data = PBFWriter.file([("OSMHeader", PBFWriter.raw(PBFWriter.header())), ("OSMData", PBFWriter.raw(block))])
                guard let network = data.withUnsafeBytes({ bytes in try? StreetNetwork.read(bytes, what: "fuzz") }) else { continue }
                guard let grid = network.grid(limit: StreetNetwork.maxGridEntries(mapBytes: data.count)) else { continue }
                built += 1
                var t = t0
                _ = StreetFootpaths.measure(&t, on: network, grid: grid)
                _ = StreetWalker(network, grid).meters(from: Coordinate(latitude: 41.88, longitude: -87.64), to: (0..<min(4, t.stopCount)).map { ($0, 50.0) },
                                                       limit: 1500, in: t)
            }
            print("value fuzz: \(Self.inputs) maps, \(built) networks built, peak memory \(Self.peakMemory() >> 20) MB")
            #expect(built > Self.inputs / 4, "\(built) of \(Self.inputs) maps were built at all")
            #expect(Self.peakMemory() < 1 << 30, "peak memory \(Self.peakMemory() >> 20) MB")
        }

        /// A small feed (two routes, a frequencies.txt trip, transfers, exceptions) with some of
        /// its cells replaced by extreme numbers, compiled and asked.
        @Test func staticFeedNumbersAtTheirExtremes() async throws {
            let base: [String: [[String]]] = [
                "agency.txt": [["agency_name", "agency_url", "agency_timezone"], ["A", "http://a", "America/Chicago"]],
                "stops.txt": [["stop_id", "stop_name", "stop_lat", "stop_lon", "parent_station", "location_type"],
                              ["P", "Station", "41.0", "-87.0", "", "1"], ["A", "Alpha", "41.0", "-87.0", "P", "0"],
                              ["B", "Beta", "41.01", "-87.0", "", "0"], ["C", "Gamma", "41.02", "-87.0", "", "0"]],
                "routes.txt": [["route_id", "route_short_name", "route_type"], ["R", "R", "3"], ["Q", "Q", "1"]],
                "trips.txt": [["route_id", "service_id", "trip_id", "direction_id"], ["R", "S", "t1", "0"], ["R", "S", "t2", "0"], ["Q", "S", "f1", "1"]],
                "stop_times.txt": [["trip_id", "arrival_time", "departure_time", "stop_id", "stop_sequence", "pickup_type", "shape_dist_traveled"],
                                   ["t1", "08:00:00", "08:00:00", "A", "1", "0", "0"], ["t1", "08:10:00", "08:11:00", "B", "2", "0", "1.5"],
                                   ["t1", "08:20:00", "08:20:00", "C", "3", "0", "3"], ["t2", "09:00:00", "09:00:00", "A", "1", "0", ""],
                                   ["t2", "", "", "B", "5", "0", ""], ["t2", "09:30:00", "09:30:00", "C", "9", "0", ""],
                                   ["f1", "00:00:00", "00:00:00", "C", "1", "0", ""], ["f1", "00:05:00", "00:05:00", "A", "2", "0", ""]],
                "calendar.txt": [["service_id", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "start_date", "end_date"],
                                 ["S", "1", "1", "1", "1", "1", "1", "1", "20260101", "20261231"]],
                "calendar_dates.txt": [["service_id", "date", "exception_type"], ["S", "20261126", "2"]],
                "frequencies.txt": [["trip_id", "start_time", "end_time", "headway_secs"], ["f1", "06:00:00", "10:00:00", "600"]],
                "transfers.txt": [["from_stop_id", "to_stop_id", "transfer_type", "min_transfer_time"], ["B", "B", "2", "180"]],
                // Fares v1 and v2 (issue 41): prices, transfers and durations at their extremes too.
                "fare_attributes.txt": [["fare_id", "price", "currency_type", "payment_method", "transfers", "transfer_duration"],
                                        ["F", "2.50", "USD", "0", "1", "5400"], ["K", "0.125", "KWD", "0", "", ""], ["Y", "420", "JPY", "0", "0", ""]],
                "fare_rules.txt": [["fare_id", "route_id", "origin_id", "destination_id", "contains_id"], ["F", "R", "", "", ""], ["Y", "Q", "", "", ""]],
                "fare_products.txt": [["fare_product_id", "amount", "currency"], ["ride", "2.00", "USD"], ["rebate", "-1.00", "USD"]],
                "fare_leg_rules.txt": [["leg_group_id", "fare_product_id", "rule_priority"], ["g", "ride", "1"], ["h", "ride", "0"]],
                "fare_transfer_rules.txt": [["from_leg_group_id", "to_leg_group_id", "fare_product_id", "fare_transfer_type", "transfer_count", "duration_limit", "duration_limit_type"],
                                            ["g", "g", "rebate", "1", "-1", "5400", "1"]],
            ]
            let extremes = ["9999999999", "4294967295", "2147483648", "2147483647", "-1", "0", "1e308", "-1e308", "1e-320", "NaN", "inf",
                            "90.0000001", "-180.5", "239:59:59", "00:00:00", "99:99:99", "99991231", "00010101", "20000101", "20991231",
                            "1", "5", "", "00000000000000000000001", "0x10", "4.605", "-0", "1e9", "999999999999.99", ".5", "-5"]
            var g = SplitMix(seed: Self.seed &+ 1)
            let day = LocalDate(year: 2026, month: 11, day: 23)
            var compiled = 0
            let files = base.keys.sorted()
            for _ in 0..<Self.inputs {
                var feed = base
                for _ in 0..<(g.next() % 3 == 0 ? 2 : 1) {
                    let file = files[Int(g.next() % UInt64(files.count))]
                    guard let rows = feed[file], rows.count > 1 else { continue }
                    let row = 1 + Int(g.next() % UInt64(rows.count - 1)), column = Int(g.next() % UInt64(rows[row].count))
                    feed[file]?[row][column] = extremes[Int(g.next() % UInt64(extremes.count))]
                }
                let directory = Paths.temporary()
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(atPath: directory) }
                for (name, rows) in feed {
                    try (rows.map { $0.joined(separator: ",") }.joined(separator: "\n") + "\n").write(toFile: directory + "/" + name, atomically: false, encoding: .utf8)
                }
                guard let timetable = try? GTFSCompiler.compile(try FeedFiles.open(directory), now: Date(timeIntervalSince1970: 1_795_442_280)).0 else { continue }
                compiled += 1
                let answers = GTFSFeed(timetable: timetable)
                _ = try? answers.journeys(JourneyQuery(from: "Alpha", to: "Gamma", date: day, rules: JourneyQuery.Rules(walkMeters: 2_000)), realtime: nil)
                _ = try? answers.departures(at: "Alpha", date: day)
                _ = try? answers.reach(ReachQuery(from: .stop("Beta"), day: .on(day), after: .asWritten(seconds: 0), minutes: 24 * 60))
                _ = try? answers.trip("f1", date: day)
                // Every journey of the day priced (Fares v1 and v2, as the cells say).
                if let fares = FareTable(timetable), let a = (0..<timetable.stopCount).first(where: { timetable.stopIDs[$0] == "A" }),
                   let c = (0..<timetable.stopCount).first(where: { timetable.stopIDs[$0] == "C" }) {
                    for journey in Router(timetable, Router.Query(origins: [a], destinations: [c], day: day.dayNumber, after: nil, before: nil,
                                                                  maxTransfers: 2, minTransfer: 60, walkMeters: 2_000)).journeys() {
                        _ = fares.price(journey)
                    }
                }
                // Written and read back: the compiled file of any input loads.
                let encoded = TimetableFile.encode(timetable)
                #expect((try? TimetableFile.decode(encoded, path: "fuzz")) != nil)
            }
            print("value fuzz: \(Self.inputs) static feeds, \(compiled) compiled, peak memory \(Self.peakMemory() >> 20) MB")
            #expect(compiled > Self.inputs / 5, "\(compiled) of \(Self.inputs) feeds compiled")
            #expect(Self.peakMemory() < 1 << 30, "peak memory \(Self.peakMemory() >> 20) MB")
        }
    }
}
