import Foundation
import TransitSupport
import TransitGTFS

/// `transit gtfs walks`: the changes on foot the feed stored at import (within 300 m), each with
/// its straight and its street meters, so that a user can see, and report, what a map did.
struct GTFSWalksCommand: GTFSSubcommand {
    static let spec = CommandSpec(
        provider: "gtfs", name: "walks", summary: "the changes on foot the feed stored, straight and on the map's streets",
        examples: ["transit gtfs walks --stop University", "transit gtfs walks --longer-than 3 --format tsv"],
        options: [
            OptionSpec("stop", value: "STOP", "only the walks from this stop (or the stops of a station or a name)", source: .cached),
            OptionSpec("longer-than", value: "RATIO", "only the walks whose street meters are more than RATIO times the straight ones (a map's detours and gaps)"),
            GTFSCommandLine.feed,
        ],
        notes: ["Fields: from, from_name, to, to_name, straight_meters, street_meters (null for a feed imported without --streets: its walks are the straight lines), seconds (at 1.2 m/s). Each pair both ways, ordered by the stop they leave from. A pair that the map puts over 300 m apart, or cannot connect, keeps no walk and is not listed: `gtfs import --streets` counts them."])

    var feeds: [String] = []
    var stop: String?
    var longerThan: Double?

    init(_ args: Arguments) throws(TransitError) {
        feeds = args.strings("feed")
        stop = args.string("stop")
        longerThan = try args.double("longer-than", in: 0...1_000, what: "a ratio")
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
        var walks: [Walk] = []
        for x in from {
            for (y, meters) in t.storedWalks(x) {
                let straight = t.coordinate(ofStop: x).meters(to: t.coordinate(ofStop: Int(y)))
                guard longerThan.map({ meters > $0 * straight }) ?? true else { continue }
                walks.append(Walk(from: x, to: Int(y), straight: straight, meters: meters))
            }
        }
        @Sendable func meters(_ value: Double) -> Value { .double((value * 10).rounded() / 10) }
        // Each stop's id and name made once: a stop's record was made four times a row (a
        // million walks of 50,000 crowded stops, 2.3 s; issue 62).
        var named = [(id: String, name: String)?](repeating: nil, count: t.stopCount)
        for walk in walks {
            for stop in [walk.from, walk.to] where stop >= 0 && stop < named.count && named[stop] == nil {
                let record = t.stop(stop)
                named[stop] = (record.id, record.name)
            }
        }
        let stops = named
        @Sendable func id(_ stop: Int) -> String { stops[safe: stop]??.id ?? "" }
        @Sendable func name(_ stop: Int) -> String { stops[safe: stop]??.name ?? "" }
        let data: [Column<Walk>] = [
            Column("from") { .string(id($0.from)) }, Column("from_name") { .string(name($0.from)) },
            Column("to") { .string(id($0.to)) }, Column("to_name") { .string(name($0.to)) },
            Column("straight_meters", "STRAIGHT") { meters($0.straight) },
            Column("street_meters", "STREET") { onStreets ? meters($0.meters) : .null },
            Column("seconds", "SEC") { .int(Int(($0.meters / SearchDefaults.walkingSpeed).rounded(.up))) },
        ]
        let byName = [Column<Walk>("from", "FROM") { .string(name($0.from)) }.shrinkingFirst(),
                      Column<Walk>("to", "TO") { .string(name($0.to)) }.shrinkingFirst()]
        var notices = feed.notices
        if walks.isEmpty { notices.append(longerThan == nil ? "No walks stored from there" : "No stored walk is more than \(Arguments.format(longerThan ?? 0)) times its straight line") }
        return Output(walks, data: data, table: byName + [data[4], data[5], data[6]], notices: notices)
    }
}
