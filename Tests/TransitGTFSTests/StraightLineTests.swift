import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

/// What the import measures for bounds by straight lines (`StraightLines`, issue 47): the fastest
/// a ride covers a chord, what a change jumps beyond it, and no bound where the feed gives none.
@Suite struct StraightLineTests {
    /// Stops A, B, C, D on a line 0.01° of latitude (1,111.95 m on the ground) apart; a trip
    /// A→B→C with the hops given in seconds.
    static func feed(hops: (Int, Int), transfers: String? = nil, stations: Bool = false) -> TestFeed {
        func clock(_ s: Int) -> String { String(format: "%02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) }
        let start = 8 * 3600, b = start + hops.0, c = b + hops.1
        var files = [
            "stops.txt": TestFeed.stops(["A", "B", "C", "D"], parents: stations ? ["C": "P", "D": "P"] : [:],
                                        extra: stations ? "P,Station,37.02,-122.0,,1\n" : ""),
            "trips.txt": "route_id,service_id,trip_id\nR,S,T1\nQ,S,T2\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
                + "T1,\(clock(start)),\(clock(start)),A,1\nT1,\(clock(b)),\(clock(b)),B,2\nT1,\(clock(c)),\(clock(c)),C,3\n"
                + "T2,09:00:00,09:00:00,D,1\nT2,09:10:00,09:10:00,A,2\n",
        ]
        if let transfers { files["transfers.txt"] = "from_stop_id,to_stop_id,transfer_type,min_transfer_time\n" + transfers }
        return TestFeed(files)
    }

    @Test func theFastestHopAndTheChangesJumpsAreMeasured() throws {
        // 1,111.95 m in 60 s is the fastest (18.5 m/s); D→A, 3 km in 10 minutes, is slower.
        let t = try Self.feed(hops: (60, 120)).timetable()
        #expect(abs(Double(t.straightLineSpeed) / 1000 - 1_111.95 / 60) < 0.05, "\(t.straightLineSpeed) mm/s")
        #expect(t.straightLineChangeGain <= 1)
        // A station's platforms jump for free (--min-transfer 0): C and D, 1,112 m apart.
        let stations = try Self.feed(hops: (60, 120), stations: true).timetable()
        #expect(abs(Double(stations.straightLineChangeGain) / 1000 - 1_111.95) < 1, "\(stations.straightLineChangeGain) mm")
        // A row of type 2 with 50 s between A and B: 1,112 m less 50 s at 18.5 m/s.
        let timed = try Self.feed(hops: (60, 120), transfers: "A,B,2,50\n").timetable()
        let left: Double = 1_111.95 - 50 * 1_111.95 / 60, measured = Double(timed.straightLineChangeGain) / 1000
        #expect(abs(measured - left) < 1, "\(measured) m, \(left)")
        // Forbidden: no jump.
        #expect(try Self.feed(hops: (60, 120), transfers: "A,C,3,\n").timetable().straightLineChangeGain <= 1)
    }

    @Test func aHopOfNoTimeBetweenTwoPlacesLeavesNoBound() throws {
        let t = try Self.feed(hops: (0, 120)).timetable()
        #expect(t.straightLineSpeed == 0)
        #expect(TargetBounds.straightLines(t, destinations: [2], changes: 3).stop(0) == 0)
    }

    @Test func theBoundIsTheChordAtThatSpeedLessTheJumps() throws {
        let t = try Self.feed(hops: (60, 120), stations: true).timetable()
        let speed = Double(t.straightLineSpeed) / 1000, gain = Double(t.straightLineChangeGain) / 1000
        // From A to C is 2,224 m; with one change 1,112 m of it may be jumped.
        let none = TargetBounds.straightLines(t, destinations: [2], changes: 0), one = TargetBounds.straightLines(t, destinations: [2], changes: 1)
        let plain: Double = (2_223.9 - 1) / speed, jumped: Double = (2_223.9 - gain - 1) / speed
        #expect(abs(Double(none.stop(0)) - plain) < 1.5, "\(none.stop(0)) s, \(plain)")
        #expect(abs(Double(one.stop(0)) - jumped) < 1.5, "\(one.stop(0)) s, \(jumped)")
        // The trip A→C takes 180 s: the bound from A never exceeds it, nor from B its 120 s.
        #expect(none.stop(0) <= 180 && none.stop(1) <= 120 && none.stop(2) == 0)
        // Two feeds as one: the faster of their speeds; a feed without one leaves none.
        let fast = try Self.feed(hops: (30, 120)).timetable(), flat = try Self.feed(hops: (0, 120)).timetable()
        let both = try TimetableCombination.combine([("a", t), ("b", fast)]), broken = try TimetableCombination.combine([("a", t), ("b", flat)])
        #expect(both.straightLineSpeed == fast.straightLineSpeed && both.straightLineChangeGain == t.straightLineChangeGain)
        #expect(broken.straightLineSpeed == 0)
    }
}
