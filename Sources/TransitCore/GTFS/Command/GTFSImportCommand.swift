import Foundation
import TransitSupport
import TransitGTFS

/// `transit gtfs import SOURCE`: check a feed and compile it for offline queries.
struct GTFSImportCommand: GTFSSubcommand {
    static let spec = CommandSpec(
        provider: "gtfs", name: "import", summary: "check a feed and compile it for offline queries",
        examples: ["transit gtfs import Fixtures/gtfs/lakeport",
                   "transit gtfs import ./unzipped-feed --name metro", "transit gtfs import https://example.org/gtfs.zip --name city",
                   "transit gtfs import mdb-53"],
        options: [OptionSpec("name", value: "NAME", "the feed's name (default: the file name without .zip)"),
                  OptionSpec("realtime", value: "URL", "a GTFS-Realtime URL every query of the feed reads (repeatable); $NAME or ${NAME} in it is read from the environment at each fetch, and kept as a name", repeatable: true),
                  OptionSpec("realtime-header", value: "\"NAME: VALUE\"", "a header sent with the real-time URLs (repeatable), e.g. \"x-api-key: $KEY\"", repeatable: true),
                  OptionSpec("realtime-key", value: "NAME", "the environment variable the feed's real-time sources read their key from (a catalog id's feeds; default TRANSIT_KEY_ and the feed's name); a remembered source reads no variable but those typed, this one and TRANSIT_KEY_…"),
                  OptionSpec("streets", value: "AREA.osm.pbf", "an OpenStreetMap extract: changes on foot are measured on its walkable streets (remembered; update measures again when it changes)", source: .files)],
        notes: ["SOURCE is a .zip, an unzipped directory or an http(s) URL (fetched through the HTTP path: --timeout, retries, --record, --offline), or a feed's id in the Mobility Database catalog (mdb-53, see gtfs catalog): downloaded from its URL, else the catalog's copy, named after its provider, with its real-time feeds remembered (a key as $VARIABLE) and its licence kept. The compiled feed goes to $TRANSIT_CACHE_DIR/gtfs/NAME.timetable; importing again replaces it atomically, and a failed import leaves the old one. Prints: name, agencies, time_zone, first_date, last_date, stops, routes, trips, stop_times, patterns, compiled_bytes, compile_ms, realtime, streets (the map, or null), catalog and license (from the catalog, or null). With --streets, the changes on foot within 300 m and the walks from and to LAT,LON follow the map's walkable streets (docs/gtfs.md); a map that no stop is within 100 m of is refused."],
        positional: "SOURCE|CATALOG_ID", positionalSource: .files)

    var source: String
    var name: String?
    /// URLs remembered for every query of the feed, with `headers` (`Name: value`), as typed.
    var realtime: [String]
    var headers: [String]
    /// `--realtime-key`: the variable chosen for the sources' key.
    var realtimeKey: String?
    /// The map walks are measured on, as an absolute path.
    var streets: String?

    init(_ args: Arguments) throws(TransitError) {
        source = (args.positional ?? "").trimmedSpace(newlines: false)
        guard !source.isEmpty else { throw args.missing("SOURCE|CATALOG_ID") }
        name = try args.string("name")
        if let name, !FeedStore.validName(name) {
            throw .usage("--name takes letters, digits, '.', '_' and '-' (not starting with '.'), not '\(name)'")
        }
        if name == "all" { throw Self.allIsReserved }
        realtime = try args.strings("realtime")
        headers = try args.strings("realtime-header")
        for url in realtime where !HTTPRequest.isURL(url) {
            throw .usage("--realtime takes an http(s) URL to remember, not '\(url)' (a file is given to each query instead)")
        }
        for header in headers {
            guard let colon = header.firstIndex(of: ":"), !header[..<colon].trimmedSpace(newlines: false).isEmpty else {
                throw .usage("--realtime-header takes \"Name: value\", not '\(header)'")
            }
        }
        if !headers.isEmpty && realtime.isEmpty { throw .usage("--realtime-header goes with --realtime") }
        for url in realtime {
            if let name = RealtimeKeys.inPath(url) {
                throw .usage("--realtime \(Redaction.url(url)) names $\(name) before its query string: a key goes in the query (?key=$\(name)) or a header, never in the path")
            }
        }
        realtimeKey = try args.string("realtime-key")
        if let key = realtimeKey, !RealtimeKeys.isName(key) {
            throw .usage("--realtime-key takes the name of an environment variable (letters, digits and '_', not starting with a digit), not '\(key)'")
        }
        if let map = try args.string("streets") {
            guard FileManager.default.fileExists(atPath: map) else { throw .usage("--streets: no file at \(map); give an OpenStreetMap .osm.pbf extract") }
            streets = URL(fileURLWithPath: map).standardizedFileURL.path
        }
    }

