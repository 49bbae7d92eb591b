import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Strings kept as one byte blob and offsets: thousands of names cost two arrays, not
/// thousands of objects, and load with two copies.
struct StringTable: Sendable, Equatable {
    var offsets = Packed<Int32>([0])
    var bytes = Packed<UInt8>()

    var count: Int { offsets.count - 1 }
    var isEmpty: Bool { count == 0 }

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
        offsets.append(Int32(clamping: bytes.count))
    }

    mutating func append(_ raw: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: raw)
        offsets.append(Int32(clamping: bytes.count))
    }

    subscript(i: Int) -> String {
        guard i >= 0, i + 1 < offsets.count else { return "" }
        let start = Int(offsets[i]), end = Int(offsets[i + 1])
        guard start <= end, end <= bytes.count else { return "" }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes.buffer[start..<end]), as: UTF8.self)
    }
}

extension StringTable {
    /// The indices whose string is exactly `text`, compared as bytes (no String per entry).
    func indices(of text: String) -> [Int] {
        var text = text
        return text.withUTF8 { key in (0..<count).filter { i in withBytes(i) { FieldBytes.same($0, key) } } }
    }
}

/// Each station's child stops (location_type 0 or 1 stops naming it as parent_station), as
/// offsets into one list: two passes over the stops, no dictionary.
struct StationChildren {
    private let start: [Int32]
    private let list: [Int32]

    init(_ t: Timetable) {
        let parents = t.stopParent.buffer, n = parents.count
        var start = [Int32](repeating: 0, count: n + 1)
        for p in parents where p >= 0 && Int(p) < n { start[Int(p) + 1] += 1 }
        for i in 0..<n { start[i + 1] += start[i] }
        var fill = start
        var list = [Int32](repeating: 0, count: Int(start[n]))
        for (stop, p) in parents.enumerated() where p >= 0 && Int(p) < n {
            list[Int(fill[Int(p)])] = Int32(stop)
            fill[Int(p)] += 1
        }
        self.start = start
        self.list = list
    }

    /// The stops of `station`; empty for a stop that is no station.
    func of(_ station: Int) -> [Int] {
        guard station >= 0, station + 1 < start.count else { return [] }
        return list[Int(start[station])..<Int(start[station + 1])].map(Int.init)
    }

    /// A station's stops, or the stop itself.
    func expand(_ stop: Int) -> [Int] {
        let stops = of(stop)
        return stops.isEmpty ? [stop] : stops
    }
}

/// A transfers.txt row, by index; -1 where the row leaves the field empty.
struct TransferRule: Sendable, Equatable {
    var fromStop: Int32
    var toStop: Int32
    var fromRoute: Int32
    var toRoute: Int32
    var fromTrip: Int32
    var toTrip: Int32
    var type: Int32
    /// Seconds; -1 when empty.
    var minTime: Int32
}

/// A GTFS feed compiled for routing: stops, routes, trips grouped into patterns (trips with
/// the same stops and pickup/drop-off rules, split so that no trip overtakes another), their
/// times as seconds from "noon minus 12 h" of the service day, the service calendar as one bit
/// per day, and transfers.txt. About 16 bytes per stop_time (docs/performance.md).
struct Timetable: Sendable {
    // The feed
    var agencies = StringTable()
    var timeZone = "UTC"
    /// Day numbers (days since 1970-01-01) of the calendar's first day, and how many days.
    var firstDay: Int32 = 0
    var dayCount: Int32 = 0
    /// stop_times rows read from the feed (before frequencies were expanded).
    var sourceStopTimes: Int64 = 0

    // Stops
    var stopIDs = StringTable()
    var stopCodes = StringTable()
    /// platform_code: the platform a rider looks for at a station ("2"), empty where the feed has none.
    var stopPlatforms = StringTable()
    var stopNames = StringTable()
    var stopLat = Packed<Double>()
    var stopLon = Packed<Double>()
    var stopParent = Packed<Int32>()

