import Foundation

/// Service-day time, one home for every provider. A service day is a date in an agency's zone.
/// Before 03:00 the service day in progress is yesterday's (a train past midnight belongs to the
/// evening before: BART and GTFS alike). Its clock counts seconds from "noon minus 12 h" (GTFS's
/// rule: midnight, except on the days clocks change). The clock goes both ways: seconds of the
/// day to an instant, and an instant back to seconds of the day (what realtime data needs).
package struct ServiceClock: Sendable {
    /// Minutes after midnight before which the service day in progress is the day before.
    package static let cutoffMinutes = 3 * 60

    package let day: LocalDate
    package let zone: TimeZone
    /// The instant of second 0: noon minus 12 hours.
    package let origin: Date

    package init(day: LocalDate, zone: TimeZone) {
        self.day = day
        self.zone = zone
        origin = day.instant(minutes: 12 * 60, in: zone).addingTimeInterval(-12 * 3600)
    }

    /// The service day in progress at `instant` in `zone`.
    package static func inProgress(at instant: Date, in zone: TimeZone) -> ServiceClock {
        ServiceClock(day: LocalDate.serviceDay(at: instant, in: zone, cutoff: cutoffMinutes), zone: zone)
    }

    package func instant(_ seconds: Int) -> Date { origin.addingTimeInterval(TimeInterval(seconds)) }

    /// Seconds by which service day `day` begins later in `zone` than in `clock`: what moves a
    /// time of a feed in `zone` onto `clock`'s day (Lisbon's 08:00 is 09:00 on Madrid's).
    package static func offset(of zone: TimeZone, onto clock: TimeZone, day: LocalDate) -> Int {
        Int(saturating: ServiceClock(day: day, zone: zone).origin.timeIntervalSince(ServiceClock(day: day, zone: clock).origin))
    }

    /// Seconds of this service day at `instant` (negative before it began, past 86,400 after).
    package func seconds(at instant: Date) -> Int { Int(saturating: instant.timeIntervalSince(origin)) }
}

/// A time of the service day as typed after `--after`, `--before` or `--arrive-by`, resolved
/// once the service day and the agency's zone are known (for GTFS, once the feed is open).
///
/// - `17:05`, `5:30pm`, `5pm`, `17`: a clock time. A GTFS query reads it as a moment
///   (`ServiceWindow.moments`); BART's reads one before 03:00 as the night after (`00:30` is
///   24:30, `seconds(on:now:)`), since its service day runs past midnight.
/// - `0:00:00`, `25:30` (hours with seconds, or past 24): the feed's own hours, as timetables
///   write them, never reinterpreted: `0:00:00` is the first second of the service day.
/// - `now`, `+30m`, `+1h15m`: from the current instant; only on today's service day.
public enum ServiceTime: Sendable, Equatable {
    case clock(minutes: Int)
    case asWritten(seconds: Int)
    case now
    case fromNow(seconds: Int)

    /// What the option's help says it takes.
    package static let spellings = "HH:MM, 5pm, 5:30pm, 17, now, +30m or +1h15m (H:MM:SS, or hours past 24: as the feed writes them)"

    public static func parse(_ raw: String) -> ServiceTime? {
        let text = raw.trimmedSpace(newlines: false).lowercased()
        if text == "now" { return .now }
        if text.hasPrefix("+") { return fromNow(text.dropFirst()) }
        let digits = { (s: Substring) in !s.isEmpty && s.count <= 2 && s.allSatisfy { $0.isASCII && $0.isNumber } }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        // Hours as the feed writes them: with seconds, or past 24.
        if parts.count == 3, digits(parts[0]), parts[1].count == 2, parts[2].count == 2, parts.allSatisfy(digits),
           let h = Int(parts[0]), let m = Int(parts[1]), let s = Int(parts[2]), h < 48, m < 60, s < 60 {
            return .asWritten(seconds: (h * 60 + m) * 60 + s)
        }
        guard parts.count < 3 else { return nil }
        if parts.count == 2, digits(parts[0]), parts[1].count == 2, digits(parts[1]), let h = Int(parts[0]), let m = Int(parts[1]),
           (24..<48).contains(h), m < 60 {
            return .asWritten(seconds: (h * 60 + m) * 60)
        }
        // A bare hour (`17`, `5pm`, `5 pm`) is read as ClockTime reads `17:00`, `5:00pm`.
        let hour = text.prefix { $0.isASCII && $0.isNumber }
        let clock = parts.count == 1 && digits(hour) ? hour + ":00" + text.dropFirst(hour.count) : text
        return ClockTime.minutes(clock).map { .clock(minutes: $0) }
    }

    /// `30m`, `1h`, `1h15m`, `90m`: up to a day.
    private static func fromNow(_ text: Substring) -> ServiceTime? {
        var seconds = 0, number = "", units = 0
        for character in text {
            if character.isASCII && character.isNumber {
                number.append(character)
                guard number.count <= 4 else { return nil }
            } else if character == "h" || character == "m", let n = Int(number) {
                seconds += n * (character == "h" ? 3600 : 60)
                number = ""
                units += 1
            } else {
                return nil
            }
        }
        guard number.isEmpty, units > 0, seconds <= 86_400 else { return nil }
        return .fromNow(seconds: seconds)
    }

