import Foundation
import TransitSupport
import TransitGTFS

/// `transit gtfs matrix`: travel times from many places to many others over a window of
/// departures, as percentiles (`TravelTimeMatrix`), streamed, sharded across machines by
/// `--shard`.
struct GTFSMatrixCommand: GTFSSubcommand {
    static let spec: CommandSpec = {
        var spec = CommandSpec(
        provider: "gtfs", name: "matrix", summary: "travel times from many places to many others over a window of departures, as percentiles",
        examples: ["transit gtfs matrix --origins homes.csv --destinations jobs.csv --date 2026-11-23 --after 07:00 --window 60 --percentiles 25,50,75",
                   "transit gtfs matrix --origins points.csv --destinations points.csv --after 08:00 --shard 3/10 --jobs 1 --output part-3.csv"],
        options: [
            OptionSpec("origins", value: "FILE", "the origins: CSV with a header naming id, lat and lon in any order (both empty, or no lat and lon columns: the id is a stop, read as --from reads one); other columns ignored", required: true, source: .files),
            OptionSpec("destinations", value: "FILE", "the destinations, as --origins (or --opportunities)", source: .files),
            OptionSpec("opportunities", value: "FILE", "instead of --destinations: CSV with id, lat, lon and count (jobs, say; decimals allowed); with --cutoffs, writes each origin's access: the sum of the counts within each cutoff", source: .files),
            OptionSpec("cutoffs", value: "LIST", "with --opportunities: minutes, comma-separated, 1 to 1440, each once (the last bounds the times, as --max-minutes does)"),
            GTFSCommandLine.date,
            afterOption,
            OptionSpec("arrive-by", value: "T", "instead of --after: the window's minutes are arrival deadlines T−MIN+1 … T, each cell the deadline less the latest departure that arrives by it"),
            OptionSpec("window", value: "MIN", "minutes of departures: T, T+1, … T+MIN−1 (with --arrive-by, of deadlines) (1 to 1440)", default: "60"),
            OptionSpec("percentiles", value: "LIST", "comma-separated, 1 to 99, each once (a column travel_time_pNN each, in order)", default: "50"),
            OptionSpec("max-minutes", value: "M", "a minute arriving later than this counts as beyond it (1 to 1440)", default: "120"),
            OptionSpec("jobs", value: "N", "origins worked out at once, each on a thread (1 to 256; default: the cores)"),
            OptionSpec("shard", value: "K/N", "only the K-th of N equal parts of the origins, in file order (1 ≤ K ≤ N ≤ 10000): shard 1 alone writes the csv/tsv header, so the parts concatenated are the whole"),
            OptionSpec("output", value: "FILE", "write to FILE (csv, or --format tsv, json or parquet), made under a temporary name beside it and renamed once whole; nothing is left on an error or Ctrl-C", source: .files),
            GTFSCommandLine.radius,
            GTFSCommandLine.transfers, GTFSCommandLine.minTransfer, GTFSCommandLine.walk,
        ] + RiderOptions.shared + [
            GTFSCommandLine.link, GTFSCommandLine.zone,
            realtimeOption,
            GTFSCommandLine.realtimeTimeout, GTFSCommandLine.feed,
        ],
        notes: ["Fields: from_id, to_id, travel_time_p50 (one column per percentile, whole minutes rounded down). A cell is, over the window's minutes, the percentile of the earliest arrival leaving the origin at that minute (waiting there counts; walking to and from stops as trips does, the journey on foot where faster) less the minute, as gtfs trips --earliest answers each; a minute with none within --max-minutes counts as beyond, and a percentile beyond is empty (JSON null). Rows in origin then destination file order, only those with a percentile within --max-minutes; origin and destination the same place: 0. --transfers is kept as given, never raised. One range search per origin over the window, the origins across --jobs threads; rows stream as they are worked out. docs/matrix.md: sharding under GNU parallel, Slurm and Kubernetes.",
                "With --arrive-by T, the minutes are deadlines T−MIN+1 … T: a cell is, over them, the percentile of the deadline less the latest departure from the origin that arrives at the destination by it (waiting there counts; the journey on foot leaves the walk's time before), whole minutes rounded down. One forward range search per origin over the departures that can arrive by the deadlines within --max-minutes, each destination's latest departure read as the departures are searched; --shard splits the origins, as without it.",
                "With --opportunities and --cutoffs, fields from_id, percentile, cutoff, access: a row per origin, percentile and cutoff, access the sum of the counts of the opportunities whose travel time at that percentile is at most the cutoff (a whole number where every count is one, else to six decimals).",
                "--format parquet (with --output): uncompressed, plain encoding, a row group per million rows; from_id and to_id UTF-8 strings, travel times nullable 32-bit integers; access rows: percentile and cutoff 32-bit integers, access a 64-bit integer (a double for decimal counts). Two runs write the same bytes."])
        spec.parquet = true
        return spec
    }()

