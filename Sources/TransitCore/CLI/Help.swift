import TransitSupport
/// Help texts, examples first, generated from the specs so they cannot drift from the parser.
/// Wrapped to `width` (the terminal's, 80 when piped: `Settings.tableWidth`) between
/// words: an example, an option's name or a usage word is never broken, and stands alone on a
/// line where it is wider than the terminal.
package enum Help {
    /// The width help is wrapped to when none is given (piped, and the tests' default).
    package static let pipedWidth = 80

    /// `words` filled into lines of at most `width` columns: the first line starts with `first`,
    /// the others with `indent` spaces. A word wider than its line stands alone on it.
    static func fill(_ words: [String], width: Int, first: String, indent: Int) -> [String] {
        var lines: [String] = [], line = first, empty = true
        for word in words where !word.isEmpty {
            if !empty && TextWidth.of(line) + 1 + TextWidth.of(word) > width {
                lines.append(line)
                (line, empty) = (String(repeating: " ", count: indent), true)
            }
            line += (empty ? "" : " ") + word
            empty = false
        }
        lines.append(line)
        return lines.map { line in
            var line = line
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// A paragraph in lines of at most `width`.
    static func paragraph(_ text: String, width: Int) -> [String] {
        fill(text.split(separator: " ").map(String.init), width: width, first: "", indent: 0)
    }

    /// Rows of a name and what it is, the names padded to one column and each text wrapped
    /// under its own start; on a terminal too narrow for that (under 30 columns of text), the
    /// text under the name, indented further.
    static func definitions(_ rows: [(String, String)], width: Int) -> [String] {
        let column = 2 + (rows.map { TextWidth.of($0.0) }.max() ?? 0) + 2
        return rows.flatMap { name, text -> [String] in
            let words = text.split(separator: " ").map(String.init)
            // (A word wider than the text's column, a URL, moves the whole text under the name.)
            if width - column >= 30, words.allSatisfy({ TextWidth.of($0) <= width - column }) {
                return fill(words, width: width, first: "  " + TextWidth.pad(name, to: column - 2), indent: column)
            }
            return ["  " + name] + fill(words, width: width, first: String(repeating: " ", count: 8), indent: 8)
        }
    }

    /// An example as lines of at most `width`: where it is wider, it goes on after ` \` on
    /// the next line, indented, between its arguments (never inside a quoted one), so that it
    /// still runs as pasted.
    static func example(_ command: String, width: Int) -> [String] {
        guard TextWidth.of(command) + 2 > width else { return ["  " + command] }
        // An option stays on a line with its value.
        var units: [String] = []
        for word in shellWords(command) {
            if let last = units.last, last.hasPrefix("-"), !last.contains(" "), !word.hasPrefix("-"), ![">", "|", "<"].contains(word) {
                units[units.count - 1] = last + " " + word
            } else {
                units.append(word)
            }
        }
        let lines = fill(units, width: width - 2, first: "  ", indent: 6)
        return lines.enumerated().map { k, line in k < lines.count - 1 ? line + " \\" : line }
    }

    /// A command line's words as a shell splits them, each kept as written (its quotes, a
    /// `$(…)` whole).
    static func shellWords(_ command: String) -> [String] {
        var words: [String] = [], word = "", quote: Character?, depth = 0
        var previous: Character = " "
        for character in command {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "(" && previous == "$" || character == "(" && depth > 0 {
                depth += 1
            } else if character == ")" && depth > 0 {
                depth -= 1
            } else if character == " " && depth == 0 {
                if !word.isEmpty { words.append(word) }
                (word, previous) = ("", character)
                continue
            }
            word.append(character)
            previous = character
        }
        if !word.isEmpty { words.append(word) }
        return words
    }

    static func optionLines(_ options: [OptionSpec], width: Int) -> [String] {
        let rows = options.map { option -> (String, String) in
            var text = option.short.map { "-\($0), " } ?? "    "
            text += "--" + option.name
            if let value = option.value { text += " " + value }
            return (text, option.fullHelp)
        }
        return definitions(rows, width: width)
    }

    /// Each provider's environment: its base URLs and its key.
    static func environmentLines(_ providers: [ProviderSpec]) -> [(String, String)] {
        var rows: [(String, String)] = []
        var seen = Set<String>()
        for provider in providers {
            for (variable, url) in provider.baseURLs where seen.insert(variable).inserted {
                rows.append((variable, "base URL (default \(url))"))
            }
            for (variable, help) in provider.variables where seen.insert(variable).inserted { rows.append((variable, help)) }
            if let key = provider.key, seen.insert(key.variable).inserted {
                let also = key.aliases.isEmpty ? "" : " (also \(key.aliases.joined(separator: ", ")))"
                rows.append((key.variable, (key.publicDefault == nil ? "key of \(provider.displayName), required" : "key of \(provider.displayName) (a public default)") + also))
            }
        }
        return rows + [
            ("TRANSIT_CACHE_DIR", "cache (default $XDG_CACHE_HOME/transit, else ~/.cache/transit)"),
            ("TRANSIT_OFFLINE, TRANSIT_FIXTURES", "as --offline, --fixtures"),
            ("TRANSIT_NOW", "pin the clock (ISO 8601 with offset), for tests and bug reports"),
            ("NO_COLOR, TERM=dumb", "no colour"),
        ]
    }

    package static func top(_ providers: [ProviderSpec], width: Int = pipedWidth) -> String {
        var lines = ["transit: find trips, departures and arrivals on public transport", "", "Examples:"]
        lines += providers.compactMap { $0.commands.first?.examples.first }.flatMap { example($0, width: width) }
        lines += [
            "",
            "Usage: transit [global options] <provider> <command> [options]",
            "       transit help [<provider> [<command>]] [--man]",
            "       transit completion bash|zsh|fish",
            "",
            "Providers:",
        ]
        lines += definitions(providers.map { ($0.name, $0.summary) }, width: width)
        lines += ["", "Global options (before or after the command):"] + optionLines(GlobalOptions.specs, width: width)
        lines += ["", "Environment:"] + definitions(environmentLines(providers), width: width)
        lines += [""] + paragraph("Exit status: 0 success (an empty result too), 1 the work failed, 2 usage, 130 interrupted.", width: width)
        lines += paragraph("Run 'transit help <provider>' for its commands.", width: width)
        return lines.joined(separator: "\n") + "\n"
    }

    package static func provider(_ spec: ProviderSpec, width: Int = pipedWidth) -> String {
        var lines = paragraph("transit \(spec.name): \(spec.summary). Times are \(spec.zoneName).", width: width) + ["", "Examples:"]
        lines += spec.commands.compactMap { $0.examples.first }.flatMap { example($0, width: width) }
        lines += ["", "Usage: transit \(spec.name) <command> [options]", "", "Commands:"]
        lines += definitions(spec.commands.map { ($0.name, $0.summary) }, width: width)
        lines += [""] + paragraph("Run 'transit \(spec.name) <command> --help' for a command's options; 'transit --help' for global options.", width: width)
        return lines.joined(separator: "\n") + "\n"
    }

    package static func command(_ spec: CommandSpec, width: Int = pipedWidth) -> String {
        var lines = paragraph("transit \(spec.provider) \(spec.name): \(spec.summary)", width: width) + ["", "Examples:"]
        lines += spec.examples.flatMap { example($0, width: width) }
        // The usage's continuation lines start under its first option.
        let words = spec.usageParts, command = words.prefix(3).joined(separator: " ")
        lines += [""] + fill(Array(words.dropFirst(3)), width: width, first: "Usage: " + command + " ", indent: min(7 + TextWidth.of(command) + 1, width / 2))
        if !spec.options.isEmpty { lines += ["", "Options:"] + optionLines(spec.options, width: width) }
        for note in spec.notes { lines += [""] + paragraph(note, width: width) }
        lines += [""] + paragraph("Global options (--format, --offline, --verbose, …): see 'transit --help'.", width: width)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The command reference of docs/reference.md: every command's usage, options and notes, in Markdown.
    package static func reference(_ providers: [ProviderSpec]) -> String {
        var lines: [String] = []
        for provider in providers {
            lines += ["## \(provider.name)", "", "\(provider.summary). Times are \(provider.zoneName).", ""]
            for command in provider.commands {
                lines += ["### `transit \(provider.name) \(command.name)`", "", command.summary + ".", "", "```", command.usage, "```", ""]
                for option in command.options {
                    let value = option.value.map { " " + $0 } ?? ""
                    lines.append("- `--\(option.name)\(value)`: \(option.fullHelp)")
                }
                if !command.options.isEmpty { lines.append("") }
                for note in command.notes { lines += [note, ""] }
            }
        }
        return lines.joined(separator: "\n")
    }
}
