import Foundation
import TransitSupport

/// A streaming CSV reader (RFC 4180 and what real feeds do besides): a UTF-8 byte order mark,
/// quoted fields holding commas, quotes and line breaks, CRLF or LF, blank lines anywhere. It
/// reads its source in chunks and hands out fields as bytes; nothing holds a whole file.
package final class CSVReader {
    package let file: String
    private var source: ByteSource
    // The reader is used from one thread; the hot fields skip the dynamic exclusivity checks.
    @exclusivity(unchecked) private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Unread bytes are `buffer[position..<filled]`.
    @exclusivity(unchecked) private var position = 0
    @exclusivity(unchecked) private var filled = 0
    private var exhausted = false
    /// Field bounds of the current record, and whether a field holds doubled quotes.
    @exclusivity(unchecked) private var fields = UnsafeMutablePointer<Field>.allocate(capacity: 64)
    @exclusivity(unchecked) private var fieldCapacity = 64
    @exclusivity(unchecked) package private(set) var count = 0

    package struct Field {
        package var start: Int
        package var end: Int
        package var escaped: Bool
    }
    /// Unescaped text of a field with doubled quotes (valid until the next call).
    private var scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    private var scratchCapacity = 256
    /// Bytes taken from the source so far, and what it holds in all where that is known: how far
    /// the reading is, for progress.
    package private(set) var consumed = 0
    package let size: Int?
    /// The line the current record starts on (1 is the header).
    @exclusivity(unchecked) package private(set) var line = 0
    @exclusivity(unchecked) private var nextLine = 1
    package private(set) var header: [String] = []
    /// A record longer than this is refused rather than grown without end (a megabyte of commas
    /// is a million fields: 24 MB; sixteen were 455 MB).
    package static let maxRecord = 1 << 20
    /// Plain records split a word at a time (`splitPlainRecord`); off, only the byte-at-a-time
    /// parser reads, which the tests compare it with.
    package let wordAtATime: Bool

    package init(_ source: ByteSource, file: String, chunk: Int = 1 << 20, wordAtATime: Bool = true) throws(TransitError) {
        self.file = file
        self.wordAtATime = wordAtATime
        self.source = source
        size = source.size
        capacity = chunk
        buffer = .allocate(capacity: chunk)
        try fill()
        while filled - position < 3 && !exhausted { try fill() }
        if filled - position >= 3, buffer[position] == 0xEF, buffer[position + 1] == 0xBB, buffer[position + 2] == 0xBF { position += 3 }
        guard try next() else { return }
        header = (0..<count).map { string($0) }
    }

    deinit {
        buffer.deallocate()
        scratch.deallocate()
        fields.deallocate()
    }

    @inline(__always) private func addField(_ start: Int, _ end: Int, _ escaped: Bool) {
        if count == fieldCapacity {
            let bigger = UnsafeMutablePointer<Field>.allocate(capacity: fieldCapacity * 2)
            bigger.moveInitialize(from: fields, count: count)
            fields.deallocate()
            fields = bigger
            fieldCapacity *= 2
        }
        (fields + count).initialize(to: Field(start: start, end: end, escaped: escaped))
        count += 1
    }

    /// How much of the source has been read, from 0 to 1, where its size is known.
    package var fraction: Double? {
        guard let size, size > 0 else { return nil }
        return min(1, Double(consumed) / Double(size))
    }

    /// The column holding `name`, or nil.
    package func column(_ name: String) -> Int? { header.firstIndex(of: name) }

    /// The bytes of field `i`, surrounding spaces trimmed; empty when the record is shorter.
    /// Inlined where a feed is read (each row's fields, 6 % of an import as a call); a field
    /// with doubled quotes or spaces at an end takes the call below.
    @inline(__always) package func bytes(_ i: Int) -> UnsafeBufferPointer<UInt8> {
        guard i >= 0, i < count else { return UnsafeBufferPointer(start: nil, count: 0) }
        let field = fields[i]
        let s = field.start, e = field.end
        // Nearly every field starts and ends with a byte past the space: one test each end.
        if field.escaped || s < e && (buffer[s] <= 0x20 || buffer[e &- 1] <= 0x20) { return unusual(field) }
        return UnsafeBufferPointer(start: buffer + s, count: e &- s)
    }

    /// A field's bytes unescaped (valid until the next call) or trimmed.
    @inline(never) private func unusual(_ field: Field) -> UnsafeBufferPointer<UInt8> {
        var s = field.start, e = field.end
        if field.escaped {
            if e - s > scratchCapacity {
                scratch.deallocate()
                scratchCapacity = e - s
                scratch = .allocate(capacity: scratchCapacity)
            }
            var j = s, n = 0
            while j < e {
                scratch[n] = buffer[j]
                n += 1
                j += buffer[j] == 0x22 ? 2 : 1
            }
            return UnsafeBufferPointer(start: scratch, count: n)
        }
        while s < e && (buffer[s] == 0x20 || buffer[s] == 0x09) { s += 1 }
        while e > s && (buffer[e - 1] == 0x20 || buffer[e - 1] == 0x09) { e -= 1 }
        return UnsafeBufferPointer(start: buffer + s, count: e - s)
    }

    package func string(_ i: Int) -> String {
        let b = bytes(i)
        return b.isEmpty ? "" : String(decoding: b, as: UTF8.self)
    }

    package func isEmpty(_ i: Int) -> Bool { bytes(i).isEmpty }

    /// The next record; false at the end of the file. Blank lines are skipped.
    package func next() throws(TransitError) -> Bool {
        while true {
            if position >= filled {
                if exhausted { return false }
                try fill()
                continue
            }
            switch try parseRecord() {
            case .record: return true
            case .blank: continue
            case .needMore:
                if exhausted {
                    // The last record has no line break: take what is there.
                    if try parseRecord(atEnd: true) == .record { return true }
                    return false
                }
                try fill()
            }
        }
    }

    package enum Outcome { case record, blank, needMore }

    /// Splits the record at `position`; `.needMore` when it runs past the bytes read so far.
    private func parseRecord(atEnd: Bool = false) throws(TransitError) -> Outcome {
        count = 0
        var i = position
        var lines = 0
        let end = filled
        let buffer = self.buffer
        if buffer[i] == 0x0A || buffer[i] == 0x0D {
            // A blank line.
            i += (buffer[i] == 0x0D && i + 1 < end && buffer[i + 1] == 0x0A) ? 2 : 1
            if buffer[position] == 0x0D && i == position + 1 && i >= end && !atEnd && !exhausted { return .needMore }
            position = i
            nextLine += 1
            return .blank
        }
        if wordAtATime && !atEnd && splitPlainRecord() { return .record }
        while true {
            if i >= end {
                guard atEnd else { return .needMore }
                addField(i, i, false)
                break
            }
            if buffer[i] == 0x22 {
                // Quoted: up to the quote that is not doubled.
                let s = i + 1
                var j = s
                var doubled = false
                while true {
                    guard j < end else {
                        if atEnd { throw .parse(what: file, reason: "line \(nextLine): a quoted field is never closed") }
                        return .needMore
                    }
                    let b = buffer[j]
                    if b == 0x22 {
                        if j + 1 >= end && !atEnd { return .needMore }
                        if j + 1 < end && buffer[j + 1] == 0x22 { doubled = true; j += 2; continue }
                        break
                    }
                    if b == 0x0A { lines += 1 }
                    j += 1
                }
                addField(s, j, doubled)
                i = j + 1
                // Stray text after the closing quote joins nothing: skip to the separator.
                while i < end && buffer[i] != 0x2C && buffer[i] != 0x0A && buffer[i] != 0x0D { i += 1 }
            } else {
                let s = i
                while i < end {
                    let b = buffer[i]
                    if b == 0x2C || b == 0x0A || b == 0x0D { break }
                    i += 1
                }
                addField(s, i, false)
            }
            if i >= end {
                guard atEnd else { return .needMore }
                break
            }
            let b = buffer[i]
            if b == 0x2C { i += 1; continue }
            // The end of the record: LF, CR or CRLF.
            if b == 0x0D {
                if i + 1 >= end && !atEnd { return .needMore }
                i += (i + 1 < end && buffer[i + 1] == 0x0A) ? 2 : 1
            } else {
                i += 1
            }
            break
        }
        position = i
        line = nextLine
        nextLine += 1 + lines
        return .record
    }

    /// Eight bytes at a time: a record with no quote and no lone CR (nearly every record of a
    /// feed), split where it lies, or false, and the byte-at-a-time parser above reads it. Each
    /// word's commas and record ends are found at once, so the work is a word's, not a byte's,
    /// and the branches are a word's (the byte loop's exit at each field was a mispredicted one).
    private func splitPlainRecord() -> Bool {
        let buffer = self.buffer, end = filled
        var i = position, start = position
        // A word must lie whole within the bytes read.
        while i &+ 8 <= end {
            let word = UnsafeRawPointer(buffer + i).loadUnaligned(as: UInt64.self).littleEndian
            var commas = Self.bytes(of: word, equalTo: 0x2C)
            let stops = Self.bytes(of: word, equalTo: 0x0A) | Self.bytes(of: word, equalTo: 0x0D) | Self.bytes(of: word, equalTo: 0x22)
            // The commas before the word's first stop (all of them where it has none: the mask
            // is then all ones; a found bit is a byte's top bit, so the shift is 7 to 63).
            if stops != 0 { commas &= (1 &<< UInt64(stops.trailingZeroBitCount)) &- 1 }
            while commas != 0 {
                let k = i &+ (commas.trailingZeroBitCount &>> 3)
                addField(start, k, false)
                start = k &+ 1
                commas &= commas &- 1
            }
            if stops != 0 {
                let k = i &+ (stops.trailingZeroBitCount &>> 3)
                if buffer[k] == 0x0A {
                    addField(start, k, false)
                    return ended(at: k &+ 1)
                }
                // CRLF ends the record; a quote or a lone CR is the byte parser's.
                guard buffer[k] == 0x0D, k &+ 1 < end, buffer[k &+ 1] == 0x0A else { count = 0; return false }
                addField(start, k, false)
                return ended(at: k &+ 2)
            }
            i &+= 8
        }
        // Short of a word at the end of the bytes read (once a chunk): the byte parser's.
        count = 0
        return false
    }

    @inline(__always) private func ended(at next: Int) -> Bool {
        position = next
        line = nextLine
        nextLine += 1
        return true
    }

    /// 0x80 in each byte of `word` (its first byte the lowest) that is `byte`; 0 in every other.
    /// Exact for each byte (no carry crosses from one byte to the next), so every bit found is one.
    @inline(__always) static func bytes(of word: UInt64, equalTo byte: UInt8) -> UInt64 {
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let v = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
        return ~(((v & low) &+ low) | v | low)
    }

    /// Moves the unread bytes to the front and reads more; grows the buffer for a long record.
    private func fill() throws(TransitError) {
        let pending = filled - position
        if pending >= capacity {
            guard capacity < Self.maxRecord else { throw .parse(what: file, reason: "line \(nextLine): a record longer than 1 MiB (the bound; see docs/gtfs.md)") }
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            bigger.update(from: buffer + position, count: pending)
            buffer.deallocate()
            buffer = bigger
            capacity *= 2
        } else if position > 0 {
            (buffer).update(from: buffer + position, count: pending)
        }
        position = 0
        filled = pending
        let n = try source.read(into: UnsafeMutableRawBufferPointer(start: buffer + filled, count: capacity - filled))
        if n == 0 { exhausted = true }
        filled += n
        consumed += n
    }
}

