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
