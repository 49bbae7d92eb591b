import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

/// Our OpenStreetMap PBF reader on the pack's extracts: the counts of its README (osmium's for
/// nodes, ways and relations; walk rule 2 for the rest), from files written by osmium, osmosis
/// and Vanilla Extract.
@Suite struct PBFReaderTests: PBFWriting {
    struct Counts: Equatable, CustomStringConvertible {
        var nodes = 0, ways = 0, relations = 0, walkableWays = 0, nodesOnWalkableWays = 0
        var description: String { "\(nodes) nodes, \(ways) ways, \(relations) relations, \(walkableWays) walkable, \(nodesOnWalkableWays) on them" }
    }

    /// Walkable ways and their nodes as a graph can use them: only nodes the file holds (an
    /// extract cuts ways at its edge), and a way only when two or more of its nodes are there,
    /// as the README's counts are made.
    static func counts(_ path: String, profile: Walkable.Profile = .foot) throws -> (Counts, PBFReader.Header) {
        var counts = Counts()
        var nodes = Set<Int64>(), walkable: [[Int64]] = []
        let header = try PBFReader.read(path, PBFReader.Visitor(node: { node in
            counts.nodes += 1
            nodes.insert(node.id)
        }, way: { _, refs, tags in
            counts.ways += 1
            if Walkable.way(tags, profile) { walkable.append(refs) }
        }, relation: { counts.relations += 1 }))
        let present = walkable.map { $0.filter(nodes.contains) }.filter { $0.count >= 2 }
        counts.walkableWays = present.count
        counts.nodesOnWalkableWays = Set(present.joined()).count
        return (counts, header)
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent), arguments: [
        ("beatty/beatty.osm.pbf", Counts(nodes: 6_624, ways: 344, relations: 8, walkableWays: 169, nodesOnWalkableWays: 2_120), "osmium/1.11.1"),
        ("helsinki/Helsinki.osm.pbf", Counts(nodes: 24_260, ways: 5_130, relations: 620, walkableWays: 2_558, nodesOnWalkableWays: 6_951), "0.47"),
        ("helsinki/test.osm.pbf", Counts(nodes: 14_222, ways: 2_653, relations: 5, walkableWays: 264, nodesOnWalkableWays: 1_135), "0.47"),
        ("r5/delft-station.osm.pbf", Counts(nodes: 1_073, ways: 226, relations: 0, walkableWays: 42, nodesOnWalkableWays: 120), "0.44.1"),
        ("r5/subgraph.osm.pbf", Counts(nodes: 38_181, ways: 6_483, relations: 0, walkableWays: 5_973, nodesOnWalkableWays: 33_262), "osmium/1.10.0"),
        ("r5/terre-haute.osm.pbf", Counts(nodes: 40_140, ways: 5_096, relations: 0, walkableWays: 3_920, nodesOnWalkableWays: 23_398), "Vanilla Extract"),
        ("r5/porto.osm.pbf", Counts(nodes: 347_944, ways: 51_458, relations: 357, walkableWays: 48_483, nodesOnWalkableWays: 324_977), "osmium/1.10.0"),
    ]) func theExtractsDecodeToTheirCounts(file: String, expected: Counts, program: String) throws {
        let (counts, header) = try Self.counts(Reference.path("osm/" + file))
        #expect(counts == expected, "\(file): \(counts)")
        // Vanilla Extract names no OsmSchema-V0.6 among the features a reader needs (only DenseNodes).
        #expect(header.writingProgram == program && (header.requiredFeatures.contains("OsmSchema-V0.6") || program == "Vanilla Extract")
                && header.requiredFeatures.contains("DenseNodes"), "\(header)")
    }

    /// The README's networks by rule 2, both profiles: each extract's largest connected piece
    /// (crossings of areas included), and for the step-free profile (no steps, no `wheelchair=no`)
    /// its walkable ways and their nodes, where they differ from the foot profile's.
    @Test(.enabled(if: Reference.isPresent, Reference.absent), arguments: [
        ("beatty/beatty.osm.pbf", 2_027, nil), ("helsinki/Helsinki.osm.pbf", 6_802, (2_418, 6_903, 6_669)),
        ("helsinki/test.osm.pbf", 942, nil), ("r5/delft-station.osm.pbf", 99, (36, 119, 64)),
        ("r5/subgraph.osm.pbf", 31_725, (5_872, 33_120, 31_555)), ("r5/terre-haute.osm.pbf", 22_850, nil),
        ("r5/porto.osm.pbf", 312_868, (47_836, 324_330, 312_130)),
    ] as [(String, Int, (Int, Int, Int)?)]) func eachProfilesLargestPieceIsTheReadmes(file: String, largest: Int, stepFree: (Int, Int, Int)?) throws {
        let path = Reference.path("osm/" + file)
        // Both profiles from one reading of the map: two sets of edges over one set of nodes.
        let both = try StreetNetwork.read(path, profiles: [.foot, .stepFree])
        let foot = try #require(both.first), network = try #require(both.last)
        #expect(foot.pieceSizes().max().map(Int.init) == largest, "\(file): foot \(String(describing: foot.pieceSizes().max()))")
        let alone = try StreetNetwork.read(path, profile: .stepFree)
        #expect(alone.nodeCount == network.nodeCount && alone.targets == network.targets && alone.meters == network.meters, "\(file): read alone, step-free differs")
        let (foots, _) = try Self.counts(path), (counts, _) = try Self.counts(path, profile: .stepFree)
        let (ways, nodes, piece) = stepFree ?? (foots.walkableWays, foots.nodesOnWalkableWays, largest)
        // The ways with two nodes or more in the file, and their nodes, as the table counts.
        #expect(counts.walkableWays == ways && counts.nodesOnWalkableWays == nodes, "\(file): step-free \(counts)")
        #expect(network.nodeCount == nodes && network.pieceSizes().max().map(Int.init) == piece,
                "\(file): step-free \(network.nodeCount) nodes, largest \(String(describing: network.pieceSizes().max()))")
    }

    typealias P = Protowire

    /// Issue 41, item 9: blobs of repeated dense nodes (30 MB each, 30 KB packed) unpack to at
    /// most 10 times the file plus 16 MB, in all: the read stops at the bound, with one line,
    /// having handed over at most that many nodes (before: 262 KB cost 2.8 GB and 10 s).
    @Test func aFileOfPackedNodesUnpacksToABoundedTotal() async throws {
        let count = 10_000_000
        let dense = P.field(1, [UInt8](repeating: 2, count: count)) + P.field(8, [UInt8](repeating: 0, count: count))
            + P.field(9, [UInt8](repeating: 0, count: count))
        let block = P.field(1, P.field(1, [UInt8]())) + P.field(2, P.field(2, dense))
        let packed = try #require(compress(Data(block), format: .zlib))
        let blob = P.field(2, UInt64(block.count)) + P.field(3, [UInt8](packed))
        let data = Self.file([("OSMHeader", Self.raw(Self.header()))] + Array(repeating: ("OSMData", blob), count: 8))
        #expect(data.count < 400_000, "\(data.count)")
        // A second of decoding: on a thread of its own, off the pool the deadline tests wait on.
        let (message, nodes) = try await offPool { () -> (String?, Int) in
            var nodes = 0
            let outcome = data.withUnsafeBytes { bytes in
                Result { () throws(TransitError) in try PBFReader.read(bytes, what: "bomb.osm.pbf", PBFReader.Visitor(node: { _ in nodes += 1 })) }
            }
            guard case .failure(let error) = outcome else { return (nil, nodes) }
            return (error.message, nodes)
        }
        #expect(message?.contains("would unpack to more than 10 times the file's") == true, "\(message ?? "read whole") \(nodes)")
        #expect(nodes <= (PBFReader.maxRatio * data.count + PBFReader.unpackSlack) / 3, "\(nodes)")
    }

    /// Plain nodes, raw blobs, granularity and offsets, tags by string table, the walk rule.
    @Test func rawBlobsPlainNodesGranularityAndOffsets() throws {
        let data = Self.file([("OSMHeader", Self.raw(Self.header())), ("OSMData", Self.raw(Self.block()))])
        var nodes: [PBFReader.Node] = [], ways: [(Int64, [Int64], Bool)] = [], relations = 0
        let header = try data.withUnsafeBytes { bytes in
            try PBFReader.read(bytes, what: "x", PBFReader.Visitor(node: { nodes.append($0) }, way: { ways.append(($0, $1, Walkable.way($2))) },
                                                                     relation: { relations += 1 }))
        }
        #expect(header.writingProgram == "transit-tests")
        // 1e-9 × (5,000 + 1000 × 41,000,000) degrees = 41.000005°, as 1e-7: 410,000,050.
        #expect(nodes == [PBFReader.Node(id: 10, latitude: 410_000_050, longitude: -870_000_000), PBFReader.Node(id: 11, latitude: 410_010_050, longitude: -870_000_000)])
        #expect(ways.count == 2 && ways[0] == (5, [10, 11], true) && ways[1] == (6, [10, 11], false) && relations == 1)
    }

    /// Each a one-line error naming the file, never a trap: no header, an unknown required
    /// feature, lzma, a file that is not PBF, a cut file (at every 997th byte of beatty), a blob
    /// that claims more than it holds.
    @Test func badFilesAreOneLineErrors() throws {
        func error(_ data: Data) -> String? {
            data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> String? in
                do throws(TransitError) { _ = try PBFReader.read(bytes, what: "m.pbf", PBFReader.Visitor()); return nil } catch { return error.message }
            }
        }
        #expect(error(Self.file([("OSMData", Self.raw(Self.block()))]))?.contains("data before the OSMHeader") == true)
        #expect(error(Self.file([("OSMHeader", Self.raw(Self.header(["OsmSchema-V0.6", "HistoricalInformation"])))]))?
                    .contains("requires the feature 'HistoricalInformation'") == true)
        #expect(error(Self.file([("OSMHeader", P.field(4, [UInt8](repeating: 1, count: 9)) + P.field(2, UInt64(9)))]))?.contains("packed with lzma") == true)
        #expect(error(Data("<?xml version='1.0'?><osm></osm>".utf8))?.contains("is it an OpenStreetMap .osm.pbf file?") == true)
        #expect(error(Data())?.contains("no OSMHeader") == true)
        #expect(error(Self.file([("OSMHeader", P.field(3, [UInt8](repeating: 7, count: 20)) + P.field(2, UInt64(1000)))]))?.contains("zlib") == true)
        guard Reference.isPresent else { return }
        let beatty = try Data(contentsOf: URL(fileURLWithPath: Reference.path("osm/beatty/beatty.osm.pbf")))
        for cut in stride(from: 1, to: beatty.count, by: 997) {
            let message = try #require(error(beatty.prefix(cut)), "cut at \(cut) read without an error")
            #expect(!message.contains("\n"))
        }
    }


    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func aRawCopyReadsTheSame() throws {
        let beatty = try Data(contentsOf: URL(fileURLWithPath: Reference.path("osm/beatty/beatty.osm.pbf")))
        let copy = Self.rawCopy(beatty)
        #expect(copy.count > beatty.count)
        func count(_ data: Data) throws -> [Int] {
            var n = [0, 0, 0]
            _ = try data.withUnsafeBytes { try PBFReader.read($0, what: "x", PBFReader.Visitor(node: { _ in n[0] += 1 }, way: { _, _, _ in n[1] += 1 }, relation: { n[2] += 1 })) }
            return n
        }
        #expect(try count(copy) == count(beatty) && count(copy) == [6_624, 344, 8])
    }
}
