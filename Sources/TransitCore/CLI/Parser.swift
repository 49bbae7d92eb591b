import Foundation

/// What to do, decided from argv alone.
public enum Invocation: Sendable, Equatable {
    case help(String)
    case version
    case run(Settings, Command)
}

/// A provider command with its options checked and typed.
public enum Command: Sendable, Equatable {
    case bartStations
    case bartRoutes(date: LocalDate?)
    /// Origin and destination as typed; `BARTCommands` resolves them to station codes.
    case bartTrips(TripFinder.Query)
    case bartTrip(BARTTripOptions)
    case bartDepartures(station: String, platform: Int?, direction: String?)
    case bartAdvisories
    case busTime(agency: String, BusTimeCommand)
    case busbudSearch(BusbudSearchOptions)
    case railStations(search: String?)
    case railTrains(keyword: String, date: LocalDate)
    case railSchedule(train: String, date: LocalDate)
    case weather(WeatherClient.Place, units: String)
    case weatherAtStation(String, units: String)
}

public struct BARTTripOptions: Sendable, Equatable {
    public var from: String
    public var to: String
    public var date: LocalDate
    public var minutes: Int
}

/// argv → `Invocation`, as a pure function of the arguments, the environment, whether
/// stdout/stderr are terminals, and the clock. Throws `.usage` for anything it cannot accept.
public enum CommandLineParser {
    struct Raw {
        var words: [String] = []
        var values: [String: String] = [:]
        var flags: Set<String> = []
        var order: [String] = []
    }

    public static func parse(_ args: [String], environment env: [String: String], terminal: Terminal,
                             now: Date = Date()) throws(TransitError) -> Invocation {
        var raw = try scan(args)
        if raw.flags.contains("version") && raw.words.isEmpty { return .version }

        // Help: `transit help [p [c]]`, or --help at any level.
        var words = raw.words
        let wantsHelp = raw.flags.contains("help") || words.first == "help"
        if words.first == "help" { words.removeFirst() }
        if wantsHelp { return .help(try helpText(for: words)) }

        guard let providerName = words.first else {
            throw .usage("missing provider", hint: "run 'transit --help' for the list")
        }
        guard let provider = Specs.provider(providerName) else {
            throw unknown("provider", providerName, among: Specs.providers.map(\.name), hint: "run 'transit --help' for the list")
        }
        if words.count == 1, let fallback = provider.defaultCommand { words.append(fallback) }
        guard words.count > 1 else {
            throw .usage("missing command for \(providerName): one of \(provider.commands.map(\.name).joined(separator: ", "))",
                         hint: "run 'transit \(providerName) --help'")
        }
        guard let spec = provider.commands.first(where: { $0.name == words[1] }) else {
            throw unknown("command", "\(providerName) \(words[1])", among: provider.commands.map(\.name),
                          hint: "run 'transit \(providerName) --help'", word: words[1])
        }
        let allowed = Set((Specs.global + spec.options).map(\.name))
        for name in raw.order where !allowed.contains(name) {
            throw unknown("option", "--\(name) for 'transit \(providerName) \(spec.name)'",
                          among: (Specs.global + spec.options).map { "--" + $0.name },
                          hint: "run 'transit \(providerName) \(spec.name) --help'", word: "--\(name)")
        }
        if let placeholder = spec.positional {
            guard words.count > 2 else {
                throw .usage("'transit \(providerName) \(spec.name)' needs \(placeholder)", hint: "usage: \(spec.usage)")
            }
            raw.values["_"] = words[2]
            words.remove(at: 2)
        }
        if words.count > 2 {
            throw .usage("unexpected argument '\(words[2])' for 'transit \(providerName) \(spec.name)'",
                         hint: "run 'transit \(providerName) \(spec.name) --help'")
        }
        let settings = try resolveSettings(raw, env: env, terminal: terminal, now: now, spec: spec)
        let command = try build(spec, raw, settings: settings)
        return .run(settings, command)
    }

