import Foundation
import TransitSupport
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Maps BART's XML answers to models. Every value is trimmed; BART answers errors inside
/// `<message><error>` with HTTP 200, so every document is checked for one first.
public enum BARTParser {
    static func document(_ data: Data, what: String) throws(TransitError) -> XMLTree.Element {
        let root = try XMLTree.parse(data, what: what)
        if let error = root.at("message", "error") {
            throw .api(provider: "BART", message: error.value("text") ?? "error", details: error.value("details"))
        }
        return root
    }

    public static func stations(_ data: Data) throws(TransitError) -> [BARTStation] {
        let root = try document(data, what: "BART's station list")
        guard let list = root.child("stations") else {
            throw .parse(what: "BART's station list", reason: "no <stations> element")
        }
        return list.all("station").compactMap { node in
            guard let abbr = node.value("abbr")?.uppercased() else { return nil }
            return BARTStation(abbr: abbr, name: node.value("name") ?? abbr, city: node.value("city") ?? "",
                           latitude: node.value("gtfs_latitude").flatMap(Double.init),
                           longitude: node.value("gtfs_longitude").flatMap(Double.init))
        }
    }

    static let colorNames: [String: String] = [
        "#ffff33": "YELLOW", "#ff9933": "ORANGE", "#339933": "GREEN", "#ff0000": "RED",
        "#0099cc": "BLUE", "#d5cfa3": "BEIGE", "#a8a9a9": "GREY",
    ]

    public static func routes(_ data: Data) throws(TransitError) -> [BARTRoute] {
        let root = try document(data, what: "BART's route info")
        guard let list = root.child("routes") else {
            throw .parse(what: "BART's route info", reason: "no <routes> element")
        }
        return list.all("route").compactMap { node in
            guard let numberText = node.value("number") ?? node.value("routeID")?.split(separator: " ").last.map(String.init),
                  let number = Int(numberText) else { return nil }
            let rawColor = node.value("color")
            let hex = node.value("hexcolor") ?? (rawColor?.hasPrefix("#") == true ? rawColor : nil)
            var color = rawColor.flatMap { $0.hasPrefix("#") ? nil : $0.uppercased() }
            if color == nil, let hex { color = colorNames[hex.lowercased()] }
            let stations = node.child("config")?.all("station").map { $0.text.uppercased() }.filter { !$0.isEmpty } ?? []
            return BARTRoute(number: number, routeID: node.value("routeID") ?? "ROUTE \(number)",
                         name: node.value("name") ?? "", abbr: node.value("abbr") ?? "",
                         color: color ?? (hex ?? "?"), hexColor: hex,
                         origin: node.value("origin")?.uppercased() ?? stations.first ?? "",
                         destination: node.value("destination")?.uppercased() ?? stations.last ?? "",
                         direction: node.value("direction"), stations: stations)
        }.sorted { $0.number < $1.number }
    }

    /// A route's schedule for one day, streamed: routesched bodies run to megabytes.
    public static func routeSchedule(_ data: Data, route: Int) throws(TransitError) -> BARTRouteSchedule {
        let delegate = RouteScheduleDelegate()
        let what = "BART's schedule of route \(route)"
        try XMLTree.run(delegate, on: data, what: what)
        if let error = delegate.errorText ?? delegate.errorDetails {
            throw .api(provider: "BART", message: delegate.errorText ?? error, details: delegate.errorDetails)
        }
        guard delegate.sawRoot, delegate.depth == 0 else {
            throw .parse(what: what, reason: "the XML document is incomplete")
        }
        guard delegate.sawRoute else {
            throw .parse(what: what, reason: "no <route> element")
        }
        return BARTRouteSchedule(route: route, trains: delegate.trains)
    }

    /// Puts a train's clock times on one service-day axis: times before the cut-off at the
    /// start, and any time earlier than the one before it, are on the next calendar day.
    static func serviceDayMinutes(_ raw: [Int?]) -> [Int?] {
        var stops = raw.map { BARTScheduledTrain.Stop(station: "", minutes: $0) }
        placeOnServiceDay(&stops)
        return stops.map(\.minutes)
    }

