import Foundation
import TransitSupport

/// A message type the decoder reads: made empty, then filled (or merged into) field by field.
protocol ProtobufMessage {
    init()
    mutating func read(_ reader: ProtobufReader) throws(ProtobufReader.Failure)
}

extension ProtobufReader {
    /// How many times `field` occurs in this message (its values skipped, not read): the size of
    /// a repeated field, so that its array is allocated once (a city's updates hold 16,000 calls).
    package func count(of field: Int) throws(Failure) -> Int {
        var scan = self, n = 0
        while let (f, _) = try scan.next() { if f == field { n += 1 } }
        return n
    }

    /// `existing` (or an empty message) with the message at `range` read into it: a non-repeated
    /// message that comes twice is merged, as protobuf says.
    func merge<M: ProtobufMessage>(_ existing: M?, _ range: Range<Int>) throws(Failure) -> M {
        var message = existing ?? M()
        try message.read(self.message(range))
        return message
    }
}

/// A GTFS-Realtime FeedMessage (proto2, package transit_realtime), decoded by `ProtobufReader`.
/// Every field is optional with explicit presence: absent and "present with the default" differ
/// (`stop_sequence: 0` is a real stop; absent `delay` is unknown, `delay: 0` on time), so fields
/// are Optionals, and enums keep their raw number (a newer spec's value is not mapped to 0).
/// Unknown fields (the extensions 1000–1999 and 9000–9999 real feeds carry) are skipped by wire
/// type; a non-repeated message that occurs twice is merged, a scalar's last value wins.
package struct FeedMessage: Equatable, ProtobufMessage {
    package var header: FeedHeader?
    package var entities: [FeedEntity] = []
    /// Alerts past the first `maxAlerts`, walked (so that a malformed one still fails the message) but not kept.
    package var alertsNotRead = 0
    /// The alerts a message keeps: real feeds send hundreds; a million took a board 52 s and 1.6 GB.
    package static let maxAlerts = 10_000
    /// Entities past the first `maxEntities`, skipped unread (their framing checked, not their fields).
    package var entitiesNotRead = 0
    /// The entities a message keeps: a country's feed sends tens of thousands; a million trip
    /// updates took a 3-row board 4.5-12 s and about 1 GB (issue 62).
    package static let maxEntities = 200_000

    package struct FeedHeader: Equatable {
        package var version: String?
        package var incrementality: UInt64?
        /// POSIX seconds, as sent (some feeds send milliseconds).
        package var timestamp: UInt64?
        package var feedVersion: String?
    }

    package struct FeedEntity: Equatable {
        package var id: String?
        package var isDeleted: Bool?
        package var tripUpdate: TripUpdate?
        /// A position and an alert are held apart from the entity (their 400 bytes inline made a
        /// message of a million alerts 664 MB of entities before any was read).
        package var vehicle: VehiclePosition? {
            get { vehicleBox?.value }
            set { vehicleBox = newValue.map(Box.init) }
        }
        package var alert: Alert? {
            get { alertBox?.value }
            set { alertBox = newValue.map(Box.init) }
        }
        private var vehicleBox: Box<VehiclePosition>?
        private var alertBox: Box<Alert>?

        package init() {}

        package init(id: String?, isDeleted: Bool? = nil, tripUpdate: TripUpdate? = nil, vehicle: VehiclePosition? = nil, alert: Alert? = nil) {
            (self.id, self.isDeleted, self.tripUpdate) = (id, isDeleted, tripUpdate)
            self.vehicle = vehicle
            self.alert = alert
        }

        package static func == (a: FeedEntity, b: FeedEntity) -> Bool {
            (a.id, a.isDeleted, a.tripUpdate) == (b.id, b.isDeleted, b.tripUpdate) && a.vehicle == b.vehicle && a.alert == b.alert
        }
    }

    /// A value held by reference, never changed (a new one replaces it).
    final class Box<Value: Sendable>: Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    package struct TripDescriptor: Equatable {
        package var tripID: String?
        package var routeID: String?
        package var directionID: UInt64?
        package var startTime: String?
        package var startDate: String?
        package var scheduleRelationship: UInt64?
    }

    package struct VehicleDescriptor: Equatable {
        package var id: String?
        package var label: String?
        package var licensePlate: String?
    }

    package struct StopTimeEvent: Equatable {
        package var delay: Int32?
        package var time: Int64?
        package var uncertainty: Int32?
    }

    package struct StopTimeUpdate: Equatable {
        package var stopSequence: UInt64?
        package var stopID: String?
        package var arrival: StopTimeEvent?
        package var departure: StopTimeEvent?
        package var scheduleRelationship: UInt64?
        /// stop_time_properties (field 6): a stop assigned instead of the planned one, and
        /// pickup/drop-off types (1: none) for a trip the timetable does not have.
        package var assignedStopID: String?
        package var pickupType: UInt64?
        package var dropOffType: UInt64?
    }

    package struct TripUpdate: Equatable {
        package var trip: TripDescriptor?
        package var vehicle: VehicleDescriptor?
        package var stopTimeUpdates: [StopTimeUpdate] = []
        package var timestamp: UInt64?
        package var delay: Int32?
        package var tripProperties: TripProperties?
    }

    /// What a DUPLICATED trip is: its own trip_id, start date and time (fields 1, 2, 3).
    package struct TripProperties: Equatable {
        package var tripID: String?
        package var startDate: String?
        package var startTime: String?
    }

    package struct Position: Equatable {
        package var latitude: Double?
        package var longitude: Double?
        package var bearing: Double?
        package var odometer: Double?
        package var speed: Double?
    }

    package struct VehiclePosition: Equatable {
        package var trip: TripDescriptor?
        package var vehicle: VehicleDescriptor?
        package var position: Position?
        package var currentStopSequence: UInt64?
        package var stopID: String?
        package var currentStatus: UInt64?
        package var timestamp: UInt64?
        package var congestionLevel: UInt64?
        package var occupancyStatus: UInt64?
    }

    package struct TimeRange: Equatable {
        package var start: UInt64?
        package var end: UInt64?
    }

    package struct EntitySelector: Equatable {
        package var agencyID: String?
        package var routeID: String?
        package var routeType: Int32?
        package var trip: TripDescriptor?
        package var stopID: String?
        package var directionID: UInt64?
    }

    package struct Alert: Equatable {
        package var activePeriods: [TimeRange] = []
        package var informedEntities: [EntitySelector] = []
        package var cause: UInt64?
        package var effect: UInt64?
        package var url: [Translation] = []
        package var header: [Translation] = []
        package var description: [Translation] = []
        package var severity: UInt64?
    }

    package struct Translation: Equatable {
        package var text: String?
        package var language: String?
    }

    /// The message in `data`; a failure names the byte where the input stops making sense.
    package static func decode(_ data: Data) throws(ProtobufReader.Failure) -> FeedMessage {
        do {
            return try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) throws -> FeedMessage in
                var message = FeedMessage()
                try message.read(ProtobufReader(buffer))
                return message
            }
        } catch let failure as ProtobufReader.Failure {
            throw failure
        } catch {
            throw ProtobufReader.Failure(reason: "\(error)", offset: 0)
        }
    }

    package mutating func read(_ reader: ProtobufReader) throws(ProtobufReader.Failure) {
        var r = reader
        // Room for the entities at once, up to what a big city sends (a hostile count would reserve gigabytes).
        entities.reserveCapacity(min(try reader.count(of: 2), 1 << 17))
        var alerts = 0
        while let (field, value) = try r.next() {
            switch (field, value) {
            case (1, .bytes(let range)): header = try r.merge(header, range)
            case (2, .bytes(let range)):
                guard entities.count < Self.maxEntities else {
                    entitiesNotRead += 1
                    continue
                }
                var entity = FeedEntity()
                try entity.read(r.message(range))
                if entity.alert != nil {
                    alerts += 1
                    if alerts > Self.maxAlerts {
                        alertsNotRead += 1
                        guard entity.tripUpdate != nil || entity.vehicle != nil else { continue }
                        entity.alert = nil
                    }
                }
                entities.append(entity)
            default: continue
            }
        }
    }
}