    /// Splits argv into words, `--name value` / `--name=value` options and flags.
    static func scan(_ args: [String]) throws(TransitError) -> Raw {
        var raw = Raw()
        var i = 0
        var onlyWords = false
        while i < args.count {
            let arg = args[i]
            i += 1
            if onlyWords || arg == "-" || !arg.hasPrefix("-") {
                raw.words.append(arg)
                continue
            }
            if arg == "--" { onlyWords = true; continue }
            var names: [(String, String?)] = []
            if arg.hasPrefix("--") {
                let body = arg.dropFirst(2)
                if let eq = body.firstIndex(of: "=") {
                    names.append((String(body[..<eq]), String(body[body.index(after: eq)...])))
                } else {
                    names.append((String(body), nil))
                }
            } else {
                for ch in arg.dropFirst() {
                    guard let spec = Specs.global.first(where: { $0.short == ch }) else {
                        throw .usage("unknown option '-\(ch)'", hint: "run 'transit --help'")
                    }
                    names.append((spec.name, nil))
                }
            }
            for (name, inline) in names {
                guard !name.isEmpty else { throw .usage("empty option name in '\(arg)'") }
                let spec = Specs.allOptions.first { $0.name == name }
                if spec?.value != nil {
                    var value = inline
                    if value == nil {
                        guard i < args.count else { throw .usage("--\(name) needs a value (\(spec?.value ?? "VALUE"))") }
                        value = args[i]
                        i += 1
                    }
                    raw.values[name] = value
                } else if inline != nil && spec != nil {
                    throw .usage("--\(name) takes no value")
                } else {
                    raw.flags.insert(name)
                }
                raw.order.append(name)
            }
        }
        return raw
    }

    static func helpText(for words: [String]) throws(TransitError) -> String {
        guard let name = words.first else { return Help.top() }
        guard let provider = Specs.provider(name) else {
            throw unknown("provider", name, among: Specs.providers.map(\.name), hint: "run 'transit --help' for the list")
        }
        guard words.count > 1 else {
            if let fallback = provider.defaultCommand, let command = provider.commands.first(where: { $0.name == fallback }) {
                return Help.command(command)
            }
            return Help.provider(provider)
        }
        guard let command = provider.commands.first(where: { $0.name == words[1] }) else {
            throw unknown("command", "\(name) \(words[1])", among: provider.commands.map(\.name),
                          hint: "run 'transit \(name) --help'", word: words[1])
        }
        return Help.command(command)
    }

    static func unknown(_ kind: String, _ shown: String, among options: [String], hint: String, word: String? = nil) -> TransitError {
        let typed = (word ?? shown).lowercased()
        let close = options.filter { NameMatcher<Int>.distance(typed, $0.lowercased()) <= 2 }
        if let best = close.first {
            return .usage("unknown \(kind) '\(shown)'; did you mean '\(best)'?", hint: hint)
        }
        return .usage("unknown \(kind) '\(shown)'", hint: hint)
    }