    /// `--after` of a window of departures (matrices, isochrones).
    static let afterOption = OptionSpec("after", value: "T", "the window's first minute: HH:MM, 5pm, 17, now or +30m (default: now on today's service day, else the start of the day)")
    /// `--realtime` of the commands that read no real-time data unless asked (matrices, isochrones).
    static let realtimeOption = OptionSpec("realtime", value: "SOURCE", "GTFS-Realtime trip updates to apply: an http(s) URL or a .pb file (repeatable); without it, the timetable as planned (a feed's remembered sources are not read)", source: .files, repeatable: true)

    var feeds: [String] = []
    var origins: String
    /// The destinations file, or with `access` the opportunities file.
    var destinations: String
    var access: Bool
    var cutoffs: [Int]?
    var day: JourneyQuery.Day
    var after: ServiceTime?
    var arriveBy: ServiceTime?
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
        let destinations = try args.string("destinations"), opportunities = try args.string("opportunities")
        guard (destinations == nil) != (opportunities == nil) else {
            throw destinations == nil ? args.missing("destinations") : .usage("--destinations and --opportunities are two kinds of the same file: give one")
        }
        self.origins = origins
        (self.destinations, access) = (destinations ?? opportunities ?? "", opportunities != nil)
        if let text = try args.string("cutoffs") { cutoffs = try GTFSCommandLine.wholeNumbers(text, option: "cutoffs", what: "whole minutes", in: TravelTimeQuery.maxMinutesRange) }
        guard access == (cutoffs != nil) else { throw .usage(access ? "--opportunities needs --cutoffs: the minutes to count the opportunities within" : "--cutoffs counts --opportunities: give the file") }
        let maxGiven = try args.given("max-minutes")
        if cutoffs != nil && maxGiven { throw .usage("--cutoffs bound the times (the last is the maximum): --max-minutes is not needed") }
        day = try GTFSCommandLine.day(args)
        after = try args.serviceTime("after")
        arriveBy = try args.serviceTime("arrive-by")
        if after != nil && arriveBy != nil { throw .usage("--after and --arrive-by: a matrix leaves after a time or arrives by one, not both") }
        window = try args.intValue("window", in: TravelTimeQuery.windowRange)
        if let last = cutoffs?.last { maxMinutes = last } else { maxMinutes = try args.intValue("max-minutes", in: TravelTimeQuery.maxMinutesRange) }
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
        try GTFSCommandLine.wholeNumbers(text, option: "percentiles", what: "whole numbers", in: TravelTimeQuery.percentileRange)
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
        let format = gtfs.context.settings.format
        if format == .parquet && output == nil { throw .usage("--format parquet needs --output FILE (a binary file is not for a terminal or a pipe)") }
        // Every file read and checked before the first row.
        let from = try TravelTimeQuery.Point.read(origins), to = try TravelTimeQuery.Point.read(destinations, counts: access)
        var q = TravelTimeQuery(origins: from, destinations: to, day: day, after: after, windowMinutes: window, percentiles: percentiles,
                                maxMinutes: maxMinutes, now: gtfs.now, rules: search.rules, needs: options.needs)
        q.zone = search.zone
        q.arriveBy = arriveBy
        let feed = try gtfs.open(feeds)
        let updates = realtime.sources.isEmpty ? nil : try await gtfs.tripUpdates(realtime, feed)
        gtfs.progress("resolving \(from.count + to.count) points")
        let matrix = try gtfs.withStopHelp(feed) { () throws(TransitError) in try gtfs.engine(feed).travelTimeMatrix(q, updates: updates) }
        let n = matrix.originCount
        let range = shard.map { (n * ($0.part - 1) / $0.of)..<(n * $0.part / $0.of) } ?? 0..<n
        let keys = cutoffs != nil ? ["from_id", "percentile", "cutoff", "access"] : ["from_id", "to_id"] + percentiles.map { "travel_time_p\($0 < 10 ? "0" : "")\($0)" }
        // Access is a whole number where every count is, else to six decimals.
        let whole = to.allSatisfy { ($0.count ?? 1).rounded() == $0.count ?? 1 }
        let cutoffs = cutoffs, percentiles = percentiles
        let notices = feed.notices + (updates?.notices ?? []) + matrix.notices
        let progress = MatrixProgress(gtfs, total: range.count)
        let jobs = jobs, originIDs = from.map(\.id), destinationIDs = to.map(\.id)
        gtfs.progress("working out \(range.count) origins × \(to.count) destinations")
        let failed = Locked<TransitError?>(nil)
        let stream = RowStream(keys: keys, header: shard.map { $0.part == 1 } ?? true) { emit in
            do throws(TransitError) {
                try matrix.rows(range, jobs: jobs) { row throws(TransitError) in
                    if let error = failed.withLock({ $0 }) { throw error }
                    if let cutoffs {
                        for (p, sums) in zip(percentiles, matrix.access(row, cutoffs: cutoffs)) {
                            for (cutoff, sum) in zip(cutoffs, sums) {
                                emit([.string(originIDs[row.origin]), .int(p), .int(cutoff), whole ? .int(Int(sum.rounded())) : .double((sum * 1e6).rounded() / 1e6)])
                            }
                        }
                        progress.done()
                        return
                    }
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
        let parquet: [ParquetWriter.Column] = cutoffs != nil
            ? [.init("from_id", .string), .init("percentile", .int32), .init("cutoff", .int32), .init("access", whole ? .int64 : .double)]
            : [.init("from_id", .string), .init("to_id", .string)] + keys.dropFirst(2).map { .init($0, .int32, optional: true) }
        try MatrixFile.write(stream, to: output, format: format, header: gtfs.context.settings.header, parquet: parquet, failed: failed)
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
    static func write(_ stream: RowStream, to path: String, format: OutputFormat, header: Bool?, parquet: [ParquetWriter.Column],
                      failed: Locked<TransitError?>) throws(TransitError) {
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
        // The compiled feed's writer: a failed write is kept, and the rows stop coming.
        var writer = BinaryWriter(descriptor: fd)
        func append(_ bytes: UnsafeRawBufferPointer) {
            guard failed.withLock({ $0 == nil }) else { return }
            writer.append(bytes)
            if let failure = writer.failure {
                failed.withLock { $0 = $0 ?? .write(what: "the matrix", path: path, reason: String(cString: strerror(failure))) }
            }
        }
        if format == .parquet {
            let file = ParquetWriter(parquet) { bytes in bytes.withUnsafeBytes { append($0) } }
            var refused: TransitError?
            stream.rows { row in
                guard refused == nil else { return }
                do throws(TransitError) { try file.append(row) } catch { refused = error }
            }
            if let refused { failed.withLock { $0 = $0 ?? refused } }
            if failed.withLock({ $0 == nil }) {
                do throws(TransitError) { try file.finish() } catch { failed.withLock { $0 = $0 ?? error } }
            }
        } else {
            let renderer = Renderer(format: format == .tsv || format == .json ? format : .csv, header: header)
            try renderer.write(.streamed(stream), to: append)
        }
        closed = true
        let closing = close(fd) == 0 ? nil : String(cString: strerror(errno))
        if let error = failed.withLock({ $0 }) { throw error }
        if let closing { throw .write(what: "the matrix", path: path, reason: closing) }
        guard rename(temporary, path) == 0 else { throw .write(what: "the matrix", path: path, reason: String(cString: strerror(errno))) }
    }
}
