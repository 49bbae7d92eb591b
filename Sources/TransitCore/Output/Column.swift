import TransitSupport
/// A column: a header, a snake_case key, and a function of the typed row that gives its value.
/// The JSON records and the tsv/csv rows are built from the same data columns, so the formats
/// cannot disagree; the table has its own list of columns over the same rows.
package struct Column<Row>: Sendable {
    package typealias Use = ColumnUse

    package var key: String
    package var header: String
    package var use: Use
    package var value: @Sendable (Row) -> Value
    /// In a table narrower than its text, this column gives way before the others (a journey's
    /// line names, before where to board and change).
    package var shrinksFirst = false

    package init(_ key: String, _ header: String? = nil, in use: Use = .data, _ value: @escaping @Sendable (Row) -> Value) {
        self.key = key
        self.header = header ?? key.replacingOccurrences(of: "_", with: " ").uppercased()
        self.use = use
        self.value = value
    }
}

extension Column {
    /// The same values under another table header.
    package func titled(_ header: String) -> Column {
        var copy = self
        copy.header = header
        return copy
    }

    /// The same column, giving way first when a table must narrow.
    package func shrinkingFirst() -> Column {
        var copy = self
        copy.shrinksFirst = true
        return copy
    }
}

/// Rows of one table: headers and cells, already computed from typed rows.
package struct Grid: Sendable, Equatable {
    package var headers: [String]
    package var rows: [[Value]]
    /// Per column: it gives way first when the table must narrow (empty: none does).
    package var shrinksFirst: [Bool] = []

    package init(headers: [String] = [], rows: [[Value]] = []) {
        self.headers = headers
        self.rows = rows
    }

    package init<Row>(_ items: [Row], _ columns: [Column<Row>]) {
        headers = columns.map(\.header)
        rows = items.map { item in columns.map { $0.value(item) } }
        shrinksFirst = columns.map(\.shrinksFirst)
    }
}

extension Record {
    /// A nested JSON object from the data columns of one typed value.
    package init<Row>(_ columns: [Column<Row>], _ row: Row) {
        self.init(columns.filter { $0.use.contains(.json) }.map { ($0.key, $0.value(row)) })
    }
}

/// Where a data column appears: JSON, tsv/csv, or both.
package struct ColumnUse: OptionSet, Sendable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }
    package static let json = ColumnUse(rawValue: 1)
    package static let flat = ColumnUse(rawValue: 2)
    package static let data: ColumnUse = [.json, .flat]
}
