import Foundation
import TransitSupport

/// Remembered real-time sources (a feed's, from its import) that could not be fetched a moment
/// ago: the queries after one that waited for a dead source skip it for `skipSeconds`, with the
/// same notice, instead of waiting again. A source typed on the command line is always tried,
/// and `--no-cache` remembers nothing. Kept in `$TRANSIT_CACHE_DIR/gtfs/.realtime-outages`, a
/// line a source: when the skip ends (Unix seconds), the FNV-1a hash of the source as the feed
/// remembers it (a key is a `$VARIABLE` there, never its value), and the notice.
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
        var notice: String
    }

    /// The entries still in force at `now`.
    func entries(now: Date) -> [Entry] {
        guard let data = FileManager.default.contents(atPath: path), data.count < 1 << 20 else { return [] }
        let seconds = Int(now.timeIntervalSince1970)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, let until = Int(fields[0]), until > seconds, until <= seconds + Int(Self.skipSeconds) else { return nil }
            return Entry(until: until, hash: String(fields[1]), notice: String(fields[2]))
        }
    }

    /// The notices of the sources that failed less than `skipSeconds` ago, by their hash: read
    /// once for a query's sources.
    func notices(now: Date) -> [String: String] {
        Dictionary(entries(now: now).map { ($0.hash, $0.notice) }, uniquingKeysWith: { _, last in last })
    }

    static func key(_ source: String) -> String { FNV1a.hex(source) }

    /// Remembers that `source` failed, with its notice (one line), for `skipSeconds` from `now`.
    func remember(_ source: String, notice: String, now: Date) {
        let hash = Self.key(source), line = Sanitize.line(notice).replacingOccurrences(of: "\t", with: " ")
        var kept = entries(now: now).filter { $0.hash != hash }.suffix(Self.maxSources - 1)
        kept.append(Entry(until: Int(now.timeIntervalSince1970 + Self.skipSeconds), hash: hash, notice: line))
        let text = kept.map { "\($0.until)\t\($0.hash)\t\($0.notice)\n" }.joined()
        try? AtomicFile.write(Data(text.utf8), to: path)
    }
}
