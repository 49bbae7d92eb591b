import Foundation

/// A calendar date with no zone attached (a service day), as agencies publish them.
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD` strictly (the date must exist).
    public init?(iso text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
              (1...12).contains(m), (1...31).contains(d) else { return nil }
        guard d <= LocalDate.daysIn(month: m, year: y) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// The calendar date of `instant` in `zone`.
    public init(_ instant: Date, in zone: TimeZone) {
        self = ClockTime.civil(instant, offset: zone.secondsFromGMT(for: instant)).day
    }

    public static func < (a: LocalDate, b: LocalDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    public var description: String { iso }
    public var iso: String { ClockTime.pad(year, 4) + "-" + ClockTime.pad(month) + "-" + ClockTime.pad(day) }
    /// `MM/DD/YYYY`, as BART wants its `date` parameter.
    public var usSlashed: String { ClockTime.pad(month) + "/" + ClockTime.pad(day) + "/" + ClockTime.pad(year, 4) }

    /// Days since 1970-01-01 (proleptic Gregorian), for date arithmetic without a calendar.
    public var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    public init(dayNumber z0: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
    }

    public func adding(days: Int) -> LocalDate { LocalDate(dayNumber: dayNumber + days) }

    /// The service day in progress at `instant`: before `cutoff` minutes after local midnight,
    /// the night still belongs to yesterday's service day.
    public static func serviceDay(at instant: Date, in zone: TimeZone, cutoff: Int) -> LocalDate {
        let date = LocalDate(instant, in: zone)
        return instant < date.instant(minutes: cutoff, in: zone) ? date.adding(days: -1) : date
    }

    /// The instant at `minutes` after the start of this date in `zone`; minutes may pass 24 h
    /// (a service day that runs past midnight).
    ///
    /// By arithmetic and the zone's offsets a day either side, as Calendar would answer (a
    /// Calendar per call cost more than the trips it dated): a clock time the zone repeats
    /// (the hour when clocks go back) is its first instant; one the zone skips (clocks go
    /// forward) is read with the offset before the change, so 02:30 becomes 03:30.
    public func instant(minutes: Int, in zone: TimeZone) -> Date {
        // Wall-clock seconds since the epoch, as if the zone were UTC (clamped like `civil`).
        let days = max(-4_000_000, min(4_000_000, dayNumber))
        let local = days * 86_400 + max(-1_000_000_000, min(1_000_000_000, minutes)) * 60
        func offset(_ seconds: Int) -> Int { zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds))) }
        let before = offset(local - 86_400), after = offset(local + 86_400)
        let early = local - max(before, after), late = local - min(before, after)
        let instant: Int
        if before == after {
            instant = local - before
        } else if offset(early) == local - early {
            instant = early
        } else if offset(late) == local - late {
            instant = late
        } else {
            instant = local - before
        }
        return Date(timeIntervalSince1970: TimeInterval(instant))
    }

    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// Clock-time parsing and ISO 8601 rendering, by hand: no DateFormatter (it costs an ICU load
/// and traps without tzdata, see PITFALLS.md).
public enum ClockTime {
    /// Minutes after midnight from `HH:MM` (24 h), `h:mm am|pm`, `h:mm AM`, `06:04 PM`, `6:04PM`.
    /// Surrounding whitespace is ignored. Returns nil for anything else.
    public static func minutes(_ raw: String) -> Int? {
        var text = raw.trimmedSpace().lowercased()
        var meridiem: String?
        for suffix in ["am", "pm", "a.m.", "p.m."] where text.hasSuffix(suffix) {
            meridiem = String(suffix.prefix(1))
            text = String(text.dropLast(suffix.count)).trimmedSpace(newlines: false)
            break
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, parts[1].count == 2,
              (1...2).contains(parts[0].count),
              parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let h = Int(parts[0]), let m = Int(parts[1]), m < 60 else { return nil }
        if let meridiem {
            guard (1...12).contains(h) else { return nil }
            let h24 = (h % 12) + (meridiem == "p" ? 12 : 0)
            return h24 * 60 + m
        }
        guard h < 24 else { return nil }
        return h * 60 + m
    }

    /// `2026-11-23T18:04:00-08:00`: the instant in `zone`, with that zone's offset on that date.
    public static func iso8601(_ date: Date, zone: TimeZone) -> String {
        var out: [UInt8] = []
        iso8601(date, zone: zone, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The same, written into a byte buffer: JSON prints thousands, and each String made and
    /// joined cost more than the arithmetic.
    public static func iso8601(_ date: Date, zone: TimeZone, into out: inout [UInt8]) {
        var offsets = ZoneOffsets()
        iso8601(date, zone: zone, into: &out, offsets: &offsets)
    }

    /// The same, with the zone's offset remembered across calls (`offsets`): a writer of
    /// thousands of times keeps one.
    public static func iso8601(_ date: Date, zone: TimeZone, into out: inout [UInt8], offsets: inout ZoneOffsets) {
        let offset = offsets.seconds(at: date, in: zone)
        let (day, second) = civil(date, offset: offset)
        // Into 32 bytes on the stack, then one append: a byte at a time was 25 appends a time,
        // each checking the array's capacity and uniqueness.
        var text: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &text) { raw in
            var n = 0
            func put(_ byte: UInt8) {
                raw[n] = byte
                n += 1
            }
            func two(_ value: Int) {
                put(UInt8(ascii: "0") + UInt8(value / 10 % 10))
                put(UInt8(ascii: "0") + UInt8(value % 10))
            }
            if (0...9999).contains(day.year) {
                two(day.year / 100)
                two(day.year % 100)
                put(UInt8(ascii: "-"))
                two(day.month)
                put(UInt8(ascii: "-"))
                two(day.day)
            } else {
                // A year of more than four digits, or before year 0: as `LocalDate.iso` writes it.
                out.append(contentsOf: day.iso.utf8)
            }
            put(UInt8(ascii: "T"))
            two(second / 3600)
            put(UInt8(ascii: ":"))
            two(second / 60 % 60)
            put(UInt8(ascii: ":"))
            two(second % 60)
            put(UInt8(ascii: offset < 0 ? "-" : "+"))
            let magnitude = abs(offset)
            two(magnitude / 3600 % 100)
            put(UInt8(ascii: ":"))
            two(magnitude % 3600 / 60)
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[..<n]))
        }
    }

    /// `25:10:00`: seconds of a service day as GTFS writes them (hours may pass 24).
    package static func gtfs(_ seconds: Int) -> String {
        let s = max(0, seconds), hours = s / 3600
        guard hours < 100 else { return pad(hours) + ":" + twoDigits(s / 60 % 60) + ":" + twoDigits(s % 60) }
        // Eight bytes written in place (a small string, no allocation): a whole day's answer
        // writes one per ride.
        return String(unsafeUninitializedCapacity: 8) { bytes in
            func digit(_ value: Int) -> UInt8 { UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value) }
            (bytes[0], bytes[1], bytes[2]) = (digit(hours / 10), digit(hours % 10), UInt8(ascii: ":"))
            (bytes[3], bytes[4], bytes[5]) = (digit(s / 600 % 6), digit(s / 60 % 10), UInt8(ascii: ":"))
            (bytes[6], bytes[7]) = (digit(s % 60 / 10), digit(s % 10))
            return 8
        }
    }

    /// `18:04`, the local clock time in `zone`.
    public static func hhmm(_ date: Date, zone: TimeZone) -> String {
        let second = civil(date, offset: zone.secondsFromGMT(for: date)).second
        return pad(second / 3600) + ":" + pad(second / 60 % 60)
    }

    /// `09:20`, or `00:40+1` on the calendar day after `day`, as timetables mark a time past
    /// midnight (`-1` the day before).
    public static func hhmm(_ date: Date, zone: TimeZone, on day: LocalDate) -> String {
        let (local, second) = civil(date, offset: zone.secondsFromGMT(for: date))
        let shift = local.dayNumber - day.dayNumber
        return pad(second / 3600) + ":" + pad(second / 60 % 60) + (shift == 0 ? "" : shift > 0 ? "+\(shift)" : "\(shift)")
    }

    /// The local day and the second within it, by arithmetic (Calendar and String(format:) cost
    /// more than the rest of a query's output). Instants beyond ±300,000 years are clamped.
    package static func civil(_ date: Date, offset: Int) -> (day: LocalDate, second: Int) {
        let seconds = Int(min(max(date.timeIntervalSince1970.rounded(.down), -1e13), 1e13)) + offset
        let day = seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400)
        return (LocalDate(dayNumber: day), seconds - day * 86_400)
    }

    /// Zero-padded to `width` digits.
    package static func pad(_ value: Int, _ width: Int = 2) -> String {
        if width == 2 && value >= 0 && value < 100 { return twoDigits(value) }
        let digits = String(value.magnitude)
        let padded = digits.count < width ? String(repeating: "0", count: width - digits.count) + digits : digits
        return value < 0 ? "-" + padded : padded
    }

    /// 0...99 as two digits, written as bytes: a whole day's answer writes 50,000 of them, and
    /// `String(Int)` with a padding compare cost 2,000 instructions a time.
    @inline(__always) static func twoDigits(_ value: Int) -> String {
        let v = UInt8(truncatingIfNeeded: value % 100)
        return String(unsafeUninitializedCapacity: 2) { bytes in
            bytes[0] = UInt8(ascii: "0") + v / 10
            bytes[1] = UInt8(ascii: "0") + v % 10
            return 2
        }
    }

    /// Parses ISO 8601 with an offset or `Z` (`2026-11-22T12:00:00Z`), for `TRANSIT_NOW`.
    public static func parseISO8601(_ text: String) -> Date? {
        guard let (day, timePart) = LocalTimestamp.split(text),
              let (minutes, seconds) = LocalTimestamp.clockParts(String(timePart.prefix(8))) else { return nil }
        var zonePart = String(timePart.dropFirst(8))
        if zonePart.hasPrefix(".") { zonePart = String(zonePart.drop(while: { $0 == "." || $0.isNumber })) }
        let offset: Int
        if zonePart == "Z" {
            offset = 0
        } else if zonePart.count == 6, let sign = zonePart.first, sign == "+" || sign == "-",
                  let hm = ClockTime.minutes(String(zonePart.dropFirst())) {
            offset = (sign == "-" ? -1 : 1) * hm * 60
        } else {
            return nil
        }
        let utcSeconds = (day.dayNumber * 1440 + minutes) * 60 + seconds - offset
        return Date(timeIntervalSince1970: TimeInterval(utcSeconds))
    }
}

/// A zone's offset from UTC, remembered from the instant it was asked for up to the zone's next
/// transition (ICU's: any change of offset, daylight saving or not), where it cannot change.
/// The offset of a Foundation `TimeZone` is an ICU call behind a lock (a tenth of writing a
/// dense whole day's journeys as JSON); the times of one answer lie in a day or two, so a
/// writer asks ICU once or twice. Checked against `secondsFromGMT` over a century of zones whose
/// offsets moved (`ZoneOffsetsTests`).
public struct ZoneOffsets {
    private var zone: TimeZone?
    private var from = Date.distantFuture, until = Date.distantPast
    private var offset = 0

    public init() {}

    public mutating func seconds(at date: Date, in zone: TimeZone) -> Int {
        if date >= from, date < until, zone == self.zone { return offset }
        offset = zone.secondsFromGMT(for: date)
        self.zone = zone
        from = date
        until = zone.nextDaylightSavingTimeTransition(after: date) ?? .distantFuture
        return offset
    }
}

extension TimeZone {
    /// UTC, written once: `TimeZone(secondsFromGMT: 0)` is never nil, but is optional in type
    /// (the host's zone is the fallback no machine reaches).
    public static let utc: TimeZone = TimeZone(secondsFromGMT: 0) ?? .current
}
