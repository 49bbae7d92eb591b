import Foundation
import Testing
@testable import TransitGTFS
import TransitSupport

/// Issue 45, item 2: shapes.txt compiled at import, each pattern's stops placed along its shape
/// in order (a shape that loops back past a stop still places the stop where the trip calls),
/// and every bad shape read, cut or left out with one counted warning.
@Suite struct ShapePlacementTests {
    /// Stops A, B, C on a line north; D beside A. The shape goes A → B → C and back down to D:
    /// a trip A, B, C, D passes D's place twice (near A on the way out, and at the end).
    static let stops = """
        stop_id,stop_name,stop_lat,stop_lon
        A,A,37.000,-122.000
        B,B,37.010,-122.000
        C,C,37.020,-122.000
        D,D,37.0005,-122.0002
        """

    static func feed(shapes: String?, trips: String = "route_id,service_id,trip_id,shape_id\nR,S,t1,loop\n",
                     stopTimes: String = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nt1,08:00:00,08:00:00,A,1\nt1,08:05:00,08:05:00,B,2\nt1,08:10:00,08:10:00,C,3\nt1,08:20:00,08:20:00,D,4\n")
        throws -> (Timetable, warnings: [String]) {
        var files = ["stops.txt": Self.stops + "\n", "trips.txt": trips, "stop_times.txt": stopTimes]
        files["shapes.txt"] = shapes
        return try TestFeed(files).compile()
    }

    /// The loop: out along lon −122.0001 to C's latitude, back along −122.0003, written in a
    /// shuffled order (shape_pt_sequence decides).
    static let loop = """
        shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence
        loop,37.020,-122.0001,3
        loop,37.000,-122.0001,1
        loop,37.010,-122.0001,2
        loop,37.020,-122.0003,4
        loop,37.000,-122.0003,6
        loop,37.010,-122.0003,5
        """

    @Test func aLoopPlacesEachStopWhereTheTripCallsInOrder() throws {
        let (t, warnings) = try Self.feed(shapes: Self.loop)
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(t.shapeCount == 1 && t.shapeLat.count == 6 && t.patternShape.buffer.map { $0 } == [0])
        let places = (0..<4).map { Double(t.patternShapeAt[$0]) / Double(Timetable.shapeScale) }
        // A at the start, B half-way out, C at the turn, D on the way back (not at the start,
        // though it is as near there: the order puts it last).
        #expect(places[0] < 0.01 && abs(places[1] - 1) < 0.01 && abs(places[2] - 2) < 0.02 && places[3] > 4.9, "\(places)")
        let line = try #require(t.shapeLine(pattern: 0, from: 0, to: 3))
        #expect(line.first?.latitude == 37.0 && line.last?.latitude == 37.0005 && line.count >= 7, "\(line)")
        // A part of the ride: B to C along the shape's way out.
        let part = try #require(t.shapeLine(pattern: 0, from: 1, to: 2))
        #expect(part.allSatisfy { $0.longitude > -122.00015 }, "\(part)")
        // Written and read back as it was.
        let back = try TimetableFile.decode(TimetableFile.encode(t), path: "x")
        #expect(back.shapeLine(pattern: 0, from: 0, to: 3).map { $0.map(\.latitude) } == line.map(\.latitude))
    }

    @Test func aFeedWithoutShapesHasNone() throws {
        let (t, warnings) = try Self.feed(shapes: nil, trips: "route_id,service_id,trip_id\nR,S,t1\n")
        #expect(warnings.isEmpty && t.shapeCount == 0 && t.shapeLat.isEmpty && t.patternShape.buffer.allSatisfy { $0 == -1 })
        #expect(t.shapeLine(pattern: 0, from: 0, to: 3) == nil)
    }

    /// One point; a shape shapes.txt does not have; points of a shape no trip names; rows with
    /// no usable point: each left out, counted in one warning, and the trips drawn stop to stop.
    @Test func badShapesAreLeftOutAndCounted() throws {
        let trips = "route_id,service_id,trip_id,shape_id\nR,S,t1,one\nR,S,t2,absent\n"
        let stopTimes = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nt1,08:00:00,08:00:00,A,1\nt1,08:05:00,08:05:00,B,2\n"
            + "t2,09:00:00,09:00:00,B,1\nt2,09:05:00,09:05:00,C,2\n"
        let shapes = """
            shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence
            one,37.0,-122.0,1
            one,37.0,-122.0,2
            nobody,37.0,-122.0,1
            nobody,37.1,-122.0,2
            one,91,-122.0,3
            one,37.0,,4
            one,37.0,-122.0,x
            """
        let (t, warnings) = try Self.feed(shapes: shapes, trips: trips, stopTimes: stopTimes)
        #expect(warnings == ["3 rows of shapes.txt have no usable point (a latitude, longitude or sequence missing or out of range): left out",
                             "2 trips name shapes with fewer than two points in shapes.txt: drawn stop to stop",
                             "2 points of shapes.txt are of shapes no trip names: left out"], "\(warnings)")
        #expect(t.patternShape.buffer.allSatisfy { $0 == -1 })
        #expect((0..<t.patternCount).allSatisfy { t.shapeLine(pattern: $0, from: 0, to: 1) == nil })
    }

    /// A damaged place (past its shape's end) draws stop to stop, never traps.
    @Test func aDamagedPlaceIsNotDrawn() throws {
        var (t, _) = try Self.feed(shapes: Self.loop)
        t.patternShapeAt = Packed([0, 0, 0, Int32.max])
        #expect(t.shapeLine(pattern: 0, from: 0, to: 3) == nil)
        t.patternShapeAt = Packed([0, 512, 256, 1024])
        #expect(t.shapeLine(pattern: 0, from: 1, to: 2) == nil, "a place before the one before it")
        t.patternShape = Packed([7])
        #expect(t.shapeLine(pattern: 0, from: 0, to: 1) == nil)
    }
}

