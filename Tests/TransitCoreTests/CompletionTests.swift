import Foundation
import Testing
import TransitTestSupport
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport

/// `transit completion bash|zsh|fish`, run by the real shells against the built binary.
@Suite struct CompletionTests {
    /// Runs `bash` with the generated script loaded; each `t WORDS…` line prints one line: the
    /// candidates bash would offer for the last word, separated by `|`.
    static func bash(_ lines: [String], env extra: [String: String] = [:]) async throws -> [String] {
        let script = try await Run.transit(["completion", "bash"])
        try #require(script.status == 0)
        let file = Paths.temporary() + ".bash"
        try script.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let harness = """
            source "$1" || exit 9
            t() { COMP_WORDS=("$TRANSIT" "$@"); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMPREPLY=(); _transit; local IFS='|'; printf '%s\\n' "${COMPREPLY[*]}"; }
            \(lines.joined(separator: "\n"))
            """
        let env = Run.environment(extra.merging(["TRANSIT": Run.binary]) { a, _ in a })
        let run = try await Run.transitLike(["/bin/bash", "--norc", "-c", harness, "bash", file], env: env)
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdoutLines
    }

    static func words(_ line: String?) -> [String] { (line ?? "").split(separator: "|").map(String.init) }

    @Test func bashCompletesWhatTheSpecsSay() async throws {
        let specs = Providers.all.map(\.spec)
        let globals = GlobalOptions.specs.map { "--" + $0.name }
        var lines = ["complete -p transit", "t ''", "t help ''", "t completion ''"]
        var expected: [[String]] = [[], specs.map(\.name) + ["help", "completion"], specs.map(\.name), ["bash", "zsh", "fish"]]
        for provider in specs {
            lines.append("t \(provider.name) ''")
            expected.append(provider.commands.map(\.name))
            for command in provider.commands {
                lines.append("t \(provider.name) \(command.name) --format ''")
                expected.append(OutputFormat.allCases.map(\.rawValue).filter { ($0 != "geojson" || command.geoJSON) && ($0 != "parquet" || command.parquet) })
                lines.append("t \(provider.name) \(command.name) --")
                expected.append(command.options.map { "--" + $0.name } + globals.filter { name in !command.options.contains { "--" + $0.name == name } })
                for option in command.options where !option.choices.isEmpty {
                    lines.append("t \(provider.name) \(command.name) --\(option.name) ''")
                    expected.append(option.choices)
                }
            }
        }
        let out = try await Self.bash(lines)
        try #require(out.count == lines.count, "\(out)")
        #expect(out[0] == "complete -F _transit transit")
        for (i, line) in lines.enumerated().dropFirst() {
            #expect(Set(Self.words(out[i])) == Set(expected[i]), "\(line)")
        }
    }

    @Test func bashReadsTheLineAsTheParserDoes() async throws {
        let out = try await Self.bash([
            "t bart trips --transfers ''",          // a closed value
            "t bart trips --format = j",             // --opt=value, which bash splits at '='
            "t --format json bart ''",               // a global option's value is not the provider
            "t -q bart trips --to MLBR --tr",        // options before the cursor are skipped with their values
            "t bart trips --date ''",                // free text: nothing to offer
            "t rail12306 schedule ''",               // a positional argument with nothing to offer
        ])
        #expect(out == ["0|1", "json", "trips|trip|departures|advisories|stations|routes", "--transfers", "", ""])
    }

    @Test func stationsCompleteFromTheCacheAndNeverFromTheNetwork() async throws {
        let server = try LoopbackServer(handler: fixtureHandler())
        defer { server.stop() }
        let cache = Paths.temporary()
        let env = ["TRANSIT_BART_BASE_URL": server.baseURL + "/api", "TRANSIT_CACHE_DIR": cache]
        // Nothing cached yet: nothing offered, and nothing asked of the server.
        let before = try await Self.bash(["t bart trips --from 24"], env: env)
        #expect(before == [""])
        #expect(server.requests.isEmpty)
        // A command fetches the station list and caches it; completion reads it from there.
        let stations = try await Run.transit(["bart", "stations"], env: Run.environment(env))
        #expect(stations.status == 0 && server.requests.count == 1)
        let out = try await Self.bash(["t bart trips --from 24", "t bart trips --from 24t", "t bart departures --station mil",
                                       "t bart trip --from MLBR --to ''"], env: env)
        #expect(out.first == "24TH|24th St. Mission")
        #expect(out.dropFirst().first == "24TH|24th St. Mission")
        #expect(out.dropFirst(2).first == "Millbrae|Milpitas")
        #expect(Self.words(out.dropFirst(3).first).count == 100)  // every code and every name
        #expect(server.requests.count == 1)
        // Days later the entry is stale for a command, not for completion.
        let later = try await Self.bash(["t bart trips --from 24"], env: env.merging(["TRANSIT_NOW": "2027-01-10T12:00:00Z"]) { _, b in b })
        #expect(later == ["24TH|24th St. Mission"])
        #expect(server.requests.count == 1)
    }

