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
    /// How the column gives way in a table narrower than its text (text columns only: times
    /// and numbers never do).
    package var fit = TableFit.cut
    /// A shorter form of the table's cell, shown where the whole one does not fit its column
    /// (a journey's rides without where they head).
    package var brief: (@Sendable (Row) -> Value)?

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

    /// The same column, giving way as `fit` says in a table narrower than its text.
    package func fitting(_ fit: TableFit, brief: (@Sendable (Row) -> Value)? = nil) -> Column {
        var copy = self
        copy.fit = fit
        copy.brief = brief
        return copy
    }

    /// The same column, giving way first when a table must narrow.
    package func shrinkingFirst() -> Column { fitting(.cutFirst) }

    /// The same column, holding names a rider acts on: never cut, wrapped onto continuation
    /// lines instead; `brief` gives the shorter form a cell takes first where its whole text
    /// does not fit.
    package func wrapping(brief: (@Sendable (Row) -> Value)? = nil) -> Column { fitting(.wrap, brief: brief) }

    /// The same column, never narrowed (a time with its delay, `08:04 +4`; a price).
    package func whole() -> Column { fitting(.whole) }
}

/// How a table's text column gives way when the terminal is narrower than the table.
package enum TableFit: Sendable, Equatable {
    /// Cut with an ellipsis, after the `cutFirst` columns (ids, free text).
    case cut
    /// Cut with an ellipsis before any other column (where a line heads, beside its name).
    case cutFirst
    /// Never cut: wrapped onto indented continuation lines (a line's name, where to board),
    /// and only once every column that may be cut has been.
    case wrap
    /// Never narrowed.
    case whole
}

/// Rows of one table: headers and cells, already computed from typed rows.
package struct Grid: Sendable, Equatable {
    package var headers: [String]
    package var rows: [[Value]]
    /// Per column: how it gives way when the table must narrow (empty: each is cut).
    package var fits: [TableFit] = []
    /// Per row, per column: the cell's shorter form (`Column.brief`); empty when no column has one.
    package var briefs: [[Value?]] = []
    /// Per row: lines printed under it, outside the columns (a journey's calls); empty: none.
    package var details: [[String]] = []

    package init(headers: [String] = [], rows: [[Value]] = []) {
        self.headers = headers
        self.rows = rows
    }

    package init<Row>(_ items: [Row], _ columns: [Column<Row>]) {
        headers = columns.map(\.header)
        rows = items.map { item in columns.map { $0.value(item) } }
        fits = columns.map(\.fit)
        if columns.contains(where: { $0.brief != nil }) {
            briefs = items.map { item in columns.map { $0.brief?(item) } }
        }
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
