import Foundation
import TransitSupport
import TransitGTFS

/// `transit gtfs matrix`: travel times from many places to many others over a window of
/// departures, as percentiles (`TravelTimeMatrix`), streamed, sharded across machines by
/// `--shard`.
struct GTFSMatrixCommand: GTFSSubcommand {
    static let spec = CommandSpec(
        provider: "gtfs", name: "matrix", summary: "travel times from many places to many others over a window of departures, as percentiles",
        examples: ["transit gtfs matrix --origins homes.csv --destinations jobs.csv --date 2026-11-23 --after 07:00 --window 60 --percentiles 25,50,75",
                   "transit gtfs matrix --origins points.csv --destinations points.csv --after 08:00 --shard 3/10 --jobs 1 --output part-3.csv"],
        options: [
            OptionSpec("origins", value: "FILE", "the origins: CSV with a header naming id, lat and lon in any order (both empty, or no lat and lon columns: the id is a stop, read as --from reads one); other columns ignored", required: true, source: .files),
            OptionSpec("destinations", value: "FILE", "the destinations, as --origins", required: true, source: .files),
            GTFSCommandLine.date,
            OptionSpec("after", value: "T", "the window's first minute: HH:MM, 5pm, 17, now or +30m (default: now on today's service day, else the start of the day)"),
            OptionSpec("window", value: "MIN", "minutes of departures: T, T+1, … T+MIN−1 (1 to 1440)", default: "60"),
            OptionSpec("percentiles", value: "LIST", "comma-separated, 1 to 99, each once (a column travel_time_pNN each, in order)", default: "50"),
            OptionSpec("max-minutes", value: "M", "a minute arriving later than this counts as beyond it (1 to 1440)", default: "120"),
            OptionSpec("jobs", value: "N", "origins worked out at once, each on a thread (1 to 256; default: the cores)"),
            OptionSpec("shard", value: "K/N", "only the K-th of N equal parts of the origins, in file order (1 ≤ K ≤ N ≤ 10000): shard 1 alone writes the csv/tsv header, so the parts concatenated are the whole"),
            OptionSpec("output", value: "FILE", "write to FILE (csv, or --format tsv or json), made under a temporary name beside it and renamed once whole; nothing is left on an error or Ctrl-C", source: .files),
            GTFSCommandLine.radius,
            GTFSCommandLine.transfers, GTFSCommandLine.minTransfer, GTFSCommandLine.walk,
        ] + RiderOptions.shared + [
            GTFSCommandLine.link, GTFSCommandLine.zone,
            OptionSpec("realtime", value: "SOURCE", "GTFS-Realtime trip updates to apply: an http(s) URL or a .pb file (repeatable); without it, the timetable as planned (a feed's remembered sources are not read)", source: .files, repeatable: true),
            GTFSCommandLine.realtimeTimeout, GTFSCommandLine.feed,
        ],
        notes: ["Fields: from_id, to_id, travel_time_p50 (one column per percentile, whole minutes rounded down). A cell is, over the window's minutes, the percentile of the earliest arrival leaving the origin at that minute (waiting there counts; walking to and from stops as trips does, the journey on foot where faster) less the minute, as gtfs trips --earliest answers each; a minute with none within --max-minutes counts as beyond, and a percentile beyond is empty (JSON null). Rows in origin then destination file order, only those with a percentile within --max-minutes; origin and destination the same place: 0. --transfers is kept as given, never raised. One range search per origin over the window, the origins across --jobs threads; rows stream as they are worked out. docs/matrix.md: sharding under GNU parallel, Slurm and Kubernetes."])

    var feeds: [String] = []
    var origins: String
    var destinations: String
    var day: JourneyQuery.Day
    var after: ServiceTime?
    var window: Int
    var percentiles: [Int]
    var maxMinutes: Int
    var jobs: Int
    var shard: Shard?
    var output: String?
    var search: GTFSCommandLine.Search
    var realtime = GTFSCommandLine.RealtimeChoice()
    var options = RiderOptions()

    init(_ args: Arguments) throws(TransitError) {
        feeds = try args.strings("feed")
        guard let origins = try args.string("origins") else { throw args.missing("origins") }
        guard let destinations = try args.string("destinations") else { throw args.missing("destinations") }
        (self.origins, self.destinations) = (origins, destinations)
        day = try GTFSCommandLine.day(args)
        after = try args.serviceTime("after")
        window = try args.intValue("window", in: TravelTimeQuery.windowRange)
        maxMinutes = try args.intValue("max-minutes", in: TravelTimeQuery.maxMinutesRange)
        percentiles = try Self.percentiles(try args.string("percentiles") ?? "50")
        jobs = try args.given("jobs") ? try args.intValue("jobs", in: 1...256) : ProcessInfo.processInfo.activeProcessorCount
        shard = try args.string("shard").map(Self.shard)
        output = try args.string("output")
        if output?.isEmpty == true { throw .usage("--output takes a file name") }
        search = try GTFSCommandLine.Search(args)
        realtime = GTFSCommandLine.RealtimeChoice(sources: try args.strings("realtime"), ignoringRemembered: true)
        realtime.deadline = try GTFSCommandLine.RealtimeChoice.deadline(args)
        options = try RiderOptions(args, through: false)
    }

