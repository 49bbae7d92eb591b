import TransitSupport
/// What a command produced, in every format's shape: JSON records, tsv/csv rows, a table.
/// Only the renderer writes stdout.
package struct Output: Sendable {
    /// The JSON form: one record per row, every data column in order.
    package var records: [Record] {
        get { recordsForm.value }
        set {
            recordsForm = Deferred(value: newValue)
            recordStream = nil
        }
    }
    /// The same records one at a time, for JSON to write each as it is made (a whole day's
    /// journeys as records were 37 MB alive at once); nil once `records` is set.
    package private(set) var recordStream: RecordStream?
    /// tsv and csv: keys and rows of the data columns used flat.
    package var flat: Grid {
        get { flatForm.value }
        set { flatForm = Deferred(value: newValue) }
    }
    /// Rows made while they are written (`Output.streamed`); nil: the forms above.
    package var rowStream: RowStream?
    /// The terminal table.
    package var table: Grid {
        get { tableForm.value }
        set { tableForm = Deferred(value: newValue) }
    }
    // Each form is worked out when a format reads it: tsv never pays for JSON records or the
    // table's cells.
    private var recordsForm: Deferred<[Record]>
    private var flatForm: Deferred<Grid>
    private var tableForm: Deferred<Grid>
    /// For commands whose JSON is not a plain array (`{"predictions": [...], "alerts": [...]}`).
    package var json: Value?
    /// Lines printed on stderr as notices (unless `--quiet`); for an empty result, say why.
    package var notices: [String]
    /// Notices known only once the output is written (what writing a lazy column found), printed
    /// after `notices`.
    package var laterNotices: (@Sendable () -> [String])?
    /// A part of the work failed: the answer is written as it is, then this error is reported
    /// and its exit status returned (`gtfs update` of every feed, one source broken).
    package var failure: TransitError?
    /// Lines printed around the table only (alerts before and after a predictions table).
    package var tableBefore: [String] = []
    package var tableAfter: [String] = []
    /// geojson, where the command returns places; like the other forms, worked out only when
    /// that format is asked (`geoJSON(from:)`).
    package var geoJSON: Value? { geoJSONForm?.value }
    private var geoJSONForm: Deferred<Value>?

    /// The geojson form, made from the JSON records when it is asked for (and only then).
    package mutating func geoJSON(from make: @escaping ([Record]) -> Value) {
        let records = recordsForm
        geoJSONForm = Deferred { make(records.value) }
    }

    /// Rows through their data columns (JSON, tsv/csv) and table columns.
    package init<Row>(_ rows: [Row], data: [Column<Row>], table: [Column<Row>], notices: [String] = []) {
        let jsonColumns = data.filter { $0.use.contains(.json) }
        let stream = RecordStream(count: rows.count) { i in Record(jsonColumns.map { ($0.key, $0.value(rows[i])) }) }
        recordsForm = Deferred { (0..<stream.count).map(stream.record) }
        recordStream = stream
        let flatColumns = data.filter { $0.use.contains(.flat) }
        flatForm = Deferred { Grid(headers: flatColumns.map(\.key), rows: rows.map { row in flatColumns.map { $0.value(row) } }) }
        tableForm = Deferred { Grid(rows, table) }
        self.notices = notices
    }

    /// Lines the table prints under each row (a journey's calls), made when the table is.
    package mutating func tableDetails(_ make: @escaping @Sendable () -> [[String]]) {
        let table = tableForm
        tableForm = Deferred {
            var grid = table.value
            grid.details = make()
            return grid
        }
    }

    /// Every form from one grid of rows, gathered when a form is read (a stream's, for a table).
    mutating func setGathered(_ grid: Deferred<Grid>) {
        flatForm = grid
        tableForm = grid
        recordsForm = Deferred { grid.value.rows.map { Record(Array(zip(grid.value.headers, $0))) } }
        recordStream = nil
    }

    /// Nothing to show, and why.
    package static func empty(_ notices: [String]) -> Output {
        Output([Never](), data: [], table: [], notices: notices)
    }
}

/// An output's JSON records, made one at a time from its rows and data columns (the same
/// columns as `Output.records`, so the two cannot disagree). Read by one thread, the renderer's,
/// as `Deferred`'s forms are.
package final class RecordStream: @unchecked Sendable {
    package let count: Int
    private let make: (Int) -> Record

    init(count: Int, _ make: @escaping (Int) -> Record) {
        self.count = count
        self.make = make
    }

    /// Record `i` of `0 ..< count`.
    package func record(_ i: Int) -> Record { make(i) }
}