    // Routes
    var routeIDs = StringTable()
    var routeAgency = StringTable()
    var routeShortName = StringTable()
    var routeLongName = StringTable()
    var routeType = Packed<Int32>()
    var routeColor = StringTable()

    // Trips (a frequencies.txt window expands into one trip per departure)
    var tripIDs = StringTable()
    var tripRoute = Packed<Int32>()
    var tripService = Packed<Int32>()
    /// Each trip's headsign, as an index into `headsigns` (a few hundred distinct ones).
    var tripHeadsign = Packed<Int32>()
    var headsigns = StringTable()

    func headsign(_ trip: Int) -> String { trip >= 0 && trip < tripHeadsign.count ? headsigns[Int(tripHeadsign[trip])] : "" }

    // Patterns
    var patternStopStart = Packed<Int32>([0])
    var patternStops = Packed<Int32>()
    /// Per pattern position: bit 0 no pickup, bit 1 no drop-off.
    var patternFlags = Packed<UInt8>()
    /// Per pattern position: the stop_sequence of stop_times.txt (how GTFS-Realtime names a call).
    var patternSequences = Packed<Int32>()
    var patternTripStart = Packed<Int32>([0])
    var patternTrips = Packed<Int32>()
    /// Where each pattern's times begin in `times`: trip j at position i is
    /// `times[timeStart + (j * length + i) * 2]` (arrival), `+ 1` (departure).
    var patternTimeStart = Packed<Int64>()
    var times = Packed<Int32>()

    // Stop → (pattern, position) pairs
    var stopPatternStart = Packed<Int32>([0])
    var stopPatterns = Packed<Int32>()

    // Trip → its runs: for trip k, `tripRuns[2 * j]` (pattern) and `[2 * j + 1]` (row) for j in
    // `tripRunStart[k] ..< tripRunStart[k + 1]`, earliest first. What realtime needs to find a
    // TripUpdate's trip; a frequencies.txt trip has a run per departure, told apart by its start
    // time (`runStart`), and is marked in `tripIsFrequency`.
    var tripRunStart = Packed<Int32>([0])
    var tripRuns = Packed<Int32>()
    var tripIsFrequency = Packed<UInt8>()

    // Services
    var serviceIDs = StringTable()
    var serviceWords: Int32 = 0
    var serviceDays = Packed<UInt64>()

    var transfers: [TransferRule] = []

    // Feeds: empty for one feed. A combination of several (`--feed a --feed b`) keeps each
    // feed's stops, routes, trips, patterns, services and transfers.txt rows as one contiguous
    // range, its ids written `feed:id`, and its own zone (TimetableCombination).
    var feedNames = StringTable()
    var feedZones = StringTable()
    /// Where feed f's stops, routes, trips, patterns, services and transfer rows begin: entry f
    /// of each (one more entry than feeds, the last the total).
    var feedStopStart = Packed<Int32>()
    var feedRouteStart = Packed<Int32>()
    var feedTripStart = Packed<Int32>()
    var feedPatternStart = Packed<Int32>()
    var feedServiceStart = Packed<Int32>()
    var feedTransferStart = Packed<Int32>()
    /// A combination's links found when it was compiled: for stop x, the stops of other feeds
    /// within `TimetableCombination.linkRadius` meters, `linkStops[linkStart[x] ..< linkStart[x + 1]]`,
    /// and their distances in `linkLengths` (empty arrays for one feed).
    var linkStart = Packed<Int32>()
    var linkStops = Packed<Int32>()
    var linkLengths = Packed<Double>()

    var stopCount: Int { stopLat.count }
    var routeCount: Int { routeType.count }
    var tripCount: Int { tripRoute.count }
    var patternCount: Int { patternTripStart.count - 1 }
    var serviceCount: Int { serviceIDs.count }

    func patternLength(_ p: Int) -> Int { Int(patternStopStart[p + 1] - patternStopStart[p]) }

    // The layout of a pattern's calls, written once: every reader goes through these.

