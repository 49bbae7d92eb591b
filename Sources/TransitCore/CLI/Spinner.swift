import Foundation
import TransitSupport

/// A progress line on stderr, only on a terminal, only after ~100 ms, redrawn at most ten times
/// a second and cleared when done, as curl and cargo do. It draws on a thread of its own, so
/// work that keeps the async pool busy cannot freeze it; reporting (`show`, `detail`) only
/// swaps the text under a lock, so long work may report as often as it likes.
/// `show` starts it or says what is being done; `detail` says how far that is; `stop` clears it.
package final class Spinner: Sendable {
    struct State {
        var message = ""
        var detail = ""
        var running = false
        var drawn = false
        var generation = 0
    }

    private let state = Locked(State())
    private let enabled: Bool
    /// The terminal's columns: a longer line is cut, so that `\r` still returns to its start.
    private let columns: Int?
    private let write: @Sendable (String) -> Void

    package init(enabled: Bool, columns: Int? = nil, write: @escaping @Sendable (String) -> Void) {
        self.enabled = enabled
        self.columns = columns
        self.write = write
    }

    /// What is being done (`compiling dense81`); how far it was goes with it.
    package func show(_ text: String) {
        guard enabled else { return }
        let launch: Int? = state.withLock {
            $0.message = text
            $0.detail = ""
            guard !$0.running else { return nil }
            $0.running = true
            $0.generation += 1
            return $0.generation
        }
        guard let mine = launch else { return }
        let thread = Thread { [self] in tick(mine) }
        thread.start()
    }

    /// How far the work `show` named is (`stop times [####------] 24% 1.2 M rows`), drawn after it.
    package func detail(_ text: String) {
        guard enabled else { return }
        state.withLock { $0.detail = text }
    }

    /// The line as drawn: what, then how far, cut to the terminal.
    static func line(_ message: String, _ detail: String, frame: String, columns: Int?) -> String {
        let text = frame + " " + message + (detail.isEmpty ? "" : ": " + detail)
        guard let columns else { return text }
        return TextWidth.truncate(text, to: max(1, columns - 1))
    }

    private func tick(_ mine: Int) {
        let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
        Thread.sleep(forTimeInterval: 0.1)
        var i = 0
        while true {
            // Draw under the lock, so stop() cannot clear the line and then see a frame land.
            let live: Bool = state.withLock {
                guard $0.running, $0.generation == mine else { return false }
                $0.drawn = true
                write("\r\u{1B}[K" + Self.line($0.message, $0.detail, frame: frames[i % frames.count], columns: columns))
                return true
            }
            guard live else { return }
            i += 1
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    package func stop() {
        guard enabled else { return }
        state.withLock {
            $0.running = false
            if $0.drawn { write("\r\u{1B}[K") }
            $0.drawn = false
        }
    }
}

/// A download's progress in a line: a bar and a percentage when the size is announced, the
/// megabytes so far when it is not; the rate once it has run a moment.
package enum ProgressBar {
    package static func text(_ received: Int64, of total: Int64?, width: Int = 20, perSecond rate: Double? = nil) -> String {
        let mb = { (bytes: Int64) in String(format: "%.1f", Double(bytes) / 1_048_576) }
        let speed = rate.map { " " + String(format: "%.1f", $0 / 1_048_576) + " MB/s" } ?? ""
        guard let total, total > 0 else { return mb(received) + " MB" + speed }
        return bar(Double(received) / Double(total), width: width) + " " + mb(received) + " of " + mb(total) + " MB" + speed
    }

    /// `[#####---------------] 25%`
    package static func bar(_ fraction: Double, width: Int = 20) -> String {
        let fraction = min(1, max(0, fraction.isFinite ? fraction : 0))
        let filled = Int((fraction * Double(width)).rounded(.down))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] "
            + String(Int((fraction * 100).rounded(.down))) + "%"
    }
}

/// A download's rate: the bytes received since its first report, over the time since then
/// (nil for the first half second, when a rate says nothing yet). One per client; a new label
/// (another download) starts it again.
package final class TransferRate: Sendable {
    private let started = Locked<(label: String, at: Date, bytes: Int64)?>(nil)

    package init() {}

    package func perSecond(_ label: String, _ received: Int64, now: Date = Date()) -> Double? {
        started.withLock { start in
            guard let first = start, first.label == label, received >= first.bytes else {
                start = (label, now, received)
                return nil
            }
            let seconds = now.timeIntervalSince(first.at)
            return seconds >= 0.5 ? Double(received - first.bytes) / seconds : nil
        }
    }
}
