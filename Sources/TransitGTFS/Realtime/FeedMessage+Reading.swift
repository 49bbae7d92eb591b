import Foundation
import TransitSupport

/// How each of `FeedMessage`'s nested messages reads itself from protobuf (the message and its
/// entities read in FeedMessage.swift).
extension FeedMessage.FeedHeader: ProtobufMessage {
    package mutating func read(_ reader: ProtobufReader) throws(ProtobufReader.Failure) {
        var r = reader
        while let (field, value) = try r.next() {
            switch field {
            case 1: if let range = value.range { version = r.string(range) }
            case 2: incrementality = value.unsigned ?? incrementality
            case 3: timestamp = value.unsigned ?? timestamp
            case 4: if let range = value.range { feedVersion = r.string(range) }
            default: continue
            }
        }
    }
}

extension FeedMessage.FeedEntity: ProtobufMessage {
    package mutating func read(_ reader: ProtobufReader) throws(ProtobufReader.Failure) {
        var r = reader
        while let (field, value) = try r.next() {
            switch (field, value) {
            case (1, .bytes(let range)): id = r.string(range)
            case (2, _): isDeleted = value.bool ?? isDeleted
            case (3, .bytes(let range)):
                tripUpdate = try r.merge(tripUpdate, range)
            case (4, .bytes(let range)): vehicle = try r.merge(vehicle, range)
            case (5, .bytes(let range)): alert = try r.merge(alert, range)
            default: continue
            }
        }
    }
}

extension FeedMessage.TripDescriptor: ProtobufMessage {
    package mutating func read(_ reader: ProtobufReader) throws(ProtobufReader.Failure) {
        var r = reader
        while let (field, value) = try r.next() {
            switch field {
            case 1: if let range = value.range { tripID = r.string(range) }
            case 2: if let range = value.range { startTime = r.string(range) }
            case 3: if let range = value.range { startDate = r.string(range) }
            case 4: scheduleRelationship = value.unsigned ?? scheduleRelationship
            case 5: if let range = value.range { routeID = r.string(range) }
            case 6: directionID = value.unsigned ?? directionID
            default: continue
            }
        }
    }
}

extension FeedMessage.VehicleDescriptor: ProtobufMessage {
    package mutating func read(_ reader: ProtobufReader) throws(ProtobufReader.Failure) {
        var r = reader
        while let (field, value) = try r.next() {
            guard let range = value.range else { continue }
            switch field {
            case 1: id = r.string(range)
            case 2: label = r.string(range)
            case 3: licensePlate = r.string(range)
            default: continue
            }
        }
    }
}

extension FeedMessage.StopTimeEvent: ProtobufMessage {
    package mutating func read(_ reader: ProtobufReader) throws(ProtobufReader.Failure) {
        var r = reader
        while let (field, value) = try r.next() {
            switch field {
            case 1: delay = value.int32 ?? delay
            case 2: time = value.int64 ?? time
            case 3: uncertainty = value.int32 ?? uncertainty
            default: continue
            }
        }
    }
}

extension FeedMessage.StopTimeUpdate: ProtobufMessage {
    package mutating func read(_ reader: ProtobufReader) throws(ProtobufReader.Failure) {
        var r = reader
        while let (field, value) = try r.next() {
            switch (field, value) {
            case (1, _): stopSequence = value.unsigned ?? stopSequence
            case (2, .bytes(let range)): arrival = try r.merge(arrival, range)
            case (3, .bytes(let range)): departure = try r.merge(departure, range)
            case (4, .bytes(let range)): stopID = r.string(range)
            case (5, _): scheduleRelationship = value.unsigned ?? scheduleRelationship
            case (6, .bytes(let range)):
                var inner = r.message(range)
                while let (f, v) = try inner.next() {
                    switch f {
                    case 1: if let vr = v.range { assignedStopID = inner.string(vr) }
                    case 3: pickupType = v.unsigned ?? pickupType
                    case 4: dropOffType = v.unsigned ?? dropOffType
                    default: continue
                    }
                }
            default: continue
            }
        }
    }
}

extension FeedMessage.TripUpdate: ProtobufMessage {
    package mutating func read(_ reader: ProtobufReader) throws(ProtobufReader.Failure) {
        var r = reader
        stopTimeUpdates.reserveCapacity(try reader.count(of: 2))
        while let (field, value) = try r.next() {
            switch (field, value) {
            case (1, .bytes(let range)): trip = try r.merge(trip, range)
            case (2, .bytes(let range)): stopTimeUpdates.append(try r.merge(nil as FeedMessage.StopTimeUpdate?, range))
            case (3, .bytes(let range)): vehicle = try r.merge(vehicle, range)
            case (4, _): timestamp = value.unsigned ?? timestamp
            case (5, _): delay = value.int32 ?? delay
            case (6, .bytes(let range)): tripProperties = try r.merge(tripProperties, range)
            default: continue
            }
        }
    }
}

