import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport
import TransitTestSupport

@Suite struct WatchAndGeoJSONTests {
    func env(_ server: LoopbackServer, _ extra: [String: String] = [:]) -> [String: String] {
        Run.environment(["TRANSIT_CTA_KEY": "K", "TRANSIT_CTA_BASE_URL": server.baseURL + "/bustime/api/v3",
                         "TRANSIT_NOW": "2015-02-14T18:20:00Z", "TRANSIT_WATCH_UNIT_MS": "5"], extra)
    }

    @Test func watchWritesOneTimedBlockPerRefreshWhenPiped() async throws {
        let server = try LoopbackServer(handler: LoopbackServer.recordings(in: Paths.fixtures, provider: "cta", prefix: "/bustime/api/v3/"))
        defer { server.stop() }
        let run = try await Run.transit(["cta", "predictions", "--route", "22", "--stop", "15895", "--watch", "10", "--count", "2"], env: env(server))
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdoutLines
        #expect(lines.count == 6)
        for header in [lines[0], lines[3]] {
            // The fetch time in Chicago, e.g. 2026-11-22T10:54:11-06:00.
            #expect(header.count == 25 && header.hasSuffix("-06:00") && header.dropFirst(10).first == "T", "\(header)")
        }
        #expect(lines[1] == lines[4] && lines[1].hasPrefix("22\tNorthbound\t15895"))
        #expect(server.requests.filter { $0.path.hasSuffix("getpredictions") }.count == 2)
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func aFailedFetchDoesNotEndTheWatch() async throws {
        let calls = Locked(0)
        let body = try Reference.data("bustime/samples/cta-v2-getpredictions-rt20-stpid4727.json")
        let server = try LoopbackServer { request in
            guard request.path.hasSuffix("getpredictions") else { return .ok(#"{"bustime-response":{"sb":[]}}"#, type: "application/json") }
            let n = calls.withLock { $0 += 1; return $0 }
            return n == 1 ? .status(404, "gone") : .respond(status: 200, headers: [:], body: body, delay: 0)
        }
        defer { server.stop() }
        let run = try await Run.transit(["cta", "predictions", "--stop", "4727", "--watch", "10", "--count", "2"], env: env(server))
        #expect(run.status == 0)
        #expect(run.stderr.hasPrefix("transit: HTTP 404 Not Found from "))
        #expect(run.stdoutLines.count >= 2 && run.stdoutLines.first?.hasSuffix("-06:00") == true)
    }

    @Test func watchLimits() async throws {
        let server = try LoopbackServer { _ in .close }
        defer { server.stop() }
        let short = try await Run.transit(["cta", "vehicles", "--route", "22", "--watch", "5"], env: env(server))
        #expect(short.status == 2 && short.stderrLines.first == "transit: --watch takes seconds, at least 10, not '5'")
        let count = try await Run.transit(["cta", "vehicles", "--route", "22", "--count", "2"], env: env(server))
        #expect(count.status == 2 && count.stderr.hasPrefix("transit: --count goes with --watch"))
        let bart = try await Run.transit(["bart", "stations", "--watch", "10"], env: env(server))
        #expect(bart.status == 2)
        #expect(server.requests.isEmpty)
    }

    @Test func geojsonOfVehiclesStopsAndETA() async throws {
        let base = Run.environment(["TRANSIT_NOW": "2010-11-16T03:00:00Z"])
        let vehicles = try await Run.transit(["--offline", "--format", "geojson", "cta", "vehicles", "--route", "22"], env: base)
        #expect(vehicles.status == 0, "\(vehicles.stderr)")
        let v = try #require(try JSONSerialization.jsonObject(with: Data(vehicles.stdout.utf8)) as? [String: Any])
        let vf = try #require(v["features"] as? [[String: Any]])
        #expect(v["type"] as? String == "FeatureCollection" && vf.count == 13)
        let geometry = try #require(vf.first?["geometry"] as? [String: Any])
        let coordinates = try #require(geometry["coordinates"] as? [Double])
        let properties = try #require(vf.first?["properties"] as? [String: Any])
        #expect(coordinates == [properties["longitude"] as? Double ?? 0, properties["latitude"] as? Double ?? 0])

        let stops = try await Run.transit(["--offline", "--format", "geojson", "cta", "stops", "--route", "22", "--direction", "Northbound"], env: base)
        #expect(stops.status == 0, "\(stops.stderr)")
        let s = try #require(try JSONSerialization.jsonObject(with: Data(stops.stdout.utf8)) as? [String: Any])
        let sf = try #require(s["features"] as? [[String: Any]])
        let points = sf.filter { ($0["geometry"] as? [String: Any])?["type"] as? String == "Point" }
        let lines = sf.filter { ($0["geometry"] as? [String: Any])?["type"] as? String == "LineString" }
        let tsv = try await Run.transit(["--offline", "cta", "stops", "--route", "22", "--direction", "Northbound"], env: base)
        #expect(points.count == tsv.stdoutLines.count && lines.count == 1)

        let eta = try await Run.transit(["--offline", "--format", "geojson", "mbus", "eta", "--stop", "C528", "--method", "straight-line"], env: base)
        #expect(eta.status == 0, "\(eta.stderr)")
        let e = try #require(try JSONSerialization.jsonObject(with: Data(eta.stdout.utf8)) as? [String: Any])
        #expect((e["features"] as? [[String: Any]])?.count == 2)
    }

    @Test func etaOfflineFromTheBundledFixtures() async throws {
        let run = try await Run.transit(["--offline", "--format", "json", "mbus", "eta", "--stop", "C528"],
                                        env: Run.environment(["TRANSIT_NOW": "2010-11-16T03:00:00Z"]))
        #expect(run.status == 0, "\(run.stderr)")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        #expect(list.count == 1)
        let bus = try #require(list.first)
        #expect(bus["vehicle"] as? String == "150" && bus["method"] as? String == "along-route")
        #expect(bus["stops_between"] as? Int == 6)
        #expect(bus["bustime_minutes"] as? Double == 13.1)
        #expect((bus["distance_km"] as? Double).map { abs($0 - 2.81) < 0.02 } == true)
        let none = try await Run.transit(["--offline", "mbus", "eta", "--stop", "C530", "--format", "table"],
                                         env: Run.environment(["TRANSIT_NOW": "2010-11-16T03:00:00Z"]))
        #expect(none.status == 0)
    }
}