    /// Where a call's arrival lies in `times` (its departure is the next value): the pattern's
    /// rows one after another, each row its calls in order, each call (arrival, departure).
    @inline(__always) func timeIndex(pattern q: Int, row: Int, position i: Int) -> Int {
        Int(patternTimeStart[q]) + (row * patternLength(q) + i) * 2
    }

    func departure(pattern q: Int, row: Int, position i: Int) -> Int { Int(times[timeIndex(pattern: q, row: row, position: i) + 1]) }
    func trip(pattern q: Int, row: Int) -> Int { Int(patternTrips[Int(patternTripStart[q]) + row]) }

    /// `patternFlags` per call: bit 0 no pickup, bit 1 no drop-off.
    static let noPickup: UInt8 = 1, noDropOff: UInt8 = 2
    @inline(__always) static func canBoard(_ flags: UInt8) -> Bool { flags & noPickup == 0 }
    @inline(__always) static func canAlight(_ flags: UInt8) -> Bool { flags & noDropOff == 0 }

    /// Does a vehicle call at `stop` (a stop one boards, not a station or an entrance)?
    @inline(__always) func isCalledAt(_ stop: Int) -> Bool {
        stop >= 0 && stop + 1 < stopPatternStart.count && stopPatternStart[stop + 1] > stopPatternStart[stop]
    }

    /// Does `id` name `stop`: the stop itself, or the station it belongs to?
    func stop(_ stop: Int, isNamed id: String) -> Bool {
        stopIDs[stop] == id || (stopParent[stop] >= 0 && stopIDs[Int(stopParent[stop])] == id)
    }

    /// A trip's runs as (pattern, row), earliest first.
    func runs(ofTrip trip: Int) -> [(pattern: Int, row: Int)] {
        guard trip >= 0, trip + 1 < tripRunStart.count else { return [] }
        return (Int(tripRunStart[trip])..<Int(tripRunStart[trip + 1])).map { (Int(tripRuns[2 * $0]), Int(tripRuns[2 * $0 + 1])) }
    }

    /// A run's start: its first departure, in seconds of the service day (GTFS-Realtime's
    /// `start_time` for a frequencies.txt run).
    func runStart(pattern q: Int, row: Int) -> Int { departure(pattern: q, row: row, position: 0) }

    /// Is `service` running on the day numbered `day`?
    func serviceRuns(_ service: Int, day: Int) -> Bool {
        let offset = day - Int(firstDay)
        guard offset >= 0, offset < Int(dayCount), service >= 0, service < serviceCount else { return false }
        let word = service * Int(serviceWords) + offset / 64
        guard word < serviceDays.count else { return false }
        return serviceDays[word] & (1 << UInt64(offset % 64)) != 0
    }

    /// For each service, whether it runs on the day numbered `day`.
    func servicesRunning(on day: Int) -> [Bool] { (0..<serviceCount).map { serviceRuns($0, day: day) } }

    var zone: TimeZone { TimeZone(identifier: timeZone) ?? TimeZone(secondsFromGMT: 0) ?? .current }

    var dateRange: (first: LocalDate, last: LocalDate) {
        (LocalDate(dayNumber: Int(firstDay)), LocalDate(dayNumber: Int(firstDay) + max(0, Int(dayCount) - 1)))
    }
}

// MARK: the file

/// The compiled file: a magic line naming the version, then every section as a length-prefixed
/// little-endian block, in the order of `sections`, the one list that writing and reading
/// follow. Written to a temporary file and renamed over the old one.
enum TimetableFile {
    /// Bumped whenever a section, its order or its meaning changes: an older file is refused
    /// ("import the feed again"), never misread.
    static let version = 10
    /// 16 bytes, so that what follows stays 8-byte aligned.
    static let magic = Array("transit-gtfs \(version < 10 ? "0" : "")\(version)\n".utf8)

    /// One section: how it is written and read back. The big arrays are read where they lie.
    struct Section {
        let name: String
        let write: (Timetable, inout BinaryWriter) -> Void
        let read: (inout Timetable, inout BinaryReader) throws(TransitError) -> Void

