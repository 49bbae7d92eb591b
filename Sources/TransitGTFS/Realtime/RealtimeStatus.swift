import Foundation
import TransitSupport

extension TripUpdates {
    /// How the call at `position` of instance `index` stands (-1: a run the data does not speak
    /// of): the one reading of an instance's status that every answer shares, through
    /// `RealtimeSchedule`. Rules 17–21 of docs/realtime.md.
    package func status(ofInstance index: Int, position: Int) -> RealtimeStatus {
        guard index >= 0, index < instances.count else { return .scheduled }
        let instance = instances[index]
        let call = position >= 0 && position < instance.calls.count ? instance.calls[position].status : .scheduled
        switch instance.status {
        case .canceled, .hidden: return .canceled
        case .added: return call == .skipped ? .skipped : .added
        case .updated: return call
        }
    }

    /// How a ride on the run of instance `index` (-1: none) is reported: `.updated`
    /// when the data speaks of the run, `.added` for a trip it adds (no plan, no delay).
    package func rideStatus(ofInstance index: Int) -> RealtimeStatus {
        guard index >= 0, index < instances.count else { return .scheduled }
        return instances[index].status == .added ? .added : .updated
    }
}

/// How real-time data leaves a call, or a ride, as every answer reports it (`status`). The
/// words are the output's.
public enum RealtimeStatus: String, Sendable {
    /// No real-time data reaches it (rule 17: never "on time").
    case scheduled
    /// A time from an update or carried from one.
    case updated
    /// The vehicle passes without stopping (rule 19).
    case skipped
    /// The trip runs no more (rule 18): never ridden, shown where it would have called.
    case canceled
    /// A trip the timetable does not run (rules 20, 21): ADDED, NEW, DUPLICATED, a REPLACEMENT's calls.
    case added

    /// Whether real-time data speaks of it (the `realtime` field).
    public var isRealtime: Bool { self != .scheduled }
    /// Whether it has a time to plan on (a canceled or skipped call has none).
    public var calls: Bool { self != .canceled && self != .skipped }
}
