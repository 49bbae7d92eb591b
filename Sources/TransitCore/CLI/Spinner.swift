import Foundation

/// A progress line on stderr, only on a terminal, only after ~100 ms, and cleared when done.
public final class Spinner: @unchecked Sendable {
    private let lock = NSLock()
    private var message = ""
    private var running = false
    private var drawn = false
    private let enabled: Bool
    private let write: @Sendable (String) -> Void
    private var task: Task<Void, Never>?

    public init(enabled: Bool, write: @escaping @Sendable (String) -> Void) {
        self.enabled = enabled
        self.write = write
    }

    public func start(_ text: String) {
        guard enabled else { return }
        lock.lock()
        message = text
        let already = running
        running = true
        lock.unlock()
        guard !already else { return }
        task = Task.detached { [self] in
            let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
            try? await Task.sleep(nanoseconds: 100_000_000)
            var i = 0
            while !Task.isCancelled {
                let (live, text) = lock.withLock { () -> (Bool, String) in
                    if running { drawn = true }
                    return (running, message)
                }
                guard live else { return }
                write("\r\u{1B}[K" + frames[i % frames.count] + " " + text)
                i += 1
                try? await Task.sleep(nanoseconds: 80_000_000)
            }
        }
    }

    public func update(_ text: String) {
        lock.lock()
        message = text
        lock.unlock()
    }

    public func stop() {
        guard enabled else { return }
        lock.lock()
        running = false
        let wasDrawn = drawn
        drawn = false
        lock.unlock()
        task?.cancel()
        task = nil
        if wasDrawn { write("\r\u{1B}[K") }
    }
}
