import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

/// What the repository bundles is ours: written by our scripts, equal to what they write, and
/// never a copy of a file of the reference pack.
@Suite struct FixtureTests {

    /// Runs a generator of scripts/ into a fresh directory and returns it. Generators that read
    /// facts from the reference pack are told where it is.
    static func generate(_ script: String) async throws -> String {
        let out = Paths.temporary()
        let run = try await Run.transitLike([try #require(Paths.python), Paths.root.appendingPathComponent("scripts/" + script).path, out],
                                            env: ["PATH": "/usr/bin:/bin", "TRANSIT_REFERENCE": Reference.root.path])
        #expect(run.status == 0, "\(script): \(run.stderr)")
        return out
    }

    /// `written` holds the same files as Fixtures/`folder`, byte for byte.
    static func expectSameFiles(_ written: String, _ folder: String, by script: String) {
        let bundled = Paths.fixtures + "/" + folder
        #expect(files(written) == files(bundled), "\(folder): run scripts/\(script)")
        #expect(!files(bundled).isEmpty)
        for name in files(bundled) {
            let mine = FileManager.default.contents(atPath: written + "/" + name)
            #expect(mine != nil && mine == FileManager.default.contents(atPath: bundled + "/" + name), "\(folder)/\(name) differs: run scripts/\(script)")
        }
    }

    /// Every file under `directory`, relative to it, sorted.
    static func files(_ directory: String) -> [String] {
        ((try? FileManager.default.subpathsOfDirectory(atPath: directory)) ?? []).filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: directory + "/" + path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }.sorted()
    }

    @Test(.enabled(if: Paths.python != nil, "needs python3 (scripts/setup)"))
    func theBundledFeedIsWhatItsScriptWrites() async throws {
        Self.expectSameFiles(try await Self.generate("make-gtfs-fixture.py"), "gtfs/lakeport", by: "make-gtfs-fixture.py")
        #expect(Self.files(Paths.fixtures + "/gtfs/lakeport").count >= 10)
    }

    /// The pairs of feeds for journeys across agencies (BART and Caltrain; Renfe and CP).
    @Test(.enabled(if: Paths.python != nil, "needs python3 (scripts/setup)"))
    func theBundledPairsAreWhatTheirScriptWrites() async throws {
        Self.expectSameFiles(try await Self.generate("make-gtfs-pairs-fixture.py"), "gtfs/pairs", by: "make-gtfs-pairs-fixture.py")
        #expect(Self.files(Paths.fixtures + "/gtfs/pairs").count == 27)
    }

    /// The feeds of Fares v2's worked examples (their prices are checked in FareProductTests).
    @Test(.enabled(if: Paths.python != nil, "needs python3 (scripts/setup)"))
    func theBundledFareExamplesAreWhatTheirScriptWrites() async throws {
        Self.expectSameFiles(try await Self.generate("make-gtfs-fares-fixture.py"), "gtfs/fares", by: "make-gtfs-fares-fixture.py")
        #expect(Self.files(Paths.fixtures + "/gtfs/fares").count == 63)
    }

    /// Its real-time data, and that our decoder reads it as the script means it.
    @Test(.enabled(if: Paths.python != nil, "needs python3 (scripts/setup)"))
    func theBundledRealtimeDataIsWhatItsScriptWrites() async throws {
        Self.expectSameFiles(try await Self.generate("make-gtfs-rt-fixture.py"), "gtfs/lakeport-realtime", by: "make-gtfs-rt-fixture.py")
        let updates = try FeedMessage.decode(try Data(contentsOf: URL(fileURLWithPath: Paths.fixtures + "/gtfs/lakeport-realtime/trip-updates.pb")))
        #expect(updates.header?.timestamp == 1_795_442_280)  // 2026-11-23 07:58 CST
        #expect(updates.entities.compactMap { $0.tripUpdate?.trip?.tripID } == ["SL-WK-N05", "M1-WK-E", "SL-WK-N06", "SL-WK-N08", "22-WK-03", "SL-X1"])
        #expect(updates.entities.first?.tripUpdate?.stopTimeUpdates.first?.departure?.delay == 240)
    }

