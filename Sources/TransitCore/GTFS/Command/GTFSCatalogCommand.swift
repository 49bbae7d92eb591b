import Foundation
import TransitSupport
import TransitGTFS

/// `transit gtfs catalog search WORDS | show ID | update`: the Mobility Database's catalog of
/// GTFS and GTFS-Realtime feeds, to find a feed by name or place and import it by its id.
struct GTFSCatalogCommand: GTFSSubcommand {
    static let spec: CommandSpec = {
        var spec = CommandSpec(
            provider: "gtfs", name: "catalog", summary: "find a feed by name or place in the Mobility Database catalog",
            examples: ["transit gtfs catalog search bart", "transit gtfs catalog search bus --near 44.65,-63.57",
                       "transit gtfs catalog show mdb-53", "transit gtfs import mdb-53", "transit gtfs catalog update"],
            options: [OptionSpec("near", value: "LAT,LON", "search: feeds whose area holds the point, nearest centre first"),
                      OptionSpec("country", value: "CC", "search: feeds of this country (ISO 3166 code: US, CA, DE)"),
                      OptionSpec("all", "search: deprecated and inactive feeds too")],
            notes: ["search matches every word in a feed's provider, name and place (any order and case, accents folded); current feeds first; then whole words before prefixes before the inside of a word (bart finds BART before Hobart), official before others. Fields: id, provider, name, place, status, realtime (the kinds of its real-time feeds: tu trip updates, vp vehicle positions, sa service alerts), key (what a key its feeds need: none, query, header, ad hoc), license; JSON carries every field of the catalog, and its real-time feeds.",
                    "show ID: one feed with its real-time feeds, URLs, licence and features. update: download the catalog again.",
                    "The catalog is the Mobility Database's published CSV (v2), downloaded on first use into $TRANSIT_CACHE_DIR/catalog/ and again after 7 days; --offline, or a download that fails, uses the copy there with a notice. TRANSIT_CATALOG_URL names another copy.",
                    "transit gtfs import ID downloads a feed of the catalog and remembers its real-time feeds (docs/gtfs.md)."],
            positional: "search WORDS… | show ID | update")
        spec.positionalTakesRest = true
        spec.positionalChoices = ["search", "show", "update"]
        return spec
    }()

    enum Action: Sendable, Equatable {
        case search([String])
        case show(String)
        case update
    }

    var action: Action
    var near: Coordinate?
    var country: String?
    var all: Bool

    init(_ args: Arguments) throws(TransitError) {
        let words = (args.positional ?? "").split(separator: " ").map(String.init)
        switch words.first {
        case "search":
            let near = try args.string("near"), country = try args.string("country")
            guard words.count > 1 || near != nil || country != nil else {
                throw .usage("catalog search needs words (a provider, a name or a place) or --near or --country", hint: "transit gtfs catalog search bart")
            }
            action = .search(Array(words.dropFirst()))
        case "show":
            guard words.count == 2 else { throw .usage("catalog show takes one feed id, like mdb-53", hint: "find one with: transit gtfs catalog search WORDS") }
            action = .show(words[1])
        case "update":
            guard words.count == 1 else { throw .usage("catalog update takes no words") }
            action = .update
        default:
            throw .usage("catalog takes search WORDS, show ID or update, not '\(words.first ?? "")'", hint: "usage: \(Self.spec.usage)")
        }
        if let text = try args.string("near") {
            guard let point = Coordinate(parsing: text) else { throw .usage("--near takes LAT,LON in degrees, like 37.77,-122.42, not '\(text)'") }
            near = point
        }
        country = try args.string("country")?.uppercased()
        if let country, country.count != 2 || !country.allSatisfy({ $0.isASCII && $0.isLetter }) {
            throw .usage("--country takes a two-letter ISO 3166 code (US, CA, DE), not '\(country)'")
        }
        all = try args.flag("all")
        if case .search = action {} else if near != nil || country != nil || all {
            throw .usage("--near, --country and --all go with catalog search")
        }
    }

