import Foundation
import TransitSupport

/// BART reads every time in Pacific time.
public enum BART {
    public static let zone = TimeZone(identifier: "America/Los_Angeles") ?? TimeZone(secondsFromGMT: -8 * 3600) ?? .current
    public static let defaultBaseURL = "https://api.bart.gov/api"
    /// BART's published public key (CLI-CONTRACT.md); `TRANSIT_BART_KEY` overrides it.
    public static let publicKey = "MW9S-E7SL-26DU-VV8V"
    /// Times before this many minutes after midnight belong to the previous service day
    /// (BART's day ends around 2:27 am and starts again after 4 am).
    public static let serviceDayCutoff = ServiceClock.cutoffMinutes
}

public struct BARTStation: Sendable, Equatable {
    public var abbr: String
    public var name: String
    public var city: String
    public var latitude: Double?
    public var longitude: Double?
}

public struct BARTRoute: Sendable, Equatable {
    public var number: Int
    public var routeID: String
    public var name: String
    public var abbr: String
    /// A colour name (`YELLOW`) when BART gives one, else derived from the hex colour.
    public var color: String
    public var hexColor: String?
    public var origin: String
    public var destination: String
    public var direction: String?
    /// Station codes in travel order.
    public var stations: [String]

    /// `Yellow`, for people.
    public var lineName: String { color.prefix(1).uppercased() + color.dropFirst().lowercased() }
}

/// One train of a route's day: a time (minutes after the service day's midnight, past 1440
/// after midnight) at each station it serves, in route order.
public struct BARTScheduledTrain: Sendable, Equatable {
    public var index: Int
    public var stops: [Stop]

    public struct Stop: Sendable, Equatable {
        public var station: String
        /// Minutes after midnight of the service day; nil where the train does not stop.
        public var minutes: Int?
    }

    /// The last station with a time: where the train is heading.
    public var headStation: String? { stops.last { $0.minutes != nil }?.station }
}

public struct BARTRouteSchedule: Sendable, Equatable {
    public var route: Int
    public var trains: [BARTScheduledTrain]
}

public struct BARTLeg: Sendable, Equatable {
    public var route: Int
    public var line: String
    public var origin: String
    public var destination: String
    public var departure: Date
    public var arrival: Date
    public var headStation: String
}

public struct BARTTrip: Sendable, Equatable {
    public var legs: [BARTLeg]
    public var origin: String { legs.first?.origin ?? "" }
    public var destination: String { legs.last?.destination ?? "" }
    public var departure: Date { legs.first?.departure ?? .distantPast }
    public var arrival: Date { legs.last?.arrival ?? .distantPast }
    public var transfers: Int { max(0, legs.count - 1) }
    public var durationMinutes: Int { Int((arrival.timeIntervalSince(departure) / 60).rounded()) }
}

/// A trip from BART's trip planner (`sched.aspx?cmd=depart`), with its fares.
public struct BARTPlannedTrip: Sendable, Equatable {
    public struct PlannedLeg: Sendable, Equatable {
        public var order: Int
        public var origin: String
        public var destination: String
        public var departure: Date
        public var arrival: Date
        public var line: String
        /// A station name or code, or a composite head-sign: never parsed as a code.
        public var trainHeadStation: String
        public var bikes: Bool?
    }
    public struct Fare: Sendable, Equatable {
        public var name: String
        public var fareClass: String
        public var amount: Double
    }
    public var origin: String
    public var destination: String
    public var departure: Date
    public var arrival: Date
    public var fare: Double?
    public var tripMinutes: Int?
    public var fares: [Fare]
    public var legs: [PlannedLeg]
}

/// One real-time estimate at a station (`etd.aspx?cmd=etd`).
public struct BARTDeparture: Sendable, Equatable {
    public var station: String
    public var destination: String
    public var destinationCode: String
    /// 0 for "Leaving".
    public var minutes: Int
    public var platform: Int?
    public var direction: String
    public var cars: Int?
    public var line: String
    public var hexColor: String?
    public var delaySeconds: Int
    public var cancelled: Bool
    public var bikes: Bool?
}

public struct BARTAdvisory: Sendable, Equatable {
    public var id: String?
    public var station: String?
    public var type: String?
    public var description: String
    public var posted: String?
    public var expires: String?
}

/// BART narrows live departures by one platform or one direction, not both.
public enum BARTDepartureFilter: Sendable, Equatable {
    case platform(Int)
    case direction(BARTDirection)
}

public enum BARTDirection: String, Sendable, CaseIterable {
    case north = "n", south = "s"
}