    @Test func offlineStationsCompleteFromTheRecordings() async throws {
        let out = try await Self.bash(["t --offline bart trips --from mil", "t bart --offline departures --station 24"])
        #expect(out == ["Millbrae|Milpitas", "24TH|24th St. Mission"])
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func gtfsStopsAndFeedsCompleteFromImportedFeedsOnly() async throws {
        let cache = Paths.temporary()
        let env = ["TRANSIT_CACHE_DIR": cache]
        let before = try await Self.bash(["t gtfs trips --from San"], env: env)
        #expect(before == [""])
        let imported = try await Run.transit(["gtfs", "import", Reference.feed("caltrain-20160406/caltrain_20160406.zip")], env: Run.environment(env))
        #expect(imported.status == 0)
        let out = try await Self.bash([
            "t gtfs trips --feed ''",
            "t gtfs trips --from 'San F'",
            "t gtfs departures --stop '\"San Fr'",       // an opening quote typed before the name
            "t gtfs trips --from 'San\\ Fr'",            // a backslash-escaped space
            "t gtfs trips --feed nope --from San",       // a feed that is not imported: nothing
            "t gtfs trips --feed ./x.zip --from San",    // a path would have to be compiled: nothing
        ], env: env)
        #expect(out == ["caltrain_20160406|all", "San Francisco Caltrain", "San Francisco Caltrain", "San Francisco Caltrain", "", ""])
    }

    /// Issue 44, item 8: the NAME of update and remove (imported feeds), --rider (the feed's
    /// categories), --route (its routes), a trip_id for `gtfs trip` once something is typed, and
    /// catalog's subcommands; in bash, zsh and fish alike.
    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func feedNamesRidersRoutesTripsAndSubcommandsComplete() async throws {
        let env = ["TRANSIT_CACHE_DIR": Paths.temporary()]
        let imported = try await Run.transit(["gtfs", "import", Reference.path("realdata/bart_gtfs/gtfs-lite_2022/unz"), "--name", "bart"], env: Run.environment(env))
        #expect(imported.status == 0, "\(imported.stderr)")
        let out = try await Self.bash([
            "t gtfs remove ''", "t gtfs update b", "t gtfs trips --rider ''", "t gtfs trips --rider y", "t gtfs departures --route Red",
            "t gtfs vehicles --route Yellow-", "t gtfs trip 125012", "t gtfs trip ''", "t gtfs catalog ''", "t gtfs catalog s",
        ], env: env)
        #expect(out.count == 10)
        #expect(out.first == "bart" && out.dropFirst().first == "bart", "\(out)")
        #expect(Set(Self.words(out.dropFirst(2).first)) == ["5", "Youth Clipper", "2", "Senior/Disabled Clipper", "16", "Clipper START"], "\(out)")
        #expect(Self.words(out.dropFirst(3).first) == ["Youth Clipper"], "\(out)")
        #expect(Set(Self.words(out.dropFirst(4).first)) == ["Red-N", "Red-S"], "\(out)")
        #expect(Set(Self.words(out.dropFirst(5).first)) == ["Yellow-N", "Yellow-S"], "\(out)")
        let trips = Self.words(out.dropFirst(6).first)
        #expect(!trips.isEmpty && trips.allSatisfy { $0.hasPrefix("125012") } && trips.contains("1250125"), "\(out)")
        #expect(out.dropFirst(7).first == "", "no trip_id before something is typed")
        #expect(Set(Self.words(out.dropFirst(8).first)) == ["search", "show", "update"] && Self.words(out.dropFirst(9).first) == ["search", "show"], "\(out)")
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/fish") {
            let bin = try Self.pathWithTransit()
            let fish = try await Run.transitLike(["/usr/bin/fish", "--no-config", "-c", """
                transit completion fish | source
                complete -C'transit gtfs remove '; echo ==
                complete -C'transit gtfs catalog '; echo ==
                complete -C'transit gtfs trips --rider Sen'
                """], env: Run.environment(env.merging(["PATH": bin + ":/usr/bin:/bin"]) { $1 }))
            let blocks = fish.stdout.components(separatedBy: "==\n").map { $0.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") } }
            #expect(blocks == [["bart"], ["search", "show", "update"], ["Senior/Disabled Clipper"]], "\(fish.stdout)\(fish.stderr)")
        }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh") {
            let zsh = try await Run.transitLike(["/usr/bin/zsh", "-f", "-c", """
                compdef() { :; }; compset() { :; }
                compadd() { local a; for a in "$@"; do [[ $a == -* ]] || print -rn -- "$a "; done; print; }
                source <("$TRANSIT" completion zsh)
                t() { words=("$TRANSIT" "$@"); CURRENT=${#words}; PREFIX=${words[CURRENT]}; _transit; }
                t gtfs remove ''
                t gtfs catalog ''
                """], env: Run.environment(env.merging(["TRANSIT": Run.binary]) { $1 }))
            #expect(zsh.stdoutLines == ["bart ", "search show update "], "\(zsh.stdout)\(zsh.stderr)")
        }
    }

