import Foundation
@testable import TransitGTFS
@testable import TransitSupport

/// The national network of our own making (`scripts/make-national-gtfs.py`, issue 47) as the
/// reference's model: its files read here by plain splitting (the script writes no quotes and no
/// commas inside a field), not by the compiler's reader, so that a rule the compiler misreads
/// shows as a difference.
extension RandomFeed {
    /// The calendar the script writes (2026-12-01 to 2027-05-31, Europe/Berlin) and days of each
    /// kind in it the queries are asked on: an ordinary Tuesday, a school-holiday Tuesday (the
    /// variants run), a Saturday, a Sunday, a public holiday on a Thursday, the clock change of
    /// 2027-03-28 and the Monday after it, the first and the last day.
    static let nationalDays = ["2027-01-12", "2026-12-22", "2027-01-16", "2027-01-17", "2027-05-13",
                               "2027-03-28", "2027-03-29", "2026-12-01", "2027-05-31"].compactMap { LocalDate(iso: $0)?.dayNumber }

    struct NationalFileError: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs the script (python3) into `directory`: what it said (its counts), nil where it cannot.
    static func generateNational(seed: UInt64, scale: Double, into directory: String) -> String? {
        let make = Process(), pipe = Pipe()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        make.arguments = ["python3", Paths.root.appendingPathComponent("scripts/make-national-gtfs.py").path, String(seed), String(scale), directory]
        make.standardOutput = pipe
        guard (try? make.run()) != nil else { return nil }
        let said = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        make.waitUntilExit()
        return make.terminationStatus == 0 ? said : nil
    }

    /// The rows of one file of `directory` as dictionaries by header name.
    private static func rows(_ directory: String, _ name: String) throws -> [[String: String]] {
        guard let text = try? String(contentsOfFile: directory + "/" + name, encoding: .utf8) else { return [] }
        var lines = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        guard !lines.isEmpty else { return [] }
        let header = lines.removeFirst()
        return try lines.map { fields in
            guard fields.count == header.count else { throw NationalFileError(description: "\(name): a row of \(fields.count) fields") }
            return Dictionary(uniqueKeysWithValues: zip(header, fields))
        }
    }

    init(nationalDirectory directory: String) throws {
        self.init()
        func need(_ row: [String: String], _ field: String) throws -> String {
            guard let value = row[field] else { throw NationalFileError(description: "no \(field)") }
            return value
        }
        func day(_ yyyymmdd: String) throws -> Int {
            let d = Array(yyyymmdd)
            guard d.count == 8, let date = LocalDate(iso: String(d[0..<4]) + "-" + String(d[4..<6]) + "-" + String(d[6..<8])) else {
                throw NationalFileError(description: "a date \(yyyymmdd)")
            }
            return date.dayNumber
        }
        func seconds(_ clock: String) throws -> Int {
            let p = clock.split(separator: ":").compactMap { Int($0) }
            guard p.count == 3 else { throw NationalFileError(description: "a time \(clock)") }
            return p[0] * 3600 + p[1] * 60 + p[2]
        }
        zone = try Self.rows(directory, "agency.txt").first.map { try need($0, "agency_timezone") } ?? zone

        var stopIndex: [String: Int] = [:]
        let stopRows = try Self.rows(directory, "stops.txt")
        for row in stopRows {
            let id = try need(row, "stop_id")
            guard let lat = Double(try need(row, "stop_lat")), let lon = Double(try need(row, "stop_lon")) else {
                throw NationalFileError(description: "stop \(id) has no coordinates")
            }
            stopIndex[id] = stops.count
            stops.append(Stop(id: id, parent: nil, isStation: row["location_type"] == "1", latitude: lat, longitude: lon))
        }
        for (k, row) in stopRows.enumerated() where !(row["parent_station"] ?? "").isEmpty {
            stops[k].parent = stopIndex[row["parent_station"] ?? ""]
        }

        var routeIndex: [String: Int] = [:]
        for row in try Self.rows(directory, "routes.txt") {
            routeIndex[try need(row, "route_id")] = routes.count
            routes.append(try need(row, "route_id"))
            routeTypes.append(Int(row["route_type"] ?? "") ?? 3)
        }

        var serviceIndex: [String: Int] = [:]
        for row in try Self.rows(directory, "calendar.txt") {
            let weekdays = try ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map { try need(row, $0) == "1" }
            serviceIndex[try need(row, "service_id")] = services.count
            services.append(Service(id: try need(row, "service_id"), weekdays: weekdays, start: try day(try need(row, "start_date")),
                                    end: try day(try need(row, "end_date")), added: [], removed: []))
        }
        for row in try Self.rows(directory, "calendar_dates.txt") {
            let id = try need(row, "service_id")
            if serviceIndex[id] == nil {
                serviceIndex[id] = services.count
                services.append(Service(id: id, weekdays: nil, start: 0, end: 0, added: [], removed: []))
            }
            guard let s = serviceIndex[id] else { continue }
            if try need(row, "exception_type") == "1" { services[s].added.insert(try day(try need(row, "date"))) } else { services[s].removed.insert(try day(try need(row, "date"))) }
        }

        var tripIndex: [String: Int] = [:]
        for row in try Self.rows(directory, "trips.txt") {
            guard let route = routeIndex[try need(row, "route_id")], let service = serviceIndex[try need(row, "service_id")] else {
                throw NationalFileError(description: "trip \(row["trip_id"] ?? "") names no route or service")
            }
            tripIndex[try need(row, "trip_id")] = trips.count
            trips.append(Trip(id: try need(row, "trip_id"), route: route, service: service, calls: [], windows: []))
        }
        var sequences: [[Int]] = trips.map { _ in [] }
        for row in try Self.rows(directory, "stop_times.txt") {
            guard let trip = tripIndex[try need(row, "trip_id")], let stop = stopIndex[try need(row, "stop_id")],
                  let sequence = Int(try need(row, "stop_sequence")) else { throw NationalFileError(description: "a stop_times row names nothing") }
            trips[trip].calls.append(Call(stop: stop, arrival: try seconds(try need(row, "arrival_time")), departure: try seconds(try need(row, "departure_time")),
                                          untimed: false, noPickup: row["pickup_type"] == "1", noDropOff: row["drop_off_type"] == "1"))
            sequences[trip].append(sequence)
        }
        // The script numbers each trip's calls 1, 2, 3… (realtime updates name them so).
        for k in trips.indices where sequences[k] != Array(1...max(1, sequences[k].count)) {
            throw NationalFileError(description: "trip \(trips[k].id)'s stop_sequence is not 1, 2, 3…")
        }
        sequenceStep = 1

        for row in try Self.rows(directory, "transfers.txt") {
            transfers.append(Transfer(fromStop: stopIndex[try need(row, "from_stop_id")], toStop: stopIndex[try need(row, "to_stop_id")],
                                      fromRoute: nil, toRoute: nil, fromTrip: nil, toTrip: nil,
                                      type: Int(try need(row, "transfer_type")) ?? 0, minTime: Int(row["min_transfer_time"] ?? "")))
        }
    }
}

