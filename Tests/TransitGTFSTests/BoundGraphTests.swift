import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

/// The graph of least hops the import stores (`BoundGraph`, issue 47) and the bounds found on it
/// (`TargetBounds.graph`). That a search on them loses no journey is the differential tests'
/// (`ReferenceCheck.routed` asks every query on them too); here, what the graph holds.
@Suite struct BoundGraphTests {
    /// Stops A, B, C, D on a line 1,112 m apart, C and D platforms of station P, E 111 m from A.
    /// T1 A→B→C in 60 and 120 s, T3 the same stops in 45 and 120 s, T2 D→A in 600 s; a
    /// transfers.txt row from B to A.
    static func feed() throws -> Timetable {
        try TestFeed([
            "stops.txt": TestFeed.stops(["A", "B", "C", "D"], parents: ["C": "P", "D": "P"],
                                        extra: "P,Station,37.02,-122.0,,1\nE,Stop E,37.001,-122.0,,0\n"),
            "trips.txt": "route_id,service_id,trip_id\nR,S,T1\nR,S,T3\nQ,S,T2\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
                + "T1,08:00:00,08:00:00,A,1\nT1,08:01:00,08:01:00,B,2\nT1,08:03:00,08:03:00,C,3\n"
                + "T3,10:00:00,10:00:00,A,1\nT3,10:00:45,10:00:45,B,2\nT3,10:02:45,10:02:45,C,3\n"
                + "T2,09:00:00,09:00:00,D,1\nT2,09:10:00,09:10:00,A,2\n",
            "transfers.txt": "from_stop_id,to_stop_id,transfer_type,min_transfer_time\nB,A,2,50\n",
        ]).timetable()
    }

    /// The ways into stop `v`: (the stop before, seconds), by the stop before.
    static func ways(_ t: Timetable, into v: Int) -> [[Int32]] {
        (Int(t.boundStart[v])..<Int(t.boundStart[v + 1])).map { [t.boundEdges[2 * $0], t.boundEdges[2 * $0 + 1]] }
    }

    @Test func eachHopAtItsLeastAndEachChangeAtNoMoreThanItTakes() throws {
        let t = try Self.feed()
        let (a, b, c, d, p, e) = (0, 1, 2, 3, 4, 5)
        #expect(t.stopIDs[p] == "P" && t.stopIDs[e] == "E")
        #expect(t.boundStart.count == t.stopCount + 1 && BoundGraph.startsAreSound(t) && BoundGraph.waysAreSound(t))
        // A→B at T3's 45 s, not T1's 60; B→C 120; C and D through their station, both ways.
        #expect(Self.ways(t, into: b) == [[Int32(a), 45]])
        #expect(Self.ways(t, into: c) == [[Int32(b), 120], [Int32(p), 0]])
        #expect(Self.ways(t, into: p) == [[Int32(c), 0], [Int32(d), 0]])
        #expect(Self.ways(t, into: d) == [[Int32(p), 0]])
        // Into A: the row from B (no time), T2 from D, and the walk from E: 111 m at 1.2 m/s at
        // most (92 s), a second less for the rounding. Back to E the same walk.
        let intoA = Self.ways(t, into: a)
        #expect(intoA.count == 3 && intoA[0] == [Int32(b), 0] && intoA[1] == [Int32(d), 600], "\(intoA)")
        #expect(intoA.count == 3 && intoA[2][0] == Int32(e) && (89...92).contains(intoA[2][1]), "\(intoA)")
        #expect(Self.ways(t, into: e).first?[1] == intoA.last?[1])
    }

