import Foundation

// Small wrapper types for the traps of real JSON APIs, so each field says how it is read and
// JSONDecoder does the rest (with the coding path in every error): a number sent as a string,
// a string sent as a number, a list sent as one object, an empty string for an empty list.

/// Text from a JSON string, number or bool; nil when blank.
public struct Text: Decodable, Sendable {
    public let value: String?

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let s = try? c.decode(String.self) {
            value = Text.trimmed(s)
        } else if let i = try? c.decode(Int.self) {
            value = String(i)
        } else if let d = try? c.decode(Double.self) {
            value = String(d)
        } else if let b = try? c.decode(Bool.self) {
            value = b ? "true" : "false"
        } else if c.decodeNil() {
            value = nil
        } else {
            throw DecodingError.typeMismatch(String.self, .init(codingPath: decoder.codingPath, debugDescription: "expected text"))
        }
    }
}

extension Text {
    /// `s` without surrounding white space, nil when blank.
    package static func trimmed(_ s: String) -> String? {
        let t = s.trimmedSpace()
        return t.isEmpty ? nil : t
    }
}

/// A number from a JSON number or a string holding one; nil when blank. Never NaN or infinite.
public struct Number: Decodable, Sendable {
    public let value: Double?

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let d = try? c.decode(Double.self) {
            value = d
        } else if c.decodeNil() {
            value = nil
        } else {
            let s = try c.decode(String.self).trimmedSpace(newlines: false)
            if s.isEmpty { value = nil; return }
            guard let d = Double(s), d.isFinite else {
                throw DecodingError.dataCorruptedError(in: c, debugDescription: "'\(s.prefix(40))' is not a number")
            }
            value = d
        }
        if let value, !value.isFinite {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "not a finite number")
        }
    }

    /// A whole number that fits an Int (absurd values are nil, never a trap).
    public var int: Int? {
        guard let value, value.isFinite, abs(value) < 9e15 else { return nil }
        return Int(value)
    }
}

/// A flag from a JSON bool, `1`/`0`, or `"true"`/`"false"`/`"yes"`/`"no"`.
public struct Flag: Decodable, Sendable {
    public let value: Bool?

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let b = try? c.decode(Bool.self) { value = b; return }
        if c.decodeNil() { value = nil; return }
        if let n = try? c.decode(Double.self) { value = n != 0; return }
        switch try c.decode(String.self).trimmedSpace(newlines: false).lowercased() {
        case "true", "1", "yes": value = true
        case "false", "0", "no": value = false
        case "": value = nil
        case let other: throw DecodingError.dataCorruptedError(in: c, debugDescription: "'\(other.prefix(40))' is not true or false")
        }
    }
}

/// A list that may come as an array, as one object, as null or as an empty string. Items that
/// cannot be read are counted, with the first reason, instead of failing the whole answer or
/// vanishing without a word.
public struct Items<Element: Decodable>: Decodable {
    public var values: [Element] = []
    /// Why each unreadable item could not be read, with its coding path.
    public var failures: [String] = []

    public init() {}

    public init(from decoder: Decoder) throws {
        if var list = try? decoder.unkeyedContainer() {
            while !list.isAtEnd {
                do {
                    values.append(try list.decode(Element.self))
                } catch {
                    failures.append(DecodeFailure.describe(error))
                    // A failed decode does not move on; skip the item.
                    guard (try? list.decode(Skip.self)) != nil else { break }
                }
            }
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() { return }
        if let text = try? single.decode(String.self) {
            guard text.trimmedSpace().isEmpty else {
                failures.append(DecodeFailure.path(decoder.codingPath) + ": a string where a list was expected")
                return
            }
            return
        }
        // `{}` stands for no items, as some APIs send an empty list.
        if let object = try? decoder.container(keyedBy: AnyKey.self), object.allKeys.isEmpty { return }
        do {
            values.append(try Element(from: decoder))
        } catch {
            failures.append(DecodeFailure.describe(error))
        }
    }

    package struct Skip: Decodable {
        package init(from decoder: Decoder) throws {}
    }
}

extension KeyedDecodingContainer {
    /// A list under `key`, empty when the key is absent.
    public func items<T: Decodable>(_ key: Key) throws -> Items<T> {
        try decodeIfPresent(Items<T>.self, forKey: key) ?? Items()
    }
}

/// A key known only at run time (`routes` in JSON, `route` in XML).
public struct AnyKey: CodingKey {
    public var stringValue: String
    public var intValue: Int?
    public init(_ string: String) { stringValue = string }
    public init?(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { stringValue = String(intValue); self.intValue = intValue }
}

package enum DecodeFailure {
    /// `prd[3].prdtm: expected text`, from a DecodingError.
    package static func describe(_ error: Error) -> String {
        switch error as? DecodingError {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c):
            return path(c.codingPath) + ": " + c.debugDescription
        case .keyNotFound(let key, let c):
            return path(c.codingPath + [key]) + ": missing"
        default:
            return String(describing: error)
        }
    }

    package static func path(_ keys: [CodingKey]) -> String {
        var text = ""
        for key in keys {
            if let i = key.intValue { text += "[\(i)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
        }
        return text.isEmpty ? "the answer" : text
    }

    /// Decodes JSON, turning any failure into `.parse` with the coding path.
    package static func json<T: Decodable>(_ type: T.Type, from data: Data, what: String) throws(TransitError) -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            if case .dataCorrupted(let c) = error, c.codingPath.isEmpty { throw .parse(what: what, reason: "not valid JSON") }
            throw .parse(what: what, reason: describe(error))
        } catch {
            throw .parse(what: what, reason: "not valid JSON")
        }
    }
}

/// Items read from an answer, and those that could not be.
public struct Skipped: Sendable, Equatable {
    public var count = 0
    public var first: String?

    public init() {}

    public mutating func add(_ reasons: [String]) {
        count += reasons.count
        if first == nil { first = reasons.first }
    }

    public mutating func add(_ other: Skipped) {
        count += other.count
        if first == nil { first = other.first }
    }

    /// The notice, or nil when nothing was skipped.
    public func notice(_ what: String, of total: Int) -> String? {
        guard count > 0 else { return nil }
        return "skipped \(count) of \(total) \(what) that could not be read" + (first.map { " (\($0))" } ?? "")
    }
}
