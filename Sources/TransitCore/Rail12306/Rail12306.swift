import Foundation
import TransitSupport

/// China Railway 12306: the station dictionary, train-number search and timetables.
/// No key. Times are Beijing time (UTC+8, no DST).
public enum Rail12306 {
    public static let zone = TimeZone(identifier: "Asia/Shanghai") ?? TimeZone(secondsFromGMT: 8 * 3600) ?? .current
    public static let defaultBaseURL = "https://kyfw.12306.cn"
    public static let defaultSearchBaseURL = "https://search.12306.cn"
    static let week: TimeInterval = 7 * 24 * 3600
}

public struct RailStation: Sendable, Equatable {
    public var code: String        // 3-letter pinyin code, not unique
    public var name: String        // Chinese name, unique
    public var telecode: String    // unique
    public var pinyin: String
    public var initials: String
    public var city: String?       // 11-field form only
}

public struct RailTrain: Sendable, Equatable {
    public var code: String
    public var trainNo: String
    public var from: String
    public var to: String
    public var stops: Int?
}

public struct RailStop: Sendable, Equatable {
    public var sequence: Int
    public var station: String
    public var arrival: Date?
    public var departure: Date?
    public var dwellMinutes: Int?
    /// 1 on the day the train leaves its first station, 2 the next, …
    public var day: Int
}

public enum Rail12306Parser {
    /// `var station_names ='@bjb|北京北|VAP|beijingbei|bjb|0@…';` in its 6- or 11-field form.
    /// Read over the bytes: only the fields kept become strings (3,000+ records, often parsed).
    public static func stations(_ data: Data) throws(TransitError) -> [RailStation] {
        let result: [RailStation] = data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard let open = bytes.firstIndex(of: UInt8(ascii: "'")), let close = bytes.lastIndex(of: UInt8(ascii: "'")), open < close else {
                return []
            }
            var stations: [RailStation] = []
            stations.reserveCapacity(4000)
            var fields: [Range<Int>] = []
            fields.reserveCapacity(12)
            func text(_ i: Int) -> String {
                i < fields.count ? String(decoding: UnsafeBufferPointer(rebasing: bytes[fields[i]]), as: UTF8.self) : ""
            }
            func flush() {
                if fields.count >= 6, !fields[1].isEmpty, !fields[2].isEmpty {
                    let city = fields.count >= 8 && !fields[7].isEmpty ? text(7) : nil
                    stations.append(RailStation(code: text(0), name: text(1), telecode: text(2), pinyin: text(3), initials: text(4), city: city))
                }
                fields.removeAll(keepingCapacity: true)
            }
            var fieldStart = -1
            var i = open + 1
            while i < close {
                let b = bytes[i]
                if b == UInt8(ascii: "@") {
                    if fieldStart >= 0 { fields.append(fieldStart..<i); flush() }
                    fieldStart = i + 1
                } else if b == UInt8(ascii: "|"), fieldStart >= 0 {
                    fields.append(fieldStart..<i)
                    fieldStart = i + 1
                }
                i += 1
            }
            if fieldStart >= 0 { fields.append(fieldStart..<close); flush() }
            return stations
        }
        guard !result.isEmpty else { throw .parse(what: "12306's station list", reason: "no station records") }
        return result
    }

    /// Stations whose Chinese name contains `query`, or whose full pinyin or initials start
    /// with it, or whose telecode is it; exact hits first.
    public static func search(_ stations: [RailStation], _ query: String) -> [RailStation] {
        let q = query.trimmedSpace(newlines: false).lowercased()
        guard !q.isEmpty else { return stations }
        let upper = q.uppercased()
        let needle = Array(q.utf8)
        var exact: [RailStation] = [], partial: [RailStation] = []
        for s in stations {
            if s.name == q || s.pinyin == q || s.initials == q || s.telecode == upper {
                exact.append(s)
            } else if s.pinyin.hasPrefix(q) || s.initials.hasPrefix(q) || s.name.containsBytes(needle) {
                partial.append(s)
            }
        }
        return exact + partial
    }


    struct RawSearch: Decodable {
        var data: Items<RawTrain>?
        var errorMsg: Text?
        var status: Flag?
    }

    struct RawTrain: Decodable {
        var station_train_code: Text?, train_no: Text?, from_station: Text?, to_station: Text?, total_num: Number?
    }

    /// `search/v1/train/search`: `{"data": [...], "errorMsg": "", "status": true}`.
    public static func trains(_ data: Data) throws(TransitError) -> (trains: [RailTrain], message: String?, skipped: Skipped) {
        let what = "12306's train search"
        let root = try DecodeFailure.json(RawSearch.self, from: data, what: what)
        var skipped = Skipped()
        skipped.add(root.data?.failures ?? [])
        var trains: [RailTrain] = []
        for (i, t) in (root.data?.values ?? []).enumerated() {
            guard let code = t.station_train_code?.value, let no = t.train_no?.value else {
                skipped.add(["data[\(i)]: no station_train_code or train_no"])
                continue
            }
            trains.append(RailTrain(code: code, trainNo: no, from: t.from_station?.value ?? "", to: t.to_station?.value ?? "", stops: t.total_num?.int))
        }
        if trains.isEmpty, root.status?.value == false, let message = root.errorMsg?.value {
            throw .api(provider: "12306", message: message, details: nil)
        }
        if trains.isEmpty, skipped.count > 0 {
            throw .parse(what: what, reason: "none of its \(skipped.count) trains could be read (\(skipped.first ?? ""))")
        }
        return (trains, root.errorMsg?.value, skipped)
    }

    struct RawTimetable: Decodable {
        var data: Inner?
        var status: Flag?
        var messages: Items<Text>?
        struct Inner: Decodable { var data: Items<RawStop>? }
    }

    struct RawStop: Decodable {
        var station_no: Number?, station_name: Text?, arrive_time: Text?, start_time: Text?, stopover_time: Text?
    }

    /// `queryByTrainNo`: stops in order. Times have no date: a day is added whenever a time is
    /// earlier than the one before; `----` is none.
    public static func timetable(_ data: Data, date: LocalDate) throws(TransitError) -> [RailStop] {
        let what = "12306's timetable"
        let root = try DecodeFailure.json(RawTimetable.self, from: data, what: what)
        guard let list = root.data?.data else {
            if root.status?.value == false {
                throw .api(provider: "12306", message: root.messages?.values.first?.value ?? "request refused", details: nil)
            }
            throw .parse(what: what, reason: "no data.data list")
        }
        if let failure = list.failures.first { throw .parse(what: what, reason: failure) }
        var rollover = DayRollover()
        var stops: [RailStop] = []
        func place(_ text: String?) -> Date? {
            guard let text, text.trimmedSpace(newlines: false) != "----", let m = ClockTime.minutes(text) else { return nil }
            return date.instant(minutes: rollover.place(m), in: Rail12306.zone)
        }
        for (i, s) in list.values.enumerated() {
            let arrival = place(s.arrive_time?.value)
            let stopDay = rollover.day + 1  // the day the train reaches the stop (leaves it, at the origin)
            let departure = place(s.start_time?.value)
            let dwellText = s.stopover_time?.value ?? ""
            let dwell = Int(dwellText.prefix { $0.isASCII && $0.isNumber })
            stops.append(RailStop(sequence: s.station_no?.int ?? i + 1, station: s.station_name?.value ?? "",
                                  arrival: arrival, departure: departure, dwellMinutes: dwell, day: stopDay))
        }
        // The first stop may repeat its departure as arrival; the last repeats its arrival.
        if var first = stops.first, first.arrival != nil, first.arrival == first.departure {
            first.arrival = nil
            stops[0] = first
        }
        if var last = stops.last, stops.count > 1, last.departure == last.arrival {
            last.departure = nil
            stops[stops.count - 1] = last
        }
        return stops
    }
}

