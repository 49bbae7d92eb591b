import Foundation
import Testing
@testable import TransitCore

/// The small text helpers that replaced Foundation calls on the start-up path.
@Suite struct TextTests {
    @Test func trimmingMatchesFoundation() {
        let samples = ["", "   ", "a", " a ", "\t\r\n a b \n", "\u{00A0}Montréal\u{2003}", "24TH", " 北京南 ", "\u{FEFF}x", "a\u{0301} "]
        for sample in samples {
            #expect(sample.trimmedSpace() == sample.trimmingCharacters(in: .whitespacesAndNewlines), "\(sample.debugDescription)")
        }
        #expect("  x y  "[...].trimmedSpace() == "x y")
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
}
