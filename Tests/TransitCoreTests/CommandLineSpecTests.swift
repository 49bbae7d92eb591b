import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport

/// The specs are the one source of the parser, `--help` and the command reference (docs/reference.md).
@Suite struct CommandLineSpecTests {
    @Test func theCommandReferenceIsTheSpecs() throws {
        let path = Paths.root.appendingPathComponent("docs/reference.md").path
        let page = try String(contentsOfFile: path, encoding: .utf8)
        let start = "<!-- reference:start -->\n", end = "<!-- reference:end -->"
        let head = try #require(page.range(of: start)), tail = try #require(page.range(of: end))
        let generated = Help.reference(Providers.all.map(\.spec))
        if ProcessInfo.processInfo.environment["TRANSIT_UPDATE_REFERENCE"] == "1" {
            let updated = String(page[..<head.upperBound]) + generated + "\n" + String(page[tail.lowerBound...])
            try updated.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        #expect(String(page[head.upperBound..<tail.lowerBound]) == generated + "\n",
                "docs/reference.md differs from the specs: TRANSIT_UPDATE_REFERENCE=1 swift test --filter theCommandReferenceIsTheSpecs")
    }

    @Test func usageLinesAreGeneratedFromTheOptions() throws {
        let trips = try #require(Providers.all.first { $0.spec.name == "bart" }?.spec.command("trips"))
        #expect(trips.usage == "transit bart trips --from STN --to STN [--date DATE] [--after T] [--before T] [--arrive-by T] [--limit N] [--transfers 0|1] [--min-transfer MIN]")
        let help = Help.command(trips, width: 10_000)
        #expect(help.contains("Usage: " + trips.usage))
        #expect(help.contains("minutes a change needs, as in gtfs trips; one more than gtfs trips' default (2): BART's API gives no transfer times to go by (default 3)"))
        let schedule = try #require(Providers.all.first { $0.spec.name == "rail12306" }?.spec.command("schedule"))
        #expect(schedule.usage == "transit rail12306 schedule TRAIN [--date DATE]")
    }

