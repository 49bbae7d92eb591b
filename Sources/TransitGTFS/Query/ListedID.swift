import Foundation
import TransitSupport

/// An id or name in a list the command line writes and reads back: tsv's `trip_ids`
/// (`TRIP>TRIP`, a run `TRIP@YYYY-MM-DD@HH:MM:SS`) and `change_at`, which `gtfs journey`, `--change-at` and
/// `gtfs trip` take. GTFS ids may hold any character, so one holding `%`, `>` or `@` is written
/// percent-encoded (`%25`, `%3E`, `%40`; CLI-CONTRACT.md), and read back whole: a trip_id `x>y`
/// was split into two rides and `gtfs journey` checked other trips (issue 62).
package enum ListedID {
    package static func encode(_ id: String) -> String {
        // Bytes, not Characters: the three are ASCII, never part of another character's UTF-8,
        // and a Character compare is a string compare (a whole day's ids: 16,000 of them).
        var bytes = id
        guard bytes.withUTF8({ $0.contains { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "@") } }) else { return id }
        var out = ""
        for c in id {
            switch c {
            case "%": out += "%25"
            case ">": out += "%3E"
            case "@": out += "%40"
            default: out.append(c)
            }
        }
        return out
    }

    /// `%25`, `%3E` and `%40` (either case) back to their characters; any other `%` stays as
    /// typed (a written `%` is always `%25`).
    package static func decode(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var out = "", rest = Substring(text)
        while let k = rest.firstIndex(of: "%") {
            out += rest[..<k]
            let code = rest[k...].dropFirst().prefix(2).uppercased()
            switch code {
            case "25": out += "%"
            case "3E": out += ">"
            case "40": out += "@"
            default:
                out += "%"
                rest = rest[rest.index(after: k)...]
                continue
            }
            rest = rest[k...].dropFirst(3)
        }
        return out + rest
    }

    /// A ride as trip_ids list it: `TRIP`, `TRIP@YYYY-MM-DD` (a run of another service day than
    /// the query's), `TRIP@HH:MM:SS` (a frequencies.txt run's start), `TRIP@YYYY-MM-DD@HH:MM:SS`;
    /// the id decoded. nil where what follows an `@` is neither, in that order.
    package static func run(_ text: String) -> (id: String, day: LocalDate?, start: Int?)? {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false).map(String.init)
        var day: LocalDate?, start: Int?
        for part in parts.dropFirst() {
            if day == nil && start == nil, let date = LocalDate(iso: part) {
                day = date
            } else if start == nil, case .asWritten(let seconds)? = ServiceTime.parse(part), part.split(separator: ":").count == 3 {
                start = seconds
            } else {
                return nil
            }
        }
        return (decode(parts[0]), day, start)
    }

    /// What `run(_:)` takes, as an error says it.
    package static let runSpellings = "trip_id, trip_id@YYYY-MM-DD (a run of another service day), and for a run of a frequencies.txt trip @HH:MM:SS, its start (as trip_ids write them)"
}
