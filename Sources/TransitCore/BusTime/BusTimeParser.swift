import Foundation

/// Maps BusTime answers, JSON (what we ask for) or XML (v2 captures), v2 or v3, to models.
/// Errors come inside `bustime-response.error[]` with HTTP 200; some mean "empty".
public enum BusTimeParser {
    /// The `bustime-response` object of a JSON or XML body.
    static func envelope(_ data: Data, agency: BusTimeAgency, what: String) throws(TransitError) -> Loose {
        let document: Loose
        if isXML(data) {
            let root = try XMLTree.parse(data, what: what)
            guard root.name == "bustime-response" else {
                throw .parse(what: what, reason: "expected <bustime-response>, found <\(root.name)>")
            }
            document = Loose.xml(root)
            if case .string = document { return .object([:]) }
            return document
        }
        document = try Loose.json(data, what: what)
        guard let response = document["bustime-response"] else {
            throw .parse(what: what, reason: "no \"bustime-response\" in the answer")
        }
        return response
    }

    /// The messages of a response; throws the first one that is a real failure when no data came.
    static func messages(_ response: Loose, hasData: Bool, agency: BusTimeAgency) throws(TransitError) -> [BusTimeMessage] {
        let messages = (response["error"]?.items ?? []).compactMap { item -> BusTimeMessage? in
            guard let msg = item["msg"]?.text ?? item.text else { return nil }
            let subject: String?
            if let stop = item["stpid"]?.text { subject = "stop \(stop)" }
            else if let route = item["rt"]?.text { subject = "route \(route)" }
            else if let vid = item["vid"]?.text { subject = "vehicle \(vid)" }
            else if let pid = item["pid"]?.text { subject = "pattern \(pid)" }
            else { subject = nil }
            return BusTimeMessage(message: msg, subject: subject)
        }
        if let failure = messages.first(where: { !$0.meansEmpty }), !hasData {
            throw .api(provider: agency.name, message: failure.message, details: nil)
        }
        return messages
    }

    static func result<T>(_ data: Data, agency: BusTimeAgency, what: String, key: String,
                          map: (Loose) -> T?) throws(TransitError) -> BusTimeResult<T> {
        let response = try envelope(data, agency: agency, what: what)
        let items = (response[key]?.items ?? []).compactMap(map)
        let messages = try messages(response, hasData: !items.isEmpty, agency: agency)
        return BusTimeResult(items: items, messages: messages)
    }

    /// `YYYYMMDD HH:MM` or `YYYYMMDD HH:MM:SS`, agency-local.
    public static func timestamp(_ text: String?, zone: TimeZone) -> Date? {
        guard let text = text?.trimmingCharacters(in: .whitespaces) else { return nil }
        let parts = text.split(separator: " ")
        guard parts.count == 2, parts[0].count == 8, let ymd = Int(parts[0]) else { return nil }
        let date = LocalDate(year: ymd / 10000, month: ymd / 100 % 100, day: ymd % 100)
        guard LocalDate(iso: date.iso) != nil else { return nil }
        let hms = parts[1].split(separator: ":")
        guard hms.count == 2 || hms.count == 3, let minutes = ClockTime.minutes(hms.prefix(2).joined(separator: ":")) else { return nil }
        var seconds = 0
        if hms.count == 3 {
            guard let s = Int(hms[2]), (0..<60).contains(s) else { return nil }
            seconds = s
        }
        return date.instant(minutes: minutes, in: zone).addingTimeInterval(TimeInterval(seconds))
    }

    public static func routes(_ data: Data, agency: BusTimeAgency) throws(TransitError) -> BusTimeResult<BusRoute> {
        try result(data, agency: agency, what: "\(agency.name) routes", key: isXML(data) ? "route" : "routes") { item in
            guard let id = item["rt"]?.text else { return nil }
            return BusRoute(id: id, name: item["rtnm"]?.text ?? id, color: item["rtclr"]?.text, designator: item["rtdd"]?.text)
        }
    }

    /// XML bodies (v2 captures) name lists by their repeated element (`route`, `dir`, `stop`),
    /// JSON by a plural key (`routes`, `directions`, `stops`).
    static func isXML(_ data: Data) -> Bool {
        XMLTree.firstContentByte(data) == UInt8(ascii: "<")
    }

    public static func directions(_ data: Data, agency: BusTimeAgency) throws(TransitError) -> BusTimeResult<BusDirection> {
        try result(data, agency: agency, what: "\(agency.name) directions", key: isXML(data) ? "dir" : "directions") { item in
            // v3 {id, name}; v2 {dir} in JSON, bare text in XML.
            if let id = item["id"]?.text { return BusDirection(id: id, name: item["name"]?.text ?? id) }
            if let dir = item["dir"]?.text ?? item.text { return BusDirection(id: dir, name: dir) }
            return nil
        }
    }

