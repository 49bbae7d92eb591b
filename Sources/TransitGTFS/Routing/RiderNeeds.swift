import Foundation
import TransitSupport

/// What a rider asks of a journey beyond the timetable's own rules (issue 46): step-free
/// travel, a bike on board, only some modes, no ride on some routes, a margin at every
/// change, and stops to pass through. The search honours each exactly: a journey that breaks
/// one is never found, and no journey that keeps them all is lost.
package struct RiderNeeds: Sendable, Equatable {
    /// Rides only on trips marked wheelchair_accessible=1, boarding and alighting only at stops
    /// whose wheelchair_boarding is not 2 (a platform's 0 is its station's), walking at 0.8 m/s.
    package var wheelchair = false
    /// Rides only on trips marked bikes_allowed=1, or unmarked on a mode of `bikeModes`.
    package var bike = false
    package var bikeModes: Set<RouteMode> = Self.defaultBikeModes
    /// The modes ridden; nil: every route, whatever its type.
    package var modes: Set<RouteMode>?
    /// Routes never ridden.
    package var avoidRoutes: Set<Int> = []
    /// What every change needs on top of its usual time.
    package var margin = ChangeMargin()
    /// Stops the journey passes through, in order (at most two).
    package var vias: [Via] = []

    package static let defaultBikeModes: Set<RouteMode> = [.rail, .subway, .ferry]
    package static let wheelchairSpeed = 0.8
    package static let maxVias = 2

    package init() {}

    /// Whether some rides are left out (a filter is asked at each boarding).
    package var filtersRides: Bool { wheelchair || bike || modes != nil || !avoidRoutes.isEmpty }

    /// Meters a second on foot: changes, links and the walks at the ends.
    package var walkingSpeed: Double { wheelchair ? Self.wheelchairSpeed : SearchDefaults.walkingSpeed }

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
    package struct ChangeMargin: Sendable, Equatable {
        package var seconds = 0
        package var factor = 1.0

        package init(seconds: Int = 0, factor: Double = 1) {
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