    /// `serviceDayMinutes` in place, over a train's stops.
    static func placeOnServiceDay(_ stops: inout [BARTScheduledTrain.Stop]) {
        var rollover: DayRollover?
        for i in stops.indices {
            guard let value = stops[i].minutes else { continue }
            // A first time before the cut-off is already the night after.
            if rollover == nil { rollover = DayRollover(offset: value < BART.serviceDayCutoff ? 1440 : 0) }
            stops[i].minutes = rollover?.place(value)
        }
    }

    /// `4:41 AM`, `06:04 PM`, with stray spaces, in minutes after midnight; fast path for
    /// the hundreds of thousands of stops in a day's schedules.
    static func clock(_ text: String) -> Int? {
        var hour = 0, minute = 0, digits = 0, state = 0
        var pm: Bool?
        for byte in text.utf8 {
            switch state {
            case 0: // hour
                // At most two digits: an absurd hour falls through to the careful parser (nil).
                if byte >= 48 && byte <= 57 && digits < 2 { hour = hour * 10 + Int(byte - 48); digits += 1 }
                else if byte == 58 && digits > 0 && digits <= 2 { state = 1; digits = 0 }
                else if byte == 32 && digits == 0 { continue }
                else { return ClockTime.minutes(text) }
            case 1: // minute
                if byte >= 48 && byte <= 57 && digits < 2 { minute = minute * 10 + Int(byte - 48); digits += 1 }
                else if digits == 2 && byte == 32 { state = 2 }
                else if digits == 2 && (byte | 0x20 == 97 || byte | 0x20 == 112) { pm = byte | 0x20 == 112; state = 3 }
                else { return ClockTime.minutes(text) }
            case 2: // space before meridiem
                if byte == 32 { continue }
                if byte | 0x20 == 97 || byte | 0x20 == 112 { pm = byte | 0x20 == 112; state = 3 } else { return ClockTime.minutes(text) }
            case 3:
                if byte | 0x20 == 109 { state = 4 } else { return ClockTime.minutes(text) }
            default:
                if byte != 32 { return ClockTime.minutes(text) }
            }
        }
        guard state == 4, let pm, (1...12).contains(hour), minute < 60 else { return ClockTime.minutes(text) }
        return ((hour % 12) + (pm ? 12 : 0)) * 60 + minute
    }

    /// `01/02/2018 ` (trailing space and all) → a date.
    static func usDate(_ text: String) -> LocalDate? {
        let parts = text.trimmedSpace().split(separator: "/")
        guard parts.count == 3, let m = Int(parts[0]), let d = Int(parts[1]), let y = Int(parts[2]),
              (1...12).contains(m), (1...31).contains(d), (1900...2200).contains(y) else { return nil }
        return LocalDate(year: y, month: m, day: d)
    }

    public static func plannedTrips(_ data: Data) throws(TransitError) -> [BARTPlannedTrip] {
        let what = "BART's trip planner answer"
        let root = try document(data, what: what)
        guard let request = root.at("schedule", "request") else {
            throw .parse(what: what, reason: "no <schedule><request> element")
        }
        func instant(_ node: XMLTree.Element, _ timeKey: String, _ dateKey: String) -> Date? {
            guard let date = node.attribute(dateKey).flatMap(usDate),
                  let minutes = node.attribute(timeKey).flatMap(clock) else { return nil }
            return date.instant(minutes: minutes, in: BART.zone)
        }
        return request.all("trip").compactMap { trip in
            guard let departure = instant(trip, "origTimeMin", "origTimeDate"),
                  let arrival = instant(trip, "destTimeMin", "destTimeDate") else { return nil }
            let fares = trip.child("fares")?.all("fare").compactMap { fare -> BARTPlannedTrip.Fare? in
                guard let amount = fare.attribute("amount").flatMap(Double.init) else { return nil }
                return BARTPlannedTrip.Fare(name: fare.attribute("name") ?? fare.attribute("class") ?? "fare",
                                        fareClass: fare.attribute("class") ?? "", amount: amount)
            } ?? []
            let legs = trip.all("leg").compactMap { leg -> BARTPlannedTrip.PlannedLeg? in
                guard let dep = instant(leg, "origTimeMin", "origTimeDate"),
                      let arr = instant(leg, "destTimeMin", "destTimeDate") else { return nil }
                return BARTPlannedTrip.PlannedLeg(order: leg.attribute("order").flatMap(Int.init) ?? 0,
                                              origin: leg.attribute("origin") ?? "", destination: leg.attribute("destination") ?? "",
                                              departure: dep, arrival: arr, line: leg.attribute("line") ?? "",
                                              trainHeadStation: leg.attribute("trainHeadStation") ?? "",
                                              bikes: leg.attribute("bikeflag").map { $0 == "1" })
            }.sorted { $0.order < $1.order }
            return BARTPlannedTrip(origin: trip.attribute("origin") ?? legs.first?.origin ?? "",
                               destination: trip.attribute("destination") ?? legs.last?.destination ?? "",
                               departure: departure, arrival: arrival,
                               fare: trip.attribute("fare").flatMap(Double.init),
                               tripMinutes: trip.attribute("tripTime").flatMap(Int.init), fares: fares, legs: legs)
        }
    }

