import TransitSupport

extension Renderer {
    /// The terminal table, fitted to `width` (`TableLayout`), between its lines before and after.
    func table(_ output: Output) -> String {
        var lines = output.tableBefore
        let grid = output.table
        if !grid.rows.isEmpty && !grid.headers.isEmpty { lines += TableLayout(grid, width: width).lines(bold: color) }
        lines += output.tableAfter
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }
}

/// A table's columns fitted to a terminal's width. Times and numbers keep their width; where
/// the table is too wide, the columns give way in this order: a cell's shorter form where it
/// has one (a journey without where its rides head), the columns that are cut first, the
/// other columns that may be cut (with an ellipsis), and last the columns of names a rider acts
/// on, which wrap onto indented continuation lines rather than lose a character.
struct TableLayout {
    let headers: [String]
    let cells: [[String]]
    /// Per row, per column: the cell's shorter form; empty when no column has one.
    let briefs: [[String?]]
    let numeric: [Bool]
    /// Per row: the lines under it (`Grid.details`).
    let details: [[String]]
    /// The terminal's width, where there is one.
    let width: Int?
    /// Per column, how it gives way: `.whole` for every column that is not text.
    let fits: [TableFit]
    private(set) var widths: [Int]

    /// A continuation line's indent inside its column.
    static let indent = 2

