import TransitSupport
/// Help texts, examples first, generated from the specs so they cannot drift from the parser.
package enum Help {
    static func optionLines(_ options: [OptionSpec]) -> [String] {
        let left = options.map { option -> String in
            var text = option.short.map { "-\($0), " } ?? "    "
            text += "--" + option.name
            if let value = option.value { text += " " + value }
            return text
        }
        let width = (left.map(\.count).max() ?? 0) + 2
        return zip(left, options).map { "  " + TextWidth.pad($0.0, to: width) + $0.1.fullHelp }
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

    package static func top(_ providers: [ProviderSpec]) -> String {
        var lines = ["transit: find trips, departures and arrivals on public transport", "", "Examples:"]
        lines += providers.compactMap { $0.commands.first?.examples.first.map { "  " + $0 } }
        lines += [
            "",
            "Usage: transit [global options] <provider> <command> [options]",
            "       transit help [<provider> [<command>]] [--man]",
            "       transit completion bash|zsh|fish",
            "",
            "Providers:",
        ]
        let width = (providers.map(\.name.count).max() ?? 0) + 2
        lines += providers.map { "  " + TextWidth.pad($0.name, to: width) + $0.summary }
        lines += ["", "Global options (before or after the command):"] + optionLines(GlobalOptions.specs)
        let environment = environmentLines(providers)
        let envWidth = (environment.map(\.0.count).max() ?? 0) + 2
        lines += ["", "Environment:"] + environment.map { "  " + TextWidth.pad($0.0, to: envWidth) + $0.1 }
        lines += [
            "",
            "Exit status: 0 success (an empty result too), 1 the work failed, 2 usage, 130 interrupted.",
            "Run 'transit help <provider>' for its commands.",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    package static func provider(_ spec: ProviderSpec) -> String {
        var lines = ["transit \(spec.name): \(spec.summary). Times are \(spec.zoneName).", "", "Examples:"]
        lines += spec.commands.compactMap { $0.examples.first.map { "  " + $0 } }
        lines += ["", "Usage: transit \(spec.name) <command> [options]", "", "Commands:"]
        let width = (spec.commands.map(\.name.count).max() ?? 0) + 2
        lines += spec.commands.map { "  " + TextWidth.pad($0.name, to: width) + $0.summary }
        lines += ["", "Run 'transit \(spec.name) <command> --help' for a command's options; 'transit --help' for global options."]
        return lines.joined(separator: "\n") + "\n"
    }

    package static func command(_ spec: CommandSpec) -> String {
        var lines = ["transit \(spec.provider) \(spec.name): \(spec.summary)", "", "Examples:"]
        lines += spec.examples.map { "  " + $0 }
        lines += ["", "Usage: " + spec.usage]
        if !spec.options.isEmpty { lines += ["", "Options:"] + optionLines(spec.options) }
        for note in spec.notes { lines += ["", note] }
        lines += ["", "Global options (--format, --offline, --verbose, …): see 'transit --help'."]
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
