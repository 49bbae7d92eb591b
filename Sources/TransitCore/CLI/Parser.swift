import Foundation
import TransitSupport

/// What to do, decided from argv alone.
package enum Invocation: Sendable, Equatable {
    /// Text to print as it is: help, the man page, a completion script.
    case help(String)
    case version
    /// `transit completion values …`: what the completion scripts ask at Tab time.
    case completionValues(Completion.Query)
    case run(Settings, Command)
}

/// argv → `Invocation`, as a pure function of the arguments, the environment, whether
/// stdout/stderr are terminals, and the clock. It knows global options and the shape
/// `<provider> <command> [options]`; each provider parses its own command's options.
package enum CommandLineParser {
    struct Raw {
        var words: [String] = []
        var values: [String: String] = [:]
        /// Every value of an option that may be given more than once, in order.
        var lists: [String: [String]] = [:]
        var flags: Set<String> = []
        var order: [String] = []
    }

    package static func parse(_ args: [String], environment env: [String: String], terminal: Terminal,
                             now: Date = Date(), providers: @autoclosure () -> [Provider] = Providers.all) throws(TransitError) -> Invocation {
        try parse(args, environment: Environment(env), terminal: terminal, now: now, providers: providers())
    }

    /// As above; the providers' specs are built only once the line names more than global
    /// options (`--version` and `--help` alone never build them).
    package static func parse(_ args: [String], environment env: Environment, terminal: Terminal,
                             now: Date = Date(), providers all: @autoclosure () -> [Provider] = Providers.all) throws(TransitError) -> Invocation {
        lazy var providers = all()
        if args.first == "completion" { return try completion(Array(args.dropFirst()), providers: providers) }
        // An option that is not global is looked up in the provider the line names first, then
        // in all: only the named provider's spec is built for a well-formed line.
        lazy var named: Provider? = {
            for word in args { if let provider = providers.first(where: { $0.name == word }) { return provider } }
            return nil
        }()
        var raw = try scan(args) { name in option(name, in: providers, first: named) }
        if raw.flags.contains("version") && raw.words.isEmpty { return .version }

        // Help: `transit help [p [c]]`, or --help at any level.
        var words = raw.words
        let wantsHelp = raw.flags.contains("help") || words.first == "help"
        if words.first == "help" { words.removeFirst() }
        if raw.flags.contains("man") {
            guard wantsHelp && words.isEmpty else { throw .usage("--man goes with help alone: transit help --man") }
            return .help(ManPage.roff(providers.map(\.spec)))
        }
        // Help fits the terminal as a table does (`COLUMNS`, else its width); piped, 80 columns.
        if wantsHelp { return .help(try helpText(for: words, providers: providers, width: Settings.tableWidth(env, terminal) ?? Help.pipedWidth)) }

        guard let providerName = words.first else {
            throw .usage("missing provider", hint: "run 'transit --help' for the list")
        }
        let provider = try find(providerName, in: providers)
        if words.count == 1, let fallback = provider.spec.defaultCommand { words.append(fallback) }
        guard words.count > 1 else {
            throw .usage("missing command for \(providerName): one of \(provider.spec.commands.map(\.name).joined(separator: ", "))",
                         hint: "run 'transit \(providerName) --help'")
        }
        let spec = try command(words[1], of: provider.spec)
        let title = "'transit \(providerName) \(spec.name)'"
        // An old spelling counts as the option it means (given both, the usual rule applies).
        for (alias, meant) in spec.aliases {
            if let value = raw.values.removeValue(forKey: alias) {
                if let other = raw.values[meant] { throw .usage("--\(meant) is given twice (--\(alias) '\(value)' and --\(meant) '\(other)'); it takes one value") }
                raw.values[meant] = value
            }
            raw.order = raw.order.map { $0 == alias ? meant : $0 }
        }
        let allowed = Set((GlobalOptions.specs + spec.options).map(\.name))
        for name in raw.order where !allowed.contains(name) {
            // The closest option; on a tie the command's own before the global ones.
            let suggestion = closest("--" + name, among: (spec.options + GlobalOptions.specs).map { "--" + $0.name })
            throw .usage("unknown option '--\(name)' for \(title)" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""),
                         hint: "run 'transit \(providerName) \(spec.name) --help'")
        }
        var positional: String?
        if let placeholder = spec.positional {
            if words.count > 2 {
                if spec.positionalTakesRest {
                    positional = words[2...].joined(separator: " ")
                    words.removeSubrange(2...)
                } else {
                    positional = words.remove(at: 2)
                }
            } else if !spec.positionalOptional {
                throw .usage("\(title) needs \(placeholder)", hint: "usage: \(spec.usage)")
            }
        }
        if words.count > 2 {
            throw .usage("unexpected argument '\(words[2])' for \(title)", hint: "run 'transit \(providerName) \(spec.name) --help'")
        }
        let settings = try Settings.resolve(values: raw.values, flags: raw.flags, environment: env, terminal: terminal,
                                            now: now, command: spec, provider: provider.spec)
        var arguments = Arguments(spec: spec, values: raw.values, flags: raw.flags, positional: positional,
                                  now: settings.now, offline: settings.offline)
        arguments.lists = raw.lists
        return .run(settings, try provider.parse(arguments))
    }

    /// `transit completion SHELL`, its help, and the hidden `completion values` the scripts call.
    static func completion(_ args: [String], providers: [Provider]) throws(TransitError) -> Invocation {
        let usage = TransitError.usage("transit completion needs a shell: bash, zsh or fish", hint: "run 'transit completion --help'")
        guard let first = args.first else { throw usage }
        if ["--help", "-h", "help"].contains(first) { return .help(Completion.help) }
        if first == "values" {
            // PROVIDER COMMAND OPTION PREFIX [-- WORDS…]: anything amiss answers nothing.
            let fields = Array(args.dropFirst().prefix { $0 != "--" })
            var words = Array(args.drop { $0 != "--" }.dropFirst())
            // bash splits `--feed=x` into `--feed`, `=`, `x`: put them back together.
            while let eq = words.firstIndex(of: "="), eq > 0, eq + 1 < words.count {
                words[eq - 1] += "=" + words[eq + 1]
                words.removeSubrange(eq...(eq + 1))
            }
            // The words end with the option being completed, which has no value yet.
            func lenient(_ words: [String]) -> Raw? { try? scan(words) { name in option(name, in: providers) } }
            let raw = lenient(words) ?? lenient(words.dropLast()) ?? Raw()
            return .completionValues(Completion.Query(provider: fields.count > 0 ? fields[0] : "", command: fields.count > 1 ? fields[1] : "",
                                                      option: fields.count > 2 ? fields[2] : "", prefix: fields.count > 3 ? fields[3] : "",
                                                      typed: raw.values, flags: raw.flags))
        }
        guard args.count == 1, let shell = Completion.Shell(rawValue: first) else {
            if let shell = Completion.Shell(rawValue: first) { throw .usage("unexpected argument '\(args[1])' after 'transit completion \(shell.rawValue)'") }
            throw .usage("unknown shell '\(first)' for transit completion: bash, zsh or fish", hint: "run 'transit completion --help'")
        }
        return .help(Completion.script(shell, providers: providers.map(\.spec)))
    }

    /// The spec of option `name`: a global one, else the first command's option of that name,
    /// looked for in `first` (the provider the line names) before all. The providers are asked
    /// for only when the name is not global.
    static func option(_ name: String, in providers: @autoclosure () -> [Provider], first: @autoclosure () -> Provider? = nil) -> OptionSpec? {
        if let global = GlobalOptions.specs.first(where: { $0.name == name }) { return global }
        for provider in (first().map { [$0] } ?? []) + providers() {
            for command in provider.spec.commands {
                if let option = command.option(name) { return option }
            }
        }
        return nil
    }

    /// Splits argv into words, `--name value` / `--name=value` options and flags; `option`
    /// gives the spec of a name, whose placeholder says whether it takes a value.
    static func scan(_ args: [String], option: (String) -> OptionSpec?) throws(TransitError) -> Raw {
        var raw = Raw()
        var i = 0
        var onlyWords = false
        while i < args.count {
            let arg = args[i]
            i += 1
            if onlyWords || arg == "-" || !arg.hasPrefix("-") {
                raw.words.append(arg)
                continue
            }
            if arg == "--" { onlyWords = true; continue }
            var names: [(String, String?)] = []
            if arg.hasPrefix("--") {
                let body = arg.dropFirst(2)
                if let eq = body.firstIndex(of: "=") {
                    names.append((String(body[..<eq]), String(body[body.index(after: eq)...])))
                } else {
                    names.append((String(body), nil))
                }
            } else {
                for ch in arg.dropFirst() {
                    guard let spec = GlobalOptions.specs.first(where: { $0.short == ch }) else {
                        // `-V` is the version elsewhere (python, curl); here `-v` is --verbose.
                        if ch == "V" { throw .usage("unknown option '-V'; did you mean --version?") }
                        throw .usage("unknown option '-\(ch)'", hint: "run 'transit --help'")
                    }
                    names.append((spec.name, nil))
                }
            }
            for (name, inline) in names {
                guard !name.isEmpty else { throw .usage("empty option name in '\(arg)'") }
                let spec = option(name)
                if let placeholder = spec?.value {
                    var value = inline
                    if value == nil {
                        guard i < args.count else { throw .usage("--\(name) needs a value (\(placeholder))") }
                        value = args[i]
                        i += 1
                    }
                    // An empty value (`--date ""`, `--limit=`, an unset shell variable) is never
                    // meant as the default: said, rather than read as no option at all.
                    if let value, value.trimmedSpace(newlines: false).isEmpty {
                        throw .usage("--\(name) needs a value (\(placeholder)), and '\(value)' is empty")
                    }
                    if spec?.repeatable == true, let value { raw.lists[name, default: []].append(value) }
                    // One value each: a second one would silently replace the first.
                    if spec?.repeatable != true, let earlier = raw.values[name], let value {
                        throw .usage("--\(name) is given twice ('\(earlier)' and '\(value)'); it takes one value")
                    }
                    raw.values[name] = value
                } else if inline != nil && spec != nil {
                    throw .usage("--\(name) takes no value")
                } else {
                    raw.flags.insert(name)
                }
                raw.order.append(name)
            }
        }
        return raw
    }

    static func helpText(for words: [String], providers: [Provider], width: Int = Help.pipedWidth) throws(TransitError) -> String {
        guard let name = words.first else { return Help.top(providers.map(\.spec), width: width) }
        if name == "completion" && words.count == 1 { return Completion.help }
        let provider = try find(name, in: providers).spec
        guard words.count > 1 else {
            if let fallback = provider.defaultCommand, let command = provider.command(fallback) { return Help.command(command, width: width) }
            return Help.provider(provider, width: width)
        }
        return Help.command(try command(words[1], of: provider), width: width)
    }

    static func find(_ name: String, in providers: [Provider]) throws(TransitError) -> Provider {
        guard let provider = providers.first(where: { $0.name == name }) else {
            // What other tools call it: `git version`, `go version`.
            if name == "version" { throw .usage("unknown provider 'version'; did you mean 'transit --version'?") }
            let suggestion = closest(name.lowercased(), among: providers.map(\.name))
            throw .usage("unknown provider '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""),
                         hint: "run 'transit --help' for the list")
        }
        return provider
    }

    static func command(_ name: String, of provider: ProviderSpec) throws(TransitError) -> CommandSpec {
        guard let spec = provider.command(name) else {
            let suggestion = closest(name.lowercased(), among: provider.commands.map(\.name))
            throw .usage("unknown command '\(provider.name) \(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""),
                         hint: "run 'transit \(provider.name) --help'")
        }
        return spec
    }

    /// The one option closest to `typed`, within two edits (a swap counts as one); the first
    /// of `options` on a tie.
    static func closest(_ typed: String, among options: [String]) -> String? {
        let scored = options.map { (option: $0, distance: NameMatcher<Int>.distance(typed, $0.lowercased())) }
        return scored.filter { $0.distance <= 2 }.min { $0.distance < $1.distance }?.option
    }
}
