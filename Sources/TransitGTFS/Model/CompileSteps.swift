import Foundation
import TransitSupport

/// One step of compiling a feed: the files it reads and the values of the timetable it writes,
/// named. `GTFSCompiler.steps` runs them in order; a new value of the timetable (shapes,
/// translations) is one more step there and one more entry in `Timetable.fields`.
package struct CompileStep: Sendable {
    package let name: String
    package let run: @Sendable (inout GTFSCompiler, FeedFiles) throws(TransitError) -> Void

    package init(_ name: String, _ run: @escaping @Sendable (inout GTFSCompiler, FeedFiles) throws(TransitError) -> Void) {
        self.name = name
        self.run = run
    }
}

extension GTFSCompiler {
    /// The steps, in the order their inputs need: what a later step reads by id (a stop, a
    /// route, a trip, a service) is read before it.
    package static let steps: [CompileStep] = [
        CompileStep("agencies") { c, files throws(TransitError) in try c.agencies(try c.required(files, "agency.txt")) },
        CompileStep("stops") { c, files throws(TransitError) in try c.readStops(try c.required(files, "stops.txt")) },
        CompileStep("routes") { c, files throws(TransitError) in try c.readRoutes(try c.required(files, "routes.txt")) },
        // Fares v1 and the rider categories (`t.fares`): zones name stops, rules name routes.
        CompileStep("fares") { c, files throws(TransitError) in
            try c.readFares(try files.reader("fare_attributes.txt"), try files.reader("fare_rules.txt"))
            try c.readRiderCategories(try files.reader("rider_categories.txt"))
            try c.readRiderPrices(try files.reader("fare_rider_categories.txt"))
        },
        CompileStep("trips and calendar") { c, files throws(TransitError) in
            let calendar = try files.reader("calendar.txt"), dates = try files.reader("calendar_dates.txt")
            guard calendar != nil || dates != nil else {
                throw .parse(what: "the feed", reason: "it has neither calendar.txt nor calendar_dates.txt")
            }
            try c.readTrips(try c.required(files, "trips.txt"))
            try c.readCalendars(calendar, dates)
        },
        // Fares v2 (`t.fares`) after the calendar: a timeframe names a service.
        CompileStep("fare products") { c, files throws(TransitError) in try c.readFareProducts(files) },
        CompileStep("frequencies") { c, files throws(TransitError) in c.frequencies = try c.readFrequencies(try files.reader("frequencies.txt")) },
        // Before stop_times: a trip that a row names as from_trip_id gets a pattern of its own.
        CompileStep("transfers") { c, files throws(TransitError) in
            try c.readTransfers(try files.reader("transfers.txt"))
            for rule in c.t.transfers where rule.fromTrip >= 0 { c.tripsNamedFrom.insert(rule.fromTrip) }
        },
        // stop_times.txt is read trip by trip when its rows are grouped by trip (as feeds write
        // them); otherwise it is read again whole and grouped here.
        CompileStep("stop times") { c, files throws(TransitError) in
            if try !c.readStopTimes(try c.required(files, "stop_times.txt"), grouped: true) {
                c.timeStore = []; c.patternOf = [:]; c.patternKeys = []; c.patternRuns = []; c.skippedTrips = []; c.untimedTrips = 0
                c.frequencyRuns = 0; c.frequencyCalls = 0; c.frequenciesTooMany = false
                _ = try c.readStopTimes(try c.required(files, "stop_times.txt"), grouped: false)
            }
            if c.frequenciesTooMany {
                throw .parse(what: "frequencies.txt", reason: "its windows make more than \(Numbers.grouped(Self.maxFrequencyRuns)) runs or \(Numbers.grouped(Self.maxFrequencyCalls)) calls in all (the bound; see docs/gtfs.md)")
            }
            if c.longTexts > 0 {
                c.warnings.append("\(c.longTexts) \(c.longTexts == 1 ? "name or headsign is" : "names or headsigns are") longer than \(Self.maxText) bytes: cut there")
            }
        },
        CompileStep("patterns") { c, _ in c.layOutPatterns() },
        // After the patterns: each pattern's stops are placed along its first trip's shape.
        CompileStep("shapes") { c, files throws(TransitError) in try c.readShapes(try files.reader("shapes.txt")) },
        // The changes on foot within the default walk, found once (`isCalledAt` reads the patterns).
        CompileStep("walks") { c, _ in
            let caps = TimetableCombination.findLinks(&c.t), capped = caps.capped - caps.crowded
            if capped > 0 {
                let one = capped == 1, most = TimetableCombination.maxWalksPerStop
                c.warnings.append("\(capped) \(one ? "stop has" : "stops have") more than \(most) others within \(Int(TimetableCombination.linkRadius)) m: \(one ? "its" : "their") \(most) nearest (and \(one ? "its" : "their") station's and transfers.txt's) are kept as walks")
            }
            if caps.crowded > 0 {
                let one = caps.crowded == 1, most = TimetableCombination.crowdedWalks
                c.warnings.append("\(caps.crowded) \(one ? "stop is" : "stops are") among more than \(Numbers.grouped(TimetableCombination.crowded)) stops within a few hundred metres: \(one ? "its" : "their") \(most) nearest (and \(one ? "its" : "their") station's and transfers.txt's) are kept as walks")
            }
        },
        // What bounds by straight lines and on the graph of least hops need (`StraightLines`,
        // `BoundGraph`), from the patterns, transfers and walks: each block of times read once.
        CompileStep("bounds") { c, _ in
            c.t.stopPoints = StraightLines.points(latitudes: c.t.stopLat, longitudes: c.t.stopLon)
            let hops = BoundGraph.leastHops(c.t)
            (c.t.straightLineSpeed, c.t.straightLineChangeGain) = StraightLines.measure(c.t, leastHops: hops)
            (c.t.boundStart, c.t.boundEdges) = BoundGraph.build(c.t, leastHops: hops)
        },
    ]
}
