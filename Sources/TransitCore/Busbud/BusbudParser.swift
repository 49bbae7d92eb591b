import Foundation

/// Busbud's JSON, read leniently: ids as strings or numbers, unknown keys ignored, local times
/// without an offset read in the zone each departure names.
public enum BusbudParser {
    public static func response(_ data: Data) throws(TransitError) -> BusbudResponse {
        let what = "Busbud's answer"
        let root = try Loose.json(data, what: what)
        guard case .object = root else { throw .parse(what: what, reason: "not a JSON object") }
        guard let complete = root["complete"]?.bool else { throw .parse(what: what, reason: "no \"complete\" flag") }
        let departures = (root["departures"]?.items ?? []).compactMap(departure)
        return BusbudResponse(
            complete: complete,
            isValidRoute: root["is_valid_route"]?.bool,
            intervalMilliseconds: root["metadata"]?["interval"]?.int,
            cities: (root["cities"]?.items ?? []).compactMap { c in
                c["id"]?.text.map { BusbudCity(id: $0, name: c["name"]?.text ?? $0) }
            },
            locations: (root["locations"]?.items ?? []).compactMap { l in
                guard let id = l["id"]?.int else { return nil }
                return BusbudLocation(id: id, cityID: l["city_id"]?.text ?? "", name: l["name"]?.text ?? String(id))
            },
            operators: (root["operators"]?.items ?? []).compactMap { o in
                guard let id = o["id"]?.text else { return nil }
                return BusbudOperator(id: id, name: o["display_name"]?.text ?? o["name"]?.text ?? id)
            },
            departures: departures)
    }

    static func departure(_ d: Loose) -> BusbudDeparture? {
        guard let id = d["id"]?.text,
              let depZone = d["departure_timezone"]?.text.flatMap(TimeZone.init(identifier:)),
              let arrZone = d["arrival_timezone"]?.text.flatMap(TimeZone.init(identifier:)),
              let departure = localTime(d["departure_time"]?.text, zone: depZone),
              let arrival = localTime(d["arrival_time"]?.text, zone: arrZone) else { return nil }
        return BusbudDeparture(id: id, operatorID: d["operator_id"]?.text ?? "",
                               originLocationID: d["origin_location_id"]?.int ?? 0,
                               destinationLocationID: d["destination_location_id"]?.int ?? 0,
                               departure: departure, departureZone: depZone, arrival: arrival, arrivalZone: arrZone,
                               durationMinutes: d["duration"]?.int, priceTotal: d["prices"]?["total"]?.int,
                               currency: d["prices"]?["currency"]?.text, availableSeats: d["available_seats"]?.int,
                               travelClass: d["class_name"]?.text.flatMap { $0 == "-" ? nil : $0 } ?? d["class"]?.text)
    }

    /// `2018-03-10T18:30:00` (no offset) in `zone`.
    static func localTime(_ text: String?, zone: TimeZone) -> Date? {
        guard let text, text.count >= 16, let day = LocalDate(iso: String(text.prefix(10))),
              text.dropFirst(10).first == "T", let minutes = ClockTime.minutes(String(text.dropFirst(11).prefix(5))) else { return nil }
        let seconds = text.count >= 19 ? Int(text.dropFirst(17).prefix(2)) ?? 0 : 0
        return day.instant(minutes: minutes, in: zone).addingTimeInterval(TimeInterval(seconds))
    }

    /// `{"error": {"type": …, "details": …}}` or `{"error": "…"}` from a non-2xx answer.
    static func errorMessage(_ data: Data) -> String? {
        guard let root = try? Loose.json(data, what: ""), let error = root["error"] else { return nil }
        return error["details"]?.text ?? error["message"]?.text ?? error["type"]?.text ?? error.text
    }
}