    public static func departures(_ data: Data) throws(TransitError) -> [BARTDeparture] {
        let root = try document(data, what: "BART's departures")
        var result: [BARTDeparture] = []
        for station in root.all("station") {
            let code = station.value("abbr")?.uppercased() ?? ""
            for etd in station.all("etd") {
                for estimate in etd.all("estimate") {
                    let minutesText = estimate.value("minutes") ?? ""
                    let minutes = Int(minutesText) ?? (minutesText.lowercased() == "leaving" ? 0 : nil)
                    guard let minutes else { continue }
                    result.append(BARTDeparture(
                        station: code, destination: etd.value("destination") ?? "",
                        destinationCode: etd.value("abbreviation")?.uppercased() ?? "", minutes: minutes,
                        platform: estimate.value("platform").flatMap(Int.init), direction: estimate.value("direction") ?? "",
                        cars: estimate.value("length").flatMap(Int.init), line: estimate.value("color") ?? "",
                        hexColor: estimate.value("hexcolor"), delaySeconds: estimate.value("delay").flatMap(Int.init) ?? 0,
                        cancelled: estimate.value("cancelflag") == "1", bikes: estimate.value("bikeflag").map { $0 == "1" }))
                }
            }
        }
        return result
    }

    public static func advisories(_ data: Data) throws(TransitError) -> [BARTAdvisory] {
        let root = try document(data, what: "BART's advisories")
        return root.all("bsa").compactMap { node in
            guard let description = node.value("description") ?? node.value("sms_text") else { return nil }
            return BARTAdvisory(id: node.attribute("id"), station: node.value("station"), type: node.value("type"),
                            description: description, posted: node.value("posted"), expires: node.value("expires"))
        }
    }
}

/// Streams `<train>`/`<stop>` elements into trains, and picks up `<message><error>`.
/// Kept lean: it runs once per stop, hundreds of thousands of times for a full day.
final class RouteScheduleDelegate: NSObject, XMLParserDelegate {
    var trains: [BARTScheduledTrain] = []
    var depth = 0
    var sawRoot = false
    var sawRoute = false
    var errorText: String?
    var errorDetails: String?

    private var trainIndex = 0
    private var stops: [BARTScheduledTrain.Stop] = []
    private var inTrain = false
    private var inError = false
    private var capture: String?
    private var text = ""

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        depth += 1
        if inTrain && name == "stop" {
            guard var station = attributes["station"] else { return }
            if station.utf8.first == 32 || station.utf8.last == 32 { station = station.trimmedSpace() }
            var minutes: Int?
            if let time = attributes["origTime"] { minutes = BARTParser.clock(time) }
            stops.append(BARTScheduledTrain.Stop(station: station, minutes: minutes))
            return
        }
        sawRoot = true
        switch name {
        case "train":
            inTrain = true
            trainIndex = attributes["index"].flatMap { Int($0.trimmedSpace()) } ?? (trains.count + 1)
            stops = []
            stops.reserveCapacity(32)
        case "route": sawRoute = true
        case "error": inError = true
        case "text" where inError, "details" where inError:
            capture = name
            text = ""
        default: break
        }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        depth -= 1
        if name == "stop" { return }
        switch name {
        case "train" where inTrain:
            inTrain = false
            BARTParser.placeOnServiceDay(&stops)
            trains.append(BARTScheduledTrain(index: trainIndex, stops: stops))
        case "error": inError = false
        case "text" where capture == name, "details" where capture == name:
            let value = text.trimmedSpace()
            if name == "text" { errorText = value } else { errorDetails = value }
            capture = nil
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if capture != nil { text += string }
    }
}
