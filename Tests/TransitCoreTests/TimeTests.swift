import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport

@Suite struct TimeTests {
    @Test func localDateParsesStrictly() {
        #expect(LocalDate(iso: "2026-11-23") == LocalDate(year: 2026, month: 11, day: 23))
        #expect(LocalDate(iso: "2026-02-29") == nil)
        #expect(LocalDate(iso: "2028-02-29") != nil)
        #expect(LocalDate(iso: "2026-13-01") == nil)
        #expect(LocalDate(iso: "2026-1-01") == nil)
        #expect(LocalDate(iso: "tomorrow") == nil)
        #expect(LocalDate(iso: "") == nil)
    }

    /// GTFS's clock written byte by byte (issue 67) against the arithmetic spelled out: every
    /// second of two service days, hours past 24 and past 99, and a negative time as 00:00:00.
    @Test func gtfsTimesAreWrittenAsGTFSWritesThem() {
        func spelled(_ s: Int) -> String {
            func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
            return "\(two(s / 3600)):\(two(s / 60 % 60)):\(two(s % 60))"
        }
        for s in 0..<(48 * 3600) where ClockTime.gtfs(s) != spelled(s) {
            Issue.record("\(s): \(ClockTime.gtfs(s)) against \(spelled(s))")
            break
        }
        #expect(ClockTime.gtfs(25 * 3600 + 10 * 60) == "25:10:00")
        #expect(ClockTime.gtfs(100 * 3600 + 61) == "100:01:01")
        #expect(ClockTime.gtfs(-5) == "00:00:00")
        #expect((0..<100).allSatisfy { ClockTime.pad($0) == ($0 < 10 ? "0\($0)" : "\($0)") })
        #expect(ClockTime.pad(-3) == "-03" && ClockTime.pad(123) == "123" && ClockTime.pad(7, 4) == "0007")
    }

    @Test func dayArithmeticCrossesMonthsAndYears() {
        let d = LocalDate(year: 2026, month: 12, day: 31)
        #expect(d.adding(days: 1) == LocalDate(year: 2027, month: 1, day: 1))
        #expect(LocalDate(year: 2024, month: 3, day: 1).adding(days: -1) == LocalDate(year: 2024, month: 2, day: 29))
        #expect(LocalDate(dayNumber: 0) == LocalDate(year: 1970, month: 1, day: 1))
        #expect(d.usSlashed == "12/31/2026")
    }

    @Test(arguments: [
        ("6:04 PM", 18 * 60 + 4), ("06:04 PM", 18 * 60 + 4), (" 6:04 PM ", 18 * 60 + 4), ("6:04pm", 18 * 60 + 4),
        ("18:04", 18 * 60 + 4), ("12:27 AM", 27), ("12:00 PM", 720), ("4:41 AM", 281), ("00:00", 0), ("23:59", 1439),
    ])
    func clockTimes(text: String, minutes: Int) {
        #expect(ClockTime.minutes(text) == minutes)
        #expect(BARTParser.clock(text) == minutes)
    }

    @Test(arguments: ["13:00 PM", "25:00", "6:4 PM", "6:04 XM", "", "noon", "0:00 AM", "-1:00", "１２:00"])
    func badClockTimes(text: String) {
        #expect(ClockTime.minutes(text) == nil)
        #expect(BARTParser.clock(text) == nil)
    }

    @Test func isoCarriesTheOffsetOfThatDate() {
        let winter = LocalDate(year: 2026, month: 11, day: 23).instant(minutes: 18 * 60 + 4, in: BART.zone)
        #expect(ClockTime.iso8601(winter, zone: BART.zone) == "2026-11-23T18:04:00-08:00")
        let summer = LocalDate(year: 2026, month: 7, day: 1).instant(minutes: 18 * 60 + 4, in: BART.zone)
        #expect(ClockTime.iso8601(summer, zone: BART.zone) == "2026-07-01T18:04:00-07:00")
        #expect(ClockTime.hhmm(summer, zone: BART.zone) == "18:04")
        let shanghai = TimeZone(identifier: "Asia/Shanghai")!
        #expect(ClockTime.iso8601(summer, zone: shanghai) == "2026-07-02T09:04:00+08:00")
    }

    /// The remembered offset is the zone's own at every instant: zones whose standard offset
    /// moved (Moscow 2011 and 2014, Apia's skipped day in 2011, Pyongyang's half hour in 2015,
    /// Caracas, Lisbon, Casablanca's Ramadan switches, Lord Howe's half-hour summer time, Kiritimati
    /// jumping a day), one memo asked in turn about instants walking forward by seconds to days,
    /// jumping back, and a second either side of each transition.
    @Test func aRememberedOffsetIsTheZonesOwn() throws {
        let zones = try ["America/Los_Angeles", "Europe/Moscow", "Pacific/Apia", "Asia/Pyongyang", "America/Caracas", "Europe/Lisbon",
                         "Africa/Casablanca", "Australia/Lord_Howe", "Pacific/Kiritimati", "Asia/Kolkata", "UTC"].map { try #require(TimeZone(identifier: $0)) }
        var memo = ZoneOffsets(), generator = SplitMix(seed: 32), checked = 0, transitions = 0
        for zone in zones {
            var t = Date(timeIntervalSince1970: -2_208_988_800)  // 1900
            let end = Date(timeIntervalSince1970: 2_208_988_800)  // 2040
            while t < end {
                #expect(memo.seconds(at: t, in: zone) == zone.secondsFromGMT(for: t), "\(zone.identifier) \(t)")
                checked += 1
                if let next = zone.nextDaylightSavingTimeTransition(after: t), next < end, Int.random(in: 0..<4, using: &generator) == 0 {
                    transitions += 1
                    for instant in [next.addingTimeInterval(-1), next, next.addingTimeInterval(1)] {
                        #expect(memo.seconds(at: instant, in: zone) == zone.secondsFromGMT(for: instant), "\(zone.identifier) \(instant)")
                    }
                    // Another zone between: the memo follows whichever zone it is asked about.
                    #expect(memo.seconds(at: next, in: zones[(transitions) % zones.count]) == zones[transitions % zones.count].secondsFromGMT(for: next))
                }
                let step = Double(Int.random(in: 1...(3 * 86_400), using: &generator)) * (Int.random(in: 0..<10, using: &generator) == 0 ? -0.5 : 40)
                t = t.addingTimeInterval(step)
            }
        }
        #expect(checked > 5_000 && transitions > 300, "\(checked) instants, \(transitions) transitions")
    }

    @Test func minutesPastMidnightLandOnTheNextDay() {
        let day = LocalDate(year: 2026, month: 11, day: 23)
        let late = day.instant(minutes: 1440 + 27, in: BART.zone)
        #expect(ClockTime.iso8601(late, zone: BART.zone) == "2026-11-24T00:27:00-08:00")
    }

    @Test func parsesPinnedClock() {
        let date = ClockTime.parseISO8601("2026-11-22T20:00:00Z")
        #expect(date.map { ClockTime.iso8601($0, zone: BART.zone) } == "2026-11-22T12:00:00-08:00")
        #expect(ClockTime.parseISO8601("2026-11-22T12:00:00-08:00") == date)
        #expect(ClockTime.parseISO8601("2026-11-22") == nil)
    }
}
