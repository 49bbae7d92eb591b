import Foundation

/// Service-day time, one home for every provider. A service day is a date in an agency's zone.
/// Before 03:00 the service day in progress is yesterday's (a train past midnight belongs to the
/// evening before: BART and GTFS alike). Its clock counts seconds from "noon minus 12 h" (GTFS's
/// rule: midnight, except on the days clocks change). The clock goes both ways: seconds of the
/// day to an instant, and an instant back to seconds of the day (what realtime data needs).
struct ServiceClock: Sendable {
    /// Minutes after midnight before which the service day in progress is the day before.
    static let cutoffMinutes = 3 * 60

    let day: LocalDate
    let zone: TimeZone
    /// The instant of second 0: noon minus 12 hours.
    let origin: Date

    init(day: LocalDate, zone: TimeZone) {
        self.day = day
        self.zone = zone
        origin = day.instant(minutes: 12 * 60, in: zone).addingTimeInterval(-12 * 3600)
    }

    /// The service day in progress at `instant` in `zone`.
    static func inProgress(at instant: Date, in zone: TimeZone) -> ServiceClock {
        ServiceClock(day: LocalDate.serviceDay(at: instant, in: zone, cutoff: cutoffMinutes), zone: zone)
    }

    func instant(_ seconds: Int) -> Date { origin.addingTimeInterval(TimeInterval(seconds)) }

    /// Seconds of this service day at `instant` (negative before it began, past 86,400 after).
    func seconds(at instant: Date) -> Int { Int((instant.timeIntervalSince(origin)).rounded(.down)) }
}
