import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport

@Suite struct ParserTests {
    let piped = Terminal(stdout: false, stderr: false)
    let tty = Terminal(stdout: true, stderr: true)
    let env = ["HOME": "/home/u", "TRANSIT_NOW": "2026-11-22T20:00:00Z"]

    func run(_ args: [String], env extra: [String: String] = [:], terminal: Terminal? = nil) throws(TransitError) -> (Settings, Command) {
        let invocation = try CommandLineParser.parse(args, environment: env.merging(extra) { $1 }, terminal: terminal ?? piped)
        guard case .run(let settings, let command) = invocation else {
            throw .usage("expected a command, got \(invocation)")
        }
        return (settings, command)
    }

    func usageError(_ args: [String], env extra: [String: String] = [:]) -> String? {
        do {
            _ = try CommandLineParser.parse(args, environment: env.merging(extra) { $1 }, terminal: piped)
            return nil
        } catch {
            return error.exitStatus == 2 ? error.message : "exit \(error.exitStatus): \(error.message)"
        }
    }

    @Test func formatDefaultsFollowTheTerminal() throws {
        #expect(try run(["bart", "stations"]).0.format == .tsv)
        #expect(try run(["bart", "stations"], terminal: tty).0.format == .table)
        #expect(try run(["bart", "stations"], terminal: tty).0.color)
        #expect(try run(["bart", "stations"], env: ["NO_COLOR": "1"], terminal: tty).0.color == false)
        #expect(try run(["bart", "stations"], env: ["TERM": "dumb"], terminal: tty).0.color == false)
        #expect(try run(["--format", "json", "bart", "stations"]).0.format == .json)
        #expect(try run(["bart", "stations", "--format=csv"]).0.format == .csv)
    }

    @Test func globalOptionsStandAnywhere() throws {
        let (s, c) = try run(["-v", "bart", "--no-cache", "trips", "--from", "24TH", "--timeout=2.5", "--to=MLBR", "-q"])
        #expect(s.verbose && s.quiet && s.noCache)
        #expect(s.timeout == 2.5)
        guard let o = (c.command as? BARTTripsCommand)?.request else { Issue.record("not trips: \(c)"); return }
        #expect(o.from == "24TH" && o.to == "MLBR")
        #expect(o.date == LocalDate(year: 2026, month: 11, day: 22))
        #expect(o.transfers == 0 && o.minTransfer == 3)
    }

    @Test func tripsOptionsAreTyped() throws {
        let (_, c) = try run(["bart", "trips", "--from", "24TH", "--to", "MLBR", "--date", "tomorrow", "--after", "5:30 pm",
                              "--before", "01:00", "--limit", "3", "--transfers", "1", "--min-transfer", "5"])
        guard let o = (c.command as? BARTTripsCommand)?.request else { Issue.record("not trips"); return }
        #expect(o.date == LocalDate(year: 2026, month: 11, day: 23))
        #expect(o.after == 17 * 60 + 30)
        #expect(o.before == 1440 + 60)  // 01:00 is the end of the service day
        #expect(o.limit == 3 && o.transfers == 1 && o.minTransfer == 5)
    }

    @Test func todayIsPacificNotUTC() throws {
        // 2026-11-23 05:00 UTC is still the 22nd in California.
        let (_, c) = try run(["bart", "trips", "--from", "A", "--to", "B"], env: ["TRANSIT_NOW": "2026-11-23T05:00:00Z"])
        guard let o = (c.command as? BARTTripsCommand)?.request else { Issue.record("not trips"); return }
        #expect(o.date == LocalDate(year: 2026, month: 11, day: 22))
    }

    @Test func environmentAndFlagPrecedence() throws {
        let fromEnv = try run(["bart", "stations"], env: ["TRANSIT_OFFLINE": "1", "TRANSIT_FIXTURES": "/f"]).0
        #expect(fromEnv.offline && fromEnv.fixtures == "/f")
        let flag = try run(["--fixtures", "/g", "bart", "stations"], env: ["TRANSIT_FIXTURES": "/f"]).0
        #expect(flag.fixtures == "/g" && !flag.offline)
        #expect(try run(["bart", "stations"], env: ["TRANSIT_OFFLINE": "0"]).0.offline == false)
        #expect(try run(["bart", "stations"]).0.cacheDirectory == "/home/u/.cache/transit")
        #expect(try run(["bart", "stations"], env: ["XDG_CACHE_HOME": "/x"]).0.cacheDirectory == "/x/transit")
        #expect(try run(["bart", "stations"], env: ["XDG_CACHE_HOME": "/x", "TRANSIT_CACHE_DIR": "/c"]).0.cacheDirectory == "/c")
        let s = try run(["bart", "stations"], env: ["TRANSIT_BART_BASE_URL": "http://127.0.0.1:9/api"]).0
        #expect(s.baseURL("bart", default: BART.defaultBaseURL) == "http://127.0.0.1:9/api")
        #expect(try run(["bart", "stations", "--header"]).0.header == true)
        #expect(try run(["bart", "stations", "--no-header"]).0.header == false)
    }

