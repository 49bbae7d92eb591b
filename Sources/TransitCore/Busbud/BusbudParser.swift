import Foundation
import TransitSupport

/// Busbud's JSON through Decodable structs: ids as strings or numbers, unknown keys ignored,
/// local times without an offset read in the zone each departure names. A departure that
/// cannot be read (an unknown zone, a bad time) is counted and said, never dropped in silence.
public enum BusbudParser {
    struct Raw: Decodable {
        var complete: Flag?
        var is_valid_route: Flag?
        var metadata: Metadata?
        var cities: Items<RawCity>?
        var locations: Items<RawLocation>?
        var operators: Items<RawOperator>?
        var departures: Items<RawDeparture>?
    }

    struct Metadata: Decodable { var interval: Number? }
    struct RawCity: Decodable { var id: Text?, name: Text? }
    struct RawLocation: Decodable { var id: Number?, city_id: Text?, name: Text? }
    struct RawOperator: Decodable { var id: Text?, name: Text?, display_name: Text? }
    struct RawPrices: Decodable { var total: Number?, currency: Text? }

    struct RawDeparture: Decodable {
        var id: Text?
        var operator_id: Text?
        var origin_location_id: Number?
        var destination_location_id: Number?
        var departure_time: Text?
        var arrival_time: Text?
        var departure_timezone: Text?
        var arrival_timezone: Text?
        var duration: Number?
        var prices: RawPrices?
        var available_seats: Number?
        var class_name: Text?
        var `class`: Text?

        func model() -> Result<BusbudDeparture, BusTimeParser.Unreadable> {
            guard let id = id?.value else { return .failure(.init(reason: "no id")) }
            func zone(_ text: Text?, _ field: String) -> Result<TimeZone, BusTimeParser.Unreadable> {
                guard let name = text?.value else { return .failure(.init(reason: "departure \(id): no \(field)")) }
                guard let zone = TimeZone(identifier: name) else { return .failure(.init(reason: "departure \(id): unknown time zone '\(name.prefix(40))'")) }
                return .success(zone)
            }
            func time(_ text: Text?, _ field: String, _ zone: TimeZone) -> Result<Date, BusTimeParser.Unreadable> {
                guard let value = text?.value, let date = LocalTimestamp.iso(value, zone: zone) else {
                    return .failure(.init(reason: "departure \(id): \(field) '\((text?.value ?? "").prefix(40))' is not a local time"))
                }
                return .success(date)
            }
            do {
                let depZone = try zone(departure_timezone, "departure_timezone").get()
                let arrZone = try zone(arrival_timezone, "arrival_timezone").get()
                let departure = try time(departure_time, "departure_time", depZone).get()
                let arrival = try time(arrival_time, "arrival_time", arrZone).get()
                let className = class_name?.value.flatMap { $0 == "-" ? nil : $0 }
                return .success(BusbudDeparture(id: id, operatorID: operator_id?.value ?? "",
                                                originLocationID: origin_location_id?.int ?? 0,
                                                destinationLocationID: destination_location_id?.int ?? 0,
                                                departure: departure, departureZone: depZone, arrival: arrival, arrivalZone: arrZone,
                                                durationMinutes: duration?.int, priceTotal: prices?.total?.int,
                                                currency: prices?.currency?.value, availableSeats: available_seats?.int,
                                                travelClass: className ?? `class`?.value))
            } catch {
                return .failure(error)
            }
        }
    }

    public static func response(_ data: Data) throws(TransitError) -> BusbudResponse {
        let what = "Busbud's answer"
        guard XMLTree.firstContentByte(data) == UInt8(ascii: "{") else { throw .parse(what: what, reason: "not a JSON object") }
        let raw = try DecodeFailure.json(Raw.self, from: data, what: what)
        guard let complete = raw.complete?.value else { throw .parse(what: what, reason: "no \"complete\" flag") }
        var skipped = Skipped()
        skipped.add(raw.departures?.failures ?? [])
        var departures: [BusbudDeparture] = []
        for item in raw.departures?.values ?? [] {
            switch item.model() {
            case .success(let d): departures.append(d)
            case .failure(let why): skipped.add([why.reason])
            }
        }
        if departures.isEmpty && skipped.count > 0 {
            throw .parse(what: what, reason: "none of its \(skipped.count) departures could be read (\(skipped.first ?? ""))")
        }
        return BusbudResponse(
            complete: complete,
            isValidRoute: raw.is_valid_route?.value,
            intervalMilliseconds: raw.metadata?.interval?.int,
            cities: (raw.cities?.values ?? []).compactMap { c in c.id?.value.map { BusbudCity(id: $0, name: c.name?.value ?? $0) } },
            locations: (raw.locations?.values ?? []).compactMap { l in
                guard let id = l.id?.int else { return nil }
                return BusbudLocation(id: id, cityID: l.city_id?.value ?? "", name: l.name?.value ?? String(id))
            },
            operators: (raw.operators?.values ?? []).compactMap { o in
                guard let id = o.id?.value else { return nil }
                return BusbudOperator(id: id, name: o.display_name?.value ?? o.name?.value ?? id)
            },
            departures: departures, skipped: skipped)
    }

    struct RawError: Decodable {
        var error: ErrorBody?
        struct ErrorBody: Decodable {
            var text: String?
            init(from decoder: Decoder) throws {
                if let plain = try? Text(from: decoder) { text = plain.value; return }
                let c = try decoder.container(keyedBy: AnyKey.self)
                text = try ["details", "message", "type"].lazy.compactMap { key in
                    try c.decodeIfPresent(Text.self, forKey: AnyKey(key))?.value
                }.first
            }
        }
    }

    /// `{"error": {"type": …, "details": …}}` or `{"error": "…"}` from a non-2xx answer.
    static func errorMessage(_ data: Data) -> String? {
        (try? JSONDecoder().decode(RawError.self, from: data))?.error?.text
    }
}
