/// XXH64 (Yann Collet's xxHash, 64-bit, seed 0): the compiled file's checksum. Fast enough to
/// read a whole mapped feed at every load (about 8 bytes a cycle; dense81's 54 MB in a few
/// milliseconds, see docs/performance.md), and any flipped bit changes it. Fed in pieces as the
/// file is written, so the writer never holds the file in memory.
package struct Checksum {
    private static let p1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let p3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let p4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let p5: UInt64 = 0x27D4_EB2F_1656_67C5

    private var lanes: (UInt64, UInt64, UInt64, UInt64) = (p1 &+ p2, p2, 0, 0 &- p1)
    /// Bytes not yet a whole stripe of 32.
    private var pending: [UInt8] = []
    private var total: UInt64 = 0

    package init() {}

    /// The checksum of `bytes` at once.
    package static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var sum = Checksum()
        sum.add(bytes)
        return sum.value
    }

    private static func round(_ acc: UInt64, _ input: UInt64) -> UInt64 {
        let a = acc &+ input &* p2
        return ((a << 31) | (a >> 33)) &* p1
    }

    private static func merge(_ acc: UInt64, _ lane: UInt64) -> UInt64 {
        (acc ^ round(0, lane)) &* p1 &+ p4
    }

    package mutating func add(_ bytes: UnsafeRawBufferPointer) {
        guard var base = bytes.baseAddress, !bytes.isEmpty else { return }
        var left = bytes.count
        total &+= UInt64(left)
        if !pending.isEmpty {
            let take = min(32 - pending.count, left)
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base, count: take))
            base += take
            left -= take
            guard pending.count == 32 else { return }
            pending.withUnsafeBytes { stripes($0.baseAddress, 32) }
            pending.removeAll(keepingCapacity: true)
        }
        let whole = left - left % 32
        stripes(base, whole)
        pending.append(contentsOf: UnsafeRawBufferPointer(start: base + whole, count: left - whole))
    }

    /// Whole 32-byte stripes, four lanes of 8 bytes each.
    private mutating func stripes(_ start: UnsafeRawPointer?, _ count: Int) {
        guard let start, count >= 32 else { return }
        var (v1, v2, v3, v4) = lanes
        var offset = 0
        while offset + 32 <= count {
            v1 = Self.round(v1, UInt64(littleEndian: start.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            v2 = Self.round(v2, UInt64(littleEndian: start.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)))
            v3 = Self.round(v3, UInt64(littleEndian: start.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)))
            v4 = Self.round(v4, UInt64(littleEndian: start.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)))
            offset += 32
        }
        lanes = (v1, v2, v3, v4)
    }

    package var value: UInt64 {
        var h: UInt64
        if total >= 32 {
            let (v1, v2, v3, v4) = lanes
            h = ((v1 << 1) | (v1 >> 63)) &+ ((v2 << 7) | (v2 >> 57)) &+ ((v3 << 12) | (v3 >> 52)) &+ ((v4 << 18) | (v4 >> 46))
            h = Self.merge(h, v1)
            h = Self.merge(h, v2)
            h = Self.merge(h, v3)
            h = Self.merge(h, v4)
        } else {
            h = Self.p5
        }
        h &+= total
        var i = 0
        let tail = pending
        while i + 8 <= tail.count {
            var word: UInt64 = 0
            for k in 0..<8 { word |= UInt64(tail[i + k]) << (8 * UInt64(k)) }
            h ^= Self.round(0, word)
            h = ((h << 27) | (h >> 37)) &* Self.p1 &+ Self.p4
            i += 8
        }
        if i + 4 <= tail.count {
            var word: UInt64 = 0
            for k in 0..<4 { word |= UInt64(tail[i + k]) << (8 * UInt64(k)) }
            h ^= word &* Self.p1
            h = ((h << 23) | (h >> 41)) &* Self.p2 &+ Self.p3
            i += 4
        }
        while i < tail.count {
            h ^= UInt64(tail[i]) &* Self.p5
            h = ((h << 11) | (h >> 53)) &* Self.p1
            i += 1
        }
        h ^= h >> 33
        h = h &* Self.p2
        h ^= h >> 29
        h = h &* Self.p3
        h ^= h >> 32
        return h
    }
}
