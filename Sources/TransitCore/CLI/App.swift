import Foundation
import TransitSupport

/// The whole program as a function: argv and environment in, text on two streams and an exit
/// status out. `main.swift` wires it to the process.
package struct App: Sendable {
    package var writeOut: @Sendable (String) -> Void
    /// Where a command's rendered output goes as the renderer writes it, a piece at a time
    /// (`Renderer.write`); nil: gathered whole and given to `writeOut`.
    package var writeOutBytes: (@Sendable (UnsafeRawBufferPointer) -> Void)?
    package var writeErr: @Sendable (String) -> Void
    package var terminal: Terminal
    /// The git commit the binary was built from, when it was built in a checkout.
    package var commit: String?

    package init(terminal: Terminal, commit: String? = nil, writeOut: @escaping @Sendable (String) -> Void,
                writeOutBytes: (@Sendable (UnsafeRawBufferPointer) -> Void)? = nil, writeErr: @escaping @Sendable (String) -> Void) {
        self.terminal = terminal
        self.commit = commit
        // Every byte transit prints passes here: no configured secret gets out, even one a
        // server echoed into an error or a field (output in pieces only while there is none).
        self.writeOut = { writeOut(Redaction.scrub($0)) }
        self.writeOutBytes = writeOutBytes
        self.writeErr = { writeErr(Redaction.scrub($0)) }
    }

    /// What `prepare` leaves to do: nothing but exit, or a command to run.
    package enum Step: Sendable {
        case exit(Int32)
        case run(Settings, Command)
        case complete(Completion.Query)
    }

    package func run(_ args: [String], environment: [String: String]) async -> Int32 {
        let environment = Environment(environment)
        return await finish(prepare(args, environment: environment), environment: environment)
    }

    /// The synchronous part: parse, and answer help, `--version`, a completion script or a
    /// usage error at once, before any thread or task exists.
    package func prepare(_ args: [String], environment: Environment) -> Step {
        do {
            switch try CommandLineParser.parse(args, environment: environment, terminal: terminal) {
            case .help(let text):
                writeOut(text)
                return .exit(0)
            case .version:
                writeOut("transit \(TransitVersion.current)" + (commit.map { " (commit \($0))" } ?? "") + "\n")
                return .exit(0)
            case .completionValues(let query):
                return .complete(query)
            case .run(let settings, let command):
                return .run(settings, command)
            }
        } catch {
            report(error)
            return .exit(error.exitStatus)
        }
    }

    /// The rest of `prepare`'s work; the exit status.
    package func finish(_ step: Step, environment: Environment = .process) async -> Int32 {
        switch step {
        case .exit(let status):
            return status
        case .complete(let query):
            if let text = await Completion.values(query, environment: environment) { writeOut(text) }
            return 0
        case .run(let settings, let command):
            do {
                return try await execute(settings, command)
            } catch {
                report(error)
                return error.exitStatus
            }
        }
    }

    func report(_ error: TransitError) {
        // One line each, whatever a server put in the message.
        var text = "transit: \(Sanitize.line(error.message))\n"
        if let hint = error.hint { text += Sanitize.line(hint) + "\n" }
        writeErr(text)
    }

    func execute(_ settings: Settings, _ command: Command) async throws(TransitError) -> Int32 {
        if let watch = settings.watch { return await self.watch(settings, command, watch) }
        let spinner = Spinner(enabled: settings.stderrIsTerminal && !settings.quiet && Settings.progressFits, columns: Settings.terminalWidth(2), write: writeErr)
        try await once(settings, command, http: makeHTTP(settings, spinner: spinner), spinner: spinner)
        return 0
    }

    /// One fetch: run the command (progress on the spinner while it works), write `prefix` and
    /// the rendered output to stdout, then the notices to stderr.
    func once(_ settings: Settings, _ command: Command, http: HTTPClient, spinner: Spinner,
              prefix: String = "") async throws(TransitError) {
        defer { spinner.stop() }
        let output = try await command.run(Context(settings: settings, http: http, progress: spinner.show, detail: spinner.detail))
        spinner.stop()
        let renderer = Renderer(format: settings.format, header: settings.header, color: settings.color, width: settings.tableWidth)
        if let pieces = writeOutBytes, !Redaction.isActive {
            // A usage error is thrown before the first byte, so the prefix waits for it.
            var started = false
            try renderer.write(output) { piece in
                if !started && !prefix.isEmpty { writeOut(prefix) }
                started = true
                if !piece.isEmpty { pieces(piece) }
            }
        } else {
            let text = prefix + (try renderer.render(output))
            if !text.isEmpty { writeOut(text) }
        }
        if !settings.quiet {
            for notice in output.notices + (output.laterNotices?() ?? []) { writeErr(Sanitize.text(notice).replacingOccurrences(of: "\n", with: " ") + "\n") }
        }
        if let failure = output.failure { throw failure }
    }

    /// `--watch`: fetch, print, wait, again. On a terminal each refresh redraws the screen;
    /// piped, each block starts with the fetch time. A failed fetch is reported and retried at
    /// the next tick; only a usage error (an unknown stop, say) ends the watch.
    func watch(_ settings: Settings, _ command: Command, _ watch: Watch) async -> Int32 {
        // The spinner would fight the redrawn screen on a terminal.
        let spinner = Spinner(enabled: settings.stderrIsTerminal && !settings.quiet && !terminal.stdout && Settings.progressFits, columns: Settings.terminalWidth(2), write: writeErr)
        let http = makeHTTP(settings, spinner: spinner)
        let zone = command.zone
        var refreshes = 0
        while true {
            refreshes += 1
            var tick = settings
            if !settings.clockPinned { tick.now = Date() }
            let fetchedAt = Date()
            let header = terminal.stdout
                ? "\u{1B}[H\u{1B}[2J" + "Updated \(ClockTime.hhmm(fetchedAt, zone: zone)), every \(TransitError.seconds(watch.seconds)) s; Ctrl-C to stop\n"
                : ClockTime.iso8601(fetchedAt, zone: zone) + "\n"
            do {
                try await once(tick, command, http: http, spinner: spinner, prefix: header)
            } catch {
                report(error)
                if error.exitStatus == 2 { return 2 }
            }
            if let count = watch.count, refreshes >= count { return 0 }
            try? await Task.sleep(nanoseconds: UInt64(watch.seconds * watch.unit * 1_000_000_000))
        }
    }

    func makeHTTP(_ settings: Settings, spinner: Spinner) -> HTTPClient {
        var options = HTTPClient.Options()
        options.timeout = settings.timeout
        options.retry = settings.offline ? .none : settings.retry
        options.cacheDirectory = settings.httpCacheDirectory
        TransportSession.foundationDirectory.withLock { $0 = (settings.cacheDirectory as NSString).appendingPathComponent(".foundation") }
        options.recordDirectory = settings.record
        let now = settings.now
        if settings.clockPinned { options.now = { now } }
        if settings.verbose {
            let write = writeErr
            options.log = { write("transit: " + $0 + "\n") }
        }
        options.progress = spinner.show
        let rate = TransferRate()
        options.transferred = { label, received, total in
            spinner.show("fetching \(label) " + ProgressBar.text(received, of: total, perSecond: rate.perSecond(label, received)))
        }
        return HTTPClient(transport: settings.transport(network: URLSessionTransport()), options: options)
    }
}

/// What a command runs with.
package struct Context: Sendable {
    package var settings: Settings
    package var http: HTTPClient
    /// Progress in words for the user; requests report themselves through the HTTP client.
    package var progress: @Sendable (String) -> Void
    /// How far the work `progress` named is (drawn after it, until the next `progress`).
    package var detail: @Sendable (String) -> Void = { _ in }
}
