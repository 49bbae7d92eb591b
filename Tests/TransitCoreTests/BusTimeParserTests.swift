import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport

/// Every BusTime sample, JSON and XML, v2 and v3, through the one parser.
@Suite struct BusTimeParserTests {
    let cta = BusTimeAgency.cta
    func sample(_ name: String) throws -> Data { try Reference.data("bustime/samples/" + name) }
    func json(_ text: String) -> Data { Data(text.utf8) }
    /// An excerpt's lines wrapped into a response: `{"bustime-response": {"<key>": [ … ]}}`.
    func wrap(_ excerpt: String, key: String) throws -> Data {
        var body = try String(decoding: sample(excerpt), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if body.hasSuffix(",") { body.removeLast() }
        return json("{\"bustime-response\": {\"\(key)\": [\(body)]}}")
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func routesInV2XMLAndV3JSON() throws {
        let v2 = try BusTimeParser.routes(try sample("cta-v2-getroutes.xml"), agency: cta)
        #expect(v2.items.count == 127 && v2.messages.isEmpty)
        #expect(v2.items.first?.designator == nil)
        // The real v3 answer sits inside a scraper's log envelope: take it out as it was.
        let log = try JSONSerialization.jsonObject(with: try sample("cta-v3-getroutes-scraper-envelope.json")) as? [String: Any]
        let response = try #require((log?["requests"] as? [[String: Any]])?.first?["response"])
        let body = try JSONSerialization.data(withJSONObject: response)
        let v3 = try BusTimeParser.routes(body, agency: cta)
        #expect(v3.items.count == 124)
        #expect(v3.items.first == BusRoute(id: "1", name: "Bronzeville/Union Station", color: "#336633", designator: "1"))
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func directionsV2AndV3() throws {
        let v2xml = try BusTimeParser.directions(try sample("cta-v2-getdirections-rt22.xml"), agency: cta)
        #expect(v2xml.items == [BusDirection(id: "Northbound", name: "Northbound"), BusDirection(id: "Southbound", name: "Southbound")])
        let excerpt = String(decoding: try sample("cta-v3-era-errors-and-directions-excerpt.txt"), as: UTF8.self)
        // Its first block is a v2-shaped JSON answer, up to the first line that is a lone "}".
        let lines = excerpt.components(separatedBy: "\n")
        let end = try #require(lines.firstIndex { $0 == "}" })
        let v2json = lines[...end].joined(separator: "\n")
        #expect(try BusTimeParser.directions(json(v2json), agency: cta).items.map(\.id) == ["Eastbound", "Westbound"])
        let v3 = try BusTimeParser.directions(json(#"{"bustime-response":{"directions":[{"id":"NORTHBOUND","name":"Northbound"}]}}"#), agency: .mbus)
        #expect(v3.items == [BusDirection(id: "NORTHBOUND", name: "Northbound")])
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func stopsFromEveryCapture() throws {
        let rt20 = try BusTimeParser.stops(try sample("cta-v2-getstops-rt20-eastbound.json"), agency: cta)
        #expect(rt20.items.count > 50 && rt20.items.allSatisfy { $0.latitude != nil && !$0.name.hasSuffix(" ") })
        #expect(try BusTimeParser.stops(try sample("cta-v2-getstops-rt4-northbound.json"), agency: cta).items.count > 50)
        let rt22 = try BusTimeParser.stops(try sample("cta-v2-getstops-rt22-northbound.xml"), agency: cta)
        #expect(rt22.items.contains { $0.id == "15895" || $0.name == "Clark & Harrison" })
        #expect(try BusTimeParser.stops(try sample("cta-v3-getstops-rt9-reformatted.json"), agency: cta).items.count > 50)
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func patternsWithStopsAndWaypoints() throws {
        for name in ["cta-v2-getpatterns-rt1.json", "cta-v2-getpatterns-rt20.json", "cta-v2-getpatterns-rt22.xml"] {
            let patterns = try BusTimeParser.patterns(try sample(name), agency: cta).items
            #expect(!patterns.isEmpty, "\(name)")
            for p in patterns {
                #expect(p.points.contains { $0.isStop && $0.stopID != nil && $0.distance != nil }, "\(name)")
                #expect(p.points.filter { !$0.isStop }.allSatisfy { $0.distance == nil || $0.distance! > 0 }, "\(name)")
                #expect(zip(p.points, p.points.dropFirst()).allSatisfy { $0.sequence <= $1.sequence })
            }
        }
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func predictionsFromEveryCapture() throws {
        let rt22 = try BusTimeParser.predictions(try sample("cta-v2-getpredictions-rt22-stpid15895.xml"), agency: cta).items
        let first = try #require(rt22.first)
        #expect(first.stopName == "Clark & Harrison" && first.stopID == "15895" && first.vehicle == "4336")
        #expect(first.kind == .departure && !first.delayed && first.destination == "Howard")
        #expect(ClockTime.iso8601(first.predicted, zone: cta.zone) == "2015-02-14T12:25:00-06:00")
        #expect(try BusTimeParser.predictions(try sample("cta-v2-getpredictions-rt20-stpid4727.json"), agency: cta).items.count >= 2)
        #expect(try BusTimeParser.predictions(try sample("cta-v2-getpredictions-rt49-stpid8245.json"), agency: cta).items.count >= 1)
        #expect(try BusTimeParser.predictions(try sample("cta-v2-getpredictions-vid4361.xml"), agency: cta).items.count > 10)
        let fairfax = try BusTimeParser.predictions(try sample("fairfax-v3-getpredictions.json"), agency: cta).items
        #expect(!fairfax.isEmpty)
        let due = try #require(try BusTimeParser.predictions(try wrap("cta-v3-getpredictions-prd-excerpt.txt", key: "prd"), agency: cta).items.first)
        #expect(due.due && due.kind == .departure && due.distanceFeet == 763)
    }

    @Test func vehiclePrdctdnAndEmptyVehicleIds() throws {
        let body = json(#"{"bustime-response":{"prd":[{"prdtm":"20260528 22:25","vid":"","prdctdn":"DLY","dly":false,"typ":"A"},{"prdtm":"20260528 22:26","vid":"12","prdctdn":"Due"}]}}"#)
        let items = try BusTimeParser.predictions(body, agency: cta).items
        #expect(items[0].vehicle == nil && items[0].delayed && !items[0].due)
        #expect(items[1].due && items[1].vehicle == "12")
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func bulletinsWithHTMLAndSystemWide() throws {
        let rt8 = try BusTimeParser.bulletins(try sample("cta-v2-getservicebulletins-rt8.xml"), agency: cta).items
        let first = try #require(rt8.first)
        #expect(first.priority == .medium && first.subject == "#8 Halsted reroute Halsted/35th")
        #expect(first.detail.hasSuffix("due to street blockage. Allow extra travel time."))
        #expect(!first.detail.contains("<br"))
        #expect(first.services == [Bulletin.Service(route: "8", direction: nil, stopID: nil, stopName: nil)])
        let fairfax = try BusTimeParser.bulletins(try sample("fairfax-v3-getservicebulletins.json"), agency: cta).items
        #expect(!fairfax.isEmpty && fairfax.allSatisfy { [.high, .medium, .low].contains($0.priority) })
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func vehiclesV2XMLAndV3Strings() throws {
        let rt22 = try BusTimeParser.vehicles(try sample("cta-v2-getvehicles-rt22.xml"), agency: cta).items
        #expect(rt22.count > 5)
        #expect(rt22.first == Vehicle(id: "4394", route: "22", latitude: 41.873779296875, longitude: -87.63054656982422, heading: 178,
                                      patternID: 3932, patternDistance: 115, destination: "Howard", delayed: false,
                                      timestamp: BusTimeParser.timestamp("20150214 11:40", zone: cta.zone)))
        #expect(try BusTimeParser.vehicles(try sample("cta-v2-getvehicles-vid4394.xml"), agency: cta).items.count == 1)
        let v3 = try #require(try BusTimeParser.vehicles(try wrap("cta-v3-getvehicles-vehicle-excerpt.txt", key: "vehicle"), agency: cta).items.first)
        #expect(v3.latitude == 41.85788345336914 && v3.heading == 92 && v3.patternDistance == 25545)
        #expect(v3.timestamp.map { ClockTime.iso8601($0, zone: cta.zone) } == "2025-01-07T18:09:32-06:00")
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func emptyResultsAreNotFailures() throws {
        let none = try BusTimeParser.predictions(try sample("cta-v2-error-no-arrival-times.json"), agency: cta)
        #expect(none.items.isEmpty)
        #expect(none.messages == [BusTimeMessage(message: "No arrival times", subject: "stop 70")])
        #expect(none.messages.first?.notice == "No arrival times for stop 70")
        let noData = try BusTimeParser.vehicles(json(#"{"bustime-response":{"error":[{"rt":"137","msg":"No data found for parameter"}]}}"#), agency: cta)
        #expect(noData.items.isEmpty && noData.messages.first?.meansEmpty == true)
        let noService = try BusTimeParser.predictions(json(#"{"bustime-response":{"error":[{"stpid":"6601","msg":"No service scheduled"}]}}"#), agency: cta)
        #expect(noService.messages.first?.notice == "No service scheduled for stop 6601")
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func keyAndQuotaErrorsFail() {
        #expect(throws: TransitError.api(provider: "Magic Bus", message: "No API access key supplied", details: nil)) {
            try BusTimeParser.vehicles(try sample("mbus-v3-error-no-key-probe-quote.xml"), agency: .mbus)
        }
        #expect(throws: TransitError.api(provider: "CTA Bus Tracker", message: "Invalid API access key supplied", details: nil)) {
            try BusTimeParser.predictions(try sample("pgh-error-invalid-key-from-test-literal.xml"), agency: cta)
        }
        #expect(throws: TransitError.api(provider: "CTA Bus Tracker", message: "Transaction limit for current day has been exceeded.", details: nil)) {
            try BusTimeParser.routes(json(#"{"bustime-response":{"error":[{"msg":"Transaction limit for current day has been exceeded."}]}}"#), agency: cta)
        }
    }

    @Test func partialErrorsKeepTheData() throws {
        let body = json(#"{"bustime-response":{"prd":[{"prdtm":"20260528 22:25","stpid":"1","vid":"9","rt":"22","typ":"A","prdctdn":"4"}],"error":[{"stpid":"2","msg":"No service scheduled"},{"stpid":"3","msg":"Invalid parameter provided"}]}}"#)
        let result = try BusTimeParser.predictions(body, agency: cta)
        #expect(result.items.count == 1)
        #expect(result.messages.map(\.notice) == ["No service scheduled for stop 2", "Invalid parameter provided for stop 3"])
    }

    @Test func aSinglePredictionInXMLIsOneItem() throws {
        let xml = "<?xml version=\"1.0\"?>\n\n\t<bustime-response><prd><prdtm>20150214 12:25</prdtm><rt>22</rt><stpid>1</stpid><typ>A</typ><dly>true</dly></prd></bustime-response>\t\n"
        let result = try BusTimeParser.predictions(Data(xml.utf8), agency: cta)
        #expect(result.items.count == 1 && result.items.first?.delayed == true)
    }

    @Test func garbageIsAParseError() {
        for text in ["", "{", "[]", "{\"other\": 1}", "<html><body>busy</body></html>", "<bustime-response><prd>"] {
            #expect(errorKind { try BusTimeParser.predictions(Data(text.utf8), agency: cta) } == "parse", "\(text)")
        }
    }

    @Test func timestamps() {
        let t = BusTimeParser.timestamp("20261122 18:04", zone: BusTimeAgency.mbus.zone)
        #expect(t.map { ClockTime.iso8601($0, zone: BusTimeAgency.mbus.zone) } == "2026-11-22T18:04:00-05:00")
        #expect(BusTimeParser.timestamp("20260701 18:04:05", zone: cta.zone).map { ClockTime.iso8601($0, zone: cta.zone) } == "2026-07-01T18:04:05-05:00")
        for bad in ["", "2026-11-22 18:04", "20261322 18:04", "20261122 25:00", "20261122"] {
            #expect(BusTimeParser.timestamp(bad, zone: cta.zone) == nil, "\(bad)")
        }
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func routeOrderFollowsThePattern() throws {
        let stops = try BusTimeParser.stops(try sample("cta-v2-getstops-rt22-northbound.xml"), agency: cta).items
        let patterns = try BusTimeParser.patterns(try sample("cta-v2-getpatterns-rt22.xml"), agency: cta).items
        let ordered = BusTimeCommands.routeOrder(stops, patterns: patterns, direction: BusDirection(id: "Northbound", name: "Northbound"))
        #expect(ordered.pattern != nil)
        #expect(Set(ordered.stops.map(\.id)) == Set(stops.map(\.id)))
        let pattern = try #require(patterns.first { $0.id == ordered.pattern })
        let sequence = pattern.points.filter(\.isStop).compactMap(\.stopID)
        let onPattern = ordered.stops.map(\.id).filter(sequence.contains)
        #expect(onPattern == sequence.filter(Set(stops.map(\.id)).contains).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } })
        let none = BusTimeCommands.routeOrder(stops, patterns: [], direction: BusDirection(id: "Northbound", name: "Northbound"))
        #expect(none.pattern == nil && none.stops.first?.name == stops.map(\.name).sorted { $0.localizedStandardCompare($1) == .orderedAscending }.first)
    }
}