    /// The map of two of Lakeport's neighbourhoods, and the README's journey on it: its change
    /// and its last walk follow the streets (docs/maps/walk-on-streets.geojson is what the
    /// README's command prints with `--format geojson`).
    @Test(.enabled(if: Paths.python != nil, "needs python3 (scripts/setup)"))
    func theBundledMapIsWhatItsScriptWrites() async throws {
        Self.expectSameFiles(try await Self.generate("make-osm-fixture.py"), "osm", by: "make-osm-fixture.py")
        let env = Run.environment(["TRANSIT_CACHE_DIR": Paths.temporary()])
        let imported = try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/lakeport", "--streets", Paths.fixtures + "/osm/lakeport.osm.pbf"], env: env)
        #expect(imported.status == 0 && imported.stderr.contains("25 of 30 stops are more than 100 m from a walkable street"), "\(imported.stderr)")
        let run = try await Run.transit(["gtfs", "trips", "--from", "Harbor", "--to", "41.9006,-87.6576", "--date", "2026-11-23", "--after", "07:00",
                                         "--limit", "1", "--format", "geojson"], env: env)
        let map = try String(contentsOfFile: Paths.root.appendingPathComponent("docs/maps/walk-on-streets.geojson").path, encoding: .utf8)
        #expect(run.status == 0 && run.stdout == map, "\(run.stderr)")
        // The walks, by hand from the script's places, by walk rule 2 (a place joins every segment
        // within its nearest one's distance plus 25 m, its pieces measured on the README's plane):
        // University Avenue's 16.6 m from UNI2, up it, along College Street to Gate Walk's corner
        // and 33.2 m straight to the stop (it joins College Street there, within Gate Walk's
        // 11.1 m plus 25, and 33.2 m is shorter than Gate Walk's 22.2 m and 11.1 m); then Hillcrest
        // Road west, Crest Lane north to its bend, and 46.9 m straight to the house (the lane's
        // first segment, within its nearest segment's 33.2 m plus 25).
        let c = { (lat: Double, lon: Double) in Coordinate(latitude: lat, longitude: lon) }
        let east = { (degrees: Double, lat: Double) in degrees * StreetNetwork.metersPerDegreeLongitude * cos(lat * .pi / 180) }
        let north = { (degrees: Double) in degrees * StreetNetwork.metersPerDegreeLatitude }
        let change = east(0.0002, 41.8906) + c(41.8906, -87.6335).meters(to: c(41.8914, -87.6335))
            + c(41.8914, -87.6335).meters(to: c(41.8914, -87.6345)) + north(0.0003)
        let last = north(0.0002) + c(41.8997, -87.6561).meters(to: c(41.8997, -87.6580)) + c(41.8997, -87.6580).meters(to: c(41.9003, -87.6580))
            + (east(0.0004, 41.9006) * east(0.0004, 41.9006) + north(0.0003) * north(0.0003)).squareRoot()
        let collection = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let properties = (collection?["features"] as? [[String: Any]])?.first?["properties"] as? [String: Any]
        let legs = properties?["legs"] as? [[String: Any]] ?? []
        #expect(legs.compactMap { $0["walk_meters"] as? Int } == [Int(change.rounded()), Int(last.rounded())], "\(change) \(last)")
    }

    /// The recordings, written from facts of the pack (names, codes, coordinates, times).
    @Test(.enabled(if: Paths.python != nil, "needs python3 (scripts/setup)"), .enabled(if: Reference.isPresent, Reference.absent),
          arguments: [("make-bart-fixtures.py", ["bart"]), ("make-busbud-fixtures.py", ["busbud"]),
                      ("make-bustime-fixtures.py", ["cta", "mbus"]), ("make-rail-weather-fixtures.py", ["rail12306", "weather"])])
    func theRecordingsAreWhatTheirScriptsWrite(script: String, folders: [String]) async throws {
        let written = try await Self.generate(script)
        #expect(Self.files(written).map { String($0.prefix { $0 != "/" }) }.uniqued() == folders.sorted(), "\(script) writes only its folders")
        for folder in folders { Self.expectSameFiles(written + "/" + folder, folder, by: script) }
    }