    /// Issue 68: help wrapped to the terminal loses no word and breaks none: at 80 and 40
    /// columns every help text has the words it has unwrapped (an example's continuation ` \`
    /// aside), and at 80 no line is wider than 80.
    @Test func helpWrapsToTheTerminalLosingNoWord() throws {
        let providers = Providers.all.map(\.spec)
        var texts: [(String, (Int) -> String)] = [("transit --help", { Help.top(providers, width: $0) })]
        for provider in providers {
            texts.append(("transit help \(provider.name)", { Help.provider(provider, width: $0) }))
            for command in provider.commands { texts.append(("transit \(provider.name) \(command.name) --help", { Help.command(command, width: $0) })) }
        }
        func words(_ text: String) -> [Substring] { text.split(whereSeparator: { $0 == " " || $0 == "\n" }).filter { $0 != "\\" } }
        for (name, text) in texts {
            let whole = words(text(10_000))
            for width in [80, 40] {
                let wrapped = text(width)
                #expect(words(wrapped) == whole, "\(name) at \(width) columns")
                if width == 80 {
                    for line in wrapped.split(separator: "\n") { #expect(TextWidth.of(String(line)) <= 80, "\(name): \(line)") }
                }
            }
        }
    }

    /// `transit gtfs trips --help` as a user sees it, on a terminal of 80 columns and piped: the
    /// same text, Tests/Golden/help-gtfs-trips.txt (TRANSIT_UPDATE_GOLDEN=1 writes it again); on
    /// a terminal of 120 columns, wider lines and none over 120.
    @Test func tripsHelpOnATerminalAndPiped() async throws {
        let args = ["gtfs", "trips", "--help"]
        let terminal = try await Run.inTerminal(args, env: Run.environment([:]), columns: 80)
        let piped = try await Run.transit(args, env: Run.environment([:]))
        let wide = try await Run.inTerminal(args, env: Run.environment([:]), columns: 120)
        let file = Paths.root.appendingPathComponent("Tests/Golden/help-gtfs-trips.txt")
        if ProcessInfo.processInfo.environment["TRANSIT_UPDATE_GOLDEN"] == "1" { try piped.stdout.write(to: file, atomically: true, encoding: .utf8) }
        let golden = try String(contentsOf: file, encoding: .utf8)
        #expect(terminal.stdout == golden && piped.stdout == golden, "differs from \(file.path) (TRANSIT_UPDATE_GOLDEN=1 writes it again)")
        #expect(terminal.stdoutLines.allSatisfy { TextWidth.of($0) <= 80 })
        #expect(wide.stdoutLines.allSatisfy { TextWidth.of($0) <= 120 } && wide.stdoutLines.contains { TextWidth.of($0) > 80 })
        #expect(terminal.status == 0 && piped.status == 0 && wide.status == 0)
    }

    /// Issue 69: a getter asked for a name its command's spec lacks is a usage error, not an
    /// option never given. Every command is parsed with its required options (and its
    /// positional argument) given: whatever else a parse says, never "is not an option".
    @Test func everyCommandAsksOnlyForItsOwnOptions() {
        let env = ["HOME": "/home/u", "TRANSIT_NOW": "2026-11-22T20:00:00Z", "TRANSIT_CTA_KEY": "k", "TRANSIT_MBUS_KEY": "k",
                   "TRANSIT_BUSBUD_TOKEN": "t", "TRANSIT_OPENWEATHERMAP_KEY": "k"]
        func value(_ option: OptionSpec) -> String {
            let placeholder = option.value ?? ""
            if option.name == "to" { return "B" }
            if placeholder.contains("DATE") { return "2026-11-23" }
            if placeholder.contains("LAT") { return "37.7,-122.4" }
            if ["N", "K", "MIN", "METERS", "SECONDS", "X", "0|1"].contains(placeholder) { return "1" }
            return option.choices.first ?? "A"
        }
        var parsed = 0
        for provider in Providers.all {
            for command in provider.spec.commands {
                var args = [provider.spec.name, command.name]
                if let positional = command.positional { args.append(positional == "TRAIN" ? "G1" : "X") }
                for option in command.options where option.required { args += ["--" + option.name] + (option.value == nil ? [] : [value(option)]) }
                do {
                    _ = try CommandLineParser.parse(args, environment: env, terminal: Terminal(stdout: false, stderr: false))
                    parsed += 1
                } catch {
                    #expect(!error.message.contains("is not an option of"), "\(args): \(error.message)")
                }
            }
        }
        #expect(parsed > 30, "\(parsed) commands parsed")
    }

    /// Every name the source hands an option getter (`args.string("from")`, …) is an option of
    /// some command or a global one: a misspelt name fails here, not in a user's hands.
    @Test func everyNameTheSourceAsksForIsAnOption() throws {
        var known = Set(GlobalOptions.specs.map(\.name))
        for provider in Providers.all {
            for command in provider.spec.commands {
                known.formUnion(command.options.map(\.name))
                known.formUnion(command.aliases.keys)
            }
        }
        let getters = #/args\.(?:string|given|strings|flag|required|int|intValue|double|seconds|choice|list|date|time|serviceTime|coordinates|takes)\("([^"]+)"/#
        var asked = 0, unknown: [String] = []
        let sources = Paths.root.appendingPathComponent("Sources/TransitCore")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: getters) {
                asked += 1
                if !known.contains(String(match.1)) { unknown.append("\(file): \(match.1)") }
            }
        }
        #expect(asked > 100, "\(asked) names found: the pattern no longer matches the getters")
        #expect(unknown.isEmpty, "names asked for that no command has: \(unknown)")
    }

    @Test func everyProviderIsListedOnceWithItsOwnCommands() {
        let names = Providers.all.map(\.spec.name)
        #expect(names == ["bart", "cta", "mbus", "busbud", "rail12306", "weather", "gtfs"])
        for provider in Providers.all {
            #expect(!provider.spec.commands.isEmpty)
            #expect(provider.spec.commands.allSatisfy { $0.provider == provider.spec.name })
            #expect(provider.spec.commands.allSatisfy { !$0.examples.isEmpty }, "\(provider.spec.name)")
        }
    }

    /// A note is whole sentences: a `", "` inside one once closed its Swift string, and `gtfs
    /// fares --help` broke mid-sentence into a second note that began `), price` (issue 68).
    @Test func everyNoteIsWholeSentences() {
        for provider in Providers.all {
            for command in provider.spec.commands {
                for note in command.notes {
                    let first = note.first, last = note.last
                    #expect(first.map { !" ,;:.)]".contains($0) } == true, "\(command.usage): a note begins \(note.prefix(20).debugDescription)")
                    #expect(last.map { ".)!?:".contains($0) } == true, "\(command.usage): a note ends \(note.suffix(20).debugDescription)")
                }
            }
        }
    }

    @Test func everyCommandOfTheSpecsHasItsOwnParser() {
        // A parser's last arm used to be `default:`, so a renamed command ran another. Every
        // example must parse, and none may meet the parsers' error for a command they lack.
        func words(_ line: String) -> [String] {
            var out: [String] = [], word = "", quoted = false
            for c in line {
                if c == "\"" { quoted.toggle() } else if c == " " && !quoted { if !word.isEmpty { out.append(word); word = "" } } else { word.append(c) }
            }
            return word.isEmpty ? out : out + [word]
        }
        let env = ["HOME": "/h", "TRANSIT_NOW": "2026-11-23T20:00:00Z", "TRANSIT_OFFLINE": "1"]
        for provider in Providers.all {
            for command in provider.spec.commands {
                for example in command.examples {
                    let argv = Array(words(example).dropFirst())
                    do {
                        _ = try CommandLineParser.parse(argv, environment: env, terminal: Terminal(stdout: false, stderr: false))
                    } catch {
                        #expect(!error.message.contains("is not a command this version knows"), "\(example)")
                    }
                }
            }
        }
    }

    @Test func defaultsComeFromTheSpec() throws {
        let env = ["HOME": "/h", "TRANSIT_NOW": "2026-11-22T20:00:00Z"]
        let piped = Terminal(stdout: false, stderr: false)
        guard case .run(_, let search) = try CommandLineParser.parse(["busbud", "search", "--date", "2026-12-19"], environment: env, terminal: piped),
              let o = (search.command as? BusbudSearchCommand)?.options else {
            Issue.record("not a search"); return
        }
        #expect(o.query.currency == "USD" && o.query.lang == "en" && o.query.adults == 1 && o.query.children == 0 && o.maxWait == 60)
        #expect(o.query.origin == "dr5reg" && o.query.destination == "f25dvk")
        guard case .run(_, let trips) = try CommandLineParser.parse(["bart", "trips", "--from", "A", "--to", "B"], environment: env, terminal: piped),
              let t = (trips.command as? BARTTripsCommand)?.request else {
            Issue.record("not trips"); return
        }
        #expect(t.minTransfer == 3 && t.transfers == 0)
    }

    @Test func theServiceDayInProgressBeforeThreeIsYesterdays() throws {
        let piped = Terminal(stdout: false, stderr: false)
        func day(_ now: String) throws -> LocalDate? {
            guard case .run(_, let trips) = try CommandLineParser.parse(
                ["bart", "trips", "--from", "A", "--to", "B"], environment: ["HOME": "/h", "TRANSIT_NOW": now], terminal: piped),
                  let t = (trips.command as? BARTTripsCommand)?.request else { return nil }
            return t.date
        }
        // 00:30 and 02:59 Pacific on the 24th belong to the 23rd; 03:00 starts the 24th.
        #expect(try day("2026-11-24T08:30:00Z") == LocalDate(year: 2026, month: 11, day: 23))
        #expect(try day("2026-11-24T10:59:00Z") == LocalDate(year: 2026, month: 11, day: 23))
        #expect(try day("2026-11-24T11:00:00Z") == LocalDate(year: 2026, month: 11, day: 24))
    }

    @Test func nearTakesCoordinates() throws {
        let env = ["HOME": "/h"]
        let piped = Terminal(stdout: false, stderr: false)
        #expect(try CommandLineParser.parse(["bart", "stations", "--near", "37.75,-122.42", "--limit", "2"], environment: env, terminal: piped)
                .command == Command(BARTStationsCommand(near: Coordinate(latitude: 37.75, longitude: -122.42), limit: 2)))
        #expect(try CommandLineParser.parse(["bart", "stations", "--near", "37.75,-122.42"], environment: env, terminal: piped)
                .command == Command(BARTStationsCommand(near: Coordinate(latitude: 37.75, longitude: -122.42), limit: 5)))
        #expect(throws: TransitError.usage("--near takes LAT,LON in decimal degrees, like 37.7524,-122.4184, not '95,0'")) {
            try CommandLineParser.parse(["bart", "stations", "--near", "95,0"], environment: env, terminal: piped)
        }
        #expect(throws: TransitError.usage("--limit goes with --near")) {
            try CommandLineParser.parse(["bart", "stations", "--limit", "3"], environment: env, terminal: piped)
        }
    }

    @Test func nearestStationsThroughTheBinary() async throws {
        // 24th St Mission is at 37.752470,-122.418143; Glen Park and 16th St are the next two.
        let run = try await Run.transit(["--offline", "--fixtures", Paths.fixtures, "bart", "stations", "--near", "37.7525,-122.4181", "--limit", "3"])
        #expect(run.status == 0)
        #expect(run.stderr == "")
        let codes = run.stdoutLines.map { $0.split(separator: "\t").first.map(String.init) ?? "" }
        #expect(codes == ["24TH", "16TH", "GLEN"])
        let first = run.stdoutLines.first?.split(separator: "\t").map(String.init) ?? []
        #expect(first.last == "0.01")  // about 5 m
        let json = try await Run.transit(["--offline", "--fixtures", Paths.fixtures, "--format", "json", "bart", "stations", "--near", "37.7525,-122.4181", "--limit", "1"])
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(parsed.first?.keys.sorted() == ["abbr", "city", "distance_km", "latitude", "longitude", "name"])
    }
}

extension Invocation {
    var command: Command? {
        if case .run(_, let command) = self { return command }
        return nil
    }
}