    @Test func helpAtEveryLevel() throws {
        for args in [["--help"], ["help"], ["-h"]] {
            guard case .help(let text) = try CommandLineParser.parse(args, environment: env, terminal: piped) else { Issue.record("no help"); continue }
            #expect(text.contains("Examples:"))
            #expect(text.contains("bart"))
        }
        guard case .help(let bart) = try CommandLineParser.parse(["bart", "--help"], environment: env, terminal: piped),
              case .help(let bart2) = try CommandLineParser.parse(["help", "bart"], environment: env, terminal: piped),
              case .help(let trips) = try CommandLineParser.parse(["bart", "trips", "--help"], environment: env, terminal: piped),
              case .help(let trips2) = try CommandLineParser.parse(["help", "bart", "trips"], environment: env, terminal: piped) else {
            Issue.record("no help"); return
        }
        #expect(bart == bart2 && trips == trips2)
        #expect(bart.contains("trips") && bart.contains("departures"))
        #expect(trips.components(separatedBy: "\n")[2] == "Examples:")
        #expect(trips.contains("--min-transfer MIN"))
        #expect(try CommandLineParser.parse(["--version"], environment: env, terminal: piped) == .version)
    }

    /// Start-up: `--version` needs global options only, so the providers' specs are never built;
    /// a command builds them once.
    @Test func versionNeverBuildsTheProviders() throws {
        let built = Locked(0)
        func providers() -> [Provider] { built.withLock { $0 += 1 }; return Providers.all }
        #expect(try CommandLineParser.parse(["--version"], environment: Environment(env), terminal: piped, providers: providers()) == .version)
        #expect(try CommandLineParser.parse(["-q", "--version"], environment: Environment(env), terminal: piped, providers: providers()) == .version)
        #expect(built.current == 0)
        _ = try CommandLineParser.parse(["bart", "stations"], environment: Environment(env), terminal: piped, providers: providers())
        #expect(built.current == 1)
    }

