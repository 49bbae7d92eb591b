import Foundation
import Testing
@testable import TransitCore
@testable import TransitSupport

/// Issue 71's Parquet writer: rows of every kind (UTF-8 strings, 32- and 64-bit integers,
/// doubles, runs of nulls) over several row groups read back by scripts/parquet-read.py (and
/// pyarrow and DuckDB where installed) to the values written; the same rows, the same bytes;
/// a value its column cannot hold refused.
struct ParquetWriterTests {
    static let columns: [ParquetWriter.Column] = [.init("id", .string), .init("n", .int32, optional: true), .init("big", .int64), .init("x", .double, optional: true)]

    static func rows(_ count: Int, seed: UInt64) -> [[Value]] {
        var g = SplitMix(seed: seed)
        return (0..<count).map { k in
            let nulls = (k / 7) % 3 == 0
            return [.string(k % 5 == 0 ? "stop \(k), \"quoted\" — é" : "o\(k)"), nulls ? .null : .int(Int(Int32(truncatingIfNeeded: g.next()))),
                    .int(Int(Int64(bitPattern: g.next()) >> 8)), g.next() % 4 == 0 ? .null : .double(Double(g.next() % 100_000) / 8)]
        }
    }

    static func write(_ rows: [[Value]], groups: Int, to path: String) throws {
        var bytes: [UInt8] = []
        let writer = ParquetWriter(columns, rowsPerGroup: groups) { bytes += $0 }
        for row in rows { try writer.append(row) }
        try writer.finish()
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// The rows as scripts/parquet-read.py prints them: RFC 4180, a null empty, a whole double without ".0".
    static func csv(_ rows: [[Value]]) -> String {
        func field(_ v: Value) -> String {
            switch v {
            case .null: return ""
            case .string(let s): return s.contains(where: { $0 == "," || $0 == "\"" }) ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
            case .int(let n): return String(n)
            case .double(let d): return d == d.rounded() ? String(Int(d)) : String(d)
            default: return "?"
            }
        }
        return "id,n,big,x\r\n" + rows.map { $0.map(field).joined(separator: ",") + "\r\n" }.joined()
    }

    @Test(.enabled(if: Paths.python != nil, "needs python3 (scripts/setup)"))
    func rowsComeBackAcrossRowGroups() async throws {
        let dir = Paths.temporary()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (count, groups) in [(0, 1000), (1, 1000), (2500, 1000), (3000, 1000), (40, 7)] {
            let rows = Self.rows(count, seed: UInt64(count))
            let parquet = dir + "/r\(count).parquet", csv = dir + "/r\(count).csv"
            try Self.write(rows, groups: groups, to: parquet)
            try Self.csv(rows).write(toFile: csv, atomically: true, encoding: .utf8)
            let problems = try await ParquetCheck.problems(parquet, against: csv)
            #expect(problems.isEmpty, "\(count) rows in groups of \(groups): \(problems)")
            // The same rows, the same bytes.
            try Self.write(rows, groups: groups, to: parquet + ".again")
            #expect(FileManager.default.contents(atPath: parquet) == FileManager.default.contents(atPath: parquet + ".again"))
        }
    }

    @Test func aValueItsColumnCannotHoldIsRefused() {
        for row: [Value] in [[.null, .null, .int(1), .null], [.string("a"), .int(1 << 40), .int(1), .null], [.string("a"), .string("b"), .int(1), .null],
                             [.string("a"), .null, .int(1)]] {
            let writer = ParquetWriter(Self.columns) { _ in }
            #expect(throws: TransitError.self) { try writer.append(row) }
        }
    }
}