/// Numbers straight from field bytes, without making strings.
package enum FieldBytes {
    /// The same bytes?
    package static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard let x = a.baseAddress, let y = b.baseAddress else { return a.count == 0 }
        return memcmp(x, y, a.count) == 0
    }

    /// A non-negative whole number; nil for anything else (or one past 10 digits).
    package static func int(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !b.isEmpty, b.count <= 10 else { return nil }
        var n = 0
        for byte in b {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            n = n * 10 + Int(byte - 0x30)
        }
        return n
    }

    /// `H:MM:SS` or `HH:MM:SS` (hours past 24 allowed, up to 239) → seconds; nil when malformed.
    package static func time(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        guard b.count == 7 || b.count == 8 else { return nil }
        let h = b.count - 6
        func digit(_ i: Int) -> Int? {
            let byte = b[i]
            return byte >= 0x30 && byte <= 0x39 ? Int(byte - 0x30) : nil
        }
        guard b[h] == 0x3A, b[h + 3] == 0x3A, let m1 = digit(h + 1), let m2 = digit(h + 2), let s1 = digit(h + 4), let s2 = digit(h + 5),
              let h1 = digit(0) else { return nil }
        var hours = h1
        if h == 2 { guard let h2 = digit(1) else { return nil }; hours = hours * 10 + h2 }
        let minutes = m1 * 10 + m2, seconds = s1 * 10 + s2
        guard minutes < 60, seconds < 60 else { return nil }
        return (hours * 60 + minutes) * 60 + seconds
    }

    /// A decimal number (`12.5`, `-3`, `1e3`); nil when malformed or not finite.
    package static func double(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
        guard !b.isEmpty, b.count <= 40 else { return nil }
        var i = 0
        var negative = false
        if b[0] == 0x2D || b[0] == 0x2B { negative = b[0] == 0x2D; i = 1 }
        var mantissa: Double = 0
        var digits = 0
        var scale = 0
        var seenDot = false
        while i < b.count {
            let byte = b[i]
            if byte >= 0x30 && byte <= 0x39 {
                mantissa = mantissa * 10 + Double(byte - 0x30)
                digits += 1
                if seenDot { scale -= 1 }
            } else if byte == 0x2E && !seenDot {
                seenDot = true
            } else {
                break
            }
            i += 1
        }
        guard digits > 0 else { return nil }
        if i < b.count {
            guard b[i] == 0x65 || b[i] == 0x45 else { return nil }
            i += 1
            var expNegative = false
            if i < b.count && (b[i] == 0x2D || b[i] == 0x2B) { expNegative = b[i] == 0x2D; i += 1 }
            var e = 0
            var expDigits = 0
            while i < b.count, b[i] >= 0x30 && b[i] <= 0x39, expDigits < 4 {
                e = e * 10 + Int(b[i] - 0x30)
                expDigits += 1
                i += 1
            }
            guard expDigits > 0, i == b.count else { return nil }
            scale += expNegative ? -e : e
        }
        let value = mantissa * pow(10, Double(scale))
        guard value.isFinite else { return nil }
        return negative ? -value : value
    }
}
