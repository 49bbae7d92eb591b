import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport

extension CPUBound {
    /// Every parser against mutated real samples, with a fixed seed: byte flips, truncation, chunk
    /// deletion and duplication, huge numbers, wrong JSON types, deep nesting, invalid UTF-8. Each
    /// input must end in a value or a thrown `TransitError` (the parsers' typed throws allow
    /// nothing else), never a trap: a trap ends this process, and the run fails.
    ///
    /// CI runs 2,000 inputs (about 5 s of a debug build's CPU, beside the rest of the suite). `scripts/fuzz` runs 100,000 in batches, one process each,
    /// and counts the batches that died (`TRANSIT_FUZZ_SEED`, `TRANSIT_FUZZ_INPUTS`).
    @Suite struct FuzzTests {
        static let environment = ProcessInfo.processInfo.environment
        static let seed = UInt64(environment["TRANSIT_FUZZ_SEED"] ?? "") ?? 20261123
        static let inputs = Int(environment["TRANSIT_FUZZ_INPUTS"] ?? "") ?? 2000

        /// The samples of one family and what parses them.
        struct Family: Sendable {
            var name: String
            var samples: [Data]
            var parse: @Sendable (Data) -> Void
        }

        static func samples(_ folder: String, _ suffixes: [String]) -> [Data] {
            let dir = Reference.path(folder)
            let names = ((try? FileManager.default.subpathsOfDirectory(atPath: dir)) ?? []).filter { name in suffixes.contains { name.hasSuffix($0) } }.sorted()
            return names.compactMap { FileManager.default.contents(atPath: dir + "/" + $0) }
        }

        /// Bodies of recordings under Fixtures/`folder` (12306 has no other real samples here).
        static func recorded(_ folder: String) -> [Data] {
            let dir = Paths.fixtures + "/" + folder
            let names = ((try? FileManager.default.subpathsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".http") }.sorted()
            return names.compactMap { FileManager.default.contents(atPath: dir + "/" + $0) }.compactMap { Recording.decode($0, source: .recording)?.response.body }
        }

