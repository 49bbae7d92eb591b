import Foundation
import TransitSupport

/// Environment variables in real-time sources (`$NAME`, `${NAME}`): where one may stand and which
/// a remembered source may read. A catalog row names a parameter and a host; were the variable
/// named after the parameter, a row saying `AWS_SECRET_ACCESS_KEY` would have transit send that
/// secret to the row's host. So the variables are the user's choice: typed on the command line,
/// chosen at import (`--realtime-key NAME`), or `TRANSIT_KEY_…`, a name kept for this purpose.
enum RealtimeKeys {
    static let prefix = "TRANSIT_KEY_"

    /// Each `$NAME` and `${NAME}` of `text`, in order: where it stands and the name. A `$` not
    /// followed by a name (`$5`, `${`) is text.
    static func references(in text: String) -> [(range: Range<String.Index>, name: String)] {
        var found: [(Range<String.Index>, String)] = []
        var rest = text[...]
        while let dollar = rest.firstIndex(of: "$") {
            var after = text[text.index(after: dollar)...]
            let braced = after.first == "{"
            if braced { after = after.dropFirst() }
            let name = after.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            var end = name.endIndex
            guard let first = name.first, !first.isNumber, !braced || text[end...].first == "}" else {
                rest = text[text.index(after: dollar)...]
                continue
            }
            if braced { end = text.index(after: end) }
            found.append((dollar..<end, String(name)))
            rest = text[end...]
        }
        return found
    }

    /// A name a variable can have: a letter or `_`, then letters, digits and `_`.
    static func isName(_ text: String) -> Bool {
        guard let first = text.first, !first.isNumber else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }

    /// The first variable of a URL before its query string (scheme, host, path): a key belongs in
    /// the query or a header, and a value put into a path would go out in the request line and
    /// into a recording's file name.
    static func inPath(_ url: String) -> String? {
        let head = url.prefix { $0 != "?" && $0 != "#" }
        return references(in: String(head)).first?.name
    }

    /// The variables `texts` read that neither `chosen` names nor begin with `TRANSIT_KEY_`,
    /// each once, in order.
    static func unchosen(_ texts: [String], chosen: Set<String>) -> [String] {
        var out: [String] = []
        for text in texts {
            for name in references(in: text).map(\.name) where !name.hasPrefix(prefix) && !chosen.contains(name) && !out.contains(name) {
                out.append(name)
            }
        }
        return out
    }

    /// The variables typed in `sources` and `headers`, each once: what the user chose at import.
    static func typed(_ sources: [String], _ headers: [String]) -> [String] {
        var out: [String] = []
        for name in (sources + headers).flatMap({ references(in: $0).map(\.name) }) where !out.contains(name) { out.append(name) }
        return out
    }

    /// The variable a catalog import reads its feed's key from unless `--realtime-key` names one:
    /// `TRANSIT_KEY_` and the feed's name (`caltrain` → `TRANSIT_KEY_CALTRAIN`).
    static func variable(forFeed name: String) -> String {
        prefix + String(name.uppercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
    }
}