extension FeedMessage.Position: ProtobufMessage {
    package mutating func read(_ reader: ProtobufReader) throws(ProtobufReader.Failure) {
        var r = reader
        while let (field, value) = try r.next() {
            switch field {
            case 1: latitude = value.float ?? latitude
            case 2: longitude = value.float ?? longitude
            case 3: bearing = value.float ?? bearing
            case 4: odometer = value.double ?? odometer
            case 5: speed = value.float ?? speed
            default: continue
            }
        }
    }
}

extension FeedMessage.VehiclePosition: ProtobufMessage {
    package mutating func read(_ reader: ProtobufReader) throws(ProtobufReader.Failure) {
        var r = reader
        while let (field, value) = try r.next() {
            switch (field, value) {
            case (1, .bytes(let range)): trip = try r.merge(trip, range)
            case (2, .bytes(let range)): position = try r.merge(position, range)
            case (3, _): currentStopSequence = value.unsigned ?? currentStopSequence
            case (4, _): currentStatus = value.unsigned ?? currentStatus
            case (5, _): timestamp = value.unsigned ?? timestamp
            case (6, _): congestionLevel = value.unsigned ?? congestionLevel
            case (7, .bytes(let range)): stopID = r.string(range)
            case (8, .bytes(let range)): vehicle = try r.merge(vehicle, range)
            case (9, _): occupancyStatus = value.unsigned ?? occupancyStatus
            default: continue
            }
        }
    }
}

extension FeedMessage.TripProperties: ProtobufMessage {
    package mutating func read(_ reader: ProtobufReader) throws(ProtobufReader.Failure) {
        var r = reader
        while let (field, value) = try r.next() {
            guard let range = value.range else { continue }
            switch field {
            case 1: tripID = r.string(range)
            case 2: startDate = r.string(range)
            case 3: startTime = r.string(range)
            default: continue
            }
        }
    }
}

extension FeedMessage.TimeRange: ProtobufMessage {
    package mutating func read(_ reader: ProtobufReader) throws(ProtobufReader.Failure) {
        var r = reader
        while let (field, value) = try r.next() {
            switch field {
            case 1: start = value.unsigned ?? start
            case 2: end = value.unsigned ?? end
            default: continue
            }
        }
    }
}

extension FeedMessage.EntitySelector: ProtobufMessage {
    package mutating func read(_ reader: ProtobufReader) throws(ProtobufReader.Failure) {
        var r = reader
        while let (field, value) = try r.next() {
            switch (field, value) {
            case (1, .bytes(let range)): agencyID = r.string(range)
            case (2, .bytes(let range)): routeID = r.string(range)
            case (3, _): routeType = value.int32 ?? routeType
            case (4, .bytes(let range)): trip = try r.merge(trip, range)
            case (5, .bytes(let range)): stopID = r.string(range)
            case (6, _): directionID = value.unsigned ?? directionID
            default: continue
            }
        }
    }
}

extension FeedMessage.Alert: ProtobufMessage {
    /// A TranslatedString's translations, in wire order.
    package static func translations(_ reader: ProtobufReader) throws(ProtobufReader.Failure) -> [FeedMessage.Translation] {
        var r = reader, out: [FeedMessage.Translation] = []
        while let (field, value) = try r.next() {
            guard field == 1, let range = value.range else { continue }
            var t = FeedMessage.Translation(), inner = r.message(range)
            while let (f, v) = try inner.next() {
                guard let vr = v.range else { continue }
                if f == 1 { t.text = inner.string(vr) } else if f == 2 { t.language = inner.string(vr) }
            }
            out.append(t)
        }
        return out
    }

    package mutating func read(_ reader: ProtobufReader) throws(ProtobufReader.Failure) {
        var r = reader
        while let (field, value) = try r.next() {
            switch (field, value) {
            case (1, .bytes(let range)): activePeriods.append(try r.merge(nil as FeedMessage.TimeRange?, range))
            case (5, .bytes(let range)): informedEntities.append(try r.merge(nil as FeedMessage.EntitySelector?, range))
            case (6, _): cause = value.unsigned ?? cause
            case (7, _): effect = value.unsigned ?? effect
            case (8, .bytes(let range)): url = try Self.translations(r.message(range))
            case (10, .bytes(let range)): header = try Self.translations(r.message(range))
            case (11, .bytes(let range)): description = try Self.translations(r.message(range))
            case (14, _): severity = value.unsigned ?? severity
            default: continue
            }
        }
    }
}
