import Foundation
import TransitSupport

/// What a GTFS-Realtime message holds, counted (transit-bench's realtime figures).
public struct RealtimeFeedSummary: Sendable, Equatable {
    public var timestamp: UInt64?
    public var entities: Int
    public var tripUpdates: Int
    public var stopTimeUpdates: Int
    public var vehicles: Int
    public var alerts: Int

    /// Decodes `data`; a malformed message is one `TransitError.parse` naming `what` and the byte.
    public static func of(_ data: Data, what: String) throws(TransitError) -> RealtimeFeedSummary {
        let message: FeedMessage
        do { message = try FeedMessage.decode(data) } catch {
            throw .parse(what: what, reason: "\(error.reason) at byte \(error.offset)")
        }
        guard let header = message.header else { throw .parse(what: what, reason: "no FeedHeader: not a GTFS-Realtime message") }
        let updates = message.entities.compactMap(\.tripUpdate)
        return RealtimeFeedSummary(timestamp: header.timestamp, entities: message.entities.count, tripUpdates: updates.count,
                                   stopTimeUpdates: updates.reduce(0) { $0 + $1.stopTimeUpdates.count },
                                   vehicles: message.entities.filter { $0.vehicle != nil }.count,
                                   alerts: message.entities.filter { $0.alert != nil }.count)
    }
}
