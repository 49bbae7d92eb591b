import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

extension CPUBound {
    /// The protobuf reader and the GTFS-Realtime FeedMessage, against every capture of the reference
    /// pack (each checked with its protoc text dump, an independent decoder) and hand-made bytes.
    @Suite struct RealtimeDecodingTests {
        static var captures: [String] {
            let root = Reference.path("gtfs-rt/feeds")
            return ((try? FileManager.default.subpathsOfDirectory(atPath: root)) ?? []).filter { $0.hasSuffix(".pb") }.sorted()
        }

        static func decode(_ bytes: [UInt8]) throws(ProtobufReader.Failure) -> FeedMessage { try FeedMessage.decode(Data(bytes)) }

        @Test(.enabled(if: Reference.isPresent, Reference.absent))
        func everyCaptureDecodesAsItsDumpSays() throws {
            let captures = Self.captures
            #expect(captures.count >= 80)
            var compared = 0
            for name in captures {
                let data = try Reference.data("gtfs-rt/feeds/" + name)
                if name.hasSuffix("invalid.pb") {
                    // "not valid pb data": 'n' (0x6e) is field 13 of wire type 6, which does not exist.
                    #expect(throws: ProtobufReader.Failure(reason: "wire type 6, which does not exist", offset: 0)) { try FeedMessage.decode(data) }
                    continue
                }
                let message: FeedMessage
                do { message = try FeedMessage.decode(data) } catch {
                    Issue.record("\(name): \(error.reason) at byte \(error.offset)")
                    continue
                }
                #expect(message.header != nil, "\(name)")
                // The protoc dump beside it, where it is whole, counts the same entities and updates.
                guard let dump = try? String(contentsOfFile: Reference.path("gtfs-rt/feeds/" + name + ".txt"), encoding: .utf8),
                      !dump.contains("PARTIAL") else { continue }
                let lines = dump.split(separator: "\n")
                #expect(message.entities.count == lines.filter { $0 == "entity {" }.count, "\(name)")
                let updates = message.entities.reduce(0) { $0 + ($1.tripUpdate?.stopTimeUpdates.count ?? 0) }
                #expect(updates == lines.filter { $0.trimmingCharacters(in: .whitespaces) == "stop_time_update {" }.count, "\(name)")
                compared += 1
            }
            #expect(compared >= 80)
        }

        @Test(.enabled(if: Reference.isPresent, Reference.absent))
        func theTrapsFormatMdNames() throws {
            // Budapest: 2.8 MB, 2,497 trip updates (its dump is partial).
            let bkk = try FeedMessage.decode(try Reference.data("gtfs-rt/feeds/bkk-budapest/TripUpdates.pb"))
            #expect(bkk.entities.count == 2497 && bkk.entities.allSatisfy { $0.tripUpdate != nil })
            // A negative delay is a 10-byte varint, not zigzag.
            let spec = try FeedMessage.decode(try Reference.data("gtfs-rt/feeds/google-spec-examples/trip-updates-full.asciipb.pb"))
            let delays = spec.entities.flatMap { $0.tripUpdate?.stopTimeUpdates ?? [] }.compactMap { $0.arrival?.delay }
            #expect(delays.contains(-2), "\(delays)")
            // `stop_sequence: 0` is present, not absent.
            let mmri = try FeedMessage.decode(try Reference.data("gtfs-rt/feeds/otp-mmri/3b.pb"))
            #expect(mmri.entities.first?.tripUpdate?.stopTimeUpdates.first?.stopSequence == 0)
            #expect(mmri.entities.first?.tripUpdate?.stopTimeUpdates.first?.departure == FeedMessage.StopTimeEvent(delay: 600))
            // A header and no entity: no real-time data now.
            let empty = try FeedMessage.decode(try Reference.data("gtfs-rt/feeds/transitland-ct/ct-service-alerts.pb"))
            #expect(empty.header?.version == "1.0" && empty.entities.isEmpty)
            // An unregistered extension (field 1000) in the header is skipped.
            let bull = try FeedMessage.decode(try Reference.data("gtfs-rt/feeds/validator-bullrunner/bullrunner-vehicle-positions.pb"))
            let position = try #require(bull.entities.first?.vehicle?.position)
            #expect(bull.header?.version != nil && (position.latitude ?? 0) > 27 && (position.latitude ?? 0) < 29)
        }

