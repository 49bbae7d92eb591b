import Foundation
import Testing
import TransitSupport

/// Issue 44, item 7: long work says how far it is, on a terminal only. An import of a dense
/// feed made as the benchmark makes dense81 (BART 2022's trips copied 8 times, 500 k stop_times:
/// a tenth of dense81, seconds in a debug build) on a pseudo-terminal draws the compile's steps
/// and the stop_times read, with a bar, at most ten lines a second, and clears its line;
/// piped, stderr holds no progress at all.
@Suite struct ImportProgressTests {
    static let feed: String? = {
        let out = Paths.temporary() + "/dense8"
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        make.arguments = ["python3", Paths.root.appendingPathComponent("scripts/make-dense-gtfs.py").path,
                          Reference.path("realdata/bart_gtfs/gtfs-lite_2022/unz"), out, "8", "7"]
        guard (try? make.run()) != nil else { return nil }
        make.waitUntilExit()
        return make.terminationStatus == 0 ? out : nil
    }()

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func anImportOnATerminalSaysHowFarItIs() async throws {
        let feed = try #require(Self.feed, "scripts/make-dense-gtfs.py made no feed (python3?)")
        let env = Run.environment(["TRANSIT_CACHE_DIR": Paths.temporary()])
        let shown = try await Run.inTerminal(["gtfs", "import", feed, "--name", "dense"], env: env, columns: 80, descriptor: 2)
        #expect(shown.status == 0, "\(shown.stderr)")
        let lines = shown.stderr.components(separatedBy: "\r\u{1B}[K").filter { !$0.isEmpty }
        #expect(lines.contains { $0.contains("compiling dense: stop times [") && $0.hasSuffix(" k rows") }, "\(lines)")
        #expect(lines.contains { $0.contains("compiling dense: ") && $0.contains("(step ") }, "\(lines)")
        #expect(lines.allSatisfy { TextWidth.of($0) <= 79 }, "\(lines)")
        // Ten a second at most (and the first after 100 ms), the line cleared at the end.
        #expect(Double(lines.count) <= shown.seconds * 10 + 1, "\(lines.count) lines in \(shown.seconds) s")
        #expect(shown.stderr.hasSuffix("\r\u{1B}[K"), "\(shown.stderr.suffix(80))")
        // A terminal narrower than 10 columns: no progress line (cut to one column, it wrapped
        // into 41 rows a frame; issue 62).
        let narrow = try await Run.inTerminal(["gtfs", "import", feed, "--name", "narrow"], env: env, columns: 1, descriptor: 2)
        #expect(narrow.status == 0 && !narrow.stderr.contains("\r") && !narrow.stderr.contains("stop times"), "\(narrow.stderr.prefix(300))")
        // Piped: the summary on stdout, and no progress on stderr.
        let piped = try await Run.transit(["gtfs", "import", feed, "--name", "again"], env: env)
        #expect(piped.status == 0 && piped.stdout.hasPrefix("again\t") && !piped.stderr.contains("\r") && !piped.stderr.contains("stop times"),
                "\(piped.stderr)")
    }
}
