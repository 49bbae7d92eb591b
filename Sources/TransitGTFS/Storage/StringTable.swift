import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Strings kept as one byte blob and offsets: thousands of names cost two arrays, not
/// thousands of objects, and load with two copies.
package struct StringTable: Sendable, Equatable {
    package var offsets = Packed<Int32>([0])
    package var bytes = Packed<UInt8>()

    package var count: Int { offsets.count - 1 }
    package var isEmpty: Bool { count == 0 }

    package mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
        offsets.append(Int32(clamping: bytes.count))
    }

    package mutating func append(_ raw: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: raw)
        offsets.append(Int32(clamping: bytes.count))
    }

    /// Every string of `table`, each after `prefix` (a combination's `feed:`).
    package mutating func append(_ table: StringTable, prefix: String = "") {
        let prefixBytes = Array(prefix.utf8), tableOffsets = table.offsets.buffer, tableBytes = table.bytes.buffer
        bytes.reserveCapacity(bytes.count + tableBytes.count + prefixBytes.count * table.count)
        for i in 0..<table.count {
            let start = Int(tableOffsets[i]), end = Int(tableOffsets[i + 1])
            prefixBytes.withUnsafeBufferPointer { bytes.append(contentsOf: $0) }
            if start >= 0, start < end, end <= tableBytes.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: tableBytes[start..<end])) }
            offsets.append(Int32(clamping: bytes.count))
        }
    }

    package subscript(i: Int) -> String {
        guard i >= 0, i + 1 < offsets.count else { return "" }
        let start = Int(offsets[i]), end = Int(offsets[i + 1])
        guard start >= 0, start <= end, end <= bytes.count else { return "" }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes.buffer[start..<end]), as: UTF8.self)
    }
}

extension StringTable {
    /// The indices whose string is exactly `text`, compared as bytes (no String per entry).
    package func indices(of text: String) -> [Int] { matches(text, all: true) }

    /// The first index whose string is `text` (for ids, which are unique): the scan stops there.
    package func firstIndex(of text: String) -> Int? { matches(text, all: false).first }

    /// One pass over the offsets, comparing bytes only where the lengths agree: a feed of a
    /// million stop ids is scanned in a millisecond or two.
    private func matches(_ text: String, all: Bool) -> [Int] {
        var text = text
        return text.withUTF8 { key in
            let offsets = offsets.buffer, blob = bytes.buffer, length = key.count
            var found: [Int] = []
            for i in 0..<count {
                let start = Int(offsets[i]), end = Int(offsets[i + 1])
                guard end - start == length, start >= 0, end <= blob.count else { continue }
                if length > 0, let a = blob.baseAddress, let b = key.baseAddress, memcmp(a + start, b, length) != 0 { continue }
                found.append(i)
                if !all { break }
            }
            return found
        }
    }
}
