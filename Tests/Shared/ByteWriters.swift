import Foundation
@testable import TransitGTFS

// Bytes written by hand for the tests of both libraries: protobuf fields, OpenStreetMap PBF
// files, and the deterministic noise the fuzzers mutate samples with.

/// A small deterministic random source for noise.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The mutations, each from a real sample.
enum Mutator {
    static let kinds = ["flip", "truncate", "delete", "duplicate", "huge-number", "wrong-type", "nest", "invalid-utf8"]

    static func mutate(_ data: Data, _ g: inout SplitMix) -> Data { mutateNamed(data, &g).1 }

    static func mutateNamed(_ data: Data, _ g: inout SplitMix) -> (String, Data) {
        let kind = kinds[Int(g.next() % UInt64(kinds.count))]
        var bytes = [UInt8](data)
        guard !bytes.isEmpty else { return (kind, Data([0xFF])) }
        func at() -> Int { Int(g.next() % UInt64(bytes.count)) }
        switch kind {
        case "flip":
            for _ in 0..<(1 + Int(g.next() % 8)) { bytes[at()] ^= UInt8(1 << (g.next() % 8)) }
            if bytes == [UInt8](data) { bytes[0] ^= 0x80 }
        case "truncate":
            bytes = Array(bytes.prefix(at()))
        case "delete":
            let start = at(), length = 1 + Int(g.next() % UInt64(max(1, bytes.count / 8)))
            bytes.removeSubrange(start..<min(bytes.count, start + length))
        case "duplicate":
            let start = at(), length = 1 + Int(g.next() % UInt64(max(1, bytes.count / 8)))
            let chunk = bytes[start..<min(bytes.count, start + length)]
            bytes.insert(contentsOf: chunk, at: at())
        case "huge-number":
            let huge = Array(["99999999999999999999999999", "-9223372036854775809", "1e400", "NaN", "18446744073709551616"][Int(g.next() % 5)].utf8)
            if let digit = bytes.indices.dropFirst(at()).first(where: { (48...57).contains(bytes[$0]) }) ?? bytes.firstIndex(where: { (48...57).contains($0) }) {
                var end = digit
                while end < bytes.count && (48...57).contains(bytes[end]) { end += 1 }
                bytes.replaceSubrange(digit..<end, with: huge)
            } else {
                bytes.insert(contentsOf: huge, at: at())
            }
        case "wrong-type":
            let replacement = Array(["{}", "[]", "null", "true", "123", "\"x\"", "[{\"a\":[]}]"][Int(g.next() % 7)].utf8)
            // Replace a quoted value (or a number) after a colon; else after a `>`.
            let colons = bytes.indices.filter { bytes[$0] == 58 || bytes[$0] == 62 }
            if let colon = colons.isEmpty ? nil : colons[Int(g.next() % UInt64(colons.count))], colon + 1 < bytes.count {
                var end = colon + 1
                if bytes[end] == 34 {
                    end += 1
                    while end < bytes.count && bytes[end] != 34 { end += 1 }
                    end = min(bytes.count, end + 1)
                } else {
                    while end < bytes.count && ![44, 125, 93, 60].contains(bytes[end]) { end += 1 }
                }
                bytes.replaceSubrange((colon + 1)..<end, with: replacement)
            } else {
                bytes.insert(contentsOf: replacement, at: at())
            }
        case "nest":
            let json = bytes.first == 123 || bytes.first == 91
            return (kind, nest(Data(bytes), depth: 300 + Int(g.next() % 5000), json: json))
        default:  // invalid UTF-8
            let bad: [[UInt8]] = [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]]
            bytes.insert(contentsOf: bad[Int(g.next() % UInt64(bad.count))], at: at())
        }
        return (kind, Data(bytes))
    }

    /// `data` inside `depth` arrays (JSON) or elements (XML, after any declaration).
    static func nest(_ data: Data, depth: Int, json: Bool) -> Data {
        if json { return Data(repeating: 91, count: depth) + data + Data(repeating: 93, count: depth) }
        var text = String(decoding: data, as: UTF8.self)
        var declaration = ""
        if text.hasPrefix("<?xml"), let end = text.range(of: "?>") {
            declaration = String(text[..<end.upperBound])
            text = String(text[end.upperBound...])
        }
        return Data((declaration + String(repeating: "<a>", count: depth) + text + String(repeating: "</a>", count: depth)).utf8)
    }
}

