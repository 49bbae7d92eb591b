import Foundation

/// When a bus reaches a stop, estimated two ways, so they can be compared with BusTime's own
/// predictions: along the bus's pattern (the fix the Magic Bus tracker named for itself), and
/// the tracker's original straight-line method.
public enum ETA {
    public enum Method: String, Sendable { case alongRoute = "along-route", straightLine = "straight-line" }

    /// Named defaults: a city bus averages about 12 mph between stops, and stands about 20 s
    /// at each stop it passes.
    public static let defaultSpeedMPH = 12.0
    public static let defaultDwellSeconds = 20.0
    static let feetPerMile = 5280.0

    public struct Model: Sendable, Equatable {
        public var speedMPH: Double
        public var dwellSeconds: Double
        public init(speedMPH: Double = ETA.defaultSpeedMPH, dwellSeconds: Double = ETA.defaultDwellSeconds) {
            self.speedMPH = speedMPH
            self.dwellSeconds = dwellSeconds
        }
        var feetPerSecond: Double { speedMPH * ETA.feetPerMile / 3600 }
    }

    public struct Candidate: Sendable, Equatable {
        public var vehicle: Vehicle
        public var patternID: Int?
        /// Feet still to travel: along the pattern, or in a straight line.
        public var remainingFeet: Double
        /// Stops passed before this one; nil for the straight-line method (it cannot know).
        public var stopsBetween: Int?
        public var minutes: Double
    }

    /// Vehicles whose pattern holds the stop still ahead of them, nearest first.
    public static func alongRoute(stop stopID: String, vehicles: [Vehicle], patterns: [BusPattern], model: Model) -> [Candidate] {
        let byID = Dictionary(patterns.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var result: [Candidate] = []
        for vehicle in vehicles {
            guard let pid = vehicle.patternID, let pattern = byID[pid], let at = vehicle.patternDistance else { continue }
            let stops = pattern.points.filter { $0.isStop && $0.distance != nil }
            // The first visit still ahead (a loop pattern can pass a stop twice).
            guard let target = stops.first(where: { $0.stopID == stopID && ($0.distance ?? 0) > at }),
                  let targetDistance = target.distance else { continue }
            let between = stops.filter { ($0.distance ?? 0) > at && ($0.distance ?? 0) < targetDistance }.count
            let remaining = targetDistance - at
            let seconds = remaining / model.feetPerSecond + model.dwellSeconds * Double(between)
            result.append(Candidate(vehicle: vehicle, patternID: pid, remainingFeet: remaining, stopsBetween: between, minutes: seconds / 60))
        }
        return result.sorted { ($0.remainingFeet, $0.vehicle.id) < ($1.remainingFeet, $1.vehicle.id) }
    }

    /// The seed's method: great-circle distance from each bus (on a route serving the stop) to
    /// the stop at the same speed; no route placement, so no direction check and no stops.
    public static func straightLine(stop: (latitude: Double, longitude: Double), vehicles: [Vehicle], model: Model) -> [Candidate] {
        vehicles.compactMap { vehicle -> Candidate? in
            guard let lat = vehicle.latitude, let lon = vehicle.longitude else { return nil }
            let feet = greatCircleFeet(lat, lon, stop.latitude, stop.longitude)
            return Candidate(vehicle: vehicle, patternID: vehicle.patternID, remainingFeet: feet, stopsBetween: nil,
                             minutes: feet / model.feetPerSecond / 60)
        }.sorted { ($0.remainingFeet, $0.vehicle.id) < ($1.remainingFeet, $1.vehicle.id) }
    }

    /// Haversine distance in feet.
    public static func greatCircleFeet(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = 20_902_231.0  // mean Earth radius in feet
        let p1 = lat1 * .pi / 180, p2 = lat2 * .pi / 180
        let dp = (lat2 - lat1) * .pi / 180, dl = (lon2 - lon1) * .pi / 180
        let a = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * r * atan2(sqrt(a), sqrt(max(0, 1 - a)))
    }

    /// Speed and dwell fitted to BusTime's predictions by least squares on
    /// seconds = feet / speed + dwell × stops; nil with fewer than 3 pairs or a fit outside
    /// 3–40 mph and 0–120 s.
    public static func calibrate(_ pairs: [(feet: Double, stops: Int, seconds: Double)]) -> Model? {
        guard pairs.count >= 3 else { return nil }
        var sxx = 0.0, sxy = 0.0, syy = 0.0, sxt = 0.0, syt = 0.0
        for p in pairs {
            let x = p.feet, y = Double(p.stops), t = p.seconds
            sxx += x * x; sxy += x * y; syy += y * y; sxt += x * t; syt += y * t
        }
        let det = sxx * syy - sxy * sxy
        guard abs(det) > 1e-9 else { return nil }
        let invSpeed = (sxt * syy - syt * sxy) / det
        let dwell = (sxx * syt - sxy * sxt) / det
        guard invSpeed > 0 else { return nil }
        let mph = 1 / invSpeed * 3600 / feetPerMile
        guard (3...40).contains(mph), (0...120).contains(dwell) else { return nil }
        return Model(speedMPH: mph, dwellSeconds: dwell)
    }

    /// Both methods against BusTime's predictions: each prediction is a vehicle–stop pair, its
    /// minutes counted from when BusTime made it. Pairs the along-route method cannot place
    /// (stop not ahead on the vehicle's pattern) are left out of both means.
    public struct Comparison: Sendable {
        public var pairs: Int
        public var alongRouteMAE: Double
        public var straightLineMAE: Double
    }

    public static func compare(vehicles: [Vehicle], patterns: [BusPattern], predictions: [Prediction], model: Model) -> Comparison {
        var along = 0.0, straight = 0.0, n = 0
        let stopPoints = patterns.flatMap(\.points).filter(\.isStop)
        for p in predictions {
            guard let vehicle = vehicles.first(where: { $0.id == p.vehicle }), let made = p.generated,
                  let point = stopPoints.first(where: { $0.stopID == p.stopID }),
                  let a = alongRoute(stop: p.stopID, vehicles: [vehicle], patterns: patterns, model: model).first,
                  let s = straightLine(stop: (point.latitude, point.longitude), vehicles: [vehicle], model: model).first else { continue }
            let official = p.predicted.timeIntervalSince(made) / 60
            along += abs(a.minutes - official)
            straight += abs(s.minutes - official)
            n += 1
        }
        return Comparison(pairs: n, alongRouteMAE: n == 0 ? 0 : along / Double(n), straightLineMAE: n == 0 ? 0 : straight / Double(n))
    }
}