    /// Seconds of `clock`'s service day. `now` and `+N` need today's service day: `option` names
    /// the flag in the usage error otherwise.
    package func seconds(on clock: ServiceClock, now: Date, option: String) throws(TransitError) -> Int {
        switch self {
        case .clock(let minutes): return (minutes < ServiceClock.cutoffMinutes ? minutes + 1440 : minutes) * 60
        case .asWritten(let seconds): return seconds
        case .now, .fromNow:
            let today = ServiceClock.inProgress(at: now, in: clock.zone).day
            guard today == clock.day else {
                throw .usage("--\(option) now and +N count from now: they need today's service day (\(today.iso)), not --date \(clock.day.iso)")
            }
            if case .fromNow(let ahead) = self { return clock.seconds(at: now) + ahead }
            return clock.seconds(at: now)
        }
    }
}

/// `--after`, `--before` and `--arrive-by` as typed.
public struct ServiceWindow: Sendable, Equatable {
    public var after: ServiceTime?
    public var before: ServiceTime?
    public var arriveBy: ServiceTime?

    public init(after: ServiceTime? = nil, before: ServiceTime? = nil, arriveBy: ServiceTime? = nil) {
        self.after = after
        self.before = before
        self.arriveBy = arriveBy
    }

    public var isEmpty: Bool { after == nil && before == nil && arriveBy == nil }

    /// The window in seconds of one service day.
    package struct Seconds: Equatable {
        package var after: Int?
        package var before: Int?
        package var arriveBy: Int?
        /// No `--after` was given and the day is today's: the window starts now.
        package var startsNow = false

        /// The whole day: no bound either way.
        package init() {}

        /// The window starts now, and `--before` or `--arrive-by` is already past.
        package var hasPassed: Bool {
            guard startsNow, let after else { return false }
            return before.map { $0 < after } == true || arriveBy.map { $0 < after } == true
        }
    }

    /// In seconds of `clock`'s service day. Without `--after`, a query for today's service day
    /// starts now (with `--before` or `--arrive-by` too: nothing already gone), and one for another
    /// day at the start of that day. A `--before` or `--arrive-by` already past then finds nothing
    /// (`hasPassed`), which the empty answer's notice says.
    package func seconds(on clock: ServiceClock, now: Date) throws(TransitError) -> Seconds {
        var out = Seconds()
        if let after { out.after = try after.seconds(on: clock, now: now, option: "after") }
        if let before { out.before = try before.seconds(on: clock, now: now, option: "before") }
        if let arriveBy { out.arriveBy = try arriveBy.seconds(on: clock, now: now, option: "arrive-by") }
        if after == nil && ServiceClock.inProgress(at: now, in: clock.zone).day == clock.day {
            out.after = clock.seconds(at: now)
            out.startsNow = true
        }
        if !out.startsNow, let a = out.after, let b = out.before, a > b { throw .usage("--after is later than --before") }
        return out
    }

    /// The window of a GTFS query, where a date and a time mean a moment (issue 64; BART keeps
    /// `seconds(on:now:)`'s night-after rule). With `date` (`--date`, a calendar day), a clock time
    /// is that moment of that day, on its service day's clock: `01:30` is reached by the runs of
    /// the night before past 24:00 and by the day's own. Without, a clock time at or after 03:00
    /// is that moment of today, one before 03:00 the next such moment from now, each on the
    /// service day of its calendar date. Hours as the feed writes them (`25:30`, `0:30:00`),
    /// `now` and `+N` are on the clock of `date`, else of the service day in progress. A
    /// `--before` or `--arrive-by` clock time earlier than the window's start is the next
    /// calendar day's. Without `--after`, the service day in progress starts now.
    package func moments(on date: LocalDate?, in zone: TimeZone, now: Date) throws(TransitError) -> (clock: ServiceClock, window: Seconds) {
        let inProgress = ServiceClock.inProgress(at: now, in: zone)
        var clock = date.map { ServiceClock(day: $0, zone: zone) } ?? inProgress
        // The calendar day a clock time is a moment of.
        var calendar = date ?? LocalDate(now, in: zone)
        if date == nil, case .clock(let minutes)? = after {
            if minutes < ServiceClock.cutoffMinutes && calendar.instant(minutes: minutes, in: zone) < now { calendar = calendar.adding(days: 1) }
            clock = ServiceClock(day: calendar, zone: zone)
        }
        func seconds(_ time: ServiceTime, _ option: String, from start: Int?) throws(TransitError) -> Int {
            guard case .clock(let minutes) = time else { return try time.seconds(on: clock, now: now, option: option) }
            let moment = clock.seconds(at: calendar.instant(minutes: minutes, in: zone))
            guard let start, moment < start else { return moment }
            return clock.seconds(at: calendar.adding(days: 1).instant(minutes: minutes, in: zone))
        }
        var out = Seconds()
        if let after {
            out.after = try seconds(after, "after", from: nil)
        } else if clock.day == inProgress.day {
            out.after = clock.seconds(at: now)
            out.startsNow = true
        }
        if let before { out.before = try seconds(before, "before", from: out.after) }
        if let arriveBy { out.arriveBy = try seconds(arriveBy, "arrive-by", from: out.after) }
        if !out.startsNow, let a = out.after, let b = out.before, a > b { throw .usage("--after is later than --before") }
        return (clock, out)
    }
}