    /// The repository's files (build output and git's own files aside) against every file of
    /// the pack, by size and then by bytes.
    @Test(.enabled(if: Reference.isPresent, Reference.absent))
    func noFileOfTheRepositoryIsACopyOfAFileOfThePack() throws {
        var packBySize: [Int: [String]] = [:]
        for path in Self.files(Reference.root.path) {
            let full = Reference.root.path + "/" + path
            guard let size = (try? FileManager.default.attributesOfItem(atPath: full))?[.size] as? Int, size > 0 else { continue }
            packBySize[size, default: []].append(full)
        }
        #expect(packBySize.count > 100)
        let root = Paths.root.path
        let ours = Self.files(root).filter { path in
            !path.hasPrefix(".build/") && !path.hasPrefix(".git/") && !path.hasPrefix(".swiftpm/") && path != ".git"
        }
        #expect(ours.count > 50)
        var copies: [String] = []
        for path in ours {
            guard let data = FileManager.default.contents(atPath: root + "/" + path), !data.isEmpty,
                  let candidates = packBySize[data.count] else { continue }
            if let twin = candidates.first(where: { FileManager.default.contents(atPath: $0) == data }) {
                copies.append("\(path) = \(twin.dropFirst(Reference.root.path.count + 1))")
            }
        }
        #expect(copies.isEmpty, "copies of the reference pack: \(copies)")
    }

    /// The bundled feed through the binary: a change at a station between a rail platform and
    /// a frequencies.txt metro, a holiday's timetable, and a night bus past 24:00.
    @Test func theBundledFeedShowsWhatTheGTFSProviderDoes() async throws {
        let cache = Paths.temporary()
        let env = Run.environment(["TRANSIT_CACHE_DIR": cache])
        let imported = try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/lakeport", "--format", "json"], env: env)
        #expect(imported.status == 0, "\(imported.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(imported.stdout.utf8)) as? [String: Any])
        #expect(summary["name"] as? String == "lakeport" && summary["time_zone"] as? String == "America/Chicago")

        let trips = try await Run.transit(["gtfs", "trips", "--from", "Harbor", "--to", "Stadium", "--date", "2026-11-23", "--after", "07:00",
                                           "--limit", "1", "--format", "json"], env: env)
        #expect(trips.status == 0, "\(trips.stderr)")
        let journey = try #require((try JSONSerialization.jsonObject(with: Data(trips.stdout.utf8)) as? [[String: Any]])?.first)
        let legs = try #require(journey["legs"] as? [[String: Any]])
        #expect(journey["departure"] as? String == "2026-11-23T07:00:00-06:00" && journey["transfers"] as? Int == 1)
        #expect(legs.map { $0["route"] as? String } == ["SL", nil, "M1"])
        #expect(legs.map { $0["from"] as? String } == ["HBR2", "MKT2", "M_MKT"])
        // Names and platforms for people: platform_code where the feed has one, else stop_code.
        #expect(legs.map { $0["from_name"] as? String } == ["Harbor", "Market", "Market"])
        #expect(legs.map { $0["from_platform"] as? String } == ["2", "2", "m_mkt"] && legs.last?["to_platform"] as? String == "m_sta")
        let tsv = try await Run.transit(["gtfs", "trips", "--from", "University", "--to", "Westfield Mall", "--date", "2026-11-23",
                                         "--after", "08:00", "--limit", "1", "--header"], env: env)
        #expect(tsv.stdoutLines.first?.hasSuffix("\troutes\tchange_at\ttrip_ids\tprice\tcurrency\tboarding") == true, "\(tsv.stdout)")
        // trip_ids: what `gtfs trip` takes, the rides' own, as the same journey's JSON has them.
        let same = try await Run.transit(["--format", "json", "gtfs", "trips", "--from", "University", "--to", "Westfield Mall", "--date", "2026-11-23",
                                          "--after", "08:00", "--limit", "1"], env: env)
        let rideLegs = (try same.records().first?["legs"] as? [[String: Any]] ?? []).filter { $0["mode"] as? String == "ride" }
        let ids = rideLegs.compactMap { $0["trip_id"] as? String }.joined(separator: " > ")
        // boarding: each ride's stop_id and planned departure (what gtfs journey --board-at takes); no fares here.
        let boarding = rideLegs.map { "\($0["from"] as? String ?? "")@" + String(($0["planned_departure"] as? String ?? "").dropFirst(11).prefix(8)) }
        #expect(tsv.stdoutLines.dropFirst().first?.hasSuffix("\tSL > 10\tRiverside Bus Bay\t" + ids + "\t\t\t" + boarding.joined(separator: " > ")) == true
                && ids.contains(">") && boarding.count == 2, "\(tsv.stdout)")
        // A timed change (transfers.txt type 1) needs no time: the 07:06 run of the M1 is caught.
        #expect(legs.last?["trip_start"] as? String == "07:06:00" && legs.last?["to"] as? String == "M_STA")