    @Test func theBoundIsTheLeastWayAndACutBoundsTheRest() throws {
        let t = try Self.feed()
        let (a, b, c, d, p, e) = (0, 1, 2, 3, 4, 5)
        let whole = try #require(TargetBounds.graph(t, destinations: [(stop: c, start: Int32(0))], within: .max))
        let walk = Self.ways(t, into: a).last?[1] ?? -1
        #expect([c, p, d, b, a, e].map { whole.stop($0) } == [0, 0, 0, 120, 165, 165 + walk] && whole.rising)
        // Cut past 100 s: what is not settled by then is at least 101 s away.
        let cut = try #require(TargetBounds.graph(t, destinations: [(stop: c, start: Int32(0))], within: 100))
        #expect([c, p, d, b, a, e].map { cut.stop($0) } == [0, 0, 0, 101, 101, 101])
        // A destination's start (its walk to the point) counts from the first second.
        let later = try #require(TargetBounds.graph(t, destinations: [(stop: c, start: Int32(30))], within: .max))
        #expect(later.stop(b) == 150 && later.stop(c) == 30)
        // To B: from C through the station, T2 and A (0 + 600 + 45); from nowhere else faster.
        let toB = try #require(TargetBounds.graph(t, destinations: [(stop: b, start: Int32(0))], within: .max))
        #expect(toB.stop(c) == 645 && toB.stop(a) == 45 && toB.stop(b) == 0)
    }

    /// A combination has no graph (its feeds' lack the walks between them), and a search on it
    /// falls back to straight lines; so does a timetable whose runs' times fall.
    @Test func noGraphWhereItWouldNotHold() throws {
        let t = try Self.feed()
        let both = try TimetableCombination.combine([("a", t), ("b", t)])
        #expect(both.boundStart.isEmpty && both.boundEdges.isEmpty && BoundGraph.startsAreSound(both))
        #expect(TargetBounds.graph(both, destinations: [(stop: 2, start: Int32(0))], within: .max) == nil)
        var falling = t
        falling.times = Packed(t.times.map { -$0 })
        #expect(BoundGraph.leastHops(falling) == nil && BoundGraph.build(falling, leastHops: nil).start.isEmpty)
    }
}

extension BoundGraphTests {
    /// Realtime data keeps the graph's bounds only where no run it laid out anew is faster than
    /// the least of its hop: T3 arriving at B 30 s early (A→B in 15 s, the least 45) leaves a
    /// search without them; 30 s late keeps them.
    @Test func realtimeDataFasterThanTheLeastLeavesNoGraph() throws {
        let t = try Self.feed()
        let day = try #require(LocalDate(iso: "2026-06-01")).dayNumber, now = 1_780_300_800
        func schedule(arrivingAtB delay: Int) -> RealtimeSchedule {
            let stu = FeedMessage.StopTimeUpdate(stopSequence: 2, stopID: nil, arrival: FeedMessage.StopTimeEvent(delay: Int32(delay)), departure: nil, scheduleRelationship: nil)
            let entity = FeedMessage.FeedEntity(id: "T3", tripUpdate: FeedMessage.TripUpdate(
                trip: FeedMessage.TripDescriptor(tripID: "T3", routeID: nil, startTime: nil, startDate: "20260601", scheduleRelationship: nil), stopTimeUpdates: [stu], delay: nil))
            let message = FeedMessage(header: FeedMessage.FeedHeader(version: "2.0", incrementality: nil, timestamp: UInt64(now)), entities: [entity])
            return RealtimeSchedule(t, day: day, updates: TripUpdateApplier.apply(message, to: t, now: now, source: "rt"))
        }
        let edges = TransferEdges(t, minTransfer: 0, walkMeters: SearchDefaults.walkMeters, children: StationChildren(t))
        let early = schedule(arrivingAtB: -30), late = schedule(arrivingAtB: 30)
        #expect(early.patternCount > t.patternCount && late.patternCount > t.patternCount)
        #expect(early.graphBounds(edges: edges, destinations: [(stop: 2, start: Int32(0))], within: .max) == nil)
        #expect(late.graphBounds(edges: edges, destinations: [(stop: 2, start: Int32(0))], within: .max)?.stop(1) == 120)
        // A margin that shortens a change, or a walk faster than the default, leaves none either.
        let base = DaySchedule(t, day: day)
        #expect(base.graphBounds(edges: edges, destinations: [(stop: 2, start: Int32(0))], within: .max) != nil)
        let hurried = TransferEdges(t, minTransfer: 0, walkMeters: SearchDefaults.walkMeters, children: StationChildren(t),
                                    margin: RiderNeeds.ChangeMargin(seconds: 0, factor: 0.5))
        #expect(base.graphBounds(edges: hurried, destinations: [(stop: 2, start: Int32(0))], within: .max) == nil)
    }
}
