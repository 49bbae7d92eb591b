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

/// Server text is untrusted: control characters never reach a terminal or a line-based format.
public enum Sanitize {
    /// `text` without C0 controls (but tab and line feed, which each format handles) and
    /// without DEL and C1 controls: no escape sequence survives (`ESC]0;…BEL`, `ESC[2J`).
    public static func text(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !isControl(scalar) { out.append(scalar) }
        return String(out)
    }

    static func isControl(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        return (v < 0x20 && v != 0x09 && v != 0x0A) || (0x7F...0x9F).contains(v)
    }
}
