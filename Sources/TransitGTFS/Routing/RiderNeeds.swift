import Foundation
import TransitSupport

/// What a rider asks of a journey beyond the timetable's own rules (issue 46): step-free
/// travel, a bike on board, only some modes, no ride on some routes, a margin at every
/// change, and stops to pass through. The search honours each exactly: a journey that breaks
/// one is never found, and no journey that keeps them all is lost.
public struct RiderNeeds: Sendable, Equatable {
    /// Rides only on trips marked wheelchair_accessible=1, boarding and alighting only at stops
    /// whose wheelchair_boarding is not 2 (a platform's 0 is its station's), walking at 0.8 m/s
    /// on a map's streets without steps (`walking`).
    public var wheelchair = false
    /// Rides only on trips marked bikes_allowed=1, or unmarked on a mode of `bikeModes`.
    public var bike = false
    /// The modes whose unmarked trips take a bike (`--bike-modes`).
    public var bikeModes: Set<RouteMode> {
        get { chosenBikeModes ?? Self.defaultBikeModes }
        set { chosenBikeModes = newValue == Self.defaultBikeModes ? nil : newValue }
    }
    /// `bikeModes` where they are not the default's (one value per choice, so that `==` holds
    /// between needs that mean the same). A rider who names none makes no set of modes: the
    /// first set made looks `RouteMode`'s Hashable up at run time, 0.37 M instructions of
    /// every query's start (issue 67).
    private var chosenBikeModes: Set<RouteMode>?
    /// The modes ridden; nil: every route, whatever its type.
    public var modes: Set<RouteMode>?
    /// Routes never ridden, as a rider names them: a route_id or a name (every route it names).
    /// An unknown one is an error naming it (`TransitError.notFound`, kind "route").
    public var avoid: [String] = []
    /// What every change needs on top of its usual time.
    public var margin = ChangeMargin()
    /// The routes `avoid` names, found in the timetable when the query is resolved.
    package var avoidRoutes: Set<Int> = []
    /// Stops the journey passes through, in order (at most two): the query's vias, resolved.
    package var vias: [Via] = []

    /// Rail, subway and ferry: what `--bike-modes` defaults to.
    public static let defaultBikeModes: Set<RouteMode> = [.rail, .subway, .ferry]
    /// Meters a second a wheelchair walks at.
    public static let wheelchairSpeed = 0.8
    /// Vias a query may ask for.
    public static let maxVias = 2

    /// Needs as the command line's options give them; none by default.
    /// `bikeModes`: nil for `defaultBikeModes`.
    public init(wheelchair: Bool = false, bike: Bool = false, bikeModes: Set<RouteMode>? = nil, modes: Set<RouteMode>? = nil,
                avoid: [String] = [], margin: ChangeMargin = ChangeMargin()) {
        (self.wheelchair, self.bike, self.modes, self.avoid, self.margin) = (wheelchair, bike, modes, avoid, margin)
        if let bikeModes { self.bikeModes = bikeModes }
    }

    /// Whether some rides are left out (a filter is asked at each boarding).
    package var filtersRides: Bool { wheelchair || bike || modes != nil || !avoidRoutes.isEmpty }

    /// How the rider walks, the one profile every walk reads: a point's walks, changes and links
    /// (their speed), the walks stored at import (their step-free meters), the map's network a
    /// query opens (with or without steps).
    package struct Walking: Sendable, Equatable {
        /// Meters a second.
        package var speed: Double
        /// Only ways without steps: the map's step-free network, the stored walks' step-free meters.
        package var stepFree: Bool
        /// The map's network this rider walks.
        package var streets: Walkable.Profile { stepFree ? .stepFree : .foot }
    }

    package var walking: Walking { Walking(speed: wheelchair ? Self.wheelchairSpeed : SearchDefaults.walkingSpeed, stepFree: wheelchair) }

    /// Meters a second on foot: changes, links and the walks at the ends.
    package var walkingSpeed: Double { walking.speed }

    /// A stop the journey must call at: any of `stops` (a station's platforms), and how long the
    /// rider stays there. A stay of 0 lets the rider stay seated on a ride that calls there
    /// (picking up or setting down); above 0 the rider alights there and the next ride leaves
    /// no sooner than the stay plus the change it takes.
    package struct Via: Sendable, Equatable {
        package var stops: [Int]
        package var staySeconds: Int

        package init(stops: [Int], staySeconds: Int = 0) {
            self.stops = stops
            self.staySeconds = staySeconds
        }
    }

    /// A change's time as the rider wants it: its usual time (transfers.txt's
    /// min_transfer_time; else `--min-transfer` plus the walk; 0 for a timed transfer) × `factor`,
    /// rounded up to the second, plus `seconds`. It grows with the usual time, so that a bound
    /// on the usual time bounds the margin's too.
    public struct ChangeMargin: Sendable, Equatable {
        /// Seconds every change needs on top (0 to 3,600 on the command line).
        public var seconds = 0
        /// What the usual time is multiplied by (1 to 5 on the command line).
        public var factor = 1.0

