import Foundation

/// A progress line on stderr, only on a terminal, only after ~100 ms, and cleared when done.
/// It ticks on a thread of its own, so parsing that keeps the async pool busy cannot freeze it.
public final class Spinner: @unchecked Sendable {
    private let lock = NSLock()
    private var message = ""
    private var running = false
    private var drawn = false
    private var generation = 0
    private let enabled: Bool
    private let write: @Sendable (String) -> Void

    public init(enabled: Bool, write: @escaping @Sendable (String) -> Void) {
        self.enabled = enabled
        self.write = write
    }

    public func start(_ text: String) {
        guard enabled else { return }
        let launch: Int? = lock.withLock {
            message = text
            guard !running else { return nil }
            running = true
            generation += 1
            return generation
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
            let live: Bool = lock.withLock {
                guard running, generation == mine else { return false }
                drawn = true
                write("\r\u{1B}[K" + frames[i % frames.count] + " " + message)
                return true
            }
            guard live else { return }
            i += 1
            Thread.sleep(forTimeInterval: 0.08)
        }
    }

    public func update(_ text: String) {
        lock.withLock { message = text }
    }

    public func stop() {
        guard enabled else { return }
        lock.withLock {
            running = false
            if drawn { write("\r\u{1B}[K") }
            drawn = false
        }
    }
}
