import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

/// `FewestRides` prunes a search's boardings (issue 64: the second search of a withholding
/// window): a count higher than some journey's would lose that journey. So on random feeds, one
/// and several days, it is checked against the plain fixed point (ride any pattern from a
/// boarding to a later alighting; after a ride, change along the changes the search itself
/// takes, `TransferEdges.edges`): never higher, and mostly the same (the changes read backward
/// are a station's every stop and the grid's, wider than the search's).
@Suite struct FewestRidesTests {
    /// The fewest rides from boarding at each stop to `destinations`, by relaxing every pattern
    /// and every change until nothing changes.
    static func bruteForce<S: Schedule>(_ s: S, destinations: [Int], edges: TransferEdges) -> [Int] {
        let n = s.stopCount, none = Int.max / 2
        var board = [Int](repeating: none, count: n), done = [Int](repeating: none, count: n)
        for d in destinations where d >= 0 && d < n { done[d] = 0 }
        var changed = true
        while changed {
            changed = false
            // After alighting at z: done there, or a change to a stop and a boarding.
            for z in 0..<n {
                var best = min(done[z], board[z])
                for e in edges.edges(z) where Int(e.to) >= 0 && Int(e.to) < n { best = min(best, board[Int(e.to)]) }
                if destinations.contains(z) { best = 0 }
                if best < done[z] { done[z] = best; changed = true }
            }
            for q in 0..<s.patternCount {
                for i in 0..<s.length(q) where s.canBoard(q, i) {
                    for j in (i + 1)..<s.length(q) where s.canAlight(q, j) && done[s.stop(q, j)] + 1 < board[s.stop(q, i)] {
                        board[s.stop(q, i)] = done[s.stop(q, j)] + 1
                        changed = true
                    }
                }
            }
        }
        return board
    }

    @Test func neverMoreRidesThanAJourneyTakes() throws {
        var compared = 0, equal = 0, reached = 0
        for seed in UInt64(20_261_206)..<20_261_236 {
            let test = try DifferentialCase(seed: seed)
            let t = test.timetable
            var g = SeededGenerator(seed: seed)
            let destination = g.int(0...t.stopCount - 1)
            let edges = TransferEdges(t, minTransfer: SearchDefaults.minTransferSeconds, walkMeters: SearchDefaults.walkMeters,
                                      children: StationChildren(t))
            let day = RandomFeed.days[g.int(0...RandomFeed.days.count - 1)]
            let days = DaysSchedule([DaySchedule(t, day: day), DaySchedule(t, day: day + 1)], offsets: [0, 1], shifts: [0, 86_400])
            // Days laid out alike: the timetable's layout counts for all of them (`FewestRides.rides(searching:)`).
            let layout = FewestRides(TimetableLayout(t), destinations: [destination], edges: edges, limit: 9).rides
            #expect(FewestRides(days, destinations: [destination], edges: edges, limit: 9).rides == layout, "seed \(seed)")
            #expect(FewestRides(DaySchedule(t, day: day), destinations: [destination], edges: edges, limit: 9).rides == layout, "seed \(seed)")
            #expect(FewestRides.rides(searching: days, destinations: [destination], edges: edges, limit: 9) == layout, "seed \(seed)")
            for (name, fewest, brute) in [("one day", FewestRides(DaySchedule(t, day: day), destinations: [destination], edges: edges, limit: 9).rides,
                                           Self.bruteForce(DaySchedule(t, day: day), destinations: [destination], edges: edges)),
                                          ("two days", FewestRides(days, destinations: [destination], edges: edges, limit: 9).rides,
                                           Self.bruteForce(days, destinations: [destination], edges: edges))] {
                for y in 0..<t.stopCount {
                    let bound = fewest[y] == .max ? Int.max / 2 : Int(fewest[y])
                    let least = brute[y] > 9 ? Int.max / 2 : brute[y]
                    #expect(bound <= least, "seed \(seed), \(name): stop \(t.stopIDs[y]) to \(t.stopIDs[destination]): \(bound) rides, a journey takes \(least)")
                    compared += 1
                    if bound == least { equal += 1 }
                    if least < Int.max / 2 && least > 1 { reached += 1 }
                }
            }
        }
        // Not vacuous: most stops reach the destination, many in two rides or more, and the
        // bound is mostly the count itself.
        #expect(reached > compared / 4 && equal > compared * 9 / 10, "\(compared) stops, \(reached) in two rides or more, \(equal) equal")
    }

    /// The layout is read from the file as it is: offsets and calls out of range (a damaged
    /// cache whose note vouched for it) read as no stops or no calls, never a trap.
    @Test func aDamagedLayoutIsReadAsFewerCalls() throws {
        var counted = 0
        for seed in UInt64(20_261_240)..<20_261_260 {
            var t = try DifferentialCase(seed: seed).timetable
            var g = SeededGenerator(seed: seed)
            func garbage(_ values: Packed<Int32>) -> Packed<Int32> {
                var list = Array(values)
                for _ in 0..<max(1, list.count / 4) where !list.isEmpty {
                    list[g.int(0...list.count - 1)] = Int32(g.int(-3...list.count + 3))
                }
                return Packed(list)
            }
            t.patternStopStart = garbage(t.patternStopStart)
            t.patternStops = garbage(t.patternStops)
            t.stopPatternStart = garbage(t.stopPatternStart)
            t.stopPatterns = garbage(t.stopPatterns)
            let edges = TransferEdges(t, minTransfer: SearchDefaults.minTransferSeconds, walkMeters: SearchDefaults.walkMeters,
                                      children: StationChildren(t))
            let rides = FewestRides(TimetableLayout(t), destinations: [g.int(0...t.stopCount - 1), -1, t.stopCount], edges: edges, limit: 9).rides
            #expect(rides.count == t.stopCount)
            counted += rides.filter { $0 != .max }.count
        }
        #expect(counted > 0, "some stops still reach the destination")
    }
}