    func run(_ gtfs: GTFSContext) async throws(TransitError) -> Output {
        if CatalogImport.isID(source) { return try await CatalogImport(self).run(gtfs) }
        // Nothing to ask about: never nil.
        return try await Self.install(gtfs, source, name: name, ifChangedSince: nil, realtime: typedRealtime(keeping: gtfs), streets: streets)
            ?? Output([String](), data: [], table: [])
    }

    /// The real-time sources to remember: those typed, with the variables typed in them and the
    /// one `--realtime-key` names; with `--realtime-key` alone, the feed's remembered sources
    /// with that key chosen too (what a feed that reads an unchosen variable is told to do).
    func typedRealtime(keeping gtfs: GTFSContext) -> FeedStore.RealtimeSources {
        var typed = FeedStore.RealtimeSources(sources: realtime, headers: headers, keys: RealtimeKeys.typed(realtime, headers))
        if realtime.isEmpty, realtimeKey != nil, let known = gtfs.store.feeds().first(where: { $0.name == name ?? Self.stem(source) }) {
            typed = FeedStore.RealtimeSources(of: known)
        }
        if let key = realtimeKey, !typed.keys.contains(key) { typed.keys.append(key) }
        return typed
    }

    /// A feed from `source` compiled and installed as `name`; with `ifChangedSince`, a URL is asked with that import's validators, and nil
    /// says the server answered 304 (not modified).
    static let allIsReserved = TransitError.usage("a feed cannot be called 'all': --feed all means every imported feed", hint: "give it another name with --name NAME")

    /// The name a feed from `source` gets without `--name`: its file's, without `.zip` or
    /// `.gtfs` (`city.gtfs.zip` and `city.zip` are both "city"), else "feed".
    static func stem(_ source: String) -> String {
        var stem = (source as NSString).lastPathComponent
        for suffix in [".zip", ".gtfs"] where stem.lowercased().hasSuffix(suffix) { stem = String(stem.dropLast(suffix.count)) }
        return FeedStore.validName(stem) ? stem : "feed"
    }

