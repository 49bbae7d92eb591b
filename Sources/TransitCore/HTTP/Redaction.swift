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
