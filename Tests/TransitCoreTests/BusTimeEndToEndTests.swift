import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport
import TransitTestSupport

/// `transit cta …` and `transit mbus …` run as a user would, against the loopback server.
@Suite struct BusTimeEndToEndTests {
    /// The clock at the real capture's time: 2015-02-14 12:20 in Chicago.
    func env(_ server: LoopbackServer?, agency: String = "cta", _ extra: [String: String] = [:]) -> [String: String] {
        var vars = ["TRANSIT_\(agency.uppercased())_KEY": "TESTKEY123", "TRANSIT_NOW": "2015-02-14T18:20:00Z"]
        if let server { vars["TRANSIT_\(agency.uppercased())_BASE_URL"] = server.baseURL + "/bustime/api/v3" }
        return Run.environment(vars, extra)
    }

    func fixtures(_ agency: String = "cta") throws -> LoopbackServer {
        try LoopbackServer(handler: LoopbackServer.recordings(in: Paths.fixtures, provider: agency, prefix: "/bustime/api/v3/"))
    }

    @Test func predictionsWithAlertsAsTSV() async throws {
        let server = try fixtures()
        defer { server.stop() }
        let run = try await Run.transit(["cta", "predictions", "--route", "22", "--stop", "15895"], env: env(server))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "")
        #expect(run.stdoutLines == [
            "22\tNorthbound\t15895\tClark & Harrison\tHoward\t4336\t2015-02-14T12:25:00-06:00\t5\tfalse\tdeparture",
            // 12:35 predicted at 12:21 (its tmstmp): 14 minutes, whatever the local clock says.
            "22\tNorthbound\t15895\tClark & Harrison\tHoward\t4361\t2015-02-14T12:35:00-06:00\t14\tfalse\tdeparture",
        ])
        // One round: predictions and bulletins side by side, JSON asked for, the key sent.
        let functions = Set(server.requests.map(\.path))
        #expect(functions == ["/bustime/api/v3/getpredictions", "/bustime/api/v3/getservicebulletins"])
        #expect(server.requests.allSatisfy { $0.value("format") == "json" && $0.value("key") == "TESTKEY123" })
        #expect(server.requests.first { $0.path.hasSuffix("getpredictions") }?.value("stpid") == "15895")
    }

    /// `eta` in tsv has every field its help lists, and BusTime's minutes count on BusTime's
    /// clock (the prediction's tmstmp): a replay years later says 13 where the answer said 13.
    @Test func etaAgreesWithItsHelpAndTheAgencysClock() async throws {
        let run = try await Run.transit(["--offline", "mbus", "eta", "--stop", "C528", "--header"], env: Run.environment(["TRANSIT_NOW": "2026-11-23T20:00:00Z"]))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdoutLines.first == "vehicle\troute\tdestination\tpattern_id\tlatitude\tlongitude\tdistance_miles\tdistance_km\tstops_between\testimate_minutes\tbustime_minutes\tbustime_predicted\tdifference_minutes\tmethod")
        #expect(run.stdoutLines.dropFirst().first?.split(separator: "\t").dropFirst(10).first == "13.1", "\(run.stdout)")
    }

    /// Coordinates print to 6 decimals at most (the recorded Magic Bus positions have 13).
    @Test func coordinatesToSixDecimals() async throws {
        for format in ["json", "tsv", "geojson"] {
            let run = try await Run.transit(["--offline", "--format", format, "mbus", "vehicles", "--route", "BB"], env: Run.environment())
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("42.277336") && run.stdout.range(of: #"\d\.\d{7,}"#, options: .regularExpression) == nil, "\(format): \(run.stdout)")
        }
    }

    /// `--limit` as everywhere else: the first N by time, kept by transit, so that the request
    /// and its recording are the same whatever the limit (`--offline` answers it too); `--top`
    /// still works, out of sight.
    @Test func limitKeepsTheFirstPredictions() async throws {
        let server = try fixtures()
        defer { server.stop() }
        let all = try await Run.transit(["cta", "predictions", "--route", "22", "--stop", "15895"], env: env(server))
        #expect(all.status == 0 && all.stdoutLines.count == 2, "\(all.stderr)")
        for option in ["--limit", "--top"] {
            let run = try await Run.transit(["cta", "predictions", "--route", "22", "--stop", "15895", option, "1"], env: env(server))
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdoutLines == Array(all.stdoutLines.prefix(1)))
        }
        #expect(server.requests.filter { $0.path.hasSuffix("getpredictions") }.allSatisfy { $0.value("top") == nil })
        let offline = try await Run.transit(["--offline", "cta", "predictions", "--route", "22", "--stop", "15895", "--limit", "1"],
                                            env: Run.environment(["TRANSIT_NOW": "2015-02-14T18:20:00Z"]))
        #expect(offline.status == 0 && offline.stdoutLines.count == 1, "\(offline.stderr)")
        let help = try await Run.transit(["cta", "predictions", "--help"], env: env(server))
        #expect(help.stdout.contains("--limit N") && !help.stdout.contains("--top"))
    }

    @Test func minutesAreTheAgencysNotTheLocalClocks() async throws {
        // Replayed years later: the minutes still count from each prediction's tmstmp.
        let server = try fixtures()
        defer { server.stop() }
        let run = try await Run.transit(["cta", "predictions", "--route", "22", "--stop", "15895"], env: env(server, ["TRANSIT_NOW": "2026-11-23T12:00:00Z"]))
        #expect(run.status == 0)
        #expect(run.stdoutLines.map { $0.split(separator: "\t")[7] } == ["5", "14"])
    }

    @Test func predictionsAsJSONCarryAlertsHighFirst() async throws {
        let server = try fixtures()
        defer { server.stop() }
        let run = try await Run.transit(["--format", "json", "cta", "predictions", "--route", "22", "--stop", "15895"], env: env(server))
        #expect(run.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let predictions = try #require(object["predictions"] as? [[String: Any]])
        #expect(predictions.map { $0["vehicle"] as? String } == ["4336", "4361"])
        #expect(predictions.first?["predicted"] as? String == "2015-02-14T12:25:00-06:00")
        #expect(predictions.first?["minutes"] as? Int == 5)
        #expect(predictions.first?["type"] as? String == "departure")
        #expect(Array(predictions.first?.keys.sorted() ?? []) == ["delayed", "destination", "direction", "minutes", "predicted", "route", "stop_id", "stop_name", "type", "vehicle"])
        let alerts = try #require(object["alerts"] as? [[String: Any]])
        #expect(alerts.map { $0["priority"] as? String } == ["high", "medium", "low"])
        #expect(alerts.first?["title"] as? String == "#22 Clark reroute near Harrison")
        #expect(alerts.first?["routes"] as? [String] == ["22"])
        #expect(alerts[1]["detail"] as? String == "Northbound #22 buses will stop on the far side of Belmont. Allow extra time.")
    }

    @Test func predictionsTablePrintsAlertsAroundIt() async throws {
        let server = try fixtures()
        defer { server.stop() }
        let run = try await Run.transit(["--format", "table", "cta", "predictions", "--route", "22", "--stop", "15895"], env: env(server))
        #expect(run.status == 0)
        #expect(run.stdoutLines == [
            "! [high] #22 Clark reroute near Harrison: Buses are rerouted via Dearborn due to a water main break.",
            "ROUTE  DIR         STOP              TO      AT     MIN  BUS   DELAYED",
            "22     Northbound  Clark & Harrison  Howard  12:25    5  4336  no",
            "22     Northbound  Clark & Harrison  Howard  12:35   14  4361  no",
            "  [medium] #22 Clark: temporary stop relocation at Belmont: Northbound #22 buses will stop on the far side of Belmont. Allow extra time.",
            "  [low] Allow extra travel time: Snow may slow service system-wide.",
        ])
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func noArrivalTimesIsAnEmptySuccess() async throws {
        let body = try Reference.data("bustime/samples/cta-v2-error-no-arrival-times.json")
        let server = try LoopbackServer { request in
            request.path.hasSuffix("getpredictions")
                ? .respond(status: 200, headers: ["Content-Type": "application/json"], body: body, delay: 0)
                : .ok(#"{"bustime-response":{"error":[{"stpid":"70","msg":"No data found for parameter"}]}}"#, type: "application/json")
        }
        defer { server.stop() }
        let run = try await Run.transit(["cta", "predictions", "--stop", "70"], env: env(server))
        #expect(run.status == 0)
        #expect(run.stdout == "")
        #expect(run.stderr == "No arrival times for stop 70\n")
        let json = try await Run.transit(["--format", "json", "cta", "predictions", "--stop", "70"], env: env(server))
        #expect(json.stdout == "{\n  \"predictions\": [],\n  \"alerts\": []\n}\n")
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func invalidKeyExitsOne() async throws {
        let body = try Reference.data("bustime/samples/pgh-error-invalid-key-from-test-literal.xml")
        let server = try LoopbackServer { _ in .respond(status: 200, headers: ["Content-Type": "text/xml"], body: body, delay: 0) }
        defer { server.stop() }
        let run = try await Run.transit(["cta", "predictions", "--stop", "1836"], env: env(server))
        #expect(run.status == 1)
        #expect(run.stderr == "transit: CTA Bus Tracker: Invalid API access key supplied\n")
        #expect(!run.stderr.contains("TESTKEY123"))
    }

    @Test func missingKeySaysWhichVariable() async throws {
        let run = try await Run.transit(["mbus", "vehicles", "--route", "BB"], env: Run.environment())
        #expect(run.status == 1)
        #expect(run.stderrLines.first == "transit: Magic Bus needs an API key: set TRANSIT_MBUS_KEY")
        #expect(run.stderrLines.count == 2)
        let cta = try await Run.transit(["cta", "routes"], env: Run.environment())
        #expect(cta.stderrLines == ["transit: CTA Bus Tracker needs an API key: set TRANSIT_CTA_KEY",
                                    "get a key at ctabustracker.com: sign in, then My Account → Developer API"])
    }

    @Test func limitsAreCheckedBeforeSending() async throws {
        let stops = (1...11).map(String.init).joined(separator: ",")
        let run = try await Run.transit(["cta", "predictions", "--stop", stops], env: env(nil))
        #expect(run.status == 2)
        #expect(run.stderr == "transit: --stop takes at most 10 values (BusTime's limit per request); 11 given\n")
    }

    @Test func namesResolveThroughCachedStopsAndRoutes() async throws {
        let server = try fixtures()
        defer { server.stop() }
        let run = try await Run.transit(["cta", "predictions", "--route", "Clark", "--stop", "Clark & Harrison"], env: env(server))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdoutLines.count == 2)
        let miss = try await Run.transit(["cta", "predictions", "--route", "22", "--stop", "Clark & Harisson"], env: env(server))
        #expect(miss.status == 2)
        #expect(miss.stderr.hasPrefix("transit: unknown CTA stop 'Clark & Harisson'; did you mean 15895 (Clark & Harrison)"))
        let noRoute = try await Run.transit(["cta", "predictions", "--stop", "Clark & Harrison"], env: env(server))
        #expect(noRoute.status == 2)
    }

    @Test func stopsInRouteOrderSaySo() async throws {
        let server = try fixtures()
        defer { server.stop() }
        let run = try await Run.transit(["cta", "stops", "--route", "22", "--direction", "northbound"], env: env(server))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("Stops of route 22 Northbound in route order (pattern "))
        #expect(run.stdoutLines.count > 50)
        #expect(run.stdoutLines.first?.hasPrefix("1\t") == true)
    }

    @Test func offlineFromTheBundledFixtures() async throws {
        let predictions = try await Run.transit(["--offline", "cta", "predictions", "--route", "22", "--stop", "15895"], env: Run.environment(["TRANSIT_NOW": "2015-02-14T18:20:00Z"]))
        #expect(predictions.status == 0, "\(predictions.stderr)")
        #expect(predictions.stdoutLines.count == 2)
        let vehicles = try await Run.transit(["--offline", "--format", "json", "mbus", "vehicles", "--route", "BB"], env: Run.environment())
        #expect(vehicles.status == 0, "\(vehicles.stderr)")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(vehicles.stdout.utf8)) as? [[String: Any]])
        #expect(list.count >= 2)
        #expect(list.first?["timestamp"] as? String == "2026-11-22T14:05:00-05:00")
        #expect(list.first?["latitude"] is Double)
    }
}
