import TransitSupport

/// The walks a timetable stores between its stops (measured at import, in a straight line or on
/// a map's streets) and how its stops join the map's streets.
extension Timetable {
    /// Sets the stored walks (`linkStart`, `linkStops`, `linkLengths`) from each stop's list,
    /// asked in stop order; their step-free meters go (`linkStepFree`: walks measured again are
    /// measured again by every profile).
    package mutating func storeWalks(_ walks: (Int) -> [(stop: Int32, meters: Double)]) {
        storeWalks(stepFree: { x in walks(x).map { ($0.stop, $0.meters, $0.meters) } })
        linkStepFree = Packed()
    }

    /// The same with each walk's step-free meters (`linkStepFree`).
    package mutating func storeWalks(stepFree walks: (Int) -> [(stop: Int32, meters: Double, stepFree: Double)]) {
        // 64-bit offsets: a country's stops times their walks passes 2^31.
        var start = Packed<Int64>([0]), stops = Packed<Int32>(), lengths = Packed<Double>(), free = Packed<Double>()
        for x in 0..<stopCount {
            for (y, meters, stepFree) in walks(x) {
                stops.append(y)
                lengths.append(meters)
                free.append(stepFree)
            }
            start.append(Int64(stops.count))
        }
        linkStart = start
        linkStops = stops
        linkLengths = lengths
        linkStepFree = free
    }

    /// The stored walks out of `x`, for a rider who needs them step-free or not (`StopNeighbours`).
    package func storedWalks(_ x: Int, stepFree: Bool = false) -> [(stop: Int32, meters: Double)] { neighbours.storedWalks(x, stepFree: stepFree) }

    /// Were the walks measured on a map's step-free streets (at import, `linkStepFree`)?
    package var hasStepFreeWalks: Bool { !linkStepFree.isEmpty }

    /// Did the feed's import find `stop` joined to a street of its map's foot network (or step-free one)?
    package func joinsStreets(_ stop: Int, stepFree: Bool) -> Bool {
        stop >= 0 && stop < stopJoins.count && stopJoins[stop] & (stepFree ? 2 : 1) != 0
    }

    /// Does `stop` join the next piece of the map too (no other stop joins its own; `StreetWalker`)?
    package func joinsNextPiece(_ stop: Int, stepFree: Bool) -> Bool {
        stop >= 0 && stop < stopJoins.count && stopJoins[stop] & (stepFree ? 8 : 4) != 0
    }
}
