import Foundation

/// A pair of stops within `TimetableCombination.linkRadius` of each other in a straight line that
/// keeps no walk once a map measured it (`gtfs walks --dropped`): found at import
/// (`StreetFootpaths.measure`) and kept in the compiled file, five values a pair
/// (`Timetable.droppedWalks`: the two stops, the straight and the street decimeters, the reason).
/// Each pair once, from the stop of the lower index, unless only the other way was dropped.
package struct DroppedWalk: Equatable, Sendable {
    package enum Reason: Int32, CaseIterable, Sendable {
        /// The street path is longer than `TimetableCombination.longestWalk`.
        case longer
        /// No street path joins them: each joins a piece of the map the other does not.
        case notConnected
        /// A walk is kept on foot, but none without steps within `TimetableCombination.longestWalk`
        /// (none for `--wheelchair`).
        case stepsOnly

        package var name: String {
            switch self {
            case .longer: "longer"
            case .notConnected: "not_connected"
            case .stepsOnly: "steps_only"
            }
        }
    }

    package var from: Int
    package var to: Int
    package var straight: Double
    /// The street path's meters (for `stepsOnly`, the walk on foot kept); nil where none joins
    /// them, or where it is longer than `searched` (a pair 300 m apart with no way under 5 km).
    package var street: Double?
    package var reason: Reason

    /// How far a path is looked for to say how long a dropped one is.
    package static let searched = 5_000.0
    /// The most straight decimeters a pair has (`linkRadius`).
    static let straightLimit = Int32((TimetableCombination.linkRadius * 10).rounded())
    /// Street decimeters written for no path at all, and for one longer than `searched`.
    private static let unconnected: Int32 = -1, beyondSearch: Int32 = -2

    package init(from: Int, to: Int, straight: Double, street: Double?, reason: Reason) {
        (self.from, self.to, self.straight, self.street, self.reason) = (from, to, straight, street, reason)
    }

    /// Its five values as the file keeps them.
    var values: [Int32] {
        let street = street.map { Int32(clamping: Int(($0 * 10).rounded())) } ?? (reason == .notConnected ? Self.unconnected : Self.beyondSearch)
        return [Int32(clamping: from), Int32(clamping: to), min(Self.straightLimit, Int32(clamping: Int((straight * 10).rounded()))), street, reason.rawValue]
    }

    init?(_ v: [Int32]) {
        guard v.count == 5, let reason = Reason(rawValue: v[4]) else { return nil }
        let street = v[3]
        self.init(from: Int(v[0]), to: Int(v[1]), straight: Double(v[2]) / 10, street: street >= 0 ? Double(street) / 10 : nil, reason: reason)
    }
}

extension Timetable {
    /// The pairs the map left without a walk, as the import stored them (checked at load:
    /// stops in range, a known reason).
    package var dropped: [DroppedWalk] {
        let values = droppedWalks.buffer
        return stride(from: 0, to: values.count - values.count % 5, by: 5).compactMap { k in
            DroppedWalk(Array(values[k..<(k + 5)])).flatMap { $0.from >= 0 && $0.to >= 0 && $0.from < stopCount && $0.to < stopCount ? $0 : nil }
        }
    }

    /// Stores `walks` (`droppedWalks`).
    package mutating func storeDropped(_ walks: [DroppedWalk]) {
        droppedWalks = Packed(walks.flatMap(\.values))
    }
}