        @Test func handMadeBytes() throws {
            // header { version "2.0" } entity { id "a" trip_update { trip { trip_id "t" } stop_time_update { stop_sequence 3 arrival { delay -5400 } } } }
            let delay: [UInt8] = [0x08, 0xe8, 0xd5, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]
            let event: [UInt8] = [0x12, UInt8(delay.count)] + delay
            let update: [UInt8] = [0x12, UInt8(event.count + 2), 0x08, 0x03] + event
            let trip: [UInt8] = [0x0a, 0x03, 0x0a, 0x01, 0x74]
            let tripUpdate: [UInt8] = [0x1a, UInt8(trip.count + update.count)] + trip + update
            let entity: [UInt8] = [0x12, UInt8(tripUpdate.count + 3), 0x0a, 0x01, 0x61] + tripUpdate
            let header: [UInt8] = [0x0a, 0x05, 0x0a, 0x03, 0x32, 0x2e, 0x30]
            let message = try Self.decode(header + entity)
            #expect(message.header?.version == "2.0" && message.entities.first?.id == "a")
            #expect(message.entities.first?.tripUpdate?.trip?.tripID == "t")
            #expect(message.entities.first?.tripUpdate?.stopTimeUpdates == [FeedMessage.StopTimeUpdate(stopSequence: 3, arrival: FeedMessage.StopTimeEvent(delay: -5400))])
            // A multi-byte key: field 1000 (LEN) skipped; a scalar given twice: the last wins.
            let twice = try Self.decode([0x0a, 0x0b, 0xc2, 0x3e, 0x02, 0x08, 0x01, 0x18, 0x05, 0x18, 0x07, 0x10, 0x01])
            #expect(twice.header == FeedMessage.FeedHeader(incrementality: 1, timestamp: 7))
            // An empty body is a message with nothing in it (no header: the caller refuses it).
            #expect(try Self.decode([]) == FeedMessage())
            for (bytes, reason, offset) in [
                ([0x08] + [UInt8](repeating: 0xff, count: 10) + [0x01], "a number longer than 64 bits", 1),
                ([0x0a, 0x05, 0x0a], "a length of 5 bytes runs past the end of its message", 1),
                ([0x0b], "a group (wire type 3), which GTFS-Realtime does not use", 0),
                ([0x08, 0x80], "a number runs past the end of its message", 1),
                ([0x0d, 0x01, 0x02], "a 32-bit value runs past the end of its message", 1),
                ([0x00], "field number 0 is not one", 0),
                ([0x0a, 0x02, 0x1a, 0x05], "a length of 5 bytes runs past the end of its message", 3),
            ] as [([UInt8], String, Int)] {
                #expect(throws: ProtobufReader.Failure(reason: reason, offset: offset), "\(bytes)") { try Self.decode(bytes) }
            }
        }

        /// The public look at a feed: counts, and one parse error for what is not a FeedMessage.
        @Test(.enabled(if: Reference.isPresent, Reference.absent))
        func theSummaryCountsAndRefuses() throws {
            let halifax = try RealtimeFeedSummary.of(try Reference.data("gtfs-rt/feeds/halifax-2025/TripUpdates.pb"), what: "Halifax")
            #expect(halifax.entities == 511 && halifax.tripUpdates == 511 && halifax.stopTimeUpdates == 17_041 && halifax.vehicles == 0)
            #expect(throws: TransitError.parse(what: "x", reason: "wire type 6, which does not exist at byte 0")) {
                try RealtimeFeedSummary.of(try Reference.data("gtfs-rt/feeds/transitland-misc/invalid.pb"), what: "x")
            }
            // A JSON body (some servers answer ?format=json): '{' is field 15 of wire type 3, a group.
            #expect(throws: TransitError.parse(what: "x", reason: "a group (wire type 3), which GTFS-Realtime does not use at byte 0")) {
                try RealtimeFeedSummary.of(Data("{\"header\": {}}".utf8), what: "x")
            }
            #expect(throws: TransitError.parse(what: "x", reason: "no FeedHeader: not a GTFS-Realtime message")) { try RealtimeFeedSummary.of(Data(), what: "x") }
        }
    }
}
