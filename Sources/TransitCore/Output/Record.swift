import Foundation
import TransitSupport

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
    /// A latitude or longitude, to 6 decimals (about 10 cm): never a computed `-84.46905799999999`.
    public static func coordinate(_ degrees: Double?) -> Value {
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
