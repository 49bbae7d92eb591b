import Foundation
import TransitSupport

/// `transit completion bash|zsh|fish`: a completion script generated from the same specs as
/// `--help` and the man page. Providers, commands, options and closed values (`choices`) are
/// written into the script; values a provider knows from its cache (station and stop names)
/// are asked of `transit completion values …` at Tab time, which never touches the network.
package enum Completion {
    package enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    /// What `transit completion values PROVIDER COMMAND OPTION PREFIX [-- WORDS…]` asks: the
    /// values of `--OPTION` that start with `PREFIX` (OPTION `-`: the command's positional
    /// argument, a command's `NAME`); `typed` holds the options already on the line (a `--feed`,
    /// `--offline`), read from WORDS.
    package struct Query: Sendable, Equatable {
        package var provider: String
        package var command: String
        package var option: String
        package var prefix: String
        package var typed: [String: String]
        package var flags: Set<String>
    }

    /// The most values one Tab prints.
    package static let maximumValues = 500

    /// The option name a values query gives for the command's positional argument.
    package static let positional = "-"

    /// The words that stand where a provider does.
    static let topWords = ["help", "completion"]

    static let help = """
        Usage: transit completion bash|zsh|fish

        Prints a completion script for the shell, generated from the same specs as --help: providers,
        commands, options and their closed values. Station and stop names complete from what transit has
        already cached (station lists, imported feeds), never from the network.

        Load it for this shell:     source <(transit completion bash)
                                    source <(transit completion zsh)
                                    transit completion fish | source
        scripts/install puts them where bash, zsh and fish look under its PREFIX.

        """

    package static func script(_ shell: Shell, providers: [ProviderSpec]) -> String {
        let model = Model(providers)
        switch shell {
        case .bash: return bash(model)
        case .zsh: return zsh(model)
        case .fish: return fish(model)
        }
    }

    /// Values from a provider, cut to those that start with the prefix (any case), one per
    /// line, without control characters, at most `maximumValues`.
    package static func lines(_ values: [String], prefix: String) -> String {
        let wanted = prefix.lowercased()
        var seen = Set<String>()
        var out: [String] = []
        for value in values {
            let clean = Sanitize.line(value)
            guard !clean.isEmpty, wanted.isEmpty || clean.lowercased().hasPrefix(wanted), seen.insert(clean).inserted else { continue }
            out.append(clean)
            if out.count == maximumValues { break }
        }
        return out.map { $0 + "\n" }.joined()
    }

    /// `transit completion values …`: the provider's answer from its cache (from the
    /// recordings with `--offline`), never the network; nil when there is nothing to say.
    static func values(_ query: Query, environment: Environment) async -> String? {
        guard let provider = Providers.all.first(where: { $0.name == query.provider }), let values = provider.values,
              let command = provider.spec.command(query.command),
              query.option == positional ? command.positionalSource == .cached : command.option(query.option)?.source == .cached else { return nil }
        // Only what says where to look: the command's own options, the fixtures and the two flags.
        let own = Set(command.options.map(\.name) + ["fixtures"])
        guard let settings = try? Settings.resolve(values: query.typed.filter { own.contains($0.key) }, flags: query.flags.intersection(["offline", "no-cache"]),
                                                   environment: environment, terminal: Terminal(stdout: false, stderr: false), now: Date(),
                                                   command: command, provider: provider.spec) else { return nil }
        var options = HTTPClient.Options()
        options.retry = .none
        options.cacheDirectory = settings.httpCacheDirectory
        options.staleCache = true
        let http = HTTPClient(transport: settings.transport(network: CacheOnlyTransport()), options: options)
        let context = Context(settings: settings, http: http, progress: { _ in })
        return lines(await values(query, context), prefix: query.prefix)
    }

    // MARK: the model all three scripts are written from

    struct Model {
        struct Command {
            var provider: String
            var spec: CommandSpec
            var key: String { provider + " " + spec.name }
        }
        var providers: [ProviderSpec]
        var commands: [Command]
        var globals: [OptionSpec]
        /// Every option name that takes a value, on any command: the parser reads a line the same way.
        var valueOptions: [String]

        /// The formats `command` accepts.
        static func formats(_ command: CommandSpec) -> [String] {
            OutputFormat.allCases.map(\.rawValue).filter { ($0 != "geojson" || command.geoJSON) && ($0 != "parquet" || command.parquet) }
        }

        init(_ providers: [ProviderSpec]) {
            self.providers = providers
            commands = providers.flatMap { p in p.commands.map { Command(provider: p.name, spec: $0) } }
            globals = GlobalOptions.specs
            var seen = Set<String>()
            valueOptions = (globals + commands.flatMap(\.spec.options)).filter { $0.value != nil && seen.insert($0.name).inserted }.map { "--" + $0.name }
        }

        /// The `case "$provider $command $opt"` arms (bash and zsh): each option's value action,
        /// a command's own before the global ones'.
        func valueCases(_ action: (ValueRule) -> String?) -> [String] {
            var arms: [String] = []
            for command in commands {
                for option in command.spec.options {
                    if let text = action(ValueRule(option)) { arms.append("        '\(command.key) --\(option.name)') \(text) ;;") }
                }
                // --format offers geojson only to the commands that return places.
                if let text = action(.words(Self.formats(command.spec))) { arms.append("        '\(command.key) --format') \(text) ;;") }
            }
            for option in globals {
                if let text = action(ValueRule(option)) { arms.append("        *' --\(option.name)') \(text) ;;") }
            }
            return arms
        }
    }

    /// How a value is completed, the same in every shell.
    enum ValueRule: Equatable {
        case words([String])
        case files, directories, cached
        case nothing

        init(_ option: OptionSpec) {
            if !option.choices.isEmpty { self = .words(option.choices); return }
            switch option.source {
            case .free: self = .nothing
            case .files: self = .files
            case .directories: self = .directories
            case .cached: self = .cached
            }
        }
    }

    static func header(_ shell: Shell, load: String) -> String {
        """
        # \(shell.rawValue) completion for transit \(TransitVersion.current), generated by `transit completion \(shell.rawValue)`
        # from the same specs as --help; do not edit. Load it with: \(load)
        """
    }

    // MARK: bash

    static func bash(_ m: Model) -> String {
        func quoted(_ words: [String]) -> String { "'" + words.map { $0.replacingOccurrences(of: "'", with: "") }.joined(separator: " ") + "'" }
        func valueCase(_ rule: ValueRule) -> String? {
            switch rule {
            case .words(let words): return "COMPREPLY=($(compgen -W \(quoted(words)) -- \"$cur\"))"
            case .files: return "compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\"))"
            case .directories: return "compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- \"$cur\"))"
            case .cached: return "_transit_values \"$provider\" \"$command\" \"$opt\""
            case .nothing: return nil
            }
        }
        let values = m.valueCases(valueCase)
        var options: [String] = []
        for command in m.commands {
            options.append("        '\(command.key)') opts=\(quoted(command.spec.options.map { "--" + $0.name })) ;;")
        }
        let commandsOf = m.providers.map { "        \($0.name)) words=\(quoted($0.commands.map(\.name))) ;;" }
        var positionals: [String] = []
        for command in m.commands where command.spec.positional != nil {
            if !command.spec.positionalChoices.isEmpty {
                positionals.append("            '\(command.key)') COMPREPLY=($(compgen -W \(quoted(command.spec.positionalChoices)) -- \"$cur\")) ;;")
                continue
            }
            switch command.spec.positionalSource {
            case .files: positionals.append("            '\(command.key)') compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\")) ;;")
            case .directories: positionals.append("            '\(command.key)') compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- \"$cur\")) ;;")
            case .cached: positionals.append("            '\(command.key)') _transit_values \"$provider\" \"$command\" \(positional) ;;")
            case .free: break
            }
        }
        let globals = m.globals.map { "--" + $0.name }.joined(separator: " ")
        return header(.bash, load: "source <(transit completion bash)") + "\n" + """
            _transit_values() {
                # Values the provider knows from its cache; never the network. Readline quotes
                # them (-o filenames), so a name with spaces comes back escaped.
                local exe=${COMP_WORDS[0]} prefix=${cur#[\\\"\\']}
                [[ $exe == "~/"* ]] && exe=$HOME/${exe#"~/"}
                prefix=${prefix//\\\\ / }
                mapfile -t COMPREPLY < <("$exe" completion values "$1" "$2" "${3#--}" "$prefix" -- "${COMP_WORDS[@]:1:COMP_CWORD-1}" 2>/dev/null)
                compopt -o filenames 2>/dev/null
            }

            _transit() {
                local cur=${COMP_WORDS[COMP_CWORD]} prev="" opt="" provider="" command="" opts="" words="" i w skip=0
                local -a args=()
                (( COMP_CWORD > 0 )) && prev=${COMP_WORDS[COMP_CWORD-1]}
                # The words before the cursor that are not options or their values.
                for (( i = 1; i < COMP_CWORD; i++ )); do
                    w=${COMP_WORDS[i]}
                    if (( skip )); then skip=0; continue; fi
                    case $w in
                        =) skip=1 ;;
                        \(m.valueOptions.joined(separator: "|"))) [[ ${COMP_WORDS[i+1]} != = ]] && skip=1 ;;
                        -*) ;;
                        *) args+=("$w") ;;
                    esac
                done
                provider=${args[0]} command=${args[1]}
                # The value of an option: `--opt value`, or `--opt=value` (bash splits at '=').
                if [[ $cur == = ]]; then
                    opt=$prev cur=""
                elif [[ $prev == = ]] && (( COMP_CWORD > 1 )); then
                    opt=${COMP_WORDS[COMP_CWORD-2]}
                else
                    case $prev in \(m.valueOptions.joined(separator: "|"))) opt=$prev ;; esac
                fi
                if [[ -n $opt ]]; then
                    case "$provider $command $opt" in
            \(values.joined(separator: "\n"))
                    esac
                    return 0
                fi
                if [[ $cur == -* ]]; then
                    case "$provider $command" in
            \(options.joined(separator: "\n"))
                    esac
                    COMPREPLY=($(compgen -W "$opts \(globals)" -- "$cur"))
                    return 0
                fi
                case ${#args[@]} in
                    0) words=\(quoted(m.providers.map(\.name) + topWords)) ;;
                    1) case $provider in
                           help) words=\(quoted(m.providers.map(\.name))) ;;
                           completion) words=\(quoted(Shell.allCases.map(\.rawValue))) ;;
            \(commandsOf.map { "        " + $0 }.joined(separator: "\n"))
                       esac ;;
                    2) if [[ $provider == help ]]; then
                           case $command in
            \(m.providers.map { "                    \($0.name)) words=\(quoted($0.commands.map(\.name))) ;;" }.joined(separator: "\n"))
                           esac
                       else
                           case "$provider $command" in
            \(positionals.joined(separator: "\n"))
                           esac
                           return 0
                       fi ;;
                esac
                COMPREPLY=($(compgen -W "$words" -- "$cur"))
                return 0
            }
            complete -F _transit transit

            """
    }

    // MARK: zsh

    static func zsh(_ m: Model) -> String {
        func described(_ name: String, _ help: String) -> String {
            let text = name.replacingOccurrences(of: ":", with: "\\:") + ":" + Sanitize.line(help)
            return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        func optionItems(_ specs: [OptionSpec]) -> String {
            specs.map { described("--" + $0.name, $0.fullHelp) }.joined(separator: " ")
        }
        func valueAction(_ rule: ValueRule) -> String? {
            switch rule {
            case .words(let words): return "compadd -- " + words.map { "'\($0)'" }.joined(separator: " ")
            case .files: return "_files"
            case .directories: return "_files -/"
            case .cached: return "_transit_values \"$provider\" \"$command\" \"$opt\""
            case .nothing: return nil
            }
        }
        let values = m.valueCases(valueAction)
        let options = m.commands.map { "        '\($0.key)') opts=(\(optionItems($0.spec.options))) ;;" }
        let providers = m.providers.map { described($0.name, $0.summary) } + [described("help", "help for a provider or command"),
                                                                               described("completion", "a completion script for bash, zsh or fish")]
        let commandsOf = m.providers.map { p in
            "            \(p.name)) items=(\(p.commands.map { described($0.name, $0.summary) }.joined(separator: " "))) ;;"
        }
        var positionals: [String] = []
        for command in m.commands where command.spec.positional != nil {
            if !command.spec.positionalChoices.isEmpty {
                positionals.append("            '\(command.key)') compadd -- \(command.spec.positionalChoices.joined(separator: " ")) ;;")
                continue
            }
            switch command.spec.positionalSource {
            case .files: positionals.append("            '\(command.key)') _files ;;")
            case .directories: positionals.append("            '\(command.key)') _files -/ ;;")
            case .cached: positionals.append("            '\(command.key)') _transit_values \"$provider\" \"$command\" \(positional) ;;")
            case .free: break
            }
        }
        return "#compdef transit\n" + header(.zsh, load: "source <(transit completion zsh), or as _transit in $fpath") + "\n" + """
            _transit_values() {
                # Values the provider knows from its cache; never the network.
                local -a found
                found=("${(@f)$(${~words[1]} completion values "$1" "$2" "${3#--}" "$PREFIX" -- "${(@)words[2,CURRENT-1]}" 2>/dev/null)}")
                found=(${found:#})
                (( ${#found} )) && compadd -U -- "${found[@]}"
            }

            _transit() {
                local cur=${words[CURRENT]} prev=${words[CURRENT-1]} opt="" provider="" command="" i w skip=0
                local -a args opts items
                for (( i = 2; i < CURRENT; i++ )); do
                    w=${words[i]}
                    if (( skip )); then skip=0; continue; fi
                    case $w in
                        \(m.valueOptions.joined(separator: "|"))) skip=1 ;;
                        -*) ;;
                        *) args+=("$w") ;;
                    esac
                done
                provider=${args[1]} command=${args[2]}
                if [[ $cur == --*=* ]]; then
                    opt=${cur%%=*}
                    compset -P '*='
                else
                    case $prev in \(m.valueOptions.joined(separator: "|"))) opt=$prev ;; esac
                fi
                if [[ -n $opt ]]; then
                    case "$provider $command $opt" in
            \(values.joined(separator: "\n"))
                    esac
                    return 0
                fi
                if [[ $cur == -* ]]; then
                    case "$provider $command" in
            \(options.joined(separator: "\n"))
                    esac
                    opts+=(\(optionItems(m.globals)))
                    _describe -t options option opts
                    return 0
                fi
                case ${#args} in
                    0) items=(\(providers.joined(separator: " "))); _describe -t providers provider items ;;
                    1) case $provider in
                           help) items=(\(m.providers.map { described($0.name, $0.summary) }.joined(separator: " "))) ;;
                           completion) items=(bash zsh fish) ;;
            \(commandsOf.map { "        " + $0 }.joined(separator: "\n"))
                       esac
                       (( ${#items} )) && _describe -t commands command items ;;
                    2) if [[ $provider == help ]]; then
                           case $command in
            \(m.providers.map { p in "                    \(p.name)) items=(\(p.commands.map { described($0.name, $0.summary) }.joined(separator: " "))) ;;" }.joined(separator: "\n"))
                           esac
                           (( ${#items} )) && _describe -t commands command items
                       else
                           case "$provider $command" in
            \(positionals.joined(separator: "\n"))
                           esac
                       fi ;;
                esac
                return 0
            }

            if [[ $funcstack[1] == _transit ]]; then
                _transit "$@"
            else
                compdef _transit transit
            fi

            """
    }

    // MARK: fish

    static func fish(_ m: Model) -> String {
        func quoted(_ text: String) -> String {
            "'" + Sanitize.line(text).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
        }
        func optionLine(_ option: OptionSpec, condition: String?, command: Model.Command?) -> String {
            var line = "complete -c transit"
            if let condition { line += " -n " + quoted(condition) }
            if let short = option.short { line += " -s \(short)" }
            line += " -l \(option.name)"
            if option.name == "format" && command == nil {
                // What the command on the line accepts: geojson only where it returns places.
                line += " -x -a '(__transit_formats)'"
            } else if option.value != nil {
                switch ValueRule(option) {
                case .words(let words): line += " -x -a " + quoted(words.joined(separator: " "))
                case .files: line += " -r -F"
                case .directories: line += " -x -a '(__fish_complete_directories)'"
                case .cached:
                    if let command { line += " -x -a " + quoted("(__transit_values \(command.provider) \(command.spec.name) \(option.name))") } else { line += " -x" }
                case .nothing: line += " -x"
                }
            }
            return line + " -d " + quoted(option.fullHelp)
        }
        var lines = [
            header(.fish, load: "transit completion fish | source"),
            "",
            "# The words before the cursor that are not options or their values.",
            "function __transit_args",
            "    set -l tokens (commandline -opc)",
            "    set -e tokens[1]",
            "    set -l skip 0",
            "    for t in $tokens",
            "        if test $skip = 1",
            "            set skip 0",
            "            continue",
            "        end",
            "        switch $t",
            "            case " + m.valueOptions.joined(separator: " "),
            "                set skip 1",
            "            case '-*'",
            "            case '*'",
            "                echo $t",
            "        end",
            "    end",
            "end",
            "",
            "# True when the words so far are exactly the arguments given.",
            "function __transit_at",
            "    set -l args (__transit_args)",
            "    test (count $args) -eq (count $argv); or return 1",
            "    for i in (seq (count $argv))",
            "        test \"$args[$i]\" = \"$argv[$i]\"; or return 1",
            "    end",
            "end",
            "",
            "# True when the line's provider and command are these (options may follow).",
            "function __transit_in",
            "    set -l args (__transit_args)",
            "    test (count $args) -ge 2; and test \"$args[1]\" = $argv[1]; and test \"$args[2]\" = $argv[2]",
            "end",
            "",
            "# The formats the command on the line accepts.",
            "function __transit_formats",
            "    set -l args (__transit_args)",
            "    printf '%s\\n' table tsv csv json",
            "    contains -- \"$args[1] $args[2]\" \(m.commands.filter(\.spec.geoJSON).map { "'\($0.key)'" }.joined(separator: " ")); and echo geojson",
            "    contains -- \"$args[1] $args[2]\" \(m.commands.filter(\.spec.parquet).map { "'\($0.key)'" }.joined(separator: " ")); and echo parquet",
            "end",
            "",
            "# Values the provider knows from its cache; never the network.",
            "function __transit_values",
            "    set -l words (commandline -opc)",
            "    $words[1] completion values $argv[1] $argv[2] $argv[3] (commandline -ct | string replace -r '^--[^=]*=' '') -- $words[2..-1] 2>/dev/null",
            "end",
            "",
            "complete -c transit -f",
        ]
        for provider in m.providers {
            lines.append("complete -c transit -n '__transit_at' -a \(provider.name) -d " + quoted(provider.summary))
        }
        lines.append("complete -c transit -n '__transit_at' -a help -d 'help for a provider or command'")
        lines.append("complete -c transit -n '__transit_at' -a completion -d 'a completion script for bash, zsh or fish'")
        lines.append("complete -c transit -n '__transit_at completion' -a 'bash zsh fish'")
        for provider in m.providers {
            lines.append("complete -c transit -n '__transit_at help' -a \(provider.name) -d " + quoted(provider.summary))
            for command in provider.commands {
                lines.append("complete -c transit -n '__transit_at \(provider.name)' -a \(command.name) -d " + quoted(command.summary))
                lines.append("complete -c transit -n '__transit_at help \(provider.name)' -a \(command.name) -d " + quoted(command.summary))
            }
        }
        for command in m.commands {
            if command.spec.positional != nil {
                if !command.spec.positionalChoices.isEmpty {
                    lines.append("complete -c transit -n '__transit_at \(command.key)' -a " + quoted(command.spec.positionalChoices.joined(separator: " ")))
                } else if command.spec.positionalSource == .files {
                    lines.append("complete -c transit -n '__transit_at \(command.key)' -F")
                } else if command.spec.positionalSource == .cached {
                    lines.append("complete -c transit -n '__transit_at \(command.key)' -a " + quoted("(__transit_values \(command.provider) \(command.spec.name) \(positional))"))
                }
            }
            for option in command.spec.options {
                lines.append(optionLine(option, condition: "__transit_in \(command.key)", command: command))
            }
        }
        for option in m.globals { lines.append(optionLine(option, condition: nil, command: nil)) }
        return lines.joined(separator: "\n") + "\n"
    }
}
