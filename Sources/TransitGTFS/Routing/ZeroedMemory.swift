#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Per-stop and per-pattern scratch in memory `calloc` hands out zeroed: a large block comes
/// from the kernel as pages that cost nothing until touched, so a search pays for the stops it
/// reaches, not for filling an entry per stop of the feed. A one-hour query on a feed of a
/// million stops filled 50 MB before its first departure (a fifth of its time; issue 32).
/// Freed by its owner (`release()`), which is a class with a `deinit`.
package struct Zeroed<T: BitwiseCopyable> {
    private let memory: UnsafeMutableBufferPointer<T>

    /// `count` values whose bytes are all zero (false, 0).
    package init(_ count: Int) {
        let n = max(1, count)
        if let raw = calloc(n, MemoryLayout<T>.stride) {
            memory = UnsafeMutableBufferPointer(start: raw.bindMemory(to: T.self, capacity: n), count: n)
        } else {
            // calloc refused (no memory): allocate and zero it, which fails the same way as any allocation.
            let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: n * MemoryLayout<T>.stride, alignment: MemoryLayout<T>.alignment)
            raw.initializeMemory(as: UInt8.self, repeating: 0)
            memory = raw.bindMemory(to: T.self)
        }
    }

    @inline(__always) package subscript(index: Int) -> T {
        get { memory[index] }
        nonmutating set { memory[index] = newValue }
    }

    package func release() { free(memory.baseAddress) }
}

/// Int32s that read -1 until written (none: no slot, no entry, not queued), in zeroed memory:
/// each is kept complemented (~x), so a byte never written reads as -1.
package struct UnsetInt32s {
    private let memory: Zeroed<Int32>

    package init(_ count: Int) { memory = Zeroed(count) }

    @inline(__always) package subscript(index: Int) -> Int32 {
        get { ~memory[index] }
        nonmutating set { memory[index] = ~newValue }
    }

    package func release() { memory.release() }
}

extension Array {
    /// Emptied, its storage kept: `removeAll(keepingCapacity:)` is a generic `replaceSubrange`
    /// (70 instructions) even where the array is empty already, as a search's marks often are
    /// at the scan of each round of each departure (issue 67).
    @inline(__always) mutating func clear() {
        if !isEmpty { removeAll(keepingCapacity: true) }
    }
}
