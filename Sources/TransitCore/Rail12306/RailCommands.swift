import Foundation

/// `transit rail12306 …`.
struct RailCommands {
    let context: Context

    var client: Rail12306Client {
        let s = context.settings
        return Rail12306Client(http: context.http, baseURL: s.baseURL("rail12306", default: Rail12306.defaultBaseURL),
                               searchBaseURL: s.baseURL("rail12306_search", default: Rail12306.defaultSearchBaseURL))
    }

    func run(_ command: Command) async throws(TransitError) -> Output {
        switch command {
        case .railStations(let search): return try await stations(search)
        case .railTrains(let keyword, let date): return try await trains(keyword, date)
        case .railSchedule(let train, let date): return try await schedule(train, date)
        default: throw .usage("not a 12306 command")
        }
    }

    func stations(_ search: String?) async throws(TransitError) -> Output {
        context.spinner.start("fetching 12306's station list")
        let all = try await client.stations()
        let list = search.map { Rail12306Parser.search(all, $0) } ?? all
        let records = list.map { s in
            Record([("name", .string(s.name)), ("telecode", .string(s.telecode)), ("pinyin", .string(s.pinyin)),
                    ("initials", .string(s.initials)), ("city", .optional(s.city))])
        }
        var notices: [String] = []
        if records.isEmpty { notices.append("No 12306 station matches '\(search ?? "")'") }
        return Output(records: records, table: [Column("name"), Column("telecode"), Column("pinyin"), Column("city")], notices: notices)
    }

    func trains(_ keyword: String, _ date: LocalDate) async throws(TransitError) -> Output {
        context.spinner.start("searching 12306 for \(keyword)")
        let trains = try await client.trains(keyword, date: date)
        let records = trains.map { t in
            Record([("train", .string(t.code)), ("train_no", .string(t.trainNo)), ("from", .string(t.from)), ("to", .string(t.to)),
                    ("stops", .optional(t.stops))])
        }
        return Output(records: records, table: [Column("train"), Column("train_no"), Column("from"), Column("to"), Column("stops")],
                      notices: records.isEmpty ? ["No train number starts with \(keyword) on \(date.iso)"] : [])
    }

    func schedule(_ train: String, _ date: LocalDate) async throws(TransitError) -> Output {
        context.spinner.start("looking up \(train)")
        // The search (for train_no and termini) and the station list (for telecodes) in one round.
        let client = self.client
        async let stationList = Result.catching { () async throws(TransitError) -> [RailStation] in try await client.stations() }
        let found = try await client.trains(train, date: date)
        guard let match = found.first(where: { $0.code.uppercased() == train }) else {
            let close = found.prefix(5).map(\.code)
            throw .notFound(kind: "train on \(date.iso)", query: train, suggestions: close)
        }
        let stations = try await stationList.get()
        let byName = Dictionary(stations.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        guard let from = byName[match.from]?.telecode, let to = byName[match.to]?.telecode else {
            throw .parse(what: "12306's station list", reason: "no telecode for \(match.from) or \(match.to)")
        }
        context.spinner.update("fetching the timetable of \(train)")
        let stops = try await client.timetable(trainNo: match.trainNo, from: from, to: to, date: date)
        let zone = Rail12306.zone
        let records = stops.map { s in
            Record([("sequence", .int(s.sequence)), ("station", .string(s.station)), ("telecode", .optional(byName[s.station]?.telecode)),
                    ("arrival", s.arrival.map { .time($0, zone) } ?? .null), ("departure", s.departure.map { .time($0, zone) } ?? .null),
                    ("dwell_minutes", .optional(s.dwellMinutes)), ("day", .int(s.day))])
        }
        return Output(records: records,
                      table: [Column("sequence", "NO"), Column("station"), Column("telecode", "CODE"), Column("arrival", "ARRIVE"),
                              Column("departure", "DEPART"), Column("dwell_minutes", "STOP MIN"), Column("day")],
                      notices: records.isEmpty ? ["12306 has no timetable for \(train) on \(date.iso)"] : [])
    }
}
