import Foundation
import TransitSupport
import TransitGTFS

/// `transit gtfs isochrone`: the places within each cutoff of an origin, as contours
/// (`GTFSFeed.isochrone`): GeoJSON MultiPolygons unless another format is asked.
struct GTFSIsochroneCommand: GTFSSubcommand {
    static let spec: CommandSpec = {
        var spec = CommandSpec(
            provider: "gtfs", name: "isochrone", summary: "the places within some minutes of an origin, as contours (GeoJSON MultiPolygons)",
            examples: ["transit gtfs isochrone --from 39.4667,-87.4139 --cutoffs 15,30,45,60 --date 2026-11-23 --after 08:00 > isochrone.geojson",
                       "transit gtfs isochrone --from Harbor --cutoffs 10,20 --window 1 --format table"],
            options: [
                OptionSpec("from", value: "STOP", "the origin: a stop_id, a stop_code or a name (a station means all its stops, and the stops within --walk on foot), or LAT,LON (every stop within --radius, on foot)", required: true, source: .cached),
                OptionSpec("cutoffs", value: "LIST", "minutes, comma-separated, 1 to 240, each once, at most 12: a contour each, each inside the next", required: true),
                GTFSCommandLine.date,
                GTFSMatrixCommand.afterOption,
                OptionSpec("window", value: "MIN", "minutes of departures: T, T+1, … T+MIN−1 (1 to 1440)", default: "60"),
                OptionSpec("percentile", value: "P", "the travel time at this percentile of the window's minutes (1 to 99)", default: "50"),
                GTFSCommandLine.radius,
                GTFSCommandLine.transfers, GTFSCommandLine.minTransfer, GTFSCommandLine.walk,
            ] + RiderOptions.shared + [
                GTFSCommandLine.link, GTFSCommandLine.zone, GTFSMatrixCommand.realtimeOption, GTFSCommandLine.realtimeTimeout, GTFSCommandLine.feed,
            ],
            notes: ["A grid of 100 m cells around the origin: each cell's time is what gtfs matrix gives from the origin to a point at the cell's centre (over the window's minutes, the percentile of the earliest arrival less the minute, whole minutes; walking from a stop within --radius, on the map's streets where the feed has one, else straight at 1.2 m/s; the journey on foot where faster). Each cutoff's contour is traced through the cells' centres by marching squares (a centre is inside when its minutes are at most the cutoff; between an inside centre and an outside one, the contour lies as far as the minutes left walk from the inside one): valid polygons, each cutoff's inside the next.",
                    "Default format geojson: a FeatureCollection, one MultiPolygon feature per cutoff, outer rings counter-clockwise, holes clockwise, properties cutoff (minutes), percentile, area_m2, stops (the stops a vehicle calls at inside). --format json: those properties as records; table, tsv and csv: cutoff, area_m2, stops, a row per cutoff."],
            geoJSON: true)
        spec.defaultFormat = .geojson
        return spec
    }()

    var feeds: [String] = []
    var from: String
    var cutoffs: [Int]
    var day: JourneyQuery.Day
    var after: ServiceTime?
    var window: Int
    var percentile: Int
    var search: GTFSCommandLine.Search
    var realtime = GTFSCommandLine.RealtimeChoice()
    var options = RiderOptions()

    init(_ args: Arguments) throws(TransitError) {
        feeds = try args.strings("feed")
        guard let from = try args.string("from") else { throw args.missing("from") }
        self.from = from
        guard let cutoffs = try args.string("cutoffs") else { throw args.missing("cutoffs") }
        self.cutoffs = try Self.cutoffs(cutoffs)
        day = try GTFSCommandLine.day(args)
        after = try args.serviceTime("after")
        window = try args.intValue("window", in: TravelTimeQuery.windowRange)
        percentile = try args.intValue("percentile", in: TravelTimeQuery.percentileRange)
        search = try GTFSCommandLine.Search(args)
        realtime = GTFSCommandLine.RealtimeChoice(sources: try args.strings("realtime"), ignoringRemembered: true)
        realtime.deadline = try GTFSCommandLine.RealtimeChoice.deadline(args)
        options = try RiderOptions(args, through: false)
    }

    /// `--cutoffs`: whole minutes, 1 to 240, each once, at most 12, sorted.
    static func cutoffs(_ text: String) throws(TransitError) -> [Int] {
        let out = try GTFSCommandLine.wholeNumbers(text, option: "cutoffs", what: "whole minutes", in: IsochroneQuery.cutoffRange)
        guard out.count <= IsochroneQuery.maxCutoffs else { throw .usage("--cutoffs takes at most \(IsochroneQuery.maxCutoffs) minutes, not \(out.count)") }
        return out
    }

    func run(_ gtfs: GTFSContext) async throws(TransitError) -> Output {
        var q = IsochroneQuery(from: JourneyQuery.Place(from), cutoffs: cutoffs, day: day, after: after, windowMinutes: window, percentile: percentile,
                               now: gtfs.now, rules: search.rules, needs: options.needs)
        q.zone = search.zone
        let feed = try gtfs.open(feeds)
        let updates = realtime.sources.isEmpty ? nil : try await gtfs.tripUpdates(realtime, feed)
        gtfs.progress("working out the isochrone")
        let isochrone = try gtfs.withStopHelp(feed) { () throws(TransitError) in try gtfs.engine(feed).isochrone(q, updates: updates) }
        let contours = isochrone.contours
        let data: [Column<Isochrone.Contour>] = [
            Column("cutoff", "MIN") { .int($0.cutoff) },
            Column("percentile", in: .json) { .int($0.percentile) },
            Column("area_m2", "AREA M²") { .int(Int($0.areaSquareMeters.rounded())) },
            Column("stops") { .int($0.stops) },
        ]
        let table = [data[0], Column<Isochrone.Contour>("area_km2", "AREA KM²") { .double(($0.areaSquareMeters / 10_000).rounded() / 100) }, data[3]]
        var output = Output(contours, data: data, table: table, notices: feed.notices + (updates?.notices ?? []) + isochrone.notices)
        output.geoJSON { records in GeoJSON.multiPolygons(zip(records, contours).map { ($0, $1.polygons) }) }
        return output
    }
}
