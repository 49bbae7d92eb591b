/// Terminal display width: East Asian wide and fullwidth characters take two cells,
/// combining marks none. Enough for station names in Chinese, accents and emoji.
public enum TextWidth {
    public static func of(_ text: String) -> Int {
        var width = 0
        for character in text {
            guard let scalar = character.unicodeScalars.first else { continue }
            width += cells(scalar)
        }
        return width
    }

    package static func cells(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x20 || (0x7F..<0xA0).contains(v) { return 0 }
        if (0x0300...0x036F).contains(v) || (0x200B...0x200F).contains(v) || v == 0xFEFF { return 0 }
        if (0x1100...0x115F).contains(v) || (0x2E80...0x303E).contains(v) || (0x3041...0x33FF).contains(v)
            || (0x3400...0x4DBF).contains(v) || (0x4E00...0x9FFF).contains(v) || (0xA000...0xA4CF).contains(v)
            || (0xAC00...0xD7A3).contains(v) || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v)
            || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1F64F).contains(v)
            || (0x1F900...0x1F9FF).contains(v) || (0x20000...0x3FFFD).contains(v) {
            return 2
        }
        return 1
    }

    /// `text` padded with spaces to `width` display cells.
    /// `text` cut to at most `width` terminal cells, ending in `…` when cut.
    public static func truncate(_ text: String, to width: Int) -> String {
        guard of(text) > width else { return text }
        guard width > 1 else { return width == 1 ? "…" : "" }
        var out = String.UnicodeScalarView(), used = 0
        for scalar in text.unicodeScalars {
            let w = cells(scalar)
            if used + w > width - 1 { break }
            out.append(scalar)
            used += w
        }
        return String(out) + "…"
    }

    public static func pad(_ text: String, to width: Int, right: Bool = false) -> String {
        let gap = max(0, width - of(text))
        let spaces = String(repeating: " ", count: gap)
        return right ? spaces + text : text + spaces
    }
}
