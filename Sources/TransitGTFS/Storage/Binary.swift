import Foundation
import TransitSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Appends to memory, or streams to a file descriptor (the compiled feed is written without
/// a second copy of it in memory); a failed write is kept and reported once at the end.
package struct BinaryWriter {
    package var data = Data()
    package var descriptor: Int32?
    package var failure: Int32?
    package var written = 0
    /// Of every byte appended, for the file's trailer.
    package var checksum = Checksum()

    package init(descriptor: Int32? = nil) {
        self.descriptor = descriptor
    }

    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        written += bytes.count
        checksum.add(bytes)
        guard let descriptor else { data.append(contentsOf: bytes); return }
        guard failure == nil, var base = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            let n = write(descriptor, base, left)
            if n < 0 {
                if errno == EINTR { continue }
                failure = errno
                return
            }
            left -= n
            base += n
        }
    }

    package mutating func raw(_ bytes: [UInt8]) { bytes.withUnsafeBytes { append($0) } }

    package mutating func scalar<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { append($0) }
    }

    package mutating func array<T: BitwiseCopyable>(_ values: [T]) {
        scalar(Int64(values.count))
        scalar(Int64(MemoryLayout<T>.stride))
        values.withUnsafeBytes { append($0) }
        pad()
    }

    package mutating func array<T>(_ values: Packed<T>) {
        scalar(Int64(values.count))
        scalar(Int64(MemoryLayout<T>.stride))
        values.withUnsafeBytes { append($0) }
        pad()
    }

    /// Zero bytes up to the next multiple of 8.
    package mutating func pad() {
        let extra = (8 - written % 8) % 8
        if extra > 0 { raw([UInt8](repeating: 0, count: extra)) }
    }

    package mutating func string(_ text: String) { array(Array(text.utf8)) }

    package mutating func strings(_ table: StringTable) {
        array(table.offsets)
        array(table.bytes)
    }
}

/// Data at a stable address, for decoding in memory (tests, `encode` round trips).
package final class DataBox: @unchecked Sendable {
    package let storage: UnsafeMutableRawPointer
    package let bytes: UnsafeRawBufferPointer

    package init(_ data: Data) {
        storage = .allocate(byteCount: max(1, data.count), alignment: 16)
        data.copyBytes(to: storage.assumingMemoryBound(to: UInt8.self), count: data.count)
        bytes = UnsafeRawBufferPointer(start: storage, count: data.count)
    }

    deinit { storage.deallocate() }
}

package struct BinaryReader {
    package let bytes: UnsafeRawBufferPointer
    package let owner: AnyObject
    package let path: String
    package var position = 0

    package init(bytes: UnsafeRawBufferPointer, owner: AnyObject, path: String) {
        self.bytes = bytes
        self.owner = owner
        self.path = path
    }

    package func damaged() -> TransitError { .parse(what: path, reason: "the compiled timetable is cut short or damaged; import the feed again") }

    package mutating func raw(_ count: Int) throws(TransitError) -> [UInt8] {
        guard count >= 0, count <= bytes.count - position else { throw damaged() }
        defer { position += count }
        return [UInt8](UnsafeRawBufferPointer(rebasing: bytes[position..<(position + count)]))
    }

    package mutating func scalar<T: FixedWidthInteger>() throws(TransitError) -> T {
        let size = MemoryLayout<T>.size
        guard size <= bytes.count - position else { throw damaged() }
        defer { position += size }
        return T(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: T.self))
    }

    /// Where an array's values lie: checked against the file's size and alignment.
    package mutating func span<T>(_ type: T.Type) throws(TransitError) -> (offset: Int, count: Int) {
        let count: Int64 = try scalar(), stride: Int64 = try scalar()
        guard stride == Int64(MemoryLayout<T>.stride), count >= 0, count <= Int64(bytes.count) else { throw damaged() }
        let length = Int(count) * MemoryLayout<T>.stride
        guard length <= bytes.count - position else { throw damaged() }
        let offset = position
        position += length
        position += (8 - position % 8) % 8
        guard position <= bytes.count else { throw damaged() }
        return (offset, Int(count))
    }

    package mutating func array<T: BitwiseCopyable>() throws(TransitError) -> [T] {
        let (offset, count) = try span(T.self)
        let length = count * MemoryLayout<T>.stride
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            if length > 0, let target = UnsafeMutableRawPointer(buffer.baseAddress), let source = bytes.baseAddress {
                target.copyMemory(from: source + offset, byteCount: length)
            }
            initialized = count
        }
    }

    /// Past the zero bytes `BinaryWriter.pad()` wrote.
    package mutating func pad() throws(TransitError) {
        position += (8 - position % 8) % 8
        guard position <= bytes.count else { throw damaged() }
    }

    /// An array left in place (the file is mapped and aligned to 8).
    package mutating func packed<T>() throws(TransitError) -> Packed<T> {
        let (offset, count) = try span(T.self)
        guard count > 0, let base = bytes.baseAddress else { return Packed() }
        let address = base + offset
        guard Int(bitPattern: address) % MemoryLayout<T>.alignment == 0 else { throw damaged() }
        return Packed(address.assumingMemoryBound(to: T.self), count: count, owner: owner)
    }

    package mutating func string() throws(TransitError) -> String {
        let bytes: [UInt8] = try array()
        return String(decoding: bytes, as: UTF8.self)
    }

    package mutating func strings() throws(TransitError) -> StringTable {
        let table = StringTable(offsets: try packed(), bytes: try packed())
        // A table out of order reads as empty strings (the subscript checks each span), never a trap.
        guard table.offsets.first == 0, Int(table.offsets.last ?? -1) == table.bytes.count else { throw damaged() }
        return table
    }
}
