/// Help texts, examples first. Generated from `Specs` so they cannot drift from the parser.
public enum Help {
    static func optionLines(_ options: [OptionSpec]) -> [String] {
        let left = options.map { option -> String in
            var text = option.short.map { "-\($0), " } ?? "    "
            text += "--" + option.name
            if let value = option.value { text += " " + value }
            return text
        }
        let width = (left.map(\.count).max() ?? 0) + 2
        return zip(left, options).map { "  " + $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + $0.1.help }
    }

    public static func top() -> String {
        var lines = [
            "transit: find trips, departures and arrivals on public transport",
            "",
            "Examples:",
            "  transit bart trips --from 24TH --to MLBR --date tomorrow",
            "  transit bart departures --station \"24th St Mission\"",
            "  transit cta predictions --route 22 --stop 1836",
            "  transit busbud search --date 2026-12-19 --currency USD",
            "  transit rail12306 schedule G1",
            "  transit --format json bart stations | jq '.[].name'",
            "  transit --offline bart trips --from 24TH --to MLBR --date 2026-11-23",
            "",
            "Usage: transit [global options] <provider> <command> [options]",
            "       transit help [<provider> [<command>]]",
            "",
            "Providers:",
        ]
        let width = (Specs.providers.map(\.name.count).max() ?? 0) + 2
        for provider in Specs.providers {
            lines.append("  " + provider.name.padding(toLength: width, withPad: " ", startingAt: 0) + provider.summary)
        }
        lines += ["", "Global options (before or after the command):"] + optionLines(Specs.global)
        lines += [
            "",
            "Environment:",
            "  TRANSIT_<P>_BASE_URL, TRANSIT_<P>_KEY   base URL and key of provider P: BART (public default key), CTA, MBUS, BUSBUD (TRANSIT_BUSBUD_TOKEN), OWM, RAIL12306",
            "  TRANSIT_CACHE_DIR                       cache (default $XDG_CACHE_HOME/transit, else ~/.cache/transit)",
            "  TRANSIT_OFFLINE, TRANSIT_FIXTURES       as --offline, --fixtures",
            "  NO_COLOR, TERM=dumb                     no colour",
            "",
            "Exit status: 0 success (an empty result too), 1 the work failed, 2 usage, 130 interrupted.",
            "Run 'transit help <provider>' for its commands.",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    public static func provider(_ spec: ProviderSpec) -> String {
        var lines = ["transit \(spec.name): \(spec.summary). Times are \(spec.zone).", "", "Examples:"]
        lines += spec.commands.compactMap { $0.examples.first.map { "  " + $0 } }
        lines += ["", "Usage: transit \(spec.name) <command> [options]", "", "Commands:"]
        let width = (spec.commands.map(\.name.count).max() ?? 0) + 2
        lines += spec.commands.map { "  " + $0.name.padding(toLength: width, withPad: " ", startingAt: 0) + $0.summary }
        lines += ["", "Run 'transit \(spec.name) <command> --help' for a command's options; 'transit --help' for global options."]
        return lines.joined(separator: "\n") + "\n"
    }

    public static func command(_ spec: CommandSpec) -> String {
        var lines = ["transit \(spec.provider) \(spec.name): \(spec.summary)", "", "Examples:"]
        lines += spec.examples.map { "  " + $0 }
        lines += ["", "Usage: " + spec.usage]
        if !spec.options.isEmpty { lines += ["", "Options:"] + optionLines(spec.options) }
        for note in spec.notes { lines += ["", note] }
        lines += ["", "Global options (--format, --offline, --verbose, …): see 'transit --help'."]
        return lines.joined(separator: "\n") + "\n"
    }
}
