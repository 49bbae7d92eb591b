import Foundation
import TransitSupport

/// One agency that speaks Clever Devices BusTime. Adding a third is one more value here, listed
/// in `all` (Providers.swift makes a provider of each).
public struct BusTimeAgency: Sendable, Equatable {
    /// Provider id on the command line and in fixtures: `cta`, `mbus`.
    public var id: String
    public var name: String
    /// The agency's zone (`America/Chicago`); `zone` reads it when a time needs it, not when
    /// the command line is built.
    public var zoneIdentifier: String
    public var zone: TimeZone { TimeZone(identifier: zoneIdentifier) ?? .gmt }
    public var defaultBaseURL: String
    /// Where a key comes from, said when `TRANSIT_<ID>_KEY` is missing.
    public var keyHelp: String
    /// Example stops and routes for help texts.
    public var exampleRoute: String
    public var exampleStop: String
    public var exampleDirection: String

    public var keyVariable: String { "TRANSIT_\(id.uppercased())_KEY" }

    public static let cta = BusTimeAgency(
        id: "cta", name: "CTA Bus Tracker", zoneIdentifier: "America/Chicago",
        defaultBaseURL: "https://www.ctabustracker.com/bustime/api/v3",
        keyHelp: "get a key at ctabustracker.com: sign in, then My Account → Developer API",
        exampleRoute: "22", exampleStop: "1836", exampleDirection: "Northbound")

    public static let mbus = BusTimeAgency(
        id: "mbus", name: "Magic Bus", zoneIdentifier: "America/Detroit",
        defaultBaseURL: "https://mbus.ltp.umich.edu/bustime/api/v3",
        keyHelp: "ask U-M Logistics, Transportation & Parking (mbus.ltp.umich.edu) for a BusTime developer key",
        exampleRoute: "CN", exampleStop: "C250", exampleDirection: "NORTHBOUND")

    public static let all: [BusTimeAgency] = [.cta, .mbus]
}

public struct BusRoute: Sendable, Equatable {
    public var id: String
    public var name: String
    public var color: String?
    public var designator: String?
}

public struct BusDirection: Sendable, Equatable {
    /// What `dir`/`rtdir` parameters take (v3); the same as the name in v2.
    public var id: String
    public var name: String
}

public struct BusStop: Sendable, Equatable {
    public var id: String
    public var name: String
    public var latitude: Double?
    public var longitude: Double?
}

public struct BusPattern: Sendable, Equatable {
    public struct Point: Sendable, Equatable {
        public var sequence: Int
        public var latitude: Double
        public var longitude: Double
        /// `S` a stop, `W` a waypoint.
        public var isStop: Bool
        public var stopID: String?
        public var stopName: String?
        /// Feet from the start of the pattern; waypoints often have none (or a meaningless 0).
        public var distance: Double?
    }
    public var id: Int
    public var length: Double?
    public var direction: String
    public var points: [Point]
}

public struct Prediction: Sendable, Equatable {
    public enum Kind: String, Sendable { case arrival, departure }
    public var route: String
    public var direction: String
    public var stopID: String
    public var stopName: String
    public var destination: String
    /// Empty for schedule-based predictions.
    public var vehicle: String?
    public var predicted: Date
    /// BusTime said DUE.
    public var due: Bool
    public var delayed: Bool
    public var kind: Kind
    public var distanceFeet: Int?
    /// When BusTime made the prediction (`tmstmp`).
    public var generated: Date? = nil
}

public struct Bulletin: Sendable, Equatable {
    public struct Service: Sendable, Equatable {
        public var route: String?
        public var direction: String?
        public var stopID: String?
        public var stopName: String?
    }
    public var name: String
    public var subject: String
    public var detail: String
    public var brief: String?
    public var priority: Priority
    /// Empty: the bulletin applies system-wide.
    public var services: [Service]

    /// BusTime's `prty`, most urgent first; anything else it sends sorts last.
    public enum Priority: String, Sendable, Comparable, CaseIterable {
        case high, medium, low, unknown

        public init(_ text: String?) {
            self = Priority(rawValue: (text ?? "low").lowercased()) ?? .unknown
        }

        var rank: Int { Priority.allCases.firstIndex(of: self) ?? 3 }
        public static func < (a: Priority, b: Priority) -> Bool { a.rank < b.rank }
    }
}

public struct Vehicle: Sendable, Equatable {
    public var id: String
    public var route: String
    public var latitude: Double?
    public var longitude: Double?
    public var heading: Int?
    public var patternID: Int?
    public var patternDistance: Double?
    public var destination: String
    public var delayed: Bool
    public var timestamp: Date?
}

/// An entry of `bustime-response.error[]`.
public struct BusTimeMessage: Sendable, Equatable {
    public var message: String
    /// The parameter it is about (`stpid 1836`, `rt 22`), when BusTime echoes one.
    public var subject: String?

    /// "No arrival times", "No service scheduled", "No data found for parameter": nothing to
    /// show, which is not a failure.
    public var meansEmpty: Bool {
        let m = message.lowercased()
        return m.hasPrefix("no arrival times") || m.hasPrefix("no service scheduled") || m.hasPrefix("no data found for parameter")
    }

    /// `No arrival times for stop 1836`.
    public var notice: String {
        guard let subject else { return message }
        return "\(message) for \(subject)"
    }
}

/// A BusTime answer: the records that came, and the messages that came with them.
public struct BusTimeResult<T: Sendable>: Sendable {
    public var items: [T]
    public var messages: [BusTimeMessage]
    /// Records in the answer that could not be read.
    public var skipped = Skipped()
    /// The answer held no list and no message at all (`{"bustime-response":{}}`).
    public var empty = false
}
