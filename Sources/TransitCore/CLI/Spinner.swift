import Foundation
import TransitSupport

/// A progress line on stderr, only on a terminal, only after ~100 ms, and cleared when done.
/// It ticks on a thread of its own, so parsing that keeps the async pool busy cannot freeze it.
/// `show` starts it or changes its text; `stop` clears it.
package final class Spinner: Sendable {
    struct State {
        var message = ""
        var running = false
        var drawn = false
        var generation = 0
    }

    private let state = Locked(State())
    private let enabled: Bool
    private let write: @Sendable (String) -> Void

    package init(enabled: Bool, write: @escaping @Sendable (String) -> Void) {
        self.enabled = enabled
        self.write = write
    }

    package func show(_ text: String) {
        guard enabled else { return }
        let launch: Int? = state.withLock {
            $0.message = text
            guard !$0.running else { return nil }
            $0.running = true
            $0.generation += 1
            return $0.generation
        }
        guard let mine = launch else { return }
        let thread = Thread { [self] in tick(mine) }
        thread.start()
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
                write("\r\u{1B}[K" + frames[i % frames.count] + " " + $0.message)
                return true
            }
            guard live else { return }
            i += 1
            Thread.sleep(forTimeInterval: 0.08)
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
/// megabytes so far when it is not.
package enum ProgressBar {
    package static func text(_ received: Int64, of total: Int64?, width: Int = 20) -> String {
        let mb = { (bytes: Int64) in String(format: "%.1f", Double(bytes) / 1_048_576) }
        guard let total, total > 0 else { return mb(received) + " MB" }
        let fraction = min(1, max(0, Double(received) / Double(total)))
        let filled = Int((fraction * Double(width)).rounded(.down))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] "
            + String(Int((fraction * 100).rounded(.down))) + "% " + mb(received) + " of " + mb(total) + " MB"
    }
}
