import Foundation
import TransitSupport

/// The tables of a compiled timetable: what a field has a value for each row of, or points into.
/// The check at load compares a field's size with its table's, and a combination moves an
/// index past the rows the feeds before it brought.
package enum TimetableTable: CaseIterable {
    case stops, routes, trips, headsigns, patterns
    /// Pattern positions (`patternStops`, one per stop of each pattern).
    case patternCalls
    /// Pattern rows (`patternTrips`, one per run of each pattern).
    case patternRows
    /// `stopPatterns`' values (two per call: pattern, position); `stopPatternStart` counts them.
    case stopPatternValues
    /// Runs of trips (`tripRuns`' pairs: pattern, row).
    case tripRuns
    /// Stops listed under their stations (`stationChildren`).
    case stationChildren
    /// Fare zones, fares, and fare_rules.txt rows (five values each).
    case zones, fares, fareRules
    /// Rider categories, and fare_rider_categories.txt's rows.
    case riderCategories, riderPrices
    /// Fares v2: areas and the stops' (`stopAreas`), networks, fare media, products and their
    /// rows (offers), timeframe groups and timeframes, leg groups, leg and transfer rules.
    case areas, stopAreaValues, networks, fareMedia, products, offers, timeframeGroups, timeframes, legGroups, legRules, legJoinRules, transferRules
    case services, transfers, times, links, feeds
    /// shapes.txt's shapes and their points.
    case shapes, shapePoints

    package func count(in t: Timetable) -> Int {
        switch self {
        case .stops: t.stopCount
        case .routes: t.routeCount
        case .trips: t.tripCount
        case .headsigns: t.headsigns.count
        case .patterns: t.patternCount
        case .patternCalls: t.patternStops.count
        case .patternRows: t.patternTrips.count
        case .stopPatternValues: t.stopPatterns.count
        case .tripRuns: t.tripRuns.count / 2
        case .stationChildren: t.stationChildren.count
        case .zones: t.fares.zoneIDs.count
        case .fares: t.fares.fareIDs.count
        case .fareRules: t.fares.fareRules.count / Self.fareRuleStride
        case .riderCategories: t.fares.riderCategoryIDs.count
        case .riderPrices: t.fares.riderPrice.count
        case .areas: t.fares.areaIDs.count
        case .stopAreaValues: t.fares.stopAreas.count
        case .networks: t.fares.networkIDs.count
        case .fareMedia: t.fares.fareMediaIDs.count
        case .products: t.fares.productIDs.count
        case .offers: t.fares.offers.count / Self.offerStride
        case .timeframeGroups: t.fares.timeframeGroupIDs.count
        case .timeframes: t.fares.timeframes.count / Self.timeframeStride
        case .legGroups: t.fares.legGroupIDs.count
        case .legRules: t.fares.legRules.count / Self.legRuleStride
        case .legJoinRules: t.fares.legJoinRules.count / Self.legJoinRuleStride
        case .transferRules: t.fares.transferRules.count / Self.transferRuleStride
        case .services: t.serviceCount
        case .transfers: t.transfers.count
        case .times: t.times.count
        case .links: t.linkStops.count
        case .feeds: t.feedNames.count
        case .shapes: max(0, t.shapePointStart.count - 1)
        case .shapePoints: t.shapeLat.count
        }
    }

    /// Values a row of the flat tables: `fareRules`, `offers`, `timeframes`, `legRules`, `legJoinRules`, `transferRules`.
    package static let fareRuleStride = 5, offerStride = 3, timeframeStride = 4, legRuleStride = 8, legJoinRuleStride = 4, transferRuleStride = 7

    /// Each table's size in `t`.
    package static func sizes(of t: Timetable) -> [TimetableTable: Int] {
        Dictionary(uniqueKeysWithValues: allCases.map { ($0, $0.count(in: t)) })
    }
}

