import Foundation
import TransitSupport

/// Maps BusTime answers, JSON (what we ask for) or XML (v2 captures), v2 or v3, to models.
/// Both go through the same Decodable structs: XML is read as the JSON it would be. Errors
/// come inside `bustime-response.error[]` with HTTP 200; some mean "empty". Items that cannot
/// be read are counted and said, never dropped in silence.
public enum BusTimeParser {
    /// One kind of BusTime record: how its list is named, and how it becomes a model.
    protocol Item: Decodable {
        associatedtype Model
        /// The list's key in JSON (`routes`) and XML (`route`).
        static var keys: [String] { get }
        static var noun: String { get }
        /// The model, or why the record cannot be one.
        func model(_ agency: BusTimeAgency) -> Result<Model, Unreadable>
    }

    struct Unreadable: Error {
        var reason: String
    }

    struct RawMessage: Decodable {
        var msg: Text?
        var stpid: Text?
        var rt: Text?
        var vid: Text?
        var pid: Text?

        var message: BusTimeMessage? {
            guard let text = msg?.value else { return nil }
            let subjects: [(String, Text?)] = [("stop", stpid), ("route", rt), ("vehicle", vid), ("pattern", pid)]
            let subject = subjects.first { $0.1?.value != nil }.map { "\($0.0) \($0.1?.value ?? "")" }
            return BusTimeMessage(message: text, subject: subject)
        }
    }

    /// `{"bustime-response": {<list>: [...], "error": [...]}}`.
    struct Envelope<T: Item>: Decodable {
        var items = Items<T>()
        var errors = Items<RawMessage>()
        var empty = false

        init(from decoder: Decoder) throws {
            guard let body = try? decoder.container(keyedBy: AnyKey.self) else {
                // `<bustime-response/>`, or `{"bustime-response": ""}`: nothing at all.
                empty = true
                return
            }
            for key in T.keys.map(AnyKey.init) where body.contains(key) {
                items = try body.items(key)
                break
            }
            errors = try body.items(AnyKey("error"))
        }
    }

    struct Root<T: Item>: Decodable {
        var response: Envelope<T>?
        enum CodingKeys: String, CodingKey { case response = "bustime-response" }
    }

    static func result<T: Item>(_ data: Data, agency: BusTimeAgency, _ type: T.Type) throws(TransitError) -> BusTimeResult<T.Model> {
        let what = "\(agency.name) \(T.noun)"
        let envelope: Envelope<T>
        if isXML(data) {
            let root = try XMLTree.parse(data, what: what)
            guard root.name == "bustime-response" else {
                throw .parse(what: what, reason: "expected <bustime-response>, found <\(root.name)>")
            }
            envelope = try DecodeFailure.json(Envelope<T>.self, from: root.json(), what: what)
        } else {
            guard let response = try DecodeFailure.json(Root<T>.self, from: data, what: what).response else {
                throw .parse(what: what, reason: "no \"bustime-response\" in the answer")
            }
            envelope = response
        }
        var skipped = Skipped()
        skipped.add(envelope.items.failures)
        var models: [T.Model] = []
        models.reserveCapacity(envelope.items.values.count)
        for (i, item) in envelope.items.values.enumerated() {
            switch item.model(agency) {
            case .success(let model): models.append(model)
            case .failure(let why): skipped.add(["\(T.keys[0])[\(i)]: \(why.reason)"])
            }
        }
        let messages = envelope.errors.values.compactMap(\.message)
        if models.isEmpty, let failure = messages.first(where: { !$0.meansEmpty }) {
            throw .api(provider: agency.name, message: failure.message, details: nil)
        }
        if models.isEmpty, skipped.count > 0 {
            throw .parse(what: what, reason: "none of its \(skipped.count) \(T.noun) could be read (\(skipped.first ?? ""))")
        }
        return BusTimeResult(items: models, messages: messages, skipped: skipped, empty: envelope.empty || (models.isEmpty && messages.isEmpty))
    }

    /// XML bodies (v2 captures) name lists by their repeated element (`route`, `dir`, `stop`),
    /// JSON by a plural key (`routes`, `directions`, `stops`).
    static func isXML(_ data: Data) -> Bool {
        XMLTree.firstContentByte(data) == UInt8(ascii: "<")
    }

