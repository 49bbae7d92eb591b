import Foundation
import TransitSupport

/// A stop's station, the station's stops and the walks stored from the stop, read in place from
/// the timetable's buffers (which the timetable that made this keeps alive), each checked where
/// read with the damage noted: the one reader of them, `Timetable`'s accessors included. Apart
/// because a search asks them at every stop it reaches from a class (`TransferEdges`), and a
/// `Timetable` method called from a class that holds one copied the whole struct (4 KB) first:
/// three copies for each stop's changes, a tenth of a query on the national network. Its small
/// readers are inlined for the same reason: a call copied this struct first.
package struct StopNeighbours {
    private let parents: Packed<Int32>
    private let childStart: Packed<Int32>
    private let children: Packed<Int32>
    private let linkStart: Packed<Int64>
    private let linkStops: Packed<Int32>
    private let linkLengths: Packed<Double>
    private let linkStepFree: Packed<Double>
    private let stopCount: Int
    private let damage: TimetableDamage

    package init(_ t: Timetable) {
        (parents, childStart, children) = (t.stopParent, t.stationChildStart, t.stationChildren)
        (linkStart, linkStops, linkLengths, linkStepFree) = (t.linkStart, t.linkStops, t.linkLengths, t.linkStepFree)
        stopCount = t.stopCount
        damage = t.damage
    }

    /// Stop `s`'s station; -1 for none.
    @inline(__always) package func parent(of s: Int) -> Int { Self.parent(of: s, parents, stopCount: stopCount, damage) }

    /// The stops whose parent `station` is; empty for a stop that is no station.
    @inline(__always) package func children(ofStation station: Int) -> UnsafeBufferPointer<Int32> {
        Self.children(ofStation: station, childStart, children, stopCount: stopCount, damage)
    }

    /// The walks stored for stop `x`: positions in `linkStops` and `linkLengths`, each stop in
    /// range and each length within the longest walk stored (`TimetableCombination.longestWalk`).
    @inline(__always) package func links(of x: Int) -> Range<Int> { Self.links(of: x, linkStart, linkStops, linkLengths, stopCount: stopCount, damage) }

    // The readers themselves, on the fields they read: `Timetable`'s accessors ask them too,
    // without making this struct (seven buffers retained and released: 8 K instructions a
    // station's stops, 0.7 M of a BART query that prices, issue 67).

    @inline(__always) static func parent(of s: Int, _ parents: Packed<Int32>, stopCount: Int, _ damage: TimetableDamage) -> Int {
        guard s >= 0, s < stopCount, s < parents.count else { return -1 }
        let p = Int(parents[s])
        guard p >= -1, p < stopCount else { damage.found("stopParent"); return -1 }
        return p
    }

    @inline(__always) static func children(ofStation station: Int, _ childStart: Packed<Int32>, _ children: Packed<Int32>, stopCount: Int,
                                           _ damage: TimetableDamage) -> UnsafeBufferPointer<Int32> {
        damage.indexes(children, damage.span(childStart, station, within: children.count, "stationChildStart"), below: stopCount, "stationChildren")
    }

    @inline(__always) static func links(of x: Int, _ linkStart: Packed<Int64>, _ linkStops: Packed<Int32>, _ linkLengths: Packed<Double>, stopCount: Int,
                                        _ damage: TimetableDamage) -> Range<Int> {
        guard linkStart.count == stopCount + 1, x >= 0, x < stopCount else { return 0..<0 }
        let from = Int(linkStart[x]), to = Int(linkStart[x + 1])
        guard from >= 0, from <= to, to <= linkStops.count, to <= linkLengths.count else { damage.found("linkStart"); return 0..<0 }
        for k in from..<to where linkStops[k] < 0 || Int(linkStops[k]) >= stopCount || !(linkLengths[k] >= 0 && linkLengths[k] <= TimetableCombination.longestWalk) {
            damage.found("linkStops")
            return 0..<0
        }
        return from..<to
    }

    /// The stored walks out of `x`; for a rider who needs them step-free, as measured on the
    /// map's step-free streets where the feed was imported on one (a pair they do not join
    /// within the longest walk stored is left out), else as stored.
    package func storedWalks(_ x: Int, stepFree: Bool = false) -> [(stop: Int32, meters: Double)] {
        guard stepFree, !linkStepFree.isEmpty else { return links(of: x).map { (linkStops[$0], linkLengths[$0]) } }
        guard linkStepFree.count == linkStops.count else {
            damage.found("linkStepFree")
            return []
        }
        return links(of: x).compactMap { k in
            let meters = linkStepFree[k]
            return meters >= 0 && meters <= TimetableCombination.longestWalk ? (linkStops[k], meters) : nil
        }
    }
}
