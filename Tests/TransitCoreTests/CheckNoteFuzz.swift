import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
import TransitSupport

/// The byte fuzz's "check notes" family (issue 41, item 3): a compiled timetable damaged where
/// its size stays the same (what rots on a disk under an unchanged inode, or what a note copied
/// beside another file vouches for), loaded as a load that trusts its check note does (without
/// `TimetableFile.validate`), then asked everything a command asks: journeys with and without
/// real-time data, with a limit (the target bounds) and fares, reach, a board, a trip's calls,
/// the routes of every stop. The load must answer, or say the file is damaged; never trap or read
/// out of bounds.
enum CheckNoteFuzz {
    /// BART's 2019 feed (whose trip_ids the real-time capture uses), the same combined with
    /// Lakeport (feed starts, zones, links), a Fares v2 example, and Lakeport measured on its map
    /// (walks' step-free meters, stops' joins), each as its file holds it.
    static let samples: [Data] = {
        var timetables = [CPUBound.FuzzTests.bartTimetable, CPUBound.FuzzTests.bartAndLakeport].compactMap { $0 }
        if let fares = try? GTFSCompiler.compile(try FeedFiles.open(Paths.fixtures + "/gtfs/fares/areas")).0 { timetables.append(fares) }
        if var lakeport = CPUBound.FuzzTests.lakeport,
           let networks = try? StreetNetwork.read(Paths.fixtures + "/osm/lakeport.osm.pbf", profiles: [.foot, .stepFree]), networks.count == 2,
           let grid = networks[0].grid(), let freeGrid = networks[1].grid() {
            _ = StreetFootpaths.measure(&lakeport, on: networks[0], grid: grid, stepFree: (networks[1], freeGrid))
            timetables.append(lakeport)
        }
        return timetables.map(TimetableFile.encode)
    }()

    static let tripUpdates: FeedMessage? = FileManager.default.contents(atPath: Reference.path("gtfs-rt/feeds/transitland-bart/bart-trip-updates.pb"))
        .flatMap { try? FeedMessage.decode($0) }

    /// Overwrites 1–4 aligned 32-bit values of `data` (the mutator's own damage rarely lands on
    /// an index): -1, 0, huge, or a value near the tables' sizes. The size stays.
    /// A mutation that changed the size (the mutator's cuts and copies) damages a sample instead,
    /// seeded by the mutated bytes: a file of another size is not one its note vouches for.
    static func damaged(_ data: Data) -> Data {
        var seed: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data.prefix(4096) + data.suffix(4096) { seed = (seed ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        var g = SplitMix(seed: seed ^ UInt64(data.count))
        guard !samples.isEmpty else { return data }
        var bytes = [UInt8](samples.first { $0.count == data.count } != nil ? data : samples[Int(g.next() % UInt64(samples.count))])
        guard bytes.count >= 64 else { return data }
        let values: [Int32] = [-1, 0, 1, Int32.max, Int32.min, 255, 4_095, 65_535, Int32(bytes.count / 8), -2]
        for _ in 0..<(1 + Int(g.next() % 4)) {
            // Past the magic line; the summary's header is not in these bytes.
            let slot = 4 + Int(g.next() % UInt64(bytes.count / 4 - 4))
            let value = g.next() % 3 == 0 ? Int32(truncatingIfNeeded: g.next() % 70_000) : values[Int(g.next() % UInt64(values.count))]
            withUnsafeBytes(of: value.littleEndian) { for k in 0..<4 { bytes[slot * 4 + k] = $0[k] } }
        }
        return Data(bytes)
    }

    /// Loads `data` as a checked file is loaded, and asks it everything.
    static func ask(_ data: Data) {
        let box = DataBox(damaged(data))
        guard let t = try? TimetableFile.decode(box.bytes, from: 0, owner: box, path: "fuzz", vouched: true), t.stopCount > 1 else { return }
        let feed = GTFSFeed(timetable: t)
        let bart = t.feedNames.isEmpty ? "" : "bart:"
        let day = t.dateRange.first.dayNumber + min(2, max(0, Int(t.dayCount) - 1))
        let date = LocalDate(dayNumber: day)
        let realtime = tripUpdates.map { message in
            let read = RealtimeMessage(source: "fuzz", message: bart.isEmpty ? message : message.namespaced(bart), now: 1_565_199_921, feed: bart.isEmpty ? "" : "bart")
            let updates = RealtimeMessage.applied([read], to: t, language: "en")
            return GTFSFeed.Realtime(updates: updates, notices: [], messages: [read], zone: t.timeZone, language: "en")
        }
        let last = t.stopCount - 1
        let pairs = [(0, last), (last / 2, 1), (1, last / 3)]
        for (from, to) in pairs {
            let query = Router.Query(origins: [from], destinations: [to], day: day, after: 6 * 3600, before: 10 * 3600, maxTransfers: 3, minTransfer: 60,
                                     walkMeters: SearchDefaults.walkMeters)
            let journeys = Router(t, query, updates: realtime?.updates).journeys()
            _ = Router(t, query).journeys(limit: 2)
            var stepFree = query
            stepFree.needs.wheelchair = true
            _ = Router(t, stepFree).journeys()
            if let fares = FareTable(t, clock: ServiceClock(day: date, zone: t.zone), updates: realtime?.updates) {
                for journey in journeys { _ = fares.price(journey) }
            }
            _ = Router(t, query).reach()
        }
        let names = [t.stopIDs[0], t.stopIDs[last], t.stopNames[last / 2]]
        _ = try? feed.journeys(JourneyQuery(from: names[0], to: names[1], date: date, after: 7 * 3600, before: 9 * 3600), realtime: realtime)
        _ = try? feed.journeys({ var q = JourneyQuery(from: "\(t.stopLat[0]),\(t.stopLon[0])", to: names[2], date: date); q.limit = 3; return q }(), realtime: nil)
        for name in names { _ = try? feed.departures(at: name, date: date, after: 8 * 3600, realtime: realtime) }
        _ = try? feed.reach(ReachQuery(from: .stop(names[2]), day: .on(date), after: .asWritten(seconds: 8 * 3600), minutes: 60))
        for trip in [0, t.tripCount / 2, t.tripCount - 1] where trip >= 0 && trip < t.tripCount {
            _ = try? feed.trip(t.tripIDs[trip], date: date, realtime: realtime)
        }
        _ = StopIndex.routesByStop(t)
    }
}
