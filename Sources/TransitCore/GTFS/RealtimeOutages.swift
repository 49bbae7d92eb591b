import Foundation
import TransitSupport

/// Remembered real-time sources (a feed's, from its import) that could not be fetched a moment
/// ago: the queries after one that waited for a dead source skip it for `skipSeconds`, saying
/// so, instead of waiting again. A source typed on the command line is always tried, and
/// `--no-cache` remembers nothing. Kept in `$TRANSIT_CACHE_DIR/gtfs/.realtime-outages`, a line a
/// source: when the skip ends (Unix seconds), the FNV-1a hash of the source as the feed
/// remembers it (a key is a `$VARIABLE` there, never its value), and why it could not be read.
struct RealtimeOutages {
    static let skipSeconds: TimeInterval = 60
    /// At most this many lines are kept (the newest).
    static let maxSources = 256

    let path: String

    init(cacheDirectory: String) {
        path = (cacheDirectory as NSString).appendingPathComponent("gtfs/.realtime-outages")
    }

    struct Entry {
        var until: Int
        var hash: String
        var reason: String
    }

    /// The entries still in force at `now`.
    func entries(now: Date) -> [Entry] {
        guard let data = FileManager.default.contents(atPath: path), data.count < 1 << 20 else { return [] }
        let seconds = Int(now.timeIntervalSince1970)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            // (A line an older transit wrote holds its whole notice: that source is asked again.)
            guard fields.count == 3, let until = Int(fields[0]), until > seconds, until <= seconds + Int(Self.skipSeconds),
                  !fields[2].hasPrefix("not live: ") else { return nil }
            return Entry(until: until, hash: String(fields[1]), reason: String(fields[2]))
        }
    }

    /// The notices of the sources that failed less than `skipSeconds` ago, by their hash: read
    /// once for a query's sources. Each says the source was not asked now, when it failed and
    /// when it will be asked again (issue 68: the failure's words alone read as if it had been).
    func notices(now: Date) -> [String: String] {
        let seconds = Int(now.timeIntervalSince1970)
        return Dictionary(entries(now: now).map { entry in
            let ago = Int(Self.skipSeconds) - (entry.until - seconds), left = entry.until - seconds
            let when = ago < 1 ? "a moment ago" : "\(ago) s ago"
            return (entry.hash, "not live: not asked (\(when): \(entry.reason); asked again in \(left) s); the times are as planned")
        }, uniquingKeysWith: { _, last in last })
    }

    static func key(_ source: String) -> String { FNV1a.hex(source) }

    /// Remembers that `source` failed, and why (one line), for `skipSeconds` from `now`.
    func remember(_ source: String, reason: String, now: Date) {
        let hash = Self.key(source), line = Sanitize.line(reason).replacingOccurrences(of: "\t", with: " ")
        var kept = entries(now: now).filter { $0.hash != hash }.suffix(Self.maxSources - 1)
        kept.append(Entry(until: Int(now.timeIntervalSince1970 + Self.skipSeconds), hash: hash, reason: line))
        let text = kept.map { "\($0.until)\t\($0.hash)\t\($0.reason)\n" }.joined()
        try? AtomicFile.write(Data(text.utf8), to: path)
    }
}