        static func strings(_ name: String, _ key: WritableKeyPath<Timetable, StringTable>) -> Section {
            Section(name: name, write: { t, w in w.strings(t[keyPath: key]) }, read: { (t, r) throws(TransitError) in t[keyPath: key] = try r.strings() })
        }

        static func packed<T: PackedElement>(_ name: String, _ key: WritableKeyPath<Timetable, Packed<T>>) -> Section {
            Section(name: name, write: { t, w in w.array(t[keyPath: key]) }, read: { (t, r) throws(TransitError) in t[keyPath: key] = try r.packed() })
        }

        static func scalar<T: FixedWidthInteger>(_ name: String, _ key: WritableKeyPath<Timetable, T>) -> Section {
            Section(name: name, write: { t, w in w.scalar(t[keyPath: key]) }, read: { (t, r) throws(TransitError) in t[keyPath: key] = try r.scalar() })
        }
    }

    /// A constant list read by every thread; key paths are not `Sendable` in Swift 6, hence the
    /// `nonisolated(unsafe)` on a value that is never written after it is made.
    nonisolated(unsafe) static let sections: [Section] = [
        .strings("agencies", \.agencies),
        Section(name: "timeZone", write: { t, w in w.string(t.timeZone) }, read: { (t, r) throws(TransitError) in t.timeZone = try r.string() }),
        .scalar("firstDay", \.firstDay), .scalar("dayCount", \.dayCount), .scalar("sourceStopTimes", \.sourceStopTimes),
        .strings("stopIDs", \.stopIDs), .strings("stopCodes", \.stopCodes), .strings("stopPlatforms", \.stopPlatforms), .strings("stopNames", \.stopNames),
        .packed("stopLat", \.stopLat), .packed("stopLon", \.stopLon), .packed("stopParent", \.stopParent),
        .strings("routeIDs", \.routeIDs), .strings("routeAgency", \.routeAgency), .strings("routeShortName", \.routeShortName),
        .strings("routeLongName", \.routeLongName), .packed("routeType", \.routeType), .strings("routeColor", \.routeColor),
        .strings("tripIDs", \.tripIDs), .packed("tripRoute", \.tripRoute), .packed("tripService", \.tripService),
        .packed("tripHeadsign", \.tripHeadsign), .strings("headsigns", \.headsigns),
        .packed("patternStopStart", \.patternStopStart), .packed("patternStops", \.patternStops), .packed("patternFlags", \.patternFlags),
        .packed("patternSequences", \.patternSequences),
        .packed("patternTripStart", \.patternTripStart), .packed("patternTrips", \.patternTrips),
        .packed("patternTimeStart", \.patternTimeStart), .packed("times", \.times),
        .packed("stopPatternStart", \.stopPatternStart), .packed("stopPatterns", \.stopPatterns),
        .packed("tripRunStart", \.tripRunStart), .packed("tripRuns", \.tripRuns), .packed("tripIsFrequency", \.tripIsFrequency),
        .strings("serviceIDs", \.serviceIDs), .scalar("serviceWords", \.serviceWords),
        // Small, and 4-byte aligned after serviceWords: copied.
        Section(name: "serviceDays", write: { t, w in w.array(t.serviceDays) }, read: { (t, r) throws(TransitError) in t.serviceDays = Packed(try r.array()) }),
        Section(name: "transfers", write: { t, w in w.array(t.transfers) }, read: { (t, r) throws(TransitError) in t.transfers = try r.array() }),
        .strings("feedNames", \.feedNames), .strings("feedZones", \.feedZones),
        .packed("feedStopStart", \.feedStopStart), .packed("feedRouteStart", \.feedRouteStart), .packed("feedTripStart", \.feedTripStart),
        .packed("feedPatternStart", \.feedPatternStart), .packed("feedServiceStart", \.feedServiceStart),
        .packed("feedTransferStart", \.feedTransferStart),
        .packed("linkStart", \.linkStart), .packed("linkStops", \.linkStops), .packed("linkLengths", \.linkLengths),
    ]

    static func encode(_ t: Timetable) -> Data {
        var w = BinaryWriter()
        write(t, to: &w)
        return w.data
    }

