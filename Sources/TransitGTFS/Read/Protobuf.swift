import Foundation
import TransitSupport

/// The protobuf wire format, read by hand (no packages): a message is `(key, value)` pairs up to
/// the end of its byte range, `key = varint(field << 3 | wire type)`. Values are read where they
/// lie; nested messages are ranges of the same buffer, read by another `ProtobufReader`.
///
/// Every length is checked against the bytes that remain, a varint has at most 10 bytes (the
/// tenth at most 1), and groups (wire types 3 and 4, deprecated) and the wire types that do not
/// exist (6, 7) are errors, each naming the byte where it happened.
package struct ProtobufReader {
    package enum Value {
        case varint(UInt64)
        case fixed64(UInt64)
        case bytes(Range<Int>)
        case fixed32(UInt32)
    }

    package struct Failure: Error, Equatable {
        package var reason: String
        package var offset: Int
    }

    package let bytes: UnsafeRawBufferPointer
    package private(set) var position: Int
    package let end: Int

    package init(_ bytes: UnsafeRawBufferPointer, range: Range<Int>? = nil) {
        self.bytes = bytes
        let whole = 0..<bytes.count
        let range = range.map { $0.clamped(to: whole) } ?? whole
        position = range.lowerBound
        end = range.upperBound
    }

    /// The next field, or nil at the end of the message. Inlined: each message's reader then
    /// matches the value where it is made, instead of building and taking apart an enum.
    @inline(__always) package mutating func next() throws(Failure) -> (field: Int, value: Value)? {
        guard position < end else { return nil }
        let at = position
        let key = try varint()
        let field = Int(truncatingIfNeeded: key >> 3)
        guard field > 0, key >> 3 <= 536_870_911 else { throw Failure(reason: "field number \(key >> 3) is not one", offset: at) }
        switch key & 7 {
        case 0: return (field, .varint(try varint()))
        case 1: return (field, .fixed64(try fixed(8)))
        case 2:
            let lengthAt = position
            let length = try varint()
            guard length <= UInt64(end - position) else {
                throw Failure(reason: "a length of \(length) bytes runs past the end of its message", offset: lengthAt)
            }
            let start = position
            position += Int(length)
            return (field, .bytes(start..<position))
        case 5: return (field, .fixed32(UInt32(truncatingIfNeeded: try fixed(4))))
        case let wire: throw Failure(reason: wire == 3 || wire == 4 ? "a group (wire type \(wire)), which GTFS-Realtime does not use" : "wire type \(wire), which does not exist", offset: at)
        }
    }

    @inline(__always) private mutating func varint() throws(Failure) -> UInt64 {
        // Most varints of a feed (keys, small numbers) are one byte.
        if position < end {
            let byte = bytes[position]
            if byte < 0x80 {
                position += 1
                return UInt64(byte)
            }
        }
        return try longVarint()
    }

    private mutating func longVarint() throws(Failure) -> UInt64 {
        let start = position
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < end else { throw Failure(reason: "a number runs past the end of its message", offset: start) }
            let byte = bytes[position]
            position += 1
            // The tenth byte holds one bit (64 = 9 × 7 + 1).
            if shift == 63 && byte > 1 { throw Failure(reason: "a number longer than 64 bits", offset: start) }
            value |= UInt64(byte & 0x7f) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
            if shift > 63 { throw Failure(reason: "a number of more than 10 bytes", offset: start) }
        }
    }

    private mutating func fixed(_ count: Int) throws(Failure) -> UInt64 {
        guard end - position >= count else { throw Failure(reason: "a \(count * 8)-bit value runs past the end of its message", offset: position) }
        var value: UInt64 = 0
        for i in 0..<count { value |= UInt64(bytes[position + i]) << (8 * UInt64(i)) }
        position += count
        return value
    }

    /// Whether the range is read to its end (for packed values: a reader over their range).
    package var atEnd: Bool { position >= end }

    /// The next varint of a packed run (`[packed = true]` repeated numbers: varints back to back,
    /// no keys), read with a reader over the run's range until `atEnd`.
    @inline(__always) package mutating func packedVarint() throws(Failure) -> UInt64 { try varint() }

    /// A sint32/sint64 (zigzag) value: 0, -1, 1, -2 … as 0, 1, 2, 3 ….
    @inline(__always) package static func zigzag(_ v: UInt64) -> Int64 { Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1) }

    /// A nested message's reader.
    package func message(_ range: Range<Int>) -> ProtobufReader { ProtobufReader(bytes, range: range) }

    /// Text as UTF-8, invalid bytes replaced (BKK's "Kampstraße" is valid; hostile input may not be).
    package func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range.clamped(to: 0..<bytes.count)]), as: UTF8.self)
    }
}

extension ProtobufReader.Value {
    /// uint32, uint64, bool and enum fields; nil for another wire type.
    package var unsigned: UInt64? { if case .varint(let v) = self { v } else { nil } }
    /// int32 (a negative one is a 10-byte varint, not zigzag: truncate).
    package var int32: Int32? { unsigned.map { Int32(truncatingIfNeeded: $0) } }
    package var int64: Int64? { unsigned.map { Int64(bitPattern: $0) } }
    package var bool: Bool? { unsigned.map { $0 != 0 } }
    /// float fields (latitude, longitude, bearing, speed), widened.
    package var float: Double? { if case .fixed32(let v) = self { Double(Float(bitPattern: v)) } else { nil } }
    package var double: Double? { if case .fixed64(let v) = self { Double(bitPattern: v) } else { nil } }
    package var range: Range<Int>? { if case .bytes(let r) = self { r } else { nil } }
}
