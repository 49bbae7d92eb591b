import Foundation
import TransitSupport

/// GTFS ids to dense indices, keyed by their bytes: the millions of stop_times rows look up
/// trips and stops without making a String per row. Open addressing; each slot holds the upper
/// half of the key's hash beside its index, so a probe touches one array until the key's
/// bytes are compared. A key's first slot is worked out from that half alone (its share of the
/// table), so the table doubles without hashing any key again: rehashing each key's bytes,
/// read from all over memory, was a tenth of a national feed's import.
package struct IDTable {
    package private(set) var keys = StringTable()
    /// 0: empty; else hash's upper 32 bits << 32 | (index + 1).
    private var slots: [UInt64]
    private var mask: Int

    package init(capacity: Int = 1024) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = [UInt64](repeating: 0, count: size)
        mask = size - 1
    }

    package var count: Int { keys.count }

    @inline(__always) package static func hash(_ b: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in b { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return h ^ (h >> 29)
    }

    private func equal(_ index: Int, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        keys.offsets.withUnsafeBufferPointer { offsets in
            let start = Int(offsets[index]), end = Int(offsets[index + 1])
            guard end - start == b.count, start >= 0 else { return false }
            guard let other = b.baseAddress, b.count > 0 else { return true }
            return keys.bytes.withUnsafeBufferPointer { bytes in
                guard let base = bytes.baseAddress, end <= bytes.count else { return false }
                return memcmp(base + start, other, b.count) == 0
            }
        }
    }

    /// Is `b` the key of `index`? (A cheap check of a guessed index.)
    package func matches(_ index: Int, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        index >= 0 && index < count && equal(index, b)
    }

    private func probe(_ b: UnsafeBufferPointer<UInt8>, _ h: UInt64) -> (slot: Int, index: Int?) {
        let tag = h >> 32
        return slots.withUnsafeBufferPointer { slots in
            var slot = Self.home(tag, mask)
            while true {
                let entry = slots[slot]
                if entry == 0 { return (slot, nil) }
                if entry >> 32 == tag {
                    let index = Int(entry & 0xFFFF_FFFF) - 1
                    if equal(index, b) { return (slot, index) }
                }
                slot = (slot + 1) & mask
            }
        }
    }

    package func find(_ b: UnsafeBufferPointer<UInt8>) -> Int? { probe(b, Self.hash(b)).index }

    package func find(_ text: String) -> Int? {
        var copy = text
        return copy.withUTF8 { find($0) }
    }

    /// The index of `b`, added when new; `added` says which.
    package mutating func insert(_ b: UnsafeBufferPointer<UInt8>) -> (index: Int, added: Bool) {
        let h = Self.hash(b)
        var (slot, found) = probe(b, h)
        if let found { return (found, false) }
        if (count + 1) * 2 > slots.count {
            grow()
            slot = probe(b, h).slot
        }
        let index = count
        keys.append(b)
        slots[slot] = (h >> 32) << 32 | UInt64(index + 1)
        return (index, true)
    }

    package mutating func insert(_ text: String) -> (index: Int, added: Bool) {
        var copy = text
        return copy.withUTF8 { insert($0) }
    }

    /// The first slot of a key whose hash's upper half is `tag`, in a table of `mask + 1` slots:
    /// its share of the table (`tag × size / 2³²`), so that the table can double from the tags
    /// kept. A table of over 2³² slots takes the rest from the lower bits of the tag.
    @inline(__always) private static func home(_ tag: UInt64, _ mask: Int) -> Int {
        let size = UInt64(mask) &+ 1
        return size <= 1 << 32 ? Int(truncatingIfNeeded: (tag &* size) >> 32) : Int(truncatingIfNeeded: tag) & mask
    }

    private mutating func grow() {
        let old = slots
        let size = slots.count * 2
        slots = [UInt64](repeating: 0, count: size)
        mask = size - 1
        slots.withUnsafeMutableBufferPointer { slots in
            for entry in old where entry != 0 {
                var slot = Self.home(entry >> 32, mask)
                while slots[slot] != 0 { slot = (slot + 1) & mask }
                slots[slot] = entry
            }
        }
    }
}

extension IDTable {
    /// The entries of `table` (a compiled feed's ids, each once), found by their bytes: index
    /// `i` is the table's entry `i`. nil when the table repeats an entry (then indices would shift).
    package init?(indexing table: StringTable) {
        self.init(capacity: table.count)
        for i in 0..<table.count {
            guard table.withBytes(i, { insert($0).added }) else { return nil }
        }
    }
}

extension StringTable {
    /// The bytes of string `i`, without making a String.
    package func withBytes<R>(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let start = Int(offsets[i]), end = Int(offsets[i + 1])
        guard start >= 0, start <= end, end <= bytes.count else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<end])) }
    }

    /// Is string `i` exactly `text`? (Bytes compared; no String made.)
    package func equals(_ i: Int, _ text: String) -> Bool {
        guard i >= 0, i < count else { return false }
        var text = text
        return text.withUTF8 { key in withBytes(i) { FieldBytes.same($0, key) } }
    }
}