    init(_ grid: Grid, width: Int?) {
        let grid = width.map { Self.withoutEmptyColumns(grid, width: $0) } ?? grid
        headers = grid.headers
        details = grid.details
        self.width = width
        cells = grid.rows.map { row in row.map(Renderer.tableText) }
        briefs = grid.briefs.map { row in row.map { $0.map(Renderer.tableText) } }
        let numeric = grid.headers.indices.map { i in
            grid.rows.allSatisfy { row in i < row.count && (row[i].isNumeric || row[i] == .null) }
        }
        self.numeric = numeric
        let text = grid.headers.indices.map { i in
            !numeric[i] && grid.rows.allSatisfy { row in
                guard i < row.count else { return true }
                switch row[i] { case .string, .null: return true; default: return false }
            }
        }
        fits = grid.headers.indices.map { i in text[i] ? (i < grid.fits.count ? grid.fits[i] : .cut) : .whole }
        widths = grid.headers.map { TextWidth.of($0) }
        for row in cells {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], TextWidth.of(cell)) }
        }
        if let width { fit(into: width) }
    }

    var total: Int { widths.reduce(0, +) + 2 * max(0, widths.count - 1) }

    /// `grid` without its text columns that no row fills, where it is wider than `width`: a
    /// column of nothing gives way before any other, whole (`catalog search`'s NAME and RT for
    /// feeds that have neither).
    static func withoutEmptyColumns(_ grid: Grid, width: Int) -> Grid {
        let columns = grid.headers.indices
        let kept = columns.filter { i in
            !grid.rows.allSatisfy { row in i >= row.count || row[i] == .null || row[i] == .string("") }
        }
        guard kept.count < columns.count, !kept.isEmpty else { return grid }
        // Measured only where some column is empty (most tables have none).
        let wide = columns.reduce(2 * max(0, columns.count - 1)) { sum, i in
            sum + grid.rows.reduce(TextWidth.of(grid.headers[i])) { i < $1.count ? max($0, TextWidth.of(Renderer.tableText($1[i]))) : $0 }
        }
        guard wide > width else { return grid }
        var out = grid
        out.headers = kept.map { grid.headers[$0] }
        out.rows = grid.rows.map { row in kept.map { $0 < row.count ? row[$0] : .null } }
        if !grid.fits.isEmpty { out.fits = kept.map { $0 < grid.fits.count ? grid.fits[$0] : .cut } }
        out.briefs = grid.briefs.map { row in kept.map { $0 < row.count ? row[$0] : nil } }
        return out
    }

    private func brief(_ row: Int, _ column: Int) -> String? {
        row < briefs.count && column < briefs[row].count ? briefs[row][column] : nil
    }

    /// What a cell shows at its narrowest before it wraps: its shorter form, else itself.
    private func shortest(_ row: Int, _ column: Int) -> String {
        brief(row, column) ?? (column < cells[row].count ? cells[row][column] : "")
    }

    private mutating func fit(into width: Int) {
        guard total > width else { return }
        // A header wider than every cell of its column wraps between its words first: a line
        // more above the table loses nothing (`SENIOR/DISABLED CLIPPER` over prices).
        for i in headers.indices {
            let cellsWidest = cells.reduce(0) { i < $1.count ? max($0, TextWidth.of($1[i])) : $0 }
            let headerWord = Self.units(headers[i]).reduce(0) { max($0, TextWidth.of($1)) }
            widths[i] = min(widths[i], max(cellsWidest, headerWord, 1))
        }
        guard total > width else { return }
        let whole = widths
        let hasBrief = headers.indices.map { i in cells.indices.contains { brief($0, i) != nil } }
        // The shorter forms first: such a column needs only its widest shorter form.
        for i in headers.indices where hasBrief[i] {
            widths[i] = cells.indices.reduce(TextWidth.of(headers[i])) { max($0, TextWidth.of(shortest($1, i))) }
        }
        let headers = self.headers, fits = self.fits
        let cutFloor = { (i: Int) in min(max(3, TextWidth.of(headers[i])), 8) }
        narrow(into: width, { fits[$0] == .cutFirst }, floor: cutFloor)
        narrow(into: width, { fits[$0] == .cut }, floor: cutFloor)
        // Names wrap between words (or after a `/`), so a column keeps its longest word and a
        // continuation line's indent before it; only a terminal too narrow for that breaks a word.
        let words = headers.indices.map { i in
            cells.indices.reduce(TextWidth.of(headers[i])) { widest, row in
                Self.units(shortest(row, i)).reduce(widest) { max($0, TextWidth.of($1) + Self.indent) }
            }
        }
        narrowWrapping(into: width, floor: headers.indices.map { min(words[$0], whole[$0]) })
        narrow(into: width, { fits[$0] == .wrap }, floor: cutFloor)
        // Room left over goes back to the columns that took their shorter forms: more cells keep
        // their whole text.
        var spare = width - total
        for i in headers.indices where hasBrief[i] && spare > 0 {
            let more = min(spare, whole[i] - widths[i])
            widths[i] += more
            spare -= more
        }
    }

    /// Narrows the widest of the columns `narrows` picks until the table fits `width` (two
    /// spaces between columns), none below its `floor`.
    private mutating func narrow(into width: Int, _ narrows: (Int) -> Bool, floor: (Int) -> Int) {
        var total = self.total
        while total > width {
            guard let i = widths.indices.filter({ narrows($0) && widths[$0] > floor($0) }).max(by: { widths[$0] < widths[$1] }) else { return }
            let target = max(floor(i), widths[i] - (total - width))
            total -= widths[i] - target
            widths[i] = target
        }
    }

    /// Narrows the wrapping columns until the table fits `width`, choosing their widths
    /// together: the fewest lines in the table, then the fewest lines in its cells (a name
    /// broken beside a taller cell still costs). Narrowing the widest column first broke a short
    /// station name in two beside a journey that had room to wrap. The widths tried for a
    /// column are those where some cell's lines change (a few per column); the lines are
    /// counted on at most 64 rows spread over the table, so a long table costs no more.
    private mutating func narrowWrapping(into width: Int, floor: [Int]) {
        let columns = headers.indices.filter { fits[$0] == .wrap && widths[$0] > floor[$0] }
        guard !columns.isEmpty, total > width else { return }
        let step = max(1, cells.count / 64)
        let sample = Array(stride(from: 0, to: cells.count, by: step))
        // Per column: each width it may take, from its widest down, and its cells' lines there
        // (how many, and how many breaks fall inside a name rather than after a separator).
        var choices: [[(width: Int, lines: [Int], inside: Int)]] = []
        for column in columns {
            var options: [(width: Int, lines: [Int], inside: Int)] = []
            for w in stride(from: widths[column], through: floor[column], by: -1) {
                var lines: [Int] = [], inside = 0
                for row in sample {
                    let wrapped = column < cells[row].count ? cellLines(row, column, width: w) : [""]
                    lines.append(wrapped.count)
                    inside += wrapped.dropLast().filter { line in !Self.separators.contains { line.hasSuffix($0) } }.count
                }
                if let last = options.last, last.lines == lines, last.inside == inside {
                    options[options.count - 1].width = w
                } else {
                    options.append((w, lines, inside))
                }
            }
            choices.append(options)
        }
        let others = total - columns.reduce(0) { $0 + widths[$1] }
        var best: (cost: [Int], pick: [Int])?
        var pick = [Int](repeating: 0, count: columns.count)
        let combinations = choices.reduce(1) { $0.multipliedReportingOverflow(by: $1.count).overflow ? Int.max : $0 * $1.count }
        if combinations <= 20_000 {
            // Every combination, as an odometer over the choices: the fewest lines in the table,
            // then the fewest names broken, then the fewest lines in its cells, then the widest.
            while true {
                let used = others + zip(choices, pick).reduce(0) { $0 + $1.0[$1.1].width }
                if used <= width {
                    var height = 0, cellLines = 0, inside = 0
                    for (c, p) in pick.enumerated() { inside += choices[c][p].inside }
                    for r in sample.indices {
                        var tallest = 1
                        for (c, p) in pick.enumerated() {
                            tallest = max(tallest, choices[c][p].lines[r])
                            cellLines += choices[c][p].lines[r]
                        }
                        height += tallest
                    }
                    let cost = [height, inside, cellLines, -used]
                    if best.map({ cost.lexicographicallyPrecedes($0.cost) }) ?? true { best = (cost, pick) }
                }
                var c = 0
                while c < pick.count {
                    pick[c] += 1
                    if pick[c] < choices[c].count { break }
                    pick[c] = 0
                    c += 1
                }
                if c == pick.count { break }
            }
        }
        if let best {
            for (c, column) in columns.enumerated() { widths[column] = choices[c][best.pick[c]].width }
        } else {
            // Too many to try, or none fits: each down to its floor, the widest first.
            narrow(into: width, { columns.contains($0) }, floor: { floor[$0] })
        }
    }

    /// The header line (bold on a colour terminal), then each row's lines.
    func lines(bold: Bool) -> [String] {
        let head = line(headers.indices.map { Self.headerLines(headers[$0], width: widths[$0]) }, cut: true)
        var out = head.map { bold ? "\u{1B}[1m" + $0 + "\u{1B}[0m" : $0 }
        for (r, row) in cells.enumerated() {
            out += line(row.indices.map { cellLines(r, $0) }, cut: false)
            if r < details.count { out += details[r].flatMap(detailLines) }
        }
        return out
    }

    /// A line under a row, wrapped to the terminal like a name (never cut): its continuation
    /// lines indented past its own indent.
    private func detailLines(_ line: String) -> [String] {
        guard let width else { return [Sanitize.line(line)] }
        let text = Sanitize.line(line)
        let indent = text.prefix { $0 == " " }.count
        let room = max(1, width - indent)
        return Self.wrap(String(text.dropFirst(indent)), width: room).enumerated().map { k, piece in
            String(repeating: " ", count: indent + (k > 0 ? Self.indent : 0)) + piece
        }
    }

    /// A cell as the lines it takes: itself, cut, or wrapped (its shorter form first where the
    /// whole one does not fit).
    private func cellLines(_ row: Int, _ column: Int) -> [String] {
        guard column < widths.count else { return [] }
        return cellLines(row, column, width: widths[column])
    }

    private func cellLines(_ row: Int, _ column: Int, width: Int) -> [String] {
        let cell = cells[row][column]
        switch fits[column] {
        case .whole: return [cell]
        case .cut, .cutFirst: return [TextWidth.truncate(cell, to: width)]
        case .wrap:
            let text = TextWidth.of(cell) > width ? brief(row, column) ?? cell : cell
            return Self.wrap(text, width: width)
        }
    }

    /// One row as lines: each column's lines side by side, a continuation line indented inside
    /// its column; no line ends in spaces. `cut`: the header's cells, cut to their columns.
    private func line(_ columns: [[String]], cut: Bool) -> [String] {
        let height = max(1, columns.map(\.count).max() ?? 1)
        return (0..<height).map { k in
            var parts: [String] = []
            for (i, lines) in columns.enumerated() where i < widths.count {
                var piece = k < lines.count ? lines[k] : ""
                if cut {
                    piece = TextWidth.truncate(piece, to: widths[i])
                } else if k > 0 && !piece.isEmpty {
                    piece = String(repeating: " ", count: Self.indent) + piece
                }
                if numeric[i] {
                    parts.append(TextWidth.pad(piece, to: widths[i], right: true))
                } else {
                    parts.append(i == columns.count - 1 ? piece : TextWidth.pad(piece, to: widths[i]))
                }
            }
            var text = parts.joined(separator: "  ")
            while text.last == " " { text.removeLast() }
            return text
        }
    }

    /// A header in lines of at most `width` cells, filled with its words (a word is broken after
    /// a `/`), none indented; a word wider than the column is cut, as a header always was.
    static func headerLines(_ header: String, width: Int) -> [String] {
        guard TextWidth.of(header) > width else { return [header] }
        var lines: [String] = [], line = ""
        for unit in units(header) {
            let joined = line.isEmpty || line.hasSuffix("/") ? line + unit : line + " " + unit
            if line.isEmpty || TextWidth.of(joined) <= width {
                line = joined
            } else {
                lines.append(line)
                line = unit
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// `text` in lines of at most `width` cells, the lines after the first `indent` narrower
    /// (they are indented). It breaks after a separator of the parts of a journey or a list
    /// (`→`, `>`, `,`) where it can, between words only inside a part wider than a line, and
    /// inside a word only when the word is wider than a line.
    static func wrap(_ text: String, width: Int) -> [String] {
        guard TextWidth.of(text) > width else { return [text] }
        var lines: [String] = [], line = ""
        func room() -> Int { lines.isEmpty ? max(1, width) : max(1, width - indent) }
        func fits(_ piece: String) -> Bool {
            line.isEmpty ? TextWidth.of(piece) <= room() : TextWidth.of(line) + 1 + TextWidth.of(piece) <= room()
        }
        func put(_ piece: String) { line = line.isEmpty ? piece : line + " " + piece }
        func flush() {
            if !line.isEmpty { lines.append(line) }
            line = ""
        }
        for part in parts(text) {
            if fits(part) { put(part); continue }
            if TextWidth.of(part) <= max(1, width - indent) { flush(); put(part); continue }
            // A part wider than a line of its own: its words, filling the line it starts on.
            for word in words(part) {
                var word = word
                while !word.isEmpty {
                    if fits(word) { put(word); break }
                    if !line.isEmpty { flush(); continue }
                    let (head, tail) = split(word, at: room())
                    put(head)
                    flush()
                    word = tail
                }
            }
        }
        flush()
        return lines
    }

    /// What a line may break after.
    static let separators = ["→", ">", ","]

    /// The parts a line may break between, each keeping its separator: `A → B, C` is `A →`,
    /// `B,`, `C` (joined with a space, they are the text again).
    static func parts(_ text: String) -> [String] {
        var parts = [text]
        for separator in [" → ", " > ", ", "] {
            let kept = String(separator.dropLast())
            parts = parts.flatMap { part -> [String] in
                let pieces = part.components(separatedBy: separator)
                return pieces.enumerated().map { $0.offset < pieces.count - 1 ? $0.element + kept : $0.element }
            }
        }
        return parts
    }

    /// A part's words, a separator kept with the word before it (a line never starts with `→`).
    static func words(_ part: String) -> [String] {
        var words: [String] = []
        for word in part.split(separator: " ").map(String.init) {
            if let last = words.last, word == "→" || word == ">" { words[words.count - 1] = last + " " + word } else { words.append(word) }
        }
        return words
    }

    /// The pieces a name is never broken inside: its words, and a word's pieces after each `/`
    /// (`Dublin/` `Pleasanton`).
    static func units(_ text: String) -> [String] {
        parts(text).flatMap(words).flatMap { word -> [String] in
            var units: [String] = [], unit = ""
            for character in word {
                unit.append(character)
                if character == "/" { units.append(unit); unit = "" }
            }
            if !unit.isEmpty { units.append(unit) }
            return units
        }
    }

    /// `word`'s first characters that fill `cells` terminal cells, up to its last `/` among
    /// them where it has one (at least one character), and the rest.
    static func split(_ word: String, at cells: Int) -> (String, String) {
        var used = 0, end = word.startIndex, slash: String.Index?
        for index in word.indices {
            let w = TextWidth.of(String(word[index]))
            if used + w > cells && index != word.startIndex { break }
            used += w
            end = word.index(after: index)
            if word[index] == "/" { slash = end }
        }
        if let slash, end < word.endIndex { end = slash }
        return (String(word[..<end]), String(word[end...]))
    }
}
