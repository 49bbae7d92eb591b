import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

extension CPUBound {
    /// The pack's expected walks, by both profiles: four maps read twice, porto's 348,000 nodes
    /// among them (seconds of a core in a debug build: with the CPU-bound suites).
    @Suite struct ExpectedWalkTests {
        /// Walk rule 2 against ../shared/reference/osm/expected-walks.tsv: 93 walks on terre-haute,
        /// beatty, delft-station and porto worked out independently (meters, `straight D` where an
        /// end joins nothing, or `unreachable`), each within 1 m, by both profiles (the foot one, and
        /// the step-free one on its own network).
        @Test(.enabled(if: Reference.isPresent, Reference.absent), arguments: [(Walkable.Profile.foot, 3), (.stepFree, 4)])
        func everyExpectedWalkAgreesWithinAMeter(profile: Walkable.Profile, column: Int) throws {
            let text = try String(contentsOfFile: Reference.path("osm/expected-walks.tsv"), encoding: .utf8)
            var walkers: [String: StreetWalker] = [:], wrong: [String] = [], rows = 0
            for line in text.split(separator: "\n").dropFirst() {
                let field = line.split(separator: "\t").map(String.init)
                guard field.count >= 5, let from = Coordinate(parsing: field[1]), let to = Coordinate(parsing: field[2]) else { continue }
                rows += 1
                let walker: StreetWalker
                if let known = walkers[field[0]] {
                    walker = known
                } else {
                    let network = try StreetNetwork.read(Reference.path("osm/" + field[0]), profile: profile)
                    walker = StreetWalker(network, try #require(network.grid()))
                    walkers[field[0]] = walker
                }
                let got = walker.walk(from: from, to: to, limit: .infinity), want = field[column]
                let agrees: Bool
                switch got {
                case .streets(let meters): agrees = Double(want).map { abs($0 - meters) <= 1 } ?? false
                case .straight(let meters): agrees = want.hasPrefix("straight ") && Double(want.dropFirst(9)).map { abs($0 - meters) <= 1 } == true
                case .unreachable: agrees = want == "unreachable"
                }
                if !agrees { wrong.append("\(field[0]) \(field[1]) → \(field[2]): \(want), got \(got)") }
            }
            #expect(rows == 93 && wrong.isEmpty, "\(wrong.count) of \(rows) differ:\n\(wrong.joined(separator: "\n"))")
        }
    }
}
