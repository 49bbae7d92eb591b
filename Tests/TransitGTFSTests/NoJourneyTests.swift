import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

/// "No journey" says why, and `gtfs trips` without `--transfers` asks for more changes before it
/// says none (issue 66, item 4). Through the binary, on a feed written from these facts
/// (Chicago's zone, 41° N, where 0.01° of longitude is about 840 m):
/// - trams (route_type 0, no trip marked for bikes) in a chain: t1 A 08:00 → B 08:10, t2 B 08:15
///   → C 08:25, t3 C 08:30 → D 08:40, t4 D 08:45 → E 08:55; A to E 0.01° apart each;
/// - Z, a stop no vehicle calls at, 0.0036° west of A (about 303 m).
@Suite struct NoJourneyTests {
    static let date = "2026-11-23"

    static func feed() -> String {
        TestFeed([
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nA,Alder,41.0,-87.0\nB,Birch,41.0,-86.99\nC,Cedar,41.0,-86.98\nD,Dogwood,41.0,-86.97\n"
                + "E,Elm,41.0,-86.96\nZ,Zelkova,41.0,-87.0036\n",
            "routes.txt": "route_id,route_short_name,route_type\nT,1,0\n",
            "trips.txt": "route_id,service_id,trip_id\nT,S,t1\nT,S,t2\nT,S,t3\nT,S,t4\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nt1,08:00:00,08:00:00,A,1\nt1,08:10:00,08:10:00,B,2\n"
                + "t2,08:15:00,08:15:00,B,1\nt2,08:25:00,08:25:00,C,2\nt3,08:30:00,08:30:00,C,1\nt3,08:40:00,08:40:00,D,2\n"
                + "t4,08:45:00,08:45:00,D,1\nt4,08:55:00,08:55:00,E,2\n",
        ], zone: "America/Chicago").directory
    }

    static func trips(_ feed: String, _ args: [String]) async throws -> Run {
        try await Run.transit(["gtfs", "trips", "--feed", feed, "--date", date, "--after", "07:30"] + args)
    }

    /// The last line of stderr, where "No journey" is said.
    static func said(_ run: Run) -> String { run.stderrLines.last ?? "" }

    @Test func eachReasonIsSaid() async throws {
        let feed = Self.feed()
        let start = "No journey from %@ to %@ on 2026-11-23 in that window: "
        // --bike: no tram is marked, and trams are not among the default --bike-modes.
        let bike = try await Self.trips(feed, ["--from", "A", "--to", "B", "--bike"])
        #expect(bike.status == 0 && bike.stdout.isEmpty && Self.said(bike) == String(format: start, "A", "B")
                + "--bike leaves no ride; without it there are journeys (no trip is marked bikes_allowed=1; an unmarked trip takes a bike on "
                + "--bike-modes, here ferry,rail,subway, and the feed's routes are tram)", "\(bike.stderr)")
        // --modes rail on a feed of trams.
        let modes = try await Self.trips(feed, ["--from", "A", "--to", "B", "--modes", "rail"])
        #expect(Self.said(modes) == String(format: start, "A", "B") + "--modes rail leaves no ride; without it there are journeys (the feed's routes are tram)",
                "\(modes.stderr)")
        // Z has no service, and the nearest stop that has is just beyond the default walk.
        let meters = Int(Coordinate(latitude: 41, longitude: -87.0036).meters(to: Coordinate(latitude: 41, longitude: -87)).rounded())
        #expect(meters > 300 && meters < 310)
        let far = try await Self.trips(feed, ["--from", "Z", "--to", "B"])
        #expect(Self.said(far) == String(format: start, "Z", "B")
                + "no run leaves from a stop within --walk 300 of Z on 2026-11-23; the nearest that one does is Alder (A), \(meters) m away", "\(far.stderr)")
        // A to E takes three changes: with --transfers 2 given, none, and the reason.
        let bound = try await Self.trips(feed, ["--from", "A", "--to", "E", "--transfers", "2"])
        #expect(bound.stdout.isEmpty && Self.said(bound) == String(format: start, "A", "E")
                + "a journey needs more than 2 changes: --transfers 7 finds one", "\(bound.stderr)")
    }

    /// Without --transfers, the window's journey of three changes, and a notice; with a bound
    /// that allows it, the same journey and no notice.
    @Test func withoutTransfersMoreChangesAreAskedFor() async throws {
        let feed = Self.feed()
        let raised = try await Self.trips(feed, ["--from", "A", "--to", "E"])
        #expect(raised.status == 0 && raised.stdoutLines.count == 1 && raised.stdout.contains("2026-11-23T08:00:00-06:00\t2026-11-23T08:55:00-06:00\t55\t3"),
                "\(raised.stdout)")
        #expect(raised.stderrLines == ["no journey within 2 changes; these take 3; --transfers 3 asks for them directly"], "\(raised.stderr)")
        let direct = try await Self.trips(feed, ["--from", "A", "--to", "E", "--transfers", "3"])
        #expect(direct.stdout == raised.stdout && direct.stderr.isEmpty, "\(direct.stderr)")
        // --radius with stops named at both ends: said, the answer the same.
        let radius = try await Self.trips(feed, ["--from", "A", "--to", "E", "--transfers", "3", "--radius", "500"])
        #expect(radius.stdout == direct.stdout && radius.stderrLines == ["--radius is a point's reach: with stops named at both ends it is not used (--walk is theirs)"],
                "\(radius.stderr)")
    }
}
