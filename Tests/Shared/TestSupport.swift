import CZlib
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import TransitSupport

/// The reference pack: real API captures, real feeds and peers' cases with their answers, written
/// by other people and read where they live, never copied into this repository:
/// `$TRANSIT_REFERENCE` if set, else `../shared/reference` beside the checkout. A test that
/// reads it carries `.enabled(if: Reference.isPresent, Reference.absent)`, so that without the
/// pack it is reported as skipped, with the reason, rather than passed.
/// Which file each test reads: Tests/REFERENCE.md.
enum Reference {
    static let root: URL = {
        if let set = ProcessInfo.processInfo.environment["TRANSIT_REFERENCE"], !set.isEmpty { return URL(fileURLWithPath: set) }
        return Paths.root.deletingLastPathComponent().appendingPathComponent("shared/reference")
    }()

    static let isPresent: Bool = {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: root.path, isDirectory: &directory) && directory.boolValue
    }()

    static let absent: Comment = "reads the reference pack, absent here: set TRANSIT_REFERENCE or put ../shared/reference beside the checkout"

    /// A file or folder of the pack, by its path there (`bart/samples/bsa-delay-2013.xml`).
    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    static func data(_ relative: String) throws -> Data { try Data(contentsOf: root.appendingPathComponent(relative)) }
}

