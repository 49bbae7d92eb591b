import Foundation
import TransitSupport

/// The walking network of an OpenStreetMap extract: the nodes of walkable ways (`Walkable`) that
/// the file holds, and the segments between consecutive ones along each way, undirected, each as
/// long as the great circle between its ends (R = 6,371,008.8 m). An extract cuts ways at its
/// edge: a way is split where a node is missing, never joined across the gap, and a piece needs
/// two nodes. Adjacency is compressed (one range of `targets` per node).
package struct StreetNetwork {
    package var latitude: [Double] = []
    package var longitude: [Double] = []
    /// Node i's segments are `targets[start[i]..<start[i + 1]]`, with their lengths.
    package var start: [Int32] = [0]
    package var targets: [Int32] = []
    package var meters: [Double] = []
    /// Walkable ways read, and pieces of them kept (a way cut by the extract's edge is several).
    package var ways = 0
    package var pieces = 0

    package init() {}

    package var nodeCount: Int { latitude.count }
    package var segmentCount: Int { targets.count / 2 }

    package func coordinate(_ node: Int) -> Coordinate { Coordinate(latitude: latitude[node], longitude: longitude[node]) }

    /// Reads the walkable network of the PBF file at `path`.
    package static func read(_ path: String, profile: Walkable.Profile = .foot, progress: ProgressReport? = nil) throws(TransitError) -> StreetNetwork {
        let file = try MappedFile(path)
        return try read(file.bytes, what: path, profiles: [profile], progress: progress).first ?? StreetNetwork()
    }

    /// Reads the walkable network of PBF bytes (`what` names them in an error).
    package static func read(_ bytes: UnsafeRawBufferPointer, what: String, profile: Walkable.Profile = .foot) throws(TransitError) -> StreetNetwork {
        try read(bytes, what: what, profiles: [profile]).first ?? StreetNetwork()
    }

    /// The walkable networks of the PBF file at `path` for each of `profiles`, from one reading:
    /// a second profile is a second set of edges over the same nodes, not a second pass over the map.
    package static func read(_ path: String, profiles: [Walkable.Profile], progress: ProgressReport? = nil) throws(TransitError) -> [StreetNetwork] {
        let file = try MappedFile(path)
        return try read(file.bytes, what: path, profiles: profiles, progress: progress)
    }

    /// The same, from PBF bytes.
    package static func read(_ bytes: UnsafeRawBufferPointer, what: String, profiles: [Walkable.Profile],
                             progress: ProgressReport? = nil) throws(TransitError) -> [StreetNetwork] {
        // Every node's id and place (nodes come before the ways that use them, and which nodes a
        // walkable way uses is known only then), then the refs of the ways some profile walks,
        // each way with the profiles that walk it (a bit each).
        var ids: [Int64] = [], lats: [Int32] = [], lons: [Int32] = [], sorted = true
        var refs: [Int64] = [], wayEnds: [Int] = [], areas: [Bool] = [], walkedBy: [UInt8] = []
        _ = try PBFReader.read(bytes, what: what, PBFReader.Visitor(node: { node in
            if let last = ids.last, last >= node.id { sorted = false }
            ids.append(node.id)
            lats.append(node.latitude)
            lons.append(node.longitude)
        }, way: { _, nodes, tags in
            var bits: UInt8 = 0
            for (k, profile) in profiles.prefix(8).enumerated() where Walkable.way(tags, profile) { bits |= 1 << k }
            guard bits != 0 else { return }
            refs += nodes
            wayEnds.append(refs.count)
            areas.append(Walkable.isArea(tags))
            walkedBy.append(bits)
        }, blob: { read, size in progress?(.map(read: read, of: size)) }))
        if !sorted {
            // Files written by osmium and osmosis are sorted by id; another may not be.
            let order = ids.indices.sorted { ids[$0] < ids[$1] }
            ids = order.map { ids[$0] }
            lats = order.map { lats[$0] }
            lons = order.map { lons[$0] }
        }
        return profiles.prefix(8).indices.map { k in
            // Every way walked by all: the refs as read; else this profile's ways alone.
            if walkedBy.allSatisfy({ $0 & (1 << k) != 0 }) { return build(ids: ids, lats: lats, lons: lons, refs: refs, wayEnds: wayEnds, areas: areas) }
            var ownRefs: [Int64] = [], ownEnds: [Int] = [], ownAreas: [Bool] = [], begin = 0
            for (way, end) in wayEnds.enumerated() {
                defer { begin = end }
                guard walkedBy[way] & (1 << k) != 0 else { continue }
                ownRefs += refs[begin..<end]
                ownEnds.append(ownRefs.count)
                ownAreas.append(areas[way])
            }
            return build(ids: ids, lats: lats, lons: lons, refs: ownRefs, wayEnds: ownEnds, areas: ownAreas)
        }
    }

    /// A closed area with more gates than this is walked along its outline only (rule 2).
    package static let maxGates = 100

    /// The network from nodes sorted by id (places in 1e-7 degrees) and ways' refs; `areas` marks
    /// the ways crossed straight between their gates when closed and whole (`Walkable.isArea`).
    package static func build(ids: [Int64], lats: [Int32], lons: [Int32], refs: [Int64], wayEnds: [Int], areas: [Bool] = []) -> StreetNetwork {
        func index(_ id: Int64) -> Int? {
            var low = 0, high = ids.count
            while low < high {
                let mid = (low + high) / 2
                if ids[mid] < id { low = mid + 1 } else { high = mid }
            }
            return low < ids.count && ids[low] == id ? low : nil
        }
        var network = StreetNetwork()
        var number = [Int32](repeating: -1, count: ids.count)
        var edges: [(Int32, Int32, Double)] = []
        func node(_ fileIndex: Int) -> Int32 {
            if number[fileIndex] < 0 {
                number[fileIndex] = Int32(network.latitude.count)
                network.latitude.append(Double(lats[fileIndex]) / 1e7)
                network.longitude.append(Double(lons[fileIndex]) / 1e7)
            }
            return number[fileIndex]
        }
        var begin = 0, closedAreas: [[Int]] = []
        var uses = [Int32](repeating: 0, count: ids.count), lastWay = [Int32](repeating: 0, count: ids.count)
        for end in wayEnds {
            network.ways += 1
            // Runs of consecutive refs the file holds; each run of two or more is a piece.
            var run: [Int] = []
            func flush() {
                defer { run.removeAll(keepingCapacity: true) }
                guard run.count >= 2 else { return }
                network.pieces += 1
                for k in 1..<run.count where run[k] != run[k - 1] {
                    let a = node(run[k - 1]), b = node(run[k])
                    edges.append((a, b, network.coordinate(Int(a)).meters(to: network.coordinate(Int(b)), radius: Coordinate.meanEarthRadiusMeters)))
                }
            }
            var whole = true
            for k in begin..<end {
                guard let i = index(refs[k]) else {
                    whole = false
                    flush()
                    continue
                }
                run.append(i)
                // How many walkable ways use each node (an area's gates are used by two or more).
                if lastWay[i] != Int32(network.ways) {
                    lastWay[i] = Int32(network.ways)
                    uses[i] &+= 1
                }
            }
            // A closed area the file holds whole is crossed too (after its outline, below).
            if whole, network.ways - 1 < areas.count, areas[network.ways - 1], end - begin >= 4, refs[begin] == refs[end - 1] {
                closedAreas.append(Array(run))
            }
            flush()
            begin = end
        }
        // Each two gates of a closed area (its nodes another walkable way also uses) joined
        // straight: people cross a square between where its paths meet it.
        if !closedAreas.isEmpty {
            // Crossings in all at most 4 a ref of the file and a million more: 100 gates make
            // 4,950, and a map of areas each touched at 100 gates would otherwise make
            // gigabytes of them from megabytes of file. Past it, an area is walked round.
            var crossings = 0
            let maxCrossings = 4 * refs.count + (1 << 20)
            for area in closedAreas {
                let gates = Array(Set(area.filter { uses[$0] > 1 })).sorted()
                guard gates.count >= 2, gates.count <= maxGates, crossings + gates.count * (gates.count - 1) / 2 <= maxCrossings else { continue }
                crossings += gates.count * (gates.count - 1) / 2
                for x in 0..<gates.count {
                    for y in (x + 1)..<gates.count {
                        let a = node(gates[x]), b = node(gates[y])
                        edges.append((a, b, network.coordinate(Int(a)).meters(to: network.coordinate(Int(b)), radius: Coordinate.meanEarthRadiusMeters)))
                    }
                }
            }
        }
        // Both directions of each segment, grouped by node (a counting sort).
        var count = [Int32](repeating: 0, count: network.nodeCount + 1)
        for (a, b, _) in edges {
            count[Int(a) + 1] += 1
            count[Int(b) + 1] += 1
        }
        for i in 0..<network.nodeCount { count[i + 1] += count[i] }
        network.start = count
        var fill = count
        network.targets = [Int32](repeating: 0, count: edges.count * 2)
        network.meters = [Double](repeating: 0, count: edges.count * 2)
        for (a, b, m) in edges {
            for (from, to) in [(a, b), (b, a)] {
                let slot = Int(fill[Int(from)])
                network.targets[slot] = to
                network.meters[slot] = m
                fill[Int(from)] += 1
            }
        }
        network.keepEachSegmentOnce()
        return network
    }

    /// One segment once: a way that runs between two nodes again and again (or two ways that
    /// share a stretch) adds nothing to walk on. Each node's targets after the first of each are
    /// dropped, the others kept in their order (a node's few are compared with each other; a
    /// crowded one's through a set), and both ends of a pair drop alike.
    mutating func keepEachSegmentOnce() {
        var keep = [Bool](repeating: true, count: targets.count), dropped = 0
        for node in 0..<nodeCount {
            let a = Int(start[node]), b = Int(start[node + 1])
            guard b - a > 1 else { continue }
            if b - a <= 16 {
                for k in (a + 1)..<b where (a..<k).contains(where: { targets[$0] == targets[k] }) {
                    keep[k] = false
                    dropped += 1
                }
            } else {
                var seen = Set<Int32>()
                for k in a..<b where !seen.insert(targets[k]).inserted {
                    keep[k] = false
                    dropped += 1
                }
            }
        }
        guard dropped > 0 else { return }
        var newStart = [Int32](repeating: 0, count: nodeCount + 1), newTargets: [Int32] = [], newMeters: [Double] = []
        newTargets.reserveCapacity(targets.count - dropped)
        newMeters.reserveCapacity(targets.count - dropped)
        for node in 0..<nodeCount {
            for k in Int(start[node])..<Int(start[node + 1]) where keep[k] {
                newTargets.append(targets[k])
                newMeters.append(meters[k])
            }
            newStart[node + 1] = Int32(newTargets.count)
        }
        (start, targets, meters) = (newStart, newTargets, newMeters)
    }

    /// Where a place joins one segment of the network (it may join several: `joins`): the
    /// segment's nearest point, `offset` meters from `from` towards `to` (a segment `meters`
    /// long), `distance` meters from the place.
    package struct Join: Equatable {
        package var from: Int
        package var to: Int
        package var offset: Double
        package var meters: Double
        package var distance: Double
    }

    /// Segments by grid cell, for `join`: the cells' keys sorted, each cell's (from node, slot)
    /// pairs in `entries[starts[k] ..< starts[k + 1]]` (arrays, so that the grid is stored with
    /// the network and read back without rebuilding).
    package struct SegmentGrid: Equatable {
        /// Cell size in degrees of latitude (about 111 m), and of longitude, as wide in meters at
        /// the network's middle latitude.
        package var cell = 0.001
        package var lonCell = 0.001
        package var keys: [Int64] = []
        package var starts: [Int32] = [0]
        package var entries: [Int32] = []

        package func key(_ lat: Double, _ lon: Double) -> (Int, Int) { (Int(saturating: (lat / cell).rounded(.down)), Int(saturating: (lon / lonCell).rounded(.down))) }
        package static func pack(_ x: Int, _ y: Int) -> Int64 { Int64(truncatingIfNeeded: x) << 32 ^ Int64(truncatingIfNeeded: UInt32(truncatingIfNeeded: y)) }

        /// The (from node, slot) pairs filed under a cell.
        package func cell(_ x: Int, _ y: Int) -> ArraySlice<Int32> {
            let key = Self.pack(x, y)
            var low = 0, high = keys.count
            while low < high {
                let mid = (low + high) / 2
                if keys[mid] < key { low = mid + 1 } else { high = mid }
            }
            guard low < keys.count, keys[low] == key, low + 1 < starts.count else { return [] }
            let a = Int(starts[low]), b = Int(starts[low + 1])
            guard a >= 0, a <= b, b <= entries.count else { return [] }
            return entries[a..<b]
        }
    }

    /// Cells a segment is filed under at most: 256 cells of about 111 m is 28 km, longer than
    /// any street a walker joins; a longer segment is filed under its ends' cells only.
    package static let maxCellsPerSegment = 256

    /// The grid's entries a map may make: 4 per byte of the file, and a million more (the pack's
    /// maps make 0.01 to 0.35 per byte). Past it the map is refused, not grown into gigabytes.
    package static func maxGridEntries(mapBytes: Int) -> Int { 4 * mapBytes + (1 << 20) }

    /// A connected piece of fewer nodes than this is an island: nothing joins it (rule 2, R5's
    /// threshold).
    package static let islandNodes = 40

    /// For each node, its connected piece (a number; a breadth-first walk, no recursion).
    package func pieceIDs() -> [Int32] {
        var piece = [Int32](repeating: -1, count: nodeCount), queue: [Int32] = [], next: Int32 = 0
        for seed in 0..<nodeCount where piece[seed] < 0 {
            piece[seed] = next
            queue.removeAll(keepingCapacity: true)
            queue.append(Int32(seed))
            var head = 0
            while head < queue.count {
                let node = Int(queue[head])
                head += 1
                for slot in Int(start[node])..<Int(start[node + 1]) where piece[Int(targets[slot])] < 0 {
                    piece[Int(targets[slot])] = next
                    queue.append(targets[slot])
                }
            }
            next += 1
        }
        return piece
    }

    /// For each node, the number of nodes of its connected piece.
    package func pieceSizes() -> [Int32] {
        let piece = pieceIDs()
        var sizes = [Int32](repeating: 0, count: nodeCount)
        for id in piece where id >= 0 && Int(id) < sizes.count { sizes[Int(id)] += 1 }
        return piece.map { $0 >= 0 && Int($0) < sizes.count ? sizes[Int($0)] : 0 }
    }

    /// The grid of every segment a place may join (none of an island's), filed under its
    /// lower-numbered end's slot in each cell the segment crosses (a line crosses about as many
    /// cells as it is long, where its bounding box held the square of that). nil where it would
    /// hold more than `limit` entries. (`islandNodes`: the rule's, but for tests of the search
    /// itself on a handful of nodes.)
    package func grid(limit: Int = .max, islandNodes: Int = Self.islandNodes) -> SegmentGrid? {
        let middle = ((latitude.min() ?? 0) + (latitude.max() ?? 0)) / 2
        var grid = SegmentGrid(cell: 0.001, lonCell: 0.001 / max(0.01, cos(middle * .pi / 180)))
        var filed: [(key: Int64, a: Int32, slot: Int32)] = []
        var cells: [Int64] = []
        let sizes = pieceSizes()
        for a in 0..<nodeCount where sizes[a] >= islandNodes {
            for slot in Int(start[a])..<Int(start[a + 1]) where Int(targets[slot]) > a {
                let b = Int(targets[slot])
                grid.crossed(latitude[a], longitude[a], latitude[b], longitude[b], into: &cells)
                for key in cells { filed.append((key, Int32(a), Int32(slot))) }
                guard filed.count * 2 <= limit else { return nil }
            }
        }
        filed.sort { ($0.key, $0.slot) < ($1.key, $1.slot) }
        for item in filed {
            if grid.keys.last != item.key {
                if !grid.keys.isEmpty { grid.starts.append(Int32(grid.entries.count)) }
                grid.keys.append(item.key)
            }
            grid.entries += [item.a, item.slot]
        }
        if !grid.keys.isEmpty { grid.starts.append(Int32(grid.entries.count)) }
        return grid
    }
}