    func run(_ gtfs: GTFSContext) async throws(TransitError) -> Output {
        switch action {
        case .update:
            let catalog = try await CatalogCache(gtfs).refreshed()
            // Every row made a feed once (each is 27 Strings), not once per column.
            let realtime = catalog.feeds.filter(\.isRealtime).count
            return Output([catalog], data: [Column("feeds") { .int($0.count - realtime) }, Column("realtime_feeds") { _ in .int(realtime) },
                                            Column("file") { _ in .string(CatalogCache(gtfs).path) }], table: [])
        case .search(let words):
            let (catalog, notices) = try await CatalogCache(gtfs).current()
            let found = catalog.search(words, near: near, country: country, all: all)
            var out = Self.output(found, catalog)
            out.notices = notices + (found.isEmpty ? ["No feed of the catalog matches\(words.isEmpty ? "" : " '\(words.joined(separator: " "))'")\(all ? "" : "; --all looks at deprecated and inactive feeds too")"] : [])
            return out
        case .show(let id):
            let (catalog, notices) = try await CatalogCache(gtfs).current()
            let feed = try Self.feed(id, in: catalog)
            var out = Self.output([feed], catalog, realtimeFeeds: true, width: gtfs.settings.tableWidth)
            out.notices = notices
            return out
        }
    }

    /// The feed `id` names, or a usage error with the ids that look like it.
    static func feed(_ id: String, in catalog: FeedCatalog) throws(TransitError) -> CatalogFeed {
        if let feed = catalog.feed(id) { return feed }
        // `53` for `mdb-53`.
        if let feed = catalog.feed("mdb-" + id) { return feed }
        throw .usage("no feed '\(id)' in the catalog", hint: "find one with: transit gtfs catalog search WORDS")
    }

    /// What key a feed and its real-time feeds need, in a word.
    static func key(_ feeds: [CatalogFeed]) -> String {
        let kinds = Set(feeds.compactMap(\.authenticationType))
        return kinds.isEmpty || kinds == [0] ? "none" : kinds.sorted().filter { $0 != 0 }.map { [1: "query", 2: "header", 3: "ad hoc"][$0] ?? "other" }.joined(separator: ",")
    }

    static func record(_ feed: CatalogFeed) -> Record {
        Record([("id", .string(feed.id)), ("data_type", .string(feed.dataType)), ("entity_type", .list(feed.entityTypes.map(Value.string))),
                ("country_code", .string(feed.countryCode)), ("subdivision_name", .string(feed.subdivision)), ("municipality", .string(feed.municipality)),
                ("provider", .string(feed.provider)), ("is_official", feed.isOfficial.map(Value.bool) ?? .null), ("name", .string(feed.name)),
                ("note", .string(feed.note)), ("feed_contact_email", .string(feed.contactEmail)),
                ("static_reference", .list(feed.staticReference.map(Value.string))), ("direct_download", .string(feed.directDownload)),
                ("authentication_type", feed.authenticationType.map(Value.int) ?? .null), ("authentication_info", .string(feed.authenticationInfo)),
                ("api_key_parameter_name", .string(feed.apiKeyParameterName)), ("latest", .string(feed.latest)), ("license", .string(feed.license)),
                ("bounding_box", feed.boundingBox.map { .object(Record([("minimum_latitude", .double($0.south)), ("maximum_latitude", .double($0.north)),
                                                                        ("minimum_longitude", .double($0.west)), ("maximum_longitude", .double($0.east))])) } ?? .null),
                ("extracted_on", .string(feed.extractedOn)), ("status", .string(feed.status)), ("features", .list(feed.features.map(Value.string))),
                ("redirect_id", .string(feed.redirectID)), ("redirect_comment", .string(feed.redirectComment))])
    }

    /// A provider list's first name and how many follow, the table's shorter form of a list too
    /// long for its column (Transport for Greater Manchester's names 57 operators in 900 characters).
    @Sendable static func firstProvider(_ providers: String) -> String {
        let names = providers.components(separatedBy: ", ")
        guard let first = names.first, names.count > 1 else { return providers }
        return first + " and \(names.count - 1) more"
    }

