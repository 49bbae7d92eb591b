import Foundation

/// A loosely typed document: what JSON and simple XML both map to, so one mapping reads
/// either. Accessors are lenient the way upstream APIs need: a number may come as a string,
/// a list may come as a single object, an absent list is empty.
public indirect enum Loose: Sendable, Equatable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([Loose])
    case object([String: Loose])

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let n = try? c.decode(Double.self) { self = .number(n) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([Loose].self) { self = .array(a) }
        else { self = .object(try c.decode([String: Loose].self)) }
    }

    /// Parses JSON; throws `.parse` naming `what`.
    public static func json(_ data: Data, what: String) throws(TransitError) -> Loose {
        do {
            return try JSONDecoder().decode(Loose.self, from: data)
        } catch {
            throw .parse(what: what, reason: "not valid JSON")
        }
    }

    /// An XML element as an object: child elements by name (repeated names become arrays),
    /// leaf elements as their trimmed text.
    public static func xml(_ node: XMLNode) -> Loose {
        if node.children.isEmpty { return .string(node.text) }
        var fields: [String: Loose] = [:]
        for child in node.children {
            let value = xml(child)
            switch fields[child.name] {
            case nil: fields[child.name] = value
            case .array(let items)?: fields[child.name] = .array(items + [value])
            case let existing?: fields[child.name] = .array([existing, value])
            }
        }
        return .object(fields)
    }

    public subscript(key: String) -> Loose? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }

    /// The elements of a list that may be an array, one object, or absent/empty.
    public var items: [Loose] {
        switch self {
        case .array(let items): return items
        case .null: return []
        case .string(let s): return s.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? [] : [self]
        default: return [self]
        }
    }

    /// Text of a string, number or bool; nil for anything else.
    public var string: String? {
        switch self {
        case .string(let s): return s
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
        case .bool(let b): return b ? "true" : "false"
        default: return nil
        }
    }

    /// Trimmed text, nil when empty.
    public var text: String? {
        guard let s = string?.trimmingCharacters(in: .whitespacesAndNewlines), !s.isEmpty else { return nil }
        return s
    }

    /// A number, or a string holding one.
    public var double: Double? {
        switch self {
        case .number(let n): return n
        case .string(let s): return Double(s.trimmingCharacters(in: .whitespaces))
        default: return nil
        }
    }

    public var int: Int? {
        guard let d = double, d.isFinite, abs(d) < 1e15 else { return nil }
        return Int(d)
    }

    /// A bool, or `true`/`false`/`1`/`0` as text.
    public var bool: Bool? {
        switch self {
        case .bool(let b): return b
        case .number(let n): return n != 0
        case .string(let s):
            switch s.trimmingCharacters(in: .whitespaces).lowercased() {
            case "true", "1", "yes": return true
            case "false", "0", "no": return false
            default: return nil
            }
        default: return nil
        }
    }
}