extension FeedMessage {
    /// Rule 4: a time above 10^10 is in milliseconds (no feed's seconds reach the year 2286).
    package static let millisecondsAbove: Int64 = 10_000_000_000

    /// POSIX seconds of a time the feed sends, milliseconds divided; `above` moves the line
    /// (an alert period's far end, see `ServiceAlert.alerts`).
    package static func seconds(_ value: Int64, millisecondsAbove above: Int64 = millisecondsAbove) -> Int {
        Int(value > above ? value / 1000 : value)
    }

    package static func seconds(_ value: UInt64, millisecondsAbove above: Int64 = millisecondsAbove) -> Int {
        Int(clamping: value > UInt64(clamping: above) ? value / 1000 : value)
    }

    /// The last second of the year 9999: a feed's time past it is no time (a UInt64 past 2^63
    /// printed as the year 318857, with a negative age).
    package static let latestSecond = 253_402_300_799

    /// `seconds(value)` when it lies between 1970 and the year 9999; nil otherwise.
    package static func instant(_ value: UInt64, millisecondsAbove above: Int64 = millisecondsAbove) -> Int? {
        let s = seconds(value, millisecondsAbove: above)
        return s <= latestSecond ? s : nil
    }

    /// The header's time in seconds.
    package var headerSeconds: Int? { header?.timestamp.flatMap { Self.instant($0) } }
}

/// What a GTFS-Realtime message holds, counted: the library's public look at a feed (and the
/// benchmark's measure of the decoder).
extension FeedMessage {
    /// The message with every trip, route and stop id behind `prefix`, as a combination of feeds
    /// writes its ids (`bart:` + trip_id). Vehicle and entity ids, and agency ids (kept as the
    /// feed writes them in a combination), stay.
    package func namespaced(_ prefix: String) -> FeedMessage {
        func id(_ value: String?) -> String? { value.map { prefix + $0 } }
        func trip(_ d: TripDescriptor?) -> TripDescriptor? {
            d.map { d in
                var d = d
                d.tripID = id(d.tripID)
                d.routeID = id(d.routeID)
                return d
            }
        }
        var out = self
        for k in out.entities.indices {
            if var update = out.entities[k].tripUpdate {
                update.trip = trip(update.trip)
                let duplicate = id(update.tripProperties?.tripID)
                update.tripProperties?.tripID = duplicate
                for u in update.stopTimeUpdates.indices {
                    update.stopTimeUpdates[u].stopID = id(update.stopTimeUpdates[u].stopID)
                    update.stopTimeUpdates[u].assignedStopID = id(update.stopTimeUpdates[u].assignedStopID)
                }
                out.entities[k].tripUpdate = update
            }
            if var vehicle = out.entities[k].vehicle {
                vehicle.trip = trip(vehicle.trip)
                vehicle.stopID = id(vehicle.stopID)
                out.entities[k].vehicle = vehicle
            }
            if var alert = out.entities[k].alert {
                for e in alert.informedEntities.indices {
                    alert.informedEntities[e].routeID = id(alert.informedEntities[e].routeID)
                    alert.informedEntities[e].stopID = id(alert.informedEntities[e].stopID)
                    alert.informedEntities[e].trip = trip(alert.informedEntities[e].trip)
                }
                out.entities[k].alert = alert
            }
        }
        return out
    }
}
