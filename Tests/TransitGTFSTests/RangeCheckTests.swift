import Testing
@testable import TransitGTFS

/// The checks at load that every index lies in its table (issue 67 made them one comparison a
/// value, by the offset from the range's low end): the same verdict as comparing both ends,
/// at the ends of Int32 and in between.
@Suite struct RangeCheckTests {
    static let edges: [Int32] = [.min, .min + 1, -2, -1, 0, 1, 2, 3, 1_000, .max - 1, .max]

    @Test func withinIsBothEndsCompared() {
        for low in Self.edges.map(Int.init) + [Int(Int32.min) - 5] {
            for high in Self.edges.map(Int.init) + [Int(Int32.max) + 5] {
                for value in Self.edges {
                    let expected = high > low && Int(value) >= max(low, Int(Int32.min)) && Int(value) < min(high, Int(Int32.max))
                    #expect(Timetable.within(Packed([value]), low, high) == expected, "\(value) in \(low)..<\(high)")
                }
                #expect(Timetable.within(Packed([]), low, high))
            }
        }
    }

    @Test func recordsAreCheckedColumnByColumn() {
        // Rows of two: an index of the stops (three of them, -1 allowed) and a value in 0...5.
        let field = TimetableField.records("droppedWalks", { $1(&$0.droppedWalks) }, [.index(.stops, none: true), .value(0...5)])
        var t = Timetable()
        t.stopLat = Packed([0, 0, 0])
        let cases: [([Int32], Bool)] = [([], true), ([-1, 0, 2, 5], true), ([3, 0], false), ([-2, 0], false), ([0, 6], false), ([0, -1], false),
                                        ([0, 5, 1], false), ([Int32.min, 0], false), ([0, Int32.max], false)]
        for (values, sound) in cases {
            t.droppedWalks = Packed(values)
            #expect(field.check(&t) == sound, "\(values)")
        }
        // No stops: only none (-1) is in range; where none is not allowed, no row may be there.
        t.stopLat = Packed([])
        t.droppedWalks = Packed([-1, 0])
        #expect(field.check(&t))
        t.droppedWalks = Packed([0, 0])
        #expect(field.check(&t) == false)
        let required = TimetableField.records("droppedWalks", { $1(&$0.droppedWalks) }, [.index(.stops), .value(0...5)])
        t.droppedWalks = Packed([-1, 0])
        #expect(required.check(&t) == false)
        t.droppedWalks = Packed([])
        #expect(required.check(&t))
    }
}