/// One field of a compiled timetable, as `Timetable.fields` lists it: how it is written and
/// read back, what it must hold when the file is loaded, and how one feed's field joins a
/// combination of several. The list is the one place a field is named, so that a new one
/// cannot be written but not read, read but not checked, or left out of a combination.
package struct TimetableField {
    /// The property's name (a test compares the list with `Timetable`'s stored properties).
    package let name: String
    package let write: (Timetable, inout BinaryWriter) -> Void
    package let read: (inout Timetable, inout BinaryReader) throws(TransitError) -> Void
    /// Holds in a timetable that can be read safely (run at load, in the list's order, so that
    /// a check may lean on the fields before it). `check` and `fits` read the timetable and
    /// never change it: it is `inout` because a field is reached in place (`Place`), where a
    /// copy of the whole timetable (424 bytes, a retain and a release of each of its arrays)
    /// cost 1.3 M instructions of every load of BART's (issue 67).
    package let check: (inout Timetable) -> Bool
    /// Appends one feed's field to a combination of the feeds before it.
    package let combine: (inout Timetable, Timetable, Joining) -> Void
    /// The field's size against its table's: checked at every load, even one a `CheckRecord`
    /// vouches for (a count costs nothing).
    package var fits: (inout Timetable) -> Bool = { _ in true }
    /// Indexes per stop, trip or pattern call: at a load a `CheckRecord` vouches for, `check` is
    /// not run over the whole field (millions of values on a national feed, for a query that
    /// reads a few thousand); each value is checked where it is read (`TimetableChecks`).
    package var checkedWhereRead = false

    package init(name: String, write: @escaping (Timetable, inout BinaryWriter) -> Void, read: @escaping (inout Timetable, inout BinaryReader) throws(TransitError) -> Void,
                 check: @escaping (inout Timetable) -> Bool, combine: @escaping (inout Timetable, Timetable, Joining) -> Void) {
        (self.name, self.write, self.read, self.check, self.combine) = (name, write, read, check, combine)
    }

    /// What a feed's field needs to join a combination: its ids' prefix (`feed:`), and the size
    /// of each table before it.
    package struct Joining {
        package let prefix: String
        package let before: [TimetableTable: Int]

        package func offset(_ table: TimetableTable) -> Int32 { Int32(clamping: before[table] ?? 0) }
    }

    /// Where a field lies in a timetable: `{ $1(&$0.stopIDs) }` hands the property, in place,
    /// to a body and returns what the body returns. A key path said the same, but cost 23 K
    /// instructions to make at every start (101 of them: 2.4 M of a BART query's 56 M), and a
    /// read through one from a value copied the whole timetable first (issue 67).
    package typealias Place<Value> = (inout Timetable, (inout Value) -> Bool) -> Bool

    /// `body` with the field at `place` in `t`, in place.
    static func with<Value>(_ place: Place<Value>, in t: inout Timetable, _ body: (inout Value) -> Void) {
        withoutActuallyEscaping(body) { body in _ = place(&t) { body(&$0); return true } }
    }

    /// `body` with the field at `place` in a combination `out` (in place) and in a feed `part`.
    static func join<Value>(_ place: Place<Value>, _ out: inout Timetable, _ part: Timetable, _ body: (inout Value, Value) -> Void) {
        var part = part
        with(place, in: &part) { value in with(place, in: &out) { body(&$0, value) } }
    }

    /// Whether `test` holds of the field at `place`, with `t` itself (sizes of tables) asked first.
    static func holds<Value>(_ place: Place<Value>, in t: inout Timetable, _ test: (Value) -> Bool) -> Bool {
        withoutActuallyEscaping(test) { test in place(&t) { test($0) } }
    }

    /// A string per row of `rows`; `ids` are prefixed `feed:` in a combination.
    package static func strings(_ name: String, _ place: @escaping Place<StringTable>, rows: TimetableTable, ids: Bool = false) -> TimetableField {
        var field = TimetableField(name: name, write: { t, w in var t = t; with(place, in: &t) { w.strings($0) } },
                                   read: { (t, r) throws(TransitError) in let value = try r.strings(); with(place, in: &t) { $0 = value } },
                                   check: { _ in true },
                                   combine: { out, t, j in join(place, &out, t) { $0.append($1, prefix: ids ? j.prefix : "") } })
        field.fits = { t in let n = rows.count(in: t); return holds(place, in: &t) { $0.count == n } }
        return field
    }

    /// A value per row of `rows` (one more for offsets), read where it lies in the mapped file.
    package static func packed<T: PackedElement>(_ name: String, _ place: @escaping Place<Packed<T>>, rows: TimetableTable?, extra: Int = 0,
                                         check: @escaping (inout Timetable) -> Bool = { _ in true },
                                         combine: @escaping (inout Timetable, Timetable, Joining) -> Void) -> TimetableField {
        var field = TimetableField(name: name, write: { t, w in var t = t; with(place, in: &t) { w.array($0) } },
                                   read: { (t, r) throws(TransitError) in let value: Packed<T> = try r.packed(); with(place, in: &t) { $0 = value } },
                                   check: check, combine: combine)
        field.fits = { t in
            guard let rows else { return true }
            let n = rows.count(in: t) + extra
            return holds(place, in: &t) { $0.count == n }
        }
        return field
    }

    /// Values per row that mean the same in any feed: appended as they are.
    package static func values<T: PackedElement>(_ name: String, _ place: @escaping Place<Packed<T>>, rows: TimetableTable,
                                         check: @escaping (inout Timetable) -> Bool = { _ in true }) -> TimetableField {
        packed(name, place, rows: rows, check: check) { out, t, _ in join(place, &out, t) { $0.append(contentsOf: $1.buffer) } }
    }

    /// Per row, a row of `into` (-1 for none where `none`): moved past the feeds before.
    /// Without `none`, a table with rows points into a table that has some: checked with the
    /// sizes, so that a value checked where read can fall back on row 0.
    package static func indices(_ name: String, _ place: @escaping Place<Packed<Int32>>, rows: TimetableTable, into: TimetableTable,
                        none: Bool = false) -> TimetableField {
        var field = packed(name, place, rows: rows, check: { t in
            let high = into.count(in: t)
            return holds(place, in: &t) { Timetable.within($0, none ? -1 : 0, high) }
        }) { out, t, j in
            let plus = j.offset(into)
            join(place, &out, t) { all, part in
                all.reserveCapacity(all.count + part.count)
                for v in part.buffer { all.append(none && v < 0 ? v : v &+ plus) }
            }
        }
        let sized = field.fits
        field.fits = { t in
            let pointed = into.count(in: t) > 0
            return sized(&t) && (none || pointed || holds(place, in: &t) { $0.isEmpty })
        }
        return field
    }

    /// Where each row of `rows` begins in `into`, from 0 to its size (one more value than rows):
    /// a feed's first (0) is dropped, the rest moved past the feeds before.
    /// Its first and last value are checked with the sizes (the ends of `into`).
    package static func offsets(_ name: String, _ place: @escaping Place<Packed<Int32>>, rows: TimetableTable, into: TimetableTable) -> TimetableField {
        var field = packed(name, place, rows: rows, extra: 1, check: { t in
            let last = into.count(in: t)
            return holds(place, in: &t) { Timetable.monotone($0, last: last) }
        }) { out, t, j in
            let plus = j.offset(into)
            join(place, &out, t) { all, part in
                all.reserveCapacity(all.count + part.count)
                for v in part.buffer.dropFirst() { all.append(v &+ plus) }
            }
        }
        let sized = field.fits
        field.fits = { t in
            let last = into.count(in: t)
            return sized(&t) && holds(place, in: &t) { $0.first == 0 && Int($0.last ?? -1) == last }
        }
        return field
    }

    /// (pattern, index) pairs, each index below `limit` of its pattern: the pattern moved, the
    /// index kept.
    package static func pairs(_ name: String, _ place: @escaping Place<Packed<Int32>>, limit: @escaping (inout Timetable, Int) -> Int) -> TimetableField {
        packed(name, place, rows: nil, check: { t in
            var copy = Packed<Int32>()
            with(place, in: &t) { copy = $0 }
            let pairs = copy.buffer, p = t.patternCount
            guard pairs.count % 2 == 0 else { return false }
            var i = 0
            while i + 1 < pairs.count {
                let q = Int(pairs[i]), index = Int(pairs[i + 1])
                guard q >= 0 && q < p && index >= 0 && index < limit(&t, q) else { return false }
                i += 2
            }
            return true
        }) { out, t, j in
            let plus = j.offset(.patterns)
            join(place, &out, t) { all, part in
                all.reserveCapacity(all.count + part.count)
                for (k, v) in part.buffer.enumerated() { all.append(k % 2 == 0 ? v &+ plus : v) }
            }
        }
    }

    /// A column of a flat table of rows (`records`): an index of a table (-1 allowed where
    /// `none`), moved past the feeds before in a combination; or a value kept as it is.
    package enum RecordColumn {
        case index(TimetableTable, none: Bool = false)
        case value(ClosedRange<Int32>)
    }

    /// Rows of `columns.count` values, one after another: each index within its table, each
    /// value within its range.
    package static func records(_ name: String, _ place: @escaping Place<Packed<Int32>>, _ columns: [RecordColumn]) -> TimetableField {
        let n = columns.count
        return packed(name, place, rows: nil, check: { t in
            let limits = columns.map { column -> (Int32, Int32) in
                switch column {
                case .index(let table, let none): (none ? -1 : 0, Int32(clamping: table.count(in: t)) - 1)
                case .value(let range): (range.lowerBound, range.upperBound)
                }
            }
            return holds(place, in: &t) { field in
                let values = field.buffer
                guard values.count % n == 0 else { return false }
                // A column at a time, not a division per value, each value's offset from the
                // column's low compared once: BART's 2,500 fare rules are checked at every load.
                for (c, (low, high)) in limits.enumerated() {
                    // No value allowed (an index into an empty table): the column must have none.
                    guard low <= high else { if c < values.count { return false } else { continue } }
                    let span = UInt32(bitPattern: high &- low)
                    var outside: UInt32 = 0, k = c
                    while k < values.count { outside |= UInt32(bitPattern: values[k] &- low) > span ? 1 : 0; k += n }
                    if outside != 0 { return false }
                }
                return true
            }
        }) { out, t, j in
            let plus = columns.map { column -> Int32? in if case .index(let table, _) = column { j.offset(table) } else { nil } }
            join(place, &out, t) { all, part in
                all.reserveCapacity(all.count + part.count)
                for (k, v) in part.buffer.enumerated() { all.append(v >= 0 ? plus[k % n].map { v &+ $0 } ?? v : v) }
            }
        }
    }

    /// Where each feed of a combination begins in `into` (empty for one feed): the combination
    /// writes them as it appends each feed.
    package static func feedStarts(_ name: String, _ place: @escaping Place<Packed<Int32>>, into: TimetableTable) -> TimetableField {
        packed(name, place, rows: nil, check: { t in
            let f = t.feedNames.count, last = into.count(in: t)
            return holds(place, in: &t) { f == 0 ? $0.isEmpty : $0.count == f + 1 && Timetable.monotone($0, last: last) }
        }) { out, _, _ in
            let count = Int32(clamping: into.count(in: out))
            with(place, in: &out) { starts in
                if starts.isEmpty { starts.append(0) }
                starts.append(count)
            }
        }
    }

    /// A scalar the combination sets itself (`TimetableCombination.combine` says how).
    package static func scalar<T: FixedWidthInteger>(_ name: String, _ place: @escaping Place<T>, check: @escaping (inout Timetable) -> Bool = { _ in true },
                                             combine: @escaping (inout Timetable, Timetable, Joining) -> Void = { _, _, _ in }) -> TimetableField {
        TimetableField(name: name, write: { t, w in var t = t; with(place, in: &t) { w.scalar($0) } },
                       read: { (t, r) throws(TransitError) in let value: T = try r.scalar(); with(place, in: &t) { $0 = value } }, check: check, combine: combine)
    }
}

