import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files this process is writing and must not leave behind: a download being compiled, a
/// compiled feed not yet renamed into place. Removed by their writer on every path out, and by
/// `removeAll()` from the Ctrl-C and SIGTERM handlers, which end the process at once (past any
/// `defer`). A file left by a process killed outright (SIGKILL, a power cut) carries its pid in
/// its name (`name(_:)`), so that the next writer can tell it from a live one's and sweep it.
public enum TemporaryFiles {
    private static let slots = 32
    /// C strings a signal handler can read without allocating: each slot is set or cleared by
    /// one pointer store, under `lock` (which a handler never takes).
    nonisolated(unsafe) private static let paths: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let p = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: slots)
        p.initialize(repeating: nil, count: slots)
        return p
    }()
    private static let lock = NSLock()

    /// `.PREFIX-PID-UUID`: a temporary's name in a directory others write too.
    public static func name(_ prefix: String, suffix: String = "") -> String {
        ".\(prefix)-\(getpid())-\(UUID().uuidString)\(suffix)"
    }

    /// The pid in a name made by `name(_:)`; nil for any other name.
    public static func owner(of name: String, prefix: String) -> pid_t? {
        guard name.hasPrefix(".\(prefix)-") else { return nil }
        let rest = name.dropFirst(prefix.count + 2)
        guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]), pid > 0 else { return nil }
        return pid
    }

    /// Whether the process `pid` is gone (signal 0 reaches no process).
    public static func isGone(_ pid: pid_t) -> Bool { kill(pid, 0) != 0 && errno == ESRCH }

    /// Registers `path` for removal at a signal; returns the token `forget` takes.
    @discardableResult
    public static func register(_ path: String) -> Int? {
        lock.withLock {
            for slot in 0..<slots where paths[slot] == nil {
                paths[slot] = strdup(path)
                return slot
            }
            return nil
        }
    }

    /// The file is gone or kept under its final name: no longer removed at a signal.
    public static func forget(_ token: Int?) {
        guard let token, token >= 0, token < slots else { return }
        lock.withLock {
            let old = paths[token]
            paths[token] = nil
            free(old)
        }
    }

    /// Set by a signal handler before it removes the files and ends the process: another thread
    /// that would find them gone and end with its own status and message waits instead
    /// (`holdIfEnding`), so that the signal's status is the process's.
    nonisolated(unsafe) public static var ending: sig_atomic_t = 0

    /// On a thread about to write or exit: never returns while a signal handler ends the process.
    public static func holdIfEnding() {
        while ending != 0 { pause() }
    }

    /// From a signal handler: unlinks every registered file (unlink is async-signal-safe).
    public static func removeAll() {
        ending = 1
        for slot in 0..<slots {
            if let path = paths[slot] { unlink(path) }
        }
    }
}
