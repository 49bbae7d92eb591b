import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport
import TransitTestSupport

/// Runs the built `transit` binary against the loopback server and checks what a script sees:
/// stdout, stderr and the exit status.
@Suite struct EndToEndTests {
    func env(_ server: LoopbackServer?, _ extra: [String: String] = [:]) -> [String: String] {
        Run.environment(server.map { ["TRANSIT_BART_BASE_URL": $0.baseURL + "/api"] } ?? [:], extra)
    }

    @Test func stationsAsJSONFromAnyBARTServer() async throws {
        let server = try LoopbackServer(handler: fixtureHandler())
        defer { server.stop() }
        let run = try await Run.transit(["--format", "json", "bart", "stations"], env: env(server))
        #expect(run.status == 0)
        #expect(run.stderr == "")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        #expect(json.count == 50)
        #expect(json.first?["abbr"] as? String == "12TH")
        #expect(json.first?["latitude"] as? Double == 37.803768)
        #expect(run.stdout.hasPrefix("[\n  {\n    \"abbr\": \"12TH\",\n    \"name\": \"12th St. Oakland City Center\",\n    \"city\": \"Oakland\",\n    \"latitude\": 37.803768,\n    \"longitude\": -122.27145\n  },"))
        #expect(server.requests.map(\.path) == ["/api/stn.aspx"])
        #expect(server.requests.first?.value("key") == BART.publicKey)
    }

    @Test func pipedOutputIsOneTabSeparatedLinePerStation() async throws {
        let server = try LoopbackServer(handler: fixtureHandler())
        defer { server.stop() }
        let run = try await Run.transit(["bart", "stations"], env: env(server))
        #expect(run.status == 0)
        #expect(run.stdoutLines.count == 50)
        #expect(run.stdoutLines.first == "12TH\t12th St. Oakland City Center\tOakland\t37.803768\t-122.27145")
        let table = try await Run.transit(["bart", "stations", "--format", "table"], env: env(server))
        // CITY is 27 wide ("San Francisco Int'l Airport"); numbers are right-aligned under their headers.
        #expect(table.stdoutLines.first == "ABBR  NAME                                 CITY                          LATITUDE    LONGITUDE")
        #expect(table.stdoutLines.dropFirst().first == "12TH  12th St. Oakland City Center         Oakland                      37.803768   -122.27145")
        #expect(table.stdoutLines.count == 51)
        let csv = try await Run.transit(["bart", "stations", "--format", "csv"], env: env(server))
        #expect(csv.stdout.hasPrefix("abbr,name,city,latitude,longitude\r\n12TH,12th St. Oakland City Center,Oakland,37.803768,-122.27145\r\n"))
    }

