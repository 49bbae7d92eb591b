import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport
import TransitTestSupport

@Suite struct BusbudParserTests {
    func sample(_ name: String) throws -> BusbudResponse { try BusbudParser.response(try Reference.data("busbud/samples/" + name)) }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func everyRealSampleParses() throws {
        let dir = Reference.path("busbud/samples")
        let files = try FileManager.default.subpathsOfDirectory(atPath: dir).filter { $0.hasSuffix(".json") }
        #expect(files.count == 10)
        for file in files {
            let response = try sample(file)
            let raw = try JSONSerialization.jsonObject(with: try Reference.data("busbud/samples/" + file)) as? [String: Any]
            #expect(response.departures.count == (raw?["departures"] as? [Any])?.count, "\(file)")
        }
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func localTimesInTheirOwnZonesAcrossDST() throws {
        let r = try sample("derived/initial_nyc-mtl_2018-03_incomplete-5deps.frontend-b-pr51.reserialized.json")
        #expect(!r.complete && r.isValidRoute == true && r.departures.count == 5)
        let night = try #require(r.departures.first { ClockTime.hhmm($0.departure, zone: $0.departureZone) == "18:30" })
        #expect(ClockTime.iso8601(night.departure, zone: night.departureZone) == "2018-03-10T18:30:00-05:00")
        #expect(ClockTime.iso8601(night.arrival, zone: night.arrivalZone) == "2018-03-11T03:55:00-04:00")
        #expect(night.durationMinutes == 505)
        #expect(night.arrival.timeIntervalSince(night.departure) == 505 * 60)
        #expect(night.priceTotal == 7200 && night.currency == "USD")
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func emptyFirstAnswerAndPollMetadata() throws {
        let empty = try sample("derived/initial_nyc-mtl_2018-06_incomplete-empty.frontend-b-pr61.body.json")
        #expect(!empty.complete && empty.departures.isEmpty && empty.operators.isEmpty && !empty.cities.isEmpty)
        let poll = try sample("poll_qc-mtl_2021-07_complete-16deps-metadata.frontend-b-pr162.json")
        #expect(poll.complete && poll.intervalMilliseconds == 2000 && poll.departures.count == 16 && poll.isValidRoute == nil)
    }

    @Test func errorsAndGarbage() {
        #expect(BusbudParser.errorMessage(Data(#"{"error":{"type":"invalid_date","details":"Outbound date is in the past"}}"#.utf8)) == "Outbound date is in the past")
        #expect(BusbudParser.errorMessage(Data("<html>".utf8)) == nil)
        for text in ["", "[]", "{}", "{\"complete\": \"maybe\"}", "{\"departures\": 3"] {
            #expect(errorKind { try BusbudParser.response(Data(text.utf8)) } == "parse", "\(text)")
        }
    }

    /// One spelling of a price for every command (issue 69, `PriceText`).
    @Test func moneyInMinorUnits() {
        #expect(PriceText.table(minor: 5200, currency: "USD") == "$52.00")
        #expect(PriceText.table(minor: 4673, currency: "EUR") == "€46.73")
        #expect(PriceText.table(minor: 5, currency: "CAD") == "CA$0.05")
        #expect(PriceText.table(minor: 500, currency: "JPY") == "JPY 500")
        #expect(PriceText.table(minor: 1234, currency: "CHF") == "CHF 12.34")
        #expect(PriceText.table(minor: 125, currency: "KWD") == "KWD 0.125")
        #expect(PriceText.table(minor: 460, currency: nil) == "4.60")
        #expect(PriceText.amount(minor: 820, currency: "USD") == "8.20" && PriceText.amount(minor: 500, currency: "JPY") == "500")
    }

    @Test func places() throws {
        #expect(try Busbud.place("Montreal").geohash == "f25dvk")
        #expect(try Busbud.place("montréal").geohash == "f25dvk")
        #expect(try Busbud.place("NEW YORK").geohash == "dr5reg")
        #expect(try Busbud.place("drt2yz").geohash == "drt2yz")
        #expect(errorKind { try Busbud.place("Springfield") } == "usage")
        #expect(errorKind { try Busbud.place("dr5rea") } == "usage")  // 'a' is not in the geohash alphabet
    }
}

/// The poll loop over real TCP, with a scripted server.
@Suite struct BusbudPollTests {
    let query = BusbudQuery(origin: "dr5reg", destination: "f25dvk", date: LocalDate(year: 2026, month: 12, day: 19), adults: 1, children: 0, seniors: 0, currency: "USD", lang: "en")

    static func departure(_ id: String, _ time: String, operatorID: String = "op1", from: Int = 1, to: Int = 2) -> String {
        #"{"id":"\#(id)","operator_id":"\#(operatorID)","origin_location_id":\#(from),"destination_location_id":\#(to),"#
            + #""departure_time":"2026-12-19T\#(time):00","arrival_time":"2026-12-19T23:00:00","#
            + #""departure_timezone":"America/New_York","arrival_timezone":"America/Montreal","duration":60,"#
            + #""prices":{"total":5200,"currency":"USD"},"available_seats":10,"class":"Economy"}"#
    }

    static func body(complete: Bool, departures: [String], operators: String = "[]", locations: String = "[]", extra: String = "") -> String {
        #"{"complete":\#(complete),"departures":[\#(departures.joined(separator: ","))],"operators":\#(operators),"locations":\#(locations)\#(extra)}"#
    }

    static let first = body(complete: false, departures: [departure("a", "09:00"), departure("b", "08:00")],
                            operators: #"[{"id":"op1","display_name":"Greyhound"}]"#,
                            locations: #"[{"id":1,"city_id":"c1","name":"Port Authority"},{"id":2,"city_id":"c2","name":"Gare"}]"#,
                            extra: #","is_valid_route":true,"cities":[{"id":"c1","name":"New York"},{"id":"c2","name":"Montréal"}]"#)

    /// `maxWait` is generous: these tests are about what the loop asks and merges, and a busy
    /// machine (the suite runs tests in parallel) can take seconds over a loopback round trip.
    /// `maxWait`: far past what the polls take, where a test is not about the deadline (60 s was
    /// passed by a debug build's suite beside two busy processes, and the last poll left out).
    func search(_ server: LoopbackServer, maxWait: Double = 600, interval: Double? = 0.05) -> BusbudSearch {
        let client = BusbudClient(http: makeClient(), baseURL: server.baseURL, token: "TOKEN-1")
        return BusbudSearch(client: client, maxWait: maxWait, pollInterval: interval)
    }

    @Test func completeOnTheFirstAnswerMeansNoPoll() async throws {
        let server = try LoopbackServer { _ in .ok(Self.body(complete: true, departures: [Self.departure("a", "09:00")]), type: "application/json") }
        defer { server.stop() }
        let result = try await search(server).run(query)
        #expect(result.complete && result.polls == 0 && result.departures.count == 1)
        #expect(server.requests.count == 1)
        let request = try #require(server.requests.first)
        #expect(request.path == "/x-departures/dr5reg/f25dvk/2026-12-19")
        #expect(request.headers["accept"] == Busbud.accept)
        #expect(request.headers["x-busbud-token"] == "TOKEN-1")
    }

    @Test func twoPollsRepeatEverythingWithTheRightIndex() async throws {
        let server = try LoopbackServer { request in
            switch request.value("index") {
            case nil: return .ok(Self.first, type: "application/json")
            // An operator and a location first seen in a poll; "a" comes again.
            case "2": return .ok(Self.body(complete: false, departures: [Self.departure("c", "07:00", operatorID: "op2", from: 3), Self.departure("a", "09:00")],
                                            operators: #"[{"id":"op2","display_name":"Adirondack Trailways"}]"#,
                                            locations: #"[{"id":3,"city_id":"c1","name":"GW Bridge"}]"#), type: "application/json")
            case "3": return .ok(Self.body(complete: true, departures: [Self.departure("d", "10:00")]), type: "application/json")
            default: return .status(400, #"{"error":{"type":"bad_index","details":"unexpected index"}}"#)
            }
        }
        defer { server.stop() }
        let result = try await search(server).run(query)
        #expect(result.complete && result.polls == 2)
        #expect(result.departures.map(\.id) == ["c", "b", "a", "d"])  // sorted by departure, "a" once
        #expect(server.requests.map { $0.value("index") } == [nil, "2", "3"])
        #expect(server.requests.dropFirst().allSatisfy { $0.path == "/x-departures/dr5reg/f25dvk/2026-12-19/poll" })
        for request in server.requests {
            #expect(request.value("adult") == "1" && request.value("child") == "0" && request.value("senior") == "0")
            #expect(request.value("lang") == "en" && request.value("currency") == "USD")
            #expect(request.headers["accept"] == Busbud.accept && request.headers["x-busbud-token"] == "TOKEN-1")
        }
        let record = try #require(BusbudCommands.output(result, notices: []).records.first)
        #expect(record["operator"] == .string("Adirondack Trailways"))
        #expect(record["origin"] == .object(Record([("id", .int(3)), ("name", .string("GW Bridge")), ("city", .string("New York"))])))
    }

    @Test func theServersIntervalIsUsed() async throws {
        let server = try LoopbackServer { request in
            request.value("index") == nil
                ? .ok(Self.body(complete: false, departures: [], extra: #","metadata":{"interval":50}"#), type: "application/json")
                : .ok(Self.body(complete: true, departures: []), type: "application/json")
        }
        defer { server.stop() }
        let result = try await search(server, interval: nil).run(query)
        #expect(result.complete && result.polls == 1)
        #expect(result.pauses == [0.05])  // metadata.interval, not the 2 s default
        let overridden = try await search(server, interval: 0.02).run(query)
        #expect(overridden.pauses == [0.02])
    }

    @Test func theDeadlineEndsAnEndlessSearch() async throws {
        let server = try LoopbackServer { _ in .ok(Self.body(complete: false, departures: [Self.departure("a", "09:00")]), type: "application/json") }
        defer { server.stop() }
        let result = try await search(server, maxWait: 0.5, interval: 0.1).run(query)
        #expect(!result.complete && result.departures.count == 1)
        // At most one poll per interval inside the deadline (how many fit depends on the
        // machine's load), and no poll once the next wait would pass it.
        #expect(result.polls <= 5 && server.requests.count == result.polls + 1)
        #expect(result.pauses.allSatisfy { $0 == 0.1 } && result.pauses.count == result.polls)
        // The waits the loop chose fit inside the deadline. (Wall-clock time is not checked: on a
        // loaded 2-core machine a poll's round trip can take a second, which says nothing of the loop.)
        #expect(result.pauses.reduce(0, +) <= 0.5 + 1e-9)
    }

    @Test func invalidRouteStopsAtOnce() async throws {
        let server = try LoopbackServer { _ in .ok(#"{"complete":false,"is_valid_route":false,"departures":[]}"#, type: "application/json") }
        defer { server.stop() }
        let result = try await search(server).run(query)
        #expect(!result.validRoute && result.polls == 0)
    }
}

@Suite struct BusbudEndToEndTests {
    func env(_ server: LoopbackServer?, _ extra: [String: String] = [:]) -> [String: String] {
        var vars = ["TRANSIT_BUSBUD_TOKEN": "TOKEN-1"]
        if let server { vars["TRANSIT_BUSBUD_BASE_URL"] = server.baseURL }
        return Run.environment(vars, extra)
    }

    @Test func searchInTSVAndJSON() async throws {
        let server = try LoopbackServer { request in
            request.value("index") == nil ? .ok(BusbudPollTests.first, type: "application/json")
                : .ok(BusbudPollTests.body(complete: true, departures: []), type: "application/json")
        }
        defer { server.stop() }
        let args = ["busbud", "search", "--date", "2026-12-19", "--currency", "USD", "--poll-interval", "0.05"]
        let tsv = try await Run.transit(args, env: env(server))
        #expect(tsv.status == 0, "\(tsv.stderr)")
        #expect(tsv.stderr == "")
        #expect(tsv.stdoutLines == [
            "b\t2026-12-19T08:00:00-05:00\t2026-12-19T23:00:00-05:00\t60\tPort Authority\tNew York\tGare\tMontréal\tGreyhound\tEconomy\t10\t5200\tUSD",
            "a\t2026-12-19T09:00:00-05:00\t2026-12-19T23:00:00-05:00\t60\tPort Authority\tNew York\tGare\tMontréal\tGreyhound\tEconomy\t10\t5200\tUSD",
        ])
        let json = try await Run.transit(["--format", "json"] + args, env: env(server))
        let list = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(list.count == 2)
        let price = try #require(list[0]["price"] as? [String: Any])
        #expect(price["total"] as? Int == 5200 && price["currency"] as? String == "USD")
        let origin = try #require(list[0]["origin"] as? [String: Any])
        #expect(origin["id"] as? Int == 1 && origin["name"] as? String == "Port Authority" && origin["city"] as? String == "New York")
        #expect(json.stdout.contains("\"departure\": \"2026-12-19T08:00:00-05:00\""))
        let table = try await Run.transit(["--format", "table"] + args, env: env(server))
        #expect(table.stdoutLines.last?.hasSuffix("$52.00") == true)
    }

    @Test func errors() async throws {
        let unauthorized = try LoopbackServer { _ in .status(401, #"{"error":{"type":"unauthorized","details":"bad token"}}"#) }
        defer { unauthorized.stop() }
        let a = try await Run.transit(["busbud", "search", "--date", "2026-12-19"], env: env(unauthorized))
        #expect(a.status == 1)
        #expect(a.stderr == "transit: Busbud: the token is missing or wrong (HTTP 401): bad token\n")
        #expect(!a.stderr.contains("TOKEN-1"))

        let rejected = try LoopbackServer { _ in .status(400, #"{"error":{"type":"invalid_date","details":"Outbound date is in the past"}}"#) }
        defer { rejected.stop() }
        let b = try await Run.transit(["busbud", "search", "--date", "2026-12-19"], env: env(rejected))
        #expect(b.status == 1 && b.stderr == "transit: Busbud: Outbound date is in the past\n")
        #expect(rejected.requests.count == 1)

        let invalid = try LoopbackServer { _ in .ok(#"{"complete":false,"is_valid_route":false,"departures":[]}"#, type: "application/json") }
        defer { invalid.stop() }
        let c = try await Run.transit(["busbud", "search", "--from", "Boston", "--to", "London", "--date", "2026-12-19"], env: env(invalid))
        #expect(c.status == 0 && c.stdout == "")
        #expect(c.stderr == "Busbud does not serve drt2yz → gcpvj0\n")

        let noToken = try await Run.transit(["busbud", "search", "--date", "2026-12-19"], env: Run.environment())
        #expect(noToken.status == 1 && noToken.stderrLines.first == "transit: Busbud needs an API key: set TRANSIT_BUSBUD_TOKEN")

        let past = try await Run.transit(["busbud", "search", "--date", "2026-11-21"], env: env(nil))
        #expect(past.status == 2 && past.stderrLines.first == "transit: --date 2026-11-21 is in the past")
        let place = try await Run.transit(["busbud", "search", "--from", "Springfield", "--date", "2026-12-19"], env: env(nil))
        #expect(place.status == 2 && place.stderr.hasPrefix("transit: unknown place 'Springfield': give a geohash or one of New York, Montréal"))
    }

    @Test func theDeadlinePrintsWhatArrived() async throws {
        let server = try LoopbackServer { _ in .ok(BusbudPollTests.first, type: "application/json") }
        defer { server.stop() }
        let run = try await Run.transit(["busbud", "search", "--date", "2026-12-19", "--max-wait", "0.4", "--poll-interval", "0.1"], env: env(server))
        #expect(run.status == 0)
        #expect(run.stdoutLines.count == 2)
        #expect(run.stderr == "Busbud's search was incomplete after 0.4 s: 2 departures so far\n")
    }

    @Test func offlineFromTheBundledFixtures() async throws {
        let run = try await Run.transit(["--offline", "busbud", "search", "--date", "2018-03-10"], env: Run.environment())
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdoutLines.count == 5)
        // The table marks an arrival on the day after its departure, as bart and gtfs trips do;
        // JSON and tsv carry the full timestamps.
        let table = try await Run.transit(["--offline", "--format", "table", "busbud", "search", "--date", "2018-03-10"], env: Run.environment())
        let overnight = table.stdoutLines.filter { $0.hasPrefix("15:00") || $0.hasPrefix("18:30") }.map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
        #expect(overnight == ["15:00 09:20+1", "18:30 03:55+1", "18:30 03:55+1"])
        #expect(table.stdoutLines.dropFirst().first?.split(separator: " ").prefix(2).joined(separator: " ") == "00:01 08:20")
        #expect(run.stdoutLines.contains { $0.contains("\t2018-03-11T09:20:00-04:00\t") })
        let quebec = try await Run.transit(["--offline", "--format", "json", "busbud", "search", "--from", "Québec", "--to", "Montréal",
                                      "--date", "2021-08-28", "--currency", "EUR"], env: Run.environment())
        #expect(quebec.status == 0, "\(quebec.stderr)")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(quebec.stdout.utf8)) as? [[String: Any]])
        #expect(list.count == 6)
    }
}
