import TransitSupport
/// `transit help --man`: the manual page in roff (man(7)), generated from the same specs as
/// `--help` and the README's reference, so that the three cannot drift apart.
package enum ManPage {
    package static func roff(_ providers: [ProviderSpec]) -> String {
        var out: [String] = [
            #".TH TRANSIT 1 "" "transit \#(escape(TransitVersion.current))" "User Commands""#,
            ".SH NAME",
            #"transit \- find trips, departures and arrivals on public transport"#,
            ".SH SYNOPSIS",
            ".B transit",
            #"[\fIglobal options\fR] \fIprovider\fR \fIcommand\fR [\fIoptions\fR]"#,
            ".br",
            ".B transit help",
            #"[\fIprovider\fR [\fIcommand\fR]] [\fB\-\-man\fR]"#,
            ".br",
            ".B transit completion",
            #"\fBbash\fR|\fBzsh\fR|\fBfish\fR"#,
            ".SH DESCRIPTION",
            text("transit finds trips, departures and arrivals for several transit providers and prints them as a table on a terminal, "
                 + "as tab-separated lines when piped, or as CSV, JSON or GeoJSON. Every time is read in the agency's own zone and "
                 + "printed with its offset. stdout carries data only; notices and errors go to stderr, one line each."),
            ".SH GLOBAL OPTIONS",
        ]
        out += options(GlobalOptions.specs)
        out.append(".SH PROVIDERS AND COMMANDS")
        for provider in providers {
            out += [#".SS "\#(escape(provider.name))""#, text("\(provider.summary). Times are \(provider.zoneName).")]
            for command in provider.commands {
                out += [#".SS "\#(escape(provider.name + " " + command.name))""#, text(command.summary), ".PP", ".nf", escape(command.usage), ".fi"]
                out += options(command.options)
                for note in command.notes { out += [".PP", text(note)] }
            }
        }
        out.append(".SH ENVIRONMENT")
        for (variable, help) in Help.environmentLines(providers) {
            out += [".TP", #"\fB\#(escape(variable))\fR"#, text(help)]
        }
        out += [
            ".SH FILES",
            ".TP", #"\fI$TRANSIT_CACHE_DIR\fR (default \fI$XDG_CACHE_HOME/transit\fR, else \fI~/.cache/transit\fR)"#,
            text("Answers cached by request, and what providers keep there."),
            ".TP", #"\fIDIR\fB/\fIprovider\fB/\fIpath\fB/\fIquery\fB.http\fR"#,
            text("Recordings written by --record DIR and served by --offline --fixtures DIR: notes, a status, a blank line, then the body byte for byte."),
        ]
        for provider in providers {
            for (path, help) in provider.files { out += [".TP", #"\fI\#(escape(path))\fR"#, text(help)] }
        }
        out += [
            ".SH EXIT STATUS",
            ".TP", "0", text("Success, an empty result included (with a notice on stderr)."),
            ".TP", "1", text("The work failed: network, timeout, an HTTP or API error, a body that cannot be read, no recording offline."),
            ".TP", "2", text("Usage: an unknown command or option, a bad value, an unknown station (with a suggestion)."),
            ".TP", "130", text("Interrupted (Ctrl-C)."),
            ".TP", "141", text("The reader of stdout went away (a closed pipe)."),
            ".SH EXAMPLES",
        ]
        for provider in providers {
            for command in provider.commands {
                for example in command.examples.prefix(1) { out += [".PP", ".nf", escape(example), ".fi"] }
            }
        }
        out += [".SH SEE ALSO", text("transit help PROVIDER COMMAND, and the README of the source for the rules each command follows.")]
        return out.joined(separator: "\n") + "\n"
    }

    static func options(_ specs: [OptionSpec]) -> [String] {
        specs.flatMap { option -> [String] in
            var head = option.short.map { #"\fB\-\#($0)\fR, "# } ?? ""
            head += #"\fB\-\-\#(escape(option.name))\fR"#
            if let value = option.value { head += #" \fI\#(escape(value))\fR"# }
            var help = option.fullHelp
            if !option.choices.isEmpty { help += "; one of: " + option.choices.joined(separator: ", ") }
            return [".TP", head, text(help)]
        }
    }

    /// Running text: escaped, never starting with a control character, long lines kept whole
    /// (roff fills them).
    static func text(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let escaped = escape(String(line))
            return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? #"\&"# + escaped : escaped
        }.joined(separator: "\n")
    }

    /// Backslashes and hyphens escaped, as man(7) wants them, and anything beyond ASCII as a
    /// `\[uXXXX]` glyph (roff input is ASCII unless preprocessed).
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += #"\e"#
            case "-": out += #"\-"#
            case _ where scalar.value < 0x20: out += " "
            case _ where scalar.value < 0x7F: out.unicodeScalars.append(scalar)
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += #"\[u"# + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            }
        }
        return out
    }
}
