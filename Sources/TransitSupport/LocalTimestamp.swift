import Foundation

/// Agency timestamps without an offset (`2018-03-10T18:30:00`, `20180404 20:27`), read in the
/// agency's zone. One parser for the clock part, one for the ISO date-time form.
public enum LocalTimestamp {
    /// `HH:MM` or `HH:MM:SS` on `date` in `zone`; nil for anything else.
    public static func instant(_ date: LocalDate, clock: String, zone: TimeZone) -> Date? {
        guard let (minutes, seconds) = clockParts(clock) else { return nil }
        return date.instant(minutes: minutes, in: zone).addingTimeInterval(TimeInterval(seconds))
    }

    /// `YYYY-MM-DDTHH:MM[:SS]` read in `zone` (anything after the seconds is ignored).
    public static func iso(_ text: String, zone: TimeZone) -> Date? {
        guard let (day, rest) = split(text) else { return nil }
        let withSeconds = String(rest.prefix(8))
        if withSeconds.count == 8, let date = instant(day, clock: withSeconds, zone: zone) { return date }
        return instant(day, clock: String(rest.prefix(5)), zone: zone)
    }

    /// The date and the text after the `T`.
    package static func split(_ text: String) -> (LocalDate, Substring)? {
        let t = text.trimmedSpace(newlines: false)
        guard t.count >= 16, let day = LocalDate(iso: String(t.prefix(10))), t.dropFirst(10).first == "T" else { return nil }
        return (day, t.dropFirst(11))
    }

    /// `HH:MM` or `HH:MM:SS` → minutes after midnight and seconds.
    package static func clockParts(_ text: String) -> (Int, Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, let minutes = ClockTime.minutes(parts.prefix(2).joined(separator: ":")) else { return nil }
        guard parts.count == 3 else { return (minutes, 0) }
        guard parts[2].count == 2, let seconds = Int(parts[2]), (0..<60).contains(seconds) else { return nil }
        return (minutes, seconds)
    }
}

/// Clock times of one run (a train's stops, a timetable's rows) placed on one axis: whenever a
/// time is earlier than the one before it, the run has passed midnight.
public struct DayRollover: Sendable {
    /// Minutes added so far (a multiple of 1440).
    public private(set) var offset = 0
    private var previous: Int?

    public init(offset: Int = 0) {
        self.offset = offset
    }

    /// `minutes` after its own midnight → minutes on the run's axis.
    public mutating func place(_ minutes: Int) -> Int {
        var m = minutes + offset
        if let p = previous, m < p {
            offset += 1440
            m += 1440
        }
        previous = m
        return m
    }

    /// Days passed so far: 0 on the run's first day.
    public var day: Int { offset / 1440 }
}
