import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport

final class Captured: @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""
    func append(_ s: String) { lock.withLock { text += s } }
    var value: String { lock.withLock { text } }
}

@Suite struct SpinnerTests {
    @Test func nothingWhenDisabledOrQuick() async throws {
        let out = Captured()
        let off = Spinner(enabled: false, write: out.append)
        off.show("fetching")
        try await Task.sleep(nanoseconds: 300_000_000)
        off.stop()
        let quick = Spinner(enabled: true, write: out.append)
        quick.show("fetching")
        quick.stop()  // done before the ~100 ms grace
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(out.value == "")
    }

    @Test func framesThenACleanLine() async throws {
        let out = Captured()
        let spinner = Spinner(enabled: true, write: out.append)
        spinner.show("fetching BART stations")
        try await Task.sleep(nanoseconds: 800_000_000)
        spinner.show("3 departures so far")
        try await Task.sleep(nanoseconds: 500_000_000)
        spinner.stop()
        let text = out.value
        #expect(text.hasPrefix("\r\u{1B}[K"))
        #expect(text.contains("fetching BART stations") && text.contains("3 departures so far"))
        #expect(text.hasSuffix("\r\u{1B}[K"))  // the line is cleared, stdout starts clean
    }

    /// Issue 44, item 7: how far the work is, after what it is; cut to the terminal; at most ten
    /// lines a second.
    @Test func theDetailFollowsTheWorkAndTheLineFitsTheTerminal() async throws {
        let out = Captured()
        let spinner = Spinner(enabled: true, columns: 40, write: out.append)
        let started = Date()
        spinner.show("compiling dense81")
        spinner.detail(ProgressBar.text(.rows(1_234_567, fraction: 0.25)))
        try await Task.sleep(nanoseconds: 1_050_000_000)
        spinner.stop()
        // On a busy machine the sleep may last far longer: the bound is the time it took.
        let seconds = Date().timeIntervalSince(started)
        let lines = out.value.components(separatedBy: "\r\u{1B}[K").filter { !$0.isEmpty }
        #expect(lines.first?.hasPrefix("⠋ compiling dense81: stop times [#####…") == true, "\(lines)")
        #expect(lines.allSatisfy { TextWidth.of($0) <= 39 }, "\(lines)")
        // 100 ms before the first, then one each 100 ms at most: ten a second.
        #expect(lines.count >= 1 && Double(lines.count) <= seconds * 10, "\(lines.count) lines in \(seconds) s")
        #expect(Spinner.line("compiling bart", "", frame: "⠋", columns: nil) == "⠋ compiling bart")
    }

    @Test func importProgressInWords() {
        #expect(ProgressBar.text(.step("stop times", index: 8, steps: 11)) == "stop times (step 9 of 11)")
        #expect(ProgressBar.text(.rows(1_234_567, fraction: 0.25)) == "stop times [#####---------------] 25% 1.2 M rows")
        #expect(ProgressBar.text(.rows(65_536, fraction: nil)) == "stop times 65 k rows")
        #expect(ProgressBar.text(.map(read: 3 << 20, of: 12 << 20)) == "the map [#####---------------] 25% 3.0 of 12.0 MB")
    }

    /// A download's rate: none in its first half second, then bytes since the first report
    /// over the time since; another download starts again.
    @Test func aTransferRateIsMeasuredFromItsFirstReport() {
        let rate = TransferRate(), start = Date(timeIntervalSince1970: 1_000)
        #expect(rate.perSecond("feed.zip", 0, now: start) == nil)
        #expect(rate.perSecond("feed.zip", 1 << 20, now: start.addingTimeInterval(0.2)) == nil)
        #expect(rate.perSecond("feed.zip", 4 << 20, now: start.addingTimeInterval(2)) == Double(2 << 20))
        #expect(rate.perSecond("other.zip", 1 << 20, now: start.addingTimeInterval(3)) == nil)
        #expect(ProgressBar.text(3 << 20, of: 4 << 20, perSecond: Double(2 << 20)) == "[###############-----] 75% 3.0 of 4.0 MB 2.0 MB/s")
    }

    @Test func progressBarWithAndWithoutATotal() {
        #expect(ProgressBar.text(0, of: 4 << 20) == "[--------------------] 0% 0.0 of 4.0 MB")
        #expect(ProgressBar.text(3 << 20, of: 4 << 20) == "[###############-----] 75% 3.0 of 4.0 MB")
        #expect(ProgressBar.text(5 << 20, of: 4 << 20) == "[####################] 100% 5.0 of 4.0 MB")
        #expect(ProgressBar.text(1_572_864, of: nil) == "1.5 MB")
        #expect(ProgressBar.text(10, of: 0) == "0.0 MB")
    }
}
