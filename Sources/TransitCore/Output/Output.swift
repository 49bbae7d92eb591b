/// What a command produced, in every format's shape: JSON records, tsv/csv rows, a table.
/// Only the renderer writes stdout.
public struct Output: Sendable {
    /// The JSON form: one record per row, every data column in order.
    public var records: [Record]
    /// tsv and csv: keys and rows of the data columns used flat.
    public var flat: Grid
    /// The terminal table.
    public var table: Grid
    /// For commands whose JSON is not a plain array (`{"predictions": [...], "alerts": [...]}`).
    public var json: Value?
    /// Lines printed on stderr as notices (unless `--quiet`); for an empty result, say why.
    public var notices: [String]
    /// Lines printed around the table only (alerts before and after a predictions table).
    public var tableBefore: [String] = []
    public var tableAfter: [String] = []
    /// geojson, where the command returns places.
    public var geoJSON: Value?

    /// Rows through their data columns (JSON, tsv/csv) and table columns.
    public init<Row>(_ rows: [Row], data: [Column<Row>], table: [Column<Row>], notices: [String] = []) {
        records = rows.map { row in Record(data.filter { $0.use.contains(.json) }.map { ($0.key, $0.value(row)) }) }
        let flatColumns = data.filter { $0.use.contains(.flat) }
        flat = Grid(headers: flatColumns.map(\.key), rows: rows.map { row in flatColumns.map { $0.value(row) } })
        self.table = Grid(rows, table)
        self.notices = notices
    }

    /// Nothing to show, and why.
    public static func empty(_ notices: [String]) -> Output {
        Output([Never](), data: [], table: [], notices: notices)
    }
}
