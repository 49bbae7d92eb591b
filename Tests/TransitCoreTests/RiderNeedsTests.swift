import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport
import TransitTestSupport

/// The options by which a rider shapes journeys (issue 46), through the built binary: the peer
/// cases the pack kept for them, and every bad value refused in one line with exit 2.
@Suite struct RiderNeedsTests {
    func env(_ cache: String) -> [String: String] { Run.environment(["TRANSIT_CACHE_DIR": cache]) }

    /// The bike modes are kept only where they are not the default's (issue 67: a rider who
    /// names none makes no set), so that needs meaning the same are equal however made.
    @Test func bikeModesMeanTheSameHoweverGiven() {
        var given = RiderNeeds(bike: true, bikeModes: RiderNeeds.defaultBikeModes)
        #expect(given == RiderNeeds(bike: true) && given.bikeModes == [.rail, .subway, .ferry])
        given.bikeModes = [.bus]
        #expect(given != RiderNeeds(bike: true) && given.bikeModes == [.bus])
        given.bikeModes = [.ferry, .rail, .subway]
        #expect(given == RiderNeeds(bike: true))
        #expect(RiderNeeds(bikeModes: [.tram]).bikeModes == [.tram])
        // The option's default, as help shows it, is the needs' own (read only when given).
        let option = RiderOptions.shared.first { $0.name == "bike-modes" }
        #expect(option?.defaultValue.map { RouteMode.list($0).modes } == RiderNeeds.defaultBikeModes)
    }

    /// MMRI 2b (OpenTripPlanner's WheelchairTest): trip 2b|1 (00:01) says wheelchair_accessible=2,
    /// so a wheelchair rides 2b|2 (00:03 → 00:04); without it, 2b|1 comes first.
    /// (The MMRI stops are 111 m apart and the peers assert rides: `--walk 0` turns the journey
    /// on foot off, which would come first and beat the slower ride.)
    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func aWheelchairRidesOnlyTheStepFreeTrip() async throws {
        let args = ["gtfs", "trips", "--feed", Reference.feed("mmri-2b"), "--from", "2b1", "--to", "2b2", "--date", "2014-01-01",
                    "--after", "0:01:00", "--min-transfer", "0", "--limit", "1", "--walk", "0"]
        let plain = try await Run.transit(args, env: env(Paths.temporary()))
        #expect(plain.status == 0 && plain.stdoutLines.first?.contains("2014-01-01T00:01:00+01:00\t2014-01-01T00:02:00+01:00") == true)
        let stepFree = try await Run.transit(args + ["--wheelchair"], env: env(Paths.temporary()))
        #expect(stepFree.status == 0 && stepFree.stdoutLines == ["2b1\t2b2\t2014-01-01T00:03:00+01:00\t2014-01-01T00:04:00+01:00\t1\t0\tattr\t\t2b|2\t\t\t2b1@00:03:00"])
        #expect(stepFree.stderrLines.contains { $0.hasPrefix("--wheelchair: walks are straight lines at 0.8 m/s") })
    }

    /// MMRI 3d (OpenTripPlanner's ExcludedRoutesTest): with route 3d|1 banned, bus 2 (00:01 → 00:03);
    /// a route named by its short name is avoided the same.
    /// (`--walk 0`: the journey on foot off, as above.)
    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func anAvoidedRouteIsNeverRidden() async throws {
        let args = ["gtfs", "trips", "--feed", Reference.feed("mmri-3d"), "--from", "3d1", "--to", "3d2", "--date", "2014-01-01",
                    "--after", "0:01:00", "--min-transfer", "0", "--limit", "1", "--walk", "0"]
        let plain = try await Run.transit(args, env: env(Paths.temporary()))
        #expect(plain.stdoutLines.first?.hasSuffix("bus 1\t\t3d|1\t\t\t3d1@00:01:00") == true)
        for avoid in ["3d|1", "BUS 1"] {
            let run = try await Run.transit(args + ["--avoid", avoid], env: env(Paths.temporary()))
            #expect(run.status == 0 && run.stdoutLines == ["3d1\t3d2\t2014-01-01T00:01:00+01:00\t2014-01-01T00:03:00+01:00\t2\t0\tbus 2\t\t3d|2\t\t\t3d1@00:01:00"])
        }
    }

    /// Every bad value: one line on stderr, exit 2, nothing on stdout.
    @Test func badValuesAreRefusedInOneLine() async throws {
        let feed = Paths.fixtures + "/gtfs/lakeport"
        let base = ["gtfs", "trips", "--feed", feed, "--from", "Harbor", "--to", "Stadium", "--date", "2026-11-23"]
        let cases: [([String], String)] = [
            (["--modes", "bus,blimp"], "no mode 'blimp'"),
            (["--bike-modes", "zeppelin"], "no mode 'zeppelin'"),
            (["--avoid", "NOPE"], "no route 'NOPE'"),
            (["--via", "Market", "--via", "market"], "is given twice"),
            (["--via", "Market", "--via", "Hillcrest", "--via", "Riverside"], "at most 2 --via stops"),
            (["--via", "Market", "--via-stay", "5,5"], "2 stays for 1 --via stop"),
            (["--via-stay", "5"], "1 stay for 0 --via stops"),
            (["--via", "Harbor"], "is the origin"),
            (["--via", "Stadium"], "is the destination"),
            (["--via", "Market", "--via-stay", "-5"], "--via-stay takes minutes"),
            (["--buffer", "-1"], "--buffer takes a whole number"),
            (["--buffer-factor", "0.5"], "--buffer-factor takes a number from 1"),
        ]
        let cache = Paths.temporary()
        for (extra, said) in cases {
            let run = try await Run.transit(base + extra, env: env(cache))
            #expect(run.status == 2 && run.stdout.isEmpty && run.stderrLines.count <= 2, "\(extra): \(run.status) \(run.stderr)")
            #expect(run.stderrLines.first?.contains(said) == true, "\(extra): \(run.stderr)")
        }
    }
}
