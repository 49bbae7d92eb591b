import Foundation
import TransitSupport
import TransitGTFS

/// `transit busbud search`.
struct BusbudCommands {
    let context: Context

    init(_ context: Context) {
        self.context = context
    }

    /// A departure with the places and operator it names, looked up.
    struct Row {
        var departure: BusbudDeparture
        var origin: Place
        var destination: Place
        var operatorName: String?
    }

    struct Place {
        var id: Int
        var name: String?
        var city: String?
    }

    func search(_ options: BusbudSearchOptions) async throws(TransitError) -> Output {
        let settings = context.settings
        let client = BusbudClient(http: context.http, baseURL: settings.baseURL("busbud", default: Busbud.defaultBaseURL), token: try settings.key())
        var search = BusbudSearch(client: client, maxWait: options.maxWait, pollInterval: options.pollInterval)
        search.waits = !settings.offline
        let progress = context.progress
        let result = try await search.run(options.query) { count in
            progress("searching Busbud: \(count) departure\(count == 1 ? "" : "s") so far")
        }
        var notices: [String] = []
        if let skipped = result.skipped.notice("departures", of: result.departures.count + result.skipped.count) {
            notices.append("Busbud: " + skipped)
        }
        let q = options.query
        if !result.validRoute {
            notices.append("Busbud does not serve \(q.origin) → \(q.destination)")
        } else if !result.complete {
            notices.append("Busbud's search was incomplete after \(TransitError.seconds(options.maxWait)) s: \(result.departures.count) departures so far")
        } else if result.departures.isEmpty {
            notices.append("No departures from \(q.origin) to \(q.destination) on \(q.date.iso)")
        }
        return Self.output(result, notices: notices)
    }

    /// The departures laid out, each with the places and operator it names.
    static func output(_ result: BusbudSearch.Result, notices: [String]) -> Output {
        func place(_ id: Int) -> Place {
            let location = result.locations[id]
            return Place(id: id, name: location?.name, city: location.flatMap { result.cities[$0.cityID] }?.name)
        }
        let rows = result.departures.map {
            Row(departure: $0, origin: place($0.originLocationID), destination: place($0.destinationLocationID),
                operatorName: result.operators[$0.operatorID]?.name)
        }
        let placeColumns: [Column<Place>] = [Column("id") { .int($0.id) }, Column("name") { .optional($0.name) }, Column("city") { .optional($0.city) }]
        let departure = Column<Row>("departure", "DEPART") { .time($0.departure.departure, $0.departure.departureZone) }
        let arrival = Column<Row>("arrival", "ARRIVE") { .time($0.departure.arrival, $0.departure.arrivalZone) }
        let duration = Column<Row>("duration_minutes", "MIN") { row in
            .int(row.departure.durationMinutes ?? Int((row.departure.arrival.timeIntervalSince(row.departure.departure) / 60).rounded()))
        }
        let operatorName = Column<Row>("operator") { .optional($0.operatorName) }
        let seats = Column<Row>("available_seats", "SEATS") { .optional($0.departure.availableSeats) }
        let originName = Column<Row>("origin_name", "FROM", in: .flat) { .optional($0.origin.name) }
        let destinationName = Column<Row>("destination_name", "TO", in: .flat) { .optional($0.destination.name) }
        let data: [Column<Row>] = [
            Column("id") { .string($0.departure.id) }, departure, arrival, duration,
            Column("origin", in: .json) { .object(Record(placeColumns, $0.origin)) },
            Column("destination", in: .json) { .object(Record(placeColumns, $0.destination)) },
            originName, Column("origin_city", in: .flat) { .optional($0.origin.city) },
            destinationName, Column("destination_city", in: .flat) { .optional($0.destination.city) },
            operatorName, Column("class") { .optional($0.departure.travelClass) }, seats,
            Column("price", in: .json) { row in
                row.departure.priceTotal.map { .object(Record([("total", .int($0)), ("currency", .optional(row.departure.currency))])) } ?? .null
            },
            Column("price_total", in: .flat) { .optional($0.departure.priceTotal) },
            Column("currency", in: .flat) { .optional($0.departure.currency) },
        ]
        let price = Column<Row>("price", "PRICE") { row in
            guard let total = row.departure.priceTotal, let currency = row.departure.currency else { return .null }
            return .string(PriceText.table(minor: Double(total), currency: currency))
        }
        // The table marks an arrival on a later calendar day than the departure (`09:20+1`), as
        // bart and gtfs trips do; each time in its own stop's zone.
        let arrive = Column<Row>("arrival", "ARRIVE") { row in
            let leaves = LocalDate(row.departure.departure, in: row.departure.departureZone)
            return .string(ClockTime.hhmm(row.departure.arrival, zone: row.departure.arrivalZone, on: leaves))
        }
        return Output(rows, data: data, table: [departure, arrive, duration, originName, destinationName, operatorName, seats, price],
                      notices: notices)
    }
}
