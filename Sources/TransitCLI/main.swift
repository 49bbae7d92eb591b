import Foundation
import TransitCore
import TransitSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Ctrl-C: end at once with 130, also mid-request or mid-watch; clear a spinner line first.
// The files being written go first (a download, a compiled feed not yet in place): past this
// point no `defer` runs. SIGTERM and SIGHUP end the same way, with 128 + the signal.
signal(SIGINT) { _ in
    TemporaryFiles.removeAll()
    if isatty(2) != 0 {
        let clear: [UInt8] = [13, 27, 91, 75]  // "\r\e[K"
        _ = clear.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count) }
    }
    _exit(130)
}
signal(SIGTERM) { _ in
    TemporaryFiles.removeAll()
    _exit(143)
}
signal(SIGHUP) { _ in
    TemporaryFiles.removeAll()
    _exit(129)
}
// A reader that went away (`| head -1`) is a write that fails with EPIPE, answered below with
// exit 1 (the contract's closed stdout), not a death by SIGPIPE (141) that nothing explains.
signal(SIGPIPE, SIG_IGN)

/// A standard descriptor that was closed when transit started is held by /dev/null, so that no
/// file transit opens later can take its number (and receive its output); writing to it then
/// reports the failure instead.
func holdIfClosed(_ fd: Int32) -> Bool {
    guard fcntl(fd, F_GETFD) == -1 && errno == EBADF else { return false }
    let null = open("/dev/null", O_RDWR)
    if null >= 0 && null != fd { dup2(null, fd); close(null) }
    return true
}
_ = holdIfClosed(0)
let stdoutClosed = holdIfClosed(1)
let stderrClosed = holdIfClosed(2)

/// Writes all of `text` to `fd`; the errno of a failed write, or 0.
func writeAll(_ fd: Int32, _ text: String) -> Int32 {
    // The string's own bytes, not a copy of them (a whole day's JSON is 15 MB).
    var text = text
    return text.withUTF8 { writeAll(fd, UnsafeRawBufferPointer($0)) }
}

func writeAll(_ fd: Int32, _ raw: UnsafeRawBufferPointer) -> Int32 {
    guard var base = raw.baseAddress else { return 0 }
    var left = raw.count
    while left > 0 {
        let n = write(fd, base, left)
        if n < 0 {
            if errno == EINTR { continue }
            return errno
        }
        left -= n
        base += n
    }
    return 0
}

/// Standard output, as text or bytes: a reader that went away (EPIPE) ends transit with exit
/// 1, quietly (the reader chose to stop: `| head` would otherwise print an error under every
/// pipeline); any other failure is one line on stderr and exit 1.
func writeOut(_ write: () -> Int32) {
    TemporaryFiles.holdIfEnding()
    let failure = stdoutClosed ? EBADF : write()
    guard failure != 0 else { return }
    if failure == EPIPE { _exit(1) }
    if !stderrClosed { _ = writeAll(2, "transit: cannot write the output: \(String(cString: strerror(failure)))\n") }
    _exit(1)
}

// Output goes through write(2), never FileHandle (whose write traps on a closed or full
// stdout): a reader that went away (EPIPE) ends transit quietly with 1;
// any other failure is one line on stderr and exit 1, or a quiet exit 1 when stderr is gone too.
let app = App(terminal: Terminal(stdout: isatty(1) != 0, stderr: isatty(2) != 0), commit: buildCommit,
              writeOut: { text in writeOut { writeAll(1, text) } },
              writeOutBytes: { bytes in writeOut { writeAll(1, bytes) } },
              writeErr: { text in
                  TemporaryFiles.holdIfEnding()
                  if !stderrClosed { _ = writeAll(2, text) }
              })
// Help, --version, a completion script and usage errors are answered here, synchronously:
// no task, no thread pool. Only a command starts the async machinery.
switch app.prepare(Array(CommandLine.arguments.dropFirst()), environment: .process) {
case .exit(let status):
    TemporaryFiles.holdIfEnding()
    _exit(status)
case let step:
    // Detached: the status is handed over where the command finished, with no hop back to the
    // main thread. _exit, not exit: every byte went out through write(2) already, and the
    // atexit and static destructors of the runtime and the libraries cost a millisecond.
    let runner = app
    Task.detached {
        let status = await runner.finish(step)
        TemporaryFiles.holdIfEnding()
        _exit(status)
    }
    dispatchMain()
}
