import Foundation
import TransitSupport
import TransitGTFS

public enum OutputFormat: String, Sendable, CaseIterable {
    case table, tsv, csv, json, geojson
}

/// Records in, text out: `table`, `tsv`, `csv`, `json`, as the command line promises (docs/cli.md, Output).
public struct Renderer: Sendable {
    public var format: OutputFormat
    /// Header row for tsv/csv; nil means the format's default (tsv none, csv one).
    public var header: Bool?
    public var color: Bool
    /// The terminal's width, to fit a table into; nil (piped output) never cuts.
    public var width: Int?

    public init(format: OutputFormat, header: Bool? = nil, color: Bool = false, width: Int? = nil) {
        self.format = format
        self.header = header
        self.color = color
        self.width = width
    }

    public func render(_ output: Output) throws(TransitError) -> String {
        switch format {
        case .table: return table(output)
        case .tsv: return delimited(output, separator: "\t", header: header ?? false)
        case .csv: return delimited(output, separator: ",", header: header ?? true)
        case .json:
            // A plain list of records is written as each is made, not all made first.
            if output.json == nil, let stream = output.recordStream {
                return JSONWriter.document(count: stream.count) { .object(stream.record($0)) }
            }
            return JSONWriter.document(output.json ?? .list(output.records.map(Value.object)))
        case .geojson:
            guard let geo = output.geoJSON else {
                throw .usage("--format geojson is only for commands that return places (stops, vehicles)")
            }
            return JSONWriter.document(geo)
        }
    }

    // MARK: table