    static func write(_ t: Timetable, to w: inout BinaryWriter) {
        w.raw(magic)
        for section in sections { section.write(t, &w) }
    }

    static func decode(_ data: Data, path: String) throws(TransitError) -> Timetable {
        let box = DataBox(data)
        return try decode(box.bytes, from: 0, owner: box, path: path)
    }

    /// Reads from `bytes` (kept alive by `owner`); the big arrays stay where they are.
    static func decode(_ bytes: UnsafeRawBufferPointer, from start: Int, owner: AnyObject, path: String) throws(TransitError) -> Timetable {
        var r = BinaryReader(bytes: bytes, owner: owner, path: path)
        r.position = start
        guard try r.raw(magic.count) == magic else {
            throw .parse(what: path, reason: "not a compiled timetable of this version; import the feed again")
        }
        var t = Timetable()
        for section in sections { try section.read(&t, &r) }
        try validate(t, path: path)
        return t
    }

    /// Every index the router follows is in range: a damaged file is an error, never a trap.
    static func validate(_ t: Timetable, path: String) throws(TransitError) {
        func check(_ ok: Bool, _ what: String) throws(TransitError) {
            if !ok { throw .parse(what: path, reason: "the compiled timetable is damaged (\(what)); import the feed again") }
        }
        let s = t.stopCount, r = t.routeCount, n = t.tripCount, p = t.patternCount
        try check(t.stopLon.count == s && t.stopParent.count == s
                  && t.stopIDs.count == s && t.stopNames.count == s && t.stopCodes.count == s && t.stopPlatforms.count == s, "stops")
        try check(within(t.stopParent, -1, s), "parent stations")
        try check(t.routeIDs.count == r && t.routeShortName.count == r && t.routeLongName.count == r
                  && t.routeAgency.count == r && t.routeColor.count == r, "routes")
        try check(t.tripService.count == n && t.tripIDs.count == n && t.tripHeadsign.count == n
                  && within(t.tripHeadsign, 0, t.headsigns.count) && within(t.tripRoute, 0, r), "trips")
        try check(p >= 0 && t.patternStopStart.count == p + 1 && t.patternTimeStart.count == p, "patterns")
        try check(monotone(t.patternStopStart, last: t.patternStops.count) && monotone(t.patternTripStart, last: t.patternTrips.count), "pattern offsets")
        try check(t.patternFlags.count == t.patternStops.count && t.patternSequences.count == t.patternStops.count && within(t.patternStops, 0, s), "pattern stops")
        try check(within(t.patternTrips, 0, n), "pattern trips")
        try check(within(t.tripService, 0, max(1, t.serviceCount)), "services")
        let stopStart = t.patternStopStart.buffer, tripStart = t.patternTripStart.buffer, timeStart = t.patternTimeStart.buffer
        for q in 0..<p {
            let trips = Int64(tripStart[q + 1] - tripStart[q]), length = Int64(stopStart[q + 1] - stopStart[q])
            try check(timeStart[q] >= 0 && timeStart[q] + trips * length * 2 <= Int64(t.times.count), "times")
        }
        try check(t.stopPatternStart.count == s + 1 && monotone(t.stopPatternStart, last: t.stopPatterns.count)
                  && t.stopPatterns.count % 2 == 0, "stop patterns")
        /// (pattern, index) pairs, each index below what `limit` allows for its pattern.
        func checkPairs(_ values: Packed<Int32>, _ what: String, limit: (Int) -> Int) throws(TransitError) {
            let pairs = values.buffer
            var i = 0
            while i + 1 < pairs.count {
                let q = Int(pairs[i]), index = Int(pairs[i + 1])
                try check(q >= 0 && q < p && index >= 0 && index < limit(q), what)
                i += 2
            }
        }
        try checkPairs(t.stopPatterns, "stop patterns") { Int(stopStart[$0 + 1] - stopStart[$0]) }
        try check(t.tripRunStart.count == n + 1 && monotone(t.tripRunStart, last: t.tripRuns.count / 2) && t.tripRuns.count % 2 == 0
                  && t.tripIsFrequency.count == n, "trip runs")
        try checkPairs(t.tripRuns, "trip runs") { Int(tripStart[$0 + 1] - tripStart[$0]) }
        try check(t.serviceWords >= 0 && t.serviceDays.count == t.serviceCount * Int(t.serviceWords) && t.dayCount >= 0
                  && Int(t.dayCount) <= Int(t.serviceWords) * 64, "calendar")
        for rule in t.transfers {
            try check([rule.fromStop, rule.toStop].allSatisfy { $0 >= -1 && Int($0) < s }
                      && [rule.fromRoute, rule.toRoute].allSatisfy { $0 >= -1 && Int($0) < r }
                      && [rule.fromTrip, rule.toTrip].allSatisfy { $0 >= -1 && Int($0) < n }, "transfers")
        }
        try check(TimeZone(identifier: t.timeZone) != nil, "time zone \(t.timeZone)")
        let f = t.feedNames.count
        try check(t.feedZones.count == f && (0..<f).allSatisfy { TimeZone(identifier: t.feedZones[$0]) != nil }, "feed zones")
        for (offsets, total) in [(t.feedStopStart, s), (t.feedRouteStart, r), (t.feedTripStart, n), (t.feedPatternStart, p),
                                 (t.feedServiceStart, t.serviceCount), (t.feedTransferStart, t.transfers.count)] {
            try check(f == 0 ? offsets.isEmpty : offsets.count == f + 1 && monotone(offsets, last: total), "feeds")
        }
        try check(t.linkStart.isEmpty ? t.linkStops.isEmpty : t.linkStart.count == s + 1 && monotone(t.linkStart, last: t.linkStops.count), "links")
        try check(t.linkLengths.count == t.linkStops.count && within(t.linkStops, 0, s)
                  && t.linkLengths.buffer.allSatisfy { $0 >= 0 && $0 <= TimetableCombination.linkRadius }, "links")
    }

