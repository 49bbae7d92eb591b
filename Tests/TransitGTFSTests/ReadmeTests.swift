import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

/// Every `transit` command README.md shows runs on a fresh clone, through the built binary: a
/// `$ ` line of a console block prints exactly the lines under it (as a table, the way a
/// terminal shows it, unless the line names a format); a line of a sh block exits 0.
@Suite struct ReadmeTests {
    struct Example {
        var command: String
        /// nil: only the exit status is checked.
        var output: [String]?
    }

    static func examples() throws -> [Example] {
        let readme = try String(contentsOfFile: Paths.root.appendingPathComponent("README.md").path, encoding: .utf8)
        var examples: [Example] = []
        var block: String?
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                block = block == nil ? String(line.dropFirst(3)) : nil
                continue
            }
            switch block {
            case "console":
                if line.hasPrefix("$ ") {
                    examples.append(Example(command: String(line.dropFirst(2)), output: []))
                } else if !line.isEmpty, let last = examples.indices.last {
                    examples[last].output?.append(line)
                }
            case "sh":
                let words = line.split(separator: " ")
                if words.first(where: { !$0.contains("=") }) == "transit" { examples.append(Example(command: line, output: nil)) }
            default:
                continue
            }
        }
        return examples
    }

    /// Splits a command line as the shell does for these examples: words, "double" and 'single'
    /// quotes, and NAME=value assignments before the command.
    static func words(_ line: String) -> (env: [String: String], argv: [String]) {
        var words: [String] = [], current = "", quote: Character?, inWord = false
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character == " " {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        var env: [String: String] = [:]
        while let first = words.first, first != "transit", let equals = first.firstIndex(of: "=") {
            env[String(first[..<equals])] = String(first[first.index(after: equals)...])
            words.removeFirst()
        }
        return (env, Array(words.dropFirst()))
    }

    /// `everyFeedFirst`: BART and Caltrain are imported beside Lakeport before any example runs,
    /// as on a machine where the README was followed once already: the GTFS examples that name
    /// no feed are answered by the one that has their stops, and print the same.
    @Test(arguments: [false, true]) func everyCommandTheReadmeShowsRuns(everyFeedFirst: Bool) async throws {
        let examples = try Self.examples()
        #expect(examples.count >= 8)
        #expect(examples.contains { $0.output?.isEmpty == false })
        let cache = Paths.temporary()
        let base = Run.environment(["TRANSIT_CACHE_DIR": cache, "TRANSIT_NOW": "2026-11-23T20:00:00Z"])
        // The GTFS examples read the imported bundled feed, whichever comes first.
        let imported = try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/lakeport"], env: base)
        #expect(imported.status == 0, "\(imported.stderr)")
        for name in everyFeedFirst ? ["bart", "caltrain"] : [] {
            let more = try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/pairs/bay/" + name, "--name", name], env: base)
            #expect(more.status == 0, "\(more.stderr)")
        }
        for example in examples {
            var (env, argv) = Self.words(example.command)
            argv = argv.map { $0.hasPrefix("Fixtures/") ? Paths.root.path + "/" + $0 : $0 }
            if example.output != nil && !argv.contains("--format") { argv += ["--format", "table"] }
            var environment = base.merging(env) { $1 }
            // A recording of real-time data is read at its own time, as on a user's machine: unpinned.
            if argv.contains("--realtime") && env["TRANSIT_NOW"] == nil { environment["TRANSIT_NOW"] = nil }
            let run = try await Run.transit(argv, env: environment)
            #expect(run.status == 0, "\(example.command): \(run.stderr)")
            if let output = example.output {
                #expect(run.stdoutLines == output, "\(example.command)")
            }
        }
    }

    /// The README stays a front page (issue 69): under 200 lines, the rest in docs/.
    @Test func theReadmeIsUnder200Lines() throws {
        let text = try String(contentsOf: Paths.root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - (text.hasSuffix("\n") ? 1 : 0)
        #expect(lines < 200, "README.md has \(lines) lines: move what is not the front page to docs/")
    }

    @Test func theShellWordsOfAnExample() {
        let (env, argv) = Self.words(#"TRANSIT_NOW=2015-02-14T18:20:00Z transit gtfs departures --stop "Old Town" --after 'a b'"#)
        #expect(env == ["TRANSIT_NOW": "2015-02-14T18:20:00Z"])
        #expect(argv == ["gtfs", "departures", "--stop", "Old Town", "--after", "a b"])
    }
}
