// The benchmark: run on purpose, not in CI.
//
//   swift run -c release transit-bench [Fixtures]
//
// 1. Network rounds of `transit bart trips` (the real command path, in process) against the
//    loopback server serving Fixtures, at 0 ms and at 200 ms added to every answer, cold
//    (empty cache) and warm (same cache): rounds = (wall at 200 ms − wall at 0 ms) / 200 ms.
//    The same for `cta predictions` on 10 stops (predictions and alerts, never cached).
// 2. Parsing: a routesched document of 5 MB or more, BARTParser (parse and map) against a
//    bare XMLParser pass over the same bytes.
import Foundation
import TransitSupport
import TransitGTFS
#if canImport(FoundationXML)
import FoundationXML
#endif
import TransitCore
import TransitTestSupport

let fixtures = CommandLine.arguments.dropFirst().first ?? "Fixtures"
let delay = 0.2

func time(_ body: () async throws -> Void) async rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try await body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

struct Measure {
    var cold: Double
    var warm: Double
    var coldRequests: Int
    var warmRequests: Int
}

/// Any stop list gets the recorded CTA predictions; bulletins likewise.
let busTimeHandler: @Sendable (LoopbackServer.Request) -> LoopbackServer.Behavior = { request in
    let name = request.path.hasSuffix("getpredictions") ? "getpredictions/format=json&rt=22&stpid=15895.http"
        : "getservicebulletins/format=json&rt=22.http"
    guard let data = FileManager.default.contents(atPath: fixtures + "/cta/" + name),
          let recording = Recording.decode(data, source: .recording) else { return .status(404, "no fixture") }
    return .respond(status: 200, headers: ["Content-Type": "application/json"], body: recording.response.body, delay: 0)
}

func measure(_ args: [String], extraDelay: Double) async throws -> Measure {
    let busTime = args.first == "cta"
    let server = try LoopbackServer(extraDelay: extraDelay, handler: busTime ? busTimeHandler : LoopbackServer.recordings(in: fixtures))
    defer { server.stop() }
    let cache = NSTemporaryDirectory() + "transit-bench-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: cache) }
    let env = ["TRANSIT_BART_BASE_URL": server.baseURL + "/api", "TRANSIT_CTA_BASE_URL": server.baseURL + "/bustime/api/v3",
               "TRANSIT_CTA_KEY": "BENCHKEY", "TRANSIT_CACHE_DIR": cache, "HOME": cache]
    let app = App(terminal: Terminal(stdout: false, stderr: false), writeOut: { _ in }, writeErr: { FileHandle.standardError.write(Data($0.utf8)) })
    var status: Int32 = 0
    let cold = await time { status = await app.run(args, environment: env) }
    guard status == 0 else { throw BenchError.failed(args) }
    let coldRequests = server.requests.count
    let warm = await time { status = await app.run(args, environment: env) }
    guard status == 0 else { throw BenchError.failed(args) }
    return Measure(cold: cold, warm: warm, coldRequests: coldRequests, warmRequests: server.requests.count - coldRequests)
}

enum BenchError: Error { case failed([String]), noFixture(String) }

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

func rounds(_ name: String, _ args: [String]) async throws {
    var fast: [Measure] = [], slow: [Measure] = []
    for _ in 0..<3 {
        fast.append(try await measure(args, extraDelay: 0))
        slow.append(try await measure(args, extraDelay: delay))
    }
    let coldRounds = (median(slow.map(\.cold)) - median(fast.map(\.cold))) / delay
    let warmRounds = (median(slow.map(\.warm)) - median(fast.map(\.warm))) / delay
    print(String(format: "%@: cold %.2f rounds (%d requests, %.0f ms at 0 ms, %.0f ms at 200 ms); warm %.2f rounds (%d requests, %.1f ms)",
                 name, coldRounds, slow[0].coldRequests, median(fast.map(\.cold)) * 1000, median(slow.map(\.cold)) * 1000,
                 warmRounds, slow[0].warmRequests, median(fast.map(\.warm)) * 1000))
}

