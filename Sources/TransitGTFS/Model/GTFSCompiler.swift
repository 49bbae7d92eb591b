import Foundation
import TransitSupport

/// Reads a feed's files and compiles them into a `Timetable`. Every rule of "what every journey
/// means" that can be settled once is settled here: calendars into day bits, frequencies into
/// trips, untimed stops interpolated, trips grouped into patterns. A broken feed is an error
/// naming the file and line; a trip that cannot run (times going backwards) is skipped with a
/// warning naming it.
package struct GTFSCompiler {
    package var warnings: [String] = []
    /// When the feed is compiled: the year around it is never dropped from a calendar too long.
    package var now = Date()
    /// Where to say how far compiling is (nil: nowhere).
    package var progress: ProgressReport?
    package var t = Timetable()
    package var stops = IDTable()
    package var routes = IDTable()
    package var trips = IDTable()
    /// shapes.txt's shapes as trips.txt names them, and each trip's (-1: none).
    package var shapes = IDTable()
    package var tripShape: [Int32] = []
    package var services = IDTable()
    package var headsigns = IDTable()
    /// Fare zones (stops' zone_id) and fares, as fare_rules.txt and fare_rider_categories.txt name them.
    package var zones = IDTable()
    package var fares = IDTable()
    /// Rider categories and networks (routes.txt's network_id, networks.txt), as fare files name them.
    package var riderCategories = IDTable()
    package var networks = IDTable()
    // Trips as they are finished: their times, and the patterns they fall into.
    package var timeStore: [Int32] = []
    package var patternOf: [PatternKey: Int] = [:]
    package var patternKeys: [[Int32]] = []
    package var patternRuns: [[Run]] = []
    package var skippedTrips: [String] = []
    package var untimedTrips = 0
    package var frequencies: [Int: [Frequency]] = [:]
    /// Trips that a transfers.txt row names as from_trip_id.
    package var tripsNamedFrom = Set<Int32>()
    /// Names and headsigns longer than `maxText`, cut.
    package var longTexts = 0
    /// Runs made from frequencies.txt so far, and their calls (`maxFrequencyRuns`, `maxFrequencyCalls`).
    package var frequencyRuns = 0
    package var frequencyCalls = 0
    package var frequenciesTooMany = false
    /// Runs tried against a group of their pattern (see `layOutPatterns`), for the tests.
    package var groupTrials = 0
    /// The largest calendar this compiles: ten years of days.
    package static let maxDays = 3660
    /// The most runs frequencies.txt may make in all, and the most calls they may hold: each
    /// window is capped too (100,000 runs), but 600 windows of a 1.5 KB zip made a 2.2 GB file,
    /// and inside the old bound of 50,000,000 calls a 153 KB zip (one trip of 10,000 calls every
    /// 20 s) made 347 MB and a 3.5 s day (issue 62). 5,000,000 calls is 40 MB compiled, some
    /// hundred times what a real city's frequencies.txt makes.
    package static let maxFrequencyRuns = 2_000_000
    package static let maxFrequencyCalls = 5_000_000
    /// The most stop_times rows one trip may have (the longest real trips have a few hundred).
    package static let maxCallsPerTrip = 10_000

    package static func compile(_ files: FeedFiles, now: Date = Date(), progress: ProgressReport? = nil) throws(TransitError) -> (Timetable, warnings: [String]) {
        var compiler = GTFSCompiler()
        compiler.now = now
        compiler.progress = progress
        try compiler.run(files)
        return (compiler.t, compiler.warnings)
    }

    /// Every step of `steps`, in order.
    package mutating func run(_ files: FeedFiles) throws(TransitError) {
        for (i, step) in Self.steps.enumerated() {
            progress?(.step(step.name, index: i, steps: Self.steps.count))
            try step.run(&self, files)
        }
    }

    package func required(_ files: FeedFiles, _ name: String) throws(TransitError) -> CSVReader {
        guard let reader = try files.reader(name) else { throw .parse(what: "the feed", reason: "\(name) is missing") }
        return reader
    }

    package func columns(_ r: CSVReader, _ names: [String]) throws(TransitError) -> [Int] {
        var found: [Int] = []
        for name in names {
            guard let i = r.column(name) else { throw .parse(what: r.file, reason: "line 1: no \(name) column") }
            found.append(i)
        }
        return found
    }

    /// The longest name, code or headsign kept (in bytes): a longer one is cut, at a character,
    /// and counted. Every name is read for did-you-mean and printed in tables; a feed's 15 MB
    /// stop name made each mistyped stop cost seconds and hundreds of megabytes.
    package static let maxText = 500

    /// A text field (empty when the column is absent), cut to `maxText` bytes.
    package mutating func text(_ r: CSVReader, _ column: Int?) -> String {
        guard let column else { return "" }
        let bytes = r.bytes(column)
        guard bytes.count > Self.maxText else { return r.string(column) }
        longTexts += 1
        // Back to the start of a character: a UTF-8 continuation byte is 10xxxxxx.
        var end = Self.maxText
        while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<end]), as: UTF8.self)
    }

    package func fail(_ r: CSVReader, _ text: String) -> TransitError {
        .parse(what: r.file, reason: "line \(r.line): \(text)")
    }

    // MARK: small files

    package mutating func agencies(_ r: CSVReader) throws(TransitError) {
        let zone = try columns(r, ["agency_timezone"])[0]
        let name = r.column("agency_name")
        var zoneName: String?
        while try r.next() {
            let identifier = r.string(zone)
            guard TimeZone(identifier: identifier) != nil else { throw fail(r, "unknown agency_timezone '\(identifier.prefix(60))'") }
            if zoneName == nil { zoneName = identifier }
            t.agencyNames.append(text(r, name))
        }
        guard let zoneName else { throw .parse(what: "agency.txt", reason: "it lists no agency") }
        t.timeZone = zoneName
    }

    package mutating func readStops(_ r: CSVReader) throws(TransitError) {
        let id = try columns(r, ["stop_id"])[0]
        let code = r.column("stop_code"), name = r.column("stop_name"), lat = r.column("stop_lat"), lon = r.column("stop_lon")
        let platform = r.column("platform_code")
        let parent = r.column("parent_station"), zone = r.column("zone_id"), wheelchair = r.column("wheelchair_boarding")
        var parents: [(stop: Int, parent: String, line: Int)] = []
        var unplaced = 0
        while try r.next() {
            let key = r.bytes(id)
            guard !key.isEmpty else { throw fail(r, "empty stop_id") }
            guard stops.insert(key).added else { throw fail(r, "stop_id '\(r.string(id).prefix(60))' appears twice") }
            t.stopCodes.append(text(r, code))
            t.stopPlatforms.append(text(r, platform))
            t.stopNames.append(text(r, name))
            // A coordinate outside ±90° / ±180° is not a place: the stop is kept without one
            // (as a stop with none), said once below.
            let latitude = lat.flatMap { FieldBytes.double(r.bytes($0)) } ?? .nan, longitude = lon.flatMap { FieldBytes.double(r.bytes($0)) } ?? .nan
            let placed = (-90...90).contains(latitude) && (-180...180).contains(longitude)
            if !placed && !(latitude.isNaN && longitude.isNaN) { unplaced += 1 }
            t.stopLat.append(placed ? latitude : .nan)
            t.stopLon.append(placed ? longitude : .nan)
            t.stopWheelchair.append(Self.accessibility(r, wheelchair))
            if let parent, !r.isEmpty(parent) { parents.append((stops.count - 1, r.string(parent), r.line)) }
            // Its fare zone (Fares v1), by index.
            t.fares.stopZone.append(zone.map { r.isEmpty($0) ? -1 : Int32(clamping: zones.insert(r.bytes($0)).index) } ?? -1)
        }
        t.fares.zoneIDs = zones.keys
        if unplaced > 0 {
            warnings.append("\(unplaced) \(unplaced == 1 ? "stop has" : "stops have") coordinates outside ±90°/±180° (kept without a place: never reached on foot)")
        }
        t.stopIDs = stops.keys
        var stopParent = [Int32](repeating: -1, count: stops.count)
        for link in parents {
            guard let p = stops.find(link.parent) else {
                throw .parse(what: "stops.txt", reason: "line \(link.line): unknown parent_station '\(link.parent.prefix(60))'")
            }
            stopParent[link.stop] = Int32(p)
        }
        t.stopParent = Packed(stopParent)
        (t.stationChildStart, t.stationChildren) = StationChildren.index(stopParent)
    }

    package mutating func readRoutes(_ r: CSVReader) throws(TransitError) {
        let id = try columns(r, ["route_id"])[0]
        let agency = r.column("agency_id"), short = r.column("route_short_name"), long = r.column("route_long_name")
        let type = r.column("route_type"), color = r.column("route_color"), network = r.column("network_id")
        while try r.next() {
            guard routes.insert(r.bytes(id)).added else { throw fail(r, "route_id '\(r.string(id).prefix(60))' appears twice") }
            t.routeAgency.append(text(r, agency))
            t.routeShortName.append(text(r, short))
            t.routeLongName.append(text(r, long))
            t.routeType.append(Int32(clamping: type.flatMap { FieldBytes.int(r.bytes($0)) } ?? 3))
            t.routeColor.append(text(r, color))
            // Its fare network (Fares v2), by index; route_networks.txt may name it instead.
            t.fares.routeNetwork.append(network.map { r.isEmpty($0) ? -1 : Int32(clamping: networks.insert(r.bytes($0)).index) } ?? -1)
        }
        t.routeIDs = routes.keys
    }

    package mutating func readTrips(_ r: CSVReader) throws(TransitError) {
        let c = try columns(r, ["route_id", "service_id", "trip_id"])
        let headsign = r.column("trip_headsign"), shape = r.column("shape_id")
        let wheelchair = r.column("wheelchair_accessible"), bikes = r.column("bikes_allowed")
        while try r.next() {
            guard let route = routes.find(r.bytes(c[0])) else { throw fail(r, "unknown route_id '\(r.string(c[0]).prefix(60))'") }
            guard trips.insert(r.bytes(c[2])).added else { throw fail(r, "trip_id '\(r.string(c[2]).prefix(60))' appears twice") }
            t.tripRoute.append(Int32(route))
            t.tripService.append(Int32(services.insert(r.bytes(c[1])).index))
            t.tripWheelchair.append(Self.accessibility(r, wheelchair))
            t.tripBikes.append(Self.accessibility(r, bikes))
            let sign = headsign.map { r.bytes($0) } ?? UnsafeBufferPointer(start: nil, count: 0)
            t.tripHeadsign.append(Int32(sign.count <= Self.maxText ? headsigns.insert(sign).index : headsigns.insert(text(r, headsign)).index))
            let shapeID = shape.map { r.bytes($0) } ?? UnsafeBufferPointer(start: nil, count: 0)
            tripShape.append(shapeID.isEmpty || shapeID.count > Self.maxText ? -1 : Int32(shapes.insert(shapeID).index))
        }
        t.tripIDs = trips.keys
        t.headsigns = headsigns.keys
    }

    /// wheelchair_boarding, wheelchair_accessible, bikes_allowed: 1 or 2 as given; empty, 0 and
    /// anything else 0 (unknown).
    static func accessibility(_ r: CSVReader, _ column: Int?) -> UInt8 {
        switch column.flatMap({ FieldBytes.int(r.bytes($0)) }) {
        case 1: 1
        case 2: 2
        default: 0
        }
    }

    /// `YYYYMMDD` → day number.
    package func day(_ r: CSVReader, _ column: Int, _ what: String) throws(TransitError) -> Int {
        let b = r.bytes(column)
        guard b.count == 8, let n = FieldBytes.int(b), n >= 0 else {
            throw fail(r, "\(what) '\(r.string(column).prefix(20))' is not a YYYYMMDD date")
        }
        let y = n / 10000, m = n / 100 % 100, d = n % 100
        guard (1...12).contains(m), d >= 1, d <= LocalDate.daysIn(month: m, year: y) else {
            throw fail(r, "\(what) '\(r.string(column).prefix(20))' is not a YYYYMMDD date")
        }
        return LocalDate(year: y, month: m, day: d).dayNumber
    }

    package mutating func readCalendars(_ calendar: CSVReader?, _ dates: CSVReader?) throws(TransitError) {
        var weekly: [(service: Int, days: [Bool], start: Int, end: Int)] = []
        var exceptions: [(service: Int, day: Int, add: Bool)] = []
        if let r = calendar {
            let c = try columns(r, ["service_id", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "start_date", "end_date"])
            while try r.next() {
                let service = services.insert(r.bytes(c[0])).index
                var days: [Bool] = []
                for i in 1...7 {
                    guard let flag = FieldBytes.int(r.bytes(c[i])), flag <= 1 else { throw fail(r, "\(r.header[c[i]]) must be 0 or 1") }
                    days.append(flag == 1)
                }
                let start = try day(r, c[8], "start_date"), end = try day(r, c[9], "end_date")
                guard start <= end else { throw fail(r, "end_date is before start_date") }
                weekly.append((service, days, start, end))
            }
        }
        if let r = dates {
            let c = try columns(r, ["service_id", "date", "exception_type"])
            while try r.next() {
                let service = services.insert(r.bytes(c[0])).index
                let d = try day(r, c[1], "date")
                guard let kind = FieldBytes.int(r.bytes(c[2])), kind == 1 || kind == 2 else { throw fail(r, "exception_type must be 1 or 2") }
                exceptions.append((service, d, kind == 1))
            }
        }
        let allDays = weekly.flatMap { [$0.start, $0.end] } + exceptions.map(\.day)
        var first = allDays.min() ?? 0
        var last = allDays.max() ?? -1
        if last - first + 1 > Self.maxDays {
            let today = LocalDate(now, in: TimeZone(identifier: t.timeZone) ?? .gmt).dayNumber
            let kept = Self.calendarWindow(first: first, last: last, today: today, weekly: weekly.map { ($0.days, $0.start, $0.end) },
                                           exceptions: exceptions.map { ($0.day, $0.add) })
            let dropped = [first < kept.first ? "\(LocalDate(dayNumber: first).iso)…\(LocalDate(dayNumber: kept.first - 1).iso)" : nil,
                           last > kept.last ? "\(LocalDate(dayNumber: kept.last + 1).iso)…\(LocalDate(dayNumber: last).iso)" : nil].compactMap { $0 }
            warnings.append("the calendar runs from \(LocalDate(dayNumber: first).iso) to \(LocalDate(dayNumber: last).iso), more than ten years: "
                            + "kept \(LocalDate(dayNumber: kept.first).iso) to \(LocalDate(dayNumber: kept.last).iso) (the most service in ten years "
                            + "that hold the current year), dropped \(dropped.joined(separator: " and "))")
            (first, last) = kept
        }
        if last < first { first = 0; last = -1 }
        t.firstDay = Int32(first)
        t.dayCount = Int32(last - first + 1)
        let words = (Int(t.dayCount) + 63) / 64
        t.serviceWords = Int32(words)
        var serviceDays = [UInt64](repeating: 0, count: services.count * words)
        func set(_ service: Int, _ d: Int, _ on: Bool) {
            let offset = d - first
            guard offset >= 0, offset < Int(t.dayCount) else { return }
            let word = service * words + offset / 64, bit: UInt64 = 1 << UInt64(offset % 64)
            if on { serviceDays[word] |= bit } else { serviceDays[word] &= ~bit }
        }
        for w in weekly {
            var d = max(w.start, first)
            while d <= min(w.end, last) {
                // Day number 0 (1970-01-01) was a Thursday; Monday is index 0 of `days`.
                let weekday = ((d % 7) + 7 + 3) % 7
                if w.days[weekday] { set(w.service, d, true) }
                d += 1
            }
        }
        for e in exceptions { set(e.service, e.day, e.add) }
        t.serviceDays = Packed(serviceDays)
        t.serviceIDs = services.keys
    }

    /// The ten years of a calendar too long to keep whole (`maxDays`): of the windows that hold
    /// the whole current year (the year of `today`, moved into the calendar when it lies outside),
    /// the one with the most days of service (a calendar row's running days, plus each added
    /// date, less each removed one); of equals, the one starting nearest the first of January a year before, so that a
    /// "forever" calendar keeps last year and the eight after this one. Bounded by the windows'
    /// span (about twenty years of days), whatever the calendar's.
    package static func calendarWindow(first: Int, last: Int, today: Int, weekly: [(days: [Bool], start: Int, end: Int)], exceptions: [(day: Int, add: Bool)]) -> (first: Int, last: Int) {
        let anchor = LocalDate(dayNumber: min(max(today, first), last))
        let yearStart = max(first, LocalDate(year: anchor.year, month: 1, day: 1).dayNumber)
        let yearEnd = min(last, LocalDate(year: anchor.year, month: 12, day: 31).dayNumber)
        // Window starts that hold [yearStart, yearEnd] and lie within the calendar.
        let lowest = max(first, yearEnd - maxDays + 1), highest = min(yearStart, last - maxDays + 1)
        guard lowest <= highest else { return (max(first, yearStart), max(first, yearStart) + maxDays - 1) }
        // Service per day over every day a candidate window covers, by difference arrays per weekday.
        let spanStart = lowest, spanEnd = highest + maxDays - 1, span = spanEnd - spanStart + 1
        var change = [[Int]](repeating: [Int](repeating: 0, count: span + 1), count: 7)
        for row in weekly {
            let a = max(row.start, spanStart), b = min(row.end, spanEnd)
            guard a <= b else { continue }
            for weekday in 0..<7 where row.days.indices.contains(weekday) && row.days[weekday] {
                change[weekday][a - spanStart] += 1
                change[weekday][b - spanStart + 1] -= 1
            }
        }
        var perDay = [Int](repeating: 0, count: span)
        var running = [Int](repeating: 0, count: 7)
        for i in 0..<span {
            for weekday in 0..<7 { running[weekday] += change[weekday][i] }
            let day = spanStart + i
            perDay[i] = running[((day % 7) + 7 + 3) % 7]
        }
        for e in exceptions where e.day >= spanStart && e.day <= spanEnd { perDay[e.day - spanStart] += e.add ? 1 : -1 }
        // Sliding sums of maxDays days.
        var sum = perDay.prefix(maxDays).reduce(0, +)
        let preferred = LocalDate(year: anchor.year - 1, month: 1, day: 1).dayNumber
        var best = (start: lowest, service: sum)
        var start = lowest
        while start < highest {
            sum += perDay[start - spanStart + maxDays] - perDay[start - spanStart]
            start += 1
            if sum > best.service || (sum == best.service && abs(start - preferred) < abs(best.start - preferred)) { best = (start, sum) }
        }
        return (best.start, best.start + maxDays - 1)
    }

    // MARK: stop_times

    /// One stop_times row, by index.
    package struct Row {
        package var trip: Int32
        package var sequence: Int32
        package var stop: Int32
        /// Seconds; -1 when empty.
        package var arrival: Int32
        package var departure: Int32
        /// Bit 0: no pickup; bit 1: no drop-off.
        package var flags: UInt8
        /// shape_dist_traveled; NaN when empty or absent.
        package var distance: Float
    }

    /// Reads stop_times.txt. `grouped`: each trip's rows are finished as soon as the next trip
    /// starts; false is returned, having read as far as it went, when a trip comes back after
    /// another. Otherwise every row is kept, and the trips are finished at the end.
    package mutating func readStopTimes(_ r: CSVReader, grouped: Bool) throws(TransitError) -> Bool {
        let c = try columns(r, ["trip_id", "arrival_time", "departure_time", "stop_id", "stop_sequence"])
        let pickup = r.column("pickup_type"), dropOff = r.column("drop_off_type"), distance = r.column("shape_dist_traveled")
        var rows: [Row] = []
        var lastTripKey: [UInt8] = []
        var lastTrip = -1
        var finished = [Bool](repeating: false, count: grouped ? trips.count : 0)
        var count: Int64 = 0
        // The stop after a stop is most often one of the last two that came after it (a local and
        // an express pattern): those guesses are checked before hashing, so most rows cost one
        // short comparison.
        var nextStop = [Int32](repeating: -1, count: stops.count), otherNextStop = [Int32](repeating: -1, count: stops.count)
        var previousStop = -1, firstStop = -1
        // Rows of the trip being read, and of each trip when they come in any order.
        var callsOfTrip = 0
        var callsPerTrip = [Int32](repeating: 0, count: grouped ? 0 : trips.count)
        while try r.next() {
            let tripKey = r.bytes(c[0])
            var trip = lastTrip
            if trip < 0 || !lastTripKey.withUnsafeBufferPointer({ FieldBytes.same($0, tripKey) }) {
                // stop_times.txt most often lists trips in trips.txt's order: try the next one first.
                let found: Int
                if lastTrip + 1 < trips.count, trips.matches(lastTrip + 1, tripKey) {
                    found = lastTrip + 1
                } else {
                    guard let known = trips.find(tripKey) else { throw fail(r, "unknown trip_id '\(r.string(c[0]).prefix(60))'") }
                    found = known
                }
                if grouped {
                    if lastTrip >= 0 {
                        finishTrip(lastTrip, rows)
                        finished[lastTrip] = true
                        rows.removeAll(keepingCapacity: true)
                    }
                    if finished[found] { return false }
                }
                trip = found
                lastTrip = found
                callsOfTrip = 0
                lastTripKey = Array(tripKey)
                previousStop = -1
            }
            let stopKey = r.bytes(c[3])
            let guess = previousStop >= 0 ? Int(nextStop[previousStop]) : firstStop
            let other = previousStop >= 0 ? Int(otherNextStop[previousStop]) : -1
            let stop: Int
            if guess >= 0, stops.matches(guess, stopKey) {
                stop = guess
            } else if other >= 0, stops.matches(other, stopKey) {
                stop = other
            } else {
                guard let found = stops.find(stopKey) else { throw fail(r, "unknown stop_id '\(r.string(c[3]).prefix(60))'") }
                stop = found
            }
            if previousStop >= 0 {
                if Int(nextStop[previousStop]) != stop {
                    otherNextStop[previousStop] = nextStop[previousStop]
                    nextStop[previousStop] = Int32(stop)
                }
            } else {
                firstStop = stop
            }
            previousStop = stop
            callsOfTrip += 1
            if !grouped {
                callsPerTrip[trip] += 1
                callsOfTrip = Int(callsPerTrip[trip])
            }
            if callsOfTrip > Self.maxCallsPerTrip {
                throw fail(r, "trip '\(r.string(c[0]).prefix(60))' has more than 10,000 stop_times rows (the bound; see docs/gtfs.md)")
            }
            guard let sequence = FieldBytes.int(r.bytes(c[4])), sequence <= Int(Int32.max) else {
                throw fail(r, "stop_sequence '\(r.string(c[4]).prefix(20))' is not a whole number")
            }
            func time(_ column: Int, _ name: String) throws(TransitError) -> Int32 {
                let b = r.bytes(column)
                if b.isEmpty { return -1 }
                guard let seconds = FieldBytes.time(b) else { throw fail(r, "\(name) '\(r.string(column).prefix(20))' is not a time like 25:10:00") }
                return Int32(seconds)
            }
            var flags: UInt8 = 0
            if let pickup, FieldBytes.int(r.bytes(pickup)) == 1 { flags |= Timetable.noPickup }
            if let dropOff, FieldBytes.int(r.bytes(dropOff)) == 1 { flags |= Timetable.noDropOff }
            rows.append(Row(trip: Int32(trip), sequence: Int32(sequence), stop: Int32(stop), arrival: try time(c[1], "arrival_time"),
                            departure: try time(c[2], "departure_time"), flags: flags,
                            distance: distance.flatMap { FieldBytes.double(r.bytes($0)) }.map { Float($0) } ?? .nan))
            count += 1
            if count & 0xFFFF == 0, let progress { progress(.rows(Int(count), fraction: r.fraction)) }
        }
        t.sourceStopTimes = count
        if grouped {
            if lastTrip >= 0 { finishTrip(lastTrip, rows) }
        } else {
            finishAll(&rows)
        }
        return true
    }

    /// Every trip of rows read whole: grouped by trip (a counting sort), each finished.
    package mutating func finishAll(_ rows: inout [Row]) {
        let tripCount = trips.count
        var start = [Int](repeating: 0, count: tripCount + 1)
        for row in rows { start[Int(row.trip) + 1] += 1 }
        for i in 0..<tripCount { start[i + 1] += start[i] }
        var order = [Int32](repeating: 0, count: rows.count)
        var fill = start
        for (index, row) in rows.enumerated() {
            order[fill[Int(row.trip)]] = Int32(index)
            fill[Int(row.trip)] += 1
        }
        var one: [Row] = []
        for trip in 0..<tripCount where start[trip] < start[trip + 1] {
            one.removeAll(keepingCapacity: true)
            for k in start[trip]..<start[trip + 1] { one.append(rows[Int(order[k])]) }
            finishTrip(trip, one)
        }
        rows = []
    }

    package struct Frequency {
        package var start: Int32
        package var end: Int32
        package var headway: Int32
    }

    package mutating func readFrequencies(_ reader: CSVReader?) throws(TransitError) -> [Int: [Frequency]] {
        guard let r = reader else { return [:] }
        let c = try columns(r, ["trip_id", "start_time", "end_time", "headway_secs"])
        var result: [Int: [Frequency]] = [:]
        while try r.next() {
            guard let trip = trips.find(r.bytes(c[0])) else { throw fail(r, "unknown trip_id '\(r.string(c[0]).prefix(60))'") }
            guard let start = FieldBytes.time(r.bytes(c[1])), let end = FieldBytes.time(r.bytes(c[2])) else {
                throw fail(r, "start_time and end_time must be times like 08:00:00")
            }
            guard let headway = FieldBytes.int(r.bytes(c[3])), headway > 0 else { throw fail(r, "headway_secs must be a whole number above 0") }
            guard (end - start) / headway <= 100_000 else { throw fail(r, "more than 100,000 departures in one window") }
            // A headway past the window makes one run: kept below a day's seconds ten times over, so
            // that a departure plus it stays far inside Int32 (ten digits can say 9,999,999,999).
            result[trip, default: []].append(Frequency(start: Int32(start), end: Int32(end), headway: Int32(min(headway, 864_000))))
        }
        return result
    }

    // MARK: transfers

    package mutating func readTransfers(_ reader: CSVReader?) throws(TransitError) {
        guard let r = reader else { return }
        let type = try columns(r, ["transfer_type"])[0]
        func index(_ name: String, _ table: IDTable, _ what: String) throws(TransitError) -> Int32 {
            guard let column = r.column(name), !r.isEmpty(column) else { return -1 }
            guard let i = table.find(r.bytes(column)) else { throw fail(r, "unknown \(what) '\(r.string(column).prefix(60))'") }
            return Int32(i)
        }
        let minTime = r.column("min_transfer_time")
        while try r.next() {
            let kind = r.isEmpty(type) ? 0 : FieldBytes.int(r.bytes(type))
            guard let kind, kind <= 5 else { throw fail(r, "transfer_type must be 0 to 5") }
            var seconds: Int32 = -1
            if let minTime, !r.isEmpty(minTime) {
                guard let s = FieldBytes.int(r.bytes(minTime)), s <= 86_400 else { throw fail(r, "min_transfer_time must be seconds from 0 to 86400") }
                seconds = Int32(s)
            }
            t.transfers.append(TransferRule(fromStop: try index("from_stop_id", stops, "stop_id"), toStop: try index("to_stop_id", stops, "stop_id"),
                                            fromRoute: try index("from_route_id", routes, "route_id"), toRoute: try index("to_route_id", routes, "route_id"),
                                            fromTrip: try index("from_trip_id", trips, "trip_id"), toTrip: try index("to_trip_id", trips, "trip_id"),
                                            type: Int32(kind), minTime: seconds))
        }
    }
}