    public static func stops(_ data: Data, agency: BusTimeAgency) throws(TransitError) -> BusTimeResult<BusStop> {
        try result(data, agency: agency, what: "\(agency.name) stops", key: isXML(data) ? "stop" : "stops") { item in
            guard let id = item["stpid"]?.text else { return nil }
            return BusStop(id: id, name: item["stpnm"]?.text ?? id, latitude: item["lat"]?.double, longitude: item["lon"]?.double)
        }
    }

    public static func patterns(_ data: Data, agency: BusTimeAgency) throws(TransitError) -> BusTimeResult<BusPattern> {
        try result(data, agency: agency, what: "\(agency.name) patterns", key: "ptr") { item in
            guard let pid = item["pid"]?.int else { return nil }
            let points = (item["pt"]?.items ?? []).compactMap { pt -> BusPattern.Point? in
                guard let lat = pt["lat"]?.double, let lon = pt["lon"]?.double else { return nil }
                let isStop = pt["typ"]?.text?.uppercased() == "S"
                return BusPattern.Point(sequence: pt["seq"]?.int ?? 0, latitude: lat, longitude: lon, isStop: isStop,
                                        stopID: pt["stpid"]?.text, stopName: pt["stpnm"]?.text,
                                        distance: isStop ? pt["pdist"]?.double : pt["pdist"]?.double.flatMap { $0 > 0 ? $0 : nil })
            }.sorted { $0.sequence < $1.sequence }
            return BusPattern(id: pid, length: item["ln"]?.double, direction: item["rtdir"]?.text ?? "", points: points)
        }
    }

    public static func predictions(_ data: Data, agency: BusTimeAgency) throws(TransitError) -> BusTimeResult<Prediction> {
        try result(data, agency: agency, what: "\(agency.name) predictions", key: "prd") { item in
            guard let time = timestamp(item["prdtm"]?.text, zone: agency.zone) else { return nil }
            let countdown = item["prdctdn"]?.text?.uppercased() ?? ""
            let vehicle = item["vid"]?.text
            return Prediction(route: item["rt"]?.text ?? "", direction: item["rtdir"]?.text ?? "",
                              stopID: item["stpid"]?.text ?? "", stopName: item["stpnm"]?.text ?? "",
                              destination: item["des"]?.text ?? "", vehicle: vehicle, predicted: time,
                              due: countdown == "DUE", delayed: (item["dly"]?.bool ?? false) || countdown == "DLY",
                              kind: item["typ"]?.text?.uppercased() == "D" ? .departure : .arrival,
                              distanceFeet: item["dstp"]?.int, generated: timestamp(item["tmstmp"]?.text, zone: agency.zone))
        }
    }

    public static func bulletins(_ data: Data, agency: BusTimeAgency) throws(TransitError) -> BusTimeResult<Bulletin> {
        try result(data, agency: agency, what: "\(agency.name) service bulletins", key: "sb") { item in
            let subject = item["sbj"]?.text ?? item["nm"]?.text ?? ""
            let services = (item["srvc"]?.items ?? []).compactMap { s -> Bulletin.Service? in
                let service = Bulletin.Service(route: s["rt"]?.text, direction: s["rtdir"]?.text,
                                               stopID: s["stpid"]?.text, stopName: s["stpnm"]?.text)
                return service.route == nil && service.stopID == nil && service.direction == nil ? nil : service
            }
            return Bulletin(name: item["nm"]?.text ?? subject, subject: subject,
                            detail: plainText(item["dtl"]?.text ?? item["brf"]?.text ?? ""),
                            brief: item["brf"]?.text, priority: Bulletin.Priority(item["prty"]?.text), services: services)
        }
    }

    public static func vehicles(_ data: Data, agency: BusTimeAgency) throws(TransitError) -> BusTimeResult<Vehicle> {
        try result(data, agency: agency, what: "\(agency.name) vehicles", key: "vehicle") { item in
            guard let id = item["vid"]?.text else { return nil }
            return Vehicle(id: id, route: item["rt"]?.text ?? "", latitude: item["lat"]?.double, longitude: item["lon"]?.double,
                           heading: item["hdg"]?.int, patternID: item["pid"]?.int, patternDistance: item["pdist"]?.double,
                           destination: item["des"]?.text ?? "", delayed: item["dly"]?.bool ?? false,
                           timestamp: timestamp(item["tmstmp"]?.text, zone: agency.zone))
        }
    }

    /// Bulletin details carry HTML (`<br/>`, entities): one plain line for a terminal.
    static func plainText(_ html: String) -> String {
        var text = html.replacingOccurrences(of: "<br/>", with: " ").replacingOccurrences(of: "<br>", with: " ")
        while let open = text.range(of: "<"), let close = text.range(of: ">", range: open.upperBound..<text.endIndex) {
            text.replaceSubrange(open.lowerBound..<close.upperBound, with: " ")
        }
        for (entity, char) in [("&nbsp;", " "), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'")] {
            text = text.replacingOccurrences(of: entity, with: char)
        }
        return text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
