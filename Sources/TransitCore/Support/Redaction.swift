/// Secrets out of text that transit prints or records.
public enum Redaction {
    /// `https://user:secret@host/…` → `https://user:REDACTED@host/…`; other text unchanged.
    public static func url(_ text: String) -> String {
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
