import Foundation
import TransitSupport
import CZlib

/// An OpenStreetMap PBF file, read by our own code (the protobuf reader and the system zlib):
/// a sequence of (4-byte big-endian length, BlobHeader, Blob), the first blob an `OSMHeader`,
/// then `OSMData` blocks of nodes (plain or dense), ways and relations. Each element is handed
/// to the caller as it is decoded; nothing but one block is held.
///
/// Bounds, as the format sets them: a BlobHeader under 64 KiB, a blob under 32 MiB packed and
/// unpacked; and ours: the blobs of a file unpack to at most `maxRatio` times its size plus
/// `unpackSlack` (the pack's extracts unpack 1.5 to 2.4 times; 262 KB of repeated dense nodes
/// made 2.8 GB), so that a map under 10 MB stays under 1 GB of nodes. A truncated or damaged file, a blob packed with lzma (or another codec), a feature
/// this reader does not know in `required_features`: an error naming the file and the byte.
package struct PBFReader {
    package static let maxHeader = 64 * 1024
    package static let maxBlob = 32 * 1024 * 1024
    package static let maxRatio = 10, unpackSlack = 16 * 1024 * 1024
    /// What a file may require: the schema, and dense nodes (which we read).
    package static let knownFeatures: Set<String> = ["OsmSchema-V0.6", "DenseNodes"]

    package struct Header: Equatable {
        package var requiredFeatures: [String] = []
        package var optionalFeatures: [String] = []
        package var writingProgram: String?
    }

    /// A node: its id, and its place in 1e-7 degrees (OpenStreetMap's own precision).
    package struct Node: Equatable {
        package var id: Int64
        package var latitude: Int32
        package var longitude: Int32
    }

    /// A way's tags a walking network reads, by key (nil: the way does not have it).
    package struct WayTags: Equatable {
        package var highway: String?
        package var area: String?
        package var access: String?
        package var foot: String?
        package var service: String?
        /// `railway=platform` and `public_transport=platform` make a platform as `highway=platform` does.
        package var railway: String?
        package var publicTransport: String?
        /// What the step-free profile reads (`wheelchair=no`).
        package var wheelchair: String?

        package init(highway: String? = nil, area: String? = nil, access: String? = nil, foot: String? = nil, service: String? = nil,
                     railway: String? = nil, publicTransport: String? = nil, wheelchair: String? = nil) {
            self.highway = highway
            self.area = area
            self.access = access
            self.foot = foot
            self.service = service
            self.railway = railway
            self.publicTransport = publicTransport
            self.wheelchair = wheelchair
        }
    }

    /// What reading hands over, element by element.
    package struct Visitor {
        package var node: (Node) -> Void = { _ in }
        package var way: (_ id: Int64, _ refs: [Int64], _ tags: WayTags) -> Void = { _, _, _ in }
        package var relation: () -> Void = {}
        /// After each blob: the bytes of the file read so far, of its size (for progress).
        package var blob: (_ read: Int, _ of: Int) -> Void = { _, _ in }

        package init(node: @escaping (Node) -> Void = { _ in }, way: @escaping (Int64, [Int64], WayTags) -> Void = { _, _, _ in },
                     relation: @escaping () -> Void = {}, blob: @escaping (Int, Int) -> Void = { _, _ in }) {
            self.node = node
            self.way = way
            self.relation = relation
            self.blob = blob
        }
    }

    /// Reads the file at `path`, handing every element to `visitor`; returns the header.
    package static func read(_ path: String, _ visitor: Visitor) throws(TransitError) -> Header {
        let file = try MappedFile(path)
        return try read(file.bytes, what: path, visitor)
    }

    package static func read(_ bytes: UnsafeRawBufferPointer, what: String, _ visitor: Visitor) throws(TransitError) -> Header {
        func fail(_ reason: String, _ at: Int) -> TransitError { .parse(what: what, reason: "\(reason) (byte \(at)); is it an OpenStreetMap .osm.pbf file?") }
        var position = 0, header: Header?
        // What the file's blobs may unpack to, in all.
        var budget = maxRatio * bytes.count + unpackSlack
        while position < bytes.count {
            let start = position
            guard bytes.count - position >= 4 else { throw fail("the file ends inside a blob's length", start) }
            let length = Int(bytes[position]) << 24 | Int(bytes[position + 1]) << 16 | Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            position += 4
            guard length > 0, length < maxHeader, length <= bytes.count - position else { throw fail("a blob header of \(length) bytes", start) }
            var type = "", dataSize = -1
            var reader = ProtobufReader(bytes, range: position..<(position + length))
            do {
                while let (field, value) = try reader.next() {
                    switch (field, value) {
                    case (1, .bytes(let r)): type = reader.string(r)
                    case (3, .varint(let v)): dataSize = Int(clamping: v)
                    default: continue
                    }
                }
            } catch {
                throw fail("a damaged blob header: \(error.reason)", error.offset)
            }
            position += length
            guard dataSize >= 0, dataSize <= maxBlob, dataSize <= bytes.count - position else {
                throw fail(dataSize > maxBlob ? "a blob of \(dataSize) bytes, past the format's 32 MiB" : "the file ends inside a blob (cut short?)", start)
            }
            let blob = position..<(position + dataSize)
            position += dataSize
            let data = try unpack(bytes, blob, what: what, budget: &budget)
            switch type {
            case "OSMHeader":
                guard header == nil else { throw fail("a second OSMHeader", start) }
                let read = try data.withUnsafeBytes { block in Result { () throws(TransitError) in try readHeader(block, what: what, at: blob.lowerBound) } }.get()
                if let unknown = read.requiredFeatures.first(where: { !knownFeatures.contains($0) }) {
                    throw .parse(what: what, reason: "it requires the feature '\(unknown.prefix(80))', which transit does not read")
                }
                header = read
            case "OSMData":
                guard header != nil else { throw fail("data before the OSMHeader", start) }
                let outcome = data.withUnsafeBytes { block in Result { () throws(ProtobufReader.Failure) in try readBlock(block, visitor) } }
                if case .failure(let error) = outcome { throw fail("a damaged data block: \(error.reason)", blob.lowerBound) }
            default:
                break  // unknown blob types are skipped, as the format says
            }
            visitor.blob(position, bytes.count)
        }
        guard let header else { throw .parse(what: what, reason: "it has no OSMHeader; is it an OpenStreetMap .osm.pbf file?") }
        return header
    }

    /// A blob's bytes: raw, or inflated from zlib (lzma and the others refused by name).
    /// `budget`: the bytes the file's blobs may still unpack to, less this one's.
    static func unpack(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, what: String, budget: inout Int) throws(TransitError) -> [UInt8] {
        var reader = ProtobufReader(bytes, range: range)
        var raw: Range<Int>?, zlib: Range<Int>?, rawSize = -1, codec: String?
        do {
            while let (field, value) = try reader.next() {
                switch (field, value) {
                case (1, .bytes(let r)): raw = r
                case (2, .varint(let v)): rawSize = Int(clamping: v)
                case (3, .bytes(let r)): zlib = r
                case (4, .bytes): codec = "lzma"
                case (5, .bytes): codec = "bzip2"
                case (6, .bytes): codec = "lz4"
                case (7, .bytes): codec = "zstd"
                default: continue
                }
            }
        } catch {
            throw .parse(what: what, reason: "a damaged blob: \(error.reason) (byte \(error.offset))")
        }
        if let raw { return [UInt8](UnsafeRawBufferPointer(rebasing: bytes[raw])) }
        if let zlib {
            guard rawSize >= 0, rawSize <= maxBlob else { throw .parse(what: what, reason: "a blob says it unpacks to \(rawSize) bytes (byte \(range.lowerBound))") }
            guard rawSize <= budget else {
                throw .parse(what: what, reason: "its blobs would unpack to more than \(maxRatio) times the file's \(bytes.count) bytes (byte \(range.lowerBound)); a map packs about 2 times")
            }
            budget -= rawSize
            var out = [UInt8](repeating: 0, count: max(1, rawSize))
            var produced = uLongf(rawSize)
            let status = out.withUnsafeMutableBufferPointer { target in
                uncompress(target.baseAddress, &produced, bytes.baseAddress.map { $0.assumingMemoryBound(to: Bytef.self) + zlib.lowerBound }, uLong(zlib.count))
            }
            guard status == Z_OK, Int(produced) == rawSize else {
                throw .parse(what: what, reason: "a zlib blob does not unpack to its \(rawSize) bytes (zlib \(status), byte \(range.lowerBound))")
            }
            out.removeSubrange(rawSize...)
            return out
        }
        if let codec { throw .parse(what: what, reason: "a blob is packed with \(codec), which transit does not read (osmium cat -f pbf rewrites it with zlib)") }
        throw .parse(what: what, reason: "a blob holds no data (byte \(range.lowerBound))")
    }

    static func readHeader(_ block: UnsafeRawBufferPointer, what: String, at: Int) throws(TransitError) -> Header {
        var header = Header()
        var reader = ProtobufReader(block)
        do {
            while let (field, value) = try reader.next() {
                switch (field, value) {
                case (4, .bytes(let r)): header.requiredFeatures.append(reader.string(r))
                case (5, .bytes(let r)): header.optionalFeatures.append(reader.string(r))
                case (16, .bytes(let r)): header.writingProgram = reader.string(r)
                default: continue
                }
            }
        } catch {
            throw .parse(what: what, reason: "a damaged OSMHeader: \(error.reason) (byte \(at))")
        }
        return header
    }

    /// Keys a walking network reads, found in a block's string table once.
    enum Key: Int { case highway, area, access, foot, service, railway, publicTransport, wheelchair }
    static let keyNames: [[UInt8]] = ["highway", "area", "access", "foot", "service", "railway", "public_transport", "wheelchair"].map { Array($0.utf8) }

    /// One `PrimitiveBlock`: its string table, granularity and offsets, then its groups.
    static func readBlock(_ block: UnsafeRawBufferPointer, _ visitor: Visitor) throws(ProtobufReader.Failure) {
        var reader = ProtobufReader(block)
        var strings: [Range<Int>] = [], groups: [Range<Int>] = []
        var granularity: Int64 = 100, latOffset: Int64 = 0, lonOffset: Int64 = 0
        while let (field, value) = try reader.next() {
            switch (field, value) {
            case (1, .bytes(let r)):
                var table = reader.message(r)
                while let (f, v) = try table.next() { if f == 1, case .bytes(let s) = v { strings.append(s) } }
            case (2, .bytes(let r)): groups.append(r)
            case (17, .varint(let v)): granularity = Int64(truncatingIfNeeded: v)
            case (19, .varint(let v)): latOffset = Int64(bitPattern: v)
            case (20, .varint(let v)): lonOffset = Int64(bitPattern: v)
            default: continue
            }
        }
        // Which string-table entry is which key: -1 where the block has none.
        var keyIndex = [Int](repeating: -1, count: keyNames.count)
        for (i, s) in strings.enumerated() {
            for (k, name) in keyNames.enumerated() where keyIndex[k] < 0 && s.count == name.count
                && name.withUnsafeBytes({ $0.elementsEqual(UnsafeRawBufferPointer(rebasing: block[s])) }) {
                keyIndex[k] = i
            }
        }
        func string(_ index: UInt64) -> String? {
            guard index < UInt64(strings.count) else { return nil }
            return reader.string(strings[Int(index)])
        }
        // 1e-9 degrees: offset + granularity × value; as 1e-7 degrees, nil when off the Earth.
        func place(_ lat: Int64, _ lon: Int64) -> (Int32, Int32)? {
            let a = latOffset.addingReportingOverflow(granularity.multipliedReportingOverflow(by: lat).partialValue)
            let b = lonOffset.addingReportingOverflow(granularity.multipliedReportingOverflow(by: lon).partialValue)
            let latE7 = a.partialValue / 100, lonE7 = b.partialValue / 100
            guard (-900_000_000...900_000_000).contains(latE7), (-1_800_000_000...1_800_000_000).contains(lonE7) else { return nil }
            return (Int32(latE7), Int32(lonE7))
        }
        for group in groups {
            var g = reader.message(group)
            while let (field, value) = try g.next() {
                guard case .bytes(let r) = value else { continue }
                switch field {
                case 1: try plainNode(reader.message(r), place, visitor)
                case 2: try denseNodes(reader.message(r), place, visitor)
                case 3: try way(reader.message(r), keyIndex, string, visitor)
                case 4: visitor.relation()
                default: continue
                }
            }
        }
    }

    static func plainNode(_ message: ProtobufReader, _ place: (Int64, Int64) -> (Int32, Int32)?, _ visitor: Visitor) throws(ProtobufReader.Failure) {
        var m = message
        var id: Int64 = 0, lat: Int64 = 0, lon: Int64 = 0
        while let (field, value) = try m.next() {
            switch (field, value) {
            case (1, .varint(let v)): id = ProtobufReader.zigzag(v)
            case (8, .varint(let v)): lat = ProtobufReader.zigzag(v)
            case (9, .varint(let v)): lon = ProtobufReader.zigzag(v)
            default: continue
            }
        }
        if let (a, b) = place(lat, lon) { visitor.node(Node(id: id, latitude: a, longitude: b)) }
    }

    /// Ids, latitudes and longitudes delta-coded in three packed runs of the same length.
    static func denseNodes(_ message: ProtobufReader, _ place: (Int64, Int64) -> (Int32, Int32)?, _ visitor: Visitor) throws(ProtobufReader.Failure) {
        var m = message
        var ids: Range<Int>?, lats: Range<Int>?, lons: Range<Int>?
        while let (field, value) = try m.next() {
            switch (field, value) {
            case (1, .bytes(let r)): ids = r
            case (8, .bytes(let r)): lats = r
            case (9, .bytes(let r)): lons = r
            default: continue
            }
        }
        guard let ids, let lats, let lons else { return }
        var i = m.message(ids), a = m.message(lats), b = m.message(lons)
        var id: Int64 = 0, lat: Int64 = 0, lon: Int64 = 0
        while !i.atEnd {
            guard !a.atEnd, !b.atEnd else { throw ProtobufReader.Failure(reason: "dense nodes with fewer latitudes or longitudes than ids", offset: ids.lowerBound) }
            id = id &+ ProtobufReader.zigzag(try i.packedVarint())
            lat = lat &+ ProtobufReader.zigzag(try a.packedVarint())
            lon = lon &+ ProtobufReader.zigzag(try b.packedVarint())
            if let (x, y) = place(lat, lon) { visitor.node(Node(id: id, latitude: x, longitude: y)) }
        }
    }

    static func way(_ message: ProtobufReader, _ keyIndex: [Int], _ string: (UInt64) -> String?, _ visitor: Visitor) throws(ProtobufReader.Failure) {
        var m = message
        var id: Int64 = 0, keys: Range<Int>?, values: Range<Int>?, refs: Range<Int>?
        while let (field, value) = try m.next() {
            switch (field, value) {
            case (1, .varint(let v)): id = Int64(bitPattern: v)
            case (2, .bytes(let r)): keys = r
            case (3, .bytes(let r)): values = r
            case (8, .bytes(let r)): refs = r
            default: continue
            }
        }
        var tags = WayTags()
        if let keys, let values {
            var k = m.message(keys), v = m.message(values)
            while !k.atEnd, !v.atEnd {
                let key = try k.packedVarint(), value = try v.packedVarint()
                guard let which = keyIndex.firstIndex(where: { $0 >= 0 && UInt64($0) == key }).flatMap(Key.init(rawValue:)) else { continue }
                let text = string(value)
                switch which {
                case .highway: tags.highway = text
                case .area: tags.area = text
                case .access: tags.access = text
                case .foot: tags.foot = text
                case .service: tags.service = text
                case .railway: tags.railway = text
                case .publicTransport: tags.publicTransport = text
                case .wheelchair: tags.wheelchair = text
                }
            }
        }
        var nodes: [Int64] = []
        if let refs {
            var r = m.message(refs), ref: Int64 = 0
            while !r.atEnd {
                ref = ref &+ ProtobufReader.zigzag(try r.packedVarint())
                nodes.append(ref)
            }
        }
        visitor.way(id, nodes, tags)
    }
}
