import Foundation

/// An id or name in a list the command line writes and reads back: tsv's `trip_ids`
/// (`TRIP>TRIP`, a run `TRIP@HH:MM:SS`) and `change_at`, which `gtfs journey`, `--change-at` and
/// `gtfs trip` take. GTFS ids may hold any character, so one holding `%`, `>` or `@` is written
/// percent-encoded (`%25`, `%3E`, `%40`; CLI-CONTRACT.md), and read back whole: a trip_id `x>y`
/// was split into two rides and `gtfs journey` checked other trips (issue 62).
package enum ListedID {
    package static func encode(_ id: String) -> String {
        guard id.contains(where: { $0 == "%" || $0 == ">" || $0 == "@" }) else { return id }
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
}
