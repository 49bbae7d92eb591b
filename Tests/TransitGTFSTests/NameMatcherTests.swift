import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

@Suite struct NameMatcherTests {
    let matcher = NameMatcher(kind: "BART station", candidates: [
        .init(code: "24TH", names: ["24th St. Mission"], value: "24TH"),
        .init(code: "16TH", names: ["16th St. Mission"], value: "16TH"),
        .init(code: "MLBR", names: ["Millbrae"], value: "MLBR"),
        .init(code: "NBRK", names: ["North Berkeley"], value: "NBRK"),
        .init(code: "DBRK", names: ["Downtown Berkeley"], value: "DBRK"),
        .init(code: "SFIA", names: ["San Francisco International Airport"], value: "SFIA"),
    ])

    @Test func codesInAnyCase() throws {
        #expect(try matcher.match("24th") == "24TH")
        #expect(try matcher.match(" mlbr ") == "MLBR")
    }

    @Test func namesWholeOrInPart() throws {
        #expect(try matcher.match("24th St Mission") == "24TH")
        #expect(try matcher.match("millbrae") == "MLBR")
        #expect(try matcher.match("north berk") == "NBRK")
        #expect(try matcher.match("airport") == "SFIA")
    }

    @Test func ambiguityIsSaid() {
        #expect(throws: TransitError.ambiguous(kind: "BART station", query: "berkeley",
                                               candidates: ["NBRK (North Berkeley)", "DBRK (Downtown Berkeley)"])) {
            try matcher.match("berkeley")
        }
    }

    @Test func missesSuggest() {
        #expect(throws: TransitError.notFound(kind: "BART station", query: "Milbrae", suggestions: ["MLBR (Millbrae)"])) {
            try matcher.match("Milbrae")
        }
        do {
            _ = try matcher.match("24TX")
            Issue.record("matched")
        } catch {
            #expect(error.message == "unknown BART station '24TX'; did you mean 24TH (24th St. Mission)?")
            #expect(error.exitStatus == 2)
        }
        #expect(throws: TransitError.notFound(kind: "BART station", query: "zzzzzz", suggestions: [])) {
            try matcher.match("zzzzzz")
        }
    }
}
