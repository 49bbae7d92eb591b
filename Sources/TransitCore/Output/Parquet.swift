import TransitSupport

/// Parquet, written by hand (`--format parquet`): one row group per `rowsPerGroup` rows, each
/// column of a group one data page (version 1), plain encoding, no compression, definition
/// levels for the nullable columns; the footer's metadata in Thrift's compact protocol. What
/// r5r users asked of a million-row matrix (r5r#369: "reading 30k files is poor"), readable by
/// pyarrow, DuckDB, Spark and polars. A fixed `created_by` and nothing else of the moment, so
/// two runs write the same bytes. scripts/parquet-read.py reads it back with the standard library.
package final class ParquetWriter {
    package struct Column: Sendable, Equatable {
        package enum Kind: Sendable, Equatable {
            /// BYTE_ARRAY, UTF8.
            case string
            case int32
            case int64
            case double
        }

        package var name: String
        package var kind: Kind
        /// Nullable (OPTIONAL), else REQUIRED.
        package var optional: Bool

        package init(_ name: String, _ kind: Kind, optional: Bool = false) {
            (self.name, self.kind, self.optional) = (name, kind, optional)
        }
    }

    package static let rowsPerGroup = 1_000_000
    private let rowsPerGroup: Int
    package static let createdBy = "transit"

    private let columns: [Column]
    private let write: ([UInt8]) -> Void
    private var offset = 0
    private var groups: [(chunks: [(pageOffset: Int, size: Int, values: Int)], rows: Int)] = []
    /// The group being gathered: each column's plain values and definition levels.
    private var values: [[UInt8]]
    private var defined: [[UInt8]]
    private var rows = 0
    private var total = 0

    /// Writes the magic number; `write` takes the file's bytes in order. `rowsPerGroup`: other
    /// than a million only for the tests of groups.
    package init(_ columns: [Column], rowsPerGroup: Int = ParquetWriter.rowsPerGroup, write: @escaping ([UInt8]) -> Void) {
        (self.columns, self.write, self.rowsPerGroup) = (columns, write, max(1, rowsPerGroup))
        values = columns.map { _ in [] }
        defined = columns.map { _ in [] }
        emit(Array("PAR1".utf8))
    }

    private func emit(_ bytes: [UInt8]) {
        offset += bytes.count
        write(bytes)
    }

    /// One row, a value per column in order.
    package func append(_ row: [Value]) throws(TransitError) {
        guard row.count == columns.count else { throw .usage("a Parquet row of \(row.count) values for \(columns.count) columns") }
        for (k, (column, value)) in zip(columns, row).enumerated() {
            if case .null = value {
                guard column.optional else { throw .usage("Parquet column \(column.name) takes no null") }
                defined[k].append(0)
                continue
            }
            if column.optional { defined[k].append(1) }
            switch (column.kind, value) {
            case (.string, .string(let text)):
                let bytes = Array(text.utf8)
                guard let length = UInt32(exactly: bytes.count) else { throw .usage("Parquet column \(column.name): a value of more than 4 GB") }
                Self.littleEndian(UInt64(length), 4, into: &values[k])
                values[k] += bytes
            case (.int32, .int(let n)):
                guard let small = Int32(exactly: n) else { throw .usage("Parquet column \(column.name): \(n) is beyond a 32-bit integer") }
                Self.littleEndian(UInt64(UInt32(bitPattern: small)), 4, into: &values[k])
            case (.int64, .int(let n)):
                Self.littleEndian(UInt64(bitPattern: Int64(n)), 8, into: &values[k])
            case (.double, .double(let d)):
                Self.littleEndian(d.bitPattern, 8, into: &values[k])
            case (.double, .int(let n)):
                Self.littleEndian(Double(n).bitPattern, 8, into: &values[k])
            default:
                throw .usage("Parquet column \(column.name) of \(column.kind) takes no \(value)")
            }
        }
        rows += 1
        if rows == rowsPerGroup { try flush() }
    }

    /// The last group and the footer.
    package func finish() throws(TransitError) {
        if rows > 0 { try flush() }
        var meta = CompactWriter()
        meta.i32(1, 1)
        meta.listHeader(2, count: columns.count + 1, element: CompactWriter.structType)
        meta.element { w in
            w.binary(4, Array("schema".utf8))
            w.i32(5, Int32(columns.count))
        }
        for column in columns {
            meta.element { w in
                w.i32(1, Self.physicalType(column.kind))
                w.i32(3, column.optional ? 1 : 0)
                w.binary(4, Array(column.name.utf8))
                if column.kind == .string {
                    w.i32(6, 0)  // converted type UTF8
                    w.structure(10) { $0.structure(1) { _ in } }  // logical type STRING
                }
            }
        }
        meta.i64(3, Int64(total))
        meta.listHeader(4, count: groups.count, element: CompactWriter.structType)
        for group in groups {
            meta.element { w in
                w.listHeader(1, count: columns.count, element: CompactWriter.structType)
                for (column, chunk) in zip(columns, group.chunks) {
                    w.element { c in
                        c.i64(2, Int64(chunk.pageOffset))
                        c.structure(3) { m in
                            m.i32(1, Self.physicalType(column.kind))
                            m.listHeader(2, count: 2, element: CompactWriter.i32Type)
                            m.listI32(0)  // PLAIN
                            m.listI32(3)  // RLE
                            m.listHeader(3, count: 1, element: CompactWriter.binaryType)
                            m.listBinary(Array(column.name.utf8))
                            m.i32(4, 0)  // UNCOMPRESSED
                            m.i64(5, Int64(chunk.values))
                            m.i64(6, Int64(chunk.size))
                            m.i64(7, Int64(chunk.size))
                            m.i64(9, Int64(chunk.pageOffset))
                        }
                    }
                }
                w.i64(2, Int64(group.chunks.reduce(0) { $0 + $1.size }))
                w.i64(3, Int64(group.rows))
            }
        }
        meta.binary(6, Array(Self.createdBy.utf8))
        meta.stop()
        var tail = meta.out
        Self.littleEndian(UInt64(meta.out.count), 4, into: &tail)
        tail += Array("PAR1".utf8)
        emit(tail)
    }

    /// The gathered rows as a row group: each column one data page.
    private func flush() throws(TransitError) {
        var chunks: [(pageOffset: Int, size: Int, values: Int)] = []
        for (k, column) in columns.enumerated() {
            var body: [UInt8] = []
            if column.optional {
                let levels = Self.runs(defined[k])
                Self.littleEndian(UInt64(levels.count), 4, into: &body)
                body += levels
            }
            body += values[k]
            guard body.count <= Int(Int32.max) else { throw .usage("Parquet column \(column.name) holds more than 2 GB in a row group") }
            var header = CompactWriter()
            header.i32(1, 0)  // DATA_PAGE
            header.i32(2, Int32(body.count))
            header.i32(3, Int32(body.count))
            header.structure(5) { h in
                h.i32(1, Int32(clamping: rows))
                h.i32(2, 0)  // PLAIN
                h.i32(3, 3)  // RLE
                h.i32(4, 3)
            }
            header.stop()
            chunks.append((offset, header.out.count + body.count, rows))
            emit(header.out)
            emit(body)
            values[k].removeAll(keepingCapacity: true)
            defined[k].removeAll(keepingCapacity: true)
        }
        groups.append((chunks, rows))
        total += rows
        rows = 0
    }

    /// Definition levels of bit width 1 in the RLE/bit-packed hybrid, as runs.
    static func runs(_ levels: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [], k = 0
        while k < levels.count {
            var end = k
            while end < levels.count && levels[end] == levels[k] { end += 1 }
            CompactWriter.varint(UInt64(end - k) << 1, into: &out)
            out.append(levels[k])
            k = end
        }
        return out
    }

    static func physicalType(_ kind: Column.Kind) -> Int32 {
        switch kind {
        case .int32: 1
        case .int64: 2
        case .double: 5
        case .string: 6
        }
    }

    static func littleEndian(_ value: UInt64, _ bytes: Int, into out: inout [UInt8]) {
        for k in 0..<bytes { out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(k)))) }
    }
}