public struct Rail12306Client: Sendable {
    let http: HTTPClient
    let baseURL: String
    let searchBaseURL: String

    public init(http: HTTPClient, baseURL: String = Rail12306.defaultBaseURL, searchBaseURL: String = Rail12306.defaultSearchBaseURL) {
        self.http = http
        self.baseURL = baseURL
        self.searchBaseURL = searchBaseURL
    }

    public func stations() async throws(TransitError) -> [RailStation] {
        let req = HTTPRequest(provider: "rail12306", baseURL: baseURL, path: "otn/resources/js/framework/station_name.js",
                              cacheTTL: Rail12306.week, expects: .javaScript, label: "12306's station list")
        return try await http.get(req) { r throws(TransitError) in try Rail12306Parser.stations(r.body) }
    }

    /// Trains whose code starts with `keyword` on `date` (sent as YYYYMMDD: with dashes 12306
    /// answers an empty list).
    public func trains(_ keyword: String, date: LocalDate) async throws(TransitError) -> (trains: [RailTrain], skipped: Skipped) {
        let day = String(format: "%04d%02d%02d", date.year, date.month, date.day)
        let req = HTTPRequest(provider: "rail12306", baseURL: searchBaseURL, path: "search/v1/train/search",
                              query: [.init("keyword", keyword), .init("date", day)], cacheTTL: 3600, expects: .json,
                              label: "12306 trains starting \(keyword)")
        return try await http.get(req) { r throws(TransitError) in
            let answer = try Rail12306Parser.trains(r.body)
            return (answer.trains, answer.skipped)
        }
    }

    public func timetable(trainNo: String, from: String, to: String, date: LocalDate) async throws(TransitError) -> [RailStop] {
        let req = HTTPRequest(provider: "rail12306", baseURL: baseURL, path: "otn/czxx/queryByTrainNo",
                              query: [.init("train_no", trainNo), .init("from_station_telecode", from),
                                      .init("to_station_telecode", to), .init("depart_date", date.iso)],
                              cacheTTL: 24 * 3600, expects: .json, label: "the timetable of \(trainNo)")
        return try await http.get(req) { r throws(TransitError) in try Rail12306Parser.timetable(r.body, date: date) }
    }
}