    /// `replacing`: an update, which does not write back a feed removed meanwhile.
    static func install(_ gtfs: GTFSContext, _ source: String, name given: String?, ifChangedSince previous: FeedStore.Summary?,
                        realtime: FeedStore.RealtimeSources? = nil, streets map: String? = nil,
                        catalog: FeedStore.CatalogEntry? = nil, replacing: Bool = false) async throws(TransitError) -> Output? {
        // The map given, else the one the feed was imported with.
        let streets = map ?? previous?.streets
        var path = source
        var temporary: String?, token: Int?
        var validators: (etag: String?, lastModified: String?)?
        defer {
            if let temporary { unlink(temporary) }
            TemporaryFiles.forget(token)
        }
        gtfs.store.sweep()
        if HTTPRequest.isURL(source) {
            guard let url = URLComponents(string: source), let host = url.host, !host.isEmpty else { throw .usage("'\(source)' is not a URL") }
            var base = url
            base.path = ""
            base.query = nil
            var conditions: [String: String] = [:]
            if let etag = previous?.etag { conditions["If-None-Match"] = etag }
            if let date = previous?.lastModified { conditions["If-Modified-Since"] = date }
            let request = HTTPRequest(provider: "gtfs", baseURL: base.string ?? source, path: String(url.path.drop { $0 == "/" }),
                                      query: (url.queryItems ?? []).map { .init($0.name, $0.value ?? "") }, headers: conditions, expects: .zip,
                                      label: "the feed from \(host)", maxBodyBytes: GTFSCommandLine.maxFeedBytes)
            let response = try await gtfs.context.http.get(request) { $0 }
            if response.status == 304 { return nil }
            let body = response.body
            validators = (response.headers["etag"], response.headers["last-modified"])
            // In the cache, named with this process's pid: removed on every way out, Ctrl-C and
            // SIGTERM included, and swept by the next writer after a kill -9.
            try? FileManager.default.createDirectory(atPath: gtfs.store.root, withIntermediateDirectories: true)
            let file = (gtfs.store.root as NSString).appendingPathComponent(TemporaryFiles.name("download", suffix: ".zip"))
            token = TemporaryFiles.register(file)
            temporary = file
            do { try body.write(to: URL(fileURLWithPath: file)) } catch {
                throw .write(what: "the downloaded feed", path: file, reason: error.localizedDescription)
            }
            path = file
        }
        let name = given ?? stem(source)
        if name == "all" { throw Self.allIsReserved }
        var stored = source
        if temporary == nil {
            guard FileManager.default.fileExists(atPath: path) else {
                // A feed's name where a source belongs: say what it is, rather than "no feed".
                if let known = gtfs.store.feeds().first(where: { $0.name == source }) {
                    throw .usage("'\(source)' is the name of an imported feed (from \(known.source)); import takes its source: a GTFS zip, a directory or an http(s) URL")
                }
                throw .usage("no feed at \(source): give a GTFS zip, an unzipped feed directory or an http(s) URL")
            }
            // Kept as an absolute path, so that it still names the file from another directory.
            stored = URL(fileURLWithPath: path).standardizedFileURL.path
        }
        gtfs.progress("compiling \(name)")
        // A file's size and time, kept so that `update` reads it again only when it changed.
        let stamp = temporary == nil ? FeedStore.stamp(path) : nil
        // What real-time sources it had stay with it, unless new ones are given.
        let remembered = realtime ?? previous.map(FeedStore.RealtimeSources.init(of:))
        // Its catalog entry stays with it too (an update keeps the licence).
        let entry = catalog ?? previous.map { FeedStore.CatalogEntry(id: $0.catalog, license: $0.license) }
        let (summary, warnings) = try gtfs.store.install(try FeedFiles.open(path), name: name, source: stored, sourceStamp: stamp, validators: validators,
                                                    realtime: remembered, streets: streets, catalog: entry, replacing: replacing)
        let rows: [(String, Value)] = [
            ("name", .string(summary.name)), ("agencies", .list(summary.agencies.map(Value.string))), ("time_zone", .string(summary.timeZone)),
            ("first_date", .string(summary.firstDate)), ("last_date", .string(summary.lastDate)), ("stops", .int(summary.stops)),
            ("routes", .int(summary.routes)), ("trips", .int(summary.trips)), ("stop_times", .int(Int(summary.stopTimes))),
            ("patterns", .int(summary.patterns)), ("compiled_bytes", .int(summary.compiledBytes)), ("compile_ms", .int(summary.compileMilliseconds)),
            ("realtime", .list((summary.realtime ?? []).map(Value.string))), ("streets", summary.streets.map(Value.string) ?? .null),
            ("catalog", summary.catalog.map(Value.string) ?? .null), ("license", summary.license.map(Value.string) ?? .null),
        ]
        let data = rows.map { pair in Column<FeedStore.Summary>(pair.0) { _ in pair.1 } }
        var output = Output([summary], data: data, table: [], notices: warnings.map { "GTFS: " + $0 })
        output.json = .object(Record(rows))
        // The table is a list: one field a line.
        // The fields whole; a value too long for the terminal (a licence's URL) wraps.
        output.table = Grid(rows, [Column("field", "IMPORTED") { .string($0.0) }.whole(), Column("value", "") { $0.1 }.wrapping()])
        return output
    }
}