    /// Offsets from 0 to `last`, never decreasing.
    static func monotone(_ offsets: Packed<Int32>, last: Int) -> Bool {
        guard offsets.first == 0, Int(offsets.last ?? -1) == last else { return false }
        let values = offsets.buffer
        var ok = true
        for k in values.indices.dropFirst() { ok = ok && values[k - 1] <= values[k] }
        return ok
    }

    /// Every value in `low..<high` (a tight loop: this runs over millions of values at load).
    static func within(_ values: Packed<Int32>, _ low: Int, _ high: Int) -> Bool {
        guard high > low else { return values.isEmpty }
        let lo = Int32(clamping: low), hi = Int32(clamping: high)
        var ok = true
        for v in values.buffer { ok = ok && v >= lo && v < hi }
        return ok
    }
}

/// Appends to memory, or streams to a file descriptor (the compiled feed is written without
/// a second copy of it in memory); a failed write is kept and reported once at the end.
struct BinaryWriter {
    var data = Data()
    var descriptor: Int32?
    var failure: Int32?
    var written = 0

    init(descriptor: Int32? = nil) {
        self.descriptor = descriptor
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        written += bytes.count
        guard let descriptor else { data.append(contentsOf: bytes); return }
        guard failure == nil, var base = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            let n = write(descriptor, base, left)
            if n < 0 {
                if errno == EINTR { continue }
                failure = errno
                return
            }
            left -= n
            base += n
        }
    }

    mutating func raw(_ bytes: [UInt8]) { bytes.withUnsafeBytes { append($0) } }

    mutating func scalar<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { append($0) }
    }

    mutating func array<T: BitwiseCopyable>(_ values: [T]) {
        scalar(Int64(values.count))
        scalar(Int64(MemoryLayout<T>.stride))
        values.withUnsafeBytes { append($0) }
        pad()
    }

    mutating func array<T>(_ values: Packed<T>) {
        scalar(Int64(values.count))
        scalar(Int64(MemoryLayout<T>.stride))
        values.withUnsafeBytes { append($0) }
        pad()
    }

    /// Zero bytes up to the next multiple of 8.
    mutating func pad() {
        let extra = (8 - written % 8) % 8
        if extra > 0 { raw([UInt8](repeating: 0, count: extra)) }
    }

    mutating func string(_ text: String) { array(Array(text.utf8)) }

    mutating func strings(_ table: StringTable) {
        array(table.offsets)
        array(table.bytes)
    }
}