extension Timetable {
    /// Every stored field of a compiled timetable, in the order the file holds them.
    package nonisolated(unsafe) static let fields: [TimetableField] = [
        // The feed: its agencies' names (a combination: every feed's), zone and calendar (a
        // combination's spans its feeds', set before they join).
        .strings("agencyNames", { $1(&$0.agencyNames) }, rows: .feeds, ids: false).anyCount,
        // A combination's zone is its first feed's (each feed keeps its own in feedZones).
        TimetableField(name: "timeZone", write: { t, w in w.string(t.timeZone) }, read: { (t, r) throws(TransitError) in t.timeZone = try r.string() },
                       check: { TimeZone(identifier: $0.timeZone) != nil }, combine: { _, _, _ in }),
        .scalar("firstDay", { $1(&$0.firstDay) }), .scalar("dayCount", { $1(&$0.dayCount) }, check: { $0.dayCount >= 0 }),
        // As read from the files: wraps rather than traps.
        .scalar("sourceStopTimes", { $1(&$0.sourceStopTimes) }, combine: { out, t, _ in out.sourceStopTimes &+= t.sourceStopTimes }),
        // Stops (stopLat's count is the stops').
        .strings("stopIDs", { $1(&$0.stopIDs) }, rows: .stops, ids: true), .strings("stopCodes", { $1(&$0.stopCodes) }, rows: .stops),
        .strings("stopPlatforms", { $1(&$0.stopPlatforms) }, rows: .stops), .strings("stopNames", { $1(&$0.stopNames) }, rows: .stops),
        .values("stopLat", { $1(&$0.stopLat) }, rows: .stops), .values("stopLon", { $1(&$0.stopLon) }, rows: .stops),
        TimetableField(name: "stopPoints", write: { t, w in w.array(t.stopPoints) }, read: { (t, r) throws(TransitError) in t.stopPoints = try r.packed() },
                       check: { $0.stopPoints.count == 3 * $0.stopCount },
                       combine: { out, t, _ in out.stopPoints.append(contentsOf: t.stopPoints.buffer) }),
        // A combination's: its feeds' together (`StraightLines.combine`).
        .scalar("straightLineSpeed", { $1(&$0.straightLineSpeed) }, check: { $0.straightLineSpeed >= 0 }),
        .scalar("straightLineChangeGain", { $1(&$0.straightLineChangeGain) }, check: { $0.straightLineChangeGain >= 0 }),
        // None in a combination (`BoundGraph`): its feeds' graphs lack the walks between them.
        .packed("boundStart", { $1(&$0.boundStart) }, rows: nil, check: { BoundGraph.startsAreSound($0) }) { _, _, _ in }.whereRead,
        .packed("boundEdges", { $1(&$0.boundEdges) }, rows: nil, check: { BoundGraph.waysAreSound($0) }) { _, _, _ in }.whereRead,
        .indices("stopParent", { $1(&$0.stopParent) }, rows: .stops, into: .stops, none: true).whereRead,
        .values("stopWheelchair", { $1(&$0.stopWheelchair) }, rows: .stops),
        .offsets("stationChildStart", { $1(&$0.stationChildStart) }, rows: .stops, into: .stationChildren).whereRead,
        .indices("stationChildren", { $1(&$0.stationChildren) }, rows: .stationChildren, into: .stops).whereRead,
        // Routes (routeType's count is the routes').
        .strings("routeIDs", { $1(&$0.routeIDs) }, rows: .routes, ids: true), .strings("routeAgency", { $1(&$0.routeAgency) }, rows: .routes),
        .strings("routeShortName", { $1(&$0.routeShortName) }, rows: .routes), .strings("routeLongName", { $1(&$0.routeLongName) }, rows: .routes),
        .values("routeType", { $1(&$0.routeType) }, rows: .routes), .strings("routeColor", { $1(&$0.routeColor) }, rows: .routes),
        // Trips (tripRoute's count is the trips').
        .strings("tripIDs", { $1(&$0.tripIDs) }, rows: .trips, ids: true), .indices("tripRoute", { $1(&$0.tripRoute) }, rows: .trips, into: .routes).whereRead,
        // A service of a feed without any is read as none runs (within 0..<1).
        .packed("tripService", { $1(&$0.tripService) }, rows: .trips, check: { Timetable.within($0.tripService, 0, max(1, $0.serviceCount)) }) { out, t, j in
            let plus = j.offset(.services)
            for v in t.tripService.buffer { out.tripService.append(v &+ plus) }
        }.whereRead,
        .values("tripWheelchair", { $1(&$0.tripWheelchair) }, rows: .trips), .values("tripBikes", { $1(&$0.tripBikes) }, rows: .trips),
        .indices("tripHeadsign", { $1(&$0.tripHeadsign) }, rows: .trips, into: .headsigns).whereRead, .strings("headsigns", { $1(&$0.headsigns) }, rows: .headsigns),
        // Patterns (patternTripStart's count is the patterns' plus one).
        .offsets("patternStopStart", { $1(&$0.patternStopStart) }, rows: .patterns, into: .patternCalls).whereRead,
        .indices("patternStops", { $1(&$0.patternStops) }, rows: .patternCalls, into: .stops).whereRead,
        .values("patternFlags", { $1(&$0.patternFlags) }, rows: .patternCalls), .values("patternSequences", { $1(&$0.patternSequences) }, rows: .patternCalls),
        .offsets("patternTripStart", { $1(&$0.patternTripStart) }, rows: .patterns, into: .patternRows).whereRead,
        .indices("patternTrips", { $1(&$0.patternTrips) }, rows: .patternRows, into: .trips).whereRead,
        // A block within its pattern, numbered as its rows first read them (`blockCount`).
        .values("rowBlocks", { $1(&$0.rowBlocks) }, rows: .patternRows, check: { t in (0..<t.patternCount).allSatisfy { t.blockCount(ofPattern: $0) != nil } }).whereRead,
        // Each pattern's blocks of times lie within `times`.
        .packed("patternTimeStart", { $1(&$0.patternTimeStart) }, rows: .patterns, check: { t in (0..<t.patternCount).allSatisfy { t.isLaidOut(pattern: $0) } }) { out, t, j in
            let plus = Int64(j.before[.times] ?? 0)
            out.patternTimeStart.reserveCapacity(out.patternTimeStart.count + t.patternTimeStart.count)
            for start in t.patternTimeStart.buffer { out.patternTimeStart.append(start + plus) }
        }.whereRead,
        .packed("times", { $1(&$0.times) }, rows: nil) { out, t, _ in out.times.append(contentsOf: t.times.buffer) },
        // Shapes, and each pattern's: its stops' places along it (`TimetableShapes`). A place
        // is checked where it is read (a point index within its shape).
        .offsets("shapePointStart", { $1(&$0.shapePointStart) }, rows: .shapes, into: .shapePoints).whereRead,
        .values("shapeLat", { $1(&$0.shapeLat) }, rows: .shapePoints), .values("shapeLon", { $1(&$0.shapeLon) }, rows: .shapePoints),
        .indices("patternShape", { $1(&$0.patternShape) }, rows: .patterns, into: .shapes, none: true).whereRead,
        .values("patternShapeAt", { $1(&$0.patternShapeAt) }, rows: .patternCalls),
        // Stop → (pattern, position); trip → (pattern, row).
        .offsets("stopPatternStart", { $1(&$0.stopPatternStart) }, rows: .stops, into: .stopPatternValues).whereRead,
        .pairs("stopPatterns", { $1(&$0.stopPatterns) }) { t, q in t.patternLength(q) }.whereRead,
        .offsets("tripRunStart", { $1(&$0.tripRunStart) }, rows: .trips, into: .tripRuns).whereRead,
        .pairs("tripRuns", { $1(&$0.tripRuns) }) { t, q in Int(t.patternTripStart[q + 1] - t.patternTripStart[q]) }.whereRead,
        .values("tripIsFrequency", { $1(&$0.tripIsFrequency) }, rows: .trips),
        // Services: one bit per day of the calendar. A combination moves each service's days
        // onto its own calendar (`TimetableCombination.calendar`).
        .strings("serviceIDs", { $1(&$0.serviceIDs) }, rows: .services, ids: true),
        .scalar("serviceWords", { $1(&$0.serviceWords) }, check: { $0.serviceWords >= 0 && Int($0.dayCount) <= Int($0.serviceWords) * 64 }),
        // Padded to 8 after serviceWords and left in the file: a feed of 200,000 services has
        // 40 MB of them, which a copy at every load paged in whole.
        TimetableField(name: "serviceDays", write: { t, w in w.pad(); w.array(t.serviceDays) },
                       read: { (t, r) throws(TransitError) in try r.pad(); t.serviceDays = try r.packed() },
                       check: { $0.serviceDays.count == $0.serviceCount * Int($0.serviceWords) },
                       combine: { out, t, _ in TimetableCombination.appendServiceDays(&out, t) }),
        TimetableField(name: "transfers", write: { t, w in w.array(t.transfers) }, read: { (t, r) throws(TransitError) in t.transfers = try r.array() },
                       check: { t in
                           let s = t.stopCount, r = t.routeCount, n = t.tripCount
                           return t.transfers.allSatisfy { rule in
                               [rule.fromStop, rule.toStop].allSatisfy { $0 >= -1 && Int($0) < s }
                                   && [rule.fromRoute, rule.toRoute].allSatisfy { $0 >= -1 && Int($0) < r }
                                   && [rule.fromTrip, rule.toTrip].allSatisfy { $0 >= -1 && Int($0) < n }
                           }
                       },
                       combine: { out, t, j in
                           // Each row stays in its feed: its stops, routes and trips moved, none (-1) kept.
                           func moved(_ index: Int32, _ table: TimetableTable) -> Int32 { index < 0 ? index : index &+ j.offset(table) }
                           for rule in t.transfers {
                               out.transfers.append(TransferRule(fromStop: moved(rule.fromStop, .stops), toStop: moved(rule.toStop, .stops),
                                                                 fromRoute: moved(rule.fromRoute, .routes), toRoute: moved(rule.toRoute, .routes),
                                                                 fromTrip: moved(rule.fromTrip, .trips), toTrip: moved(rule.toTrip, .trips),
                                                                 type: rule.type, minTime: rule.minTime))
                           }
                       }),
        // Fares v1: zones by stop, fares, rules (each feed's own: its fares and zones moved past
        // the feeds' before it, ids prefixed).
        .indices("stopZone", { $1(&$0.fares.stopZone) }, rows: .stops, into: .zones, none: true).whereRead,
        .strings("zoneIDs", { $1(&$0.fares.zoneIDs) }, rows: .zones, ids: true), .strings("fareIDs", { $1(&$0.fares.fareIDs) }, rows: .fares, ids: true),
        .values("farePrice", { $1(&$0.fares.farePrice) }, rows: .fares), .strings("fareCurrency", { $1(&$0.fares.fareCurrency) }, rows: .fares),
        .values("fareTransfers", { $1(&$0.fares.fareTransfers) }, rows: .fares), .values("fareTransferDuration", { $1(&$0.fares.fareTransferDuration) }, rows: .fares),
        .records("fareRules", { $1(&$0.fares.fareRules) }, [.index(.fares), .index(.routes, none: true), .index(.zones, none: true), .index(.zones, none: true), .index(.zones, none: true)]),
        .strings("riderCategoryIDs", { $1(&$0.fares.riderCategoryIDs) }, rows: .riderCategories, ids: true),
        .strings("riderCategoryNames", { $1(&$0.fares.riderCategoryNames) }, rows: .riderCategories),
        .values("riderCategoryDefault", { $1(&$0.fares.riderCategoryDefault) }, rows: .riderCategories),
        .indices("riderFare", { $1(&$0.fares.riderFare) }, rows: .riderPrices, into: .fares),
        .indices("riderCategory", { $1(&$0.fares.riderCategory) }, rows: .riderPrices, into: .riderCategories),
        .values("riderPrice", { $1(&$0.fares.riderPrice) }, rows: .riderPrices),
        // Fares v2 (each feed's own, as v1's).
        .strings("areaIDs", { $1(&$0.fares.areaIDs) }, rows: .areas, ids: true), .strings("areaNames", { $1(&$0.fares.areaNames) }, rows: .areas),
        .offsets("stopAreaStart", { $1(&$0.fares.stopAreaStart) }, rows: .stops, into: .stopAreaValues).whereRead,
        .indices("stopAreas", { $1(&$0.fares.stopAreas) }, rows: .stopAreaValues, into: .areas).whereRead,
        .strings("networkIDs", { $1(&$0.fares.networkIDs) }, rows: .networks, ids: true), .strings("networkNames", { $1(&$0.fares.networkNames) }, rows: .networks),
        .indices("routeNetwork", { $1(&$0.fares.routeNetwork) }, rows: .routes, into: .networks, none: true),
        .strings("fareMediaIDs", { $1(&$0.fares.fareMediaIDs) }, rows: .fareMedia, ids: true), .strings("fareMediaNames", { $1(&$0.fares.fareMediaNames) }, rows: .fareMedia),
        .strings("productIDs", { $1(&$0.fares.productIDs) }, rows: .products, ids: true), .strings("productNames", { $1(&$0.fares.productNames) }, rows: .products),
        .records("offers", { $1(&$0.fares.offers) }, [.index(.products), .index(.riderCategories, none: true), .index(.fareMedia, none: true)]),
        .values("offerAmount", { $1(&$0.fares.offerAmount) }, rows: .offers), .strings("offerCurrency", { $1(&$0.fares.offerCurrency) }, rows: .offers),
        .strings("timeframeGroupIDs", { $1(&$0.fares.timeframeGroupIDs) }, rows: .timeframeGroups, ids: true),
        .records("timeframes", { $1(&$0.fares.timeframes) }, [.index(.timeframeGroups), .value(0...86_400), .value(0...86_400), .index(.services)]),
        .strings("legGroupIDs", { $1(&$0.fares.legGroupIDs) }, rows: .legGroups, ids: true),
        .records("legRules", { $1(&$0.fares.legRules) }, [.index(.legGroups, none: true), .index(.networks, none: true), .index(.areas, none: true), .index(.areas, none: true),
                                          .index(.timeframeGroups, none: true), .index(.timeframeGroups, none: true), .index(.products), .value(-1...Int32.max)]),
        .records("legJoinRules", { $1(&$0.fares.legJoinRules) }, [.index(.networks), .index(.networks), .index(.stops, none: true), .index(.stops, none: true)]),
        .records("transferRules", { $1(&$0.fares.transferRules) }, [.index(.legGroups, none: true), .index(.legGroups, none: true), .value(-1...Int32.max), .value(-1...Int32.max),
                                                    .value(0...3), .value(0...2), .index(.products, none: true)]),
        // Feeds: empty for one feed; a combination names each, with its zone and where its rows begin.
        TimetableField.strings("feedNames", { $1(&$0.feedNames) }, rows: .feeds).combinedApart,
        TimetableField(name: "feedZones", write: { t, w in w.strings(t.feedZones) }, read: { (t, r) throws(TransitError) in t.feedZones = try r.strings() },
                       check: { t in t.feedZones.count == t.feedNames.count && (0..<t.feedZones.count).allSatisfy { TimeZone(identifier: t.feedZones[$0]) != nil } },
                       combine: { out, t, _ in out.feedZones.append(t.timeZone) }),
        .feedStarts("feedStopStart", { $1(&$0.feedStopStart) }, into: .stops), .feedStarts("feedRouteStart", { $1(&$0.feedRouteStart) }, into: .routes),
        .feedStarts("feedTripStart", { $1(&$0.feedTripStart) }, into: .trips), .feedStarts("feedPatternStart", { $1(&$0.feedPatternStart) }, into: .patterns),
        .feedStarts("feedServiceStart", { $1(&$0.feedServiceStart) }, into: .services), .feedStarts("feedTransferStart", { $1(&$0.feedTransferStart) }, into: .transfers),
        .feedStarts("feedLegRuleStart", { $1(&$0.fares.feedLegRuleStart) }, into: .legRules), .feedStarts("feedTransferRuleStart", { $1(&$0.fares.feedTransferRuleStart) }, into: .transferRules),
        // Links between feeds, found once the combination holds every feed (`TimetableCombination.findLinks`).
        .packed("linkStart", { $1(&$0.linkStart) }, rows: nil, check: { t in
            t.linkStart.isEmpty ? t.linkStops.isEmpty : t.linkStart.count == t.stopCount + 1 && Timetable.monotone(t.linkStart, last: t.linkStops.count)
        }) { _, _, _ in }.whereRead,
        .packed("linkStops", { $1(&$0.linkStops) }, rows: nil, check: { Timetable.within($0.linkStops, 0, $0.stopCount) }) { _, _, _ in }.whereRead,
        .packed("linkLengths", { $1(&$0.linkLengths) }, rows: .links, check: { $0.linkLengths.buffer.allSatisfy { $0 >= 0 && $0 <= TimetableCombination.longestWalk } }) { _, _, _ in }.whereRead,
        // Walks on a map: their step-free meters (`.infinity`: none) and the stops that join its streets.
        .packed("linkStepFree", { $1(&$0.linkStepFree) }, rows: nil, check: { t in
            t.linkStepFree.isEmpty || t.linkStepFree.count == t.linkStops.count
                && t.linkStepFree.buffer.allSatisfy { $0 >= 0 && ($0 <= TimetableCombination.longestWalk || $0 == .infinity) }
        }) { _, _, _ in }.whereRead,
        .packed("stopJoins", { $1(&$0.stopJoins) }, rows: nil, check: { $0.stopJoins.isEmpty || $0.stopJoins.count == $0.stopCount }) { _, _, _ in },
        // The pairs the map left without a walk (`DroppedWalk`): stops, decimeters, reason.
        .records("droppedWalks", { $1(&$0.droppedWalks) }, [.index(.stops), .index(.stops), .value(0...DroppedWalk.straightLimit), .value(-2...Int32.max),
                                                  .value(0...Int32(DroppedWalk.Reason.allCases.count - 1))]),
    ]

