import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport

/// Route info from the real capture; schedules written by hand in BART's routesched XML shape.
@Suite struct TripFinderTests {
    let day = LocalDate(year: 2026, month: 11, day: 23)

    var routes: [BARTRoute] { get throws { try BARTParser.routes(try Reference.data("bart/samples/derived/routeinfo-all-2018.from-json.xml")) } }

    /// A routesched document: each train is a list of (station, origTime or nil) in config order.
    func schedule(_ route: Int, _ trains: [[(String, String?)]]) throws -> BARTRouteSchedule {
        var xml = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<root><uri><![CDATA[http://api.bart.gov/api/sched.aspx?cmd=routesched&route=\(route)]]></uri><date>11/23/2026</date><route>"
        for (i, train) in trains.enumerated() {
            xml += "<train index=\"\(i + 1)\">"
            for (station, time) in train {
                if let time {
                    xml += "<stop station=\"\(station)\" load=\"1\" level=\"normal\" origTime=\"\(time)\" bikeflag=\"1\" />"
                } else {
                    xml += "<stop station=\"\(station)\" load=\"\" level=\"\" bikeflag=\"1\" />"
                }
            }
            xml += "</train>"
        }
        xml += "</route><message></message></root>"
        return try BARTParser.routeSchedule(Data(xml.utf8), route: route)
    }

    func query(_ from: String, _ to: String, date: LocalDate? = nil, transfers: Int = 0) -> TripFinder.Query {
        TripFinder.Query(origin: from, destination: to, window: TripFinder.Window(date: date ?? day, transfers: transfers, minTransfer: 3))
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func keepsRoutesWithOriginBeforeDestination() throws {
        let direct = TripFinder.directRoutes(try routes, from: "24TH", to: "MLBR").map(\.number)
        #expect(direct == [1, 7])
        #expect(TripFinder.directRoutes(try routes, from: "MLBR", to: "24TH").map(\.number) == [2, 8])
        #expect(TripFinder.neededRoutes(try routes, query: query("24TH", "MLBR")) == [1, 7])
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func trainsWithoutATimeAtEitherEndGiveNoTrip() throws {
        let s7 = try schedule(7, [
            [("24TH", "6:04 PM"), ("GLEN", "6:07 PM"), ("MLBR", "6:30 PM")],
            [("24TH", nil), ("GLEN", "6:20 PM"), ("MLBR", "6:43 PM")],       // starts later
            [("24TH", "6:34 PM"), ("GLEN", "6:37 PM"), ("MLBR", nil)],       // turns short
        ])
        let trips = TripFinder.trips(query: query("24TH", "MLBR"), routes: try routes, schedules: [7: s7])
        #expect(trips.count == 1)
        let trip = try #require(trips.first)
        #expect(trip.departure == pacific(day, 18, 4) && trip.arrival == pacific(day, 18, 30))
        #expect(trip.durationMinutes == 26 && trip.transfers == 0)
        #expect(trip.legs == [BARTLeg(route: 7, line: "Red", origin: "24TH", destination: "MLBR",
                                  departure: pacific(day, 18, 4), arrival: pacific(day, 18, 30), headStation: "MLBR")])
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func paddedAndUnpaddedHoursAndStraySpaces() throws {
        let s7 = try schedule(7, [[("24TH", "06:04 PM"), ("MLBR", " 6:30 PM ")], [("24TH", "6:14 PM"), ("MLBR", "06:40 PM")]])
        let trips = TripFinder.trips(query: query("24TH", "MLBR"), routes: try routes, schedules: [7: s7])
        #expect(trips.map(\.departure) == [pacific(day, 18, 4), pacific(day, 18, 14)])
        #expect(trips.map(\.arrival) == [pacific(day, 18, 30), pacific(day, 18, 40)])
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func tripsPastMidnightBelongToTheNextDay() throws {
        let s7 = try schedule(7, [
            [("24TH", "11:58 PM"), ("MLBR", "12:27 AM")],   // departs before, arrives after midnight
            [("24TH", "12:31 AM"), ("MLBR", "1:00 AM")],    // listed last: after midnight
        ])
        let trips = TripFinder.trips(query: query("24TH", "MLBR"), routes: try routes, schedules: [7: s7])
        #expect(trips.count == 2)
        #expect(ClockTime.iso8601(trips[0].departure, zone: BART.zone) == "2026-11-23T23:58:00-08:00")
        #expect(ClockTime.iso8601(trips[0].arrival, zone: BART.zone) == "2026-11-24T00:27:00-08:00")
        #expect(trips[0].durationMinutes == 29)
        #expect(ClockTime.iso8601(trips[1].departure, zone: BART.zone) == "2026-11-24T00:31:00-08:00")
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func summerDatesCarryDaylightOffset() throws {
        let july = LocalDate(year: 2026, month: 7, day: 1)
        let s7 = try schedule(7, [[("24TH", "6:04 PM"), ("MLBR", "6:30 PM")]])
        let trip = try #require(TripFinder.trips(query: query("24TH", "MLBR", date: july), routes: try routes, schedules: [7: s7]).first)
        #expect(ClockTime.iso8601(trip.departure, zone: BART.zone) == "2026-07-01T18:04:00-07:00")
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func sortedAcrossRoutesAndSameMinuteTrainsAreTwoTrips() throws {
        let s1 = try schedule(1, [[("24TH", "6:10 PM"), ("MLBR", "6:40 PM")], [("24TH", "6:04 PM"), ("MLBR", "6:33 PM")]])
        let s7 = try schedule(7, [[("24TH", "6:04 PM"), ("MLBR", "6:30 PM")], [("24TH", "6:20 PM"), ("MLBR", "6:46 PM")]])
        let trips = TripFinder.trips(query: query("24TH", "MLBR"), routes: try routes, schedules: [1: s1, 7: s7])
        #expect(trips.map { ClockTime.hhmm($0.departure, zone: BART.zone) + "-" + ClockTime.hhmm($0.arrival, zone: BART.zone) + "/" + String($0.legs[0].route) }
                == ["18:04-18:30/7", "18:04-18:33/1", "18:10-18:40/1", "18:20-18:46/7"])
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func afterBeforeAndLimit() throws {
        let s7 = try schedule(7, (0..<8).map { i in [("24TH", "\(5 + i):00 PM"), ("MLBR", "\(5 + i):30 PM")] })
        var q = query("24TH", "MLBR")
        q.after = 17 * 60 + 30
        q.before = 21 * 60
        #expect(TripFinder.trips(query: q, routes: try routes, schedules: [7: s7]).map { ClockTime.hhmm($0.departure, zone: BART.zone) }
                == ["18:00", "19:00", "20:00", "21:00"])
        q.limit = 2
        #expect(TripFinder.trips(query: q, routes: try routes, schedules: [7: s7]).count == 2)
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func reverseDirectionIsNotATrip() throws {
        // Route 8 runs MLBR → 24TH; asking 24TH → MLBR must not use it.
        let s8 = try schedule(8, [[("MLBR", "6:00 PM"), ("24TH", "6:30 PM")]])
        #expect(TripFinder.trips(query: query("24TH", "MLBR"), routes: try routes, schedules: [8: s8]).isEmpty)
    }

    /// A hand-made network where 24TH → FRMT has no direct route: Red to 12TH, Orange on.
    var network: [BARTRoute] {
        [BARTRoute(number: 7, routeID: "ROUTE 7", name: "", abbr: "", color: "RED", hexColor: nil, origin: "MLBR", destination: "RICH",
               direction: nil, stations: ["MLBR", "24TH", "16TH", "WOAK", "12TH", "19TH", "RICH"]),
         BARTRoute(number: 4, routeID: "ROUTE 4", name: "", abbr: "", color: "ORANGE", hexColor: nil, origin: "RICH", destination: "FRMT",
               direction: nil, stations: ["RICH", "19TH", "12TH", "LAKE", "BAYF", "FRMT"]),
         BARTRoute(number: 3, routeID: "ROUTE 3", name: "", abbr: "", color: "ORANGE", hexColor: nil, origin: "FRMT", destination: "RICH",
               direction: nil, stations: ["FRMT", "BAYF", "LAKE", "12TH", "19TH", "RICH"])]
    }

    @Test func oneTransferWhereNoDirectRouteExists() throws {
        let red = try schedule(7, [
            [("MLBR", "5:40 PM"), ("24TH", "6:00 PM"), ("16TH", "6:02 PM"), ("WOAK", "6:10 PM"), ("12TH", "6:14 PM"), ("19TH", "6:16 PM"), ("RICH", "6:40 PM")],
            [("MLBR", "5:50 PM"), ("24TH", "6:10 PM"), ("16TH", "6:12 PM"), ("WOAK", "6:20 PM"), ("12TH", "6:24 PM"), ("19TH", "6:26 PM"), ("RICH", "6:50 PM")],
        ])
        let orange = try schedule(4, [
            [("RICH", "5:50 PM"), ("19TH", "6:13 PM"), ("12TH", "6:15 PM"), ("LAKE", "6:18 PM"), ("BAYF", "6:35 PM"), ("FRMT", "6:55 PM")],  // too tight at 12TH
            [("RICH", "5:55 PM"), ("19TH", "6:18 PM"), ("12TH", "6:20 PM"), ("LAKE", "6:23 PM"), ("BAYF", "6:40 PM"), ("FRMT", "7:00 PM")],
            [("RICH", "6:05 PM"), ("19TH", "6:28 PM"), ("12TH", "6:30 PM"), ("LAKE", "6:33 PM"), ("BAYF", "6:50 PM"), ("FRMT", "7:10 PM")],
        ])
        var q = query("24TH", "FRMT", transfers: 1)
        #expect(TripFinder.trips(query: query("24TH", "FRMT"), routes: network, schedules: [7: red, 4: orange]).isEmpty)
        #expect(TripFinder.neededRoutes(network, query: q) == [4, 7])
        let trips = TripFinder.trips(query: q, routes: network, schedules: [7: red, 4: orange])
        #expect(trips.count == 2)
        let first = try #require(trips.first)
        #expect(first.transfers == 1 && first.legs.count == 2)
        // 6:00 → 12TH 6:14; the 6:15 is too tight for 3 minutes, the 6:20 works. Via 19TH
        // (6:16 → 6:18) is as good and not listed twice.
        #expect(first.legs[0].origin == "24TH" && first.legs[0].route == 7)
        #expect(first.legs[1].route == 4 && first.legs[1].destination == "FRMT" && first.legs[1].headStation == "FRMT")
        #expect(first.departure == pacific(day, 18, 0) && first.arrival == pacific(day, 19, 0))
        #expect(trips[1].departure == pacific(day, 18, 10) && trips[1].arrival == pacific(day, 19, 10))
        q.minTransfer = 0
        let tight = TripFinder.trips(query: q, routes: network, schedules: [7: red, 4: orange])
        #expect(tight.first?.arrival == pacific(day, 18, 55))
    }

    @Test func dominatedTripsAreDropped() throws {
        // Leaving 6:00 and arriving 7:10 is dominated by leaving 6:10 and arriving 7:00.
        let red = try schedule(7, [
            [("MLBR", nil), ("24TH", "6:00 PM"), ("16TH", nil), ("WOAK", nil), ("12TH", "6:50 PM"), ("19TH", nil), ("RICH", nil)],
            [("MLBR", nil), ("24TH", "6:10 PM"), ("16TH", nil), ("WOAK", nil), ("12TH", "6:24 PM"), ("19TH", nil), ("RICH", nil)],
        ])
        let orange = try schedule(4, [
            [("RICH", nil), ("19TH", nil), ("12TH", "6:30 PM"), ("LAKE", nil), ("BAYF", nil), ("FRMT", "7:00 PM")],
            [("RICH", nil), ("19TH", nil), ("12TH", "6:55 PM"), ("LAKE", nil), ("BAYF", nil), ("FRMT", "7:10 PM")],
        ])
        let trips = TripFinder.trips(query: query("24TH", "FRMT", transfers: 1), routes: network, schedules: [7: red, 4: orange])
        #expect(trips.map(\.departure) == [pacific(day, 18, 10)])
    }

    @Test func directTripWinsATieWithATransfer() throws {
        let a = [TripFinder.Ride(route: 7, from: "A", to: "B", train: 1, depart: 600, arrive: 660, head: "B")]
        let b = [TripFinder.Ride(route: 7, from: "A", to: "X", train: 2, depart: 600, arrive: 620, head: "X"),
                 TripFinder.Ride(route: 4, from: "X", to: "B", train: 3, depart: 630, arrive: 660, head: "B")]
        let c = [TripFinder.Ride(route: 1, from: "A", to: "B", train: 4, depart: 600, arrive: 660, head: "B")]
        let kept = TripFinder.dropDominated([a, b, c])
        #expect(kept.count == 2 && kept.allSatisfy { $0.count == 1 })
    }

    @Test func aTrainCallingTwiceArrivesAtItsFirstCallAndLeavesFromItsLast() {
        // The 2022 Red line: SBRN → MLBR (arrives 6:07) → MLBR (leaves 6:09, reversing) → SFIA.
        let stops = [("24TH", 5 * 60 + 40), ("SBRN", 6 * 60), ("MLBR", 6 * 60 + 7), ("MLBR", 6 * 60 + 9), ("SFIA", 6 * 60 + 15)]
        let train = BARTScheduledTrain(index: 1, stops: stops.map { BARTScheduledTrain.Stop(station: $0.0, minutes: $0.1) })
        let toMillbrae = TripFinder.ride(train, route: 1, from: "24TH", to: "MLBR")
        #expect(toMillbrae?.depart == 340 && toMillbrae?.arrive == 367)
        let fromMillbrae = TripFinder.ride(train, route: 1, from: "MLBR", to: "SFIA")
        #expect(fromMillbrae?.depart == 369 && fromMillbrae?.arrive == 375)
        // Without a time at the station there is no ride.
        let skipping = BARTScheduledTrain(index: 2, stops: [.init(station: "24TH", minutes: nil), .init(station: "MLBR", minutes: 400)])
        #expect(TripFinder.ride(skipping, route: 1, from: "24TH", to: "MLBR") == nil)
    }
}
