import Foundation

public struct BusbudSearchOptions: Sendable, Equatable {
    public var query: BusbudQuery
    public var maxWait: TimeInterval
    public var pollInterval: TimeInterval?
}

/// `transit busbud search`.
struct BusbudCommands {
    let context: Context

    func search(_ options: BusbudSearchOptions) async throws(TransitError) -> Output {
        let settings = context.settings
        let token = settings.environment["TRANSIT_BUSBUD_TOKEN"].flatMap { $0.isEmpty ? nil : $0 } ?? settings.key("busbud")
        if token == nil && !settings.offline {
            throw .missingKey(variable: "TRANSIT_BUSBUD_TOKEN", provider: "Busbud",
                              whereToGet: "Busbud gives partner tokens (X-Busbud-Token) on request: busbud.com/en/partners")
        }
        let client = BusbudClient(http: context.http, baseURL: settings.baseURL("busbud", default: Busbud.defaultBaseURL), token: token ?? "")
        var search = BusbudSearch(client: client, maxWait: options.maxWait, pollInterval: options.pollInterval)
        search.waits = !settings.offline
        let spinner = context.spinner
        spinner.start("searching Busbud")
        let result = try await search.run(options.query) { count in
            spinner.update("searching Busbud: \(count) departure\(count == 1 ? "" : "s") so far")
        }
        var notices: [String] = []
        let q = options.query
        if !result.validRoute {
            notices.append("Busbud does not serve \(q.origin) → \(q.destination)")
        } else if !result.complete {
            notices.append("Busbud's search was incomplete after \(TransitError.seconds(options.maxWait)) s: \(result.departures.count) departures so far")
        } else if result.departures.isEmpty {
            notices.append("No departures from \(q.origin) to \(q.destination) on \(q.date.iso)")
        }
        let records = result.departures.map { Self.record($0, result) }
        let place = { (key: String, part: String) in
            Column(key + "_" + part, nil) { record in
                if case .object(let r)? = record[key] { return r[part] ?? .null }
                return .null
            }
        }
        let price = Column("price", "PRICE") { record in
            guard case .object(let p)? = record["price"], case .int(let total)? = p["total"], case .string(let currency)? = p["currency"] else { return .null }
            return .string(Self.money(total, currency))
        }
        let priceTotal = Column("price_total") { record in
            if case .object(let p)? = record["price"] { return p["total"] ?? .null }
            return .null
        }
        let currency = Column("currency") { record in
            if case .object(let p)? = record["price"] { return p["currency"] ?? .null }
            return .null
        }
        var from = place("origin", "name"), to = place("destination", "name")
        from.header = "FROM"
        to.header = "TO"
        return Output(records: records,
                      table: [Column("departure", "DEPART"), Column("arrival", "ARRIVE"), Column("duration_minutes", "MIN"), from, to,
                              Column("operator"), Column("available_seats", "SEATS"), price],
                      flat: [Column("id"), Column("departure"), Column("arrival"), Column("duration_minutes"),
                             place("origin", "name"), place("origin", "city"), place("destination", "name"), place("destination", "city"),
                             Column("operator"), Column("class"), Column("available_seats"), priceTotal, currency],
                      notices: notices)
    }

    static func record(_ d: BusbudDeparture, _ result: BusbudSearch.Result) -> Record {
        func place(_ id: Int) -> Value {
            let location = result.locations[id]
            let city = location.flatMap { result.cities[$0.cityID] }
            return .object(Record([("id", .int(id)), ("name", .optional(location?.name)), ("city", .optional(city?.name))]))
        }
        let duration = d.durationMinutes ?? Int((d.arrival.timeIntervalSince(d.departure) / 60).rounded())
        let price: Value = d.priceTotal.map { total in
            .object(Record([("total", .int(total)), ("currency", .optional(d.currency))]))
        } ?? .null
        return Record([("id", .string(d.id)), ("departure", .time(d.departure, d.departureZone)), ("arrival", .time(d.arrival, d.arrivalZone)),
                       ("duration_minutes", .int(duration)), ("origin", place(d.originLocationID)), ("destination", place(d.destinationLocationID)),
                       ("operator", .optional(result.operators[d.operatorID]?.name)), ("class", .optional(d.travelClass)),
                       ("available_seats", .optional(d.availableSeats)), ("price", price)])
    }

    /// `$52.00`, `€72.95`, `CA$12.00`, `JPY 500`: minor units shown in major units.
    static func money(_ minor: Int, _ currency: String) -> String {
        let zeroDecimal: Set<String> = ["JPY", "KRW", "CLP", "VND", "ISK", "HUF"]
        let symbols = ["USD": "$", "EUR": "€", "GBP": "£", "CAD": "CA$", "AUD": "A$", "MXN": "MX$"]
        let amount = zeroDecimal.contains(currency) ? String(minor)
            : (minor < 0 ? "-" : "") + String(abs(minor) / 100) + "." + String(format: "%02d", abs(minor) % 100)
        if let symbol = symbols[currency] { return symbol + amount }
        return currency + " " + amount
    }
}