    /// Offsets from 0 to `last`, never decreasing.
    package static func monotone<T: FixedWidthInteger>(_ offsets: Packed<T>, last: Int) -> Bool {
        guard offsets.first == 0, Int(offsets.last ?? -1) == last else { return false }
        let values = offsets.buffer
        var ok = true
        for k in values.indices.dropFirst() { ok = ok && values[k - 1] <= values[k] }
        return ok
    }

    /// Every value in `low..<high` (a tight loop: this runs over millions of values at load).
    /// A value's offset from `low`, as 32 bits without a sign, is below the range's span just
    /// where the value is in range: one comparison, no branch (issue 67).
    package static func within(_ values: Packed<Int32>, _ low: Int, _ high: Int) -> Bool {
        guard high > low else { return values.isEmpty }
        let lo = Int32(clamping: low), span = UInt32(bitPattern: Int32(clamping: high) &- lo)
        var outside: UInt32 = 0
        for v in values.buffer { outside |= UInt32(bitPattern: v &- lo) < span ? 0 : 1 }
        return outside == 0
    }
}

extension TimetableField {
    /// The same field with no count to keep (agencies, headsigns: as many as the feed has).
    package var anyCount: TimetableField {
        var field = self
        field.fits = { _ in true }
        return field
    }

    /// The same field, written by the combination itself as it names each feed.
    package var combinedApart: TimetableField {
        var field = TimetableField(name: name, write: write, read: read, check: check, combine: { out, _, j in out.feedNames.append(String(j.prefix.dropLast())) })
        field.fits = fits
        return field
    }

    /// The same field, its values checked where they are read at a load a check note vouches
    /// for (`checkedWhereRead`).
    package var whereRead: TimetableField {
        var field = self
        field.checkedWhereRead = true
        return field
    }
}