        static let families: [Family] = [
            Family(name: "bart", samples: samples("bart/samples", [".xml"]), parse: { data in
                _ = try? BARTParser.stations(data); _ = try? BARTParser.routes(data); _ = try? BARTParser.routeSchedule(data, route: 1)
                _ = try? BARTParser.plannedTrips(data); _ = try? BARTParser.departures(data); _ = try? BARTParser.advisories(data)
            }),
            Family(name: "bustime", samples: samples("bustime/samples", [".json", ".xml"]), parse: { data in
                for agency in BusTimeAgency.all {
                    _ = try? BusTimeParser.routes(data, agency: agency); _ = try? BusTimeParser.directions(data, agency: agency)
                    _ = try? BusTimeParser.stops(data, agency: agency); _ = try? BusTimeParser.patterns(data, agency: agency)
                    _ = try? BusTimeParser.predictions(data, agency: agency); _ = try? BusTimeParser.bulletins(data, agency: agency)
                    _ = try? BusTimeParser.vehicles(data, agency: agency)
                }
            }),
            Family(name: "busbud", samples: samples("busbud/samples", [".json"]), parse: { data in _ = try? BusbudParser.response(data) }),
            Family(name: "rail12306", samples: recorded("rail12306"), parse: { data in
                _ = try? Rail12306Parser.stations(data); _ = try? Rail12306Parser.trains(data)
                _ = try? Rail12306Parser.timetable(data, date: LocalDate(year: 2026, month: 11, day: 23))
            }),
            Family(name: "weather", samples: samples("openweathermap/samples", [".xml", ".json"]), parse: { data in _ = try? WeatherParser.current(data) }),
            Family(name: "gtfs csv", samples: gtfsSamples(), parse: { data in compileStopTimes(data) }),
            // GTFS-Realtime captures (the larger ones left out: a mutation is as telling on 600 kB).
            // Decoded, then applied to BART's 2019 timetable (whose trip_ids the BART captures use) and
            // routed on: the applier and the realtime schedule take what the decoder lets through.
            // Every other input as one feed of a combination (ids moved to `bart:…`, links to Lakeport).
            Family(name: "gtfs-rt", samples: samples("gtfs-rt/feeds", [".pb"]).filter { $0.count < 600_000 }, parse: { data in
                guard let decoded = try? FeedMessage.decode(data), let single = bartTimetable, let combined = bartAndLakeport else { return }
                let (t, message) = data.count % 2 == 0 ? (single, decoded) : (combined, decoded.namespaced("bart:"))
                let day = LocalDate(year: 2019, month: 8, day: 7).dayNumber
                let updates = TripUpdateApplier.apply(message, to: t, now: 1_565_199_921, source: "fuzz")
                let query = Router.Query(origins: [0, 1], destinations: [min(20, t.stopCount - 1)], day: day, after: 36_000, before: 39_600,
                                         maxTransfers: 2, minTransfer: 60)
                _ = Router(t, query, updates: updates).journeys()
            }),
            // OpenStreetMap PBF, as osmium and osmosis wrote it and with its blobs unpacked (so that
            // a mutation reaches the block parser, not only zlib); walkable ways picked as a map is read.
            Family(name: "osm pbf", samples: osmSamples(), parse: { data in
                data.withUnsafeBytes { bytes in
                    var walkable = 0
                    _ = try? PBFReader.read(bytes, what: "fuzz", PBFReader.Visitor(way: { _, refs, tags in if Walkable.way(tags) { walkable += refs.count } }))
                }
            }),
            // The catalog's v2 CSV (the README's header and two real rows), read from a file as
            // a download is, then searched, its rows made feeds and their real-time feeds found.
            Family(name: "catalog", samples: catalogSamples(), parse: { data in
                let file = Paths.temporary() + "/feeds_v2.csv"
                defer { try? FileManager.default.removeItem(atPath: (file as NSString).deletingLastPathComponent) }
                guard (try? data.write(to: URL(fileURLWithPath: file))) != nil, let catalog = try? FeedCatalog(file: file, what: "fuzz") else { return }
                _ = catalog.search(["cape", "cod"], near: Coordinate(latitude: 41.8, longitude: -70.3), country: "us", all: true)
                _ = catalog.realtime(of: catalog.feeds.map(\.id))
                _ = catalog.feed("mdb-645").map { CatalogImport.realtimeSources([$0], variable: "TRANSIT_KEY_FUZZ", environment: RunEnvironment(Environment([:]))) }
            }),
            // A street map (Lakeport's and Beatty's, raw and packed) mutated: its walking network
            // built and filed in the grid under the map's bound, Lakeport's stored walks measured
            // on it, a point joined and walked from (issue 41: a way repeated made gigabytes).
            Family(name: "streets", samples: streetSamples(), parse: { data in measureStreets(data) }),
            // Lakeport's stops.txt mutated (places repeated, far, NaN): compiled with its stored
            // walks (at most 200 a stop) and routed with walks stored and looked for (issue 41).
            Family(name: "walks", samples: walkSamples(), parse: { data in compileStops(data) }),
            // Fares v2's example feeds with their fare files mutated, compiled and every
            // journey priced (`FareProductFuzzTests.price`).
            Family(name: "fares", samples: CPUBound.FareProductFuzzTests.samples(), parse: { data in _ = CPUBound.FareProductFuzzTests.price(data) }),
            // Compiled timetables damaged in place and loaded as a check note lets them be
            // (`CheckNoteFuzz`): every query of a command asked of them.
            Family(name: "check notes", samples: CheckNoteFuzz.samples, parse: { data in CheckNoteFuzz.ask(data) }),
            // Real feeds' shapes.txt mutated, compiled with the rest of their feed (each pattern's
            // stops placed on its shape through the segment grid, issue 62) and every ride drawn.
            Family(name: "shapes", samples: shapeSamples(), parse: { data in compileShapes(data) }),
        ]

