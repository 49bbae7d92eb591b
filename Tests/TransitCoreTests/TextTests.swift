import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport

/// The small text helpers that replaced Foundation calls on the start-up path.
@Suite struct TextTests {
    @Test func trimmingMatchesFoundation() {
        let samples = ["", "   ", "a", " a ", "\t\r\n a b \n", "\u{00A0}Montréal\u{2003}", "24TH", " 北京南 ", "\u{FEFF}x", "a\u{0301} ", "\u{200B}z\u{200B}"]
        for sample in samples {
            #expect(sample.trimmedSpace() == sample.trimmingCharacters(in: .whitespacesAndNewlines), "\(sample.debugDescription)")
        }
        #expect("  x y  "[...].trimmedSpace() == "x y")
        // Without newlines: Foundation's `.whitespaces` (Unicode's Zs, the tab and U+200B), as every
        // option value and environment variable is trimmed.
        let kept = samples + ["\n24TH\n", "\t 12TH \r", "\u{3000}北京\u{3000}", "\u{2028}x\u{2029}", "\u{0085}y\u{000B}", "\u{1680}z\u{202F}", "\u{200B}w"]
        for sample in kept {
            #expect(sample.trimmedSpace(newlines: false) == sample.trimmingCharacters(in: .whitespaces), "\(sample.debugDescription)")
        }
        #expect("\n a \n".trimmedSpace(newlines: false) == "\n a \n")
        // Every scalar either side calls white space, around a letter.
        for v in 0..<0x30000 {
            guard let scalar = Unicode.Scalar(v), CharacterSet.whitespacesAndNewlines.contains(scalar) || scalar.properties.isWhitespace else { continue }
            let sample = "\(scalar)a\(scalar)"
            #expect(sample.trimmedSpace() == sample.trimmingCharacters(in: .whitespacesAndNewlines), "U+\(String(v, radix: 16))")
            #expect(sample.trimmedSpace(newlines: false) == sample.trimmingCharacters(in: .whitespaces), "U+\(String(v, radix: 16))")
        }
    }

    @Test func percentEncodingMatchesFoundation() {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        allowed.insert(charactersIn: "-._~:/,")
        for sample in ["MW9S-E7SL-26DU-VV8V", "a b+c&d=e", "北京 南", "é/~,:", "100%", ""] {
            #expect(HTTPRequest.encode(sample) == sample.addingPercentEncoding(withAllowedCharacters: allowed), "\(sample)")
        }
    }

    @Test func asciiNamesNormalizeAsFoundationFoldsThem() {
        let printable = String((32..<127).map { Character(Unicode.Scalar(UInt8($0))) })
        for sample in ["24th St. Mission", "San Francisco Int'l Airport", "  MacArthur--BART ", printable, "", "''", "O'Hare/Kennedy (Blue)"] {
            #expect(NameMatcher<Int>.normalize(sample) == NameMatcher<Int>.unicodeNormalize(sample), "\(sample)")
        }
        #expect(NameMatcher<Int>.normalize("Montréal–Trudeau") == "montreal trudeau")
    }

    /// `LocalDate.instant(minutes:in:)` is arithmetic now; Calendar is the reference it must
    /// agree with, minute by minute through days when clocks change, and across the year.
    @Test func instantsAgreeWithCalendar() throws {
        for id in ["America/Los_Angeles", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Shanghai", "America/Santiago", "Pacific/Apia"] {
            let zone = try #require(TimeZone(identifier: id))
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            func reference(_ date: LocalDate, _ minutes: Int) -> Date? {
                let days = minutes >= 0 ? minutes / 1440 : -((-minutes + 1439) / 1440)
                let day = date.adding(days: days), rest = minutes - days * 1440
                return calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: rest / 60, minute: rest % 60))
            }
            let start = LocalDate(year: 2026, month: 1, day: 1)
            for day in 0..<366 {
                let date = start.adding(days: day)
                // Every minute of a day whose offset changes; a few minutes of the others.
                let changes = zone.secondsFromGMT(for: date.instant(minutes: 0, in: zone)) != zone.secondsFromGMT(for: date.instant(minutes: 1440, in: zone))
                for minutes in changes ? Array(stride(from: -60, through: 1500, by: 1)) : [0, 179, 600, 1439, 1500] {
                    #expect(date.instant(minutes: minutes, in: zone) == reference(date, minutes), "\(id) \(date.iso) +\(minutes) min")
                }
            }
        }
    }
}