final class NullDelegate: NSObject, XMLParserDelegate {
    var elements = 0
    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        elements += 1
    }
}

func parseRatio() throws {
    // Grow the synthesized route 1 schedule to over 5 MB by repeating its trains.
    let path = fixtures + "/bart/sched.aspx/cmd=routesched&date=11-23-2026&route=1.http"
    guard let data = FileManager.default.contents(atPath: path), let recording = Recording.decode(data, source: .recording) else {
        throw BenchError.noFixture(path)
    }
    let text = String(decoding: recording.response.body, as: UTF8.self)
    guard let open = text.range(of: "<route>"), let close = text.range(of: "</route>") else { throw BenchError.noFixture(path) }
    let trains = String(text[open.upperBound..<close.lowerBound])
    let copies = 5_500_000 / trains.utf8.count + 1
    let body = Data((String(text[..<open.upperBound]) + String(repeating: trains, count: copies) + String(text[close.lowerBound...])).utf8)
    let mb = Double(body.count) / 1_000_000
    var bare: [Double] = [], mapped: [Double] = []
    var trainCount = 0
    for _ in 0..<5 {
        bare.append(try {
            let start = DispatchTime.now().uptimeNanoseconds
            let parser = XMLParser(stream: InputStream(data: body))
            let delegate = NullDelegate()
            parser.delegate = delegate
            guard parser.parse(), parser.parserError == nil else { throw BenchError.noFixture("bare parse failed") }
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }())
        let start = DispatchTime.now().uptimeNanoseconds
        trainCount = try BARTParser.routeSchedule(body, route: 1).trains.count
        mapped.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    let bareRate = mb / (bare.min() ?? .infinity), mappedRate = mb / (mapped.min() ?? .infinity)
    print(String(format: "parse: %.1f MB routesched, %d trains; bare XMLParser %.1f MB/s, BARTParser %.1f MB/s; ratio %.2f (best of 5)",
                 mb, trainCount, bareRate, mappedRate, mappedRate / bareRate))
}

/// JSON: a CTA getpatterns answer of 10.5 MB (the real route 1 and 20 patterns repeated under
/// new ids), BusTimeParser (lenient structs, then models) against JSONDecoder into minimal
/// plain structs on the same bytes.
struct BareRoot: Decodable {
    let response: BareBody
    enum CodingKeys: String, CodingKey { case response = "bustime-response" }
}
struct BareBody: Decodable { let ptr: [BarePattern] }
struct BarePattern: Decodable { let pid: Int; let ln: Double; let rtdir: String; let pt: [BarePoint] }
struct BarePoint: Decodable { let seq: Int; let lat: Double; let lon: Double; let typ: String; let stpid: String?; let stpnm: String?; let pdist: Double? }

func jsonRatio() throws {
    var patterns: [Any] = []
    for name in ["cta-v2-getpatterns-rt1.json", "cta-v2-getpatterns-rt20.json"] {
        // The reference pack's real captures, read where they live (as the tests do).
        let pack = ProcessInfo.processInfo.environment["TRANSIT_REFERENCE"].flatMap { $0.isEmpty ? nil : $0 } ?? "../shared/reference"
        let path = pack + "/bustime/samples/" + name
        guard let data = FileManager.default.contents(atPath: path),
              let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let list = (root["bustime-response"] as? [String: Any])?["ptr"] as? [Any] else { throw BenchError.noFixture(path) }
        patterns += list
    }
    let one = try JSONSerialization.data(withJSONObject: ["bustime-response": ["ptr": patterns]])
    let copies = 10_500_000 / one.count + 1
    var grown: [Any] = []
    for copy in 0..<copies {
        for case var pattern as [String: Any] in patterns {
            pattern["pid"] = (pattern["pid"] as? Int ?? 0) + copy * 100_000
            grown.append(pattern)
        }
    }
    let body = try JSONSerialization.data(withJSONObject: ["bustime-response": ["ptr": grown]])
    let mb = Double(body.count) / 1_000_000
    var bare: [Double] = [], mapped: [Double] = []
    var count = 0
    for _ in 0..<5 {
        var start = DispatchTime.now().uptimeNanoseconds
        let plain = try JSONDecoder().decode(BareRoot.self, from: body)
        bare.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        guard !plain.response.ptr.isEmpty else { throw BenchError.noFixture("bare decode") }
        start = DispatchTime.now().uptimeNanoseconds
        count = try BusTimeParser.patterns(body, agency: .cta).items.count
        mapped.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    let bareRate = mb / (bare.min() ?? .infinity), mappedRate = mb / (mapped.min() ?? .infinity)
    print(String(format: "json: %.1f MB getpatterns, %d patterns; bare JSONDecoder %.1f MB/s (%.0f ms), BusTimeParser %.1f MB/s (%.0f ms); ratio %.2f (best of 5)",
                 mb, count, bareRate, (bare.min() ?? 0) * 1000, mappedRate, (mapped.min() ?? 0) * 1000, mappedRate / bareRate))
}

/// GTFS: import throughput and peak memory are measured from outside (scripts/bench-gtfs);
/// here, in process, a compiled feed's load and the query alone, best of `runs`.
func gtfsQuery(cache: String, feed: String, from: String, to: String, date: String, runs: Int = 10) throws {
    var load = Double.infinity, route = Double.infinity, found = 0
    guard let day = LocalDate(iso: date) else { throw BenchError.noFixture("date \(date)") }
    for _ in 0..<runs {
        var start = DispatchTime.now().uptimeNanoseconds
        let opened = try GTFSFeed.imported(feed, cacheDirectory: cache)
        load = min(load, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        start = DispatchTime.now().uptimeNanoseconds
        found = try opened.journeys(JourneyQuery(from: from, to: to, date: day, rules: JourneyQuery.Rules(transfers: 2))).count
        route = min(route, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    print(String(format: "gtfs %@: %@ → %@ on %@, --transfers 2: load %.1f ms, stop names and query %.1f ms (%d journeys; best of %d)",
                 feed, from, to, date, load, route, found, runs))
}

/// Busbud: a server that reports complete `completeAfter` seconds after the first request;
/// wall time of the search against that, and the CPU the wait cost.
func busbudPoll(completeAfter: Double, interval: Double) async throws {
    let started = FirstCall()
    let server = try LoopbackServer { request in
        let t0 = started.mark()
        let complete = Date().timeIntervalSince1970 - t0 >= completeAfter
        let body = #"{"complete":\#(complete),"departures":[],"operators":[],"locations":[],"metadata":{"interval":\#(Int(interval * 1000))}}"#
        return .ok(body, type: "application/json")
    }
    defer { server.stop() }
    var options = HTTPClient.Options()
    options.retry = .none
    let client = BusbudClient(http: HTTPClient(transport: URLSessionTransport(), options: options), baseURL: server.baseURL, token: "BENCH")
    let search = BusbudSearch(client: client, maxWait: 60)
    let query = BusbudQuery(origin: "dr5reg", destination: "f25dvk", date: LocalDate(year: 2026, month: 12, day: 19), adults: 1, children: 0, seniors: 0, currency: "USD", lang: "en")
    let cpuBefore = cpuSeconds()
    let wall = try await time { _ = try await search.run(query) }
    let cpu = cpuSeconds() - cpuBefore
    print(String(format: "busbud poll: server complete after %.1f s, interval %.0f ms (metadata.interval): search took %.3f s (%.0f ms after completion, %d requests); CPU %.3f s",
                 completeAfter, interval * 1000, wall, (wall - completeAfter) * 1000, server.requests.count, cpu))
}

/// The time of the first call, set by it.
final class FirstCall: Sendable {
    private let first = Locked<Double?>(nil)
    func mark() -> Double {
        first.withLock {
            if $0 == nil { $0 = Date().timeIntervalSince1970 }
            return $0 ?? 0
        }
    }
}

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// ETA: both methods against the recorded Magic Bus arrival times (Fixtures/mbus, route CM).
func etaComparison() async throws {
    let http = HTTPClient(transport: ReplayTransport(directory: fixtures))
    let client = BusTimeClient(http: http, agency: .mbus, key: "")
    let vehicles = try await client.vehicles(routes: ["CM"]).items
    let patterns = try await client.patterns(route: "CM").items
    let predictions = try await client.predictions(vehicles: vehicles.map(\.id)).items
    for model in [ETA.Model(), ETA.Model(speedMPH: 10, dwellSeconds: 30)] {
        let c = ETA.compare(vehicles: vehicles, patterns: patterns, predictions: predictions, model: model)
        print(String(format: "eta: %d vehicle–stop pairs, %.0f mph and %.0f s a stop: mean absolute difference from the recorded predictions: along-route %.1f min, straight-line %.1f min",
                     c.pairs, model.speedMPH, model.dwellSeconds, c.alongRouteMAE, c.straightLineMAE))
    }
}

/// 12306: parsing the 3,364-station dictionary and searching it, best of 20.
func stationList() throws {
    let path = fixtures + "/rail12306/otn/resources/js/framework/station_name.js/_.http"
    guard let data = FileManager.default.contents(atPath: path), let body = Recording.decode(data, source: .recording)?.response.body else {
        throw BenchError.noFixture(path)
    }
    var parseBest = Double.infinity
    for _ in 0..<20 {
        let start = DispatchTime.now().uptimeNanoseconds
        _ = try Rail12306Parser.stations(body)
        parseBest = min(parseBest, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    var best = Double.infinity, count = 0, hits = 0
    for _ in 0..<20 {
        let start = DispatchTime.now().uptimeNanoseconds
        let stations = try Rail12306Parser.stations(body)
        hits = Rail12306Parser.search(stations, "上海").count + Rail12306Parser.search(stations, "beijing").count
            + Rail12306Parser.search(stations, "AOH").count
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        count = stations.count
    }
    print(String(format: "12306 stations: parse %d stations and run 3 searches (%d hits): %.2f ms, of which parsing %.2f ms (best of 20)", count, hits, best, parseBest))
}

/// A mode of its own, `transit-bench NAME ARGUMENT…`: `body` gets the arguments after the name;
/// a failure is one line on stderr and exit 1, and the process ends after it either way.
func mode(_ name: String, _ body: ([String]) throws -> Void) {
    let a = CommandLine.arguments
    guard a.count > 2, a[1] == name else { return }
    do {
        try body(Array(a.dropFirst(2)))
    } catch {
        FileHandle.standardError.write(Data("transit-bench: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}

/// Seconds `body` took, each of `runs` times, in order.
func seconds(_ runs: Int, _ body: () throws -> Void) rethrows -> [Double] {
    try (0..<runs).map { _ in
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}

mode("gtfs-rt") { args in
    // transit-bench gtfs-rt FILE.pb: the GTFS-Realtime decoder's throughput, best of 20.
    let path = args[0]
    guard let data = FileManager.default.contents(atPath: path) else { throw BenchError.noFixture(path) }
    var summary: RealtimeFeedSummary?
    let best = try seconds(20) { summary = try RealtimeFeedSummary.of(data, what: path) }.min() ?? 0
    let mb = Double(data.count) / 1e6
    print(String(format: "gtfs-rt %@: %.2f MB, %d entities, %d stop_time_updates: decoded in %.2f ms = %.0f MB/s (best of 20)",
                 (path as NSString).lastPathComponent, mb, summary?.entities ?? 0, summary?.stopTimeUpdates ?? 0, best * 1000, mb / best))
}

mode("csv") { args in
    // transit-bench csv FILE [RUNS]: the CSV reader's throughput on a file in the page cache,
    // records split a word at a time against byte by byte (each field's bytes trimmed and
    // summed, as a reader of the feed would), best of RUNS (3) each, taking turns.
    let path = args[0], runs = args.count > 1 ? Int(args[1]) ?? 3 : 3
    var best = [true: Double.infinity, false: Double.infinity], fields = [true: 0, false: 0]
    for _ in 0..<runs {
        for words in [true, false] {
            var total = 0
            let took = try seconds(1) {
                let reader = try CSVReader(try FileSource(path), file: path, wordAtATime: words)
                while try reader.next() { for i in 0..<reader.count { total &+= reader.bytes(i).count } }
            }[0]
            best[words] = min(best[words] ?? .infinity, took)
            fields[words] = total
        }
    }
    let size = Double(try FileSource(path).size ?? 0) / 1e6
    guard fields[true] == fields[false] else { throw BenchError.failed(["the two readers read different bytes"]) }
    for words in [true, false] {
        let s = best[words] ?? 0
        print(String(format: "csv %@, %@: %.1f MB in %.3f s = %.0f MB/s (best of %d)", (path as NSString).lastPathComponent,
                     words ? "a word at a time" : "byte by byte", size, s, size / s, runs))
    }
}

mode("pbf") { args in
    // transit-bench pbf FILE.osm.pbf: our PBF reader (every element decoded, ways' tags read),
    // then the walking network built from it; best of 5 each, and this process's peak memory.
    let path = args[0]
    var counts = (0, 0, 0), network: StreetNetwork?
    let read = try seconds(5) {
        var n = (0, 0, 0)
        _ = try PBFReader.read(path, PBFReader.Visitor(node: { _ in n.0 += 1 }, way: { _, _, _ in n.1 += 1 }, relation: { n.2 += 1 }))
        counts = n
    }
    let built = try seconds(5) { network = try StreetNetwork.read(path) }
    let readBest = read.min() ?? 0, networkBest = built.min() ?? 0
    let mb = Double((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) / 1e6
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    print(String(format: "pbf %@: %.1f MB, %d nodes, %d ways, %d relations: read in %.1f ms (%.0f MB/s); walking network (%d nodes, %d segments) in %.1f ms; peak RSS %d MB (best of 5)",
                 (path as NSString).lastPathComponent, mb, counts.0, counts.1, counts.2, readBest * 1000, mb / readBest,
                 network?.nodeCount ?? 0, network?.segmentCount ?? 0, networkBest * 1000, usage.ru_maxrss / 1024))
}

mode("checksum") { args in
    // transit-bench checksum FILE: what checking a compiled feed's checksum costs at load
    // (mapping the file and reading every page of it), cold in this process, then best of 20.
    var size = 0
    let times = try seconds(21) {
        let file = try MappedFile(args[0])
        _ = Checksum.of(file.bytes)
        size = file.bytes.count
    }
    let best = times.dropFirst().min() ?? 0, mb = Double(size) / 1e6
    print(String(format: "checksum of %.1f MB (mapped): first %.2f ms, then %.2f ms = %.1f GB/s (best of 20)", mb, times[0] * 1000, best * 1000, mb / best / 1000))
}

mode("sizes") { args in
    // transit-bench sizes CACHE NAME: an imported feed's compiled file, field by field (the
    // largest first, in bytes and bytes a row of stop_times.txt), and its calls: the rows'
    // calls against those whose times are stored (trips that differ only in their calendar
    // read one block of times, `Timetable.rowBlocks`).
    guard args.count >= 2 else { throw BenchError.noFixture("usage: transit-bench sizes CACHE NAME") }
    let t = try GTFSFeed.imported(args[1], cacheDirectory: args[0]).timetable
    let null = open("/dev/null", O_WRONLY)
    defer { close(null) }
    var sizes: [(String, Int)] = []
    for field in Timetable.fields {
        var w = BinaryWriter(descriptor: null)
        field.write(t, &w)
        sizes.append((field.name, w.written))
    }
    let rows = max(1, Double(t.sourceStopTimes)), total = sizes.reduce(0) { $0 + $1.1 }
    var rowCalls = 0, storedCalls = 0
    for q in 0..<t.patternCount {
        rowCalls += (t.rowRange(ofPattern: q)?.count ?? 0) * t.patternLength(q)
        storedCalls += (t.blockCount(ofPattern: q) ?? 0) * t.patternLength(q)
    }
    print(String(format: "%@: %.1f MB, %.2f bytes a row of stop_times.txt (%d rows), %.2f a stored call; rows' calls %d, stored %d (%.1f %% shared)",
                 args[1], Double(total) / 1e6, Double(total) / rows, t.sourceStopTimes, Double(total) / Double(max(1, storedCalls)),
                 rowCalls, storedCalls, 100 * Double(rowCalls - storedCalls) / Double(max(1, rowCalls))))
    for (name, bytes) in sizes.sorted(by: { $0.1 > $1.1 }).prefix(20) {
        print("  " + name.padding(toLength: 24, withPad: " ", startingAt: 0) + String(format: "%9.1f MB  %5.2f bytes a row", Double(bytes) / 1e6, Double(bytes) / rows))
    }
}

mode("national") { args in
    // transit-bench national CACHE NAME DATE PAIRS SEED TRANSFERS: random stop pairs of an
    // imported feed (scripts/make-national-gtfs.py's), each leaving at a random time of DATE
    // between 05:00 and 23:59, asked in process as `gtfs trips` asks (stops by id, walks at the
    // ends): `--earliest`, then the Pareto set of the hour from then. Prints each one's median,
    // 95th percentile and worst, and how many found a journey: the pairs answered by a journey
    // leaving on DATE apart from those whose first leaves on a later day (after the last train,
    // issue 64). With TRANSIT_BENCH_DAYS=N, the whole day's Pareto set of the first N pairs too
    // (`gtfs trips --date DATE`). The feed is loaded once, first.
    // With TRANSIT_BENCH_PAIRS=FILE, each pair is written there as
    // `from,to,after,arrival,milliseconds,hour,milliseconds` (arrival -1 where none; the
    // milliseconds its `--earliest` took; the hour's journeys and their milliseconds), for
    // scripts/peer-ferrobus.py and for finding the slowest pairs.
    guard args.count >= 6, let day = LocalDate(iso: args[2]), let pairs = Int(args[3]), let seed = UInt64(args[4]), let transfers = Int(args[5]) else {
        throw BenchError.noFixture("usage: transit-bench national CACHE NAME DATE PAIRS SEED TRANSFERS")
    }
    let feed = try GTFSFeed.imported(args[1], cacheDirectory: args[0])
    let t = feed.timetable
    let called = (0..<t.stopCount).filter { t.isCalledAt($0) }
    guard called.count > 1 else { throw BenchError.noFixture("no stop is called at") }
    // SplitMix64: the same pairs for a seed on every machine.
    var state = seed
    func next(_ n: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(n))
    }
    var earliest: [Double] = [], window: [Double] = [], reached = 0, windowFound = 0, spans: [Double] = [], changes = 0
    var sameDay: [Double] = [], nextDay: [Double] = [], wholeDays: [Double] = [], wholeDayJourneys = 0
    let wholeDayPairs = ProcessInfo.processInfo.environment["TRANSIT_BENCH_DAYS"].flatMap(Int.init) ?? 0
    var written = ""
    defer {
        if let path = ProcessInfo.processInfo.environment["TRANSIT_BENCH_PAIRS"] { try? written.write(toFile: path, atomically: true, encoding: .utf8) }
    }
    // TRANSIT_BENCH_ONLY=FILE (lines `from,to,after`, as TRANSIT_BENCH_PAIRS writes them): those
    // pairs instead of random ones, each asked TRANSIT_BENCH_REPS times (default 1) and its least
    // time kept: two builds compared on the slowest pairs, less the machine's noise.
    var listed: [(String, String, Int)]?
    if let path = ProcessInfo.processInfo.environment["TRANSIT_BENCH_ONLY"] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw BenchError.noFixture(path) }
        listed = text.split(separator: "\n").compactMap { line in
            let f = line.split(separator: ",")
            return f.count >= 3 ? Int(f[2]).map { (String(f[0]), String(f[1]), $0) } : nil
        }
    }
    let reps = max(1, ProcessInfo.processInfo.environment["TRANSIT_BENCH_REPS"].flatMap(Int.init) ?? 1)
    for index in 0..<(listed?.count ?? pairs) {
        let (from, to, after) = listed?[index] ?? (t.stopIDs[called[next(called.count)]], t.stopIDs[called[next(called.count)]], 5 * 3600 + next(19 * 3600))
        var q = JourneyQuery(from: from, to: to, date: day, after: after, rules: JourneyQuery.Rules(transfers: transfers))
        q.earliest = true
        var start = DispatchTime.now().uptimeNanoseconds
        var first = try feed.plan(q)
        var took = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        for _ in 1..<reps {
            start = DispatchTime.now().uptimeNanoseconds
            first = try feed.plan(q)
            took = min(took, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        earliest.append(took)
        if let j = first.first {
            reached += 1
            spans.append(Double(j.arrival - after) / 60)
            changes += j.transfers
            if (j.legs.first(where: \.isRide)?.dayOffset ?? 0) > 0 { nextDay.append(took) } else { sameDay.append(took) }
        }
        let line = "\(from),\(to),\(after),\(first.first?.arrival ?? -1)," + String(format: "%.1f", took)
        q.earliest = false
        q.window.before = .asWritten(seconds: after + 3600)
        start = DispatchTime.now().uptimeNanoseconds
        let hour = try feed.plan(q)
        if !hour.isEmpty { windowFound += 1 }
        window.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        // Then the hour's journeys and milliseconds.
        written += line + ",\(hour.count)," + String(format: "%.1f", window.last ?? 0) + "\n"
        if index < wholeDayPairs {
            let whole = JourneyQuery(from: from, to: to, date: day, rules: JourneyQuery.Rules(transfers: transfers))
            start = DispatchTime.now().uptimeNanoseconds
            wholeDayJourneys += try feed.plan(whole).count
            wholeDays.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
    }
    func line(_ what: String, _ v: [Double]) -> String {
        let sorted = v.sorted()
        guard !sorted.isEmpty else { return what + ": none asked" }
        func at(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        return String(format: "%@: median %.1f ms, p95 %.1f ms, worst %.1f ms", what, at(0.5), at(0.95), sorted.last ?? 0)
    }
    print("national \(args[1]) on \(args[2]), \(listed.map { "\($0.count) listed stop pairs, each the best of \(reps)," } ?? "\(pairs) random stop pairs") of \(called.count) stops called at, seed \(seed), --transfers \(transfers), in process:")
    print(line("  --earliest", earliest) + String(format: " (%d found a journey; median %.0f minutes to arrival, %.1f changes on average)",
                                                  reached, spans.sorted().isEmpty ? 0 : spans.sorted()[spans.count / 2], reached > 0 ? Double(changes) / Double(reached) : 0))
    print(line("    answered by a journey leaving on \(args[2])", sameDay) + " (\(sameDay.count) pairs)")
    print(line("    answered by one leaving on a later day", nextDay) + " (\(nextDay.count) pairs)")
    print(line("  one hour's Pareto set", window) + " (\(windowFound) found a journey)")
    if wholeDayPairs > 0 { print(line("  the whole day's Pareto set", wholeDays) + " (\(wholeDays.count) pairs, \(wholeDayJourneys) journeys)") }
}

mode("json") { args in
    // transit-bench json FILE [ZONE]: the JSON writer alone, on what a command printed as JSON
    // (say `gtfs trips --format json` on dense81): read back into values, every
    // `YYYY-MM-DDTHH:MM:SS±HH:MM` string as a time in ZONE (default America/Los_Angeles) as the
    // command had it, then written again, best of 5. The bytes written must be the file's.
    let path = args[0], zoneName = args.count > 1 ? args[1] : "America/Los_Angeles"
    guard let data = FileManager.default.contents(atPath: path), let zone = TimeZone(identifier: zoneName) else { throw BenchError.noFixture(path) }
    // Native strings, as a command has them (Foundation's parser hands out bridged ones,
    // which the writer cannot read in place).
    func native(_ text: String) -> String { String(decoding: Array(text.utf8), as: UTF8.self) }
    func value(_ any: Any) -> Value {
        switch any {
        case let text as String:
            if text.count == 25, text.dropFirst(10).first == "T", let date = ClockTime.parseISO8601(text),
               ClockTime.iso8601(date, zone: zone) == text { return .time(date, zone) }
            return .string(native(text))
        case let number as NSNumber:
            if String(cString: number.objCType) == "c" { return .bool(number.boolValue) }  // how Foundation marks a JSON true or false
            if let integer = Int(exactly: number.doubleValue), !"\(number)".contains(".") { return .int(integer) }
            return .double(number.doubleValue)
        case let list as [Any]: return .list(list.map(value))
        case let object as [String: Any]:
            // Foundation's dictionaries forget the order: keys as the file has them are not
            // needed for the speed, only the same count of bytes.
            return .object(Record(object.sorted { $0.key < $1.key }.map { (native($0.key), value($0.value)) }))
        default: return .null
        }
    }
    let parsed = value(try JSONSerialization.jsonObject(with: data))
    var written = 0
    let best = seconds(5) { written = 0; JSONWriter.document(parsed) { written += $0.count } }.min() ?? 0
    let mb = Double(written) / 1e6
    print(String(format: "json writer: %.1f MB (the file: %.1f MB) in %.1f ms = %.0f MB/s (best of 5)", mb, Double(data.count) / 1e6, best * 1000, mb / best))
}

mode("gtfs") { a in
    // transit-bench gtfs CACHE FEED FROM TO DATE
    guard a.count >= 5 else { throw BenchError.noFixture("usage: transit-bench gtfs CACHE FEED FROM TO DATE") }
    // TRANSIT_BENCH_RUNS=1 for one run (under valgrind --tool=callgrind, say).
    let runs = ProcessInfo.processInfo.environment["TRANSIT_BENCH_RUNS"].flatMap(Int.init) ?? 10
    try gtfsQuery(cache: a[0], feed: a[1], from: a[2], to: a[3], date: a[4], runs: max(1, runs))
}

do {
    try stationList()
    try await etaComparison()
    try await rounds("bart trips 24TH→MLBR", ["bart", "trips", "--from", "24TH", "--to", "MLBR", "--date", "2026-11-23"])
    try await rounds("bart trips 24TH→FRMT --transfers 1", ["bart", "trips", "--from", "24TH", "--to", "FRMT", "--date", "2026-11-23", "--transfers", "1"])
    try await rounds("cta predictions, 10 stops, 2 routes", ["cta", "predictions", "--stop", "1,2,3,4,5,6,7,8,9,10", "--route", "22,36"])
    try parseRatio()
    try jsonRatio()
    try await busbudPoll(completeAfter: 3, interval: 0.5)
    try await busbudPoll(completeAfter: 3, interval: 2)
} catch {
    FileHandle.standardError.write(Data("transit-bench: \(error)\n".utf8))
    exit(1)
}
