import Foundation
import TransitSupport

/// A map's walking networks, compiled into the cache (`gtfs/.streets/HASH.network`, the hash of
/// the map's bytes, `FeedStore.mapHash`) when a feed is imported with `--streets`, shared by
/// every feed on a map of the same content, and read by the queries that walk from or to a
/// point. The map's path and content hash head it; then one network and its grid for each of
/// `profiles`, in order (a query reads the one its rider walks by and steps over the others).
/// Ends with the cache's checksum.
package enum StreetNetworkFile {
    /// 16 bytes; bumped whenever the layout changes.
    package static let magic = Array("transit-osm 04\n\n".utf8)
    /// The profiles a file holds, in this order.
    package static let profiles: [Walkable.Profile] = [.foot, .stepFree]

    /// `networks`: one for each of `profiles`, in order.
    package static func write(_ networks: [(StreetNetwork, StreetNetwork.SegmentGrid)], map: String, hash: String, to w: inout BinaryWriter) {
        w.raw(magic)
        w.string(map)
        w.string(hash)
        for (network, grid) in networks {
            w.array(network.latitude)
            w.array(network.longitude)
            w.array(network.start)
            w.array(network.targets)
            w.array(network.meters)
            w.scalar(Int64(network.ways))
            w.scalar(Int64(network.pieces))
            w.scalar(grid.cell.bitPattern)
            w.scalar(grid.lonCell.bitPattern)
            w.array(grid.keys)
            w.array(grid.starts)
            w.array(grid.entries)
        }
    }

    /// The network of `profile` and its grid, when the file is whole, of this version, of a map
    /// whose bytes hash to `hash`, and every index in range; nil otherwise (the caller reads the
    /// map again).
    package static func read(_ path: String, hash: String, profile: Walkable.Profile = .foot) -> (StreetNetwork, StreetNetwork.SegmentGrid)? {
        guard let wanted = profiles.firstIndex(of: profile), let (file, bytes, checkedBefore) = try? FeedStore.verified(path) else { return nil }
        var r = BinaryReader(bytes: bytes, owner: file, path: path)
        do {
            guard try r.raw(magic.count) == magic else { return nil }
            _ = try r.string()
            guard try r.string() == hash else { return nil }
            // The networks before the one wanted, stepped over (their bounds checked as read).
            for _ in 0..<wanted {
                _ = (try r.span(Double.self), try r.span(Double.self), try r.span(Int32.self), try r.span(Int32.self), try r.span(Double.self))
                for _ in 0..<4 { _ = try r.scalar() as Int64 }
                _ = (try r.span(Int64.self), try r.span(Int32.self), try r.span(Int32.self))
            }
            var network = StreetNetwork()
            network.latitude = try r.array()
            network.longitude = try r.array()
            network.start = try r.array()
            network.targets = try r.array()
            network.meters = try r.array()
            network.ways = Int(truncatingIfNeeded: try r.scalar() as Int64)
            network.pieces = Int(truncatingIfNeeded: try r.scalar() as Int64)
            var grid = StreetNetwork.SegmentGrid()
            grid.cell = Double(bitPattern: try r.scalar())
            grid.lonCell = Double(bitPattern: try r.scalar())
            grid.keys = try r.array()
            grid.starts = try r.array()
            grid.entries = try r.array()
            guard checkedBefore || network.isWhole && grid.cell > 0 && grid.lonCell > 0 && grid.starts.count == grid.keys.count + 1 else { return nil }
            if !checkedBefore { CheckRecord.record(for: path, file.identity) }
            return (network, grid)
        } catch {
            return nil
        }
    }
}

extension StreetNetwork {
    /// Every index a walk follows is in range (a file read back is checked, never trusted).
    package var isWhole: Bool {
        let n = nodeCount
        return longitude.count == n && start.count == n + 1 && start.first == 0 && Int(start.last ?? -1) == targets.count
            && meters.count == targets.count && zip(start, start.dropFirst()).allSatisfy { $0 <= $1 }
            && targets.allSatisfy { $0 >= 0 && Int($0) < n }
    }
}
