import Foundation
import TransitSupport
import TransitGTFS

/// `transit gtfs stops`: the feed's stops, by name or near a place.
struct GTFSStopsCommand: GTFSSubcommand {
    static let spec = CommandSpec(
        provider: "gtfs", name: "stops", summary: "the feed's stops, by name or near a place",
        examples: ["transit gtfs stops --name market", "transit gtfs stops --near 41.8631,-87.6244 --radius 500 --format geojson"],
        options: [
            OptionSpec("name", value: "TEXT", "stops whose name holds TEXT (any case, accents ignored)"),
            OptionSpec("near", value: "LAT,LON", "stops within --radius, nearest first"),
            OptionSpec("radius", value: "METERS", "with --near", default: Arguments.format(SearchDefaults.radiusMeters)),
            GTFSCommandLine.feed,
        ],
        notes: ["Fields: id, code, name, latitude, longitude, parent_station, routes; with --near also distance_meters."],
        geoJSON: true)

    var feeds: [String] = []
    var name: String?
    var near: Coordinate?
    var radius: Double

    init(_ args: Arguments) throws(TransitError) {
        feeds = try args.strings("feed")
        near = try args.coordinates("near")
        let radius = try args.given("radius")
        guard near != nil || !radius else { throw .usage("--radius goes with --near") }
        guard let radius = try args.double("radius", in: 1...100_000, what: "meters") else { throw args.missing("radius") }
        self.radius = radius
        name = try args.string("name")
    }

    /// A stop listed: its index, its record, and its distance from `--near`.
    struct Row {
        var stop: Int
        var record: Timetable.StopRecord
        var meters: Double?
    }

    /// The stops `--name` and `--near` keep, nearest first with `--near`.
    func rows(_ t: Timetable) -> [Row] {
        // Each row's record read once, for the filters and every column.
        var rows = (0..<t.stopCount).map { Row(stop: $0, record: t.stop($0), meters: nil) }
        if let name {
            let wanted = NameMatcher<Int>.normalize(name)
            rows = rows.filter { NameMatcher<Int>.normalize($0.record.name).contains(wanted) || $0.record.id == name || $0.record.code == name }
        }
        if let near {
            rows = rows.compactMap { row in
                let m = near.meters(to: row.record.coordinate)
                return m.isFinite && m <= radius ? Row(stop: row.stop, record: row.record, meters: m) : nil
            }.sorted { ($0.meters ?? 0, $0.stop) < ($1.meters ?? 0, $1.stop) }
        }
        return rows
    }

    func run(_ gtfs: GTFSContext) async throws(TransitError) -> Output {
        // Of several imported feeds, the one with stops the filters keep answers.
        let asked = [name.map { "stops named \($0)" }, near.map { _ in "stops within \(Int(radius)) m" }].compactMap { $0 }.joined(separator: " and ")
        let (feed, found) = try gtfs.open(feeds, having: asked, name == nil && near == nil ? nil : { t in
            let kept = rows(t)
            return kept.isEmpty ? nil : kept
        })
        let t = feed.timetable
        let kept = found ?? rows(t)
        let served = StopIndex.routesByStop(t)
        var data: [Column<Row>] = [
            Column("id") { .string($0.record.id) }, Column("code") { .string($0.record.code) },
            Column("name") { .string($0.record.name) }.wrapping(),
            Column("latitude") { .coordinate($0.record.coordinate.latitude) },
            Column("longitude") { .coordinate($0.record.coordinate.longitude) },
            Column("parent_station", "PARENT") { $0.record.parent.map { .string(t.stopID($0)) } ?? .null },
            Column("routes") { .list(served[$0.stop].map { .string(StopIndex.routeName(t, $0)) }) },
        ]
        var table = [data[0], data[2], data[5], data[6]]
        if near != nil {
            let distance = Column<Row>("distance_meters", "METERS") { $0.meters.map { .int(Int($0.rounded())) } ?? .null }
            data.append(distance)
            table.insert(distance, at: 0)
        }
        var notices = feed.notices
        if kept.isEmpty { notices.append("No stop of \(feed.summary.name) matches") }
        let column = GTFSContext.feedColumn(t) { (row: Row) in t.feed(ofStop: row.stop) }
        var output = Output(kept, data: column + data, table: column + table, notices: notices)
        output.geoJSON { GeoJSON.points($0) }
        return output
    }
}