    /// `YYYYMMDD HH:MM` or `YYYYMMDD HH:MM:SS`, agency-local.
    public static func timestamp(_ text: String?, zone: TimeZone) -> Date? {
        guard let text = text?.trimmedSpace(newlines: false) else { return nil }
        let parts = text.split(separator: " ")
        guard parts.count == 2, parts[0].count == 8, parts[0].allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let ymd = parts[0]
        guard let date = LocalDate(iso: "\(ymd.prefix(4))-\(ymd.dropFirst(4).prefix(2))-\(ymd.suffix(2))") else { return nil }
        return LocalTimestamp.instant(date, clock: String(parts[1]), zone: zone)
    }

    // MARK: records

    struct RawRoute: Item {
        var rt: Text?, rtnm: Text?, rtclr: Text?, rtdd: Text?
        static let keys = ["routes", "route"], noun = "routes"
        func model(_ agency: BusTimeAgency) -> Result<BusRoute, Unreadable> {
            guard let id = rt?.value else { return .failure(Unreadable(reason: "no rt")) }
            return .success(BusRoute(id: id, name: rtnm?.value ?? id, color: rtclr?.value, designator: rtdd?.value))
        }
    }

    /// v3 `{id, name}`; v2 `{dir}` in JSON, bare text in XML.
    struct RawDirection: Item {
        var id: String?, name: String?
        static let keys = ["directions", "dir"], noun = "directions"
        init(from decoder: Decoder) throws {
            if let text = try? Text(from: decoder), let value = text.value {
                (id, name) = (value, value)
                return
            }
            let c = try decoder.container(keyedBy: AnyKey.self)
            let v3 = try c.decodeIfPresent(Text.self, forKey: AnyKey("id"))?.value
            let v2 = try c.decodeIfPresent(Text.self, forKey: AnyKey("dir"))?.value
            id = v3 ?? v2
            name = try c.decodeIfPresent(Text.self, forKey: AnyKey("name"))?.value ?? id
        }
        func model(_ agency: BusTimeAgency) -> Result<BusDirection, Unreadable> {
            guard let id else { return .failure(Unreadable(reason: "no id or dir")) }
            return .success(BusDirection(id: id, name: name ?? id))
        }
    }

    struct RawStop: Item {
        var stpid: Text?, stpnm: Text?, lat: Number?, lon: Number?
        static let keys = ["stops", "stop"], noun = "stops"
        func model(_ agency: BusTimeAgency) -> Result<BusStop, Unreadable> {
            guard let id = stpid?.value else { return .failure(Unreadable(reason: "no stpid")) }
            return .success(BusStop(id: id, name: stpnm?.value ?? id, latitude: lat?.value, longitude: lon?.value))
        }
    }

    struct RawPattern: Item {
        var pid: Number?, ln: Number?, rtdir: Text?
        var pt: Items<RawPoint>?
        static let keys = ["ptr"], noun = "patterns"
        func model(_ agency: BusTimeAgency) -> Result<BusPattern, Unreadable> {
            guard let id = pid?.int else { return .failure(Unreadable(reason: "no pid")) }
            if let first = pt?.failures.first { return .failure(Unreadable(reason: first)) }
            var points: [BusPattern.Point] = []
            points.reserveCapacity(pt?.values.count ?? 0)
            for raw in pt?.values ?? [] {
                guard let lat = raw.lat.value, let lon = raw.lon.value else { return .failure(Unreadable(reason: "a point without lat/lon")) }
                let type = raw.typ?.value
                let isStop = type == "S" || type == "s"
                let distance = raw.pdist?.value
                points.append(BusPattern.Point(sequence: raw.seq?.int ?? 0, latitude: lat, longitude: lon, isStop: isStop,
                                               stopID: raw.stpid?.value, stopName: raw.stpnm?.value,
                                               distance: isStop ? distance : distance.flatMap { $0 > 0 ? $0 : nil }))
            }
            if zip(points, points.dropFirst()).contains(where: { $0.sequence > $1.sequence }) { points.sort { $0.sequence < $1.sequence } }
            return .success(BusPattern(id: id, length: ln?.value, direction: rtdir?.value ?? "", points: points))
        }
    }

    struct RawPoint: Decodable {
        var seq: Number?
        var lat: Number
        var lon: Number
        var typ: Text?, stpid: Text?, stpnm: Text?, pdist: Number?
    }

