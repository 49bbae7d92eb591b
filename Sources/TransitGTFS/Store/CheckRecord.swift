import Foundation
import TransitSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A note, beside a file of the cache, that the file was read whole and found sound (its
/// checksum, and for a timetable every index the router follows): the next load that finds the
/// same file (`FileIdentity`: the same inode, size and change time) skips reading it whole.
///
/// Why: a compiled feed is mapped, and a query touches the pages it needs; checking 858 MB at
/// every load (a 50-million-stop_time feed) cost 150 ms and put the whole file in memory for a
/// one-hour query that reads a few megabytes. What it gives up: damage the file system does not
/// see (a bit that rots on the disk under an unchanged inode) is found by `gtfs update`, which
/// always reads the file whole, not by the next query. Anything written to the file, by any
/// program, changes its change time, so the file is read whole again.
///
/// A note is written only when the file's last change is at least two seconds older than the
/// check: a change within the same tick of the file system's clock as the one the note
/// records would leave the change time as it was (the "racy" case git's index knows).
/// Written to a temporary file (named as `FeedStore.sweep` clears) and renamed, so a note is
/// whole or absent; a note that cannot be
/// written (a read-only cache) only means the next load checks again.
package enum CheckRecord {
    /// How the note says what it is; a check that changes (what `TimetableFile.validate`
    /// covers) changes `TimetableFile.version`, and with it every note.
    static var head: String { "transit-checked \(TimetableFile.version)" }
    static let racyWindow: Int64 = 2_000_000_000

    /// `dir/.name.checked` for `dir/name`.
    package static func path(for file: String) -> String {
        let directory = (file as NSString).deletingLastPathComponent
        return (directory as NSString).appendingPathComponent(".\((file as NSString).lastPathComponent).checked")
    }

    static func text(_ identity: FileIdentity) -> String {
        "\(head) \(identity.device) \(identity.inode) \(identity.size) \(identity.modified) \(identity.changed)\n"
    }

    /// Whether the note beside `path` names the file `identity` describes.
    package static func holds(for path: String, _ identity: FileIdentity) -> Bool {
        guard let file = try? ReadOnlyFile(Self.path(for: path)), file.size < 256,
              let bytes = try? file.bytes(at: 0, count: file.size, what: "the note") else { return false }
        return bytes.elementsEqual(text(identity).utf8)
    }

    /// Notes that the file `identity` describes was found sound, if its last change is old
    /// enough at `now` (nanoseconds since 1970); best effort.
    package static func record(for path: String, _ identity: FileIdentity, now: Int64 = wallClock()) {
        guard now &- identity.changed >= racyWindow else { return }
        let note = Self.path(for: path)
        let temporary = (((note as NSString).deletingLastPathComponent) as NSString).appendingPathComponent(TemporaryFiles.name("import"))
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        let bytes = Array(text(identity).utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard close(fd) == 0, written == bytes.count, rename(temporary, note) == 0 else { unlink(temporary); return }
    }

    /// Removes the note beside `path` (with the file it spoke of).
    package static func forget(_ path: String) { unlink(Self.path(for: path)) }

    package static func wallClock() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) &* 1_000_000_000 &+ Int64(now.tv_nsec)
    }
}

extension TimetableDamage {
    /// The error an answer read from a damaged file gives, once a check where a value is read
    /// found it, naming the field and how to mend the file (as a failed checksum does): the
    /// file's note is forgotten, so that the next load reads it whole and says so at once.
    package func refuse() throws(TransitError) {
        guard let field = damagedField else { return }
        guard !path.isEmpty else { throw .parse(what: "the timetable", reason: "the compiled timetable is damaged (\(field))") }
        CheckRecord.forget(path)
        let file = path as NSString, name = (file.lastPathComponent as NSString).deletingPathExtension
        let mend = (file.deletingLastPathComponent as NSString).lastPathComponent == ".combined"
            ? "it is combined again at the next query" : "compile it again from its source: transit gtfs update \(name)"
        throw .parse(what: path, reason: "the compiled feed is damaged (\(field)); \(mend)")
    }
}