    /// `--percentiles`: 1 to 99, each once, sorted as the columns are.
    static func percentiles(_ text: String) throws(TransitError) -> [Int] {
        var out: [Int] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let item = part.trimmingCharacters(in: .whitespaces)
            guard let p = Int(item), TravelTimeQuery.percentileRange.contains(p) else {
                throw .usage("--percentiles takes whole numbers from 1 to 99, comma-separated, not '\(item)'")
            }
            guard !out.contains(p) else { throw .usage("--percentiles names \(p) twice") }
            out.append(p)
        }
        return out.sorted()
    }

    /// `--shard K/N`: the K-th of N parts of the origins.
    struct Shard: Equatable {
        var part: Int
        var of: Int
    }

    static func shard(_ text: String) throws(TransitError) -> Shard {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 10_000, k >= 1, k <= n else {
            throw .usage("--shard takes K/N with 1 ≤ K ≤ N ≤ 10000, not '\(text)'")
        }
        return Shard(part: k, of: n)
    }

    func run(_ gtfs: GTFSContext) async throws(TransitError) -> Output {
        // Every file read and checked before the first row.
        let from = try TravelTimeQuery.Point.read(origins), to = try TravelTimeQuery.Point.read(destinations)
        var q = TravelTimeQuery(origins: from, destinations: to, day: day, after: after, windowMinutes: window, percentiles: percentiles,
                                maxMinutes: maxMinutes, now: gtfs.now, rules: search.rules, needs: options.needs)
        q.zone = search.zone
        let feed = try gtfs.open(feeds)
        let updates = realtime.sources.isEmpty ? nil : try await gtfs.tripUpdates(realtime, feed)
        gtfs.progress("resolving \(from.count + to.count) points")
        let matrix = try gtfs.withStopHelp(feed) { () throws(TransitError) in try gtfs.engine(feed).travelTimeMatrix(q, updates: updates) }
        let n = matrix.originCount
        let range = shard.map { (n * ($0.part - 1) / $0.of)..<(n * $0.part / $0.of) } ?? 0..<n
        let keys = ["from_id", "to_id"] + percentiles.map { "travel_time_p\($0 < 10 ? "0" : "")\($0)" }
        let notices = feed.notices + (updates?.notices ?? []) + matrix.notices
        let progress = MatrixProgress(gtfs, total: range.count)
        let jobs = jobs, originIDs = from.map(\.id), destinationIDs = to.map(\.id)
        gtfs.progress("working out \(range.count) origins × \(to.count) destinations")
        let failed = Locked<TransitError?>(nil)
        let stream = RowStream(keys: keys, header: shard.map { $0.part == 1 } ?? true) { emit in
            do throws(TransitError) {
                try matrix.rows(range, jobs: jobs) { row throws(TransitError) in
                    if let error = failed.withLock({ $0 }) { throw error }
                    for cell in row.cells {
                        emit([.string(originIDs[row.origin]), .string(destinationIDs[cell.destination])] + cell.minutes.map { $0.map(Value.int) ?? .null })
                    }
                    progress.done()
                }
            } catch {
                failed.withLock { $0 = $0 ?? error }
            }
        }
        guard let output else { return .streamed(stream, notices: notices) }
        try MatrixFile.write(stream, to: output, format: gtfs.context.settings.format, header: gtfs.context.settings.header, failed: failed)
        return .empty(notices)
    }
}

/// Origins done of the total, the rate and the time left, on the progress line.
final class MatrixProgress: @unchecked Sendable {
    private let detail: @Sendable (String) -> Void
    private let total: Int
    private var count = 0
    private let started = Date()
    private var shown = Date.distantPast

    init(_ gtfs: GTFSContext, total: Int) {
        (detail, self.total) = (gtfs.context.detail, total)
    }

    func done() {
        count += 1
        let now = Date()
        guard now.timeIntervalSince(shown) >= 0.2 || count == total else { return }
        shown = now
        let elapsed = max(now.timeIntervalSince(started), 0.001), rate = Double(count) / elapsed
        let left = rate > 0 ? Int((Double(total - count) / rate).rounded(.up)) : 0
        detail("\(count) of \(total) origins, \(rate >= 10 ? String(Int(rate)) : String(format: "%.1f", rate))/s, \(TransitError.seconds(Double(left))) s left")
    }
}

/// `--output FILE`: the rows written under a temporary name beside FILE and renamed once whole,
/// so that nothing half written is ever at FILE (a signal removes the temporary file too).
enum MatrixFile {
    static func write(_ stream: RowStream, to path: String, format: OutputFormat, header: Bool?, failed: Locked<TransitError?>) throws(TransitError) {
        let directory = (path as NSString).deletingLastPathComponent
        let temporary = ((directory.isEmpty ? "." : directory) as NSString).appendingPathComponent(TemporaryFiles.name("matrix", suffix: ".part"))
        let token = TemporaryFiles.register(temporary)
        defer {
            unlink(temporary)
            TemporaryFiles.forget(token)
        }
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .write(what: "the matrix", path: path, reason: String(cString: strerror(errno))) }
        var closed = false
        defer { if !closed { close(fd) } }
        let renderer = Renderer(format: format == .tsv || format == .json ? format : .csv, header: header)
        // The compiled feed's writer: a failed write is kept, and the rows stop coming.
        var writer = BinaryWriter(descriptor: fd)
        try renderer.write(.streamed(stream)) { bytes in
            guard failed.withLock({ $0 == nil }) else { return }
            writer.append(bytes)
            if let failure = writer.failure {
                failed.withLock { $0 = $0 ?? .write(what: "the matrix", path: path, reason: String(cString: strerror(failure))) }
            }
        }
        closed = true
        let closing = close(fd) == 0 ? nil : String(cString: strerror(errno))
        if let error = failed.withLock({ $0 }) { throw error }
        if let closing { throw .write(what: "the matrix", path: path, reason: closing) }
        guard rename(temporary, path) == 0 else { throw .write(what: "the matrix", path: path, reason: String(cString: strerror(errno))) }
    }
}
