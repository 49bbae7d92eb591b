import Foundation
import Testing
import TransitSupport

/// Issue 44, item 8: `stops` and `routes` pick the feed from their filters as `trips` picks it
/// from its stops: of several imported feeds and no --feed, the one that has what the filters
/// ask for answers, with a notice; none or several is one line naming them, exit 2.
@Suite struct FeedPickingTests {
    static func imported() async throws -> [String: String] {
        let env = Run.environment(["TRANSIT_CACHE_DIR": Paths.temporary()])
        for name in ["bart", "caltrain"] {
            let run = try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/pairs/bay/" + name, "--name", name], env: env)
            #expect(run.status == 0, "\(run.stderr)")
        }
        return env
    }

    @Test func stopsAndRoutesPickTheFeedTheirFiltersFind() async throws {
        let env = try await Self.imported()
        let stops = try await Run.transit(["gtfs", "stops", "--name", "palo alto"], env: env)
        #expect(stops.status == 0 && !stops.stdout.isEmpty && stops.stderrLines == ["caltrain is the one of 2 imported feeds with stops named palo alto; --feed chooses"],
                "\(stops.stderr)")
        let routes = try await Run.transit(["gtfs", "routes", "--name", "richmond"], env: env)
        #expect(routes.status == 0 && routes.stdoutLines.count == 1 && routes.stdout.hasPrefix("RED\t")
                && routes.stderrLines == ["bart is the one of 2 imported feeds with routes named richmond; --feed chooses"], "\(routes.stdout)\(routes.stderr)")
        // Both have Millbrae: say which.
        let both = try await Run.transit(["gtfs", "stops", "--name", "millbrae"], env: env)
        #expect(both.status == 2 && both.stdout.isEmpty
                && both.stderrLines.first == "transit: 2 feeds are imported (bart, caltrain) and bart and caltrain have stops named millbrae: say which with --feed NAME, or --feed all for every feed as one network",
                "\(both.stderr)")
        let none = try await Run.transit(["gtfs", "routes", "--name", "monorail"], env: env)
        #expect(none.status == 2 && none.stderrLines.first?.contains("and none has routes named monorail") == true, "\(none.stderr)")
        // Named, the feed answers as it is (an empty answer said).
        let named = try await Run.transit(["gtfs", "routes", "--name", "monorail", "--feed", "bart"], env: env)
        #expect(named.status == 0 && named.stdout.isEmpty && named.stderrLines == ["No route of bart matches"], "\(named.stderr)")
    }
}