    @Test func usageErrors() throws {
        #expect(usageError([]) == "missing provider")
        #expect(usageError(["bart"])?.hasPrefix("missing command for bart") == true)
        #expect(usageError(["bert", "trips"]) == "unknown provider 'bert'; did you mean 'bart'?")
        #expect(usageError(["bart", "trps"]) == "unknown command 'bart trps'; did you mean 'trips'?")
        #expect(usageError(["bart", "stations", "--fromm", "x"])?.contains("unknown option '--fromm") == true)
        #expect(usageError(["bart", "trips", "--from"]) == "--from needs a value (STN)")
        #expect(usageError(["bart", "trips", "--from", "24TH"]) == "'transit bart trips' needs --to")
        // A positional argument is named as the usage line writes it, not as an option.
        #expect(usageError(["gtfs", "journey", "--from", "A", "--to", "B"]) == "'transit gtfs journey' needs TRIP_ID>TRIP_ID…")
        #expect(usageError(["gtfs", "remove"]) == "'transit gtfs remove' needs NAME")
        #expect(usageError(["bart", "trips", "--from", "24TH", "--to", "24th"]) == "--from and --to are the same station")
        #expect(usageError(["bart", "trips", "--from", "A", "--to", "B", "--after", "18:00", "--before", "17:00"])?.contains("later than --before") == true)
        #expect(usageError(["bart", "trips", "--from", "A", "--to", "B", "--date", "2026-02-30"])?.contains("--date takes") == true)
        #expect(usageError(["bart", "trips", "--from", "A", "--to", "B", "--limit", "0"])?.contains("--limit takes") == true)
        #expect(usageError(["bart", "trips", "--from", "A", "--to", "B", "--transfers", "2"])?.contains("--transfers takes") == true)
        // One rule for BART and GTFS: hours past 24 are the feed's own, up to 47:59.
        #expect(usageError(["bart", "trips", "--from", "A", "--to", "B", "--after", "25:00"]) == nil)
        #expect(usageError(["bart", "trips", "--from", "A", "--to", "B", "--after", "48:00"])?.contains("--after takes") == true)
        #expect(usageError(["bart", "trips", "--from", "A", "--to", "B", "--after", "+5x"])?.contains("--after takes") == true)
        #expect(usageError(["bart", "trips", "--from", "A", "--to", "B", "--date", "2026-12-01", "--after", "+30m"])?
            .contains("count from now: they need today's service day") == true)
        #expect(usageError(["--format", "xml", "bart", "stations"]) == "unknown format 'xml'")
        #expect(usageError(["--format", "geojson", "bart", "stations"])?.contains("geojson") == true)
        #expect(usageError(["--timeout", "0", "bart", "stations"])?.contains("--timeout") == true)
        #expect(usageError(["bart", "stations", "extra"]) == "unexpected argument 'extra' for 'transit bart stations'")
        #expect(usageError(["--header", "--no-header", "bart", "stations"])?.contains("contradict") == true)
        #expect(usageError(["--offline", "--record", "/tmp/x", "bart", "stations"])?.contains("record nothing") == true)
        #expect(usageError(["-x", "bart", "stations"]) == "unknown option '-x'")
        #expect(usageError(["-V"]) == "unknown option '-V'; did you mean --version?")
        #expect(usageError(["version"]) == "unknown provider 'version'; did you mean 'transit --version'?")
        // One value per option: a second would silently win.
        #expect(usageError(["bart", "trips", "--from", "24TH", "--from", "12TH", "--to", "MLBR"]) == "--from is given twice ('24TH' and '12TH'); it takes one value")
        #expect(usageError(["gtfs", "trips", "--link", "100", "--link=200", "--from", "A", "--to", "B"]) == "--link is given twice ('100' and '200'); it takes one value")
        // …except an option made to be repeated, which keeps every value in order.
        let feeds = try CommandLineParser.parse(["gtfs", "departures", "--feed", "a", "--feed=b", "--stop", "A"],
                                                environment: [:], terminal: Terminal(stdout: false, stderr: false))
        guard case .run(_, let several) = feeds else { Issue.record("not a command"); return }
        #expect(several == Command(GTFSDeparturesCommand(feeds: ["a", "b"], stop: "A")))
        let parsed = try CommandLineParser.parse(["gtfs", "departures", "--stop", "A", "--realtime", "a.pb", "--realtime=https://x.example/rt"],
                                                 environment: [:], terminal: Terminal(stdout: false, stderr: false))
        guard case .run(_, let repeated) = parsed else { Issue.record("not a command"); return }
        #expect(repeated == Command(GTFSDeparturesCommand(feeds: [], stop: "A", realtime: .init(sources: ["a.pb", "https://x.example/rt"]))))
        #expect(repeated != several)
        #expect(usageError(["gtfs", "departures", "--stop", "A", "--realtime", "a.pb", "--no-realtime"]) == "--realtime and --no-realtime together say two things")
        #expect(usageError(["gtfs", "import", "x.zip", "--realtime", "rt.pb"])?.contains("an http(s) URL to remember") == true)
        #expect(usageError(["gtfs", "import", "x.zip", "--realtime", "https://x/rt", "--realtime-header", "nocolon"])?.contains("Name: value") == true)
        #expect(usageError(["--verbose=yes", "bart", "stations"]) == "--verbose takes no value")
        #expect(usageError(["bart", "departures", "--station", "24TH", "--platform", "1", "--direction", "s"])?.contains("not both") == true)
        #expect(usageError(["bart", "departures", "--station", "24TH", "--direction", "east"])?.contains("--direction takes") == true)
        #expect(usageError(["bart", "stations"], env: ["TRANSIT_NOW": "yesterday"])?.contains("TRANSIT_NOW") == true)
    }

    @Test func tripPlannerWindowExceptOffline() throws {
        let args = ["bart", "trip", "--from", "ASHB", "--to", "CIVC", "--time", "10:10am", "--date", "2018-01-02"]
        #expect(usageError(args)?.contains("outside BART's trip planner window") == true)
        let (_, c) = try run(["--offline"] + args)
        #expect(c == Command(BARTTripCommand(BARTTripRequest(from: "ASHB", to: "CIVC", date: LocalDate(year: 2018, month: 1, day: 2), minutes: 610))))
        #expect(usageError(["bart", "trip", "--from", "A", "--to", "B", "--time", "8:00", "--date", "2027-01-18"]) != nil)
        #expect(usageError(["bart", "trip", "--from", "A", "--to", "B", "--time", "8:00", "--date", "2027-01-17"]) == nil)
    }

    @Test func aSwapIsOneEditAndTheCommandsOwnOptionsComeFirst() {
        #expect(usageError(["bart", "trips", "--form", "24TH", "--to", "MLBR"])
                == "unknown option '--form' for 'transit bart trips'; did you mean '--from'?")
        #expect(usageError(["bart", "trips", "--from", "24TH", "--to", "MLBR", "--fromat", "json"])
                == "unknown option '--fromat' for 'transit bart trips'; did you mean '--format'?")
        #expect(usageError(["bart", "stations", "--nera", "1,2"]) == "unknown option '--nera' for 'transit bart stations'; did you mean '--near'?")
        #expect(NameMatcher<Int>.distance("form", "from") == 1)
        #expect(NameMatcher<Int>.distance("abc", "ca") == 3)
    }

    @Test func optionNamesHaveOneArityEverywhere() {
        // The scanner reads an option's arity before it knows the command: a name must not be
        // a flag in one command and take a value in another.
        var arity: [String: Bool] = [:]
        for option in GlobalOptions.specs + Providers.all.flatMap({ $0.spec.commands.flatMap(\.options) }) {
            if let known = arity[option.name] { #expect(known == (option.value != nil), "--\(option.name)") }
            arity[option.name] = option.value != nil
        }
    }

    @Test func doubleDashEndsOptions() throws {
        #expect(usageError(["bart", "stations", "--", "--format"]) == "unexpected argument '--format' for 'transit bart stations'")
    }
}