    static func resolveSettings(_ raw: Raw, env: [String: String], terminal: Terminal, now clock: Date,
                                spec: CommandSpec) throws(TransitError) -> Settings {
        var format: OutputFormat = terminal.stdout ? .table : .tsv
        if let text = raw.values["format"] {
            guard let f = OutputFormat(rawValue: text.lowercased()) else {
                throw .usage("unknown format '\(text)'", hint: "use one of: table, tsv, csv, json, geojson")
            }
            guard f != .geojson || spec.geoJSON else {
                throw .usage("--format geojson is only for commands that return places (stops, vehicles)")
            }
            format = f
        }
        var header: Bool?
        if raw.flags.contains("header") { header = true }
        if raw.flags.contains("no-header") {
            guard header == nil else { throw .usage("--header and --no-header contradict each other") }
            header = false
        }
        var timeout = 15.0
        if let text = raw.values["timeout"] {
            guard let t = Double(text), t > 0, t <= 600 else {
                throw .usage("--timeout takes seconds between 0 and 600, not '\(text)'")
            }
            timeout = t
        }
        let offlineEnv = env["TRANSIT_OFFLINE"].map { !["", "0", "false", "no"].contains($0.lowercased()) } ?? false
        let offline = raw.flags.contains("offline") || offlineEnv
        let fixtures = raw.values["fixtures"] ?? nonEmpty(env["TRANSIT_FIXTURES"]) ?? "Fixtures"
        if let record = raw.values["record"], record.isEmpty { throw .usage("--record needs a directory") }
        if raw.values["record"] != nil && offline {
            throw .usage("--record and --offline together would record nothing")
        }
        let home = nonEmpty(env["HOME"]) ?? NSHomeDirectory()
        let cache = nonEmpty(env["TRANSIT_CACHE_DIR"])
            ?? nonEmpty(env["XDG_CACHE_HOME"]).map { $0 + "/transit" }
            ?? home + "/.cache/transit"
        let term = env["TERM"] ?? ""
        let color = terminal.stdout && env["NO_COLOR"] == nil && term != "dumb"
        var now = clock
        if let pinned = nonEmpty(env["TRANSIT_NOW"]) {
            guard let date = ClockTime.parseISO8601(pinned) else {
                throw .usage("TRANSIT_NOW must be ISO 8601 with an offset, like 2026-11-22T12:00:00Z")
            }
            now = date
        }
        return Settings(format: format, header: header, offline: offline, fixtures: fixtures,
                        record: raw.values["record"], noCache: raw.flags.contains("no-cache"), timeout: timeout,
                        verbose: raw.flags.contains("verbose"), quiet: raw.flags.contains("quiet"), color: color,
                        stderrIsTerminal: terminal.stderr, cacheDirectory: cache, environment: env, now: now,
                        watch: try watch(raw, env: env))
    }

    static func watch(_ raw: Raw, env: [String: String]) throws(TransitError) -> Watch? {
        guard let text = raw.values["watch"] else {
            if raw.values["count"] != nil { throw .usage("--count goes with --watch") }
            return nil
        }
        guard let seconds = Double(text), seconds >= Watch.minimum, seconds <= 86400 else {
            throw .usage("--watch takes seconds, at least \(Int(Watch.minimum)), not '\(text)'",
                         hint: "BusTime allows about 10,000 requests a day per key")
        }
        var watch = Watch(seconds: seconds)
        watch.count = try raw.values["count"].map { (t) throws(TransitError) in try integer(t, option: "count", in: 1...1_000_000) }
        // Test-only: how many milliseconds a watch "second" lasts.
        if let unit = env["TRANSIT_WATCH_UNIT_MS"].flatMap(Double.init), unit > 0 { watch.unit = unit / 1000 }
        return watch
    }