enum Paths {
    /// The python3 the fixture and catalog scripts run with, where there is one.
    static let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The package root: the nearest folder above this file that holds Package.swift (the file
    /// is compiled into each test target through its `Shared` link, so its depth varies).
    static let root: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            folder = folder.deletingLastPathComponent()
        }
        return folder
    }()
    static let fixtures = root.appendingPathComponent("Fixtures").path

    /// A fresh empty directory.
    /// Test runs leave their directories for a look after a failure; the ones older than an
    /// hour go when the next run makes its first.
    static let sweptOldRuns: Bool = {
        let base = NSTemporaryDirectory()
        let old = Date().addingTimeInterval(-3600)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [] where name.hasPrefix("transit-tests-") {
            let path = base + name
            if let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date, modified < old {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
        return true
    }()

    static func temporary() -> String {
        _ = sweptOldRuns
        let path = NSTemporaryDirectory() + "transit-tests-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// Runs the built `transit` binary the way a script does: no terminal, given environment.
struct Run {
    /// The exit status, or 128 + the signal that ended it (as a shell says it).
    var status: Int32
    var stdout: String
    var stderr: String
    var seconds: Double
    /// The signal that ended it, 0 when it exited (so that an exit of 130 from a handler tells
    /// apart from a death by SIGINT, which a shell also reports as 130).
    var signal: Int32 = 0
    /// Processor time it took, user and system (the child's own `rusage`, from wait4).
    var cpuSeconds: Double = 0

    static var binary: String {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return exe.deletingLastPathComponent().appendingPathComponent("transit").path
    }

    /// A quiet, hermetic environment: its own cache, the clock pinned, short retry pauses.
    static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        let tmp = Paths.temporary()
        var env = ["PATH": "/usr/bin:/bin", "HOME": tmp, "TRANSIT_CACHE_DIR": tmp + "/cache",
                   "TRANSIT_NOW": "2026-11-22T20:00:00Z", "TRANSIT_RETRY_DELAY_MS": "10",
                   "TRANSIT_FIXTURES": Paths.fixtures]
        for (k, v) in extra { env[k] = v }
        return env
    }

    /// `environment()` with a provider's variables (a server's base URL, a key), then the test's
    /// own on top: what each end-to-end suite runs the binary with.
    static func environment(_ provider: [String: String], _ extra: [String: String]) -> [String: String] {
        environment(provider.merging(extra) { $1 })
    }

    /// Spawns with posix_spawn and reaps with waitpid: Foundation's Process can miss the
    /// child's exit when many run at once (a zombie and a hung waitUntilExit, seen here).
    /// Async, and the blocking spawn-and-wait runs on a thread of its own: Swift Testing runs
    /// tests on the cooperative pool (two threads here), and a blocked pool stalls every
    /// in-process async test beside it (seen as 3–5 s stalls and false timeouts).
    static func transit(_ args: [String], env: [String: String] = environment(), interruptAfter: Double? = nil) async throws -> Run {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try blockingTransit(args, env: env, interruptAfter: interruptAfter) })
            }
            thread.start()
        }
    }

    /// Sends `signal` as soon as `when` holds (polled every 5 ms, for at most 60 s): a signal at
    /// a moment of the run, not after a guessed delay.
    static func transit(_ args: [String], env: [String: String], signal: Int32, when: @escaping @Sendable () -> Bool) async throws -> Run {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try blockingTransit(args, env: env, interruptAfter: nil, signal: (signal, when)) })
            }
            thread.start()
        }
    }

    /// The binary under an address-space limit (RLIMIT_AS, `ulimit -v`; the audits ask for 1 GB): an
    /// input that would need more is refused or killed, never served by the machine's 24 GB.
    /// `cpuSeconds`: a limit of processor time too (RLIMIT_CPU, `ulimit -t`: killed past it), a
    /// bound on work that a busy machine does not move, as a wall clock would.
    static func transit(_ args: [String], env: [String: String], addressSpace bytes: Int, cpuSeconds: Int? = nil) async throws -> Run {
        let cpu = cpuSeconds.map { "ulimit -t \($0) && " } ?? ""
        return try await transitLike(["/bin/bash", "-c", "ulimit -v \(bytes >> 10) && \(cpu)exec \"$0\" \"$@\"", binary] + args, env: env)
    }

    /// Any program, with the same capture (a shell running `transit`, say).
    static func transitLike(_ argv: [String], env: [String: String]) async throws -> Run {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try blockingTransit(Array(argv.dropFirst()), env: env, interruptAfter: nil, program: argv.first) }) }
            thread.start()
        }
    }

    /// The binary with stdout (`descriptor` 1) or stderr (2) on a pseudo-terminal of `columns`
    /// columns, as a rider's terminal is: the other goes to a file as usual. What the terminal
    /// received is that stream's text (the terminal's own line-ending translation turned off).
    static func inTerminal(_ args: [String], env: [String: String], columns: Int, descriptor: Int32 = 1) async throws -> Run {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result {
                    try blockingTransit(args, env: env, interruptAfter: nil, terminal: (descriptor, columns))
                })
            }
            thread.start()
        }
    }

    static func blockingTransit(_ args: [String], env: [String: String], interruptAfter: Double?, program: String? = nil,
                                signal: (number: Int32, when: () -> Bool)? = nil, terminal: (descriptor: Int32, columns: Int)? = nil) throws -> Run {
        let binary = program ?? Self.binary
        let dir = Paths.temporary()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/out", err = dir + "/err"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let screen = try terminal.map { try PseudoTerminal(columns: $0.columns) }
        if let terminal, let screen {
            posix_spawn_file_actions_adddup2(&actions, screen.follower, terminal.descriptor)
            posix_spawn_file_actions_addclose(&actions, screen.follower)
            posix_spawn_file_actions_addclose(&actions, screen.leader)
        }
        let argv = ([binary] + args).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let started = Date()
        let rc = posix_spawn(&pid, binary, &actions, nil, argv, envp)
        guard rc == 0 else { throw NSError(domain: "spawn", code: Int(rc)) }
        // The child holds the terminal now: what it writes is read until it closes it.
        screen?.startReading()
        if let interruptAfter {
            Thread.sleep(forTimeInterval: interruptAfter)
            kill(pid, SIGINT)
        }
        var status: Int32 = 0, reaped = false, usage = rusage()
        if let signal {
            var waited = 0.0
            // Until the condition holds, or the process ended without it.
            while !signal.when() && waited < 60 {
                if wait4(pid, &status, WNOHANG, &usage) == pid { reaped = true; break }
                Thread.sleep(forTimeInterval: 0.005)
                waited += 0.005
            }
            if !reaped { kill(pid, signal.number) }
        }
        while !reaped && wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        let seconds = Date().timeIntervalSince(started)
        // WIFEXITED / WEXITSTATUS, spelled out (the macros are not imported).
        let exitStatus: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        var stdout = String(decoding: FileManager.default.contents(atPath: out) ?? Data(), as: UTF8.self)
        var stderr = String(decoding: FileManager.default.contents(atPath: err) ?? Data(), as: UTF8.self)
        if let terminal, let screen {
            let shown = String(decoding: screen.received(), as: UTF8.self)
            if terminal.descriptor == 1 { stdout = shown } else { stderr = shown }
        }
        return Run(status: exitStatus, stdout: stdout, stderr: stderr, seconds: seconds, signal: status & 0x7f, cpuSeconds: cpu)
    }

    var stdoutLines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }

    /// stdout as `--format json` writes a list: one object per row (a failure says stderr).
    func records() throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [[String: Any]], "\(stderr)")
    }
    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
}