@Suite struct BusTimeParserCLITests {
    let env = ["HOME": "/h"]
    let piped = Terminal(stdout: false, stderr: false)

    func command(_ args: [String]) throws(TransitError) -> Command {
        guard case .run(_, let command) = try CommandLineParser.parse(args, environment: env, terminal: piped) else {
            throw .usage("no command")
        }
        return command
    }

    @Test func predictionsTakeListsOfStopsAndRoutes() throws {
        #expect(try command(["cta", "predictions", "--stop", "1836, 1837", "--route", "22,36", "--limit", "3"])
                == Command(BusTimePredictionsCommand(agency: .cta, stops: ["1836", "1837"], routes: ["22", "36"], limit: 3)))
        // --top, BusTime's own word, stays as a hidden alias of --limit.
        #expect(try command(["cta", "predictions", "--stop", "1836", "--top", "3"]) == Command(BusTimePredictionsCommand(agency: .cta, stops: ["1836"], routes: [], limit: 3)))
        #expect(try command(["mbus", "vehicles", "--route", "BB"]) == Command(BusTimeVehiclesCommand(agency: .mbus, routes: ["BB"])))
        #expect(try command(["cta", "stops", "--route", "22", "--direction", "Northbound"])
                == Command(BusTimeStopsCommand(agency: .cta, route: "22", direction: "Northbound")))
        #expect(try command(["cta", "alerts", "--route", "22", "--stop", "1836"]) == Command(BusTimeAlertsCommand(agency: .cta, route: "22", stop: "1836")))
    }

    @Test func limitsAndMissingValues() {
        func message(_ args: [String]) -> String? {
            do { _ = try command(args); return nil } catch { return error.exitStatus == 2 ? error.message : "exit \(error.exitStatus)" }
        }
        #expect(message(["cta", "predictions"]) == "'transit cta predictions' needs --stop")
        #expect(message(["cta", "predictions", "--stop", "1,2,3,4,5,6,7,8,9,10,11"])
                == "--stop takes at most 10 values (BusTime's limit per request); 11 given")
        #expect(message(["cta", "vehicles", "--route", "1,2,3,4,5,6,7,8,9,10,11"])
                == "--route takes at most 10 values (BusTime's limit per request); 11 given")
        #expect(message(["cta", "predictions", "--stop", "1", "--limit", "0"]) == "--limit takes a whole number from 1 to 500, not '0'")
        #expect(message(["cta", "predictions", "--stop", "1", "--top", "3", "--limit", "4"]) == "--limit is given twice (--top '3' and --limit '4'); it takes one value")
        #expect(message(["cta", "stops", "--route", "22"]) == "'transit cta stops' needs --direction")
        #expect(message(["--format", "geojson", "cta", "predictions", "--stop", "1"])
                == "--format geojson is only for commands that return places (stops, vehicles)")
    }

    @Test func idsAndNames() {
        for id in ["22", "X9", "J14", "BB", "CSX"] { #expect(BusTimeCommands.looksLikeRouteID(id), "\(id)") }
        for name in ["Clark", "Commuter South", "bb", "Bursley-Baits"] { #expect(!BusTimeCommands.looksLikeRouteID(name), "\(name)") }
        for id in ["1836", "C250", "N411"] { #expect(BusTimeCommands.looksLikeStopID(id), "\(id)") }
        for name in ["Clark & Belmont", "Clark", "C-250"] { #expect(!BusTimeCommands.looksLikeStopID(name), "\(name)") }
    }
}

@Suite struct ETAParserTests {
    func command(_ args: [String], env: [String: String] = [:]) throws(TransitError) -> (Settings, Command) {
        guard case .run(let s, let c) = try CommandLineParser.parse(args, environment: env, terminal: Terminal(stdout: false, stderr: false)) else {
            throw .usage("no command")
        }
        return (s, c)
    }

    @Test func etaOptions() throws {
        let (_, c) = try command(["mbus", "eta", "--stop", "C528", "--speed", "20kmh", "--dwell", "30", "--method", "straight-line", "--calibrate"])
        guard let eta = c.command as? BusTimeETACommand, eta.agency == .mbus else { Issue.record("\(c)"); return }
        let o = eta.options
        #expect(o.stop == "C528" && o.method == .straightLine && o.calibrate && o.model.dwellSeconds == 30)
        #expect(abs(o.model.speedMPH - 12.42742) < 0.001)
        #expect(try ETA.speedMPH("12") == 12 && ETA.speedMPH("12 mph") == 12)
        #expect(throws: TransitError.usage("--speed takes a speed like 12, 12mph or 20kmh, not 'fast'")) { try ETA.speedMPH("fast") }
        #expect(throws: TransitError.usage("--speed 500mph is not a bus's speed (1 to 80 mph)")) { try ETA.speedMPH("500mph") }
        #expect(throws: TransitError.usage("--method takes along-route or straight-line, not 'bee-line'")) {
            try command(["mbus", "eta", "--stop", "C1", "--method", "bee-line"])
        }
    }

    @Test func watchOptions() throws {
        let (s, _) = try command(["cta", "vehicles", "--route", "22", "--watch", "15", "--count", "3"])
        #expect(s.watch == Watch(seconds: 15, count: 3))
        let (t, _) = try command(["cta", "vehicles", "--route", "22", "--watch", "10"], env: ["TRANSIT_WATCH_UNIT_MS": "5"])
        #expect(t.watch?.unit == 0.005 && t.watch?.count == nil)
        #expect(throws: TransitError.usage("--watch takes seconds, at least 10, not '9.9'", hint: "every refresh counts against the key's daily quota")) {
            try command(["cta", "vehicles", "--route", "22", "--watch", "9.9"])
        }
        #expect(throws: TransitError.usage("--count takes a whole number from 1 to 1000000, not '0'")) {
            try command(["cta", "vehicles", "--route", "22", "--watch", "10", "--count", "0"])
        }
        #expect(throws: TransitError.usage("unknown option '--watch' for 'transit cta routes'", hint: "run 'transit cta routes --help'")) {
            try command(["cta", "routes", "--watch", "10"])
        }
    }

    /// Issue 12 item 3: the environment is input too. `inf` trapped and `1e12` slept past the
    /// deadline; each is now a usage error naming the variable.
    @Test func anAbsurdRetryDelayIsRefused() throws {
        func retryDelay(_ text: String) -> Result<Double?, TransitError> {
            do {
                let invocation = try CommandLineParser.parse(["bart", "stations"], environment: ["HOME": "/h", "TRANSIT_RETRY_DELAY_MS": text],
                                                             terminal: Terminal(stdout: false, stderr: false))
                guard case .run(let settings, _) = invocation else { return .success(nil) }
                return .success(settings.retryDelay)
            } catch { return .failure(error) }
        }
        for bad in ["inf", "-inf", "nan", "1e12", "-5", "60001", "abc"] {
            guard case .failure(let error) = retryDelay(bad) else { Issue.record("\(bad) was accepted"); continue }
            #expect(error == .usage("TRANSIT_RETRY_DELAY_MS takes milliseconds from 0 to 60000, not '\(bad)'"))
        }
        #expect(try retryDelay("250").get() == 0.25)
    }

    @Test func tableWidthComesFromColumnsOnATerminalOnly() throws {
        func width(_ columns: String, terminal: Bool) throws -> Int?? {
            let invocation = try CommandLineParser.parse(["bart", "stations"], environment: ["HOME": "/h", "COLUMNS": columns],
                                                         terminal: Terminal(stdout: terminal, stderr: terminal))
            guard case .run(let settings, _) = invocation else { return nil }
            return .some(settings.tableWidth)
        }
        #expect(try width("50", terminal: true) == .some(50))
        #expect(try width("50", terminal: false) == .some(nil))  // piped: never cut
        #expect(try width("abc", terminal: true) != .some(50))
    }
}
