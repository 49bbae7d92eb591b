import Foundation
import TransitSupport
import TransitGTFS

/// `transit gtfs update [NAME]`: import feeds again from their sources, where they changed.
struct GTFSUpdateCommand: GTFSSubcommand {
    static let spec = {
        var update = CommandSpec(provider: "gtfs", name: "update", summary: "import feeds again from their sources, where they changed",
                                 examples: ["transit gtfs update", "transit gtfs update lakeport"],
                                 notes: ["NAME: one imported feed (default: every one). A file or directory is read again when its size or time changed; a URL is asked with the ETag and Last-Modified of the last import (a 304 leaves it). Fields: name, status (unchanged, updated), first_date, last_date, trips, stop_times, changes (what differs from before)."],
                                 positional: "NAME", positionalSource: .cached)
        update.positionalOptional = true
        return update
    }()

    /// One imported feed; nil: every one.
    var name: String?

    init(_ args: Arguments) throws(TransitError) {
        name = args.positional.map { $0.trimmedSpace(newlines: false) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    struct Update {
        var before: FeedStore.Summary
        var after: FeedStore.Summary
        var updated: Bool
    }

    /// Each feed (or `name`) from its source again: a file when its size or time changed, a URL always.
    func run(_ gtfs: GTFSContext) async throws(TransitError) -> Output {
        let store = gtfs.store
        store.sweep()
        // A feed compiled by another version of transit, or whose file is damaged, is compiled
        // again, changed or not.
        let olderFeeds = store.olderFeeds(), older = Set(olderFeeds.map(\.name))
        let feeds: [FeedStore.Summary]
        if let name { feeds = [try gtfs.importedFeed(name)] } else { feeds = store.feeds() + olderFeeds }
        var rows: [Update] = []
        var notices: [String] = [], failed: [String] = [], failure: TransitError?
        for feed in feeds {
            let source = feed.source, stale = older.contains(feed.name) || !FeedStore.intact(store.path(of: feed.name))
            // Its map changed: measured again, its source changed or not.
            let remeasure = Self.mapChanged(feed)
            if !HTTPRequest.isURL(source) {
                guard let stamp = FeedStore.stamp(source) else {
                    notices.append(stale ? "\(feed.name): compiled by another version of transit, and its source \(source) is gone: import it again from a source"
                                         : "\(feed.name): its source \(source) is gone; kept as it was")
                    continue
                }
                if !stale && feed.sourceSize == stamp.size && feed.sourceModified == stamp.modified && !remeasure {
                    rows.append(Update(before: feed, after: feed, updated: false))
                    continue
                }
            }
            // Every feed is tried: one broken source is named, and the others still update.
            let installed: Output?
            do { installed = try await GTFSImportCommand.install(gtfs, source, name: feed.name, ifChangedSince: stale || remeasure ? nil : feed,
                                                                                realtime: FeedStore.RealtimeSources(of: feed), streets: feed.streets,
                                                                                replacing: true) } catch {
                guard name == nil, feeds.count > 1 else { throw error }
                notices.append("\(feed.name): not updated from \(Redaction.url(source)): \(error.message); kept as it was")
                failed.append(feed.name)
                failure = failure ?? error
                continue
            }
            guard let output = installed else {
                rows.append(Update(before: feed, after: feed, updated: false))
                continue
            }
            notices += output.notices
            guard let after = try? FeedStore.summary(at: store.path(of: feed.name)) else { continue }
            rows.append(Update(before: feed, after: after, updated: true))
        }
        let damaged = name == nil ? store.damagedFeeds() : []
        for feed in damaged {
            notices.append("\(feed): its compiled file is damaged and names no source; remove it with: transit gtfs remove \(feed), then import it again")
        }
        if feeds.isEmpty && damaged.isEmpty { notices.append("No GTFS feed is imported; import one with: transit gtfs import FEED.zip") }
        let data: [Column<Update>] = [
            Column("name", "FEED") { .string($0.after.name) }, Column("status", "STATUS") { .string($0.updated ? "updated" : "unchanged") },
            Column("first_date", "FROM") { .string($0.after.firstDate) }, Column("last_date", "TO") { .string($0.after.lastDate) },
            Column("trips", "TRIPS") { .int($0.after.trips) }, Column("stop_times", "STOP TIMES") { .int(Int($0.after.stopTimes)) },
            Column("changes", "CHANGES") { .string(Self.changes($0.before, $0.after)) },
        ]
        // The names, the status and the dates whole; the changes wrap.
        let table = [data[0].whole(), data[1].whole(), data[2].whole(), data[3].whole(), data[4], data[5], data[6].wrapping()]
        var output = Output(rows, data: data, table: table, notices: notices)
        if let failure {
            // After the others: one line naming every feed not updated, exit 1 (a usage error's 2).
            output.failure = failure.exitStatus == 2 ? failure
                : .refused("\(failed.count) of \(feeds.count) feeds could not be updated: \(failed.joined(separator: ", "))", hint: nil)
        }
        return output
    }

    /// Whether the map the feed's walks were measured on changed since (or is gone): its bytes
    /// hashed, since a map replaced by another of the same size and time is another map.
    static func mapChanged(_ feed: FeedStore.Summary) -> Bool {
        guard let map = feed.streets else { return false }
        guard let hash = try? FeedStore.mapHash(map) else { return true }
        return hash != feed.streetsHash
    }

    /// `dates 2026-01-01…2026-12-31 → 2026-02-01…2027-01-31, trips 220 → 230`; empty when nothing differs.
    static func changes(_ a: FeedStore.Summary, _ b: FeedStore.Summary) -> String {
        var parts: [String] = []
        if (a.firstDate, a.lastDate) != (b.firstDate, b.lastDate) { parts.append("dates \(a.firstDate)…\(a.lastDate) → \(b.firstDate)…\(b.lastDate)") }
        if a.stops != b.stops { parts.append("stops \(a.stops) → \(b.stops)") }
        if a.routes != b.routes { parts.append("routes \(a.routes) → \(b.routes)") }
        if a.trips != b.trips { parts.append("trips \(a.trips) → \(b.trips)") }
        if a.stopTimes != b.stopTimes { parts.append("stop_times \(a.stopTimes) → \(b.stopTimes)") }
        return parts.joined(separator: ", ")
    }
}
