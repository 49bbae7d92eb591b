import Foundation
import TransitSupport

/// `transit rail12306 …`.
struct RailCommands {
    let context: Context
    let client: Rail12306Client

    init(_ context: Context) {
        self.context = context
        let s = context.settings
        client = Rail12306Client(http: context.http, baseURL: s.baseURL("rail12306", default: Rail12306.defaultBaseURL),
                                 searchBaseURL: s.baseURL("rail12306_search", default: Rail12306.defaultSearchBaseURL))
    }

    func stations(_ search: String?) async throws(TransitError) -> Output {
        let all = try await client.stations()
        let list = search.map { Rail12306Parser.search(all, $0) } ?? all
        let data: [Column<RailStation>] = [
            Column("name") { .string($0.name) }, Column("telecode") { .string($0.telecode) }, Column("pinyin") { .string($0.pinyin) },
            Column("initials") { .string($0.initials) }, Column("city") { .optional($0.city) },
        ]
        return Output(list, data: data, table: [data[0], data[1], data[2], data[4]],
                      notices: list.isEmpty ? ["No 12306 station matches '\(search ?? "")'"] : [])
    }

    func trains(_ keyword: String, _ date: LocalDate) async throws(TransitError) -> Output {
        let (trains, skipped) = try await client.trains(keyword, date: date)
        let data: [Column<RailTrain>] = [
            Column("train") { .string($0.code) }, Column("train_no") { .string($0.trainNo) }, Column("from") { .string($0.from) },
            Column("to") { .string($0.to) }, Column("stops") { .optional($0.stops) },
        ]
        var notices = skipped.notice("trains", of: trains.count + skipped.count).map { ["12306: " + $0] } ?? []
        if trains.isEmpty { notices.append("No train number starts with \(keyword) on \(date.iso)") }
        return Output(trains, data: data, table: data, notices: notices)
    }

    func schedule(_ train: String, _ date: LocalDate) async throws(TransitError) -> Output {
        // The search (for train_no and termini) and the station list (for telecodes) in one round.
        let client = self.client
        async let stationList = Result.catching { () async throws(TransitError) -> [RailStation] in try await client.stations() }
        let found = try await client.trains(train, date: date).trains
        guard let match = found.first(where: { $0.code.uppercased() == train }) else {
            throw .notFound(kind: "train on \(date.iso)", query: train, suggestions: found.prefix(5).map(\.code))
        }
        let stations = try await stationList.get()
        let byName = Dictionary(stations.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        guard let from = byName[match.from]?.telecode, let to = byName[match.to]?.telecode else {
            throw .parse(what: "12306's station list", reason: "no telecode for \(match.from) or \(match.to)")
        }
        let stops = try await client.timetable(trainNo: match.trainNo, from: from, to: to, date: date)
        let zone = Rail12306.zone
        let data: [Column<RailStop>] = [
            Column("sequence", "NO") { .int($0.sequence) }, Column("station") { .string($0.station) },
            Column("telecode", "CODE") { .optional(byName[$0.station]?.telecode) },
            Column("arrival", "ARRIVE") { $0.arrival.map { .time($0, zone) } ?? .null },
            Column("departure", "DEPART") { $0.departure.map { .time($0, zone) } ?? .null },
            Column("dwell_minutes", "STOP MIN") { .optional($0.dwellMinutes) }, Column("day") { .int($0.day) },
        ]
        return Output(stops, data: data, table: data, notices: stops.isEmpty ? ["12306 has no timetable for \(train) on \(date.iso)"] : [])
    }
}
