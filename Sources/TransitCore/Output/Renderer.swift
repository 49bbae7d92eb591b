import Foundation
import TransitSupport

package enum OutputFormat: String, Sendable, CaseIterable {
    case table, tsv, csv, json, geojson, parquet
}

/// Records in, text out: `table`, `tsv`, `csv`, `json`, as the command line promises (docs/cli.md, Output).
package struct Renderer: Sendable {
    package var format: OutputFormat
    /// Header row for tsv/csv; nil means the format's default (tsv none, csv one).
    package var header: Bool?
    package var color: Bool
    /// The terminal's width, to fit a table into; nil (piped output) never cuts.
    package var width: Int?

    package init(format: OutputFormat, header: Bool? = nil, color: Bool = false, width: Int? = nil) {
        self.format = format
        self.header = header
        self.color = color
        self.width = width
    }

    package func render(_ output: Output) throws(TransitError) -> String {
        String(decoding: try bytes(output), as: UTF8.self)
    }

    /// The output as UTF-8 bytes, whole.
    package func bytes(_ output: Output) throws(TransitError) -> [UInt8] {
        var all: [UInt8] = []
        try write(output) { all.append(contentsOf: $0) }
        return all
    }

    /// The output as UTF-8 bytes handed to `sink` in pieces as they are written, each ending
    /// between records: a long list of records goes out a megabyte at a time, so a
    /// whole day's 15 MB of JSON is never in memory at once (its pages cost a tenth of the
    /// command) and a reader downstream starts at once. A usage error is thrown before any
    /// byte; after the first, nothing fails.
    package func write(_ output: Output, to sink: (UnsafeRawBufferPointer) -> Void) throws(TransitError) {
        if let stream = output.rowStream {
            switch format {
            case .tsv: return delimited(stream, separator: "\t", header: header ?? false, to: sink)
            case .csv: return delimited(stream, separator: ",", header: header ?? true, to: sink)
            case .json: return JSONWriter.document(stream, to: sink)
            case .table, .geojson, .parquet: break
            }
        }
        switch format {
        case .table:
            var text = table(output)
            text.withUTF8 { sink(UnsafeRawBufferPointer($0)) }
        case .tsv: delimited(output, separator: "\t", header: header ?? false, to: sink)
        case .csv: delimited(output, separator: ",", header: header ?? true, to: sink)
        case .json:
            // A plain list of records is written as each is made, not all made first.
            if output.json == nil, let stream = output.recordStream {
                JSONWriter.document(count: stream.count, { .object(stream.record($0)) }, to: sink)
            } else {
                JSONWriter.document(output.json ?? .list(output.records.map(Value.object)), to: sink)
            }
        case .geojson:
            guard let geo = output.geoJSON else {
                throw .usage("--format geojson is only for commands that return places (stops, vehicles)")
            }
            JSONWriter.document(geo, to: sink)
        case .parquet:
            // A binary file: written only to one (`--output`, before this), never to a terminal or a pipe.
            guard output.rowStream == nil && output.json == nil && output.records.isEmpty else { throw .usage("--format parquet needs --output FILE") }
        }
    }

    /// How much a writer gathers before handing it on.
    static let piece = 1 << 20

    /// Hands what `out` holds to `sink` and empties it, keeping its memory.
    static func hand(_ out: inout [UInt8], to sink: (UnsafeRawBufferPointer) -> Void) {
        out.withUnsafeBytes { sink($0) }
        out.removeAll(keepingCapacity: true)
    }

    /// Table cells: local `HH:MM` for times, lists joined with commas.
    static func tableText(_ value: Value) -> String {
        switch value {
        case .string(let s): return Sanitize.text(s).replacingOccurrences(of: "\n", with: " ")
        case .time(let date, let zone): return ClockTime.hhmm(date, zone: zone)
        case .list(let items): return items.map(tableText).joined(separator: ",")
        case .bool(let b): return b ? "yes" : "no"
        case .encoded(let encoded): return tableText(encoded.value)
        default: return flatText(value)
        }
    }

    // MARK: tsv / csv

    /// Rows of cells written as bytes into one buffer (as JSON is): printable ASCII text copied
    /// whole, integers and times digit by digit (a stream's rows, `RowStream`, the same way).
    func delimited(_ output: Output, separator: String, header: Bool, to sink: (UnsafeRawBufferPointer) -> Void) {
        let grid = output.flat
        delimited(RowStream(keys: grid.headers) { emit in grid.rows.forEach(emit) }, separator: separator, header: header, to: sink)
    }

    /// One tsv or csv cell: `flatText`, cleaned (tsv) or quoted (csv). `text`: a csv cell of free
    /// text (a name, a headsign, a URL), defused (`defused`).
    static func flatCell(_ value: Value, csv: Bool, text: Bool = false, into out: inout [UInt8], offsets: inout ZoneOffsets) {
        switch value {
        case .null: return
        case .int(let i): JSONWriter.digits(i, into: &out)
        case .time(let date, let zone): ClockTime.iso8601(date, zone: zone, into: &out, offsets: &offsets)
        case .string(let s) where plain(s, csv: csv) && !(text && opensAFormula(s.utf8.first)): out.append(contentsOf: s.utf8)
        default:
            let cell = flatText(value)
            out.append(contentsOf: (csv ? csvQuote(text ? defused(cell) : cell) : tsvClean(cell)).utf8)
        }
    }

    /// A csv text cell that a spreadsheet would read as a formula (`=`, `+`, `-`, `@`, tab, CR
    /// first), written with a leading `'`, as OWASP advises; a number (`-5`, `+1.5`) stays one.
    static func defused(_ cell: String) -> String {
        guard opensAFormula(cell.utf8.first), Double(cell) == nil || cell.lowercased().contains(where: { $0.isLetter }) else { return cell }
        return "'" + cell
    }

    static func opensAFormula(_ first: UInt8?) -> Bool {
        guard let first else { return false }
        return first == UInt8(ascii: "=") || first == UInt8(ascii: "+") || first == UInt8(ascii: "-") || first == UInt8(ascii: "@")
            || first == 0x09 || first == 0x0D
    }

    /// Columns of ids and codes, which scripts pass back to transit as they are (`trip_id`,
    /// `code`, `feed`): never defused.
    static func isIDKey(_ key: String) -> Bool {
        key == "id" || key == "code" || key.hasSuffix("_id") || key.hasSuffix("_ids") || key.hasSuffix("_code")
            || ["abbr", "telecode", "train_no", "feed", "feeds", "parent_station"].contains(key)
    }

    /// Machine text: ISO 8601 with offset for times, plain numbers, `true`/`false`.
    static func flatText(_ value: Value) -> String {
        switch value {
        case .null: return ""
        case .string(let s): return Sanitize.text(s)
        case .int(let i): return String(i)
        case .double(let d): return JSONWriter.number(d)
        case .bool(let b): return b ? "true" : "false"
        case .time(let date, let zone): return ClockTime.iso8601(date, zone: zone)
        case .list(let items): return items.map(flatText).joined(separator: ",")
        case .object(let record): return record.fields.map { "\($0.key)=\(flatText($0.value))" }.joined(separator: " ")
        case .encoded(let encoded): return flatText(encoded.value)
        }
    }

    /// Printable ASCII and no separator: most cells, told from their bytes without walking
    /// Characters.
    static func plain(_ text: String, csv: Bool = false) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && !(csv && ($0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\""))) }
    }

    static func tsvClean(_ text: String) -> String {
        if plain(text) { return text }
        guard text.contains(where: { $0 == "\t" || $0.isNewline }) else { return text }
        return String(text.map { $0 == "\t" || $0.isNewline ? " " : $0 })
    }

    /// RFC 4180: quote fields holding a comma, quote, CR or LF; double the quotes.
    static func csvQuote(_ text: String) -> String {
        if plain(text, csv: true) { return text }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// Pretty JSON with the records' own key order (JSONEncoder would sort or shuffle it), written
/// as bytes into one buffer: strings that need no escape are copied whole, numbers and times
/// are written digit by digit. (Appending to a String scalar by scalar ran at 30 MB/s, a third
/// of a whole-day query's time on a dense feed.)
package enum JSONWriter {
    package static func write(_ value: Value) -> String {
        var out: [UInt8] = [], offsets = ZoneOffsets()
        out.reserveCapacity(1 << 16)
        append(value, to: &out, indent: 0, offsets: &offsets)
        return String(decoding: out, as: UTF8.self)
    }

    /// `value` as a whole output: the text and its last newline.
    package static func document(_ value: Value) -> String {
        var all: [UInt8] = []
        document(value) { all.append(contentsOf: $0) }
        return String(decoding: all, as: UTF8.self)
    }

    /// `value` as a whole output, handed to `sink` in pieces (see `Renderer.write`).
    package static func document(_ value: Value, to sink: (UnsafeRawBufferPointer) -> Void) {
        if case .list(let items) = value { return document(count: items.count, { items[$0] }, to: sink) }
        var out: [UInt8] = [], offsets = ZoneOffsets()
        out.reserveCapacity(1 << 16)
        append(value, to: &out, indent: 0, offsets: &offsets)
        out.append(UInt8(ascii: "\n"))
        Renderer.hand(&out, to: sink)
    }

    /// A list of `count` values made one at a time by `element`, as a whole output: each is
    /// written and let go before the next is made, and the text goes to `sink` a piece at a
    /// time, the buffer reused.
    package static func document(count: Int, _ element: (Int) -> Value, to sink: (UnsafeRawBufferPointer) -> Void) {
        var out: [UInt8] = [], offsets = ZoneOffsets()
        out.reserveCapacity(Renderer.piece + (1 << 16))
        withoutActuallyEscaping(sink) { sink in list(count: count, element, to: &out, indent: 0, offsets: &offsets, sink: sink) }
        out.append(UInt8(ascii: "\n"))
        Renderer.hand(&out, to: sink)
    }

    /// `offsets`: the zones' offsets, remembered while the document is written. `sink`: where
    /// what was written goes once it passes `Renderer.piece` (the writer's buffer is emptied),
    /// for the document's own list; nil for a list inside it.
    static func list(count: Int, _ element: (Int) -> Value, to out: inout [UInt8], indent: Int, offsets: inout ZoneOffsets,
                     sink: ((UnsafeRawBufferPointer) -> Void)?) {
        if count == 0 { token(Token.emptyList, &out); return }
        token(Token.openList, &out)
        for i in 0..<count {
            spaces(indent + 1, into: &out)
            append(element(i), to: &out, indent: indent + 1, offsets: &offsets)
            token(i == count - 1 ? Token.newline : Token.commaNewline, &out)
            if let sink, out.count >= Renderer.piece { Renderer.hand(&out, to: sink) }
        }
        spaces(indent, into: &out)
        out.append(UInt8(ascii: "]"))
    }

    static func append(_ value: Value, to out: inout [UInt8], indent: Int, offsets: inout ZoneOffsets) {
        switch value {
        case .null: token(Token.null, &out)
        case .string(let s): quote(s, into: &out)
        case .int(let i): digits(i, into: &out)
        case .double(let d):
            if d.isFinite { out.append(contentsOf: number(d).utf8) } else { token(Token.null, &out) }
        case .bool(let b): token(b ? Token.true : Token.false, &out)
        case .time(let date, let zone):
            out.append(UInt8(ascii: "\""))
            ClockTime.iso8601(date, zone: zone, into: &out, offsets: &offsets)
            out.append(UInt8(ascii: "\""))
        case .list(let items):
            list(count: items.count, { items[$0] }, to: &out, indent: indent, offsets: &offsets, sink: nil)
        case .encoded(let encoded):
            if encoded.indent == indent { out.append(contentsOf: encoded.bytes) } else { append(encoded.value, to: &out, indent: indent, offsets: &offsets) }
        case .object(let record):
            if record.fields.isEmpty { token(Token.emptyObject, &out); return }
            token(Token.openObject, &out)
            // Read in place: iterating the fields copied each key and value out (a retain and
            // a release apiece, a third of the writer's time).
            record.fields.withUnsafeBufferPointer { fields in
                for i in fields.indices {
                    spaces(indent + 1, into: &out)
                    quote(fields[i].key, into: &out)
                    token(Token.colon, &out)
                    append(fields[i].value, to: &out, indent: indent + 1, offsets: &offsets)
                    token(i == fields.count - 1 ? Token.newline : Token.commaNewline, &out)
                }
            }
            spaces(indent, into: &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// The writer's fixed bytes, as arrays: appending one is a copy of its bytes, where a
    /// string literal's `utf8` went through the generic sequence path (a tenth of the writer).
    enum Token {
        static let null = Array("null".utf8), `true` = Array("true".utf8), `false` = Array("false".utf8)
        static let emptyList = Array("[]".utf8), openList = Array("[\n".utf8), emptyObject = Array("{}".utf8), openObject = Array("{\n".utf8)
        static let colon = Array(": ".utf8), newline = Array("\n".utf8), commaNewline = Array(",\n".utf8)
        static let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 64)
    }

    @inline(__always) static func token(_ bytes: [UInt8], _ out: inout [UInt8]) {
        bytes.withUnsafeBufferPointer { out.append(contentsOf: $0) }
    }

    /// Two spaces a level.
    @inline(__always) static func spaces(_ level: Int, into out: inout [UInt8]) {
        let count = 2 * level
        if count <= Token.spaces.count {
            Token.spaces.withUnsafeBufferPointer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<count])) }
        } else {
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count))
        }
    }

    /// A decimal integer, digit by digit (no String made for it).
    static func digits(_ value: Int, into out: inout [UInt8]) {
        // Right to left into 24 bytes on the stack, then one append.
        var text: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &text) { raw in
            var n = raw.count, magnitude = value.magnitude
            repeat {
                n -= 1
                raw[n] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                n -= 1
                raw[n] = UInt8(ascii: "-")
            }
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[n...]))
        }
    }

    /// Shortest round-trip form; integral values without a fraction.
    static func number(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) }
        return String(d)
    }

    static func quote(_ s: String) -> String {
        var out: [UInt8] = []
        quote(s, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// A JSON string. Controls (C0, DEL, C1: U+009B is a terminal's CSI) and bidi overrides are
    /// escaped: the data stays exact, and nothing reaches a terminal that acts on it. Text of
    /// printable ASCII without `"` or `\\` (nearly all) is copied as it is.
    static func quote(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let plain = s.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            for byte in bytes where byte < 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if plain != true { escaped(s, into: &out) }
        out.append(UInt8(ascii: "\""))
    }

    private static func escaped(_ s: String, into out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out.append(contentsOf: "\\\"".utf8)
            case "\\": out.append(contentsOf: "\\\\".utf8)
            case "\n": out.append(contentsOf: "\\n".utf8)
            case "\r": out.append(contentsOf: "\\r".utf8)
            case "\t": out.append(contentsOf: "\\t".utf8)
            default:
                let v = scalar.value
                if v < 0x20 || (0x7F...0x9F).contains(v) || Sanitize.isBidiControl(v) {
                    out.append(contentsOf: "\\u".utf8)
                    for shift in [12, 8, 4, 0] { out.append(hex[Int((v >> UInt32(shift)) & 0xF)]) }
                } else {
                    UTF8.encode(scalar) { out.append($0) }
                }
            }
        }
    }
}
