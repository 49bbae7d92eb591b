import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

/// Hand-made feeds for the GTFS rules: a directory of CSV files written for the test.
struct TestFeed {
    let directory: String

    /// Files by name; `agency.txt` and a one-service `calendar.txt` are added when absent.
    init(_ files: [String: String], zone: String = "America/Los_Angeles") {
        directory = Paths.temporary()
        var all = files
        if all["agency.txt"] == nil { all["agency.txt"] = "agency_id,agency_name,agency_url,agency_timezone\nA,Agency,http://a,\(zone)\n" }
        if all["calendar.txt"] == nil && all["calendar_dates.txt"] == nil {
            all["calendar.txt"] = "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nS,1,1,1,1,1,1,1,20260101,20261231\n"
        }
        if all["routes.txt"] == nil { all["routes.txt"] = "route_id,route_short_name,route_long_name,route_type\nR,R,Route,3\nQ,Q,Other,3\n" }
        for (name, text) in all {
            try? text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
        }
    }

    /// Stops on a line, 0.01° (about 1.1 km) apart: `X1,X2,…` from ids.
    static func stops(_ ids: [String], parents: [String: String] = [:], extra: String = "") -> String {
        var text = "stop_id,stop_name,stop_lat,stop_lon,parent_station,location_type\n"
        for (i, id) in ids.enumerated() {
            text += "\(id),Stop \(id),\(37.0 + Double(i) * 0.01),-122.0,\(parents[id] ?? ""),0\n"
        }
        return text + extra
    }

    /// `count` stops at one place (41° N, 87° W), S0 to S1 ridden once: the audits' crowds.
    static func atOnePlace(_ count: Int) -> TestFeed {
        var stops = "stop_id,stop_name,stop_lat,stop_lon\n"
        for k in 0..<count { stops += "S\(k),Stop \(k),41.0,-87.0\n" }
        return TestFeed(["stops.txt": stops, "trips.txt": "route_id,service_id,trip_id\nR,S,t1\n",
                         "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nt1,08:00:00,08:00:00,S0,1\nt1,08:10:00,08:10:00,S1,2\n"])
    }

    func compile() throws -> (Timetable, warnings: [String]) {
        try GTFSCompiler.compile(try FeedFiles.open(directory))
    }

    func timetable() throws -> Timetable { try compile().0 }
}

/// A journey as the tests read it: `HH:MM` on the service day's clock (hours past 24 kept),
/// changes, and the trips ridden.
struct Trip: Equatable, CustomStringConvertible {
    var departure: String
    var arrival: String
    var transfers: Int
    var trips: [String]

    var description: String { "\(departure)-\(arrival) x\(transfers) \(trips.joined(separator: ">"))" }

    static func clock(_ seconds: Int) -> String { String(format: "%02d:%02d", seconds / 3600, seconds % 3600 / 60) }
}

func journeys(_ t: Timetable, from: [String], to: [String], day: String = "2026-11-23", after: String? = nil, before: String? = nil,
              transfers: Int = 2, minTransfer: Int = 120, walk: Double? = nil) throws -> [Trip] {
    func stops(_ ids: [String]) throws -> [Int] {
        try ids.map { id in try #require((0..<t.stopCount).first { t.stopIDs[$0] == id }, "stop \(id)") }
    }
    func seconds(_ text: String?) -> Int? {
        guard let text else { return nil }
        let parts = text.split(separator: ":").compactMap { Int($0) }
        return parts.count == 2 ? (parts[0] * 60 + parts[1]) * 60 : nil
    }
    let query = Router.Query(origins: try stops(from), destinations: try stops(to), day: try #require(LocalDate(iso: day)).dayNumber,
                             after: seconds(after), before: seconds(before), maxTransfers: transfers, minTransfer: minTransfer, walkMeters: walk)
    return Router(t, query).journeys().map { j in
        Trip(departure: Trip.clock(j.departure), arrival: Trip.clock(j.arrival), transfers: j.transfers,
             trips: j.legs.map { leg in leg.trip.map { t.tripIDs[$0] } ?? "walk:" + t.stopIDs[leg.to] })
    }
}

extension Reference {
    /// A real feed of the pack, by its path under gtfs/feeds (a folder, or a zip in one).
    static func feed(_ name: String) -> String { path("gtfs/feeds/" + name) }
}
