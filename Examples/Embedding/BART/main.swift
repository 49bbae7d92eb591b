import Foundation
import TransitCore

// embed-bart RECORDINGS FROM TO YYYY-MM-DD: the trains between two BART stations (codes) on a
// service day, one a line (departure, arrival: ISO 8601 in Pacific time, as `transit bart trips`
// prints them in tsv), through TransitCore's public API alone: BART's client over an HTTP
// client that replays the recorded answers in RECORDINGS (`transit --offline`'s), and the trip
// finder (no change of train, three minutes for one, as `bart trips` assumes).
let args = CommandLine.arguments
guard args.count == 5, let date = LocalDate(iso: args[4]) else {
    FileHandle.standardError.write(Data("usage: embed-bart RECORDINGS FROM TO YYYY-MM-DD\n".utf8))
    exit(2)
}
let http = HTTPClient(transport: ReplayTransport(directory: args[1]))
let client = BARTClient(http: http, key: "")
do {
    let window = TripFinder.Window(date: date, transfers: 0, minTransfer: 3)
    let trips = try await client.trips(TripFinder.Query(origin: args[2], destination: args[3], window: window))
    let format = DateFormatter()
    format.locale = Locale(identifier: "en_US_POSIX")
    format.dateFormat = "yyyy-MM-dd'T'HH:mm:ssxxx"
    format.timeZone = BART.zone
    for trip in trips { print(format.string(from: trip.departure), format.string(from: trip.arrival), separator: "\t") }
} catch {
    FileHandle.standardError.write(Data("embed-bart: \(error.message)\n".utf8))
    exit(1)
}