    /// A directory holding `transit` (the built binary), for a shell that finds it on PATH.
    static func pathWithTransit() throws -> String {
        let bin = Paths.temporary()
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin + "/transit", withDestinationPath: Run.binary)
        return bin
    }

    static func parses(_ shell: String) async throws {
        let script = try await Run.transit(["completion", shell])
        let file = Paths.temporary() + "." + shell
        try script.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let parsed = try await Run.transitLike(["/usr/bin/" + shell, "-n", file], env: Run.environment())
        #expect(parsed.status == 0 && parsed.stderr == "", "\(shell): \(parsed.stderr)")
    }

    /// scripts/setup installs fish where it can (CI does); elsewhere this test is skipped.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/fish")))
    func fishParsesAndCompletesTheLine() async throws {
        try await Self.parses("fish")
        // fish completes a command line on its own (complete -C); transit is found on PATH.
        let bin = try Self.pathWithTransit()
        let fish = try await Run.transitLike(["/usr/bin/fish", "--no-config", "-c", """
            transit completion fish | source
            complete -C'transit b'; echo ==
            complete -C'transit bart trips --tr'; echo ==
            complete -C'transit bart trips --transfers '; echo ==
            complete -C'transit --offline bart trips --from mil'; echo ==
            complete -C'transit bart trips --format '; echo ==
            complete -C'transit cta vehicles --format '
            """], env: Run.environment(["PATH": bin + ":/usr/bin:/bin"]))
        #expect(fish.status == 0, "\(fish.stderr)")
        let blocks = fish.stdout.components(separatedBy: "==\n").map { $0.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") } }
        #expect(blocks.count == 6)
        // geojson only where the command returns places.
        #expect(blocks.dropFirst(4).first.map(Set.init) == ["table", "tsv", "csv", "json"])
        #expect(blocks.dropFirst(5).first.map(Set.init) == ["table", "tsv", "csv", "json", "geojson"])
        #expect(blocks.first == ["bart", "busbud"])
        #expect(blocks.dropFirst().first == ["--transfers"])
        #expect(blocks.dropFirst(2).first == ["0", "1"])
        #expect(blocks.dropFirst(3).first == ["Millbrae", "Milpitas"])
    }

    /// scripts/setup installs zsh where it can (CI does); elsewhere this test is skipped.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh")))
    func zshParsesAndCompletesTheLine() async throws {
        try await Self.parses("zsh")
        // The generated function, run with zsh's completion builtins stood in for, so that what
        // it hands them can be read.
        let zsh = try await Run.transitLike(["/usr/bin/zsh", "-f", "-c", """
            compdef() { :; }; compset() { :; }
            compadd() { local a; for a in "$@"; do [[ $a == -* ]] || print -rn -- "$a "; done; print; }
            _describe() { print -r -- "${(j: :)${(@)${(P)4}%%:*}}"; }
            _files() { print -r -- "files $*"; }
            source <("$TRANSIT" completion zsh)
            t() { words=("$TRANSIT" "$@"); CURRENT=${#words}; PREFIX=${words[CURRENT]}; _transit; }
            t bart ''
            t bart trips --transfers ''
            t --offline bart trips --from 24
            t gtfs import ''
            t --fixtures ''
            """], env: Run.environment(["TRANSIT": Run.binary]))
        #expect(zsh.status == 0, "\(zsh.stderr)")
        #expect(zsh.stdoutLines == ["trips trip departures advisories stations routes", "0 1 ", "24TH 24th St. Mission ", "files ", "files -/"])
    }

    @Test func completionWordsAreCheckedAndValuesNeverFail() async throws {
        let none = try await Run.transit(["completion"])
        #expect(none.status == 2 && none.stderrLines.first == "transit: transit completion needs a shell: bash, zsh or fish")
        let tcsh = try await Run.transit(["completion", "tcsh"])
        #expect(tcsh.status == 2 && tcsh.stderrLines.first == "transit: unknown shell 'tcsh' for transit completion: bash, zsh or fish")
        let extra = try await Run.transit(["completion", "bash", "now"])
        #expect(extra.status == 2)
        let help = try await Run.transit(["help", "completion"])
        #expect(help.status == 0 && help.stdout.hasPrefix("Usage: transit completion bash|zsh|fish"))
        // Whatever it is asked, the values helper answers quietly: nothing, status 0.
        for args in [["values"], ["values", "nope", "x", "y", "z"], ["values", "bart", "trips", "date", ""],
                     ["values", "bart", "trips", "from", "", "--", "--format", "nope"], ["values", "gtfs", "trips", "from", "\u{1B}[2J"]] {
            let run = try await Run.transit(["completion"] + args)
            #expect(run.status == 0 && run.stdout == "" && run.stderr == "", "\(args)")
        }
    }

    @Test func valuesAreCleanedCutAndFiltered() {
        #expect(Completion.lines(["24TH", "24th St. Mission", "ASHB", "24TH"], prefix: "24") == "24TH\n24th St. Mission\n")
        #expect(Completion.lines(["a\u{1B}]0;x\u{07}b", "", "c\nd"], prefix: "") == "a]0;xb\nc d\n")
        #expect(Completion.lines((0..<2000).map { "s\($0)" }, prefix: "").split(separator: "\n").count == Completion.maximumValues)
    }
}
