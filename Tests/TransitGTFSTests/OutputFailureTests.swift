import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

/// Writing stdout can fail: a full disk, a closed descriptor, a reader gone with SIGPIPE ignored.
/// Each ends in one line (or none) and a status, never a trap. Run through bash, as users do.
@Suite struct OutputFailureTests {
    func shell(_ script: String) async throws -> Run {
        let env = Run.environment(["TRANSIT_BIN": Run.binary, "TRANSIT_FIXTURES": Paths.fixtures])
        return try await Run.transitLike(["/bin/bash", "-c", script], env: env)
    }

    @Test func aFullDiskIsExitOneWithOneLine() async throws {
        let run = try await shell("\"$TRANSIT_BIN\" --offline bart stations > /dev/full; echo \"status $?\" >&2")
        #expect(run.stderrLines == ["transit: cannot write the output: No space left on device", "status 1"])
    }

    @Test func aClosedStdoutIsExitOneAndClosedStderrTooIsQuiet() async throws {
        let closed = try await shell("\"$TRANSIT_BIN\" --offline bart stations >&-; echo \"status $?\" >&2")
        #expect(closed.stderrLines == ["transit: cannot write the output: Bad file descriptor", "status 1"])
        let both = try await shell("( \"$TRANSIT_BIN\" --offline bart stations >&- 2>&- ); echo \"status $?\"")
        #expect(both.stdoutLines == ["status 1"] && both.stderr == "")
    }

    /// The contract's closed stdout is exit 1: a reader that went away too (it was a death by
    /// SIGPIPE, 141, with nothing said; issue 62), whether the shell ignores SIGPIPE or not.
    /// Quiet: the reader chose to stop. The reader (`true`) is gone before transit writes.
    @Test func aReaderThatWentAwayIsQuietExitOne() async throws {
        for trap in ["trap '' PIPE; ", ""] {
            let run = try await shell(trap + "{ sleep 0.5; \"$TRANSIT_BIN\" --offline bart stations; } | true; echo \"status ${PIPESTATUS[0]}\" >&2")
            #expect(run.stderrLines == ["status 1"], "\(trap) \(run.stderr)")
        }
    }
}
