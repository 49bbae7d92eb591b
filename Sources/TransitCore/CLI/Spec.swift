import TransitSupport
/// Where shell completion finds an option's values, beyond a closed list of `choices`.
package enum ValueSource: Sendable, Equatable {
    /// Nothing to offer: a time, a number, free text.
    case free
    case files
    case directories
    /// Asked of the provider (`transit completion values …`), which answers from its cache only.
    case cached
}

/// What the command line accepts: providers, commands, options, their defaults and help.
/// The parser, `--help`, the usage lines and the README's command reference are all read from
/// here; each provider folder declares its own in its `…CommandLine.swift`.
package struct OptionSpec: Sendable {
    package var name: String
    package var short: Character?
    /// The value's placeholder (`STN`); nil for a flag.
    package var value: String?
    package var help: String
    /// The value used when the option is not given, as it would be typed.
    package var defaultValue: String?
    /// The closed set of values the option takes, where there is one (completion offers them).
    package var choices: [String]
    /// Must be given (shown without brackets in the usage line).
    package var required: Bool
    /// Where completion finds values when there are no `choices`.
    package var source: ValueSource
    /// May be given more than once (each value kept: `Arguments.strings`).
    package var repeatable: Bool

    package init(_ name: String, short: Character? = nil, value: String? = nil, _ help: String,
                default defaultValue: String? = nil, choices: [String] = [], required: Bool = false, source: ValueSource = .free,
                repeatable: Bool = false) {
        self.source = source
        self.repeatable = repeatable
        self.name = name
        self.short = short
        self.value = value
        self.help = help
        self.defaultValue = defaultValue
        self.choices = choices
        self.required = required
    }

    /// `--watch SECONDS [--count N]`, for a command whose answer changes while one looks (the
    /// app runs it again; see `Settings.watch`).
    package static let watch = [OptionSpec("watch", value: "SECONDS", "refresh every SECONDS (10 or more): redrawn on a terminal, one block per fetch when piped"),
                               OptionSpec("count", value: "N", "with --watch: stop after N refreshes")]

    /// The help text with its default, as `--help` shows it.
    package var fullHelp: String {
        guard let defaultValue else { return help }
        return help + " (default \(defaultValue))"
    }
}

package struct CommandSpec: Sendable {
    package var provider: String
    package var name: String
    package var summary: String
    package var examples: [String]
    package var options: [OptionSpec]
    /// Extra paragraphs under the options (output fields, notes).
    package var notes: [String]
    package var geoJSON: Bool
    /// The format without --format (nil: a table on a terminal, else tsv).
    package var defaultFormat: OutputFormat?
    /// Takes `--format parquet` (with `--output FILE`).
    package var parquet = false
    /// A positional argument's placeholder (`TRAIN`), if the command takes one.
    package var positional: String?
    /// The positional argument may be left out (`[NAME]`).
    package var positionalOptional = false
    /// The positional argument is every word left, joined by spaces (`catalog search bay area`).
    package var positionalTakesRest = false
    /// Where completion finds the positional argument.
    package var positionalSource: ValueSource
    /// The words the positional argument starts with, where it is a subcommand (`catalog`'s
    /// search, show, update): what completion offers for it.
    package var positionalChoices: [String] = []
    /// Old spellings still accepted, by the option they mean (`top` → `limit`): parsed as that
    /// option, never shown in help, completion or the reference.
    package var aliases: [String: String]

    package init(provider: String, name: String, summary: String, examples: [String], options: [OptionSpec] = [],
                notes: [String] = [], geoJSON: Bool = false, positional: String? = nil, positionalSource: ValueSource = .free,
                aliases: [String: String] = [:]) {
        self.positionalSource = positionalSource
        self.aliases = aliases
        self.provider = provider
        self.name = name
        self.summary = summary
        self.examples = examples
        self.options = options
        self.notes = notes
        self.geoJSON = geoJSON
        self.positional = positional
    }

    /// `transit <provider> <command> --from STN [--date DATE] …`, generated from the options.
    package var usage: String { usageParts.joined(separator: " ") }

    /// The usage line's words, an option with its value one word (`[--date DATE]`): help wraps
    /// the line between them, never inside one.
    package var usageParts: [String] {
        var parts = ["transit", provider, name]
        if let positional { parts.append(positionalOptional ? "[\(positional)]" : positional) }
        for option in options {
            var text = "--" + option.name
            if let value = option.value { text += " " + value }
            parts.append(option.required ? text : "[\(text)]")
        }
        return parts
    }

    /// The option `name` means, an alias included.
    package func option(_ name: String) -> OptionSpec? {
        let meant = aliases[name] ?? name
        return options.first { $0.name == meant }
    }
}

/// Where a provider's key comes from, and what to say when it is missing.
package struct KeySpec: Sendable {
    /// `TRANSIT_CTA_KEY`; `aliases` are read too, after it.
    package var variable: String
    package var aliases: [String] = []
    /// A public key to use when none is set; nil means the key is required.
    package var publicDefault: String? = nil
    /// Where to get one, said when it is missing.
    package var whereToGet: String
}

package struct ProviderSpec: Sendable {
    package var name: String
    package var summary: String
    /// The agency's zone, in words for help (`America/Los_Angeles`, "each departure's own").
    package var zoneName: String
    package var commands: [CommandSpec]
    /// The command run when none is named (`transit <provider> --option`).
    package var defaultCommand: String?
    /// The environment variable prefix of its base URLs (`TRANSIT_<P>_BASE_URL`), with defaults.
    package var baseURLs: [(variable: String, url: String)]
    package var key: KeySpec?
    /// Other environment variables the provider reads, with what they mean.
    package var variables: [(variable: String, help: String)]
    /// Files of its own it keeps, with what they are (the man page's FILES).
    package var files: [(path: String, help: String)]
    /// The name shown in messages, which may differ from the command-line name.
    package var displayName: String

    package init(name: String, displayName: String, summary: String, zoneName: String, commands: [CommandSpec],
                defaultCommand: String? = nil, baseURLs: [(variable: String, url: String)] = [], key: KeySpec? = nil,
                variables: [(variable: String, help: String)] = [], files: [(path: String, help: String)] = []) {
        self.variables = variables
        self.files = files
        self.name = name
        self.displayName = displayName
        self.summary = summary
        self.zoneName = zoneName
        self.commands = commands
        self.defaultCommand = defaultCommand
        self.baseURLs = baseURLs
        self.key = key
    }

    package func command(_ name: String) -> CommandSpec? { commands.first { $0.name == name } }
}