/// Thrift's compact protocol, what Parquet's metadata is written in: a field's id as a delta
/// from the last one in its struct (with its type in one byte), integers zigzag varints.
struct CompactWriter {
    static let i32Type: UInt8 = 5, i64Type: UInt8 = 6, binaryType: UInt8 = 8, listType: UInt8 = 9, structType: UInt8 = 12
    var out: [UInt8] = []
    /// The last field id of each struct open.
    private var last: [Int] = [0]

    static func varint(_ value: UInt64, into out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    private mutating func zigzag(_ v: Int64) { Self.varint(UInt64(bitPattern: (v << 1) ^ (v >> 63)), into: &out) }

    private mutating func field(_ id: Int, _ type: UInt8) {
        let delta = id - (last.last ?? 0)
        if delta > 0 && delta <= 15 {
            out.append(UInt8(delta) << 4 | type)
        } else {
            out.append(type)
            zigzag(Int64(id))
        }
        last[last.count - 1] = id
    }

    mutating func i32(_ id: Int, _ v: Int32) {
        field(id, Self.i32Type)
        zigzag(Int64(v))
    }

    mutating func i64(_ id: Int, _ v: Int64) {
        field(id, Self.i64Type)
        zigzag(v)
    }

    mutating func binary(_ id: Int, _ bytes: [UInt8]) {
        field(id, Self.binaryType)
        Self.varint(UInt64(bytes.count), into: &out)
        out += bytes
    }

    /// A struct field: `body` writes its fields.
    mutating func structure(_ id: Int, _ body: (inout CompactWriter) -> Void) {
        field(id, Self.structType)
        element(body)
    }

    /// A struct as a list's element.
    mutating func element(_ body: (inout CompactWriter) -> Void) {
        last.append(0)
        body(&self)
        stop()
    }

    /// The end of a struct.
    mutating func stop() {
        out.append(0)
        if last.count > 1 { last.removeLast() }
    }

    mutating func listHeader(_ id: Int, count: Int, element: UInt8) {
        field(id, Self.listType)
        if count < 15 {
            out.append(UInt8(count) << 4 | element)
        } else {
            out.append(0xF0 | element)
            Self.varint(UInt64(count), into: &out)
        }
    }

    mutating func listI32(_ v: Int32) { zigzag(Int64(v)) }

    mutating func listBinary(_ bytes: [UInt8]) {
        Self.varint(UInt64(bytes.count), into: &out)
        out += bytes
    }
}
