import Foundation
import TransitSupport

/// The walking networks of maps, compiled into `.streets/HASH.network` beside the feeds that
/// walk on them (`StreetNetworkFile`), named by the map's content and removed when no feed names them.
extension FeedStore {
    /// The walking network of the map at `path` (an absolute path) for `profile`, its grid and the
    /// map's content hash: compiled into `.streets/HASH.network` once and read from there.
    /// `expected`: the hash a feed's import took, trusted (a query reads no map when its network
    /// is in the cache); a map whose bytes no longer have it is a usage error (the feed's stored
    /// walks were measured on the other). Read from the map where the copy is missing or damaged
    /// (and kept, where the cache can).
    package func streets(_ path: String, hash expected: String? = nil, profile: Walkable.Profile = .foot) throws(TransitError)
        -> (StreetNetwork, StreetNetwork.SegmentGrid, hash: String) {
        let (networks, hash) = try streets(path, hash: expected, profiles: [profile])
        let (network, grid) = networks.first ?? (StreetNetwork(), StreetNetwork.SegmentGrid())
        return (network, grid, hash)
    }

    /// The same for each of `profiles`, in their order (an import measures its walks by every
    /// profile; the map is read once for all of them).
    package func streets(_ path: String, hash expected: String? = nil, profiles: [Walkable.Profile]) throws(TransitError)
        -> (networks: [(StreetNetwork, StreetNetwork.SegmentGrid)], hash: String) {
        func cached(_ hash: String) -> [(StreetNetwork, StreetNetwork.SegmentGrid)]? {
            guard keepsCompiled else { return nil }
            let found = profiles.compactMap { StreetNetworkFile.read(networkPath(hash), hash: hash, profile: $0) }
            return found.count == profiles.count ? found : nil
        }
        if let expected, let found = cached(expected) { return (found, expected) }
        let hash = try Self.mapHash(path)
        if let expected, expected != hash {
            throw .usage("the map \(path) has changed since the feed's walks were measured on it: transit gtfs update measures them again")
        }
        if expected == nil, let found = cached(hash) { return (found, hash) }
        let mapBytes = Self.stamp(path)?.size ?? 0, limit = StreetNetwork.maxGridEntries(mapBytes: mapBytes)
        var every: [(StreetNetwork, StreetNetwork.SegmentGrid)] = []
        for network in try StreetNetwork.read(path, profiles: StreetNetworkFile.profiles, progress: progress) {
            guard let grid = network.grid(limit: limit) else {
                throw .usage("the map \(path) makes a street grid of more than \(limit) entries for its \(mapBytes) bytes (real maps make under 1 a byte): is it a map of streets?")
            }
            every.append((network, grid))
        }
        if keepsCompiled {
            _ = try? writeFile(networkPath(hash), what: "the walking network") { StreetNetworkFile.write(every, map: path, hash: hash, to: &$0) }
        }
        let asked = profiles.compactMap { p in StreetNetworkFile.profiles.firstIndex(of: p).flatMap { $0 < every.count ? every[$0] : nil } }
        return (asked, hash)
    }

    /// The content hash of the map at `path`: XXH64 of its bytes, 16 hex digits.
    package static func mapHash(_ path: String) throws(TransitError) -> String {
        let file = try MappedFile(path)
        let hex = String(Checksum.of(file.bytes), radix: 16)
        return String(repeating: "0", count: max(0, 16 - hex.count)) + hex
    }

    func networkPath(_ hash: String) -> String { (root as NSString).appendingPathComponent(".streets/\(hash).network") }

    /// Removes the walking networks of `.streets/` that no feed's summary names (a feed removed,
    /// measured again on a changed map, or a map refused at import), under the writers' lock.
    package func removeUnusedNetworks() {
        try? whileLocked { () throws(TransitError) in
            let directory = (root as NSString).appendingPathComponent(".streets")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            guard names.contains(where: { $0.hasSuffix(".network") }) else { return }
            var used = Set(stored().compactMap { $0.summary?.streetsHash })
            let combined = (root as NSString).appendingPathComponent(".combined")
            for name in (try? FileManager.default.contentsOfDirectory(atPath: combined)) ?? [] where name.hasSuffix(".timetable") {
                if let hash = (try? Self.storedSummary(at: (combined as NSString).appendingPathComponent(name)))?.summary.streetsHash { used.insert(hash) }
            }
            for name in names where name.hasSuffix(".network") && !used.contains(String(name.dropLast(".network".count))) {
                let path = (directory as NSString).appendingPathComponent(name)
                unlink(path)
                CheckRecord.forget(path)
            }
        }
    }
}