extension CPUBound {
    /// ShapePlacementTests' random feeds: compiled in the test process, apart from the tests that
    /// wait for deadlines (docs/testing.md).
    @Suite struct ShapeFuzzTests {
        /// Random shapes.txt (numbers, garbage, huge and negative sequences, repeated points, shapes
        /// named and not): every feed compiles, its shapes hold what the file's checks ask, and every
        /// ride's line is drawn or refused without a trap.
        @Test func randomShapesCompileAndDrawWithoutATrap() throws {
            var random = SplitMix(seed: 45)
            let ids = ["loop", "x", "", "nobody"], values = ["37.0", "-122.0", "91", "-181", "nan", "inf", "", "1e400", "x", "0", "37.0005", "-122.0002"]
            for _ in 0..<60 {
                var text = "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\n"
                for _ in 0..<Int.random(in: 0...30, using: &random) {
                    let sequence = ["1", "2", "-1", "99999999999", "3", "x", "0"][Int.random(in: 0..<7, using: &random)]
                    text += "\(ids[Int.random(in: 0..<ids.count, using: &random)]),\(values[Int.random(in: 0..<values.count, using: &random)]),"
                        + "\(values[Int.random(in: 0..<values.count, using: &random)]),\(sequence)\n"
                }
                let (t, _) = try ShapePlacementTests.feed(shapes: text, trips: "route_id,service_id,trip_id,shape_id\nR,S,t1,loop\nR,S,t2,x\n",
                                           stopTimes: "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nt1,08:00:00,08:00:00,A,1\nt1,08:05:00,08:05:00,B,2\n"
                                               + "t1,08:10:00,08:10:00,C,3\nt2,09:00:00,09:00:00,D,1\nt2,09:05:00,09:05:00,C,2\n")
                let back = try TimetableFile.decode(TimetableFile.encode(t), path: "x")
                #expect(back.shapePointStart.buffer.map { $0 } == t.shapePointStart.buffer.map { $0 })
                for q in 0..<t.patternCount {
                    let length = t.patternLength(q)
                    for from in 0..<length {
                        for to in 0..<length { _ = t.shapeLine(pattern: q, from: from, to: to) }
                    }
                }
            }
        }

        /// Issue 62, item 5: a stop's nearest places on a shape are looked for in a grid of its
        /// segments, not at every segment. The grid's segments hold the first 8 by (meters, segment)
        /// that a look at every segment finds: random shapes (walks, loops back over themselves,
        /// straight lines, repeated points, long jumps) and stops on, near and far from them.
        @Test func theSegmentGridFindsWhatEverySegmentFinds() {
            var g = SystemRandomNumberGenerator()
            func first8(_ line: ShapeLine, _ sx: Double, _ sy: Double, _ segments: [Int]) -> [Int] {
                // The metric is not what is checked (the same for both sets): which segments are.
                segments.map { j in (line.nearest(on: j, to: sx, sy).meters, j) }.sorted { $0 < $1 }.prefix(8).map(\.1)
            }
            for round in 0..<120 {
                let n = Int.random(in: 65...1_500, using: &g)
                var x = [0.0], y = [0.0]
                for _ in 1..<n {
                    switch (round % 4, Int.random(in: 0..<20, using: &g)) {
                    case (0, _): (x, y) = (x + [x.last! + Double.random(in: -50...50, using: &g)], y + [y.last! + Double.random(in: -50...50, using: &g)])
                    case (1, _): (x, y) = (x + [0], y + [y.last! + Double.random(in: 0...30, using: &g)])
                    case (_, 0): (x, y) = (x + [Double.random(in: -20_000...20_000, using: &g)], y + [Double.random(in: -20_000...20_000, using: &g)])
                    case (_, 1): (x, y) = (x + [x.last!], y + [y.last!])
                    default: (x, y) = (x + [x.last! + Double.random(in: -10...10, using: &g)], y + [y.last! + Double.random(in: -10...10, using: &g)])
                    }
                }
                if round % 4 == 3 { x += x.reversed(); y += y.reversed() }
                let line = ShapeLine(x: x, y: y, kx: 1)
                for _ in 0..<10 {
                    let k = Int.random(in: 0..<x.count, using: &g), far = Bool.random(using: &g) ? 1.0 : 100.0
                    let sx = x[k] + Double.random(in: -200...200, using: &g) * far, sy = y[k] + Double.random(in: -200...200, using: &g) * far
                    let gridded = line.segments(near: sx, sy, count: 8)
                    #expect(first8(line, sx, sy, gridded) == first8(line, sx, sy, Array(0..<(x.count - 1))), "round \(round), \(x.count) points")
                }
            }
        }
    }
}
