import Foundation
import Testing

/// Real-time data across days (issue 64, SEMANTICS.md rule 8), through the binary: an update
/// applies to the run of its start_date on whichever day the query's journeys meet it. RIPTA's
/// trip 3776558 (nigiri's after-midnight case) runs on service day 2024-05-11 at 24:17–24:19;
/// both of the pack's descriptor files delay it 2 minutes from 72000 on (EXPECTED.md). Asked
/// from 00:10 of the 12th, the 11th's run is the journey, and its delay with it.
@Suite(.enabled(if: Reference.isPresent, Reference.absent)) struct RealtimeAcrossDaysTests {
    static let feed = Reference.path("gtfs-rt/feeds/nigiri-ripta/static")
    static let files = ["ripta-style-calendar-date.asciipb.pb", "spec-style-service-date.asciipb.pb"]

    /// The clock unpinned: a recording is read at its own time.
    static func transit(_ args: [String]) async throws -> Run {
        var env = Run.environment()
        env["TRANSIT_NOW"] = nil
        return try await Run.transit(args + ["--feed", feed, "--format", "json"], env: env)
    }

    @Test func theNightsRunIsRiddenWithItsDelayFromTheNextDay() async throws {
        let asked = ["gtfs", "trips", "--from", "11240", "--to", "11880", "--date", "2024-05-12", "--after", "00:10", "--limit", "1"]
        let planned = try await Self.transit(asked)
        #expect(planned.status == 0, "\(planned.stderr)")
        let plan = try #require(try planned.records().first)
        #expect(plan["departure"] as? String == "2024-05-12T00:17:00-04:00" && plan["arrival"] as? String == "2024-05-12T00:19:00-04:00", "\(plan)")
        for file in Self.files {
            let realtime = ["--realtime", Reference.path("gtfs-rt/feeds/nigiri-ripta/" + file)]
            let run = try await Self.transit(asked + realtime)
            #expect(run.status == 0, "\(file): \(run.stderr)")
            let journey = try #require(try run.records().first, "\(file): \(run.stdout)")
            let leg = try #require((journey["legs"] as? [[String: Any]])?.first)
            // The 11th's run (its start_date, in either spelling), 2 minutes late at the end.
            #expect(journey["departure"] as? String == "2024-05-12T00:17:00-04:00" && journey["arrival"] as? String == "2024-05-12T00:21:00-04:00",
                    "\(file): \(journey)")
            #expect(leg["trip_id"] as? String == "3776558" && leg["service_day"] as? String == "2024-05-11" && leg["status"] as? String == "updated"
                    && leg["planned_arrival"] as? String == "2024-05-12T00:19:00-04:00", "\(file): \(leg)")
            // The plan given, checked as given: the run of the 11th with its data, not as planned.
            let check = try await Self.transit(["gtfs", "journey", "3776558@2024-05-11", "--from", "11240", "--to", "11880", "--date", "2024-05-12"] + realtime)
            #expect(check.status == 0, "\(file): \(check.stderr)")
            let answer = try #require(try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any])
            let ride = try #require((answer["legs"] as? [[String: Any]])?.first, "\(file): \(check.stdout)")
            #expect(answer["holds"] as? Bool == true && ride["arrival"] as? String == "2024-05-12T00:21:00-04:00" && ride["status"] as? String == "updated",
                    "\(file): \(ride)")
        }
    }
}
