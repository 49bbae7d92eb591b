import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

/// Issue 71's isochrones on R5's Terre Haute feed with its map and BART's 2022 feed: each
/// cell's time is the matrix's to a point at the cell's centre; through the binary, every
/// contour is a valid MultiPolygon inside the next cutoff's (`PolygonCheck`, rounding to six
/// decimals included), and each stop `gtfs reach` lists within a cutoff by 2 minutes or more
/// (leaving at one minute) lies inside that cutoff's contour.
extension CPUBound {
@Suite(.enabled(if: Reference.isPresent, Reference.absent))
struct IsochroneTests {
    static let day = LocalDate(year: 2016, month: 6, day: 15)
    static let cutoffs = [10, 20, 30, 45]

    /// Terre Haute (with its map) and BART imported into one cache, through the binary.
    static func imported() async throws -> [String: String] {
        let cache = Paths.temporary(), env = Run.environment(["TRANSIT_CACHE_DIR": cache])
        let th = try await Run.transit(["gtfs", "import", Reference.path("gtfs/feeds/r5-terre-haute"), "--name", "th", "--streets",
                                        Reference.path("osm/r5/terre-haute.osm.pbf")], env: env)
        #expect(th.status == 0, "\(th.stderr)")
        let bart = try await Run.transit(["gtfs", "import", Reference.path("realdata/bart_gtfs/gtfs-lite_2022/bart.zip"), "--name", "bart"], env: env)
        #expect(bart.status == 0, "\(bart.stderr)")
        return env
    }

    @Test func eachCellIsTheMatrixsTimeToItsCentre() async throws {
        let env = try await Self.imported()
        let feed = try GTFSFeed.imported("th", cacheDirectory: env["TRANSIT_CACHE_DIR"] ?? "")
        var g = SplitMix(seed: 71)
        // A point downtown, a point on the edge of town, a stop by name; a window of 10 minutes.
        for from in ["39.4667,-87.4139", "39.4300,-87.3600", "782517"] {
            var q = IsochroneQuery(from: JourneyQuery.Place(from), cutoffs: Self.cutoffs, day: .on(Self.day), after: .clock(minutes: 8 * 60),
                                   windowMinutes: 10, percentile: 50, rules: JourneyQuery.Rules(transfers: 3))
            q.zone = nil
            let isochrone = try feed.isochrone(q)
            let s = isochrone.surface
            // 200 cells drawn among those with a time and 100 among all.
            let timed = s.minutes.indices.filter { s.minutes[$0] >= 0 }
            let cells = (0..<200).map { _ in timed[Int(g.next() % UInt64(timed.count))] } + (0..<100).map { _ in Int(g.next() % UInt64(s.minutes.count)) }
            let points = cells.enumerated().map { k, cell in
                TravelTimeQuery.Point(id: "c\(k)", place: .point(s.centre(column: cell % s.columns, row: cell / s.columns), text: "cell \(cell)"))
            }
            var mq = q.matrixQuery
            mq.destinations = points
            var got: [Int: Int] = [:]
            try feed.travelTimeMatrix(mq).rows(jobs: 1) { row in
                for cell in row.cells { got[cell.destination] = cell.minutes[0] }
            }
            let differ = cells.enumerated().filter { k, cell in (s.minutes[cell] < 0 ? nil : Int(s.minutes[cell])) != got[k] }
            print("isochrone from \(from) on terre-haute: \(s.columns) × \(s.rows) cells, \(timed.count) within \(Self.cutoffs.last ?? 0) min; 300 cells against the matrix, \(differ.count) differ")
            #expect(differ.isEmpty, "\(differ.prefix(3).map { "cell \($0.element): \(s.minutes[$0.element]) against \(String(describing: got[$0.offset]))" })")
            #expect(timed.count > 250, "\(timed.count) cells within reach")
            #expect(isochrone.contours.map(\.cutoff) == Self.cutoffs)
            #expect(zip(isochrone.contours, isochrone.contours.dropFirst()).allSatisfy { $0.areaSquareMeters < $1.areaSquareMeters && $0.stops <= $1.stops })
        }
    }

    /// The contours as written, checked, and the stops reach lists found inside.
    static func checkThroughTheBinary(_ args: [String], env: [String: String], label: String) async throws {
        let run = try await Run.transit(["gtfs", "isochrone"] + args + ["--cutoffs", Self.cutoffs.map(String.init).joined(separator: ","), "--window", "1"], env: env)
        #expect(run.status == 0, "\(label): \(run.stderr)")
        let features = PolygonCheck.features(run.stdout)
        #expect(features.map { $0.properties["cutoff"] as? Int } == Self.cutoffs.map(Optional.init), "\(label)")
        for (k, feature) in features.enumerated() {
            let problems = PolygonCheck.problems(feature.polygons)
            #expect(problems.isEmpty, "\(label) cutoff \(Self.cutoffs[k]): \(problems.prefix(3))")
            if k + 1 < features.count {
                let nested = PolygonCheck.problems(nested: feature.polygons, in: features[k + 1].polygons)
                #expect(nested.isEmpty, "\(label) cutoff \(Self.cutoffs[k]): \(nested.prefix(3))")
            }
        }
        let reach = try await Run.transit(["gtfs", "reach"] + args + ["--minutes", "\(Self.cutoffs.last ?? 0)", "--format", "json"], env: env)
        #expect(reach.status == 0, "\(label): \(reach.stderr)")
        let stops = (try JSONSerialization.jsonObject(with: Data(reach.stdout.utf8)) as? [[String: Any]]) ?? []
        var checked = 0, outside: [String] = []
        for stop in stops {
            guard let minutes = stop["minutes"] as? Int, let lat = stop["latitude"] as? Double, let lon = stop["longitude"] as? Double else { continue }
            for (k, cutoff) in Self.cutoffs.enumerated() where minutes <= cutoff - 2 && k < features.count {
                checked += 1
                if !PolygonCheck.contains(features[k].polygons, (lon, lat)) { outside.append("\(stop["stop_id"] ?? "?") (\(minutes) min) outside \(cutoff)") }
            }
        }
        print("isochrone \(label): \(features.count) contours valid and nested; \(checked) (stop, cutoff) pairs reach lists, \(outside.count) outside")
        #expect(checked > 20, "\(label): \(checked) pairs")
        #expect(outside.isEmpty, "\(label): \(outside.prefix(5))")
    }

    @Test func contoursAreValidNestedAndHoldTheStopsReachLists() async throws {
        let env = try await Self.imported()
        let th = ["--feed", "th", "--date", "2016-06-15", "--after", "08:00", "--transfers", "3"]
        try await Self.checkThroughTheBinary(th + ["--from", "39.4667,-87.4139"], env: env, label: "terre-haute from a point")
        try await Self.checkThroughTheBinary(th + ["--from", "782517"], env: env, label: "terre-haute from a stop")
        let bart = ["--feed", "bart", "--date", "2022-11-22", "--after", "08:00"]
        try await Self.checkThroughTheBinary(bart + ["--from", "24th St"], env: env, label: "bart from 24th St")
        try await Self.checkThroughTheBinary(bart + ["--from", "37.7793,-122.4193"], env: env, label: "bart from a point")
    }
}
}