    /// The kinds of real-time data a feed has (its current real-time feeds'): tu, vp, sa.
    static func kinds(_ feed: CatalogFeed, _ realtime: [CatalogFeed]) -> [String] {
        let current = feed.isRealtime ? [feed] : realtime.filter(\.isCurrent)
        return ["tu", "vp", "sa"].filter { kind in current.contains { $0.entityTypes.contains(kind) } }
    }

    static func output(_ feeds: [CatalogFeed], _ catalog: FeedCatalog, realtimeFeeds: Bool = false, width: Int? = nil) -> Output {
        typealias Row = (feed: CatalogFeed, realtime: [CatalogFeed])
        let realtime = catalog.realtime(of: feeds.filter { !$0.isRealtime }.map(\.id))
        let rows: [Row] = feeds.map { ($0, $0.isRealtime ? [] : realtime[$0.id] ?? []) }
        // tsv and the table: the columns below; JSON: every field of the catalog, and the
        // real-time feeds with theirs.
        // In a narrow table the licence's URL gives way first; the id (what import takes) and the
        // provider never do.
        let data: [Column<Row>] = [
            Column("id", in: .flat) { .string($0.feed.id) }.whole(), Column("provider", in: .flat) { .string($0.feed.provider) }.wrapping(brief: { .string(Self.firstProvider($0.feed.provider)) }),
            Column("name", in: .flat) { .string($0.feed.name) }.wrapping(), Column("place", in: .flat) { .string($0.feed.place) }.wrapping(),
            Column("status", in: .flat) { .string($0.feed.status) }.whole(),
            Column("realtime", "RT", in: .flat) { .string(Self.kinds($0.feed, $0.realtime).joined(separator: ",")) }.whole(),
            Column("key", in: .flat) { .string(key([$0.feed] + $0.realtime.filter(\.isCurrent))) }.whole(),
            Column("license", in: .flat) { .string($0.feed.license) }.shrinkingFirst(),
            Column("feed", in: .json) { .object(record($0.feed)) },
            Column("realtime_feeds", in: .json) { .list($0.realtime.map { .object(record($0)) }) },
        ]
        var out = Output(rows, data: data, table: Array(data.prefix(8)))
        if realtimeFeeds, let row = rows.first {
            // show: one field a line, as `git show` or `kubectl describe` (a one-row table was
            // 900 characters wide); each real-time feed on a line of its own.
            out.table = Grid()
            out.tableBefore = described(row.feed, row.realtime, width: width)
        }
        return out
    }

    /// `provider:  Caltrain`: a feed's fields a line each, the labels aligned; its real-time
    /// feeds under it, one a line. On a terminal (`width`), a value wraps between its words under
    /// its own start (Transport for Greater Manchester's 900 characters of providers); a URL
    /// wider than that stands whole on its line.
    static func described(_ feed: CatalogFeed, _ realtime: [CatalogFeed], width: Int? = nil) -> [String] {
        let fields: [(String, [String])] = [
            ("id", [feed.id]), ("provider", [feed.provider]), ("name", [feed.name]), ("place", [feed.place]), ("status", [feed.status]),
            ("key", [key([feed] + realtime.filter(\.isCurrent))]), ("license", [feed.license]), ("download", [feed.directDownload]),
            ("copy", [feed.latest]), ("features", [feed.features.joined(separator: ", ")]),
            ("realtime", realtime.map { rt in
                "\(rt.id) \(rt.entityTypes.joined(separator: ",")) \(rt.status) key: \(key([rt]))\(rt.apiKeyParameterName.isEmpty ? "" : " (\(rt.apiKeyParameterName))") \(rt.directDownload)"
            }),
        ].filter { !$0.1.allSatisfy(\.isEmpty) }
        let column = (fields.map { $0.0.count }.max() ?? 0) + 3
        return fields.flatMap { label, values in
            values.enumerated().flatMap { i, value -> [String] in
                let label = TextWidth.pad(i == 0 ? label + ":" : "", to: column), text = Sanitize.text(value).replacingOccurrences(of: "\n", with: " ")
                guard let width else { return [label + text] }
                return Help.fill(text.split(separator: " ").map(String.init), width: width, first: label, indent: column)
            }
        }
    }
}

