import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport

/// Real captures in, records out; the expectations are written by hand from the files.
@Suite struct BARTParserTests {
    func sample(_ name: String) throws -> Data { try Reference.data("bart/samples/" + name) }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func stationsFromTheRealList() throws {
        let stations = try BARTParser.stations(try sample("derived/stns-2021.from-json.xml"))
        #expect(stations.count == 50)
        let first = try #require(stations.first)
        #expect(first == BARTStation(abbr: "12TH", name: "12th St. Oakland City Center", city: "Oakland",
                                 latitude: 37.803768, longitude: -122.271450))
        #expect(stations.contains { $0.abbr == "24TH" && $0.name == "24th St. Mission" })
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func routeInfoKeepsConfigOrderAndColourNames() throws {
        let routes = try BARTParser.routes(try sample("derived/routeinfo-all-2018.from-json.xml"))
        #expect(routes.map(\.number) == [1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 19, 20])
        let yellow = try #require(routes.first)
        #expect(yellow.color == "YELLOW" && yellow.lineName == "Yellow" && yellow.hexColor == "#ffff33")
        #expect(yellow.origin == "PITT" && yellow.destination == "SFIA")
        #expect(yellow.stations.first == "PITT" && yellow.stations.last == "MLBR" && yellow.stations.count == 26)
        #expect(routes.first { $0.number == 20 }?.stations == ["COLS", "OAKL"])
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func olderRouteInfoWithHexInColour() throws {
        let routes = try BARTParser.routes(try sample("routeinfo-route4-2015.xml"))
        let route = try #require(routes.first)
        #expect(route.number == 4 && route.origin == "RICH" && route.destination == "FRMT")
        #expect(route.color == "ORANGE")  // 2015 sends "#ff9933" in <color>
        #expect(route.hexColor == "#ff9933")
        for name in ["routeinfo-route7-2016.xml", "routeinfo-route11-2016.xml", "routeinfo-route12-2016.xml"] {
            #expect(try BARTParser.routes(try sample(name)).count == 1)
        }
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func realRouteScheduleOfRoute6() throws {
        let schedule = try BARTParser.routeSchedule(try sample("derived/routesched-route6-2018.from-json.xml"), route: 6)
        #expect(schedule.trains.count == 62)
        let first = try #require(schedule.trains.first)
        #expect(first.index == 1 && first.stops.count == 20)
        // Trains 1–6 start at Union City: the stations before have no time.
        #expect(first.stops.prefix(17).allSatisfy { $0.minutes == nil })
        #expect(first.stops[17] == .init(station: "UCTY", minutes: 4 * 60 + 41))
        #expect(first.headStation == "WARM")
        let last = try #require(schedule.trains.last)
        #expect(last.stops.last == .init(station: "WARM", minutes: 20 * 60 + 5))
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func errorsComeWithHTTP200() throws {
        #expect(throws: TransitError.api(provider: "BART", message: "Invalid key", details: "The api key was missing or invalid.")) {
            try BARTParser.stations(try sample("error-invalid-key.xml"))
        }
        #expect(throws: TransitError.api(provider: "BART", message: "Invalid route",
                                         details: "The route parameter is invalid. Valid routes are 1-8, 11-12 and 19-20.")) {
            try BARTParser.routeSchedule(try sample("error-invalid-route.xml"), route: 99)
        }
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func departuresWithLeavingAndDelay() throws {
        let plat2 = try BARTParser.departures(try sample("etd-rich-plat2-2017.xml"))
        #expect(plat2.count == 6)
        #expect(plat2.first == BARTDeparture(station: "RICH", destination: "Fremont", destinationCode: "FRMT", minutes: 0,
                                         platform: 2, direction: "South", cars: 4, line: "ORANGE", hexColor: "#ff9933",
                                         delaySeconds: 0, cancelled: false, bikes: true))
        let powl = try BARTParser.departures(try sample("derived/etd-powl-2018.from-json.xml"))
        #expect(powl.contains { $0.delaySeconds > 0 })
        // Re-indented, no XML declaration, leading newline: still read.
        #expect(try BARTParser.departures(try sample("etd-powl-2014.xml")).isEmpty == false)
        for name in ["etd-rich-2015.xml", "etd-wdub-2016.xml", "etd-rich-dir-s-2017.xml"] {
            #expect(try BARTParser.departures(try sample(name)).isEmpty == false)
        }
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func advisoriesInLatin1AndTheQuietForm() throws {
        let delay = try BARTParser.advisories(try sample("bsa-delay-2013.xml"))
        #expect(delay.count == 1)
        #expect(delay.first?.id == "112978" && delay.first?.type == "DELAY" && delay.first?.station == "BART")
        #expect(delay.first?.description.hasPrefix("BART is running round-the-clock service") == true)
        let quiet = try BARTParser.advisories(try sample("bsa-no-delay-2015.xml"))
        #expect(quiet == [BARTAdvisory(id: nil, station: nil, type: nil, description: "No delays reported.", posted: nil, expires: nil)])
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func tripPlannerWithFaresAndTransfers() throws {
        let trips = try BARTParser.plannedTrips(try sample("derived/depart-ashb-civc-docs-2018.from-json.xml"))
        #expect(trips.count == 4)
        let first = try #require(trips.first)
        #expect(first.origin == "ASHB" && first.destination == "CIVC")
        #expect(first.departure == pacific(LocalDate(year: 2018, month: 1, day: 2), 9, 57))  // "01/02/2018 " trimmed
        #expect(first.fares.map(\.fareClass) == ["clipper", "cash", "rtcclipper", "student"])
        #expect(first.legs.first?.trainHeadStation == "Millbrae")
        #expect(trips.contains { $0.legs.count == 2 })
        let old = try BARTParser.plannedTrips(try sample("depart-rock-wdub-docs-2013.xml"))
        #expect(old.count == 4 && old.allSatisfy { $0.legs.count >= 2 })
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func malformedAndTruncatedXMLAreParseErrors() throws {
        let full = try sample("derived/routesched-route6-2018.from-json.xml")
        #expect(errorKind { try BARTParser.routeSchedule(full.prefix(full.count / 2), route: 6) } == "parse")
        // XMLParser.parse() returns true on these on Linux; parserError says otherwise.
        for text in ["<root><a></root>", "<root>", "<r a=1/>", "", "   ", "not xml", "{\"json\": true}"] {
            #expect(errorKind { try BARTParser.stations(Data(text.utf8)) } == "parse", "\(text)")
            #expect(errorKind { try BARTParser.routeSchedule(Data(text.utf8), route: 1) } == "parse", "\(text)")
        }
        #expect(throws: TransitError.parse(what: "BART's station list", reason: "no <stations> element")) {
            try BARTParser.stations(Data("<?xml version=\"1.0\"?><root><message/></root>".utf8))
        }
    }

    @Test func schedulesOverTenMegabytesParse() async throws {
        // XMLParser(data:) fails above 10 MB on Linux; the stream form does not.
        let train = "<train index=\"1\">" + String(repeating: "<stop station=\"DALY\" load=\"1\" level=\"normal\" origTime=\"4:41 AM\" bikeflag=\"1\" />", count: 100) + "</train>"
        let count = 10_500_000 / train.utf8.count + 1
        let body = "<?xml version=\"1.0\" encoding=\"utf-8\"?><root><route>" + String(repeating: train, count: count) + "</route><message/></root>"
        #expect(body.utf8.count > 10_000_000)
        let trains = try await offPool { try BARTParser.routeSchedule(Data(body.utf8), route: 1).trains.count }
        #expect(trains == count)
    }

    @Test func serviceDayMinutesRollPastMidnight() {
        // 11:58 PM then 12:27 AM: the second is the next calendar day.
        #expect(BARTParser.serviceDayMinutes([23 * 60 + 58, 27, 40]) == [1438, 1467, 1480])
        // A train whose first time is 12:15 AM runs after midnight.
        #expect(BARTParser.serviceDayMinutes([nil, 15, 30]) == [nil, 1455, 1470])
        #expect(BARTParser.serviceDayMinutes([4 * 60 + 41, nil, 4 * 60 + 46]) == [281, nil, 286])
    }
}

