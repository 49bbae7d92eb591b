import Foundation
import TransitSupport
import TransitGTFS

/// `transit gtfs feeds`: the imported feeds and the dates they cover.
struct GTFSFeedsCommand: GTFSSubcommand {
    static let spec = CommandSpec(
        provider: "gtfs", name: "feeds", summary: "the imported feeds and the dates they cover",
        examples: ["transit gtfs feeds", "transit gtfs feeds --feed bart --feed caltrain"],
        options: [OptionSpec("feed", value: "NAME|PATH", "only these feeds (repeatable, or all), with what their combination should know: feeds in different zones, feeds that share no service day", source: .cached, repeatable: true)],
        notes: ["Fields: name, agencies, time_zone, first_date, last_date, stops, routes, trips, stop_times, source; JSON also realtime (the remembered real-time URLs, as typed), streets (the map walks are measured on, or null), catalog and license (a feed imported from the catalog: its id and licence URL, which the table shows too). A notice says when today is outside a feed's dates."])

    /// Only these feeds, as a query would combine them; none: every imported feed.
    var feeds: [String] = []

    init(_ args: Arguments) throws(TransitError) {
        feeds = try args.strings("feed")
    }

    func run(_ gtfs: GTFSContext) async throws(TransitError) -> Output {
        let store = gtfs.store
        var list = store.feeds()
        var notices: [String] = []
        if !feeds.isEmpty {
            // Those feeds, as a query would combine them (an unknown name is the query's error).
            let combined = try gtfs.open(feeds)
            let parts = combined.timetable.isCombination ? (0..<combined.timetable.feedCount).map { combined.timetable.feedName($0) } : [combined.summary.name]
            // A feed given by its path is no imported feed: its own summary, from its compiled file.
            let given = try gtfs.store.names(feeds).compactMap(gtfs.store.summary(ofGiven:))
            list = parts.compactMap { name in
                list.first { $0.name == name } ?? given.first { $0.name == name } ?? (name == combined.summary.name ? combined.summary : nil)
            }
            notices += combined.notices
        }
        notices += Self.outOfDate(list, now: gtfs.now)
        let older = store.olderFeeds().map(\.name)
        if !older.isEmpty {
            notices.append("compiled by another version of transit: \(older.joined(separator: ", ")); 'transit gtfs update' compiles them again from their sources")
        }
        let damaged = store.damagedFeeds()
        if !damaged.isEmpty {
            notices.append("damaged (the compiled file cannot be read): \(damaged.joined(separator: ", ")); 'transit gtfs remove NAME' deletes one, then import it again")
        }
        if list.isEmpty && older.isEmpty && damaged.isEmpty { notices.append("No GTFS feed is imported; import one with: transit gtfs import FEED.zip") }
        let data: [Column<FeedStore.Summary>] = [
            Column("name") { .string($0.name) }, Column("agencies") { .list($0.agencies.map(Value.string)) },
            Column("time_zone", "ZONE") { .string($0.timeZone) }, Column("first_date", "FROM") { .string($0.firstDate) },
            Column("last_date", "TO") { .string($0.lastDate) }, Column("stops") { .int($0.stops) }, Column("routes") { .int($0.routes) },
            Column("trips") { .int($0.trips) }, Column("stop_times") { .int(Int($0.stopTimes)) }, Column("source") { .string($0.source) },
            // As typed: a key stays `$NAME`. JSON only, so that tsv's columns stay those scripts know.
            Column("realtime", in: .json) { .list(($0.realtime ?? []).map(Value.string)) },
            // The map walks were measured on (`import --streets`); null: straight lines.
            Column("streets", in: .json) { $0.streets.map(Value.string) ?? .null },
            // Where the catalog has it (`import mdb-53`): its id there and its licence.
            Column("catalog", in: .json) { $0.catalog.map(Value.string) ?? .null },
            Column("license", in: .json) { $0.license.map(Value.string) ?? .null },
        ]
        // The table keeps what a rider types and reads whole at 80 columns: the name, the dates
        // (one column, wrapping after its arrow), the agencies wrapping; the zone and the licence's
        // URL give way first.
        var table: [Column<FeedStore.Summary>] = [
            data[0].whole(), Column("agencies") { .string($0.agencies.joined(separator: ", ")) }.wrapping(),
            Column("dates", "DATES") { .string($0.firstDate + " → " + $0.lastDate) }.wrapping(), data[2].shrinkingFirst(),
        ] + data[5...8]
        if list.contains(where: { $0.license != nil }) { table.append(Column("license") { .string($0.license ?? "") }.shrinkingFirst()) }
        return Output(list, data: data, table: table, notices: notices)
    }

    /// Feeds whose dates do not cover today (in each one's zone): one line whatever their number
    /// (issue 44: nineteen lines said it nineteen times), the first few named, and what to do.
    static func outOfDate(_ feeds: [FeedStore.Summary], now: Date) -> [String] {
        let expired = feeds.filter { feed in
            let today = LocalDate(now, in: TimeZone(identifier: feed.timeZone) ?? .utc).iso
            return today < feed.firstDate || today > feed.lastDate
        }
        guard let first = expired.first else { return [] }
        if expired.count == 1 {
            let today = LocalDate(now, in: TimeZone(identifier: first.timeZone) ?? .utc).iso
            return ["\(first.name) covers \(first.firstDate) to \(first.lastDate); today is \(today) in \(first.timeZone)"]
        }
        let named = expired.prefix(4).map(\.name).joined(separator: ", ") + (expired.count > 4 ? ", …" : "")
        return ["\(expired.count) feeds do not cover today (\(named)); transit gtfs update fetches their sources again"]
    }
}