    @Test func tripsInTSVAndJSON() async throws {
        let server = try LoopbackServer(handler: fixtureHandler())
        defer { server.stop() }
        let args = ["bart", "trips", "--from", "24th", "--to", "Millbrae", "--date", "2026-11-23", "--after", "17:00", "--limit", "3"]
        let tsv = try await Run.transit(args, env: env(server))
        #expect(tsv.status == 0)
        #expect(tsv.stderr == "")
        #expect(tsv.stdoutLines == [
            "24TH\tMLBR\t2026-11-23T17:01:00-08:00\t2026-11-23T17:33:00-08:00\t32\t0\tYellow\tMillbrae",
            "24TH\tMLBR\t2026-11-23T17:07:00-08:00\t2026-11-23T17:37:00-08:00\t30\t0\tRed\tMillbrae",
            "24TH\tMLBR\t2026-11-23T17:22:00-08:00\t2026-11-23T17:52:00-08:00\t30\t0\tRed\tMillbrae",
        ])
        // Route info, then the two kept routes' schedules: nothing else.
        let paths = server.requests.map { ($0.value("cmd") ?? "") + ($0.value("route").map { " " + $0 } ?? "") }
        #expect(paths.sorted() == ["routeinfo all", "routesched 1", "routesched 7", "stns"])
        #expect(server.requests.first { $0.value("cmd") == "routesched" }?.value("date") == "11/23/2026")

        let json = try await Run.transit(["--format", "json"] + args, env: env(server))
        let trips = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(trips.count == 3)
        #expect(trips[0]["departure"] as? String == "2026-11-23T17:01:00-08:00")
        #expect(trips[0]["duration_minutes"] as? Int == 32)
        let leg = try #require((trips[0]["legs"] as? [[String: Any]])?.first)
        #expect(leg["route"] as? Int == 1 && leg["line"] as? String == "Yellow" && leg["head_station"] as? String == "MLBR")
    }

    @Test func unknownStationIsAUsageErrorBeforeAnySchedule() async throws {
        let server = try LoopbackServer(handler: fixtureHandler())
        defer { server.stop() }
        let run = try await Run.transit(["bart", "trips", "--from", "24TX", "--to", "MLBR"], env: env(server))
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr == "transit: unknown BART station '24TX'; did you mean 24TH (24th St. Mission)?\n")
        // Route info goes out beside the station list; no schedule is asked for.
        #expect(Set(server.requests.compactMap { $0.value("cmd") }).isSubset(of: ["stns", "routeinfo"]))
        #expect(server.requests.contains { $0.value("cmd") == "stns" })
    }

    @Test func escapeSequencesInAnErrorNeverReachTheTerminal() async throws {
        let server = try LoopbackServer { _ in .status(404, "gone\u{1B}]0;owned\u{07}\u{1B}[2J now") }
        defer { server.stop() }
        let run = try await Run.transit(["bart", "stations"], env: env(server))
        #expect(run.status == 1)
        #expect(!run.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(run.stderrLines.first?.hasSuffix(": gone]0;owned[2J now") == true)
    }

    @Test func aPasswordInABaseURLIsNeverPrinted() async throws {
        let server = try LoopbackServer(handler: fixtureHandler())
        defer { server.stop() }
        let base = server.baseURL.replacingOccurrences(of: "http://", with: "http://user:s3cret@") + "/api"
        let run = try await Run.transit(["-v", "bart", "stations"], env: env(nil, ["TRANSIT_BART_BASE_URL": base]))
        #expect(run.status == 0)
        #expect(!run.stderr.contains("s3cret"))
        #expect(run.stderr.contains("http://user:REDACTED@127.0.0.1"))
        let bad = try await Run.transit(["bart", "stations"], env: env(nil, ["TRANSIT_BART_BASE_URL": "http://user:s3cret@127.0.0.1:99999/api"]))
        #expect(bad.status == 2 && bad.stderrLines == ["transit: TRANSIT_BART_BASE_URL has port 99999, outside 1–65535"])
    }

    @Test func usageErrorsExitTwoWithOneLineAndAHint() async throws {
        let run = try await Run.transit(["bart", "trips", "--from", "24TH", "--bogus"], env: env(nil))
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderrLines.count == 2)
        #expect(run.stderrLines.first == "transit: unknown option '--bogus' for 'transit bart trips'")
        #expect(run.stderrLines.last == "run 'transit bart trips --help'")
        let none = try await Run.transit([], env: env(nil))
        #expect(none.status == 2 && none.stderr.hasPrefix("transit: missing provider\n"))
    }

    @Test func serverErrorsExitOne() async throws {
        let server = try LoopbackServer { _ in .status(500, "Internal error") }
        defer { server.stop() }
        let run = try await Run.transit(["bart", "stations"], env: env(server))
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr == "transit: HTTP 500 Internal Server Error from \(server.baseURL)/api/stn.aspx?cmd=stns&key=REDACTED: Internal error\n")
        #expect(server.requests.count == 3)
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func apiErrorsWithHTTP200ExitOne() async throws {
        let body = try Reference.data("bart/samples/error-invalid-key.xml")
        let server = try LoopbackServer { _ in .respond(status: 200, headers: ["Content-Type": "text/xml"], body: body, delay: 0) }
        defer { server.stop() }
        let run = try await Run.transit(["bart", "stations"], env: env(server, ["TRANSIT_BART_KEY": "MY-OWN-KEY"]))
        #expect(run.status == 1)
        #expect(run.stderr == "transit: BART: Invalid key: The api key was missing or invalid.\n")
        #expect(server.requests.first?.value("key") == "MY-OWN-KEY")
        #expect(!run.stderr.contains("MY-OWN-KEY"))
    }

    @Test func garbageTruncationAndTimeoutsExitOne() async throws {
        let garbage = try LoopbackServer { _ in .ok("<?xml version=\"1.0\"?><root><stations><station><abbr>12") }
        defer { garbage.stop() }
        let g = try await Run.transit(["bart", "stations"], env: env(garbage))
        #expect(g.status == 1)
        #expect(g.stderr.hasPrefix("transit: could not read BART's station list: "))

        let cut = try LoopbackServer { _ in .truncate(status: 200, body: Data(repeating: 65, count: 4000), bytes: 100) }
        defer { cut.stop() }
        let c = try await Run.transit(["bart", "stations"], env: env(cut))
        #expect(c.status == 1)
        #expect(c.stderr.hasPrefix("transit: could not reach \(cut.baseURL)/api/stn.aspx?cmd=stns&key=REDACTED: "))

        let hung = try LoopbackServer { _ in .hang }
        defer { hung.stop() }
        let h = try await Run.transit(["--timeout", "1", "bart", "stations"], env: env(hung))
        #expect(h.status == 1)
        #expect(h.stderrLines == ["transit: no answer from \(hung.baseURL)/api/stn.aspx?cmd=stns&key=REDACTED within 1 s",
                                  "try again, or raise --timeout"])
        #expect(h.seconds < 5)  // the deadline, not the idle timeout (6 s)
    }

    @Test func offlineAnswersFromTheBundledFixtures() async throws {
        let run = try await Run.transit(["--offline", "bart", "trips", "--from", "24TH", "--to", "MLBR", "--date", "2026-11-23"],
                                  env: env(nil, ["TRANSIT_BART_BASE_URL": "http://127.0.0.1:9/never"]))
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(run.stdoutLines.count > 60)
        let missing = try await Run.transit(["--offline", "bart", "trips", "--from", "24TH", "--to", "MLBR", "--date", "2026-11-25"], env: env(nil))
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("looked for \(Paths.fixtures)/bart/route.aspx/cmd=routeinfo&date=11-25-2026&route=all.http"))
    }

    @Test func recordThenOfflineGivesTheSameOutput() async throws {
        let server = try LoopbackServer(handler: fixtureHandler())
        defer { server.stop() }
        let dir = Paths.temporary()
        let args = ["--format", "json", "bart", "trips", "--from", "24TH", "--to", "FRMT", "--date", "2026-11-23", "--transfers", "1", "--after", "22:00"]
        let live = try await Run.transit(["--record", dir] + args, env: env(server))
        #expect(live.status == 0, "\(live.stderr)")
        let files = try FileManager.default.subpathsOfDirectory(atPath: dir).filter { $0.hasSuffix(".http") }
        // One file per distinct request (a retried one is recorded once).
        #expect(files.count == Set(server.requests.map(\.target)).count)
        for file in files {
            #expect(try !String(contentsOfFile: dir + "/" + file, encoding: .utf8).contains(BART.publicKey))
        }
        server.stop()
        let replay = try await Run.transit(["--offline", "--fixtures", dir] + args, env: env(server))
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout == live.stdout)
        #expect(live.stdout.contains("\"transfers\": 1"))
    }

    @Test func repeatRunsComeFromTheCache() async throws {
        let server = try LoopbackServer(handler: fixtureHandler())
        defer { server.stop() }
        let vars = env(server)
        let args = ["bart", "trips", "--from", "24TH", "--to", "MLBR", "--date", "2026-11-23"]
        let first = try await Run.transit(args, env: vars)
        let count = server.requests.count
        let second = try await Run.transit(["-v"] + args, env: vars)
        #expect(first.stdout == second.stdout)
        #expect(server.requests.count == count)
        #expect(second.stderrLines.count == 4 && second.stderrLines.allSatisfy { $0.hasSuffix("cache hit") })
        let third = try await Run.transit(["--no-cache"] + args, env: vars)
        #expect(third.stdout == first.stdout)
        #expect(server.requests.count == 2 * count)
    }

    @Test func verboseLinesRedactTheKey() async throws {
        let server = try LoopbackServer(handler: fixtureHandler())
        defer { server.stop() }
        let run = try await Run.transit(["--verbose", "--no-cache", "bart", "stations"], env: env(server, ["TRANSIT_BART_KEY": "TOPSECRET"]))
        #expect(run.status == 0)
        let line = try #require(run.stderrLines.first)
        #expect(line.hasPrefix("transit: GET \(server.baseURL)/api/stn.aspx?cmd=stns&key=REDACTED 200 "))
        #expect(line.hasSuffix("ms cache miss"))
        #expect(!run.stderr.contains("TOPSECRET"))
    }

    @Test func emptyResultIsSuccessWithANotice() async throws {
        let run = try await Run.transit(["--offline", "bart", "trips", "--from", "24TH", "--to", "MLBR", "--date", "2026-11-23", "--after", "02:30"],
                                  env: env(nil))
        #expect(run.status == 0)
        #expect(run.stdout == "")
        #expect(run.stderr == "No trains from 24TH to MLBR on 2026-11-23 in that time window without a change; try --transfers 1\n")
        let quiet = try await Run.transit(["-q", "--offline", "bart", "trips", "--from", "24TH", "--to", "MLBR", "--date", "2026-11-23", "--after", "02:30"],
                                    env: env(nil))
        #expect(quiet.status == 0 && quiet.stderr == "")
    }

    /// What people type from other tools gets a pointer; a repeated option is refused, not half-read.
    @Test func usageErrorsThatPointTheWay() async throws {
        for (args, line) in [(["-V"], "transit: unknown option '-V'; did you mean --version?"),
                             (["version"], "transit: unknown provider 'version'; did you mean 'transit --version'?"),
                             (["--offline", "bart", "trips", "--from", "24TH", "--from", "12TH", "--to", "MLBR"],
                              "transit: --from is given twice ('24TH' and '12TH'); it takes one value")] {
            let run = try await Run.transit(args, env: env(nil))
            #expect(run.status == 2 && run.stdout.isEmpty && run.stderrLines.first == line, "\(args): \(run.stderr)")
        }
    }

    /// --offline without recordings says, in full, where it looked and how to say where they are.
    @Test func offlineSaysWhereItLooked() async throws {
        let empty = Paths.temporary()
        let run = try await Run.transit(["--offline", "bart", "stations"], env: env(nil, ["TRANSIT_FIXTURES": empty]))
        #expect(run.status == 1 && run.stderrLines == [
            "transit: no recording for https://api.bart.gov/api/stn.aspx?cmd=stns&key=REDACTED (looked for \(empty)/bart/stn.aspx/cmd=stns.http)",
            "record it first (transit --record DIR <the same command>), or say where recordings are: --fixtures DIR or TRANSIT_FIXTURES"], "\(run.stderr)")
    }

    /// --offline with recordings of the same endpoint for other dates says which it has.
    @Test func offlineSaysWhatItHas() async throws {
        let run = try await Run.transit(["--offline", "bart", "trips", "--from", "24TH", "--to", "MLBR", "--date", "2026-11-25"], env: env(nil))
        #expect(run.status == 1 && run.stderrLines.last?.hasPrefix("recorded there: date=11-23-2026; record it first") == true, "\(run.stderr)")
    }

    /// The table names the station to change at and when the next train leaves; tsv keeps codes.
    @Test func aChangeShowsTheStationNameAndTime() async throws {
        let args = ["--offline", "bart", "trips", "--from", "WDUB", "--to", "RICH", "--date", "2026-11-23", "--after", "12:10", "--limit", "1", "--transfers", "1"]
        let table = try await Run.transit(args + ["--format", "table"], env: env(nil))
        #expect(table.stdoutLines == ["DEPART  ARRIVE  MIN  CHANGE AT           LINE        TOWARD",
                                      "12:12   13:40    88  West Oakland 13:07  Blue > Red  Daly City > Richmond"], "\(table.stdout)")
        let tsv = try await Run.transit(args, env: env(nil))
        #expect(tsv.stdoutLines.first?.hasSuffix("\tBlue > Red\tDaly City > Richmond\tWOAK") == true, "\(tsv.stdout)")
    }

    @Test func otherBARTCommandsOffline() async throws {
        let dep = try await Run.transit(["--offline", "bart", "departures", "--station", "powell"], env: env(nil))
        #expect(dep.status == 0)
        #expect(dep.stdoutLines.first?.hasPrefix("POWL\tDublin/Pleasanton\tDUBL\t3\t2\tNorth\t8\tBlue\t") == true)
        let adv = try await Run.transit(["--offline", "--format", "json", "bart", "advisories"], env: env(nil))
        #expect(adv.status == 0 && adv.stdout.contains("\"type\": \"DELAY\""))
        let trip = try await Run.transit(["--offline", "--format", "json", "bart", "trip", "--from", "ashby", "--to", "CIVC",
                                    "--date", "2018-01-02", "--time", "10:10am"], env: env(nil))
        #expect(trip.status == 0)
        #expect(trip.stdout.contains("\"departure\": \"2018-01-02T09:57:00-08:00\""))
        #expect(trip.stdout.contains("\"train_head_station\": \"Millbrae\""))
        let routes = try await Run.transit(["--offline", "--format", "json", "bart", "routes"], env: env(nil))
        let list = try #require(try JSONSerialization.jsonObject(with: Data(routes.stdout.utf8)) as? [[String: Any]])
        #expect(list.first?["number"] as? Int == 1)
        #expect((list.first?["stations"] as? [String])?.last == "MLBR")
    }

    @Test func helpAndVersion() async throws {
        let help = try await Run.transit(["bart", "trips", "--help"], env: env(nil))
        #expect(help.status == 0 && help.stderr == "")
        #expect(help.stdout.hasPrefix("transit bart trips: every train between two stations on a service day\n\nExamples:\n  transit bart trips --from 24TH"))
        let version = try await Run.transit(["--version"], env: env(nil))
        #expect(version.status == 0 && version.stderr == "")
        // Built in a git checkout (this one), the binary names its commit (Plugins/BuildCommit).
        let head = try await Run.transitLike(["/usr/bin/git", "-C", Paths.root.path, "rev-parse", "--short=12", "HEAD"], env: Run.environment())
        if head.status == 0, let commit = head.stdoutLines.first {
            #expect(version.stdout.hasPrefix("transit \(TransitVersion.current) (commit \(commit)"), "\(version.stdout)")
            #expect(version.stdout == "transit \(TransitVersion.current) (commit \(commit))\n" || version.stdout == "transit \(TransitVersion.current) (commit \(commit)-dirty)\n")
        } else {
            #expect(version.stdout == "transit \(TransitVersion.current)\n")
        }
    }

    /// Ctrl-C mid-request: transit's handler ends it with exit status 130 (a death by SIGINT,
    /// which a shell reports as 130 too, is told apart: `signal` is 0 only for an exit).
    @Test func ctrlCEndsWith130() async throws {
        let server = try LoopbackServer { _ in .hang }
        defer { server.stop() }
        let run = try await Run.transit(["--timeout", "30", "bart", "stations"], env: env(server), interruptAfter: 0.5)
        #expect(run.status == 130 && run.signal == 0, "\(run.status) \(run.signal)")
        #expect(run.seconds < 5)
        #expect(run.stdout == "")
    }
}
