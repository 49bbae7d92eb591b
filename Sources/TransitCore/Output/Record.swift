import Foundation
import TransitSupport

/// A field value. Times keep their zone so every format can show the agency's offset.
package enum Value: Sendable, Equatable {
    case null
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case time(Date, TimeZone)
    case list([Value])
    case object(Record)
    /// A value written once as JSON, to be copied where it is written at the same depth: a
    /// whole day's answer writes the same fare object under thousands of journeys, and writing
    /// it value by value was a tenth of the answer (issue 67). Every other format, and JSON at
    /// another depth, reads the value itself; it equals the value it holds.
    case encoded(EncodedJSON)

    package static func == (a: Value, b: Value) -> Bool {
        switch (a, b) {
        case let (.encoded(x), _): return x.value == b
        case let (_, .encoded(y)): return a == y.value
        case (.null, .null): return true
        case let (.string(x), .string(y)): return x == y
        case let (.int(x), .int(y)): return x == y
        case let (.double(x), .double(y)): return x == y
        case let (.bool(x), .bool(y)): return x == y
        case let (.time(x, zx), .time(y, zy)): return x == y && zx == zy
        case let (.list(x), .list(y)): return x == y
        case let (.object(x), .object(y)): return x == y
        default: return false
        }
    }

    package static func optional(_ text: String?) -> Value { text.map { .string($0) } ?? .null }
    package static func optional(_ number: Int?) -> Value { number.map { .int($0) } ?? .null }
    package static func optional(_ number: Double?) -> Value { number.map { .double($0) } ?? .null }
    /// A latitude or longitude, to 6 decimals (about 10 cm): never a computed `-84.46905799999999`.
    package static func coordinate(_ degrees: Double?) -> Value {
        guard let degrees, degrees.isFinite else { return .null }
        return .double((degrees * 1e6).rounded() / 1e6)
    }

    var isNumeric: Bool {
        switch self {
        case .int, .double: return true
        default: return false
        }
    }
}

/// `value` as JSON at a depth of `indent` (two spaces a level), the bytes `JSONWriter` writes
/// for it there.
package final class EncodedJSON: Sendable {
    package let value: Value
    package let indent: Int
    let bytes: [UInt8]

    package init(_ value: Value, indent: Int) {
        var out: [UInt8] = [], offsets = ZoneOffsets()
        JSONWriter.append(value, to: &out, indent: indent, offsets: &offsets)
        (self.value, self.indent, bytes) = (value, indent, out)
    }
}

/// One output record: ordered fields, snake_case keys. The order is the JSON key order.
package struct Record: Sendable, Equatable {
    package var fields: [Field]

    package struct Field: Sendable, Equatable {
        package var key: String
        package var value: Value
    }

    package init(_ pairs: [(String, Value)]) {
        fields = pairs.map { Field(key: $0.0, value: $0.1) }
    }

    package init(fields: [Field]) {
        self.fields = fields
    }

    package subscript(key: String) -> Value? {
        fields.first { $0.key == key }?.value
    }
}