        /// The feeds whose shapes.txt is mutated: small enough that a debug compile is quick.
        static let shapeFeeds = ["otp-shape_dist_traveled", "r5-fake-agency", "otp-simple", "caltrain-20160406"]

        static func shapeSamples() -> [Data] {
            shapeFeeds.compactMap { FileManager.default.contents(atPath: Reference.path("gtfs/feeds/\($0)/shapes.txt")) }
        }

        /// The feed whose shapes.txt `shapes` was (told by its first bytes), around the mutated file.
        static func compileShapes(_ shapes: Data) {
            let samples = shapeSamples()
            let k = samples.indices.max { zip(samples[$0], shapes).prefix(64).filter { $0 == $1 }.count < zip(samples[$1], shapes).prefix(64).filter { $0 == $1 }.count } ?? 0
            let source = Reference.path("gtfs/feeds/\(shapeFeeds[k])"), dir = Paths.temporary()
            defer { try? FileManager.default.removeItem(atPath: dir) }
            try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: source)) ?? [] where name != "shapes.txt" {
                try? FileManager.default.copyItem(atPath: source + "/" + name, toPath: dir + "/" + name)
            }
            _ = FileManager.default.createFile(atPath: dir + "/shapes.txt", contents: shapes)
            guard let files = try? FeedFiles.open(dir), let (t, _) = try? GTFSCompiler.compile(files) else { return }
            for q in 0..<t.patternCount {
                let n = Int(t.patternStopStart[q + 1]) - Int(t.patternStopStart[q])
                if n > 1 { _ = t.shapeLine(pattern: q, from: 0, to: n - 1) }
            }
        }

        /// Lakeport's map (13 nodes, the feed's own streets) and Beatty's (2,120 nodes), each raw and packed.
        static func streetSamples() -> [Data] {
            let maps = [FileManager.default.contents(atPath: Paths.fixtures + "/osm/lakeport.osm.pbf")].compactMap { $0 } + samples("osm/beatty", [".pbf"])
            return maps + maps.map(PBFWriter.rawCopy)
        }

        static let lakeport: Timetable? = try? GTFSCompiler.compile(try FeedFiles.open(Paths.fixtures + "/gtfs/lakeport")).0

        static func measureStreets(_ data: Data) {
            // Both profiles, as an import reads them.
            guard var t = lakeport, let networks = data.withUnsafeBytes({ bytes in try? StreetNetwork.read(bytes, what: "fuzz", profiles: [.foot, .stepFree]) }),
                  networks.count == 2, let network = networks.first, let free = networks.last else { return }
            let limit = StreetNetwork.maxGridEntries(mapBytes: data.count)
            guard let grid = network.grid(limit: limit), let freeGrid = free.grid(limit: limit) else { return }
            _ = StreetFootpaths.measure(&t, on: network, grid: grid, stepFree: (free, freeGrid))
            for walker in [StreetWalker(network, grid), StreetWalker(free, freeGrid, profile: .stepFree)] {
                _ = walker.meters(from: Coordinate(latitude: 41.8800, longitude: -87.6400), to: (0..<min(5, t.stopCount)).map { ($0, 100.0) }, limit: 1500, in: t)
                _ = walker.meters(fromStop: 0, to: (1..<min(5, t.stopCount)).map { ($0, 100.0) }, limit: 1500, in: t)
            }
        }

        static func walkSamples() -> [Data] {
            FileManager.default.contents(atPath: Paths.fixtures + "/gtfs/lakeport/stops.txt").map { [$0] } ?? []
        }

        static func compileStops(_ stops: Data) {
            let dir = Paths.temporary()
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let source = Paths.fixtures + "/gtfs/lakeport"
            try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: source)) ?? [] where name != "stops.txt" {
                try? FileManager.default.copyItem(atPath: source + "/" + name, toPath: dir + "/" + name)
            }
            _ = FileManager.default.createFile(atPath: dir + "/stops.txt", contents: stops)
            guard let files = try? FeedFiles.open(dir), let (t, _) = try? GTFSCompiler.compile(files), t.stopCount > 1 else { return }
            for walk in [300.0, 900.0] {
                _ = Router(t, Router.Query(origins: [0], destinations: [t.stopCount - 1], day: LocalDate(year: 2026, month: 11, day: 23).dayNumber,
                                           after: 7 * 3600, before: 9 * 3600, maxTransfers: 2, minTransfer: 120, walkMeters: walk)).journeys()
            }
        }

        static func catalogSamples() -> [Data] {
            guard let file = try? CatalogTests.publishedRows(), let data = FileManager.default.contents(atPath: file) else { return [] }
            return [data]
        }

        static func osmSamples() -> [Data] {
            let files = samples("osm/beatty", [".pbf"]) + samples("osm/helsinki", ["test.osm.pbf"])
            return files + files.map(PBFWriter.rawCopy)
        }

        /// BART's 2019 feed, compiled once.
        static let bartTimetable: Timetable? = try? GTFSCompiler.compile(try FeedFiles.open(Reference.path("gtfs-rt/feeds/transitland-bart/bart-rt.zip"))).0

        /// The same with the bundled Lakeport feed, as `--feed bart --feed lakeport` combines them.
        static let bartAndLakeport: Timetable? = {
            guard let bart = bartTimetable, let lakeport = try? GTFSCompiler.compile(try FeedFiles.open(Paths.fixtures + "/gtfs/lakeport")).0 else { return nil }
            return try? TimetableCombination.combine([("bart", bart), ("lakeport", lakeport)])
        }()

        /// stop_times.txt of the real feeds: the file every import reads most of.
        static func gtfsSamples() -> [Data] {
            let root = Reference.path("gtfs/feeds")
            let dirs = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).sorted()
            return dirs.compactMap { FileManager.default.contents(atPath: root + "/" + $0 + "/stop_times.txt") }.filter { $0.count < 300_000 }
        }

        /// A small feed around a mutated stop_times.txt, compiled.
        static func compileStopTimes(_ stopTimes: Data) {
            let dir = Paths.temporary()
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let files: [String: String] = [
                "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,A,http://a,America/Los_Angeles\n",
                "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nS,1,1,1,1,1,1,1,20260101,20261231\n",
                "routes.txt": "route_id,route_short_name,route_long_name,route_type\nR,R,R,3\n",
            ]
            for (name, text) in files { _ = FileManager.default.createFile(atPath: dir + "/" + name, contents: Data(text.utf8)) }
            // Stops and trips named by the mutated file itself, so that most rows resolve.
            let text = String(decoding: stopTimes.prefix(200_000), as: UTF8.self)
            var stops = Set<String>(), trips = Set<String>()
            for line in text.split(separator: "\n").dropFirst().prefix(5000) {
                let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                if fields.count > 3 { trips.insert(String(fields[0]).replacingOccurrences(of: "\"", with: "")); stops.insert(String(fields[3]).replacingOccurrences(of: "\"", with: "")) }
            }
            let stopRows = stops.filter { !$0.isEmpty && !$0.contains("\r") }.map { "\($0),\($0),37.0,-122.0" }.joined(separator: "\n")
            let tripRows = trips.filter { !$0.isEmpty && !$0.contains("\r") }.map { "R,S,\($0)" }.joined(separator: "\n")
            _ = FileManager.default.createFile(atPath: dir + "/stops.txt", contents: Data(("stop_id,stop_name,stop_lat,stop_lon\n" + stopRows + "\n").utf8))
            _ = FileManager.default.createFile(atPath: dir + "/trips.txt", contents: Data(("route_id,service_id,trip_id\n" + tripRows + "\n").utf8))
            _ = FileManager.default.createFile(atPath: dir + "/stop_times.txt", contents: stopTimes)
            if let files = try? FeedFiles.open(dir), let compiled = try? GTFSCompiler.compile(files) {
                _ = Router(compiled.0, Router.Query(origins: [0], destinations: [min(1, max(0, compiled.0.stopCount - 1))], day: LocalDate(year: 2026, month: 3, day: 4).dayNumber,
                                                    after: nil, before: nil, maxTransfers: 2, minTransfer: 120)).journeys()
            }
        }

        @Test(.enabled(if: Reference.isPresent, Reference.absent)) func everyParserTakesMutatedSamples() async throws {
            let counts = try await offPool { () -> [String: Int] in
                var generator = SplitMix(seed: Self.seed)
                var counts: [String: Int] = [:]
                // TRANSIT_FUZZ_FAMILY (scripts/fuzz's third argument) gives every input to one family.
                let only = Self.environment["TRANSIT_FUZZ_FAMILY"]
                let families = Self.families.filter { !$0.samples.isEmpty && (only == nil || $0.name == only) }
                // GTFS inputs each compile a feed on disk, and a damaged timetable is asked a dozen
                // queries: a tenth of the share of the others.
                let onDisk: Set<String> = ["gtfs csv", "walks", "check notes"]
                let weights = families.map { onDisk.contains($0.name) ? 1 : 10 }
                let total = weights.reduce(0, +)
                for family in families {
                    let share = only != nil ? Self.inputs : Self.inputs * (onDisk.contains(family.name) ? 1 : 10) / total
                    for _ in 0..<share {
                        let sample = family.samples[Int(generator.next() % UInt64(family.samples.count))]
                        let input = Mutator.mutate(sample, &generator)
                        // scripts/fuzz keeps the input in hand, to save the one that crashes.
                        if let dump = Self.environment["TRANSIT_FUZZ_DUMP"] { _ = FileManager.default.createFile(atPath: dump, contents: input) }
                        family.parse(input)
                        counts[family.name, default: 0] += 1
                    }
                }
                return counts
            }
            #expect(counts.count == (Self.environment["TRANSIT_FUZZ_FAMILY"] == nil ? 14 : 1), "\(counts)")  // every family had samples and ran
            #expect(counts.values.reduce(0, +) >= Self.inputs * 9 / 10)
        }

        /// What the 100,000-input run found (3 crashes before the fix): a misspelt encoding makes
        /// libxml2 pass bytes through unconverted, and Foundation traps on a name that is not UTF-8.
        @Test func aMisspeltEncodingWithBytesThatAreNotUTF8IsAnError() {
            for encoding in ["utf-(", "x-unknown", "UTF-16"] {
                var body = Data("<?xml version=\"1.0\" encoding=\"\(encoding)\"?><root><st".utf8)
                body += Data([0xFF, 0xC0]) + Data(#"n a="1"/></root>"#.utf8)
                #expect(throws: TransitError.parse(what: "x", reason: "the body is not valid UTF-8")) { try XMLTree.parse(body, what: "x") }
            }
            let latin1 = Data("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><root name=\"M".utf8) + Data([0xFC]) + Data("nchen\"/>".utf8)
            #expect((try? XMLTree.parse(latin1, what: "x"))?.attributes["name"] == "München")
        }

        @Test func theMutatorsDoWhatTheySay() {
            var generator = SplitMix(seed: 1)
            let json = Data(#"{"a":"text","b":12,"c":[1,2]}"#.utf8)
            var seen = Set<String>()
            for _ in 0..<400 {
                let (kind, out) = Mutator.mutateNamed(json, &generator)
                seen.insert(kind)
                #expect(out != json, "\(kind)")
            }
            #expect(seen == Set(Mutator.kinds), "\(seen)")
            #expect(Mutator.nest(Data("{}".utf8), depth: 3, json: true) == Data("[[[{}]]]".utf8))
        }
    }
}
