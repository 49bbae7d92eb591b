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

    @Test func progressBarWithAndWithoutATotal() {
        #expect(ProgressBar.text(0, of: 4 << 20) == "[--------------------] 0% 0.0 of 4.0 MB")
        #expect(ProgressBar.text(3 << 20, of: 4 << 20) == "[###############-----] 75% 3.0 of 4.0 MB")
        #expect(ProgressBar.text(5 << 20, of: 4 << 20) == "[####################] 100% 5.0 of 4.0 MB")
        #expect(ProgressBar.text(1_572_864, of: nil) == "1.5 MB")
        #expect(ProgressBar.text(10, of: 0) == "0.0 MB")
    }
}
