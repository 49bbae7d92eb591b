import Foundation

/// A field value. Times keep their zone so every format can show the agency's offset.
public enum Value: Sendable, Equatable {
    case null
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case time(Date, TimeZone)
    case list([Value])
    case object(Record)

    public static func optional(_ text: String?) -> Value { text.map { .string($0) } ?? .null }
    public static func optional(_ number: Int?) -> Value { number.map { .int($0) } ?? .null }
    public static func optional(_ number: Double?) -> Value { number.map { .double($0) } ?? .null }

    var isNumeric: Bool {
        switch self {
        case .int, .double: return true
        default: return false
        }
    }
}

/// One output record: ordered fields, snake_case keys. The order is the JSON key order.
public struct Record: Sendable, Equatable {
    public var fields: [Field]

    public struct Field: Sendable, Equatable {
        public var key: String
        public var value: Value
    }

    public init(_ pairs: [(String, Value)]) {
        fields = pairs.map { Field(key: $0.0, value: $0.1) }
    }

    public subscript(key: String) -> Value? {
        fields.first { $0.key == key }?.value
    }
}

/// A column of the table or of tsv/csv: a header and how to get the cell from a record
/// (by default, the field called `key`).
public struct Column: Sendable {
    public var key: String
    public var header: String
    public var value: @Sendable (Record) -> Value

    public init(_ key: String, _ header: String? = nil, value: (@Sendable (Record) -> Value)? = nil) {
        self.key = key
        self.header = header ?? key.replacingOccurrences(of: "_", with: " ").uppercased()
        self.value = value ?? { $0[key] ?? .null }
    }
}

/// What a command produced: records and how to lay them out. Only the renderer writes stdout.
public struct Output: Sendable {
    public var records: [Record]
    /// Columns of the terminal table.
    public var table: [Column]
    /// Columns of tsv and csv, in order; defaults to every scalar field of the first record.
    public var flat: [Column]?
    /// For commands whose JSON is not a plain array (`{"predictions": [...], "alerts": [...]}`).
    public var json: Value?
    /// Lines printed on stderr as notices (unless `--quiet`); for an empty result, say why.
    public var notices: [String]
    /// Lines printed around the table only (alerts before and after a predictions table).
    public var tableBefore: [String]
    public var tableAfter: [String]
    /// geojson, where the command returns places.
    public var geoJSON: Value?

    public init(records: [Record], table: [Column], flat: [Column]? = nil, json: Value? = nil,
                notices: [String] = [], tableBefore: [String] = [], tableAfter: [String] = [], geoJSON: Value? = nil) {
        self.records = records
        self.table = table
        self.flat = flat
        self.json = json
        self.notices = notices
        self.tableBefore = tableBefore
        self.tableAfter = tableAfter
        self.geoJSON = geoJSON
    }
}
