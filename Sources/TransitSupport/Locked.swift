import Foundation

/// A value behind a lock: the one way mutable state is shared between threads here.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, under the lock.
    @discardableResult
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the value.
    public var current: Value { withLock { $0 } }
}

/// A value worked out on first use, once, under a lock.
public final class Deferred<Value>: @unchecked Sendable {
    private enum State {
        case pending(() -> Value)
        case done(Value)
    }
    private let state: Locked<State>

    public init(_ make: @escaping () -> Value) { state = Locked(.pending(make)) }
    public init(value: Value) { state = Locked(.done(value)) }

    /// Whether the value was made (asked for) already.
    public var isMade: Bool {
        state.withLock { state in
            if case .done = state { return true }
            return false
        }
    }

    public var value: Value {
        state.withLock { state in
            switch state {
            case .done(let value):
                return value
            case .pending(let make):
                let value = make()
                state = .done(value)
                return value
            }
        }
    }
}