/// The catalog's copy in the cache: downloaded on first use, again after `maxAge`, or on
/// `catalog update`; read from the copy when offline or when a download fails, with a notice.
struct CatalogCache {
    static let defaultURL = "https://files.mobilitydatabase.org/feeds_v2.csv"
    static let maxAge: TimeInterval = 7 * 86_400
    /// The published file is about 2.4 MB; far more is not it.
    static let maxBytes = 64 << 20

    let gtfs: GTFSContext
    init(_ gtfs: GTFSContext) { self.gtfs = gtfs }

    var path: String { (gtfs.settings.cacheDirectory as NSString).appendingPathComponent("catalog/feeds_v2.csv") }
    var url: String { gtfs.settings.variables["TRANSIT_CATALOG_URL"] ?? Self.defaultURL }

    /// The copy's date, when there is one.
    var copied: Date? { (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date }

    /// The catalog to answer from, with what to say about it.
    func current() async throws(TransitError) -> (FeedCatalog, notices: [String]) {
        if let copied, gtfs.settings.offline {
            return (try cached(), ["offline: the catalog as downloaded on \(ISO8601DateFormatter.day(copied))"])
        }
        if let copied, gtfs.settings.now.timeIntervalSince(copied) < Self.maxAge { return (try cached(), []) }
        do {
            return (try await refreshed(), [])
        } catch {
            guard let copied, error.exitStatus != 2 else { throw error }
            return (try cached(), ["the catalog could not be downloaded again (\(error.message)); using the copy of \(ISO8601DateFormatter.day(copied))"])
        }
    }

    func cached() throws(TransitError) -> FeedCatalog { try FeedCatalog(file: path, what: "the cached catalog (\(path))") }

    /// Downloads the catalog, checks it is one, and keeps it in place of the copy (which a
    /// failure leaves as it was).
    func refreshed() async throws(TransitError) -> FeedCatalog {
        guard let components = URLComponents(string: url), let scheme = components.scheme, ["http", "https"].contains(scheme.lowercased()),
              let host = components.host, !host.isEmpty else {
            throw .usage("TRANSIT_CATALOG_URL must be an http(s) URL, not '\(url)'")
        }
        var base = components
        base.path = ""
        base.query = nil
        gtfs.progress("downloading the feed catalog")
        let request = HTTPRequest(provider: "gtfs", baseURL: base.string ?? url, path: String(components.path.drop { $0 == "/" }),
                                  query: (components.queryItems ?? []).map { .init($0.name, $0.value ?? "") }, expects: .csv,
                                  label: "the feed catalog from \(host)", maxBodyBytes: Self.maxBytes)
        let body = try await gtfs.context.http.get(request) { $0.body }
        let directory = (path as NSString).deletingLastPathComponent
        do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
            throw .write(what: "the feed catalog", path: directory, reason: error.localizedDescription)
        }
        let temporary = (directory as NSString).appendingPathComponent(TemporaryFiles.name("download", suffix: ".csv"))
        let token = TemporaryFiles.register(temporary)
        defer {
            unlink(temporary)
            TemporaryFiles.forget(token)
        }
        do { try body.write(to: URL(fileURLWithPath: temporary)) } catch {
            throw .write(what: "the feed catalog", path: temporary, reason: error.localizedDescription)
        }
        let catalog = try FeedCatalog(file: temporary, what: "the feed catalog from \(host)")
        // Dated on the clock queries are asked on (`TRANSIT_NOW` when pinned), which its age is
        // measured with.
        try? FileManager.default.setAttributes([.modificationDate: gtfs.settings.now], ofItemAtPath: temporary)
        guard rename(temporary, path) == 0 else {
            throw .write(what: "the feed catalog", path: path, reason: String(cString: strerror(errno)))
        }
        return catalog
    }
}

extension ISO8601DateFormatter {
    /// `2026-11-25`, in UTC.
    static func day(_ date: Date) -> String { LocalDate(date, in: .utc).iso }
}
