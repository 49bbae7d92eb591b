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
