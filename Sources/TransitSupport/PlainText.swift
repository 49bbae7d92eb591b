/// Small text helpers in plain Swift, for paths where Foundation's equivalents (NSString
/// bridging, CharacterSet, generic searching) showed in the start-up profile.
extension StringProtocol {
    /// Without white space at either end (Unicode's White_Space: spaces, tabs, newlines, NBSP…,
    /// and the zero-width space), as `trimmingCharacters(in: .whitespacesAndNewlines)` gives,
    /// but in Swift: Foundation's goes through NSString and showed in the profile of every
    /// parsed XML value, and cost 0.1 M instructions a call on the command line (issue 67).
    /// Most values have nothing to trim, which the two end bytes tell. `newlines: false` keeps
    /// line breaks, as `trimmingCharacters(in: .whitespaces)` does (its set: Unicode's Zs, the
    /// tab and the zero-width space).
    package func trimmedSpace(newlines: Bool = true) -> String {
        let text = Substring(self)
        guard let head = text.utf8.first, let tail = text.utf8.last else { return "" }
        func asciiSpace(_ b: UInt32) -> Bool { b == 0x20 || b == 0x09 || (newlines && (0x0A...0x0D).contains(b)) }
        if head < 0x80, tail < 0x80, !asciiSpace(UInt32(head)), !asciiSpace(UInt32(tail)) { return String(text) }
        // Foundation's sets hold the zero-width space too (U+200B, a space separator once).
        func space(_ s: Unicode.Scalar) -> Bool {
            s.value < 0x80 ? asciiSpace(s.value) : s.value == 0x200B || (newlines ? s.properties.isWhitespace : s.properties.generalCategory == .spaceSeparator)
        }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !space($0) }), let last = scalars.lastIndex(where: { !space($0) }) else { return "" }
        return String(scalars[first...last])
    }
}

extension String {
    /// Whether `needle`'s UTF-8 bytes occur in this string's: a plain byte search, where
    /// Foundation's `contains` and the standard library's generic `firstRange(of:)` each cost
    /// about a millisecond on first use.
    package func containsBytes(_ needle: [UInt8]) -> Bool {
        var text = self
        return text.withUTF8 { hay in
            guard needle.count <= hay.count, let first = needle.first else { return needle.isEmpty }
            var i = 0
            while i + needle.count <= hay.count {
                if hay[i] == first {
                    var j = 1
                    while j < needle.count && hay[i + j] == needle[j] { j += 1 }
                    if j == needle.count { return true }
                }
                i += 1
            }
            return false
        }
    }
}
