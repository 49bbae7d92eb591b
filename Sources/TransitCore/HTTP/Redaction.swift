import Foundation
import TransitSupport

/// Secrets out of text that transit prints or records.
package enum Redaction {
    /// The configured secrets of this process (keys, tokens, URL passwords), as given and
    /// percent-encoded: whatever a server echoes back, none of them is printed or recorded.
    private static let secrets = Locked([String]())

    /// Remembers `secret` (four characters or more: shorter ones would blank ordinary text).
    package static func register(_ secret: String) {
        guard secret.count >= 4 else { return }
        let forms = Set([secret, HTTPRequest.encode(secret)])
        secrets.withLock { list in
            for form in forms where !list.contains(form) { list.append(form) }
            list.sort { $0.count > $1.count }
        }
    }

    /// Whether any secret is registered (else output needs no scrubbing).
    package static var isActive: Bool { !secrets.current.isEmpty }

    /// `text` with every registered secret replaced by `REDACTED`.
    package static func scrub(_ text: String) -> String {
        let all = secrets.current
        guard !all.isEmpty else { return text }
        var out = text
        // A byte search first: most text holds no secret.
        for secret in all where out.containsBytes(Array(secret.utf8)) {
            out = out.replacingOccurrences(of: secret, with: "REDACTED")
        }
        return out
    }

    /// Does `data` hold a registered secret?
    package static func contains(_ data: Data) -> Bool {
        secrets.current.contains { data.range(of: Data($0.utf8)) != nil }
    }

    /// `data` with every registered secret replaced by `REDACTED`, byte for byte elsewhere.
    package static func scrub(_ data: Data) -> Data {
        let all = secrets.current
        guard !all.isEmpty else { return data }
        var out = data
        for secret in all {
            let needle = Data(secret.utf8), replacement = Data("REDACTED".utf8)
            var searchStart = out.startIndex
            while let found = out.range(of: needle, in: searchStart..<out.endIndex) {
                out.replaceSubrange(found, with: replacement)
                searchStart = found.lowerBound + replacement.count
            }
        }
        return out
    }

    /// The password of `user:password@` in a URL, if any.
    package static func password(inURL text: String) -> String? {
        guard let parts = URLComponents(string: text), let password = parts.password, !password.isEmpty else { return nil }
        return password
    }

    /// `https://user:secret@host/…` → `https://user:REDACTED@host/…`; other text unchanged.
    package static func url(_ text: String) -> String {
        guard let scheme = text.range(of: "://") else { return text }
        let rest = text[scheme.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard let at = authority.lastIndex(of: "@") else { return text }
        let userInfo = authority[..<at]
        let user = userInfo.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
        let shown = userInfo.contains(":") ? user + ":REDACTED" : user
        return String(text[..<scheme.upperBound]) + shown + String(rest[at...])
    }
}

/// Server text is untrusted: control characters never reach a terminal or a line-based format.
package enum Sanitize {
    /// `text` without C0 controls (but tab and line feed, which each format handles), DEL, C1
    /// controls and bidi overrides: no escape sequence survives (`ESC]0;…BEL`, `ESC[2J`, CSI
    /// as U+009B), and nothing reorders the line.
    package static func text(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !isControl(scalar) { out.append(scalar) }
        return String(out)
    }

    /// `text` as one line of a line-based output: controls stripped, newlines and tabs as spaces.
    package static func line(_ text: String) -> String {
        Self.text(text).replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\t", with: " ")
    }

    /// C0 (but tab and line feed), DEL, C1, and the bidirectional embeddings, overrides and
    /// isolates (U+202A–U+202E, U+2066–U+2069), which reorder what a terminal shows after them
    /// ("Trojan Source"): a feed's name could make the next columns read backwards.
    static func isControl(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        return (v < 0x20 && v != 0x09 && v != 0x0A) || (0x7F...0x9F).contains(v) || isBidiControl(v)
    }

    static func isBidiControl(_ v: UInt32) -> Bool { (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) }
}