        // Thanksgiving, a Thursday: the weekend timetable.
        let holiday = try await Run.transit(["gtfs", "departures", "--stop", "Harbor", "--date", "2026-11-26", "--limit", "1"], env: env)
        #expect(holiday.stdoutLines == ["2026-11-26T07:00:00-06:00\tSL\tRiverside\tSL-WE-N01\tHBR2\t2026-11-26"])
        let weekday = try await Run.transit(["gtfs", "departures", "--stop", "Harbor", "--date", "2026-11-25", "--limit", "1"], env: env)
        #expect(weekday.stdoutLines == ["2026-11-25T06:00:00-06:00\tSL\tRiverside\tSL-WK-N01\tHBR2\t2026-11-25"])

        // The night bus's last runs belong to the service day before.
        let night = try await Run.transit(["gtfs", "departures", "--stop", "Harbor Terminal", "--date", "2026-11-23", "--after", "23:00"], env: env)
        #expect(night.stdoutLines.map { $0.split(separator: "\t").first.map(String.init) }
                == ["2026-11-23T23:10:00-06:00", "2026-11-24T00:10:00-06:00", "2026-11-24T01:10:00-06:00"])
    }

    /// On an 80-column terminal the table says where to board and where and when to change, and
    /// each line's name whole: where the rides head gives way, then the names wrap (issue 44;
    /// the JOURNEY column was cut). (script(1) gives the binary a terminal.)
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs script(1) for a terminal"))
    func theChangeShowsOnAnEightyColumnTerminal() async throws {
        let cache = Paths.temporary()
        let env = Run.environment(["TRANSIT_CACHE_DIR": cache, "COLUMNS": "80", "NO_COLOR": "1"], [:])
        let feed = Paths.fixtures + "/gtfs/lakeport"
        let command = "\(Run.binary) gtfs trips --feed \(feed) --from University --to 'Westfield Mall' --date 2026-11-23 --after 08:00 --limit 1 2>/dev/null"
        // stderr stays off the terminal: on a busy machine the progress line ("opening the
        // feed", after 100 ms) would otherwise be read as the table's first line.
        let run = try await Run.transitLike(["/usr/bin/script", "-qec", command, "/dev/null"], env: env)
        let lines = run.stdout.replacingOccurrences(of: "\r", with: "").split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("DEPART  ARRIVE  MIN  CHG  FROM        CHANGE AT") == true, "\(run.stdout)")
        #expect(Array(lines.dropFirst()) == ["08:07   08:42    35    1  University  Riverside Bus Bay 08:35  SL → walk 60 m →",
                                             String(repeating: " ", count: 63 + 2) + "10"], "\(run.stdout)")
        #expect(!lines.isEmpty && lines.allSatisfy { $0.count <= 80 }, "\(run.stdout)")
    }
}

extension Array where Element: Hashable {
    /// The elements in order, each once.
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