/// A hand-written protobuf (GTFS-Realtime, OpenStreetMap PBF): a type that adopts this writes
/// fields with its own static functions (`field(1, "2.0")`).
protocol ProtobufWriting {}

extension ProtobufWriting {
    /// A hand-written protobuf field: its key, then a varint or a length and the bytes.
    static func varint(_ value: UInt64) -> [UInt8] {
        var out: [UInt8] = [], v = value
        repeat {
            out.append(UInt8(v & 0x7F) | (v > 0x7F ? 0x80 : 0))
            v >>= 7
        } while v > 0
        return out
    }
    static func field(_ number: Int, _ value: UInt64) -> [UInt8] { varint(UInt64(number << 3)) + varint(value) }
    static func field(_ number: Int, _ bytes: [UInt8]) -> [UInt8] { varint(UInt64(number << 3 | 2)) + varint(UInt64(bytes.count)) + bytes }
    static func field(_ number: Int, _ text: String) -> [UInt8] { field(number, Array(text.utf8)) }
}

enum Protowire: ProtobufWriting {}

/// OpenStreetMap PBF files written by hand: blobs behind their headers, raw or packed.
protocol PBFWriting: ProtobufWriting {}

extension PBFWriting {
    static func zigzag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
    static func packed(_ values: [UInt64]) -> [UInt8] { values.flatMap(varint) }

    /// A file of blobs written here: (type, blob message) each behind its BlobHeader.
    static func file(_ blobs: [(String, [UInt8])]) -> Data {
        var out: [UInt8] = []
        for (type, blob) in blobs {
            let header = field(1, type) + field(3, UInt64(blob.count))
            out += withUnsafeBytes(of: UInt32(header.count).bigEndian) { Array($0) } + header + blob
        }
        return Data(out)
    }

    static func header(_ required: [String] = ["OsmSchema-V0.6"]) -> [UInt8] {
        required.flatMap { field(4, $0) } + field(16, "transit-tests")
    }

    /// A data block, raw: two plain nodes (granularity 1000, offsets), a way with tags, a relation.
    static func block() -> [UInt8] {
        let strings = field(1, [UInt8]()) + field(1, "highway") + field(1, "footway") + field(1, "foot") + field(1, "no")
        let node1 = field(1, zigzag(10)) + field(8, zigzag(41_000_000)) + field(9, zigzag(-87_000_000))
        let node2 = field(1, zigzag(11)) + field(8, zigzag(41_001_000)) + field(9, zigzag(-87_000_000))
        let way = field(1, UInt64(5)) + field(2, packed([1])) + field(3, packed([2])) + field(8, packed([zigzag(10), zigzag(1)]))
        let closed = field(1, UInt64(6)) + field(2, packed([1, 3])) + field(3, packed([2, 4])) + field(8, packed([zigzag(10), zigzag(1)]))
        let group = field(1, node1) + field(1, node2) + field(3, way) + field(3, closed) + field(4, field(1, UInt64(1)))
        return field(1, strings) + field(2, group) + field(17, UInt64(1000)) + field(19, UInt64(bitPattern: 5_000))
    }

    static func raw(_ message: [UInt8]) -> [UInt8] { field(1, message) + field(2, UInt64(message.count)) }

    /// `data` with every blob unpacked and written raw: mutations of it reach the block parser
    /// (a flipped bit in zlib data only reaches zlib).
    static func rawCopy(_ data: Data) -> Data {
        var blobs: [(String, [UInt8])] = []
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var position = 0
            while position + 4 <= bytes.count {
                let length = Int(bytes[position]) << 24 | Int(bytes[position + 1]) << 16 | Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
                position += 4
                var reader = ProtobufReader(bytes, range: position..<min(bytes.count, position + length))
                var type = "", size = 0
                while let (field, value) = try? reader.next() {
                    if field == 1, case .bytes(let r) = value { type = reader.string(r) }
                    if field == 3, case .varint(let v) = value { size = Int(v) }
                }
                position += length
                var budget = Int.max
                guard let unpacked = try? PBFReader.unpack(bytes, position..<min(bytes.count, position + size), what: "x", budget: &budget) else { return }
                blobs.append((type, raw(unpacked)))
                position += size
            }
        }
        return file(blobs)
    }
}

enum PBFWriter: PBFWriting {}
