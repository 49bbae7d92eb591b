import CZlib
import Foundation
import TransitSupport

/// A zip file's entries, read from its central directory (so entries written with a data
/// descriptor, flag bit 3, have their sizes), stored or deflated. Foundation has no zip reader
/// on Linux; inflating is the system zlib's.
package struct ZipArchive {
    package struct Entry {
        package var name: String
        package var method: UInt16
        package var flags: UInt16
        package var compressedSize: Int
        package var size: Int
        package var localHeaderOffset: Int
        package var crc: UInt32
    }

    package let file: ReadOnlyFile
    package let entries: [Entry]

    package init(path: String) throws(TransitError) {
        try self.init(file: try ReadOnlyFile(path))
    }

    package init(file: ReadOnlyFile) throws(TransitError) {
        self.file = file
        entries = try Self.centralDirectory(file)
    }

    /// The entry whose file name (in any folder of the zip) is `name`.
    package func entry(named name: String) -> Entry? {
        entries.first { $0.name == name } ?? entries.first { $0.name.hasSuffix("/" + name) && !$0.name.hasPrefix("__MACOSX") }
    }

    package static func centralDirectory(_ file: ReadOnlyFile) throws(TransitError) -> [Entry] {
        let what = file.path
        guard file.size >= 22 else { throw .parse(what: what, reason: "not a zip file (too short)") }
        // The end-of-central-directory record sits in the last 22 + 65,535 bytes.
        let tailCount = min(file.size, 22 + 65_535)
        let tail = try file.bytes(at: file.size - tailCount, count: tailCount, what: "the end of the zip")
        var eocd = -1
        var i = tail.count - 22
        while i >= 0 {
            if tail[i] == 0x50 && tail[i + 1] == 0x4B && tail[i + 2] == 0x05 && tail[i + 3] == 0x06 { eocd = i; break }
            i -= 1
        }
        guard eocd >= 0 else { throw .parse(what: what, reason: "not a zip file (no end of central directory)") }
        let count = Int(le16(tail, eocd + 10))
        let directorySize = Int(le32(tail, eocd + 12))
        let directoryOffset = Int(le32(tail, eocd + 16))
        if count == 0xFFFF || directoryOffset == 0xFFFF_FFFF { throw .parse(what: what, reason: "ZIP64 archives are not supported") }
        let directory = try file.bytes(at: directoryOffset, count: directorySize, what: "the central directory")
        var entries: [Entry] = []
        var p = 0
        for _ in 0..<count {
            guard p + 46 <= directory.count, le32(directory, p) == 0x0201_4B50 else {
                throw .parse(what: what, reason: "the central directory is damaged")
            }
            let nameLength = Int(le16(directory, p + 28)), extraLength = Int(le16(directory, p + 30))
            let commentLength = Int(le16(directory, p + 32))
            guard p + 46 + nameLength <= directory.count else { throw .parse(what: what, reason: "the central directory is damaged") }
            let name = String(decoding: directory[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self)
            let entry = Entry(name: name, method: le16(directory, p + 10), flags: le16(directory, p + 8),
                              compressedSize: Int(le32(directory, p + 20)), size: Int(le32(directory, p + 24)),
                              localHeaderOffset: Int(le32(directory, p + 42)), crc: le32(directory, p + 16))
            if entry.compressedSize == 0xFFFF_FFFF || entry.size == 0xFFFF_FFFF || entry.localHeaderOffset == 0xFFFF_FFFF {
                throw .parse(what: what, reason: "\(name) needs ZIP64, which is not supported")
            }
            entries.append(entry)
            p += 46 + nameLength + extraLength + commentLength
        }
        return entries
    }

    package static let maxRatio = 100

    /// The entry's bytes, inflated as they are read.
    package func source(_ entry: Entry) throws(TransitError) -> ZipEntrySource {
        let header = try file.bytes(at: entry.localHeaderOffset, count: 30, what: "the local header of \(entry.name)")
        guard Self.le32(header, 0) == 0x0403_4B50 else { throw .parse(what: file.path, reason: "the local header of \(entry.name) is damaged") }
        if entry.flags & 1 != 0 { throw .parse(what: file.path, reason: "\(entry.name) is encrypted") }
        let start = entry.localHeaderOffset + 30 + Int(Self.le16(header, 26)) + Int(Self.le16(header, 28))
        guard start <= file.size, entry.compressedSize <= file.size - start else {
            throw .parse(what: file.path, reason: "\(entry.name) is cut short (the zip is truncated)")
        }
        // A deflated file inflates to at most `maxRatio` times its size (real feeds: about 10; a
        // zip bomb: up to 1,032), so that a 2 MB zip cannot make gigabytes to read.
        if entry.method == 8, entry.size > Self.maxRatio * entry.compressedSize + (1 << 20) {
            throw .parse(what: file.path, reason: "\(entry.name) would inflate from \(entry.compressedSize) to \(entry.size) bytes, "
                         + "more than \(Self.maxRatio) times (the bound; see docs/gtfs.md)")
        }
        switch entry.method {
        case 0, 8: return try ZipEntrySource(file: file, entry: entry, start: start)
        default: throw .parse(what: file.path, reason: "\(entry.name) uses compression method \(entry.method); only stored and deflated entries are read")
        }
    }

    package static func le16(_ b: [UInt8], _ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
    package static func le32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
    }
}

/// One zip entry's bytes: stored ones straight from the file, deflated ones through zlib's
/// raw inflate, 256 KiB of compressed input at a time. The output never exceeds the size the
/// central directory declares (a zip bomb ends as an error, not a full disk).
package final class ZipEntrySource: ByteSource {
    package static let inputSize = 256 * 1024
    package let file: ReadOnlyFile
    package let entry: ZipArchive.Entry
    package let start: Int
    package var consumed = 0
    package var produced = 0
    /// Compressed input, at a stable address for zlib's `next_in`.
    package let input = UnsafeMutablePointer<UInt8>.allocate(capacity: ZipEntrySource.inputSize)
    package var stream = z_stream()
    package var finished = false
    package let deflated: Bool
    /// CRC-32 of what was produced, checked against the central directory at the end.
    package var crc: uLong = 0
    /// zlib said the stream ended; the next read checks it.
    package var ended = false
    /// What the central directory declares it unpacks to (never more is produced).
    package var size: Int? { entry.size }

    package init(file: ReadOnlyFile, entry: ZipArchive.Entry, start: Int) throws(TransitError) {
        self.file = file
        self.entry = entry
        self.start = start
        deflated = entry.method == 8
        if deflated {
            let status = inflateInit2_(&stream, -MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
            guard status == Z_OK else {
                input.deallocate()
                throw .parse(what: file.path, reason: "zlib could not start (\(status))")
            }
        }
    }

    deinit {
        if deflated { inflateEnd(&stream) }
        input.deallocate()
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(TransitError) -> Int {
        guard !finished, let out = buffer.baseAddress, buffer.count > 0 else { return 0 }
        if ended {
            try finish()
            return 0
        }
        if !deflated {
            let count = min(buffer.count, entry.compressedSize - consumed)
            guard count > 0 else { try finish(); return 0 }
            let n = try file.read(at: start + consumed, into: UnsafeMutableRawBufferPointer(start: out, count: count))
            guard n > 0 else { throw .parse(what: entry.name, reason: "cut short (the zip is truncated)") }
            consumed += n
            produced += n
            crc = crc32(crc, out.assumingMemoryBound(to: Bytef.self), uInt(n))
            return n
        }
        stream.next_out = out.assumingMemoryBound(to: Bytef.self)
        stream.avail_out = uInt(min(buffer.count, Int(Int32.max)))
        while stream.avail_out > 0 {
            if stream.avail_in == 0 {
                let want = min(Self.inputSize, entry.compressedSize - consumed)
                if want > 0 {
                    let n = try file.read(at: start + consumed, into: UnsafeMutableRawBufferPointer(start: input, count: want))
                    guard n > 0 else { throw .parse(what: entry.name, reason: "cut short (the zip is truncated)") }
                    consumed += n
                    stream.next_in = input
                    stream.avail_in = uInt(n)
                }
            }
            let status = inflate(&stream, Z_NO_FLUSH)
            if status == Z_STREAM_END { ended = true; break }
            if status == Z_BUF_ERROR && stream.avail_in == 0 && consumed >= entry.compressedSize {
                throw .parse(what: entry.name, reason: "cut short (the zip is truncated)")
            }
            guard status == Z_OK || status == Z_BUF_ERROR else {
                throw .parse(what: entry.name, reason: "the deflated data is damaged (zlib \(status))")
            }
        }
        let n = buffer.count - Int(stream.avail_out)
        produced += n
        if produced > entry.size { throw .parse(what: entry.name, reason: "inflates past the \(entry.size) bytes the zip declares") }
        crc = crc32(crc, out.assumingMemoryBound(to: Bytef.self), uInt(n))
        if ended && n == 0 { try finish() }
        return n
    }

    /// The end of the entry: its size and CRC-32 must be what the zip declares.
    package func finish() throws(TransitError) {
        finished = true
        guard produced == entry.size else { throw .parse(what: entry.name, reason: "holds \(produced) bytes, not the \(entry.size) the zip declares") }
        guard UInt32(truncatingIfNeeded: crc) == entry.crc else { throw .parse(what: entry.name, reason: "its CRC-32 does not match (the zip is damaged)") }
    }
}
