import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport
import TransitTestSupport

/// The along-route estimate on a hand-made pattern whose distances are checked by hand:
/// stops A (0 ft), B (1000), C (2500), D (5280) northbound; the southbound pattern has its own
/// stop ids at the same corners.
@Suite struct ETATests {
    static func point(_ seq: Int, _ id: String?, _ feet: Double?) -> BusPattern.Point {
        BusPattern.Point(sequence: seq, latitude: 42.0 + Double(seq) * 0.001, longitude: -83.7, isStop: id != nil,
                         stopID: id, stopName: id, distance: feet)
    }
    let north = BusPattern(id: 1, length: 5280, direction: "NORTHBOUND", points: [
        point(1, "A", 0), point(2, nil, nil), point(3, "B", 1000), point(4, "C", 2500), point(5, nil, 0), point(6, "D", 5280)])
    let south = BusPattern(id: 2, length: 5280, direction: "SOUTHBOUND", points: [
        point(1, "D2", 0), point(2, "C2", 2780), point(3, "B2", 4280), point(4, "A2", 5280)])
    /// Another pattern (a branch) that also serves C.
    let branch = BusPattern(id: 3, length: 3000, direction: "NORTHBOUND", points: [point(1, "X", 0), point(2, "C", 3000)])
    let model = ETA.Model(speedMPH: 15, dwellSeconds: 30)  // 22 ft/s

    static func bus(_ id: String, pattern: Int?, at feet: Double?) -> Vehicle {
        Vehicle(id: id, route: "R", latitude: 42.0, longitude: -83.7, heading: 0, patternID: pattern, patternDistance: feet,
                destination: "", delayed: false, timestamp: nil)
    }

    @Test func aBusBehindTheStopWithDistanceAndStopsByHand() throws {
        let c = try #require(ETA.alongRoute(stop: "C", vehicles: [Self.bus("1", pattern: 1, at: 400)], patterns: [north], model: model).first)
        #expect(c.remainingFeet == 2100)      // 2500 − 400
        #expect(c.stopsBetween == 1)          // B only (the waypoint with pdist 0 is not a stop)
        #expect(abs(c.minutes - (2100.0 / 22 + 30) / 60) < 1e-9)
    }

    @Test func aBusPastTheStopOrOnTheOtherDirectionIsNoCandidate() {
        let vehicles = [Self.bus("past", pattern: 1, at: 2600), Self.bus("south", pattern: 2, at: 100), Self.bus("at", pattern: 1, at: 2500)]
        #expect(ETA.alongRoute(stop: "C", vehicles: vehicles, patterns: [north, south], model: model).isEmpty)
    }

    @Test func straightLineTakesEveryBusOfTheRoutesWhateverItsDirection() throws {
        // The seed's method: the southbound bus and the one already past C are candidates too,
        // where along-route drops both; nearest first.
        let vehicles = [Self.bus("past", pattern: 1, at: 2600), Self.bus("south", pattern: 2, at: 100), Self.bus("behind", pattern: 1, at: 400)]
        let result = try ETA.estimates(stop: "C", method: .straightLine, model: model, calibrate: false, vehicles: vehicles,
                                       patterns: [north, south], predictions: [], now: Date(timeIntervalSince1970: 0))
        #expect(Set(result.estimates.map(\.candidate.vehicle.id)) == ["past", "south", "behind"])
        let along = try ETA.estimates(stop: "C", method: .alongRoute, model: model, calibrate: false, vehicles: vehicles,
                                      patterns: [north, south], predictions: [], now: Date(timeIntervalSince1970: 0))
        #expect(along.estimates.map(\.candidate.vehicle.id) == ["behind"])
    }

    @Test func aBusWithoutPatternDistanceIsSkipped() {
        let vehicles = [Self.bus("nopdist", pattern: 1, at: nil), Self.bus("nopid", pattern: nil, at: 100), Self.bus("unknown", pattern: 9, at: 100)]
        #expect(ETA.alongRoute(stop: "C", vehicles: vehicles, patterns: [north], model: model).isEmpty)
    }

    @Test func twoPatternsServingOneStopNearestFirst() {
        let vehicles = [Self.bus("main", pattern: 1, at: 0), Self.bus("branch", pattern: 3, at: 2000)]
        let result = ETA.alongRoute(stop: "C", vehicles: vehicles, patterns: [north, branch], model: model)
        #expect(result.map(\.vehicle.id) == ["branch", "main"])
        #expect(result.map(\.remainingFeet) == [1000, 2500])
        #expect(result.map(\.stopsBetween) == [0, 1])
    }

    @Test func aLoopPassingTheStopTwiceUsesTheVisitAhead() throws {
        let loop = BusPattern(id: 4, length: 4000, direction: "LOOP", points: [Self.point(1, "A", 0), Self.point(2, "B", 1000), Self.point(3, "A", 4000)])
        let c = try #require(ETA.alongRoute(stop: "A", vehicles: [Self.bus("1", pattern: 4, at: 500)], patterns: [loop], model: model).first)
        #expect(c.remainingFeet == 3500 && c.stopsBetween == 1)
    }

    @Test func straightLineIsGreatCircle() {
        // One degree of latitude is about 364,000 ft (69 miles).
        let feet = ETA.greatCircleFeet(42, -83.7, 43, -83.7)
        #expect(abs(feet - 364_800) < 1000)
        let c = ETA.straightLine(stop: (43, -83.7), vehicles: [Self.bus("1", pattern: nil, at: nil)], model: model).first
        #expect(c?.stopsBetween == nil && abs((c?.remainingFeet ?? 0) - feet) < 1e-6)
    }

    @Test func calibrationRecoversAKnownModel() throws {
        let truth = ETA.Model(speedMPH: 10, dwellSeconds: 25)
        let feetPerSecond = 10.0 * 5280 / 3600
        var pairs: [(feet: Double, stops: Int, seconds: Double)] = []
        for (feet, stops) in [(1000.0, 1), (3000.0, 2), (5000.0, 6), (8000.0, 7)] {
            pairs.append((feet: feet, stops: stops, seconds: feet / feetPerSecond + 25 * Double(stops)))
        }
        let fitted = try #require(ETA.calibrate(pairs))
        #expect(abs(fitted.speedMPH - truth.speedMPH) < 1e-6 && abs(fitted.dwellSeconds - truth.dwellSeconds) < 1e-6)
        #expect(ETA.calibrate(Array(pairs.prefix(2))) == nil)
    }

    /// The recorded Magic Bus set in Fixtures: along the route must beat the straight line.
    @Test func alongRouteBeatsStraightLineOnTheRecordedSet() async throws {
        let http = HTTPClient(transport: ReplayTransport(directory: Paths.fixtures))
        let client = BusTimeClient(http: http, agency: .mbus, key: "")
        let vehicles = try await client.vehicles(routes: ["CM"]).items
        let patterns = try await client.patterns(route: "CM").items
        let predictions = try await client.predictions(vehicles: vehicles.map(\.id)).items
        let comparison = ETA.compare(vehicles: vehicles, patterns: patterns, predictions: predictions, model: ETA.Model())
        #expect(comparison.pairs >= 10)
        #expect(comparison.alongRouteMAE < comparison.straightLineMAE)
    }
}
