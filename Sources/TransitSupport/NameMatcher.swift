import Foundation

/// Resolves what a user typed (a code in any case, a full or partial name) to one candidate,
/// or explains the miss with a did-you-mean. Shared by every provider that takes a place name.
public struct NameMatcher<Value: Sendable>: Sendable {
    public struct Candidate: Sendable {
        public var code: String
        public var names: [String]
        public var value: Value
        public init(code: String, names: [String], value: Value) {
            self.code = code
            self.names = names
            self.value = value
        }
        package var label: String { names.first.map { "\(code) (\($0))" } ?? code }
    }

    public let kind: String
    package let candidates: [Candidate]
    private let normalizedNames: [[String]]

    public init(kind: String, candidates: [Candidate]) {
        self.kind = kind
        self.candidates = candidates
        self.normalizedNames = candidates.map { $0.names.map(NameMatcher.normalize) }
    }

    /// Lower case, accents folded, punctuation as spaces, spaces collapsed.
    public static func normalize(_ text: String) -> String {
        // ASCII (every BART name, most stop names) folds by lowering its letters; Foundation's
        // folding, with its locale, is kept for the rest.
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            var out: [UInt8] = []
            out.reserveCapacity(text.utf8.count)
            var pendingSpace = false
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                    if pendingSpace && !out.isEmpty { out.append(UInt8(ascii: " ")) }
                    pendingSpace = false
                    out.append(byte | (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? 0x20 : 0))
                case UInt8(ascii: "'"):
                    continue
                default:
                    pendingSpace = true
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
        return unicodeNormalize(text)
    }

    /// `normalize` through Foundation's folding, for any text.
    package static func unicodeNormalize(_ text: String) -> String {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        var out = ""
        var pendingSpace = false
        for ch in folded {
            if ch.isLetter || ch.isNumber {
                if pendingSpace && !out.isEmpty { out.append(" ") }
                pendingSpace = false
                out.append(ch)
            } else if ch == "'" || ch == "’" {
                continue
            } else {
                pendingSpace = true
            }
        }
        return out
    }

    /// The one candidate `query` names: code, then exact name, then a unique prefix, then a
    /// unique substring. Throws `.notFound` with up to three suggestions, or `.ambiguous`.
    public func match(_ query: String) throws(TransitError) -> Value {
        let trimmed = query.trimmedSpace()
        let code = trimmed.lowercased()
        if let hit = candidates.first(where: { $0.code.lowercased() == code }) {
            return hit.value
        }
        let q = Self.normalize(trimmed)
        guard !q.isEmpty else { throw .notFound(kind: kind, query: query, suggestions: []) }
        let tiers: [(String) -> Bool] = [
            { $0 == q },
            { $0.hasPrefix(q) },
            { $0.split(separator: " ").contains { $0.hasPrefix(q) } || $0.contains(q) },
        ]
        for test in tiers {
            let hits = candidates.indices.filter { normalizedNames[$0].contains(where: test) }
            if hits.count == 1 { return candidates[hits[0]].value }
            if hits.count > 1 { throw .ambiguous(kind: kind, query: query, candidates: hits.prefix(6).map { candidates[$0].label }) }
        }
        throw .notFound(kind: kind, query: query, suggestions: suggestions(for: q))
    }

    /// Up to three candidates closest to `q` by edit distance on code or name.
    package func suggestions(for q: String) -> [String] {
        var scored: [(Int, Int)] = []
        for (i, candidate) in candidates.enumerated() {
            var best = Self.distance(q, candidate.code.lowercased())
            for name in normalizedNames[i] {
                best = min(best, Self.distance(q, name))
                // A misspelt start of a longer name ("san fransisco" for "san francisco caltrain").
                if name.count > q.count { best = min(best, Self.distance(q, String(name.prefix(q.count))) + 1) }
                for word in name.split(separator: " ") where word.count >= 3 {
                    best = min(best, Self.distance(q, String(word)) + 1)
                }
            }
            let limit = max(2, q.count / 3)
            if best <= limit { scored.append((best, i)) }
        }
        return scored.sorted { $0 < $1 }.prefix(3).map { candidates[$0.1].label }
    }

    /// Edit distance over characters, a swap of two neighbours counting as one edit
    /// (Damerau, optimal string alignment): `--form` is one edit from `--from`.
    package static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