extension CPUBound {
    /// No body makes a parser trap: every sample cut at many points, and noise, either parses or
    /// throws a `TransitError`.
    @Suite struct BARTParserRobustnessTests {
        @Test(.enabled(if: Reference.isPresent, Reference.absent)) func truncatedSamplesAndNoiseNeverTrap() throws {
            let names = try FileManager.default.subpathsOfDirectory(atPath: Reference.path("bart/samples"))
                .filter { $0.hasSuffix(".xml") && !$0.contains("routesched") }.sorted()
            #expect(names.count >= 15)
            var generator = SplitMix(seed: 42)
            var inputs: [Data] = []
            for name in names {
                let data = try Reference.data("bart/samples/" + name)
                for cut in stride(from: 0, to: data.count, by: max(1, data.count / 40)) { inputs.append(data.prefix(cut)) }
                var noisy = data
                for _ in 0..<20 { noisy[Int(generator.next() % UInt64(noisy.count))] = UInt8(generator.next() % 256) }
                inputs.append(noisy)
            }
            inputs += (0..<50).map { _ in Data((0..<200).map { _ in UInt8(generator.next() % 256) }) }
            for input in inputs {
                _ = try? BARTParser.stations(input)
                _ = try? BARTParser.routes(input)
                _ = try? BARTParser.routeSchedule(input, route: 1)
                _ = try? BARTParser.plannedTrips(input)
                _ = try? BARTParser.departures(input)
                _ = try? BARTParser.advisories(input)
            }
            #expect(inputs.count > 600)
        }
    }
}

extension BARTParserTests {
    @Test func absurdHoursAndYearsAreRefusedNotTrapped() {
        #expect(BARTParser.clock("99999999999999999999:00 AM") == nil)
        #expect(BARTParser.clock("123:00 PM") == nil)
        #expect(BARTParser.clock("4:41 AM") == 281)
        #expect(BARTParser.usDate("01/02/99999999999999999") == nil)
        #expect(BARTParser.usDate("01/02/2201") == nil)
        #expect(BARTParser.usDate("01/02/2018") == LocalDate(year: 2018, month: 1, day: 2))
    }
}