    struct RawPrediction: Item {
        var tmstmp: Text?, typ: Text?, stpnm: Text?, stpid: Text?, vid: Text?, dstp: Number?, rt: Text?, rtdir: Text?
        var des: Text?, prdtm: Text?, dly: Flag?, prdctdn: Text?
        static let keys = ["prd"], noun = "predictions"
        func model(_ agency: BusTimeAgency) -> Result<Prediction, Unreadable> {
            guard let text = prdtm?.value else { return .failure(Unreadable(reason: "no prdtm")) }
            guard let time = BusTimeParser.timestamp(text, zone: agency.zone) else {
                return .failure(Unreadable(reason: "prdtm '\(text.prefix(40))' is not YYYYMMDD HH:MM"))
            }
            let countdown = prdctdn?.value?.uppercased() ?? ""
            return .success(Prediction(route: rt?.value ?? "", direction: rtdir?.value ?? "", stopID: stpid?.value ?? "",
                                       stopName: stpnm?.value ?? "", destination: des?.value ?? "", vehicle: vid?.value,
                                       predicted: time, due: countdown == "DUE", delayed: (dly?.value ?? false) || countdown == "DLY",
                                       kind: typ?.value?.uppercased() == "D" ? .departure : .arrival, distanceFeet: dstp?.int,
                                       generated: BusTimeParser.timestamp(tmstmp?.value, zone: agency.zone)))
        }
    }

    struct RawBulletin: Item {
        var nm: Text?, sbj: Text?, dtl: Text?, brf: Text?, prty: Text?
        var srvc: Items<RawService>?
        static let keys = ["sb"], noun = "service bulletins"
        func model(_ agency: BusTimeAgency) -> Result<Bulletin, Unreadable> {
            guard let subject = sbj?.value ?? nm?.value else { return .failure(Unreadable(reason: "no sbj or nm")) }
            let services = (srvc?.values ?? []).compactMap { s -> Bulletin.Service? in
                let service = Bulletin.Service(route: s.rt?.value, direction: s.rtdir?.value, stopID: s.stpid?.value, stopName: s.stpnm?.value)
                return service.route == nil && service.stopID == nil && service.direction == nil ? nil : service
            }
            return .success(Bulletin(name: nm?.value ?? subject, subject: subject,
                                     detail: BusTimeParser.plainText(dtl?.value ?? brf?.value ?? ""),
                                     brief: brf?.value, priority: Bulletin.Priority(prty?.value), services: services))
        }
    }

    struct RawService: Decodable {
        var rt: Text?, rtdir: Text?, stpid: Text?, stpnm: Text?
    }

    struct RawVehicle: Item {
        var vid: Text?, rt: Text?, lat: Number?, lon: Number?, hdg: Number?, pid: Number?, pdist: Number?
        var des: Text?, dly: Flag?, tmstmp: Text?
        static let keys = ["vehicle"], noun = "vehicles"
        func model(_ agency: BusTimeAgency) -> Result<Vehicle, Unreadable> {
            guard let id = vid?.value else { return .failure(Unreadable(reason: "no vid")) }
            return .success(Vehicle(id: id, route: rt?.value ?? "", latitude: lat?.value, longitude: lon?.value, heading: hdg?.int,
                                    patternID: pid?.int, patternDistance: pdist?.value, destination: des?.value ?? "",
                                    delayed: dly?.value ?? false, timestamp: BusTimeParser.timestamp(tmstmp?.value, zone: agency.zone)))
        }
    }

    // MARK: entry points

    public static func routes(_ data: Data, agency: BusTimeAgency) throws(TransitError) -> BusTimeResult<BusRoute> {
        try result(data, agency: agency, RawRoute.self)
    }

    public static func directions(_ data: Data, agency: BusTimeAgency) throws(TransitError) -> BusTimeResult<BusDirection> {
        try result(data, agency: agency, RawDirection.self)
    }

    public static func stops(_ data: Data, agency: BusTimeAgency) throws(TransitError) -> BusTimeResult<BusStop> {
        try result(data, agency: agency, RawStop.self)
    }

    public static func patterns(_ data: Data, agency: BusTimeAgency) throws(TransitError) -> BusTimeResult<BusPattern> {
        try result(data, agency: agency, RawPattern.self)
    }

    public static func predictions(_ data: Data, agency: BusTimeAgency) throws(TransitError) -> BusTimeResult<Prediction> {
        try result(data, agency: agency, RawPrediction.self)
    }

    public static func bulletins(_ data: Data, agency: BusTimeAgency) throws(TransitError) -> BusTimeResult<Bulletin> {
        try result(data, agency: agency, RawBulletin.self)
    }

    public static func vehicles(_ data: Data, agency: BusTimeAgency) throws(TransitError) -> BusTimeResult<Vehicle> {
        try result(data, agency: agency, RawVehicle.self)
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
