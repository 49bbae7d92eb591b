import Foundation
import TransitSupport
import TransitGTFS

/// `transit gtfs routes`: the feed's routes.
struct GTFSRoutesCommand: GTFSSubcommand {
    static let spec = CommandSpec(
        provider: "gtfs", name: "routes", summary: "the feed's routes",
        examples: ["transit gtfs routes", "transit gtfs routes --name express"],
        options: [OptionSpec("name", value: "TEXT", "routes whose short or long name holds TEXT (any case, accents ignored), or whose route_id is TEXT"),
                  GTFSCommandLine.feed],
        notes: ["Fields: id, agency, short_name, long_name, type (tram, subway, rail, bus, ferry, …), color."])

    var feeds: [String] = []
    var name: String?

    init(_ args: Arguments) throws(TransitError) {
        feeds = try args.strings("feed")
        name = try args.string("name")
    }

    /// The routes `--name` keeps.
    func routes(_ t: Timetable) -> [Int] {
        guard let name else { return Array(0..<t.routeCount) }
        let wanted = NameMatcher<Int>.normalize(name)
        return (0..<t.routeCount).filter { r in
            let route = t.route(r)
            return route.id == name || NameMatcher<Int>.normalize(route.shortName).contains(wanted) || NameMatcher<Int>.normalize(route.longName).contains(wanted)
        }
    }

    /// A word for route_type, extended types by their groups (`RouteMode`): what `--modes` takes.
    static func routeTypeWord(_ type: Int) -> String { RouteMode(routeType: type)?.rawValue ?? "other (\(type))" }

    func run(_ gtfs: GTFSContext) async throws(TransitError) -> Output {
        // Of several imported feeds, the one with routes --name keeps answers.
        let (feed, found) = try gtfs.open(feeds, having: "routes named \(name ?? "")", name == nil ? nil : { t in
            let kept = routes(t)
            return kept.isEmpty ? nil : kept
        })
        let t = feed.timetable
        let kept = found ?? routes(t)
        var notices = feed.notices
        if kept.isEmpty { notices.append("No route of \(feed.summary.name) matches") }
        let data: [Column<Int>] = [
            Column("id") { .string(t.route($0).id) }, Column("agency") { .string(t.route($0).agency) },
            Column("short_name", "SHORT") { .string(t.route($0).shortName) }.wrapping(), Column("long_name", "NAME") { .string(t.route($0).longName) }.wrapping(),
            Column("type") { .string(Self.routeTypeWord(t.route($0).type)) }, Column("color") { .string(t.route($0).color) },
        ]
        let column = GTFSContext.feedColumn(t) { t.feed(ofRoute: $0) }
        return Output(kept, data: column + data, table: column + [data[0], data[2], data[3], data[4], data[5]], notices: notices)
    }
}
