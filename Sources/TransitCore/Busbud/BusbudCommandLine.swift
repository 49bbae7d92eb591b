import Foundation
import TransitSupport

package struct BusbudSearchOptions: Sendable, Equatable {
    package var query: BusbudQuery
    package var maxWait: TimeInterval
    package var pollInterval: TimeInterval?
}

/// `transit busbud …`: its spec and its command.
enum BusbudCommandLine {
    static let commands: [any SpecifiedCommand.Type] = [BusbudSearchCommand.self]

    static let spec = ProviderSpec(
        name: "busbud", displayName: "Busbud", summary: "Busbud intercity bus search (needs TRANSIT_BUSBUD_TOKEN)",
        zoneName: "each departure's own",
        commands: commands.map { $0.spec },
        baseURLs: [("TRANSIT_BUSBUD_BASE_URL", Busbud.defaultBaseURL)],
        key: KeySpec(variable: "TRANSIT_BUSBUD_TOKEN", aliases: ["TRANSIT_BUSBUD_KEY"],
                     whereToGet: "Busbud gives partner tokens (X-Busbud-Token) on request: busbud.com/en/partners"))
}

/// `transit busbud search`: departures between two cities on a date, with prices.
struct BusbudSearchCommand: SpecifiedCommand {
    static let spec = CommandSpec(provider: "busbud", name: "search", summary: "departures between two cities on a date, with prices",
                examples: ["transit busbud search --date 2026-12-19 --currency USD",
                           "transit busbud search --from Toronto --to Montréal --date tomorrow --adults 2 --format json",
                           "transit busbud search --from dr5reg --to f25dvk --date 2026-12-19 --max-wait 20"],
                options: [
                    OptionSpec("from", value: "PLACE", "origin: a geohash or a city (\(Busbud.cities.prefix(5).map { $0.names[0] }.joined(separator: ", ")), …)", default: "New York"),
                    OptionSpec("to", value: "PLACE", "destination, as --from", default: "Montréal"),
                    OptionSpec("date", value: "DATE", "YYYY-MM-DD, today or tomorrow (not in the past)", required: true),
                    OptionSpec("adults", value: "N", "adult passengers", default: "1"),
                    OptionSpec("children", value: "N", "child passengers", default: "0"),
                    OptionSpec("seniors", value: "N", "senior passengers", default: "0"),
                    OptionSpec("currency", value: "XXX", "ISO 4217 currency of prices", default: "USD"),
                    OptionSpec("lang", value: "xx", "language of names, ISO 639-1", default: "en"),
                    OptionSpec("max-wait", value: "SECONDS", "give up polling after this long and print what arrived", default: "60"),
                    OptionSpec("poll-interval", value: "SECONDS", "seconds between polls (default: Busbud's metadata.interval, else 2)"),
                ],
                notes: ["Fields: id, departure, arrival (each in its own zone), duration_minutes, origin and destination ({id, name, city}), operator, class, available_seats, price ({total, currency}; total in minor units). Sorted by departure. tsv/csv flatten them: origin_name, origin_city, destination_name, destination_city, price_total, currency."])

    var options: BusbudSearchOptions

    init(_ options: BusbudSearchOptions) { self.options = options }

    init(_ args: Arguments) throws(TransitError) {
        let origin = try Busbud.place(try args.required("from"))
        let destination = try Busbud.place(try args.required("to"))
        if origin.geohash == destination.geohash { throw .usage("--from and --to are the same place") }
        // "Today" where the trip starts; for a bare geohash, the last zone on Earth to reach a
        // date (UTC−12), so no date that is still today somewhere is refused.
        let zone = origin.zone ?? TimeZone(secondsFromGMT: -12 * 3600) ?? .current
        guard let date = try args.date(zone: zone) else { throw args.missing("date") }
        if !args.offline && date < LocalDate(args.now, in: zone) {
            throw .usage("--date \(date.iso) is in the past", hint: "Busbud searches today and later; a recording (--offline) keeps its date")
        }
        let currency = try args.required("currency")
        guard currency.count == 3, currency.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw .usage("--currency takes an ISO 4217 code like USD, not '\(currency)'")
        }
        let lang = try args.required("lang")
        guard lang.count == 2, lang.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw .usage("--lang takes a two-letter ISO 639-1 code like en, not '\(lang)'")
        }
        let query = BusbudQuery(origin: origin.geohash, destination: destination.geohash, date: date,
                                adults: try args.intValue("adults", in: 0...20), children: try args.intValue("children", in: 0...20),
                                seniors: try args.intValue("seniors", in: 0...20), currency: currency.uppercased(), lang: lang.lowercased())
        if query.adults + query.children + query.seniors == 0 { throw .usage("a search needs at least one passenger") }
        guard let maxWait = try args.seconds("max-wait", max: 3600) else { throw args.missing("max-wait") }
        options = BusbudSearchOptions(query: query, maxWait: maxWait, pollInterval: try args.seconds("poll-interval", max: 60))
    }

    func run(_ context: Context) async throws(TransitError) -> Output { try await BusbudCommands(context).search(options) }
}
