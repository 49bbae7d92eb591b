import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

/// Issue 70's matrix, in process on R5's Terre Haute feed with its map: every cell is the
/// percentile of what the engine's `--earliest` answer (`GTFSFeed.journeys` with `earliest`)
/// says at each minute of the window, from and to points 100 m off the feed's stops, walked on
/// the streets. CI asks 10 × 10 points (3,000 engine queries, 20 s of its CPU-bound run);
/// `scripts/differential` the 20 × 20 (12,000).
extension CPUBound {
@Suite(.enabled(if: Reference.isPresent, Reference.absent))
struct TravelTimeMatrixTests {
    static let day = LocalDate(year: 2016, month: 6, day: 15)

    /// `count` points, each 100 m off a stop a vehicle calls at (drawn with `g`), in a random direction.
    static func points(_ t: Timetable, _ count: Int, _ g: inout SplitMix, prefix: String) -> [TravelTimeQuery.Point] {
        let stops = (0..<t.stopCount).filter { t.isCalledAt($0) }
        return (0..<count).map { k in
            let at = t.coordinate(ofStop: stops[Int(g.next() % UInt64(stops.count))])
            let bearing = Double(g.next() % 3600) / 3600 * 2 * Double.pi
            let lat = at.latitude + 100 / 111_320 * cos(bearing)
            let lon = at.longitude + 100 / (111_320 * cos(at.latitude * Double.pi / 180)) * sin(bearing)
            let text = String(format: "%.6f,%.6f", lat, lon)
            return TravelTimeQuery.Point(id: "\(prefix)\(k)", place: JourneyQuery.Place(text))
        }
    }

    /// The feed imported with its map (through the binary, as a user imports it).
    static func imported() async throws -> GTFSFeed {
        let cache = Paths.temporary()
        let run = try await Run.transit(["gtfs", "import", Reference.path("gtfs/feeds/r5-terre-haute"), "--name", "th", "--streets",
                                         Reference.path("osm/r5/terre-haute.osm.pbf")], env: Run.environment(["TRANSIT_CACHE_DIR": cache]))
        #expect(run.status == 0, "\(run.stderr)")
        return try GTFSFeed.imported("th", cacheDirectory: cache)
    }

    /// The minutes `--earliest` answers leaving at each of the window's minutes (nil: no
    /// journey, or none within `max`): the answer `GTFSFeed.journeys` gives, its ends (and their
    /// walks on the streets) resolved once for the window's minutes.
    static func earliestMinutes(_ feed: GTFSFeed, _ from: JourneyQuery.Place, _ to: JourneyQuery.Place, after: Int, window: Int, max: Int,
                                rules: JourneyQuery.Rules) -> [Int?] {
        func query(_ minute: Int) -> JourneyQuery {
            var q = JourneyQuery(from: from, to: to, day: .on(day), window: ServiceWindow(after: .clock(minutes: minute)), rules: rules)
            q.earliest = true
            return q
        }
        // Ends a journey query refuses (every stop near one is near the other, and no walk): none.
        guard let ends = try? feed.ends(query(after)) else { return (0..<window).map { _ in nil } }
        return (0..<window).map { k in
            let minute = after + k
            guard let search = try? feed.search(query(minute), ends, updates: nil), let journey = search.journeys().first else { return nil }
            let leaving = day.instant(minutes: minute, in: feed.timeZone)
            let whole = Int(search.clock.instant(journey.arrival).timeIntervalSince(leaving)) / 60
            return whole <= max ? whole : nil
        }
    }

    /// The value at rank ⌈p/100 × n⌉ of `minutes` sorted, nil (beyond) last.
    static func percentile(_ p: Int, _ minutes: [Int?]) -> Int? {
        let sorted = minutes.compactMap { $0 }.sorted()
        let rank = (p * minutes.count + 99) / 100
        return rank <= sorted.count ? sorted[rank - 1] : nil
    }

    @Test func everyCellIsThePercentileOfTheEarliestAnswers() async throws {
        let feed = try await Self.imported()
        var g = SplitMix(seed: 70)
        let side = ProcessInfo.processInfo.environment["TRANSIT_DIFFERENTIAL_QUERIES"] == nil ? 10 : 20
        let origins = Self.points(feed.timetable, side, &g, prefix: "o"), destinations = Self.points(feed.timetable, side, &g, prefix: "d")
        let rules = JourneyQuery.Rules(transfers: 3)
        // Every rank of a 30-minute window is some percentile's: all of them checked.
        let percentiles = Array(1...99), after = 7 * 60 + 40, window = 30, max = 60
        var q = TravelTimeQuery(origins: origins, destinations: destinations, day: .on(Self.day), after: .clock(minutes: after), windowMinutes: window,
                                percentiles: percentiles, maxMinutes: max, rules: rules)
        q.zone = nil
        let matrix = try feed.travelTimeMatrix(q)
        var cells: [String: [Int?]] = [:]
        try matrix.rows(jobs: 2) { row in
            for cell in row.cells { cells["\(row.origin)>\(cell.destination)"] = cell.minutes }
        }
        // The reference's queries (side² × 30) over both cores, a pair at a time.
        let pairs = origins.indices.flatMap { o in destinations.indices.map { (o, $0) } }
        let answers = Locked([[Int?]](repeating: [], count: pairs.count))
        DispatchQueue.concurrentPerform(iterations: pairs.count) { k in
            let (o, d) = pairs[k]
            let minutes = Self.earliestMinutes(feed, origins[o].place, destinations[d].place, after: after, window: window, max: max, rules: rules)
            answers.withLock { $0[k] = minutes }
        }
        var compared = 0, reached = 0, differ: [String] = []
        for (k, (o, d)) in pairs.enumerated() {
            let earliest = answers.withLock { $0[k] }
            let expected = percentiles.map { Self.percentile($0, earliest) }
            let got = cells["\(o)>\(d)"] ?? percentiles.map { _ in nil }
            compared += 1
            if expected.contains(where: { $0 != nil }) { reached += 1 }
            if got != expected {
                differ.append("\(origins[o].place.text) → \(destinations[d].place.text): minutes \(earliest), matrix p50 \(String(describing: got[49]))")
            }
        }
        print("matrix on terre-haute with its map: \(compared) cells, \(reached) reached within \(max) min, \(differ.count) differ")
        #expect(differ.isEmpty, "\(differ.prefix(5))")
        #expect(reached > compared / 2, "\(reached) of \(compared) reached")
    }
}
}
