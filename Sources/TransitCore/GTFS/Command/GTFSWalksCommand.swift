import Foundation
import TransitSupport
import TransitGTFS

/// `transit gtfs walks`: the changes on foot the feed stored at import (within 300 m in a
/// straight line), each with its straight and its street meters, so that a user can see, and
/// report, what a map did; `--dropped`, the pairs within 300 m the map left without one, and why.
struct GTFSWalksCommand: GTFSSubcommand {
    static let spec = CommandSpec(
        provider: "gtfs", name: "walks", summary: "the changes on foot the feed stored, straight and on the map's streets",
        examples: ["transit gtfs walks --stop University", "transit gtfs walks --longer-than 3 --format tsv", "transit gtfs walks --dropped"],
        options: [
            OptionSpec("stop", value: "STOP", "only the walks from this stop (or the stops of a station or a name); with --dropped, the pairs it is one of", source: .cached),
            OptionSpec("longer-than", value: "RATIO", "only the walks whose street meters are more than RATIO times the straight ones (a map's detours and gaps; with --dropped, a pair not connected is longer than any)"),
            OptionSpec("dropped", "the pairs of stops within 300 m in a straight line that keep no walk on the map's streets, and why"),
            GTFSCommandLine.feed,
        ],
        notes: ["Fields: from, from_name, to, to_name, straight_meters, street_meters (null for a feed imported without --streets: its walks are the straight lines), seconds (at 1.2 m/s). Each pair both ways, ordered by the stop they leave from. A pair within 300 m in a straight line keeps its street path up to 600 m; --walk M then allows it when its straight line is within M and its street path within twice M.",
                "With --dropped, fields: from, from_name, to, to_name, straight_meters, street_meters (null where the map does not connect them, or no path is within 5 km), reason: longer (the street path is over 600 m), not_connected (the two join no common piece of the map), steps_only (kept on foot, but no way without steps within 600 m: none for --wheelchair). Each pair once, found at import; none without --streets."])

    var feeds: [String] = []
    var stop: String?
    var longerThan: Double?
    var dropped = false

    init(_ args: Arguments) throws(TransitError) {
        feeds = try args.strings("feed")
        stop = try args.string("stop")
        longerThan = try args.double("longer-than", in: 0...1_000, what: "a ratio")
        dropped = try args.flag("dropped")
    }

    struct Walk {
        var from: Int
        var to: Int
        var straight: Double
        var meters: Double
    }

    func run(_ gtfs: GTFSContext) async throws(TransitError) -> Output {
        let feed = try gtfs.open(feeds)
        let t = feed.timetable
        let onStreets = feed.summary.streets != nil
        let from = try stop.map { text throws(TransitError) in try StopIndex(t).resolve(text) } ?? Array(0..<t.stopCount)
        if dropped { return droppedWalks(feed, Set(from)) }
        var walks: [Walk] = []
        for x in from {
            for (y, meters) in t.storedWalks(x) {
                let straight = t.straightMeters(x, Int(y))
                guard longerThan.map({ meters > $0 * straight }) ?? true else { continue }
                walks.append(Walk(from: x, to: Int(y), straight: straight, meters: meters))
            }
        }
        let (id, name) = Self.names(walks.flatMap { [$0.from, $0.to] }, t)
        let data: [Column<Walk>] = [
            Column("from") { .string(id($0.from)) }, Column("from_name") { .string(name($0.from)) },
            Column("to") { .string(id($0.to)) }, Column("to_name") { .string(name($0.to)) },
            Column("straight_meters", "STRAIGHT") { Self.meters($0.straight) },
            Column("street_meters", "STREET") { onStreets ? Self.meters($0.meters) : .null },
            Column("seconds", "SEC") { .int(Int(($0.meters / SearchDefaults.walkingSpeed).rounded(.up))) },
        ]
        let byName = [Column<Walk>("from", "FROM") { .string(name($0.from)) }.wrapping(),
                      Column<Walk>("to", "TO") { .string(name($0.to)) }.wrapping()]
        var notices = feed.notices
        if walks.isEmpty { notices.append(longerThan == nil ? "No walks stored from there" : "No stored walk is more than \(Arguments.format(longerThan ?? 0)) times its straight line") }
        return Output(walks, data: data, table: byName + [data[4], data[5], data[6]], notices: notices)
    }

    /// Meters to the decimeter.
    @Sendable static func meters(_ value: Double) -> Value { .double((value * 10).rounded() / 10) }

    /// Each stop's id and name, made once: a stop's record was made four times a row (a million
    /// walks of 50,000 crowded stops, 2.3 s; issue 62).
    static func names(_ stops: [Int], _ t: Timetable) -> (id: @Sendable (Int) -> String, name: @Sendable (Int) -> String) {
        var named = [(id: String, name: String)?](repeating: nil, count: t.stopCount)
        for stop in stops where stop >= 0 && stop < named.count && named[stop] == nil {
            let record = t.stop(stop)
            named[stop] = (record.id, record.name)
        }
        let known = named
        return ({ known[safe: $0]??.id ?? "" }, { known[safe: $0]??.name ?? "" })
    }

    /// `--dropped`: the pairs the import found within 300 m that keep no walk, those of `stops`.
    func droppedWalks(_ feed: GTFSContext.Feed, _ stops: Set<Int>) -> Output {
        let t = feed.timetable
        let pairs = t.dropped.filter { walk in
            (stops.contains(walk.from) || stops.contains(walk.to)) && longerThan.map { ratio in walk.street.map { $0 > ratio * walk.straight } ?? true } ?? true
        }
        let (id, name) = Self.names(pairs.flatMap { [$0.from, $0.to] }, t)
        let data: [Column<DroppedWalk>] = [
            Column("from") { .string(id($0.from)) }, Column("from_name") { .string(name($0.from)) },
            Column("to") { .string(id($0.to)) }, Column("to_name") { .string(name($0.to)) },
            Column("straight_meters", "STRAIGHT") { Self.meters($0.straight) },
            Column("street_meters", "STREET") { $0.street.map(Self.meters) ?? .null },
            Column("reason", "REASON") { .string($0.reason.name) },
        ]
        let byName = [Column<DroppedWalk>("from", "FROM") { .string(name($0.from)) }.wrapping(),
                      Column<DroppedWalk>("to", "TO") { .string(name($0.to)) }.wrapping()]
        var notices = feed.notices
        if pairs.isEmpty {
            notices.append(feed.summary.streets == nil ? "No walk dropped: the feed was imported without --streets (its walks are the straight lines)" : "No pair within 300 m keeps no walk there")
        }
        return Output(pairs, data: data, table: byName + [data[4], data[5], data[6]], notices: notices)
    }
}
