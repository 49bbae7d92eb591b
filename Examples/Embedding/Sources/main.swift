import Foundation
import TransitGTFS

// embed-gtfs FEED FROM TO YYYY-MM-DD HH:MM [REALTIME.pb]: every journey of the day from HH:MM,
// one a line (departure, arrival, changes: ISO 8601 in the feed's zone, as `transit gtfs trips`
// prints them in tsv), then each ride of the first journey with its planned and predicted times.
let args = CommandLine.arguments
guard args.count >= 6, let date = LocalDate(iso: args[4]) else {
    FileHandle.standardError.write(Data("usage: embed-gtfs FEED FROM TO YYYY-MM-DD HH:MM [REALTIME.pb]\n".utf8))
    exit(2)
}
let clock = args[5].split(separator: ":").compactMap { Int($0) }
do {
    let feed = try GTFSFeed.compile(args[1])
    let live = try args.count > 6 ? feed.realtime(try Data(contentsOf: URL(fileURLWithPath: args[6]))) : nil
    let query = GTFSFeed.TripQuery(from: args[2], to: args[3], date: date, after: (clock.first ?? 0) * 3600 + (clock.last ?? 0) * 60)
    let journeys = try feed.journeys(query, realtime: live)
    let iso = ISO8601DateFormatter()
    iso.timeZone = feed.timeZone
    for journey in journeys {
        print([iso.string(from: journey.departure), iso.string(from: journey.arrival), String(journey.transfers)].joined(separator: "\t"))
    }
    for leg in journeys.first?.legs ?? [] where leg.tripID != nil {
        let planned = leg.departure.planned.map { iso.string(from: $0) } ?? "-", predicted = leg.departure.predicted.map { iso.string(from: $0) } ?? "-"
        print("ride", leg.route ?? "", leg.from?.name ?? "", planned, predicted, leg.status.rawValue, separator: "\t")
    }
} catch {
    FileHandle.standardError.write(Data("embed-gtfs: \((error as? TransitError)?.message ?? error.localizedDescription)\n".utf8))
    exit(1)
}