    static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }

    // MARK: typed commands

    static func build(_ spec: CommandSpec, _ raw: Raw, settings: Settings) throws(TransitError) -> Command {
        let v = raw.values
        switch (spec.provider, spec.name) {
        case ("bart", "stations"): return .bartStations
        case ("bart", "routes"):
            return .bartRoutes(date: try v["date"].map { (d) throws(TransitError) in try date(d, zone: BART.zone, now: settings.now) })
        case ("bart", "trips"):
            let from = try required(v, "from", spec), to = try required(v, "to", spec)
            try distinct(from, to)
            let after = try v["after"].map { (t) throws(TransitError) in try serviceMinutes(t, option: "after") }
            let before = try v["before"].map { (t) throws(TransitError) in try serviceMinutes(t, option: "before") }
            if let after, let before, after > before {
                throw .usage("--after \(v["after"] ?? "") is later than --before \(v["before"] ?? "")")
            }
            let limit = try v["limit"].map { (t) throws(TransitError) in try integer(t, option: "limit", in: 1...10_000) }
            let transfers = try v["transfers"].map { (t) throws(TransitError) in try integer(t, option: "transfers", in: 0...1) } ?? 0
            let minTransfer = try v["min-transfer"].map { (t) throws(TransitError) in try integer(t, option: "min-transfer", in: 0...60) } ?? 3
            let day = try v["date"].map { (d) throws(TransitError) in try date(d, zone: BART.zone, now: settings.now) }
                ?? LocalDate(settings.now, in: BART.zone)
            return .bartTrips(TripFinder.Query(origin: from, destination: to, date: day, after: after, before: before, limit: limit,
                                               transfers: transfers, minTransfer: minTransfer))
        case ("bart", "trip"):
            let from = try required(v, "from", spec), to = try required(v, "to", spec)
            try distinct(from, to)
            let timeText = try required(v, "time", spec)
            guard let minutes = ClockTime.minutes(timeText) else {
                throw .usage("--time takes HH:MM or h:mm am|pm, not '\(timeText)'")
            }
            let today = LocalDate(settings.now, in: BART.zone)
            let day = try v["date"].map { (d) throws(TransitError) in try date(d, zone: BART.zone, now: settings.now) } ?? today
            // BART plans 10 days back to 8 weeks ahead; a recording keeps its own date.
            if !settings.offline && (day.dayNumber < today.dayNumber - 10 || day.dayNumber > today.dayNumber + 56) {
                throw .usage("--date \(day.iso) is outside BART's trip planner window (\(today.adding(days: -10).iso) to \(today.adding(days: 56).iso))")
            }
            return .bartTrip(BARTTripOptions(from: from, to: to, date: day, minutes: minutes))
        case ("bart", "departures"):
            let station = try required(v, "station", spec)
            let platform = try v["platform"].map { (t) throws(TransitError) in try integer(t, option: "platform", in: 1...4) }
            var direction: String?
            if let d = v["direction"] {
                switch d.lowercased() {
                case "n", "north", "northbound": direction = "n"
                case "s", "south", "southbound": direction = "s"
                default: throw .usage("--direction takes n or s, not '\(d)'")
                }
            }
            if platform != nil && direction != nil {
                throw .usage("give --platform or --direction, not both (BART filters by one)")
            }
            return .bartDepartures(station: station, platform: platform, direction: direction)
        case ("bart", "advisories"): return .bartAdvisories
        case ("busbud", "search"): return .busbudSearch(try busbudSearch(spec, v, settings: settings))
        case ("rail12306", _): return try railCommand(spec, v, settings: settings)
        case ("weather", _): return try weatherCommand(spec, v)
        case (let p, let name) where BusTimeAgency.all.contains { $0.id == p }:
            return .busTime(agency: p, try busTimeCommand(name, spec, v, flags: raw.flags))
        default:
            throw .usage("'transit \(spec.provider) \(spec.name)' is not available in this build")
        }
    }

    static func railCommand(_ spec: CommandSpec, _ v: [String: String], settings: Settings) throws(TransitError) -> Command {
        let day = try v["date"].map { (d) throws(TransitError) in try date(d, zone: Rail12306.zone, now: settings.now) }
            ?? LocalDate(settings.now, in: Rail12306.zone)
        switch spec.name {
        case "stations": return .railStations(search: v["search"])
        case "trains": return .railTrains(keyword: try required(v, "search", spec).uppercased(), date: day)
        default:
            let train = (v["_"] ?? "").trimmingCharacters(in: .whitespaces).uppercased()
            guard !train.isEmpty, train.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                throw .usage("TRAIN is a train number like G1 or K1511, not '\(v["_"] ?? "")'")
            }
            return .railSchedule(train: train, date: day)
        }
    }

    static func weatherCommand(_ spec: CommandSpec, _ v: [String: String]) throws(TransitError) -> Command {
        let units = (v["units"] ?? "metric").lowercased()
        guard units == "metric" || units == "imperial" else { throw .usage("--units takes metric or imperial, not '\(v["units"] ?? "")'") }
        let given = ["city", "lat", "station"].filter { v[$0] != nil }
        guard given.count == 1 else {
            throw .usage("give one of --city, --lat/--lon or --station", hint: "usage: \(spec.usage)")
        }
        if let city = v["city"] { return .weather(.city(city), units: units) }
        if let station = v["station"] { return .weatherAtStation(station, units: units) }
        guard let latText = v["lat"], let lonText = v["lon"], let lat = Double(latText), let lon = Double(lonText),
              (-90...90).contains(lat), (-180...180).contains(lon) else {
            throw .usage("--lat and --lon take decimal degrees, both together")
        }
        return .weather(.coordinates(lat, lon), units: units)
    }

    static func busbudSearch(_ spec: CommandSpec, _ v: [String: String], settings: Settings) throws(TransitError) -> BusbudSearchOptions {
        let origin = try Busbud.place(v["from"] ?? "New York")
        let destination = try Busbud.place(v["to"] ?? "Montréal")
        if origin.geohash == destination.geohash { throw .usage("--from and --to are the same place") }
        // "Today" where the trip starts; for a bare geohash, the last zone on Earth to reach a
        // date (UTC−12), so no date that is still today somewhere is refused.
        let zone = origin.zone ?? TimeZone(secondsFromGMT: -12 * 3600) ?? .current
        let date = try date(try required(v, "date", spec), zone: zone, now: settings.now)
        if !settings.offline && date < LocalDate(settings.now, in: zone) {
            throw .usage("--date \(date.iso) is in the past", hint: "Busbud searches today and later; a recording (--offline) keeps its date")
        }
        var query = BusbudQuery(origin: origin.geohash, destination: destination.geohash, date: date)
        query.adults = try v["adults"].map { (t) throws(TransitError) in try integer(t, option: "adults", in: 0...20) } ?? 1
        query.children = try v["children"].map { (t) throws(TransitError) in try integer(t, option: "children", in: 0...20) } ?? 0
        query.seniors = try v["seniors"].map { (t) throws(TransitError) in try integer(t, option: "seniors", in: 0...20) } ?? 0
        if query.adults + query.children + query.seniors == 0 { throw .usage("a search needs at least one passenger") }
        if let currency = v["currency"] {
            guard currency.count == 3, currency.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                throw .usage("--currency takes an ISO 4217 code like USD, not '\(currency)'")
            }
            query.currency = currency.uppercased()
        }
        if let lang = v["lang"] {
            guard lang.count == 2, lang.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                throw .usage("--lang takes a two-letter ISO 639-1 code like en, not '\(lang)'")
            }
            query.lang = lang.lowercased()
        }
        let maxWait = try v["max-wait"].map { (t) throws(TransitError) in try seconds(t, option: "max-wait", max: 3600) } ?? 60
        let interval = try v["poll-interval"].map { (t) throws(TransitError) in try seconds(t, option: "poll-interval", max: 60) }
        return BusbudSearchOptions(query: query, maxWait: maxWait, pollInterval: interval)
    }

    static func seconds(_ text: String, option: String, max: Double) throws(TransitError) -> Double {
        guard let s = Double(text), s > 0, s <= max else {
            throw .usage("--\(option) takes seconds above 0 and up to \(Int(max)), not '\(text)'")
        }
        return s
    }

    /// `12`, `12mph`, `20kmh`, `20km/h` → miles per hour.
    static func speedMPH(_ text: String) throws(TransitError) -> Double {
        let t = text.lowercased().replacingOccurrences(of: " ", with: "")
        var number = t, factor = 1.0
        for (suffix, f) in [("mph", 1.0), ("km/h", 0.621371), ("kmh", 0.621371), ("kph", 0.621371)] where t.hasSuffix(suffix) {
            number = String(t.dropLast(suffix.count))
            factor = f
            break
        }
        guard let value = Double(number), value > 0 else {
            throw .usage("--speed takes a speed like 12, 12mph or 20kmh, not '\(text)'")
        }
        let mph = value * factor
        guard (1...80).contains(mph) else { throw .usage("--speed \(text) is not a bus's speed (1 to 80 mph)") }
        return mph
    }

    static func busTimeCommand(_ name: String, _ spec: CommandSpec, _ v: [String: String], flags: Set<String>) throws(TransitError) -> BusTimeCommand {
        func list(_ option: String) throws(TransitError) -> [String] {
            let items = (v[option] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            if items.count > BusTimeClient.maxIDs {
                throw .usage("--\(option) takes at most \(BusTimeClient.maxIDs) values (BusTime's limit per request); \(items.count) given")
            }
            return items
        }
        switch name {
        case "routes": return .routes
        case "directions": return .directions(route: try required(v, "route", spec))
        case "stops": return .stops(route: try required(v, "route", spec), direction: try required(v, "direction", spec))
        case "predictions":
            _ = try required(v, "stop", spec)
            let top = try v["top"].map { (t) throws(TransitError) in try integer(t, option: "top", in: 1...500) }
            return .predictions(stops: try list("stop"), routes: try list("route"), top: top)
        case "alerts": return .alerts(route: try required(v, "route", spec), stop: v["stop"])
        case "vehicles":
            _ = try required(v, "route", spec)
            return .vehicles(routes: try list("route"))
        case "eta":
            let stop = try required(v, "stop", spec)
            var method = ETA.Method.alongRoute
            if let m = v["method"] {
                guard let parsed = ETA.Method(rawValue: m.lowercased()) else {
                    throw .usage("--method takes along-route or straight-line, not '\(m)'")
                }
                method = parsed
            }
            var model = ETA.Model()
            if let speed = v["speed"] { model.speedMPH = try speedMPH(speed) }
            if let dwell = v["dwell"] {
                guard let d = Double(dwell), (0...600).contains(d) else { throw .usage("--dwell takes seconds from 0 to 600, not '\(dwell)'") }
                model.dwellSeconds = d
            }
            return .eta(ETAOptions(stop: stop, routes: try list("route"), method: method, model: model, calibrate: flags.contains("calibrate")))
        default: throw .usage("'transit \(spec.provider) \(name)' is not available in this build")
        }
    }

    static func required(_ values: [String: String], _ name: String, _ spec: CommandSpec) throws(TransitError) -> String {
        guard let value = values[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
            throw .usage("'transit \(spec.provider) \(spec.name)' needs --\(name)", hint: "usage: \(spec.usage)")
        }
        return value
    }

    static func distinct(_ from: String, _ to: String) throws(TransitError) {
        if NameMatcher<Int>.normalize(from) == NameMatcher<Int>.normalize(to) {
            throw .usage("--from and --to are the same station")
        }
    }

    static func integer(_ text: String, option: String, in range: ClosedRange<Int>) throws(TransitError) -> Int {
        guard let n = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(n) else {
            throw .usage("--\(option) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return n
    }

    /// `YYYY-MM-DD`, `today` or `tomorrow`, in the agency's zone.
    public static func date(_ text: String, zone: TimeZone, now: Date) throws(TransitError) -> LocalDate {
        let today = LocalDate(now, in: zone)
        switch text.lowercased() {
        case "today": return today
        case "tomorrow": return today.adding(days: 1)
        default:
            guard let d = LocalDate(iso: text) else {
                throw .usage("--date takes YYYY-MM-DD, today or tomorrow, not '\(text)'")
            }
            return d
        }
    }

    /// A clock time as minutes of the service day: before 03:00 counts as the night after.
    static func serviceMinutes(_ text: String, option: String) throws(TransitError) -> Int {
        guard let m = ClockTime.minutes(text) else {
            throw .usage("--\(option) takes HH:MM or h:mm am|pm, not '\(text)'")
        }
        return m < BART.serviceDayCutoff ? m + 1440 : m
    }
}