extension StreetNetwork.SegmentGrid {
    /// The keys of the cells the straight segment from (lat0, lon0) to (lat1, lon1) crosses,
    /// column by column of latitude: in each, the rows of longitude the segment spans there (a
    /// hair wider, so that a point on a cell's edge is in both). Over
    /// `StreetNetwork.maxCellsPerSegment`, the cells of its two ends.
    func crossed(_ lat0: Double, _ lon0: Double, _ lat1: Double, _ lon1: Double, into cells: inout [Int64]) {
        cells.removeAll(keepingCapacity: true)
        let (xa, ya) = key(lat0, lon0), (xb, yb) = key(lat1, lon1)
        // Most streets' segments are shorter than a cell: their box (at most 2 × 2) is the cells.
        if (Int64(xb) - Int64(xa)).magnitude <= 1 && (Int64(yb) - Int64(ya)).magnitude <= 1 {
            for x in min(xa, xb)...max(xa, xb) { for y in min(ya, yb)...max(ya, yb) { cells.append(Self.pack(x, y)) } }
            return
        }
        let span = Int(clamping: abs(Int64(xb) - Int64(xa))) &+ Int(clamping: abs(Int64(yb) - Int64(ya)))
        guard span < StreetNetwork.maxCellsPerSegment / 2 else {
            cells.append(Self.pack(xa, ya))
            if (xa, ya) != (xb, yb) { cells.append(Self.pack(xb, yb)) }
            return
        }
        let u0 = lat0 / cell, v0 = lon0 / lonCell, u1 = lat1 / cell, v1 = lon1 / lonCell
        let hair = 1e-9
        for x in min(xa, xb)...max(xa, xb) {
            // The part of the segment within this column, and the longitudes it spans there.
            var vLow = min(v0, v1), vHigh = max(v0, v1)
            if u0 != u1 {
                let t0 = ((Double(x) - u0) / (u1 - u0)).clamped(0, 1), t1 = ((Double(x) + 1 - u0) / (u1 - u0)).clamped(0, 1)
                let va = v0 + (v1 - v0) * t0, vb = v0 + (v1 - v0) * t1
                vLow = min(va, vb)
                vHigh = max(va, vb)
            }
            let yLow = max(Int(saturating: (vLow - hair).rounded(.down)), min(ya, yb))
            let yHigh = min(Int(saturating: (vHigh + hair).rounded(.down)), max(ya, yb))
            guard yLow <= yHigh else { continue }
            for y in yLow...yHigh { cells.append(Self.pack(x, y)) }
        }
    }
}

private extension Double {
    func clamped(_ low: Double, _ high: Double) -> Double { Swift.min(Swift.max(self, low), high) }
}
