import Foundation
import TransitSupport
import TransitGTFS

/// `transit gtfs fares --from STOP --to STOP`: what a ride between two stops costs, for a rider
/// who only wants the price: the fares of the day's journeys between them, each way of paying once.
struct GTFSFaresCommand: GTFSSubcommand {
    static let spec = CommandSpec(
        provider: "gtfs", name: "fares", summary: "what it costs to go between two stops, for every rider category",
        examples: ["transit gtfs fares --from 24TH --to MLBR", "transit gtfs fares --from \"San Francisco\" --to \"Palo Alto\" --date 2016-04-06"],
        options: [
            OptionSpec("from", value: "STOP", "origin: a stop_id, a stop_code or a name (a station means all its stops)", required: true, source: .cached),
            OptionSpec("to", value: "STOP", "destination, as --from", required: true, source: .cached),
            GTFSCommandLine.date, GTFSCommandLine.transfers, GTFSCommandLine.minTransfer, GTFSCommandLine.walk,
            GTFSCommandLine.link, GTFSCommandLine.zone, GTFSCommandLine.feed,
        ],
        notes: ["The journeys of the whole service day between the two stops (as gtfs trips finds them), priced with the feed's fares (Fares v1 or v2, docs/gtfs.md); one row per way of paying: fares (the fare_ids or fare products paid, joined with +), routes (the rides' lines, joined with >; the different ones with \", \"), price, currency, journeys (how many of the day's journeys pay so), and in JSON riders (each rider category's price, where the feed names categories; the table shows one column per category). Cheapest first. A feed without fares says so in a notice."])

    var feeds: [String] = []
    var from: String
    var to: String
    var day: JourneyQuery.Day
    var search: GTFSCommandLine.Search

    init(_ args: Arguments) throws(TransitError) {
        feeds = try args.strings("feed")
        from = try args.required("from")
        to = try args.required("to")
        day = try GTFSCommandLine.day(args)
        search = try GTFSCommandLine.Search(args)
    }

    /// One way of paying for the day's journeys between the stops.
    struct Way {
        var fares: String
        /// The lines ridden, each journey's joined with >, the distinct ones with ", ".
        var routes: [String]
        var price: FareTable.Price
        var riders: [(name: String, price: FareTable.Price)]
        var journeys: Int
    }

    func run(_ gtfs: GTFSContext) async throws(TransitError) -> Output {
        // The whole service day's journeys, with no rider's needs.
        var q = JourneyQuery(from: .init(from), to: .init(to), day: day, now: gtfs.now, rules: search.rules)
        q.zone = search.zone
        q.wholeDay = true
        let (feed, engine, ends) = try gtfs.open(feeds, q)
        let t = feed.timetable
        guard t.hasFares else {
            return .empty(feed.notices + ["No fares: the feed has neither fare_attributes.txt nor fare_leg_rules.txt"])
        }
        let search = try engine.search(q, ends, updates: nil), day = search.day
        // (A journey on foot pays nothing: it is no way of paying.)
        let journeys = search.journeys().filter { !$0.isOnFoot }
        // The layout's fare table prices as `gtfs trips` does; one more per rider category.
        let clock = ServiceClock(day: day, zone: t.zone)
        let layout = JourneyLayout(t, clock: clock, journeys: journeys)
        guard let fares = layout.fares.value else { return .empty(feed.notices) }
        let riders = t.riderCategories.indices.compactMap { FareTable(t, rider: $0, clock: clock) }
        var ways: [String: Way] = [:], order: [String] = []
        for journey in journeys {
            let price = fares.price(journey)
            let key = price.parts.map(\.fare).joined(separator: " + ") + (price.complete ? "" : "?")
            if ways[key] == nil {
                order.append(key)
                ways[key] = Way(fares: price.complete ? key : "", routes: [], price: price,
                                riders: riders.map { ($0.rider ?? "", $0.price(journey)) }, journeys: 0)
            }
            ways[key]?.journeys += 1
            let lines = layout.routes(journey)
            if ways[key]?.routes.contains(lines) == false { ways[key]?.routes.append(lines) }
        }
        let rows = order.compactMap { ways[$0] }.sorted { ($0.price.total ?? .infinity, $0.fares) < ($1.price.total ?? .infinity, $1.fares) }
        let data: [Column<Way>] = [
            Column("fares") { .string($0.fares) }, Column("routes") { .string($0.routes.joined(separator: ", ")) },
            Column("price", in: .json) { $0.price.total.map(Value.double) ?? .null },
            // tsv and csv: the currency's own decimals, as gtfs trips writes them (8.20, not 8.2).
            Column("price", in: .flat) { way in way.price.minorTotal.map { .string(PriceText.amount(minor: $0, currency: way.price.currency)) } ?? .null },
            Column("currency") { $0.price.currency.map(Value.string) ?? .null },
            Column("journeys") { .int($0.journeys) },
            Column("riders", in: .json) { way in .object(Record(way.riders.map { ($0.name, $0.price.total.map(Value.double) ?? .null) })) },
        ]
        // Prices and the lines ridden whole (the lines wrap after each `>` and `,`); the fare ids
        // give way first; a rider category's header wraps over its prices.
        var table: [Column<Way>] = [Column("fares", "FARE") { .string($0.fares.isEmpty ? "?" : $0.fares) }.shrinkingFirst(),
                                    Column("routes", "ROUTES") { .string($0.routes.joined(separator: ", ")) }.wrapping(),
                                    Column("price", "PRICE") { JourneyLayout.priceText($0.price) }.whole()]
        for (k, rider) in riders.enumerated() {
            table.append(Column("rider\(k)", (rider.rider ?? "").uppercased()) { way in JourneyLayout.priceText(way.riders[k].price) }.whole())
        }
        table.append(data[5])
        var notices = feed.notices
        if rows.isEmpty { notices.append("No journey from \(from) to \(to) on \(day.iso), so no fare") }
        if rows.contains(where: { !$0.price.complete }) { notices.append("some of the day's journeys ride where no fare of the feed applies: their price is unknown (?)") }
        if let notice = JourneyLayout.tooManyWaysNotice(layout.fares) { notices.append(notice) }
        return Output(rows, data: data, table: table, notices: notices)
    }
}
