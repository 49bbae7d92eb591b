import Foundation
import TransitGTFS

// embed-gtfs FEED FROM TO YYYY-MM-DD HH:MM [REALTIME.pb] [--wheelchair] [--via STOP[:MIN]]… [--avoid ROUTE]…
// embed-gtfs NAME=FEED,NAME=FEED… FROM TO YYYY-MM-DD HH:MM [NAME=REALTIME.pb …]
// Every journey of the day from HH:MM, one a line (departure, arrival, changes: ISO 8601, each
// in its stop's zone, as `transit gtfs trips` prints them in tsv), then each ride of the first
// journey with its planned and predicted times. Several feeds are searched as one, each with
// its own real-time messages. The rider's needs are the engine's public `RiderNeeds`: step-free
// travel, stops to pass through (with minutes to stay), routes never ridden.
var args: [String] = []
var needs = RiderNeeds(), vias: [JourneyQuery.Via] = []
var given = CommandLine.arguments.makeIterator()
while let arg = given.next() {
    switch arg {
    case "--wheelchair": needs.wheelchair = true
    case "--avoid": needs.avoid.append(given.next() ?? "")
    case "--via":
        // STOP[:MIN]: minutes to stay after the last colon, where they are a number.
        let text = given.next() ?? ""
        if let colon = text.lastIndex(of: ":"), let minutes = Int(text[text.index(after: colon)...]) {
            vias.append(JourneyQuery.Via(String(text[..<colon]), staySeconds: minutes * 60))
        } else {
            vias.append(JourneyQuery.Via(text))
        }
    default: args.append(arg)
    }
}
guard args.count >= 6, let date = LocalDate(iso: args[4]) else {
    FileHandle.standardError.write(Data("usage: embed-gtfs FEED|NAME=FEED,NAME=FEED… FROM TO YYYY-MM-DD HH:MM [[NAME=]REALTIME.pb …] [--wheelchair] [--via STOP[:MIN]] [--avoid ROUTE]\n".utf8))
    exit(2)
}
/// `NAME=VALUE` as its two parts; a bare value has no name.
func named(_ text: String) -> (name: String, value: String) {
    guard let equals = text.firstIndex(of: "=") else { return ("", text) }
    return (String(text[..<equals]), String(text[text.index(after: equals)...]))
}
let clock = args[5].split(separator: ":").compactMap { Int($0) }
do {
    let feeds = args[1].split(separator: ",").map { named(String($0)) }
    let feed = try feeds.count > 1 ? GTFSFeed.compile(feeds.map { (name: $0.name, path: $0.value) }) : GTFSFeed.compile(feeds.first?.value ?? "")
    let messages = try args.dropFirst(6).map(named).map { (feed: $0.name, message: try Data(contentsOf: URL(fileURLWithPath: $0.value))) }
    let live = try messages.isEmpty ? nil : feed.realtime(messages)
    var query = JourneyQuery(from: args[2], to: args[3], date: date, after: (clock.first ?? 0) * 3600 + (clock.last ?? 0) * 60, needs: needs)
    query.vias = vias
    let journeys = try feed.journeys(query, realtime: live)
    func iso(_ date: Date?, _ stop: GTFSFeed.Stop?) -> String {
        guard let date else { return "-" }
        // ISO 8601 with the offset written out (+00:00, not Z), as transit prints it.
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.dateFormat = "yyyy-MM-dd'T'HH:mm:ssxxx"
        format.timeZone = stop?.timeZone ?? feed.timeZone
        return format.string(from: date)
    }
    for journey in journeys {
        print(iso(journey.departure, journey.legs.first?.from), iso(journey.arrival, journey.legs.last?.to), String(journey.transfers), separator: "\t")
    }
    for leg in journeys.first?.legs ?? [] where leg.tripID != nil {
        print("ride", leg.route ?? "", leg.from?.name ?? "", iso(leg.departure.planned, leg.from), iso(leg.departure.predicted, leg.from),
              leg.status.rawValue, separator: "\t")
    }
} catch {
    FileHandle.standardError.write(Data("embed-gtfs: \((error as? TransitError)?.message ?? error.localizedDescription)\n".utf8))
    exit(1)
}
