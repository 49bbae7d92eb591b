/// GTFS ids to dense indices, keyed by their bytes: the millions of stop_times rows look up
/// trips and stops without making a String per row.
struct IDTable {
    private(set) var keys = StringTable()
    private var slots: [Int32]
    private var hashes: [UInt64] = []
    private var mask: Int

    init(capacity: Int = 1024) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = [Int32](repeating: -1, count: size)
        mask = size - 1
    }

    var count: Int { keys.count }

    static func hash(_ b: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in b { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return h
    }

    private func equal(_ index: Int, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = Int(keys.offsets[index]), end = Int(keys.offsets[index + 1])
        guard end - start == b.count else { return false }
        var i = 0
        while i < b.count {
            if keys.bytes[start + i] != b[i] { return false }
            i += 1
        }
        return true
    }

    func find(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        let h = Self.hash(b)
        var slot = Int(truncatingIfNeeded: h) & mask
        while true {
            let index = Int(slots[slot])
            if index < 0 { return nil }
            if hashes[index] == h && equal(index, b) { return index }
            slot = (slot + 1) & mask
        }
    }

    func find(_ text: String) -> Int? {
        var copy = text
        return copy.withUTF8 { find($0) }
    }

    /// The index of `b`, added when new; `added` says which.
    mutating func insert(_ b: UnsafeBufferPointer<UInt8>) -> (index: Int, added: Bool) {
        if let index = find(b) { return (index, false) }
        if (count + 1) * 2 > slots.count { grow() }
        let h = Self.hash(b)
        let index = count
        keys.append(b)
        hashes.append(h)
        var slot = Int(truncatingIfNeeded: h) & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(index)
        return (index, true)
    }

    mutating func insert(_ text: String) -> (index: Int, added: Bool) {
        var copy = text
        return copy.withUTF8 { insert($0) }
    }

    private mutating func grow() {
        let size = slots.count * 2
        slots = [Int32](repeating: -1, count: size)
        mask = size - 1
        for (index, h) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: h) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index)
        }
    }
}
