import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

/// `transit gtfs isochrone` as a user runs it, on the bundled Lakeport fixture: GeoJSON unless
/// asked otherwise, the same contours in every format, and each bad option refused with one
/// line and exit 2, nothing on stdout.
struct IsochroneCommandTests {
    static let lakeport = Paths.fixtures + "/gtfs/lakeport"

    func isochrone(_ extra: [String]) async throws -> Run {
        try await Run.transit(["gtfs", "isochrone", "--feed", Self.lakeport, "--date", "2026-11-23", "--after", "07:30"] + extra,
                              env: Run.environment(["TRANSIT_CACHE_DIR": Paths.temporary()]))
    }

    @Test func geoJSONByDefaultAndTheSameContoursInEveryFormat() async throws {
        let args = ["--from", "Harbor", "--cutoffs", "30,10,20", "--window", "10"]
        let geo = try await isochrone(args)
        #expect(geo.status == 0, "\(geo.stderr)")
        let features = PolygonCheck.features(geo.stdout)
        #expect(features.map { $0.properties["cutoff"] as? Int } == [10, 20, 30], "sorted: \(geo.stdout.prefix(300))")
        #expect(features.allSatisfy { $0.properties["percentile"] as? Int == 50 })
        #expect(features.allSatisfy { PolygonCheck.problems($0.polygons).isEmpty })
        let areas = features.compactMap { $0.properties["area_m2"] as? Int }, stops = features.compactMap { $0.properties["stops"] as? Int }
        #expect(areas.count == 3 && areas == areas.sorted() && (areas.first ?? 0) > 0, "\(areas)")
        // JSON: the features' properties; csv: a row per cutoff.
        let json = try await isochrone(args + ["--format", "json"])
        let records = (try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]) ?? []
        #expect(records.map { $0["cutoff"] as? Int } == [10, 20, 30] && records.compactMap { $0["area_m2"] as? Int } == areas)
        let csv = try await isochrone(args + ["--format", "csv"])
        #expect(csv.stdout == "cutoff,area_m2,stops\r\n" + zip([10, 20, 30], zip(areas, stops)).map { "\($0),\($1.0),\($1.1)\r\n" }.joined(), "\(csv.stdout)")
        // A point with no stop near: the walk alone, and a notice saying so.
        let far = try await isochrone(["--from", "41.9900,-87.9000", "--cutoffs", "10", "--format", "csv"])
        #expect(far.status == 0 && far.stderr.contains("no stop within 1000 m of the origin"), "\(far.stderr)")
    }

    @Test func badOptionsAreRefusedWithOneLine() async throws {
        let cases: [([String], String)] = [
            (["--from", "Harbor"], "--cutoffs"),
            (["--from", "Harbor", "--cutoffs", "0"], "--cutoffs takes whole minutes from 1 to 240"),
            (["--from", "Harbor", "--cutoffs", "241"], "--cutoffs takes whole minutes from 1 to 240"),
            (["--from", "Harbor", "--cutoffs", "10,x"], "not 'x'"),
            (["--from", "Harbor", "--cutoffs", "10,10"], "names 10 twice"),
            (["--from", "Harbor", "--cutoffs", (1...13).map(String.init).joined(separator: ",")], "at most 12"),
            (["--from", "Harbor", "--cutoffs", "10", "--percentile", "100"], "--percentile"),
            (["--from", "Harbor", "--cutoffs", "10", "--window", "0"], "--window"),
            (["--from", "Nowhere Street", "--cutoffs", "10"], "Nowhere Street"),
        ]
        for (args, message) in cases {
            let run = try await isochrone(args)
            #expect(run.status == 2 && run.stdout.isEmpty, "\(args): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains(message) && run.stderr.hasPrefix("transit: "), "\(args): \(run.stderr)")
        }
    }
}
