import Foundation
import Testing
@testable import TransitCore
import TransitSupport

/// Issue 44, item 1: at any width a table keeps the names a rider acts on whole. Where it must
/// narrow, a cell's shorter form comes first (a journey without where its rides head), then the
/// columns that may be cut, and last the names, which wrap onto indented continuation lines.
@Suite struct TableWrapTests {
    struct Trip { var depart: String; var from: String; var change: String; var journey: String; var brief: String }

    static func output(_ trips: [Trip]) -> Output {
        Output(trips, data: [], table: [
            Column("depart") { .string($0.depart) }.whole(), Column("from") { .string($0.from) }.wrapping(),
            Column("change_at", "CHANGE AT") { .string($0.change) }.wrapping(),
            Column("journey") { .string($0.journey) }.wrapping { .string($0.brief) },
        ])
    }

    static let dublin = Trip(depart: "07:13", from: "Dublin/Pleasanton", change: "West Oakland 07:56, Millbrae Caltrain 08:39",
                             journey: "Dublin/Pleasanton - Daly City toward Daly City → Richmond - Daly City/Millbrae toward Millbrae → walk 54 m → Limited toward San Jose",
                             brief: "Dublin/Pleasanton - Daly City → Richmond - Daly City/Millbrae → walk 54 m → Limited")

    @Test func namesWrapOntoIndentedLinesAndAreNeverCut() throws {
        let text = try Renderer(format: .table, width: 80).render(Self.output([Self.dublin]))
        #expect(text == """
        DEPART  FROM               CHANGE AT          JOURNEY
        07:13   Dublin/Pleasanton  West Oakland       Dublin/Pleasanton - Daly City →
                                     07:56, Millbrae    Richmond - Daly City/Millbrae →
                                     Caltrain 08:39     walk 54 m → Limited

        """)
        // Where the rides head gave way first, and nothing else was lost.
        #expect(!text.contains("toward") && !text.contains("…"))
    }

    @Test func aCellKeepsItsWholeFormWhereItFits() throws {
        let short = Trip(depart: "08:00", from: "Millbrae", change: "", journey: "Limited toward San Jose", brief: "Limited")
        let text = try Renderer(format: .table, width: 80).render(Self.output([Self.dublin, short]))
        #expect(text.contains("08:00   Millbrae") && text.contains("Limited toward San Jose"), "\(text)")
        // Wide enough: every whole form, one line a row.
        let wide = try Renderer(format: .table, width: 300).render(Self.output([Self.dublin, short]))
        #expect(wide.split(separator: "\n").count == 3 && wide.contains(Self.dublin.journey))
    }

    /// Chosen together: a short station name is not broken beside a long journey that can wrap
    /// (narrowing the widest column first broke `Dublin/` `Pleasanton` at 100 columns).
    @Test func theWidthsAreChosenForTheFewestLines() throws {
        for width in [60, 70, 80, 90, 100] {
            let text = try Renderer(format: .table, width: width).render(Self.output([Self.dublin]))
            let lines = text.split(separator: "\n").map(String.init)
            #expect(lines.allSatisfy { TextWidth.of($0) <= width }, "\(width):\n\(text)")
            #expect(lines.dropFirst().first?.contains("Dublin/Pleasanton  ") == true || width < 70, "\(width):\n\(text)")
        }
    }

    @Test func wrapBreaksAfterSeparatorsThenBetweenWordsThenInsideAWord() {
        #expect(TableLayout.wrap("Red → walk 50 m → Blue", width: 13) == ["Red →", "walk 50 m →", "Blue"])
        // A part wider than a continuation line fills the line it starts on.
        #expect(TableLayout.wrap("Red → walk 50 m → Blue", width: 12) == ["Red → walk", "50 m →", "Blue"])
        #expect(TableLayout.wrap("San Jose Diridon Caltrain 18:20", width: 16) == ["San Jose Diridon", "Caltrain 18:20"])
        #expect(TableLayout.wrap("Dublin/Pleasanton", width: 10) == ["Dublin/", "Pleasant", "on"])
        #expect(TableLayout.wrap("abc", width: 0) == ["a", "b", "c"])
        #expect(TableLayout.wrap("", width: 5) == [""])
    }
}

extension CPUBound {
    /// TableWrapTests' loops over widths and random tables: seconds of a debug build's work in
    /// the test process, run apart from the tests that wait for deadlines (docs/testing.md).
    @Suite struct TableWrapFuzzTests {
        @Test func aLineNeverStartsWithASeparator() throws {
            for width in 60...120 {
                let text = try Renderer(format: .table, width: width).render(TableWrapTests.output([TableWrapTests.dublin]))
                for line in text.split(separator: "\n") {
                    let cells = line.split(separator: " ", omittingEmptySubsequences: true)
                    #expect(cells.first != "→" && !line.contains("   → "), "\(width): \(line)")
                }
            }
        }

        /// Random tables at random widths: every line fits the width where the floors allow, and a
        /// wrapping cell's lines hold its text, every character, in order.
        @Test func wrappingLosesNothing() throws {
            var random = SplitMix(seed: 44)
            let words = ["Embarcadero", "Dublin/Pleasanton", "→", "12th", "St.", "Oakland", "City", "Center", "北京南站", "walk", "54", "m", "Antioch", "-", "SFO/Millbrae", "Ferry", "Building,"]
            for _ in 0..<300 {
                let count = Int.random(in: 1...4, using: &random)
                let names = (0..<count).map { _ in (0..<Int.random(in: 1...9, using: &random)).map { _ in words[Int.random(in: 0..<words.count, using: &random)] }.joined(separator: " ") }
                let width = Int.random(in: 24...140, using: &random)
                let out = Output(Array(names.indices), data: [], table: [
                    Column("time") { _ in .string("08:04 +4") }.whole(), Column("count") { .int($0) },
                    Column("name") { .string(names[$0]) }.wrapping(),
                ])
                let lines = try Renderer(format: .table, width: width).render(out).split(separator: "\n").map(String.init)
                #expect(lines.allSatisfy { TextWidth.of($0) <= width }, "\(width): \(lines)")
                // Each row's first line starts with its time; the name column is the lines' tails.
                var rows: [[String]] = []
                for line in lines.dropFirst() {
                    if line.hasPrefix("08:04 +4") { rows.append([line]) } else { rows[rows.count - 1].append(line) }
                }
                #expect(rows.count == names.count)
                for (name, row) in zip(names, rows) {
                    let shown = row.enumerated().map { i, line in i == 0 ? String(line.dropFirst(8 + 2 + 5 + 2)) : line }.joined()
                    #expect(shown.filter { !$0.isWhitespace } == name.filter { !$0.isWhitespace }, "\(width): \(row) for \(name)")
                }
            }
        }
    }
}