extension DifferentialCase {
    /// A national network of the script's at `scale` (1/500 for the differential), drawn from
    /// `seed`, compiled, and read again as the model.
    init(nationalSeed seed: UInt64, scale: Double = 0.002) throws {
        let directory = Paths.temporary()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        guard RandomFeed.generateNational(seed: seed, scale: scale, into: directory) != nil else {
            throw RandomFeed.NationalFileError(description: "python3 did not run scripts/make-national-gtfs.py (scripts/setup)")
        }
        self.seed = seed
        feed = try RandomFeed(nationalDirectory: directory)
        timetable = try GTFSCompiler.compile(try FeedFiles.open(directory)).0
    }

    /// A random query on a national network: stops (a station now and then) in one town or in
    /// two, a day of the calendar's kinds, a window of up to three hours from a random time
    /// (late in the evening, to the end of the day), up to five changes (mostly the two or more
    /// a journey between towns takes), walks at the ends and between stops mostly as the
    /// command's default.
    func nationalQuery(_ g: inout SeededGenerator) -> ReferenceRouter.Query {
        let boardable = feed.boardable
        func town(_ stop: Int) -> Substring { feed.stops[stop].id.split(separator: "_").first ?? "" }
        func place(near: Int?) -> Set<Int> {
            var stop = boardable[g.int(0...boardable.count - 1)]
            if let near {
                let same = boardable.filter { town($0) == town(near) }
                if !same.isEmpty { stop = same[g.int(0...same.count - 1)] }
            }
            if g.chance(0.2), let station = feed.stops[stop].parent { return Set(feed.children(station)) }
            return [stop]
        }
        let origins = place(near: nil)
        var destinations = place(near: g.chance(0.3) ? origins.first : nil)
        var tries = 0
        while !destinations.isDisjoint(with: origins) && tries < 20 {
            destinations = place(near: nil)
            tries += 1
        }
        let after = g.int(4 * 12...24 * 12) * 300
        let before: Int? = after >= 22 * 3600 && g.chance(0.5) ? nil : after + g.int(1...6) * 1800
        let days = RandomFeed.nationalDays
        return ReferenceRouter.Query(origins: origins, destinations: destinations.subtracting(origins), day: days[g.int(0...days.count - 1)],
                                     after: after, before: before, maxTransfers: [0, 1, 2, 3, 3, 4, 4, 5, 5, 5][g.int(0...9)], minTransfer: [0, 60, 120, 300][g.int(0...3)],
                                     walkMeters: g.chance(0.85) ? [300, 400, 400, 800, 1600][g.int(0...4)] : nil,
                                     walksFromOrigins: true, walksToDestinations: true)
    }
}
