import Foundation
import TransitSupport

/// When a bus reaches a stop, estimated two ways, so they can be compared with BusTime's own
/// predictions: along the bus's pattern (the fix the Magic Bus tracker named for itself), and
/// the tracker's original straight-line method.
public enum ETA {
    public enum Method: String, Sendable, CaseIterable { case alongRoute = "along-route", straightLine = "straight-line" }

    /// Named defaults: a city bus averages about 12 mph between stops, and stands about 20 s
    /// at each stop it passes.
    public static let defaultSpeedMPH = 12.0
    public static let defaultDwellSeconds = 20.0
    static let feetPerMile = 5280.0
    static let mphPerKmh = Coordinate.metersPerMile > 0 ? 1000 / Coordinate.metersPerMile : 0.621371

    /// `12`, `12mph`, `20kmh`, `20km/h` → miles per hour, a bus's speed (1 to 80 mph).
    public static func speedMPH(_ text: String) throws(TransitError) -> Double {
        let t = text.lowercased().replacingOccurrences(of: " ", with: "")
        var number = t, factor = 1.0
        for (suffix, f) in [("mph", 1.0), ("km/h", mphPerKmh), ("kmh", mphPerKmh), ("kph", mphPerKmh)] where t.hasSuffix(suffix) {
            number = String(t.dropLast(suffix.count))
            factor = f
            break
        }
        guard let value = Double(number), value.isFinite, value > 0 else {
            throw .usage("--speed takes a speed like 12, 12mph or 20kmh, not '\(text)'")
        }
        let mph = value * factor
        guard (1...80).contains(mph) else { throw .usage("--speed \(text) is not a bus's speed (1 to 80 mph)") }
        return mph
    }

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
        Coordinate(latitude: lat1, longitude: lon1).meters(to: Coordinate(latitude: lat2, longitude: lon2)) / Coordinate.metersPerFoot
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

    /// One bus's estimate beside BusTime's own prediction for it at the stop.
    public struct Estimate: Sendable {
        public var candidate: Candidate
        public var prediction: Prediction?
        /// BusTime's minutes to the stop, counted from `now`; nil where it has none.
        public var busTimeMinutes: Double?
        public var method: Method

        public var distanceMiles: Double { candidate.remainingFeet / ETA.feetPerMile }
        public var distanceKm: Double { candidate.remainingFeet * Coordinate.metersPerFoot / 1000 }
        public var differenceMinutes: Double? { busTimeMinutes.map { candidate.minutes - $0 } }
    }

    /// Every bus that will reach `stop`, by `method`, nearest first, each with BusTime's own
    /// prediction beside it; with `calibrate`, the model fitted to those predictions first.
    /// `notices` says what the calibration did.
    public static func estimates(stop stopID: String, method: Method, model given: Model, calibrate: Bool,
                                 vehicles: [Vehicle], patterns: [BusPattern], predictions: [Prediction],
                                 now: Date) throws(TransitError) -> (estimates: [Estimate], notices: [String]) {
        func official(_ v: Vehicle) -> Prediction? {
            predictions.filter { $0.vehicle == v.id && $0.stopID == stopID }.min { $0.predicted < $1.predicted }
        }
        var model = given
        var notices: [String] = []
        if calibrate {
            let pairs = alongRoute(stop: stopID, vehicles: vehicles, patterns: patterns, model: model).compactMap { c -> (feet: Double, stops: Int, seconds: Double)? in
                guard let p = official(c.vehicle) else { return nil }
                return (c.remainingFeet, c.stopsBetween ?? 0, p.predicted.timeIntervalSince(now))
            }
            if let fitted = ETA.calibrate(pairs) {
                model = fitted
                notices.append(String(format: "Calibrated on %d BusTime predictions: %.1f mph, %.0f s a stop", pairs.count, fitted.speedMPH, fitted.dwellSeconds))
            } else {
                notices.append("Too few BusTime predictions to calibrate (\(pairs.count)); using \(model.speedMPH) mph and \(Int(model.dwellSeconds)) s")
            }
        }
        let candidates: [Candidate]
        switch method {
        case .alongRoute:
            candidates = alongRoute(stop: stopID, vehicles: vehicles, patterns: patterns, model: model)
        case .straightLine:
            guard let point = patterns.lazy.flatMap(\.points).first(where: { $0.isStop && $0.stopID == stopID }) else {
                throw .api(provider: "BusTime", message: "stop \(stopID) is on no pattern of route \(Set(vehicles.map(\.route)).sorted().joined(separator: ","))", details: nil)
            }
            // The seed's method as it was: every bus of the routes serving the stop, whatever its
            // direction or pattern, by great-circle distance. A bus heading away is the method's
            // flaw, and the comparison should show it.
            candidates = straightLine(stop: (point.latitude, point.longitude), vehicles: vehicles, model: model)
        }
        let estimates = candidates.map { c in
            let prediction = official(c.vehicle)
            return Estimate(candidate: c, prediction: prediction,
                            // BusTime's minutes on its own clock (from the prediction's tmstmp, as its
                            // prdctdn counts), so that a replayed answer says what it said then.
                            busTimeMinutes: prediction.map { max(0, $0.predicted.timeIntervalSince($0.generated ?? now) / 60) }, method: method)
        }
        return (estimates, notices)
    }
}
