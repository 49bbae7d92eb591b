import Foundation
import TransitSupport

extension TravelTimeMatrix {
    /// Cumulative opportunities (Conveyal's access, r5py's `cutoffs`): for origin `row`, per
    /// percentile of the query, per cutoff, the sum of the destinations' counts (`Point.count`,
    /// 1 where none) whose travel time at that percentile is at most the cutoff (minutes).
    public func access(_ row: TravelTimeRow, cutoffs: [Int]) -> [[Double]] {
        var sums = [[Double]](repeating: [Double](repeating: 0, count: cutoffs.count), count: query.percentiles.count)
        for cell in row.cells {
            let count = cell.destination < query.destinations.count ? query.destinations[cell.destination].count ?? 1 : 0
            for (p, minutes) in cell.minutes.enumerated() where p < sums.count {
                guard let minutes else { continue }
                for (c, cutoff) in cutoffs.enumerated() where minutes <= cutoff { sums[p][c] += count }
            }
        }
        return sums
    }
}
