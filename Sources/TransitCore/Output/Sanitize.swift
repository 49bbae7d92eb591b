import Foundation

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