        /// `--buffer` (as seconds) and `--buffer-factor`.
        public init(seconds: Int = 0, factor: Double = 1) {
            self.seconds = seconds
            self.factor = factor
        }

        package var isNone: Bool { seconds == 0 && factor == 1 }

        @inline(__always) package func apply(_ usual: Int) -> Int {
            if isNone { return usual }
            let scaled = (Double(usual) * factor).rounded(.up)
            // Within Int32, whatever a damaged file or a huge factor gives.
            let bounded = scaled.isFinite ? min(max(scaled, 0), Double(Int32.max / 2)) : Double(Int32.max / 2)
            return min(Int(bounded) + seconds, Int(Int32.max / 2))
        }
    }
}

/// Which rides and stops a rider's needs allow, asked by the search at each boarding: worked out
/// once per route (modes, avoided routes) and per stop (its wheelchair mark, a platform's unknown
/// as its station's), read per trip (its wheelchair and bike marks). Everything is read from
/// arrays of its own or the timetable's buffers: a method of the `Timetable` held by this class
/// copied the whole struct (4 KB) at each call, at every boarding and alighting.
package final class RideFilter {
    let t: Timetable
    let needs: RiderNeeds
    let updates: TripUpdates?
    /// In a search through vias, the layered network whose stops `allows(stop:)` is asked of.
    package var layers: ViaLayers?
    /// Per route: 1 allowed by mode and name, 0 not (empty: every route is).
    private let routeAllowed: [Bool]
    /// Per route: its mode takes unmarked bikes.
    private let bikeRoute: [Bool]
    /// Per stop, with a wheelchair: may the rider board and alight there (empty: everywhere).
    private let stopAllowed: [Bool]
    /// Each trip's route (`TripRoutes`) and marks, read in place (the timetable above keeps them alive).
    private let tripRoutes: TripRoutes
    private let tripWheelchair: UnsafeBufferPointer<UInt8>
    private let tripBikes: UnsafeBufferPointer<UInt8>

    package init(_ t: Timetable, _ needs: RiderNeeds, updates: TripUpdates? = nil) {
        self.t = t
        self.needs = needs
        self.updates = updates
        let types = t.routeType.buffer
        if needs.modes != nil || !needs.avoidRoutes.isEmpty {
            routeAllowed = (0..<t.routeCount).map { r in
                !needs.avoidRoutes.contains(r) && (needs.modes.map { modes in RouteMode(routeType: Int(types[r])).map(modes.contains) ?? false } ?? true)
            }
        } else {
            routeAllowed = []
        }
        bikeRoute = needs.bike ? (0..<t.routeCount).map { r in RouteMode(routeType: Int(types[r])).map(needs.bikeModes.contains) ?? false } : []
        stopAllowed = needs.wheelchair ? (0..<t.stopCount).map { t.wheelchairBoarding($0) != 2 } : []
        (tripRoutes, tripWheelchair, tripBikes) = (t.tripRoutes, t.tripWheelchair.buffer, t.tripBikes.buffer)
    }

    /// May the rider ride `trip` (-1: a trip the timetable does not have), standing for the
    /// real-time instance `instance` (-1: none)?
    package func allows(trip: Int, instance: Int) -> Bool {
        let known = trip >= 0 && trip < tripRoutes.count
        var route = known ? tripRoutes.route(ofTrip: trip) : -1
        if instance >= 0, let updates, instance < updates.instances.count { route = updates.instances[instance].route }
        if !routeAllowed.isEmpty {
            guard route >= 0, route < routeAllowed.count, routeAllowed[route] else { return false }
        }
        if needs.wheelchair {
            guard known, trip < tripWheelchair.count, tripWheelchair[trip] == 1 else { return false }
        }
        if needs.bike {
            let mark: UInt8 = known && trip < tripBikes.count ? tripBikes[trip] : 0
            if mark == 2 { return false }
            if mark == 0 && !(route >= 0 && route < bikeRoute.count && bikeRoute[route]) { return false }
        }
        return true
    }

    /// May the rider board and alight at `stop`?
    package func allows(stop: Int) -> Bool {
        guard !stopAllowed.isEmpty else { return true }
        let base = layers?.base(stop) ?? stop
        return base >= 0 && base < stopAllowed.count ? stopAllowed[base] : true
    }
}

extension Timetable {
    /// A stop's wheelchair_boarding as the rider meets it: its own where it says 1 or 2, else its
    /// station's (0 where neither says).
    package func wheelchairBoarding(_ stop: Int) -> UInt8 {
        guard stop >= 0, stop < stopWheelchair.count else { return 0 }
        let own = stopWheelchair[stop]
        if own != 0 { return own }
        let parent = self.parent(of: stop)
        return parent >= 0 && parent < stopWheelchair.count ? stopWheelchair[parent] : 0
    }

    /// Does any trip say it takes a wheelchair (wheelchair_accessible=1)?
    package var marksStepFreeTrips: Bool { tripWheelchair.buffer.contains(1) }
}