    func table(_ output: Output) -> String {
        var lines = output.tableBefore
        let grid = output.table
        if !grid.rows.isEmpty {
            let cells = grid.rows.map { row in row.map(Self.tableText) }
            let numeric = grid.headers.indices.map { i in
                grid.rows.allSatisfy { row in i < row.count && (row[i].isNumeric || row[i] == .null) }
            }
            var widths = grid.headers.map { TextWidth.of($0) }
            for row in cells {
                for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], TextWidth.of(cell)) }
            }
            // Text columns may shrink (the widest first, with an ellipsis); times and numbers never.
            let text = grid.headers.indices.map { i in
                !numeric[i] && grid.rows.allSatisfy { row in
                    guard i < row.count else { return true }
                    switch row[i] { case .string, .null: return true; default: return false }
                }
            }
            if let width {
                // The columns that give way first, then every text column.
                let first = grid.headers.indices.map { text[$0] && $0 < grid.shrinksFirst.count && grid.shrinksFirst[$0] }
                Self.fit(&widths, into: width, shrinkable: first, headers: grid.headers)
                Self.fit(&widths, into: width, shrinkable: text, headers: grid.headers)
            }
            func line(_ row: [String]) -> String {
                var parts: [String] = []
                for (i, cell) in row.enumerated() where i < widths.count {
                    let last = i == row.count - 1
                    let cell = TextWidth.truncate(cell, to: widths[i])
                    if numeric[i] {
                        parts.append(TextWidth.pad(cell, to: widths[i], right: true))
                    } else {
                        parts.append(last ? cell : TextWidth.pad(cell, to: widths[i]))
                    }
                }
                // An empty last cell leaves the padding before it: no line ends in spaces.
                var text = parts.joined(separator: "  ")
                while text.last == " " { text.removeLast() }
                return text
            }
            let head = line(grid.headers)
            lines.append(color ? "\u{1B}[1m" + head + "\u{1B}[0m" : head)
            lines += cells.map(line)
        }
        lines += output.tableAfter
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }

    /// Narrows the widest shrinkable column until the table fits `width` (two spaces between
    /// columns), a column keeping at least its header's width up to 8 cells.
    static func fit(_ widths: inout [Int], into width: Int, shrinkable: [Bool], headers: [String]) {
        var total = widths.reduce(0, +) + 2 * max(0, widths.count - 1)
        let floor = { (i: Int) in min(max(3, TextWidth.of(headers[i])), 8) }
        while total > width {
            guard let i = widths.indices.filter({ shrinkable[$0] && widths[$0] > floor($0) }).max(by: { widths[$0] < widths[$1] }) else { return }
            let target = max(floor(i), widths[i] - (total - width))
            total -= widths[i] - target
            widths[i] = target
        }
    }

    /// Table cells: local `HH:MM` for times, lists joined with commas.
    static func tableText(_ value: Value) -> String {
        switch value {
        case .string(let s): return Sanitize.text(s).replacingOccurrences(of: "\n", with: " ")
        case .time(let date, let zone): return ClockTime.hhmm(date, zone: zone)
        case .list(let items): return items.map(tableText).joined(separator: ",")
        case .bool(let b): return b ? "yes" : "no"
        default: return flatText(value)
        }
    }

    // MARK: tsv / csv

    /// Rows of cells written as bytes into one buffer (as JSON is): printable ASCII text copied
    /// whole, integers and times digit by digit.
    func delimited(_ output: Output, separator: String, header: Bool) -> String {
        let csv = separator == ","
        let grid = output.flat
        let comma = UInt8(ascii: csv ? "," : "\t"), end = csv ? "\r\n" : "\n"
        var out: [UInt8] = []
        out.reserveCapacity(1 << 16)
        if header && !grid.headers.isEmpty {
            for (i, key) in grid.headers.enumerated() {
                if i > 0 { out.append(comma) }
                out.append(contentsOf: (csv ? Self.csvQuote(key) : key).utf8)
            }
            out.append(contentsOf: end.utf8)
        }
        for row in grid.rows {
            for (i, value) in row.enumerated() {
                if i > 0 { out.append(comma) }
                Self.flatCell(value, csv: csv, into: &out)
            }
            out.append(contentsOf: end.utf8)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// One tsv or csv cell: `flatText`, cleaned (tsv) or quoted (csv).
    static func flatCell(_ value: Value, csv: Bool, into out: inout [UInt8]) {
        switch value {
        case .null: return
        case .int(let i): JSONWriter.digits(i, into: &out)
        case .time(let date, let zone): ClockTime.iso8601(date, zone: zone, into: &out)
        case .string(let s) where plain(s, csv: csv): out.append(contentsOf: s.utf8)
        default:
            let text = flatText(value)
            out.append(contentsOf: (csv ? csvQuote(text) : tsvClean(text)).utf8)
        }
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
public enum JSONWriter {
    public static func write(_ value: Value) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(1 << 16)
        append(value, to: &out, indent: 0)
        return String(decoding: out, as: UTF8.self)
    }

    /// `value` as a whole output: the text and its last newline (added in the buffer, where
    /// `write(value) + "\n"` copied all of it once more).
    public static func document(_ value: Value) -> String {
        if case .list(let items) = value { return document(count: items.count) { items[$0] } }
        var out: [UInt8] = []
        out.reserveCapacity(1 << 16)
        append(value, to: &out, indent: 0)
        out.append(UInt8(ascii: "\n"))
        return String(decoding: out, as: UTF8.self)
    }

    /// A list of `count` values made one at a time by `element`, as a whole output: each is
    /// written and let go before the next is made.
    public static func document(count: Int, _ element: (Int) -> Value) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(1 << 16)
        list(count: count, element, to: &out, indent: 0)
        out.append(UInt8(ascii: "\n"))
        return String(decoding: out, as: UTF8.self)
    }

    static func list(count: Int, _ element: (Int) -> Value, to out: inout [UInt8], indent: Int) {
        if count == 0 { out.append(contentsOf: "[]".utf8); return }
        out.append(contentsOf: "[\n".utf8)
        for i in 0..<count {
            spaces(indent + 1, into: &out)
            append(element(i), to: &out, indent: indent + 1)
            out.append(contentsOf: (i == count - 1 ? "\n" : ",\n").utf8)
            // A long list of records: room for all of them as large as the first, at once
            // (growing by doubling copied everything written, four times over, on 15 MB).
            if i == 0 && indent == 0 && count > 64 { out.reserveCapacity(out.count * (count + count / 8)) }
        }
        spaces(indent, into: &out)
        out.append(UInt8(ascii: "]"))
    }

    static func append(_ value: Value, to out: inout [UInt8], indent: Int) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .string(let s): quote(s, into: &out)
        case .int(let i): digits(i, into: &out)
        case .double(let d):
            if d.isFinite { out.append(contentsOf: number(d).utf8) } else { out.append(contentsOf: "null".utf8) }
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .time(let date, let zone):
            out.append(UInt8(ascii: "\""))
            ClockTime.iso8601(date, zone: zone, into: &out)
            out.append(UInt8(ascii: "\""))
        case .list(let items):
            list(count: items.count, { items[$0] }, to: &out, indent: indent)
        case .object(let record):
            if record.fields.isEmpty { out.append(contentsOf: "{}".utf8); return }
            out.append(contentsOf: "{\n".utf8)
            for (i, field) in record.fields.enumerated() {
                spaces(indent + 1, into: &out)
                quote(field.key, into: &out)
                out.append(contentsOf: ": ".utf8)
                append(field.value, to: &out, indent: indent + 1)
                out.append(contentsOf: (i == record.fields.count - 1 ? "\n" : ",\n").utf8)
            }
            spaces(indent, into: &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Two spaces a level.
    @inline(__always) static func spaces(_ level: Int, into out: inout [UInt8]) {
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
    }

    /// A decimal integer, digit by digit (no String made for it).
    static func digits(_ value: Int, into out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let first = out.count
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        out[first...].reverse()
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