/// A pseudo-terminal pair: the leader end read by the test, the follower end handed to the
/// child as its stdout or stderr, sized `columns` × 24 and with output translation off (so
/// `\n` stays `\n`).
final class PseudoTerminal: @unchecked Sendable {
    let leader: Int32, follower: Int32
    private var bytes: [UInt8] = []
    private let done = DispatchSemaphore(value: 0)

    init(columns: Int) throws {
        // posix_openpt, grantpt, unlockpt and ptsname as Linux spells them (Glibc's module does
        // not declare them): /dev/ptmx, TIOCSPTLCK to unlock, TIOCGPTN for the number.
        leader = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0, number: UInt32 = 0
        guard leader >= 0, ioctl(leader, UInt(0x4004_5431), &unlock) == 0, ioctl(leader, UInt(0x8004_5430), &number) == 0 else {
            throw NSError(domain: "pty", code: Int(errno))
        }
        follower = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard follower >= 0 else { throw NSError(domain: "pty", code: Int(errno)) }
        var size = winsize(ws_row: 24, ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(follower, UInt(TIOCSWINSZ), &size)
        var settings = termios()
        tcgetattr(follower, &settings)
        settings.c_oflag &= ~tcflag_t(OPOST)
        tcsetattr(follower, TCSANOW, &settings)
    }

    /// Reads the leader end on a thread of its own (a full terminal would block the child)
    /// until every follower is closed; the test's own copy is closed here.
    func startReading() {
        close(follower)
        let thread = Thread { [self] in
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(leader, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                bytes.append(contentsOf: chunk[0..<n])
            }
            close(leader)
            done.signal()
        }
        thread.start()
    }

    /// Everything the child wrote to the terminal (after it exited).
    func received() -> [UInt8] {
        done.wait()
        return bytes
    }
}

/// Which case of `TransitError` a call threw (`parse`, `usage`, `http`…), nil when it did not
/// throw: tests check the case, not just the type.
func errorKind<T>(_ body: () throws -> T) -> String? {
    do { _ = try body(); return nil } catch let error as TransitError { return error.kind } catch { return "not a TransitError: \(error)" }
}

func asyncErrorKind<T>(_ body: () async throws -> T) async -> String? {
    do { _ = try await body(); return nil } catch let error as TransitError { return error.kind } catch { return "not a TransitError: \(error)" }
}

extension TransitError {
    var kind: String {
        switch self {
        case .usage: return "usage"
        case .notFound: return "notFound"
        case .ambiguous: return "ambiguous"
        case .network: return "network"
        case .timeout: return "timeout"
        case .slow: return "slow"
        case .http: return "http"
        case .unexpectedContent: return "unexpectedContent"
        case .api: return "api"
        case .parse: return "parse"
        case .write: return "write"
        case .missingKey: return "missingKey"
        case .noRecording: return "noRecording"
        case .refused: return "refused"
        case .doesNotHold: return "doesNotHold"
        }
    }
}

/// Runs seconds of blocking work (a debug-built parser over megabytes, the fuzz loop) on a
/// thread of its own: Swift Testing runs tests on the cooperative pool, two threads here, and
/// a test that holds one for seconds delays every in-process network test beside it into
/// false timeouts.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.stackSize = 8 << 20
        thread.start()
    }
}

/// zlib's deflate over `data` in one call: `.raw` as zip entries hold it, `.gzip` as an HTTP
/// body with `Content-Encoding: gzip` does, `.zlib` as a PBF blob does.
enum DeflateFormat { case raw, gzip, zlib }

func compress(_ data: Data, format: DeflateFormat) -> Data? {
    var stream = z_stream()
    let windowBits = format == .raw ? -MAX_WBITS : format == .zlib ? MAX_WBITS : MAX_WBITS + 16
    guard deflateInit2_(&stream, 9, Z_DEFLATED, windowBits, 9, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
    defer { deflateEnd(&stream) }
    var input = [UInt8](data)
    var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 64)
    let status: Int32 = input.withUnsafeMutableBufferPointer { inBuffer in
        output.withUnsafeMutableBufferPointer { outBuffer in
            stream.next_in = inBuffer.baseAddress
            stream.avail_in = uInt(inBuffer.count)
            stream.next_out = outBuffer.baseAddress
            stream.avail_out = uInt(outBuffer.count)
            return deflate(&stream, Z_FINISH)
        }
    }
    guard status == Z_STREAM_END else { return nil }
    return Data(output.prefix(Int(stream.total_out)))
}