/// Data at a stable address, for decoding in memory (tests, `encode` round trips).
final class DataBox: @unchecked Sendable {
    let storage: UnsafeMutableRawPointer
    let bytes: UnsafeRawBufferPointer

    init(_ data: Data) {
        storage = .allocate(byteCount: max(1, data.count), alignment: 16)
        data.copyBytes(to: storage.assumingMemoryBound(to: UInt8.self), count: data.count)
        bytes = UnsafeRawBufferPointer(start: storage, count: data.count)
    }

    deinit { storage.deallocate() }
}

struct BinaryReader {
    let bytes: UnsafeRawBufferPointer
    let owner: AnyObject
    let path: String
    var position = 0

    init(bytes: UnsafeRawBufferPointer, owner: AnyObject, path: String) {
        self.bytes = bytes
        self.owner = owner
        self.path = path
    }

    func damaged() -> TransitError { .parse(what: path, reason: "the compiled timetable is cut short or damaged; import the feed again") }

    mutating func raw(_ count: Int) throws(TransitError) -> [UInt8] {
        guard count >= 0, count <= bytes.count - position else { throw damaged() }
        defer { position += count }
        return [UInt8](UnsafeRawBufferPointer(rebasing: bytes[position..<(position + count)]))
    }

    mutating func scalar<T: FixedWidthInteger>() throws(TransitError) -> T {
        let size = MemoryLayout<T>.size
        guard size <= bytes.count - position else { throw damaged() }
        defer { position += size }
        return T(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: T.self))
    }

    /// Where an array's values lie: checked against the file's size and alignment.
    mutating func span<T>(_ type: T.Type) throws(TransitError) -> (offset: Int, count: Int) {
        let count: Int64 = try scalar(), stride: Int64 = try scalar()
        guard stride == Int64(MemoryLayout<T>.stride), count >= 0, count <= Int64(bytes.count) else { throw damaged() }
        let length = Int(count) * MemoryLayout<T>.stride
        guard length <= bytes.count - position else { throw damaged() }
        let offset = position
        position += length
        position += (8 - position % 8) % 8
        guard position <= bytes.count else { throw damaged() }
        return (offset, Int(count))
    }

    mutating func array<T: BitwiseCopyable>() throws(TransitError) -> [T] {
        let (offset, count) = try span(T.self)
        let length = count * MemoryLayout<T>.stride
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            if length > 0, let target = UnsafeMutableRawPointer(buffer.baseAddress), let source = bytes.baseAddress {
                target.copyMemory(from: source + offset, byteCount: length)
            }
            initialized = count
        }
    }

    /// An array left in place (the file is mapped and aligned to 8).
    mutating func packed<T>() throws(TransitError) -> Packed<T> {
        let (offset, count) = try span(T.self)
        guard count > 0, let base = bytes.baseAddress else { return Packed() }
        let address = base + offset
        guard Int(bitPattern: address) % MemoryLayout<T>.alignment == 0 else { throw damaged() }
        return Packed(address.assumingMemoryBound(to: T.self), count: count, owner: owner)
    }

    mutating func string() throws(TransitError) -> String {
        let bytes: [UInt8] = try array()
        return String(decoding: bytes, as: UTF8.self)
    }

    mutating func strings() throws(TransitError) -> StringTable {
        let table = StringTable(offsets: try packed(), bytes: try packed())
        // A table out of order reads as empty strings (the subscript checks each span), never a trap.
        guard table.offsets.first == 0, Int(table.offsets.last ?? -1) == table.bytes.count else { throw damaged() }
        return table
    }
}
